"""Issue 18, item 6: the commit path removes what it creates on every failure, and the
next command removes what a crash left — temporaries, rollback copies, empty folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import environment, leftovers, snapshot
from test_crash_and_journal import ORIGINAL, _apply, _project

from kopipasta.disk import journal


def _undo(root: Path):  # type: ignore[no-untyped-def]
    return kopipasta("undo", "--root", str(root), cwd=root, env=environment())


# Every temporary (journal copies, the manifest, the project files' new bytes) passes these
# points once it exists: a failing write or fsync used to leave it beside its file, with its
# journal entry dropped, so no later command removed it.
FAULTS = [
    f"temporary-{step}:{error}:{n}"
    for step in ("write", "fsync")
    for error, counts in (("enospc", (1, 4, 6, 7, 9)), ("eio", (5, 8)), ("edquot", (6,)), ("erofs", (7,)))
    for n in counts
]


@pytest.mark.parametrize("fault", FAULTS)
def test_a_temporary_that_cannot_be_written_is_removed_under_strict(tmp_path: Path, fault: str) -> None:
    root = _project(tmp_path)
    before = snapshot(root)
    result = _apply(root, "--strict", "--json", KOPIPASTA_FAULT=fault)
    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["written"] is False
    assert leftovers(root) == [], "no temporary beside any file, none in the journal"
    assert snapshot(root) == before, "no file written, no folder left"
    assert journal.depth(root) == 0


@pytest.mark.parametrize("fault", [f"temporary-write:enospc:{n}" for n in (6, 7, 9)])
def test_without_strict_a_failed_temporary_leaves_nothing_and_undo_restores_the_rest(tmp_path: Path, fault: str) -> None:
    root = _project(tmp_path)
    result = _apply(root, "--json", KOPIPASTA_FAULT=fault)
    assert result.returncode == 1, result.stdout + result.stderr
    assert leftovers(root) == []
    assert _undo(root).returncode == 0
    assert leftovers(root) == []
    restored = snapshot(root)
    assert {k: v for k, v in restored.items() if not k.endswith("/")} == ORIGINAL


def test_a_rollback_that_fails_leaves_no_rollback_copy_and_undo_finishes_it(tmp_path: Path) -> None:
    """A rename fails after two files were renamed; putting the first back fails too: the
    entry stays (incomplete), no `.rollback` copy is left, and undo restores every file."""
    root = _project(tmp_path)
    before = snapshot(root)
    result = _apply(root, "--strict", "--json", KOPIPASTA_FAULT="rename:eio:3,rollback:enospc:1")
    assert result.returncode == 1, result.stdout + result.stderr
    assert leftovers(root) == []
    assert journal.depth(root) == 1
    undone = _undo(root)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert snapshot(root) == before
    assert leftovers(root) == []


def test_the_next_command_removes_the_empty_folders_an_interrupted_apply_made(tmp_path: Path) -> None:
    """Killed after making `new/deep/` and before any rename: the next apply removes the
    empty folders (and the temporaries), and undo has nothing left to do but say so."""
    root = _project(tmp_path)
    before = snapshot(root)
    killed = _apply(root, "--strict", KOPIPASTA_FAULT="prepared:kill")
    assert killed.returncode == -9
    assert (root / "new" / "deep").is_dir()
    (tmp_path / "other.md").write_text("```python\n# FILE: z.py\nZ = 1\n```\n")
    following = kopipasta("apply", str(tmp_path / "other.md"), "--root", str(root), cwd=root, env=environment())
    assert following.returncode == 0, following.stdout + following.stderr
    assert not (root / "new").exists()
    assert leftovers(root) == []
    assert snapshot(root) == {**before, "z.py": b"Z = 1\n"}


def test_a_write_landing_between_the_last_check_and_the_rename_is_put_back(tmp_path: Path) -> None:
    """Issue 18, item 7: the rename window. An editor appends to the file after the last
    look and before the rename (the test pauses the apply exactly there): the replaced file
    is still open, the change is seen after the rename, and the rollback puts back the
    editor's bytes, not the apply's. What is left is a write into the few microseconds
    between the look after the rename and the rollback (README, RELIABILITY.md)."""
    from reliability import Paused

    (tmp_path / "app.py").write_text("def f():\n    return 0\n")
    (tmp_path / "r.md").write_text("```python\n# FILE: app.py\n# TARGET_NODE: function f\ndef f():\n    return 1\n```\n")
    paused = Paused(tmp_path, "before-rename", "apply", "r.md")
    assert paused.wait_paused()
    with (tmp_path / "app.py").open("a") as editor:
        editor.write("# the user's line\n")
    result = paused.resume()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "app.py changed on disk during the apply" in result.stdout
    assert (tmp_path / "app.py").read_text() == "def f():\n    return 0\n# the user's line\n"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("point", ["write", "temporary-write:2", "prepared", "before-rename"])  # 1st temporary: the folder list
def test_the_next_command_removes_the_empty_folders_a_killed_undo_made(tmp_path: Path, point: str) -> None:
    """Issue 28, item 10: `undo --force` recreates the folders of a file the user removed since the
    apply; killed then, it left them empty, and no later command removed them (no apply had
    recorded them). The undo writes them into its entry first; the next command removes the
    empty ones, and a later undo makes them again."""
    root = tmp_path / "project"
    (root / "sub" / "deep").mkdir(parents=True)
    (root / "sub" / "deep" / "app.py").write_text("def a():\n    return 1\n")
    (root / "keep").mkdir()  # the user's own empty folder: never ours to remove
    reply = "```python\n# FILE: sub/deep/app.py\n# TARGET_NODE: function a\ndef a():\n    return 2\n```\n"
    assert kopipasta("apply", "-", cwd=root, stdin=reply, env=environment()).returncode == 0
    import shutil

    shutil.rmtree(root / "sub")
    killed = kopipasta("undo", "--force", cwd=root, env=environment(KOPIPASTA_FAULT=point.replace(":", ":kill:") if ":" in point else f"{point}:kill"))
    assert killed.returncode == -9
    assert (root / "sub" / "deep").is_dir()
    following = kopipasta("apply", "-", cwd=root, stdin="```python\n# FILE: z.py\nZ = 1\n```\n", env=environment())
    assert following.returncode == 0, following.stdout + following.stderr
    assert not (root / "sub").exists(), "the killed undo's empty folders are removed"
    assert (root / "keep").is_dir()
    assert leftovers(root) == []
    assert _undo(root).returncode == 0  # z.py
    again = kopipasta("undo", "--force", cwd=root, env=environment())
    assert again.returncode == 0, again.stdout + again.stderr
    assert (root / "sub" / "deep" / "app.py").read_text() == "def a():\n    return 1\n"
    assert leftovers(root) == [] and journal.depth(root) == 0
