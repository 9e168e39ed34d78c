"""Replace one definition's bytes with a rendered payload (PROTOCOL.md §4).

The replaced span is the definition's own, widened only by what the payload
restates: its comment block, its decorators or `export` wrapper. Whatever the
payload does not restate is kept byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import Definition, list_definitions, overload_names
from kopipasta.code.layout.render import payload_tree, render_lines
from kopipasta.startup.lazy_pattern import lazy_compile
from kopipasta.syntax.languages import LanguageSpec

if TYPE_CHECKING:
    from kopipasta.code.find.document import Document

# A payload's first code line that restates the wrapper: a decorator or annotation, or an export
# (LanguageSpec.decorator_line and export_line say how each language writes them).
_DECLARE_LINE = lazy_compile(r"^declare\b")


@dataclass(frozen=True)
class Splice:
    """One edit: bytes [start, old_end) of the file become `text`.

    The new file's bytes are not built here: the caller builds them once, with the
    import edits beside this one (a big file is not copied twice).
    """

    source: bytes  # the file's bytes before
    text: bytes
    start: int  # byte where the changed region starts (same in old and new)
    old_end: int

    @property
    def new_end(self) -> int:
        return self.start + len(self.text)

    @property
    def data(self) -> bytes:
        """The file's bytes after this edit alone."""
        view = memoryview(self.source)
        return b"".join((view[: self.start], self.text, view[self.old_end :]))


def _restates_overloads(spec: LanguageSpec, payload: str, name: str) -> bool:
    """Whether the payload brings overload stubs of its own (TS signatures, Python `@overload`)."""
    tree, _ = payload_tree(spec, payload)
    return name in overload_names(spec, tree.root_node)


def _code_start(spec: LanguageSpec, definition: Definition, body: list[str]) -> int:
    """Where the replaced code starts: the original's wrappers that the payload restates are in.

    Overload stubs, decorators and `export` are taken in only when the payload
    brings its own; a payload that restates `export class X` keeps the
    `@Injectable()` above it, one that restates an implementation keeps its stubs.
    """
    first_code = next((line.strip() for line in body if line.strip()), "")
    wrapper_start = definition.wrapper_start if definition.wrapper_start is not None else definition.outer_start
    if definition.outer_start < wrapper_start and _restates_overloads(spec, "\n".join(body), definition.name):
        return definition.outer_start
    if re.match(spec.decorator_line, first_code):
        return wrapper_start
    if re.match(spec.export_line, first_code):
        return definition.export_start if definition.export_start is not None else wrapper_start
    if _DECLARE_LINE.match(first_code) and definition.declare_start is not None:
        return definition.declare_start
    return definition.start


def _comment_anchor(document: Document, definition: Definition, body: list[str]) -> int:
    """Where the comment block a payload restates sits above: the stubs, or the body below them.

    A comment between the overload stubs and the body (`/*@__NO_SIDE_EFFECTS__*/`)
    is the body's own: a payload that restates the body and that comment, and not
    the stubs, replaces it there and keeps the stubs above it.
    """
    wrapper_start = definition.wrapper_start if definition.wrapper_start is not None else definition.outer_start
    if (
        definition.outer_start < wrapper_start
        and not _restates_overloads(document.code_spec, "\n".join(body), definition.name)
        and document.comment_block_start(wrapper_start) is not None
    ):
        return wrapper_start
    return definition.outer_start


def _keep_comment_above_body(document: Document, definition: Definition, payload: str) -> str:
    """The payload, with the comment between the original's stubs and body put back if it left it out.

    A payload that restates the overload stubs replaces them, and the body; the
    comment between them (Vue's `/*@__NO_SIDE_EFFECTS__*/`) is not restated
    unless the payload has it, and what is not restated is kept (PROTOCOL.md §4).
    """
    wrapper_start = definition.wrapper_start if definition.wrapper_start is not None else definition.outer_start
    comment_start = document.comment_block_start(wrapper_start)
    if comment_start is None:
        return payload
    data = document.data
    block_start = document.line_start(comment_start)
    original = data[block_start : document.line_start(wrapper_start)].decode("utf-8", "replace")
    comment_lines = [line.rstrip("\r") for line in original.split("\n")[:-1]]
    restated = {line.strip() for line in payload.split("\n")}
    if all(line.strip() in restated for line in comment_lines if line.strip()):
        return payload
    lines = payload.split("\n")
    row = _body_row(document.code_spec, payload, definition.name)
    if row is None or row >= len(lines):
        return payload
    above = next((lines[r].strip() for r in range(row - 1, -1, -1) if lines[r].strip()), "")
    if above.startswith(("//", "/*", "*", "#")):
        return payload  # the payload has a comment of its own there: it restates that one
    margin = min((len(c) - len(c.lstrip()) for c in comment_lines if c.strip()), default=0)
    indent = lines[row][: len(lines[row]) - len(lines[row].lstrip())]
    kept = [indent + c[margin:] if c.strip() else "" for c in comment_lines]
    return "\n".join([*lines[:row], *kept, *lines[row:]])


def _body_row(spec: LanguageSpec, payload: str, name: str) -> int | None:
    """The payload line where the definition with stubs named `name` has its own start (its body's line)."""
    payload_tree_, offset = payload_tree(spec, payload)
    text = (payload_tree_.root_node.text or b"")
    rows = [
        text[: d.wrapper_start].count(b"\n") - offset
        for d in list_definitions(spec, payload_tree_)
        if d.name == name and d.wrapper_start is not None and d.outer_start < d.wrapper_start
    ]
    return rows[-1] if rows else None


def _leading_comment_count(spec: LanguageSpec, lines: list[str]) -> int:
    """How many of the payload's first lines are a comment block (before any code)."""
    count = 0
    closing: str | None = None  # the closer of the block comment we are in
    for line in lines:
        stripped = line.strip()
        if closing is not None:
            count += 1
            closing = None if closing in stripped else closing
            continue
        if re.match(spec.decorator_line, stripped):
            break  # PHP's `#[Route]` is an attribute, not a `#` comment
        opener = next((pair for pair in spec.block_comments if stripped.startswith(pair[0])), None)
        if opener is not None:
            count += 1
            closing = None if opener[1] in stripped[len(opener[0]) :] else opener[1]
            continue
        if stripped.startswith(spec.line_comments):
            count += 1
            continue
        break
    return count


def _end_before_unrestated_comments(document: Document, definition: Definition, payload: str) -> int:
    """Where the replaced span ends: before comment lines that close the definition, unless the payload restates them.

    A language without a closing token (Python) parses the comment lines indented
    under a function's last statement as part of the function. A payload that
    restates the function and ends with code did not mean to delete them (issue 18,
    item 9: 20 lines of a real file): they are kept after it. A payload that ends
    with a comment restates the function's closing comments, and replaces them.
    """
    end = definition.end
    spec, data = document.code_spec, document.data
    last = next((line.strip() for line in reversed(payload.split("\n")) if line.strip()), "")
    if not last or last.startswith(spec.line_comments) or not spec.line_comments:
        return end
    root = document.tree.root_node
    kept_from = end
    while kept_from > definition.start:
        leaf = root.descendant_for_byte_range(kept_from - 1, kept_from)
        if leaf is None or "comment" not in leaf.type or leaf.start_byte <= definition.start:
            break
        before = leaf.start_byte
        while before > definition.start and data[before - 1 : before] in (b" ", b"\t"):
            before -= 1
        if data[before - 1 : before] not in (b"\n", b"\r"):
            break  # a comment after code on its line (`return x  # why`) is that line's
        kept_from = before
        while kept_from > definition.start and data[kept_from - 1 : kept_from] in (b" ", b"\t", b"\r", b"\n"):
            kept_from -= 1
    return kept_from


def _blank_lines_above(data: bytes, offset: int) -> int:
    """How many blank lines stand right above the line of `offset`."""
    count = 0
    cursor = data.rfind(b"\n", 0, offset) + 1
    while cursor > 0:
        previous_start = data.rfind(b"\n", 0, cursor - 1) + 1
        if data[previous_start : cursor - 1].strip():
            break
        count += 1
        cursor = previous_start
    return count


def join_rendered(lines: list[str], newline: str) -> str:
    """Rendered lines as text to splice at a position already indented: the first line's indent goes."""
    if not lines:
        return ""
    return newline.join([lines[0].lstrip(" \t"), *lines[1:]])


def replace_definition(document: Document, definition: Definition, payload: str) -> Splice:
    """The document's bytes with `definition` replaced by `payload`, rendered at its place."""
    spec, data, newline = document.code_spec, document.data, document.newline
    payload_lines = payload.split("\n")
    comment_count = _leading_comment_count(spec, payload_lines)
    body = [line for line in payload_lines[comment_count:]]
    code_start = _code_start(spec, definition, body)
    if code_start < (definition.wrapper_start if definition.wrapper_start is not None else definition.outer_start):
        payload = _keep_comment_above_body(document, definition, payload)

    if comment_count:
        anchor = _comment_anchor(document, definition, body)
        existing_comment = document.comment_block_start(anchor)
        start = existing_comment if existing_comment is not None else anchor
        # Stubs, decorators and `export` the payload leaves out stay, after its new comment.
        kept = data[anchor:code_start]
        # The file's blank lines between a doc comment and its definition stay, unless the payload has its own.
        gap = _blank_lines_above(data, anchor) if existing_comment is not None and body and body[0].strip() else 0
    else:
        start = code_start
        kept = b""
        gap = 0

    base = document.indentation_at(start)
    rendered = render_lines(spec, payload, base=base, file_unit=document.unit)
    if kept or gap:
        comment_text = join_rendered(rendered[:comment_count], newline)
        body_text = join_rendered(rendered[comment_count:], newline)
        text = (comment_text + newline * (1 + gap) + base).encode("utf-8") + kept + body_text.encode("utf-8")
    else:
        text = join_rendered(rendered, newline).encode("utf-8")
    end = _end_before_unrestated_comments(document, definition, payload)
    # A JS class field's `;` stands after its node; a payload that restates it replaces it.
    # A payload ending in `,` restates the separator after an object member (Vue's Options API)
    # or a C/C++ enumerator list entry: the same rule, so the `,` is not doubled.
    if text.rstrip()[-1:] in (b";", b",") and data[end : end + 1] == text.rstrip()[-1:]:
        end += 1
    return Splice(data, text, start, end)
