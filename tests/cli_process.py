"""Running the real `kopipasta` command in a child process, as a user's shell would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def kopipasta(
    *args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run `python -m kopipasta ARGS` in `cwd`; a traceback in its output fails the test."""
    result = subprocess.run(
        [sys.executable, "-m", "kopipasta", *args],
        cwd=cwd,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        env=env,
    )
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return result
