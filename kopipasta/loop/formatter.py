"""`apply --format-cmd 'CMD {files}'` (or the `format` setting): the project's formatter on what the apply wrote.

It runs after the write and before `--verify`, through the shell in the
project root, on exactly the files this apply wrote (`{files}` becomes their
paths, each quoted for the shell; a command without `{files}` gets them
appended). Its failure is reported but is not the apply's verdict: the
patches landed, and `--verify` (or the user) judges the result. Whatever it
did, the journal then records the files' formatted bytes as the apply's
result, so `kopipasta undo` right after puts back the bytes from before the
apply instead of refusing them as changed since.

It does not run when this apply wrote a file the command may load (a config,
a dotfile, a plugin: loop/step_guard.py); `apply` then exits with status 4.
A path that starts with `-` is passed as `./-x`, never as an option.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kopipasta.disk.manifest import JournalError
from kopipasta.disk.reformatted import record_reformatted, written_files
from kopipasta.errors import PatchError
from kopipasta.loop.step_guard import held_by, held_line
from kopipasta.loop.verify import run_command

FILES_PLACEHOLDER = "{files}"


@dataclass(frozen=True)
class FormatResult:
    command: str  # the command as run, the paths filled in ("" when it did not run)
    ran: bool
    exit_status: int | None = None
    skipped: str = ""  # why it did not run
    error: str = ""  # why it could not be started
    reformatted: tuple[str, ...] = ()  # files whose bytes the formatter changed
    journal_error: str = ""  # why the journal could not follow (undo may refuse those files)
    held: str = ""  # the written file the command may load, which kept it from running
    held_why: str = ""

    @property
    def failed(self) -> bool:
        return self.ran and self.exit_status != 0 or bool(self.error)

    def summary(self) -> str:
        """One line: what ran, how it ended, what it changed."""
        if self.held:
            return held_line("format", self.command, self.held, self.held_why)
        if not self.ran and not self.error:
            return f"– format not run: {self.skipped}"
        if self.error:
            return f"⚠ format could not run `{self.command}`: {self.error} (the files stay as the apply wrote them)"
        count = len(self.reformatted)
        changed = f"reformatted {', '.join(self.reformatted)}" if count else "no file changed"
        if self.exit_status == 0:
            line = f"✅ format: `{self.command}` exited with status 0, {changed}"
        else:
            line = f"⚠ format failed: `{self.command}` exited with status {self.exit_status}, {changed} (not the verdict)"
        if self.journal_error:
            line += f"; undo may refuse them: {self.journal_error}"
        return line

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command or None,
            "ran": self.ran,
            "exit_status": self.exit_status,
            "passed": self.ran and not self.failed,
            "skipped": self.skipped or None,
            "error": self.error or None,
            "reformatted": list(self.reformatted),
            "journal_error": self.journal_error or None,
            "held_by": self.held or None,
        }


def command_for(template: str, files: Sequence[str]) -> str:
    """`template` with `{files}` replaced by the quoted paths (appended when it has no `{files}`)."""
    quoted = " ".join(shlex.quote(f"./{path}" if path.startswith("-") else path) for path in files)
    if FILES_PLACEHOLDER in template:
        return template.replace(FILES_PLACEHOLDER, quoted)
    return f"{template} {quoted}"


def run_formatter(
    template: str, root: Path, entry: str, *, output: IO[str], announce: Callable[[str], None] | None = None
) -> FormatResult:
    """Format the files journal `entry` (this apply's) wrote; record their new bytes for undo.

    `announce` is told the command before it runs (a person sees what prints next).
    """
    try:
        files = written_files(root, entry)
    except (OSError, JournalError) as unreadable:
        return FormatResult("", ran=False, skipped=f"the apply's journal entry cannot be read: {unreadable}")
    if not files:
        return FormatResult("", ran=False, skipped="the apply only deleted files")
    command = command_for(template, files)
    held = held_by(files)
    if held is not None:
        return FormatResult(command, ran=False, skipped="held", held=held[0], held_why=held[1])
    if announce is not None:
        announce(command)
    status, error = run_command(command, root, output)
    try:
        changed = record_reformatted(root, entry, files)
    except (OSError, JournalError, PatchError) as failure:
        return FormatResult(command, ran=not error, exit_status=status, error=error, journal_error=str(failure))
    return FormatResult(command, ran=not error, exit_status=status, error=error, reformatted=changed)
