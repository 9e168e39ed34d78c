"""Helpers for the reliability tests: snapshots of a tree, a paused apply in a second process."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

TEMP_MARKERS = (".kopipasta-tmp", ".staging-")


def snapshot(folder: Path, *, skip_state: bool = True) -> dict[str, bytes | str]:
    """Every file's bytes (a symlink: its target) under `folder`, by relative path."""
    found: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        if skip_state and ".kopipasta" in dirnames and Path(dirpath) == folder:
            dirnames.remove(".kopipasta")
        for name in [*filenames, *[d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]]:
            path = Path(dirpath) / name
            key = path.relative_to(folder).as_posix()
            found[key] = "-> " + os.readlink(path) if path.is_symlink() else path.read_bytes()
        for name in dirnames:
            if not os.path.islink(os.path.join(dirpath, name)):
                found.setdefault((Path(dirpath) / name).relative_to(folder).as_posix() + "/", "dir")
    return found


def project_names(folder: Path) -> list[str]:
    """The names in `folder`, kopipasta's own state folder (journal, apply log) left out."""
    return sorted(p.name for p in folder.iterdir() if p.name != ".kopipasta")


def leftovers(folder: Path) -> list[str]:
    """Temporary files and staging folders anywhere under `folder` (the journal included)."""
    return sorted(
        str(Path(dirpath, name).relative_to(folder))
        for dirpath, dirnames, filenames in os.walk(folder)
        for name in [*dirnames, *filenames]
        if any(marker in name for marker in TEMP_MARKERS)
    )


def environment(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("KOPIPASTA_FAULT", None)
    env.update(extra)
    return env


class Paused:
    """`kopipasta ARGS` started with a fault hook that pauses it at `point` until resumed."""

    def __init__(self, cwd: Path, point: str, *args: str, count: int = 1, **env: str) -> None:
        self.resume_file = cwd.parent / f"resume-{time.monotonic_ns()}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kopipasta", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=environment(
                KOPIPASTA_FAULT=f"{point}:pause:{count}",
                KOPIPASTA_FAULT_RESUME=str(self.resume_file),
                **env,
            ),
        )

    def wait_paused(self, timeout: float = 60) -> bool:
        """True once the process waits at the point; False if it ended without reaching it."""
        deadline = time.monotonic() + timeout
        marker = Path(str(self.resume_file) + ".paused")
        while time.monotonic() < deadline:
            if marker.exists():
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.01)
        raise AssertionError("the apply never reached its pause point")

    def resume(self, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        self.resume_file.touch()
        out, err = self.process.communicate(timeout=timeout)
        assert "Traceback" not in out + err, out + err
        return subprocess.CompletedProcess(self.process.args, self.process.returncode, out, err)
