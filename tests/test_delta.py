"""`kopipasta apply --json`'s per-file delta (`files`, issue 20), checked against the files on disk.

Each entry must let a program verify the apply without reading the files back:
the SHA-256 of the bytes before and after (the after one equal to the file on
disk), the newline style, created / modified / deleted / renamed, the changed
lines of the new file, and a unified diff that turns the old bytes into the new.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from test_mcp_server import replay


def apply_json(root: Path, reply: str, *args: str) -> dict[str, Any]:
    (root.parent / "reply.md").write_text(reply)
    done = subprocess.run(
        [sys.executable, "-m", "kopipasta", "apply", str(root.parent / "reply.md"), "--root", str(root), "--json", *args],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_modified_crlf_file_and_a_created_one(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    before = b"def f():\r\n    return 1\r\n\r\n\r\ndef g():\r\n    return 2\r\n"
    (root / "app.py").write_bytes(before)
    reply = (
        "```python\n# FILE: app.py\n# TARGET_NODE: g\ndef g():\n    x = 2\n    return x\n```\n\n"
        "```python\n# FILE: pkg/new.py\nVALUE = 1\n```\n"
    )
    report = apply_json(root, reply)
    files = {d["path"]: d for d in report["files"]}
    assert sorted(files) == ["app.py", "pkg/new.py"]

    modified = files["app.py"]
    after = (root / "app.py").read_bytes()
    assert after == b"def f():\r\n    return 1\r\n\r\n\r\ndef g():\r\n    x = 2\r\n    return x\r\n"
    assert modified["change"] == "modified" and modified["renamed_from"] is None
    assert (modified["sha256_before"], modified["sha256_after"]) == (digest(before), digest(after))
    assert modified["newline"] == "crlf"
    assert modified["changed_lines"] == [[6, 7]]
    assert (modified["lines_before"], modified["lines_after"]) == (6, 7)
    # The diff's lines are text without their endings, as `--diff` prints them.
    assert replay(before.decode().replace("\r\n", "\n"), modified["diff"]) == (after.decode().replace("\r\n", "\n"), [[6, 7]])

    created = files["pkg/new.py"]
    assert created["change"] == "created"
    assert created["sha256_before"] is None and created["sha256_after"] == digest((root / "pkg/new.py").read_bytes())
    assert created["changed_lines"] == [[1, 1]]
    assert created["diff"] == "--- /dev/null\n+++ b/pkg/new.py\n@@ -0,0 +1 @@\n+VALUE = 1\n"


def test_a_rename_is_one_entry_under_its_new_name(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    before = b"x = 1\ny = 2\n"
    (root / "old.py").write_bytes(before)
    reply = (
        "```\n*** Begin Patch\n*** Update File: old.py\n*** Move to: new.py\n@@\n x = 1\n-y = 2\n+y = 3\n*** End Patch\n```\n"
    )
    report = apply_json(root, reply, "--allow-delete")
    assert not (root / "old.py").exists()
    (renamed,) = report["files"]
    assert renamed["path"] == "new.py" and renamed["change"] == "renamed" and renamed["renamed_from"] == "old.py"
    assert renamed["sha256_before"] == digest(before)
    assert renamed["sha256_after"] == digest((root / "new.py").read_bytes())
    assert renamed["changed_lines"] == [[2, 2]]
    assert renamed["diff"] == "--- a/old.py\n+++ b/new.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n"


def test_a_deleted_file_and_a_dry_run(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "gone.py").write_bytes(b"a = 1\n")
    (root / "kept.py").write_bytes(b"def f():\n    return 1\n")
    reply = "```python\n# FILE: gone.py\n<<<DELETE>>>\n```\n"
    report = apply_json(root, reply, "--allow-delete")
    (deleted,) = report["files"]
    assert deleted["change"] == "deleted" and deleted["sha256_after"] is None
    assert deleted["sha256_before"] == digest(b"a = 1\n") and deleted["changed_lines"] == []
    assert deleted["diff"] == "--- a/gone.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-a = 1\n"

    dry = apply_json(root, "```python\n# FILE: kept.py\n# TARGET_NODE: f\ndef f():\n    return 2\n```\n", "--dry-run")
    (would,) = dry["files"]
    assert (root / "kept.py").read_bytes() == b"def f():\n    return 1\n"
    assert would["sha256_after"] == digest(b"def f():\n    return 2\n") and would["changed_lines"] == [[2, 2]]


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kopipasta.disk.delta import file_delta  # noqa: E402

_LINES = st.lists(st.sampled_from(["a", "b", "c", "", "    d", "x = 1"]), max_size=30)


@settings(max_examples=300, deadline=None)
@given(_LINES, _LINES, st.sampled_from(["\n", "\r\n"]), st.booleans(), st.booleans())
def test_the_diff_rebuilds_the_new_bytes_and_its_added_lines_are_the_changed_lines(
    old: list[str], new: list[str], newline: str, old_ends: bool, new_ends: bool
) -> None:
    before = newline.join(old) + (newline if old and old_ends else "")
    after = newline.join(new) + (newline if new and new_ends else "")
    delta = file_delta("f.py", before.encode(), after.encode())
    assert (delta["lines_before"], delta["lines_after"]) == (len(before.splitlines()), len(after.splitlines()))
    if before == after:
        assert delta["diff"] == "" and delta["changed_lines"] == []
        return
    rebuilt, added = replay(before.replace("\r\n", "\n"), delta["diff"])
    assert rebuilt == after.replace("\r\n", "\n")
    assert added == delta["changed_lines"]
