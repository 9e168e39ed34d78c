"""`kopipasta undo`: the last apply put back byte for byte, through the real CLI."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cli_process import kopipasta

from kopipasta.disk import journal
from kopipasta.disk.undo import undo_newest
from kopipasta.engine import apply_reply

# CRLF, a BOM and no final newline: undo must give back exactly these bytes.
ORIGINAL = b"\xef\xbb\xbfdef greet():\r\n    return 'hi'\r\n\r\n\r\ndef other():\r\n    return 0"

REPLY_1 = """\
```python
# FILE: app.py
# TARGET_NODE: function greet
def greet():
    return 'hello'
```

```python
# FILE: pkg/deep/new.py
VALUE = 1
```
"""

REPLY_2 = """\
```python
# FILE: app.py
# TARGET_NODE: function other
def other():
    return 42
```
"""


def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_bytes(ORIGINAL)
    (root / "reply1.md").write_text(REPLY_1, encoding="utf-8")
    (root / "reply2.md").write_text(REPLY_2, encoding="utf-8")
    return root


def test_undo_restores_bytes_and_removes_created_files(tmp_path: Path) -> None:
    root = project(tmp_path)
    applied = kopipasta("apply", "reply1.md", cwd=root)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert (root / "app.py").read_bytes() != ORIGINAL
    assert (root / "pkg/deep/new.py").read_bytes() == b"VALUE = 1\n"

    undone = kopipasta("undo", cwd=root)
    assert undone.returncode == 0, undone.stderr
    assert (root / "app.py").read_bytes() == ORIGINAL
    assert not (root / "pkg/deep/new.py").exists()
    assert not (root / "pkg").exists(), "folders the apply created are removed when empty"
    assert undone.stdout.strip() == (
        "↩ Undone: restored app.py; removed pkg/deep/new.py (nothing more to undo)."
    )


def test_undo_keeps_a_created_folder_that_holds_other_files(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "reply1.md", cwd=root).returncode == 0
    (root / "pkg/mine.txt").write_text("user's own file\n")
    assert kopipasta("undo", cwd=root).returncode == 0
    assert not (root / "pkg/deep").exists()
    assert (root / "pkg/mine.txt").read_text() == "user's own file\n"


def test_two_applies_are_undone_newest_first(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "reply1.md", cwd=root).returncode == 0
    after_first = (root / "app.py").read_bytes()
    assert kopipasta("apply", "reply2.md", cwd=root).returncode == 0
    assert (root / "app.py").read_bytes() != after_first

    first = kopipasta("undo", cwd=root)
    assert first.returncode == 0
    assert "1 earlier apply can still be undone" in first.stdout
    assert (root / "app.py").read_bytes() == after_first
    assert (root / "pkg/deep/new.py").exists()

    second = kopipasta("undo", cwd=root)
    assert second.returncode == 0
    assert (root / "app.py").read_bytes() == ORIGINAL
    assert not (root / "pkg/deep/new.py").exists()

    nothing = kopipasta("undo", cwd=root)
    assert nothing.returncode == 1
    assert nothing.stderr.strip() == "❌ Nothing to undo: no apply is recorded in .kopipasta/"
    assert (root / "app.py").read_bytes() == ORIGINAL


def test_undo_refuses_after_an_edit_and_lists_the_file(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "reply1.md", cwd=root).returncode == 0
    edited = (root / "app.py").read_bytes() + b"\r\n# my edit\r\n"
    (root / "app.py").write_bytes(edited)

    refused = kopipasta("undo", cwd=root)
    assert refused.returncode == 1
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "Refusing to undo: changed since that apply: app.py" in refused.stderr
    assert "--force" in refused.stderr
    assert (root / "app.py").read_bytes() == edited, "a refused undo writes nothing"
    assert (root / "pkg/deep/new.py").exists()
    assert journal.depth(root) == 1, "a refused undo keeps its entry"


def test_undo_force_puts_the_apply_back_anyway(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "reply1.md", cwd=root).returncode == 0
    (root / "app.py").write_bytes(b"edited\n")
    (root / "pkg/deep/new.py").unlink()

    forced = kopipasta("undo", "--force", cwd=root)
    assert forced.returncode == 0, forced.stderr
    assert (root / "app.py").read_bytes() == ORIGINAL
    assert not (root / "pkg").exists()


def test_undo_with_root_option(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "project/reply1.md", "--root", "project", cwd=tmp_path).returncode == 0
    assert kopipasta("undo", "--root", "project", cwd=tmp_path).returncode == 0
    assert (root / "app.py").read_bytes() == ORIGINAL


def test_state_folder_ignores_itself_for_git(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "reply1.md", cwd=root).returncode == 0
    ignore = (root / ".kopipasta/.gitignore").read_text(encoding="utf-8")
    assert "*" in ignore.splitlines()
    git = subprocess.run(["git", "--version"], capture_output=True, check=False)
    if git.returncode == 0:
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all"],
            cwd=root, capture_output=True, text=True, check=True,
        ).stdout
        assert ".kopipasta" not in status


def test_dry_run_and_unchanged_applies_record_nothing(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "reply1.md", "--dry-run", cwd=root).returncode == 0
    assert journal.depth(root) == 0
    assert kopipasta("apply", "reply1.md", cwd=root).returncode == 0
    assert kopipasta("apply", "reply1.md", cwd=root).returncode == 0  # already in place
    assert journal.depth(root) == 1


def test_history_is_bounded(tmp_path: Path) -> None:
    root = tmp_path
    (root / "n.py").write_text("def f():\n    return 0\n", encoding="utf-8")
    for value in range(1, journal.HISTORY + 6):
        reply = f"```python\n# FILE: n.py\n# TARGET_NODE: f\ndef f():\n    return {value}\n```\n"
        assert apply_reply(reply, root).written
    assert journal.depth(root) == journal.HISTORY
    for _ in range(journal.HISTORY):
        undo_newest(root)
    # The oldest five applies fell off the end: undo stops at the value they left.
    assert (root / "n.py").read_text(encoding="utf-8") == "def f():\n    return 5\n"
    assert journal.depth(root) == 0


def test_undo_only_the_named_entry(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert apply_reply(REPLY_1, root).written
    first = journal.newest(root)
    assert apply_reply(REPLY_2, root).written
    try:
        undo_newest(root, entry=first)
    except journal.JournalError as error:
        assert "newest apply" in str(error)
    else:
        raise AssertionError("undo of an older entry must be refused")
    assert journal.depth(root) == 2


def test_a_damaged_entry_is_one_line(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "reply1.md", cwd=root).returncode == 0
    entry = root / ".kopipasta/journal" / str(journal.newest(root))
    (entry / "manifest.json").write_text("{not json", encoding="utf-8")
    damaged = kopipasta("undo", cwd=root)
    assert damaged.returncode == 1
    assert damaged.stderr.startswith("❌ The journal entry ")
    assert "damaged" in damaged.stderr
