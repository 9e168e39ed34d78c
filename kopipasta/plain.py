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
    from collections.abc import Iterable

    from rich.console import Console

# Console markup the code writes, e.g. "[bold]Sample project:[/bold]".
_MARKUP = re.compile(r"\[/?(?:bold|dim|red|green|yellow|cyan|italic)\]")
# What a terminal obeys instead of showing (issue 18, item 2): C0 controls but the new line
# and the tab, DEL, the C1 controls (U+009B is CSI, U+009D OSC where a terminal reads them),
# and the bidi overrides and isolates, which reorder what is shown ("trojan source"). Issue 28,
# item 10: the marks that show as nothing at all too, so `a\u200bb` and `ab` never print alike —
# the soft hyphen, the Arabic letter mark, the Mongolian vowel separator, zero-width space, joiners
# and the left-to-right / right-to-left marks (U+200B–U+200F), the line and paragraph separators,
# the word joiner and invisible operators (U+2060–U+206F), and the zero-width no-break space (BOM).
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]"
)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every character a terminal would obey shown as its escape: ESC as `\\x1b`.

    The one place text from a reply or a file reaches the terminal passes: the
    consoles below call it on everything they print, the CLI on every message.
    An OSC 52 sequence in a target name would otherwise rewrite the clipboard,
    OSC 0 the window title. A backslash is left as it is: `\\x1b` in a name
    shows the same as an escaped ESC, which is the safe way to be ambiguous.
    """
    return _INVISIBLE.sub(_escaped, text)


def json_visible(text: str) -> str:
    """JSON text (`ensure_ascii=False`) with the C1 and bidi controls written as `\\u` escapes too.

    json escapes the C0 controls itself; the others it writes raw. They can only
    stand inside strings in JSON text, where `\\u009b` means the same character.
    """
    return _INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


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
        self.file.write(visible(" ".join(parts)) + "\n")
        self.file.flush()


def make_console(stderr: bool = False) -> Console:
    """rich's Console on a terminal; a PlainConsole (no wrapping, no rich) on a pipe or file.

    Here rather than in report.py, so that `nodes` on a pipe imports neither rich nor the
    report's model (issue 9); report.py re-exports it.
    """
    if not is_terminal(sys.stderr if stderr else sys.stdout):
        return PlainConsole(stderr=stderr)  # type: ignore[return-value]
    return visible_console_class()(stderr=stderr, highlight=False, soft_wrap=True)


def visible_console_class() -> type[Console]:
    """rich's Console, with every character of text it prints passed through `visible`.

    Escaping where rich turns what it lays out into the characters it writes is the
    one place every table cell, Text and string goes through, whoever built it;
    rich's own styles and control codes (its Segments' `style` and `control`) are
    left alone. `Text` alone does not do it: it strips BEL and CR but keeps ESC.
    """
    global _VISIBLE_CONSOLE
    if _VISIBLE_CONSOLE is None:
        from rich.console import Console
        from rich.segment import Segment

        class VisibleConsole(Console):
            def _render_buffer(self, buffer: Iterable[Segment]) -> str:
                return super()._render_buffer(
                    segment if segment.control else Segment(visible(segment.text), segment.style)
                    for segment in buffer
                )

        _VISIBLE_CONSOLE = VisibleConsole
    return _VISIBLE_CONSOLE


_VISIBLE_CONSOLE: type[Console] | None = None


def is_terminal(stream: IO[str] | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, AttributeError):  # a closed or unusual stream
        return False


def table_lines(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    """Columns padded to their widest cell, two spaces apart; the last column is not padded."""
    # Made visible before measuring, so an escaped ESC (four characters) keeps its column.
    rows = [tuple(visible(cell) for cell in row) for row in rows]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=False)]
        lines.append("  ".join([*cells, row[-1]]).rstrip())
    return lines
