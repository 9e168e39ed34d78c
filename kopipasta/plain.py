"""Output for pipes and files: plain lines, never wrapped, and no rich.

When stdout is not a terminal (`kopipasta apply reply.md | less`, a CI log,
an agent reading the output), rich would wrap every line at 80 columns and
split paths mid-word. A PlainConsole prints each line whole, without colour,
and importing it costs nothing: rich is never loaded on this path.

It offers the small part of rich's Console that kopipasta uses: `print`
(strings, or objects with a `.plain` text such as rich's Text) and `file`.
"""

from __future__ import annotations

import re
import sys
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

# Console markup the code writes, e.g. "[bold]Sample project:[/bold]".
_MARKUP = re.compile(r"\[/?(?:bold|dim|red|green|yellow|cyan|italic)\]")


class PlainConsole:
    """Prints whole lines to a stream; what rich's Console.print does, minus wrapping and colour."""

    is_plain = True

    def __init__(self, file: IO[str] | None = None, *, stderr: bool = False) -> None:
        self._file = file
        self._stderr = stderr

    @property
    def file(self) -> IO[str]:
        # Looked up on every use, as rich does, so pytest's capture and redirections are honoured.
        if self._file is not None:
            return self._file
        return sys.stderr if self._stderr else sys.stdout

    def print(self, *objects: object, markup: bool = True, highlight: bool = False, style: str | None = None) -> None:
        del highlight, style  # no colour on a pipe
        parts = []
        for item in objects:
            text = item.plain if hasattr(item, "plain") else str(item)
            parts.append(_MARKUP.sub("", text) if markup and isinstance(item, str) else text)
        self.file.write(" ".join(parts) + "\n")
        self.file.flush()


def make_console(stderr: bool = False) -> Console:
    """rich's Console on a terminal; a PlainConsole (no wrapping, no rich) on a pipe or file.

    Here rather than in report.py, so that `nodes` on a pipe imports neither rich nor the
    report's model (issue 9); report.py re-exports it.
    """
    if not is_terminal(sys.stderr if stderr else sys.stdout):
        return PlainConsole(stderr=stderr)  # type: ignore[return-value]
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def is_terminal(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, AttributeError):  # a closed or unusual stream
        return False


def table_lines(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    """Columns padded to their widest cell, two spaces apart; the last column is not padded."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=False)]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return lines
