"""Where an inserted definition's lines go, and how far from its neighbours (PROTOCOL.md §4a).

A definition's lines run from its comment block (or its decorators, `export`,
overload stubs) to the end of its last line, a class field's `;` and a trailing
comment included (`lines_of`). New definitions are separated from their
neighbours by as many blank lines as the neighbours there are separated by
(`gap_between`, `choose_gap`), and rendered like a TARGET_NODE payload at the
place's indentation (`rendered`). Shared by insert.py (beside a definition, and
DELETE_NODE) and append.py (APPEND_TO).
"""


from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import Definition
from kopipasta.code.imports.imports import (
    TextEdit,
    refuse_unmerged_imports,
    split_imports,
)
from kopipasta.code.layout.indent import Unit, detect_unit
from kopipasta.code.layout.render import render_lines
from kopipasta.code.read import wholefile
from kopipasta.errors import PayloadError
from kopipasta.model import Operation
from kopipasta.syntax.languages import LanguageSpec

if TYPE_CHECKING:

    from kopipasta.code.find.document import Document


@dataclass(frozen=True)
class Span:
    """Whole lines of the original data: [top, bottom)."""

    top: int  # start of the first line (comment block, decorators, export, stubs)
    bottom: int  # start of the line after the last one (len(data) when it is the last line)
    indent: str  # the leading whitespace of its first code line


@dataclass(frozen=True)
class Insertion:
    """What an insert puts where, before imports are merged."""

    edits: tuple[TextEdit, ...]  # the text's own edit first, then any it needs (an enum's comma)
    text_start: int  # where, in the edited data before imports, the rendered payload starts
    text_length: int
    scope: tuple[str, ...]  # where the payload's definitions must land
    note: str = ""


def end_of_lines(data: bytes, end: int) -> int:
    """Where the lines holding something that ends at `end` end: the start of the next line."""
    if end > 0 and data[end - 1 : end] == b"\n":
        return end
    return next_line(data, end)


def next_line(data: bytes, offset: int) -> int:
    """The start of the line after the one holding `offset` (len(data) on the last line)."""
    newline = data.find(b"\n", offset)
    return len(data) if newline < 0 else newline + 1


def is_blank(line: bytes) -> bool:
    return not line.strip()


def comment_prefixes(spec: LanguageSpec) -> tuple[bytes, ...]:
    openers = (*spec.line_comments, *(opener for opener, _ in spec.block_comments))
    return tuple(opener.encode("utf-8") for opener in openers)


def lines_of(document: Document, start: int, end: int) -> Span | None:
    """The whole lines of what starts at `start` (its comment block taken in) and ends at `end`.

    None when it shares a line with other code: it cannot be added beside or
    taken out by lines.
    """
    data = document.data
    comment = document.comment_block_start(start)
    head = comment if comment is not None else start
    top = document.line_start(head)
    if data[top:head].strip():
        return None
    bottom = end_of_lines(data, end)
    rest = data[end:bottom].strip().lstrip(b";,").strip()
    if rest and not rest.startswith(comment_prefixes(document.code_spec)):
        return None
    return Span(top, bottom, document.indentation_at(start))


def definition_lines(document: Document, definition: Definition, label: str, file: str) -> Span:
    span = lines_of(document, definition.outer_start, definition.end)
    if span is None:
        raise PayloadError(
            f"{label} in {file}: {definition.qualified_name} shares its line with other code, "
            "so nothing can be added or removed beside it line by line",
            "replace the enclosing definition with TARGET_NODE instead",
        )
    return span


def is_multiline(data: bytes, span: Span) -> bool:
    return b"\n" in data[span.top : span.bottom].rstrip()


def gap_between(data: bytes, upper: Span, lower: Span) -> int | None:
    """Blank lines between two neighbours, or None when something else stands between them."""
    if upper.bottom > lower.top or data[upper.bottom : lower.top].strip():
        return None
    return data[upper.bottom : lower.top].count(b"\n")


def choose_gap(
    data: bytes, pairs: list[tuple[Span, Span]], multiline_payload: bool
) -> int | None:
    """The separator learnt from neighbouring pairs, first pair first.

    A definition of several lines is separated like the pairs that hold one
    (not like a run of one-line constants or fields); a one-line payload like
    a pair of one-liners, else like the first pair.
    """
    fitting = fitting_gap(data, pairs, multiline_payload)
    if fitting is not None or multiline_payload:
        return fitting
    return next((g for a, b in pairs if (g := gap_between(data, a, b)) is not None), None)


def fitting_gap(data: bytes, pairs: list[tuple[Span, Span]], multiline_payload: bool) -> int | None:
    """The gap of the first pair like the payload (one holding a multi-line definition, or two
    one-liners), if any: `choose_gap`'s answer whatever pairs come after."""
    for a, b in pairs:
        gap = gap_between(data, a, b)
        if gap is None:
            continue
        if (is_multiline(data, a) or is_multiline(data, b)) == multiline_payload:
            return gap
    return None


def default_gap(spec: LanguageSpec, indent: str) -> int:
    """One blank line, two between Python module-level definitions (PEP 8)."""
    return 2 if spec.grammar == "python" and not indent else 1


def block_label(operation: Operation, target: str) -> str:
    return f"{operation.name} {target}"


def payload_parts(
    spec: LanguageSpec, label: str, file: str, payload: str
) -> tuple[list[str], str]:
    """The payload's imports (§4b) and its code, blank lines at both ends taken off."""
    refuse_unmerged_imports(spec, payload, label, file)
    imports, code = split_imports(spec, payload)
    lines = code.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise PayloadError(
            f"{label} in {file} holds only import lines: there is nothing to insert",
            "send the new definitions below the imports they need",
        )
    code = "\n".join(lines)
    found = wholefile.find_placeholder(code, python=spec.grammar == "python")
    if found is not None:
        number, text = found
        raise PayloadError(
            f"{label} in {file} has a placeholder at the payload's line {number} ({text}): "
            "it would be inserted as it stands",
            "send only the new definitions, complete; what a block leaves out stays as it is",
        )
    return imports, code


def rendered(document: Document, code: str, indent: str) -> str:
    lines = render_lines(document.spec, code, base=indent, file_unit=document.unit)
    return document.newline.join(lines)


def payload_unit(document: Document, code: str) -> Unit:
    return document.unit or detect_unit(code.split("\n")) or Unit(document.code_spec.default_unit)


def ends_with_lines(data: bytes, end: int, text: bytes) -> bool:
    """Whether whole lines ending at `end` are `text`: the payload already stands there."""
    start = end - len(text)
    return (
        start >= 0 and data[start:end] == text and (start == 0 or data[start - 1 : start] == b"\n")
    )
