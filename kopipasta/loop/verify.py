"""`apply --verify CMD [--revert-on-fail]`: check the patched project, put it back on failure.

The command runs through the shell in the project root after the apply has
written; its output goes where the caller says (the terminal, or stderr when
stdout carries JSON). Reverting is exactly `kopipasta undo` of the journal
entry this apply made, never of anything older. It does not run when this
apply wrote a file the command may load as configuration (loop/step_guard.py).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kopipasta.disk import journal
from kopipasta.disk.manifest import JournalError
from kopipasta.disk.reformatted import written_files
from kopipasta.disk.undo import UndoResult, undo_newest
from kopipasta.errors import counted
from kopipasta.loop.step_guard import held_by, held_line


@dataclass(frozen=True)
class VerifyResult:
    command: str
    ran: bool
    exit_status: int | None = None  # the command's status; a signal N is 128+N, as shells report it
    skipped: str = ""  # why it did not run
    error: str = ""  # why it could not be started
    reverted: UndoResult | None = None
    revert_error: str = ""  # why --revert-on-fail could not put the files back
    held: str = ""  # the written file the command may load, which kept it from running
    held_why: str = ""

    @property
    def failed(self) -> bool:
        return self.ran and self.exit_status != 0 or bool(self.error)

    def summary(self) -> str:
        """One line: what ran and how it ended."""
        if self.held:
            return held_line("verify", self.command, self.held, self.held_why)
        if not self.ran and not self.error:
            return f"– verify not run: {self.skipped}"
        if self.error:
            return f"❌ verify could not run `{self.command}`: {self.error}"
        if self.exit_status == 0:
            return f"✅ verify passed: `{self.command}` exited with status 0"
        return f"❌ verify failed: `{self.command}` exited with status {self.exit_status}"

    def revert_line(self) -> str:
        if self.reverted is not None:
            return "↩ " + undo_line(self.reverted, verb="Reverted this apply")
        if self.revert_error:
            return f"❌ Not reverted: {self.revert_error}"
        return ""

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "ran": self.ran,
            "exit_status": self.exit_status,
            "passed": self.ran and not self.failed,
            "skipped": self.skipped or None,
            "error": self.error or None,
            "reverted": self.reverted is not None,
            "restored": list(self.reverted.restored) if self.reverted else [],
            "deleted": list(self.reverted.deleted) if self.reverted else [],
            "revert_error": self.revert_error or None,
            "held_by": self.held or None,
        }


def run_command(command: str, root: Path, output: IO[str]) -> tuple[int | None, str]:
    """Run `command` with the shell in `root`, its stdout and stderr to `output`.

    Returns (exit status, "") or (None, why it could not start).
    """
    try:
        target: Any = output.fileno()
    except (AttributeError, OSError, ValueError):
        target = None  # a stream without a descriptor (tests): capture, then copy
    output.flush()
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        if target is not None:
            completed = subprocess.run(
                command, shell=True, cwd=root, stdin=subprocess.DEVNULL,
                stdout=target, stderr=subprocess.STDOUT, check=False,
            )
        else:
            completed = subprocess.run(
                command, shell=True, cwd=root, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False,
            )
            output.write(completed.stdout.decode("utf-8", "replace"))
            output.flush()
    except OSError as error:
        return None, error.strerror or str(error)
    status = completed.returncode
    if status < 0:  # killed by a signal: report it the way a shell would
        status = 128 + abs(status)
    return status, ""


def verify(
    command: str,
    root: Path,
    *,
    output: IO[str],
    entry: str | None,
    revert_on_fail: bool,
) -> VerifyResult:
    """Run the check; on failure and when asked, undo journal `entry` (this apply's)."""
    if entry is not None:
        try:
            held = held_by(written_files(root, entry))
        except (OSError, JournalError) as unreadable:
            return VerifyResult(command, ran=False, skipped=f"the apply's journal entry cannot be read: {unreadable}")
        if held is not None:
            return VerifyResult(command, ran=False, skipped="held", held=held[0], held_why=held[1])
    status, error = run_command(command, root, output)
    result = VerifyResult(command, ran=error == "", exit_status=status, error=error)
    if not result.failed or not revert_on_fail:
        return result
    if entry is None:
        return VerifyResult(command, result.ran, status, error=error, revert_error="this apply wrote nothing")
    try:
        undone = undo_newest(root, entry=entry)
    except journal.ChangedSince as refused:
        why = (
            f"the verify command changed {', '.join(refused.paths)} after the apply"
            " — `kopipasta undo --force` puts the apply's previous bytes back anyway"
        )
        return VerifyResult(command, result.ran, status, error=error, revert_error=why)
    except journal.JournalError as failure:
        return VerifyResult(command, result.ran, status, error=error, revert_error=str(failure))
    return VerifyResult(command, result.ran, status, error=error, reverted=undone)


def undo_line(result: UndoResult, *, verb: str = "Undone") -> str:
    """One line saying what an undo put back."""
    parts = []
    if result.restored:
        parts.append("restored " + ", ".join(result.restored))
    if result.deleted:
        parts.append("removed " + ", ".join(result.deleted))
    left = result.remaining
    tail = f"{counted(left, 'earlier apply', 'earlier applies')} can still be undone" if left else "nothing more to undo"
    return f"{verb}: {'; '.join(parts) or 'no files'} ({tail})."
