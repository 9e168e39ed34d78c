"""The failures a patch can meet. Each carries a one-line message for the user.

A stage raises one of these where it knows what went wrong; the engine turns it
into a failed Outcome for that block, and only the CLI maps outcomes to exit
statuses. Anything else escaping a stage is a bug.
"""

from __future__ import annotations


def counted(count: int, noun: str, plural: str = "") -> str:
    """`1 definition`, `2 definitions`, `3 applies`: a count with its noun agreeing (issue 21)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


class PatchError(Exception):
    """An expected failure of one block: `message` names the file, target and reason."""

    # The file the block turned out to name, when only reading it told (a diff's headers).
    file: str | None = None
    # How the block was read when it failed ("inferred fragment", "merged elision"), for the apply log.
    reading: str = ""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} — {self.hint}" if self.hint else self.message


class ConfinementError(PatchError):
    """The path leaves the project root, goes through .git, or is otherwise unusable."""


class TargetNotFound(PatchError):
    """No definition (or data path) matches the target."""


class AmbiguousTarget(PatchError):
    """More than one definition matches the target."""


class PayloadError(PatchError):
    """The block's payload cannot be used as written (placeholder, invalid data, empty)."""


class SyntaxCheckError(PatchError):
    """The patched file no longer parses."""


class UnsupportedFile(PatchError):
    """The file's type does not support the requested operation."""


class ReplyError(Exception):
    """The reply as a whole could not be read or holds no patch (exit status 2)."""
