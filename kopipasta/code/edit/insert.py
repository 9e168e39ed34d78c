"""Add and remove definitions (PROTOCOL.md §4a): INSERT_AFTER, INSERT_BEFORE, APPEND_TO, DELETE_NODE.

Where `splice.py` replaces a definition's span, these work on whole lines
around one: a definition's lines run from its comment block (or its
decorators, `export`, overload stubs) to the end of its last line, a class
field's `;` and a trailing comment included. New definitions are rendered
like a TARGET_NODE payload (`render_lines`: string literals kept, the file's
indent unit) at the indentation of the place, and separated from their
neighbours by as many blank lines as the neighbours there are separated by.

Where the lines go and how far apart is spacing.py's; APPEND_TO's places
(a body's end, the file's end) are append.py's. Every edit is made on the
original bytes together with the payload's imports (§4b) and checked with one
incremental reparse. A payload whose
rendered text already stands at the place is `unchanged`, so applying a
reply twice inserts nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.edit.append import APPEND_TO_FILE, append_to, append_to_file
from kopipasta.code.edit.spacing import (
    Insertion,
    Span,
    block_label,
    choose_gap,
    default_gap,
    definition_lines,
    ends_with_lines,
    is_blank,
    lines_of,
    next_line,
    payload_parts,
    rendered,
)
from kopipasta.code.find.definitions import Definition
from kopipasta.code.find.placement import check_landed, definitions_in
from kopipasta.code.find.resolve import parse_target, resolve_in
from kopipasta.code.imports.import_merge import plan_imports
from kopipasta.code.imports.imports import (
    TextEdit,
    apply_edits,
)
from kopipasta.errors import PayloadError
from kopipasta.model import Operation
from kopipasta.syntax import opening_tag
from kopipasta.syntax.check import check_syntax

if TYPE_CHECKING:
    from tree_sitter import Tree

    from kopipasta.code.find.document import Document


@dataclass(frozen=True)
class Result:
    data: bytes
    tree: Tree
    note: str = ""


def _siblings(document: Document, target: Definition, span: Span) -> tuple[Span | None, Span | None]:
    """The spans of the sibling definitions just before and just after the target, if any."""
    before: Span | None = None
    after: Span | None = None
    # Only the target's container is looked at: a member's siblings come without the full listing.
    for other in document.members(target.container):
        if other == target or other.container != target.container:
            continue
        other_span = lines_of(document, other.outer_start, other.end)
        if other_span is None or other_span.indent != span.indent:
            continue
        if other_span.top >= span.bottom and (after is None or other_span.top < after.top):
            after = other_span
        if other_span.bottom <= span.top and (before is None or other_span.bottom > before.bottom):
            before = other_span
    return before, after


def _insert_beside(
    document: Document, target: Definition, code: str, *, after: bool, label: str, file: str
) -> Insertion | None:
    spec, data, newline = document.code_spec, document.data, document.newline
    span = definition_lines(document, target, label, file)
    previous, following = _siblings(document, target, span)
    pairs = [(span, following)] if following is not None else []
    if previous is not None:
        pairs.append((previous, span))
    multiline = "\n" in code
    gap = choose_gap(data, pairs, multiline)
    if gap is None:
        gap = default_gap(spec, span.indent)
    text = rendered(document, code, span.indent).encode("utf-8")
    eol = newline.encode("ascii")
    if after:
        # Already there: the first lines after the target (blank lines skipped) are the payload.
        cursor = span.bottom
        while cursor < len(data) and is_blank(data[cursor : next_line(data, cursor)]):
            cursor = next_line(data, cursor)
        if ends_with_lines(data, cursor + len(text), text) and data[cursor + len(text) :][:1] in (
            b"",
            b"\r",
            b"\n",
        ):
            return None
        if span.bottom == len(data) and not data.endswith(b"\n"):
            # The target is the file's last line, without a final newline: the file keeps that habit.
            inserted = eol * (gap + 1) + text
            return Insertion(
                (TextEdit(span.bottom, span.bottom, inserted),),
                span.bottom + len(eol) * (gap + 1),
                len(text),
                target.container,
            )
        inserted = eol * gap + text + eol
        return Insertion(
            (TextEdit(span.bottom, span.bottom, inserted),),
            span.bottom + len(eol) * gap,
            len(text),
            target.container,
        )
    # INSERT_BEFORE: the last lines before the target (blank lines skipped) are the payload already?
    cursor = span.top
    while cursor > 0 and is_blank(data[document.line_start(cursor - 1) : cursor]):
        cursor = document.line_start(cursor - 1)
    if cursor > 0 and ends_with_lines(data, cursor, text + eol):
        return None
    inserted = text + eol + eol * gap
    return Insertion((TextEdit(span.top, span.top, inserted),), span.top, len(text), target.container)


def insert(document: Document, operation: Operation, target_text: str, payload: str, *, file: str) -> Result:
    """INSERT_AFTER, INSERT_BEFORE or APPEND_TO on the document (PROTOCOL.md §4a)."""
    spec, data, tree, newline = document.code_spec, document.data, document.tree, document.newline
    label = block_label(operation, target_text)
    imports, code = payload_parts(spec, label, file, payload)
    if operation is Operation.APPEND_TO and target_text.strip().lower() == APPEND_TO_FILE:
        insertion = append_to_file(document, code)
    else:
        target = parse_target(target_text, file)
        label = block_label(operation, str(target))
        definition = resolve_in(target, document, file)
        if operation is Operation.APPEND_TO:
            insertion = append_to(document, definition, code, label=label, file=file)
        else:
            after = operation is Operation.INSERT_AFTER
            insertion = _insert_beside(document, definition, code, after=after, label=label, file=file)
    merged = plan_imports(spec, data, tree, imports, newline, root=document.root) if imports else None
    import_edits = list(merged.edits) if merged else []
    edits = [
        *import_edits,
        *(insertion.edits if insertion else ()),
    ]  # imports first at a shared offset
    new_data, change = apply_edits(data, edits)
    notes = [insertion.note if insertion else "", merged.note if merged else ""]
    note = "; ".join(n for n in notes if n)
    if new_data == data:
        return Result(data, tree)
    new_tree = check_syntax(spec, file, label, data, tree, new_data, change)
    if insertion is not None:
        shift = sum(
            len(e.text) - (e.end - e.start)
            for e in import_edits
            if e.end <= insertion.edits[0].start
        )
        start = insertion.text_start + shift
        if opening_tag.lands_in_text(spec, new_tree.root_node, start, start + insertion.text_length, new_data):
            raise PayloadError(
                f"Payload for {label} in {file} would land outside `<?php … ?>`, where PHP reads it as HTML text",
                "insert it beside a definition inside the PHP code (INSERT_AFTER / INSERT_BEFORE); nothing was written",
            )
        check_landed(
            definitions_in(spec, new_tree, start, start + insertion.text_length, new_data),
            insertion.scope,
            label=label,
            file=file,
            what="its members",
            hint="send only the new members, without the class line around them",
        )
    return Result(new_data, new_tree, note)


def delete(document: Document, target_text: str, *, file: str) -> Result:
    """DELETE_NODE: the target's lines go, with its comment block and the blank lines left doubled."""
    spec, data, tree = document.code_spec, document.data, document.tree
    target = parse_target(target_text, file)
    label = block_label(Operation.DELETE_NODE, str(target))
    definition = resolve_in(target, document, file)
    span = definition_lines(document, definition, label, file)
    if spec.grammar == "python":
        _check_body_kept(document, definition, span, label, file)
    # The blank lines above and below the target.
    above = span.top
    while above > 0 and is_blank(data[document.line_start(above - 1) : above]):
        above = document.line_start(above - 1)
    below = span.bottom
    while below < len(data) and is_blank(data[below : next_line(data, below)]):
        below = next_line(data, below)
    previous_line = data[document.line_start(above - 1) : above] if above > 0 else b""
    previous_indent = len(previous_line) - len(previous_line.lstrip(b" \t"))
    if above == 0 or previous_indent < len(span.indent):
        # First in its body (or file): the blank lines above stay, those below go with it.
        start, end = span.top, below
    else:
        # Otherwise the blank lines above go, and what separated it from the next stays.
        start, end = above, span.bottom
    if end == len(data) and not data.endswith(b"\n") and start > 0:
        # The file's last line goes: the line before it becomes the last, without a newline as before.
        start -= 1
        if data[start - 1 : start] == b"\r":
            start -= 1
    new_data, change = apply_edits(data, [TextEdit(start, end, b"")])
    new_tree = check_syntax(spec, file, label, data, tree, new_data, change)
    return Result(new_data, new_tree)


def _check_body_kept(document: Document, definition: Definition, span: Span, label: str, file: str) -> None:
    """A Python block cannot be empty: deleting its only statement fails instead of inventing `pass`."""
    node = document.tree.root_node.descendant_for_byte_range(definition.start, definition.end)
    while (
        node is not None and node.parent is not None and node.parent.type not in ("block", "module")
    ):
        node = node.parent
    if node is None or node.parent is None or node.parent.type != "block":
        return
    others = [
        child
        for child in node.parent.named_children
        if child.type != "comment" and not span.top <= child.start_byte < span.bottom
    ]
    if others:
        return
    owner = next(
        (
            d
            for d in document.definitions
            if d.qualified_name == ".".join(definition.scope)
            and d.start <= definition.start < d.end
        ),
        None,
    )
    if owner is not None and owner.end >= definition.end:
        raise PayloadError(
            f"{label} in {file} would leave {owner.kind} {owner.qualified_name} empty",
            f"replace the {owner.kind} instead (TARGET_NODE: {owner.kind} {owner.qualified_name})",
        )
    raise PayloadError(
        f"{label} in {file} would leave the block around it empty",
        "replace the enclosing code with TARGET_NODE instead",
    )


__all__ = ["APPEND_TO_FILE", "Result", "delete", "insert"]
