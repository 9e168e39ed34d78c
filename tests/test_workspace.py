"""Writing: atomic, confined to the root, the file's permissions kept, symlinks written through."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kopipasta.disk.workspace import confine, normalise
from kopipasta.engine import apply_reply
from kopipasta.errors import ConfinementError
from kopipasta.model import Status

REPLY = "```python\n# FILE: bin/run.py\n# TARGET_NODE: function main\ndef main():\n    return 2\n```\n"


def test_an_executable_script_stays_executable(tmp_path: Path) -> None:
    script = tmp_path / "bin" / "run.py"
    script.parent.mkdir()
    script.write_text("#!/usr/bin/env python3\ndef main():\n    return 1\n")
    script.chmod(0o750)
    (outcome,) = apply_reply(REPLY, tmp_path).outcomes
    assert outcome.status is Status.APPLIED
    assert script.read_text() == "#!/usr/bin/env python3\ndef main():\n    return 2\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o750


def test_no_temporary_file_is_left_behind(tmp_path: Path) -> None:
    script = tmp_path / "bin" / "run.py"
    script.parent.mkdir()
    script.write_text("def main():\n    return 1\n")
    apply_reply(REPLY, tmp_path)
    assert sorted(p.name for p in script.parent.iterdir()) == ["run.py"]


def test_a_symlink_inside_the_root_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "src" / "run.py"
    real.parent.mkdir()
    real.write_text("def main():\n    return 1\n")
    (tmp_path / "bin").mkdir()
    os.symlink("../src/run.py", tmp_path / "bin" / "run.py")
    (outcome,) = apply_reply(REPLY, tmp_path).outcomes
    assert outcome.status is Status.APPLIED
    assert (tmp_path / "bin" / "run.py").is_symlink()
    assert real.read_text() == "def main():\n    return 2\n"


def test_a_new_file_gets_the_umask_permissions(tmp_path: Path) -> None:
    reply = "```python\n# FILE: pkg/new.py\nVALUE = 1\n```\n"
    old = os.umask(0o022)
    try:
        apply_reply(reply, tmp_path)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "pkg" / "new.py").stat().st_mode) == 0o644


@pytest.mark.parametrize(
    ("path", "fragment"),
    [
        ("/etc/passwd", "Refusing absolute path /etc/passwd"),
        ("C:\\Windows\\win.ini", "Refusing absolute path"),
        ("~/.bashrc", "Refusing absolute path"),
        ("src/../../outside.py", "it leaves the project root"),
        (".git/hooks/pre-commit", "files under .git/ and .kopipasta/ are not patched"),
        ("sub/.git/config", "files under .git/ and .kopipasta/ are not patched"),
        (".kopipasta/disk/journal/x", "files under .git/ and .kopipasta/ are not patched"),
        (".", "it names the project root itself"),
    ],
)
def test_paths_that_leave_the_root_are_refused(tmp_path: Path, path: str, fragment: str) -> None:
    with pytest.raises(ConfinementError) as refused:
        confine(tmp_path, path)
    assert fragment in refused.value.message


def test_windows_separators_and_dot_segments_are_normalised() -> None:
    assert normalise("src\\app\\..\\lib\\./util.py") == "src/lib/util.py"


def test_a_failure_during_the_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kopipasta.disk import workspace

    target = tmp_path / "data.txt"
    target.write_bytes(b"old\n")

    def disk_full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(workspace.os, "replace", disk_full)
    with pytest.raises(OSError):
        workspace.write_atomic(target, b"new\n")
    assert target.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["data.txt"]
