"""Fit a payload's indentation to the place it lands (PROTOCOL.md §4, Re-indentation).

The payload is dedented to its own margin, each line's indentation is
converted from the payload's unit (2 spaces, 4 spaces, a tab) to the file's,
and the place's base indentation is put in front. Lines that start inside a
multi-line string are values, not layout: they are never touched, except the
lines of a docstring, which move by exactly as much as the line it opens on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Set
from dataclasses import dataclass
from itertools import islice

# Enough lines to learn a file's indent unit without reading a huge file twice.
UNIT_SAMPLE_LINES = 4000


@dataclass(frozen=True)
class Unit:
    """One level of indentation: a tab, or a number of spaces."""

    text: str

    @property
    def width(self) -> int:
        return 1 if self.text == "\t" else len(self.text)


def _leading(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


# A step wider than this many spaces is alignment (`foo(a,` then `    b)` under it), not a unit.
_WIDEST_UNIT = 8


def indent_steps(lines: Iterable[str]) -> Counter[str]:
    """How often each indentation step is taken, from a line to a deeper one.

    A line's step is measured from the nearest line above it that is less
    indented (not only the line just above), so a Java continuation or an
    aligned parameter list does not hide the block's own step.
    """
    # Runs over up to UNIT_SAMPLE_LINES lines of every file version a reply edits, so the
    # common line (as indented as the one above) is settled first, with one lstrip.
    steps: Counter[str] = Counter()
    stack: list[str] = []  # the first line's indentation is a margin, not a step
    top = ""  # stack[-1], once the stack holds the margin
    for line in islice(lines, UNIT_SAMPLE_LINES):
        code = line.lstrip(" \t")
        if not code or code.isspace():
            continue  # a blank line (isspace is strip()'s notion of whitespace)
        width = len(line) - len(code)
        if width == len(top) and stack and line.startswith(top):
            continue  # as indented as the nearest line above: no step, the stack stays
        indent = line[:width]
        if not stack:
            stack.append(indent)
            top = indent
            continue
        while len(stack) > 1 and not (len(indent) > len(top) and indent.startswith(top)):
            if indent == top:
                break
            stack.pop()
            top = stack[-1]
        if indent == top:
            continue
        if len(indent) > len(top) and indent.startswith(top):
            step = indent[len(top) :]
            if step.strip("\t") == "":
                steps["\t"] += 1
            elif step.strip(" ") == "" and len(step) <= _WIDEST_UNIT:
                steps[step] += 1
            stack.append(indent)
            top = indent
        elif len(stack) == 1:
            stack[0] = indent  # shallower than the margin: steps are measured from here on
            top = indent
    return steps


def unit_of(steps: Counter[str]) -> Unit | None:
    if not steps:
        return None
    # The most common step; on a tie the smaller one, since deeper steps are multiples.
    best = max(steps.items(), key=lambda item: (item[1], -len(item[0])))[0]
    return Unit(best)


# Columns a tab stands for when the payload indents with tabs: the spaces after the tabs
# (`\t   int b)`, a continuation aligned under a parenthesis) are then a remainder, not levels.
_TAB_STEP = 8


def _step(unit: Unit) -> int:
    return _TAB_STEP if unit.text == "\t" else unit.width


def detect_unit(lines: Iterable[str]) -> Unit | None:
    """The indentation step most often taken from one line to a deeper one, or None."""
    return unit_of(indent_steps(lines))


def _columns(indent: str, unit: Unit) -> int:
    """Indentation width in columns, a tab counting as one of the payload's steps."""
    return sum(_step(unit) if ch == "\t" else 1 for ch in indent)


def reindent(
    payload: str,
    *,
    base: str,
    file_unit: Unit | None,
    frozen: Set[int] = frozenset(),
    docstring: dict[int, int] | None = None,
) -> list[str]:
    """The payload's lines, each with the indentation it must have in the file.

    `frozen` holds the indices of lines that start inside a string literal;
    `docstring` maps such a line to the index of the line its docstring opens
    on, for the lines that move with it instead of staying put.
    """
    lines = payload.split("\n")
    docstring = docstring or {}
    layout = [i for i, line in enumerate(lines) if line.strip() and i not in frozen]
    steps = indent_steps(lines[i] for i in layout)
    payload_unit = unit_of(steps) or file_unit or Unit("    ")
    if (
        file_unit is not None
        and file_unit.text in steps
        and file_unit.text != payload_unit.text
        and payload_unit.text.startswith(file_unit.text)
        and payload_unit.width % file_unit.width == 0
    ):
        # The payload takes the file's step too: its wider steps are continuations (Java's 8), not its unit.
        payload_unit = file_unit
    target_unit = file_unit or payload_unit
    margin = min((_columns(_leading(lines[i]), payload_unit) for i in layout), default=0)

    out: list[str] = []
    old_indent: dict[int, str] = {}
    new_indent: dict[int, str] = {}
    for i, line in enumerate(lines):
        if i in frozen:
            opener = docstring.get(i)
            if opener is not None and line.startswith(old_indent.get(opener, "\0")):
                out.append(new_indent[opener] + line[len(old_indent[opener]) :])
            else:
                out.append(line)
            continue
        if not line.strip():
            out.append("")
            continue
        indent = _leading(line)
        relative = max(_columns(indent, payload_unit) - margin, 0)
        levels, rest = divmod(relative, _step(payload_unit))
        fitted = base + target_unit.text * levels + " " * rest
        old_indent[i], new_indent[i] = indent, fitted
        out.append(fitted + line[len(indent) :])
    if all(new_indent[i] == old_indent[i] for i in new_indent):
        # Already in the file's layout: written byte for byte, a blank line's spaces included
        # (a file that keeps `    ` on its blank lines does not see them all change).
        return lines
    return out
