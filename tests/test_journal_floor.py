"""Issue 26: the write at its floor. One edit of one file costs five fsyncs (the journal's copy of
the old bytes, its manifest, the journal folder, the new bytes, the file's folder); the complete mark
has no sync of its own, and a mark lost to a power cut is told from the files' hashes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import environment

from kopipasta.disk import beneath, journal
from kopipasta.model import FileChange

REPLY = "```python\n# FILE: a.py\n# TARGET_NODE: function a\ndef a():\n    return 1\n```\n"


def _fsyncs(monkeypatch: pytest.MonkeyPatch, root: Path, changes: list[FileChange]) -> int:
    with beneath.root_descriptor(root) as root_fd:  # the state folder's .gitignore is written once, before
        os.close(journal.ensure_state_dir_fd(root_fd))
    real = os.fsync
    calls: list[int] = []

    def counting(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    with journal.writing(root) as project:
        journal.write_changes(project, changes)
    monkeypatch.setattr(os, "fsync", real)
    return len(calls)


def test_one_edit_costs_five_fsyncs_and_two_files_in_one_folder_one_folder_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app/a.py").write_bytes(b"A = 0\n")
    (tmp_path / "app/b.py").write_bytes(b"B = 0\n")
    one = [FileChange("app/a.py", b"A = 0\n", b"A = 1\n")]
    assert _fsyncs(monkeypatch, tmp_path, one) == 5
    assert (tmp_path / "app/a.py").read_bytes() == b"A = 1\n"
    two = [FileChange("app/a.py", b"A = 1\n", b"A = 2\n"), FileChange("app/b.py", b"B = 0\n", b"B = 2\n")]
    # two copies, the manifest, the journal folder, two new files, one folder (was 10: a sync per file's folder, two for the mark)
    assert _fsyncs(monkeypatch, tmp_path, two) == 7


def _entry(root: Path) -> Path:
    entries = sorted(p for p in (root / ".kopipasta/journal").iterdir() if not p.name.startswith("."))
    return entries[-1]


def test_a_lost_complete_mark_is_told_from_the_files(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_bytes(b"def a():\n    return 0\n")
    (tmp_path / "reply.md").write_text(REPLY)
    applied = kopipasta("apply", str(tmp_path / "reply.md"), "--root", str(root), cwd=root, env=environment())
    assert applied.returncode == 0, applied.stderr
    mark = _entry(root) / "complete"
    mark.unlink()  # as a power cut after the renames' sync may lose it
    (tmp_path / "other.md").write_text("```python\n# FILE: z.py\nZ = 1\n```\n")
    following = kopipasta("apply", str(tmp_path / "other.md"), "--root", str(root), cwd=root, env=environment())
    assert following.returncode == 0
    assert "interrupted" not in following.stdout
    assert mark.exists()  # marked once told, so no later command reads the files again
    undone = kopipasta("undo", "--root", str(root), cwd=root, env=environment())
    undone = kopipasta("undo", "--root", str(root), cwd=root, env=environment())
    assert undone.returncode == 0, undone.stderr
    assert (root / "a.py").read_bytes() == b"def a():\n    return 0\n"


def test_without_the_mark_a_file_not_as_recorded_is_still_an_interrupted_apply(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_bytes(b"def a():\n    return 0\n")
    (tmp_path / "reply.md").write_text(REPLY)
    assert kopipasta("apply", str(tmp_path / "reply.md"), "--root", str(root), cwd=root, env=environment()).returncode == 0
    (_entry(root) / "complete").unlink()
    (root / "a.py").write_bytes(b"def a():\n    return 0\n")  # as if the rename never reached the disk
    (tmp_path / "other.md").write_text("```python\n# FILE: z.py\nZ = 1\n```\n")
    following = kopipasta("apply", str(tmp_path / "other.md"), "--root", str(root), cwd=root, env=environment())
    assert following.returncode == 0
    assert following.stdout.startswith("ℹ The apply recorded as 000001-")
    assert not (_entry(root).parent / sorted(os.listdir(_entry(root).parent))[0] / "complete").exists()

