"""Add and remove definitions (PROTOCOL.md §4a): INSERT_AFTER, INSERT_BEFORE, APPEND_TO, DELETE_NODE.

Where `splice.py` replaces a definition's span, these work on whole lines
around one: a definition's lines run from its comment block (or its
decorators, `export`, overload stubs) to the end of its last line, a class
field's `;` and a trailing comment included. New definitions are rendered
like a TARGET_NODE payload (`render_lines`: string literals kept, the file's
indent unit) at the indentation of the place, and separated from their
neighbours by as many blank lines as the neighbours there are separated by.

Every edit is made on the original bytes together with the payload's
imports (§4b) and checked with one incremental reparse. A payload whose
rendered text already stands at the place is `unchanged`, so applying a
reply twice inserts nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.edit import visibility
from kopipasta.code.find.definitions import Definition
from kopipasta.code.find.placement import CONTAINER_KINDS, check_landed, definitions_in
from kopipasta.code.find.resolve import parse_target, resolve_in
from kopipasta.code.imports.import_merge import plan_imports
from kopipasta.code.imports.imports import (
    TextEdit,
    apply_edits,
    refuse_unmerged_imports,
    split_imports,
)
from kopipasta.code.layout.indent import Unit, detect_unit
from kopipasta.code.layout.render import render_lines
from kopipasta.code.read import wholefile
from kopipasta.code.read.members import container_body
from kopipasta.errors import PayloadError
from kopipasta.model import Operation
from kopipasta.syntax import opening_tag
from kopipasta.syntax.check import check_syntax
from kopipasta.syntax.languages import LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from kopipasta.code.find.document import Document

# Definitions whose body holds members, the only targets APPEND_TO takes.
# Bodies whose members are not definitions (`email: string;`, `Red = "red",`): one per line by default.
_LIST_BODIES = frozenset({"interface_body", "object_type", "enum_body"})
# A body that stands for "nothing yet" in Python: replaced by the first member appended.
_PLACEHOLDER_BODIES = frozenset({"pass", "..."})

APPEND_TO_FILE = "file"
# APPEND_TO: file asks first for the definitions in the file's last this many top-level nodes.
_MODULE_TAIL = 16


@dataclass(frozen=True)
class Result:
    data: bytes
    tree: Tree
    note: str = ""


@dataclass(frozen=True)
class _Span:
    """Whole lines of the original data: [top, bottom)."""

    top: int  # start of the first line (comment block, decorators, export, stubs)
    bottom: int  # start of the line after the last one (len(data) when it is the last line)
    indent: str  # the leading whitespace of its first code line


@dataclass(frozen=True)
class _Insertion:
    """What an insert puts where, before imports are merged."""

    edits: tuple[TextEdit, ...]  # the text's own edit first, then any it needs (an enum's comma)
    text_start: int  # where, in the edited data before imports, the rendered payload starts
    text_length: int
    scope: tuple[str, ...]  # where the payload's definitions must land
    note: str = ""


# --- lines ----------------------------------------------------------------------------


def _end_of_lines(data: bytes, end: int) -> int:
    """Where the lines holding something that ends at `end` end: the start of the next line."""
    if end > 0 and data[end - 1 : end] == b"\n":
        return end
    return _next_line(data, end)


def _next_line(data: bytes, offset: int) -> int:
    """The start of the line after the one holding `offset` (len(data) on the last line)."""
    newline = data.find(b"\n", offset)
    return len(data) if newline < 0 else newline + 1


def _is_blank(line: bytes) -> bool:
    return not line.strip()


def _comment_prefixes(spec: LanguageSpec) -> tuple[bytes, ...]:
    openers = (*spec.line_comments, *(opener for opener, _ in spec.block_comments))
    return tuple(opener.encode("utf-8") for opener in openers)


def _span(document: Document, start: int, end: int) -> _Span | None:
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
    bottom = _end_of_lines(data, end)
    rest = data[end:bottom].strip().lstrip(b";,").strip()
    if rest and not rest.startswith(_comment_prefixes(document.code_spec)):
        return None
    return _Span(top, bottom, document.indentation_at(start))


def _definition_span(document: Document, definition: Definition, label: str, file: str) -> _Span:
    span = _span(document, definition.outer_start, definition.end)
    if span is None:
        raise PayloadError(
            f"{label} in {file}: {definition.qualified_name} shares its line with other code, "
            "so nothing can be added or removed beside it line by line",
            "replace the enclosing definition with TARGET_NODE instead",
        )
    return span


def _multiline(data: bytes, span: _Span) -> bool:
    return b"\n" in data[span.top : span.bottom].rstrip()


def _gap(data: bytes, upper: _Span, lower: _Span) -> int | None:
    """Blank lines between two neighbours, or None when something else stands between them."""
    if upper.bottom > lower.top or data[upper.bottom : lower.top].strip():
        return None
    return data[upper.bottom : lower.top].count(b"\n")


def _choose_gap(
    data: bytes, pairs: list[tuple[_Span, _Span]], multiline_payload: bool
) -> int | None:
    """The separator learnt from neighbouring pairs, first pair first.

    A definition of several lines is separated like the pairs that hold one
    (not like a run of one-line constants or fields); a one-line payload like
    a pair of one-liners, else like the first pair.
    """
    fitting = _fitting_gap(data, pairs, multiline_payload)
    if fitting is not None or multiline_payload:
        return fitting
    return next((g for a, b in pairs if (g := _gap(data, a, b)) is not None), None)


def _fitting_gap(data: bytes, pairs: list[tuple[_Span, _Span]], multiline_payload: bool) -> int | None:
    """The gap of the first pair like the payload (one holding a multi-line definition, or two
    one-liners), if any: `_choose_gap`'s answer whatever pairs come after."""
    for a, b in pairs:
        gap = _gap(data, a, b)
        if gap is None:
            continue
        if (_multiline(data, a) or _multiline(data, b)) == multiline_payload:
            return gap
    return None


def _default_gap(spec: LanguageSpec, indent: str) -> int:
    """One blank line, two between Python module-level definitions (PEP 8)."""
    return 2 if spec.grammar == "python" and not indent else 1


# --- the payload ----------------------------------------------------------------------


def _label(operation: Operation, target: str) -> str:
    return f"{operation.name} {target}"


def _payload_parts(
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


def _render(document: Document, code: str, indent: str) -> str:
    lines = render_lines(document.spec, code, base=indent, file_unit=document.unit)
    return document.newline.join(lines)


def _unit(document: Document, code: str) -> Unit:
    return document.unit or detect_unit(code.split("\n")) or Unit(document.code_spec.default_unit)


def _ends_with_lines(data: bytes, end: int, text: bytes) -> bool:
    """Whether whole lines ending at `end` are `text`: the payload already stands there."""
    start = end - len(text)
    return (
        start >= 0 and data[start:end] == text and (start == 0 or data[start - 1 : start] == b"\n")
    )


# --- INSERT_AFTER / INSERT_BEFORE -----------------------------------------------------


def _siblings(document: Document, target: Definition, span: _Span) -> tuple[_Span | None, _Span | None]:
    """The spans of the sibling definitions just before and just after the target, if any."""
    before: _Span | None = None
    after: _Span | None = None
    # Only the target's container is looked at: a member's siblings come without the full listing.
    for other in document.members(target.container):
        if other == target or other.container != target.container:
            continue
        other_span = _span(document, other.outer_start, other.end)
        if other_span is None or other_span.indent != span.indent:
            continue
        if other_span.top >= span.bottom and (after is None or other_span.top < after.top):
            after = other_span
        if other_span.bottom <= span.top and (before is None or other_span.bottom > before.bottom):
            before = other_span
    return before, after


def _insert_beside(
    document: Document, target: Definition, code: str, *, after: bool, label: str, file: str
) -> _Insertion | None:
    spec, data, newline = document.code_spec, document.data, document.newline
    span = _definition_span(document, target, label, file)
    previous, following = _siblings(document, target, span)
    pairs = [(span, following)] if following is not None else []
    if previous is not None:
        pairs.append((previous, span))
    multiline = "\n" in code
    gap = _choose_gap(data, pairs, multiline)
    if gap is None:
        gap = _default_gap(spec, span.indent)
    text = _render(document, code, span.indent).encode("utf-8")
    eol = newline.encode("ascii")
    if after:
        # Already there: the first lines after the target (blank lines skipped) are the payload.
        cursor = span.bottom
        while cursor < len(data) and _is_blank(data[cursor : _next_line(data, cursor)]):
            cursor = _next_line(data, cursor)
        if _ends_with_lines(data, cursor + len(text), text) and data[cursor + len(text) :][:1] in (
            b"",
            b"\r",
            b"\n",
        ):
            return None
        if span.bottom == len(data) and not data.endswith(b"\n"):
            # The target is the file's last line, without a final newline: the file keeps that habit.
            inserted = eol * (gap + 1) + text
            return _Insertion(
                (TextEdit(span.bottom, span.bottom, inserted),),
                span.bottom + len(eol) * (gap + 1),
                len(text),
                target.container,
            )
        inserted = eol * gap + text + eol
        return _Insertion(
            (TextEdit(span.bottom, span.bottom, inserted),),
            span.bottom + len(eol) * gap,
            len(text),
            target.container,
        )
    # INSERT_BEFORE: the last lines before the target (blank lines skipped) are the payload already?
    cursor = span.top
    while cursor > 0 and _is_blank(data[document.line_start(cursor - 1) : cursor]):
        cursor = document.line_start(cursor - 1)
    if cursor > 0 and _ends_with_lines(data, cursor, text + eol):
        return None
    inserted = text + eol + eol * gap
    return _Insertion((TextEdit(span.top, span.top, inserted),), span.top, len(text), target.container)


# --- APPEND_TO ------------------------------------------------------------------------


def _members(spec: LanguageSpec, body: Node) -> list[tuple[Node, int]]:
    """The body's members with where each starts: a TS member's decorators stand beside it."""
    members: list[tuple[Node, int]] = []
    pending: int | None = None
    for child in body.named_children:
        if child.type in spec.comment_types:
            continue
        if child.type in spec.prefix_types and spec.grammar != "python":
            pending = child.start_byte if pending is None else pending
            continue
        members.append((child, pending if pending is not None else child.start_byte))
        pending = None
    return members


def _is_docstring(node: Node) -> bool:
    if node.type == "expression_statement" and node.named_child_count == 1:
        node = node.named_children[0]
    return node.type in ("string", "concatenated_string")


def _is_placeholder_body(node: Node) -> bool:
    text = (node.text or b"").decode("utf-8", "replace").strip()
    return node.type in ("pass_statement", "expression_statement") and text in _PLACEHOLDER_BODIES


def _append_to(document: Document, container: Definition, code: str, *, label: str, file: str) -> _Insertion | None:
    spec, data, newline = document.code_spec, document.data, document.newline
    scope = (*container.scope, container.name)
    body = container_body(spec, document.tree, container)
    if container.kind not in CONTAINER_KINDS or body is None:
        raise PayloadError(
            f"{label} in {file}: {container.kind} {container.qualified_name} has no body to append members to",
            f"APPEND_TO takes a class, interface, enum or namespace; to add beside it use INSERT_AFTER: "
            f"{container.kind} {container.qualified_name}",
        )
    eol = newline.encode("ascii")
    container_indent = document.indentation_at(container.start)
    # A Java enum's members after its constants stand in a body of their own.
    nested = next((c for c in body.named_children if c.type in spec.nested_body_types), None)
    if nested is not None and nested.named_child_count:
        body = nested
    members = _members(spec, body)
    refusal = visibility.refuse_append(spec, container, [member for member, _ in members], code, data)
    if refusal is not None:
        raise PayloadError(f"{label} in {file}: {refusal[0]}", _section_hint(document, container, refusal[1], refusal[2]))
    if not members:
        # An empty TS body: `{}` opens onto lines of its own, `{` … `}` gets the member before `}`.
        indent = container_indent + _unit(document, code).text
        text = _render(document, code, indent).encode("utf-8")
        close = body.children[-1] if body.children else None
        if close is None or close.type != "}":
            raise PayloadError(
                f"{label} in {file}: cannot find where the body of {container.qualified_name} ends"
            )
        if close.start_point[0] == body.start_point[0]:
            opening = body.start_byte + 1
            inserted = eol + text + eol + container_indent.encode("ascii")
            return _Insertion(
                (TextEdit(opening, close.start_byte, inserted),),
                opening + len(eol),
                len(text),
                scope,
            )
        line = document.line_start(close.start_byte)
        return _Insertion((TextEdit(line, line, text + eol),), line, len(text), scope)
    opener = body.prev_sibling
    # Braces may follow a keyword (Go's `interface {`); a Java enum's nested body has none but is delimited.
    braced = body.type in spec.nested_body_types or any(c.type == "{" for c in body.children)
    if (
        body.start_point[0] == body.end_point[0]
        if braced
        # A body without braces (Python, Ruby) starts at its first member: one line if that is the header's.
        else (opener is not None and opener.end_point[0] == body.start_point[0])
    ):
        raise PayloadError(
            f"{label} in {file}: {container.qualified_name} is written on one line, so members cannot be added by lines",
            f"replace it with TARGET_NODE: {container.kind} {container.qualified_name}",
        )
    spans = [_span(document, start, member.end_byte) for member, start in members]
    last = spans[-1]
    if last is None:
        raise PayloadError(
            f"{label} in {file}: the last member of {container.qualified_name} shares its line with other code",
            f"replace it with TARGET_NODE: {container.kind} {container.qualified_name}",
        )
    indent = next((s.indent for s in reversed(spans) if s is not None), container_indent)
    code, section_label = _section_label(document, [member for member, _ in members], code)
    text = _render(document, code, indent).encode("utf-8")
    if section_label:
        # A C++ label stands where the file's labels do (`public:` at the class's column), not at the members'.
        text = section_label.encode("utf-8") + eol + text

    comma: list[TextEdit] = []
    if body.type in spec.comma_body_types:
        # Members are separated by commas: keep the file's trailing-comma habit.
        last_member = members[-1][0]
        following = last_member.next_sibling
        if following is not None and following.type == ",":
            text = text if text.endswith(b",") else text + b","
        else:
            text = text.removesuffix(b",")
            comma.append(TextEdit(last_member.end_byte, last_member.end_byte, b","))

    if spec.grammar == "python":
        statements = [member for member, _ in members if not _is_docstring(member)]
        if (
            len(statements) == 1
            and statements[0] is members[-1][0]
            and _is_placeholder_body(statements[0])
        ):
            # `pass` stands for an empty body: the first member takes its place
            # (its line only: a comment above it stays).
            ending = eol if data[last.bottom - 1 : last.bottom] == b"\n" else b""
            placeholder = (statements[0].text or b"").decode("utf-8")
            line = document.line_start(statements[0].start_byte)
            return _Insertion(
                (TextEdit(line, last.bottom, text + ending),),
                line,
                len(text),
                scope,
                f"replaced `{placeholder}`",
            )

    # Already there: the body's last lines are the payload.
    content_end = last.bottom
    if data[:content_end].endswith(b"\n"):
        if _ends_with_lines(data, content_end, text + eol):
            return None
    elif _ends_with_lines(data, content_end, text):
        return None

    member_pairs = [
        (a, b) for a, b in zip(spans, spans[1:], strict=False) if a is not None and b is not None
    ]
    # The new pair is (last member, payload): one holding a multi-line definition is separated like
    # such pairs, not like the run of one-line fields above it (a one-line `fun` after a companion object).
    gap = _choose_gap(data, list(reversed(member_pairs)), "\n" in code or _multiline(data, last))
    if gap is None:
        gap = 0 if body.type in _LIST_BODIES or body.type in spec.comma_body_types else 1
    if last.bottom == len(data) and not data.endswith(b"\n"):
        inserted = eol * (gap + 1) + text
        offset = len(eol) * (gap + 1)
    else:
        inserted = eol * gap + text + eol
        offset = len(eol) * gap
    return _Insertion(
        (TextEdit(last.bottom, last.bottom, inserted), *comma),
        last.bottom + offset,
        len(text),
        scope,
    )


def _section_label(document: Document, body_nodes: list[Node], code: str) -> tuple[str, str | None]:
    """A payload that opens with a section label (`private:`, Ruby's `private`): dropped when that
    section is already the last one (APPEND_TO lands in it), else returned apart, as it will be
    written: at the indentation of the file's own labels."""
    spec = document.code_spec
    opened = visibility.payload_marker(spec, code)
    if opened is None:
        return code, None
    labels = [node for node in body_nodes if visibility.marker_node(spec, node) is not None]
    if not labels:
        return code, None
    lines = code.splitlines(keepends=True)
    first = next(k for k, line in enumerate(lines) if line.strip())
    blank = next((k for k in range(first + 1, len(lines)) if lines[k].strip()), len(lines))
    rest = "".join(lines[blank:])
    if visibility.marker_node(spec, labels[-1]) == opened:
        return rest, None
    # The blank lines the payload leaves below its label stay with it.
    return rest, document.indentation_at(labels[-1].start_byte) + lines[first].strip() + document.newline * (blank - first - 1)


def _section_hint(document: Document, container: Definition, landing: str, last_public: Node | None) -> str:
    """How to add the members refused by `visibility.refuse_append`: say the section, or go beside a public member."""
    marker = f"{landing}:" if document.code_spec.grammar == "cpp" else landing
    opener = "public:" if document.code_spec.grammar == "cpp" else "public"
    scope = (*container.scope, container.name)
    beside = None
    if last_public is not None:
        found = definitions_in(document.code_spec, document.tree, last_public.start_byte, last_public.end_byte, document.data)
        beside = next((d for d in found if d.scope == scope), None)
    public = (
        f"send it with `INSERT_AFTER: {beside.kind} {beside.qualified_name}` (the last public member)"
        if beside is not None
        else f"open the payload with a `{opener}` line"
    )
    return f"for a public member, {public}; for a {landing} one, open the payload with a `{marker}` line"


def _append_to_file(document: Document, code: str) -> _Insertion | None:
    spec, data, newline = document.code_spec, document.data, document.newline
    text = _render(document, code, "").encode("utf-8")
    eol = newline.encode("ascii")
    content_end = len(data.rstrip())
    if content_end == 0:
        return _Insertion((TextEdit(0, len(data), text + eol),), 0, len(text), ())
    if _ends_with_lines(data, content_end, text):
        return None
    gap = _module_gap(document, "\n" in code)
    if gap is None:
        gap = _default_gap(spec, "")
    closing = _closing_statement(document)
    if closing is not None:
        # Lua's `return M` ends the module: the new definitions go above it.
        cursor = closing
        while cursor > 0 and _is_blank(data[document.line_start(cursor - 1) : cursor]):
            cursor = document.line_start(cursor - 1)
        if cursor > 0 and _ends_with_lines(data, cursor, text + eol):
            return None
        # Right under code (PHP's `}` then `?>`): the new definitions keep the gap above them too.
        lead = eol * gap if cursor == closing and cursor > 0 else b""
        return _Insertion(
            (TextEdit(closing, closing, lead + text + eol + eol * gap),), closing + len(lead), len(text), ()
        )
    inserted = eol * (gap + 1) + text
    return _Insertion(
        (TextEdit(content_end, content_end, inserted),),
        content_end + len(eol) * (gap + 1),
        len(text),
        (),
    )


def _module_gap(document: Document, multiline_payload: bool) -> int | None:
    """The separator learnt from the module's definitions, the last pairs first.

    Most files answer from their last few definitions: the top-level ones after the
    start of the last root children are asked for (a range query, not the listing), as
    many more each round as needed until a pair fits the payload or the whole file is read.
    """
    data = document.data
    children = document.tree.root_node.children
    count = _MODULE_TAIL
    while True:
        whole = count >= len(children)
        definitions = document.members(()) if whole else document.top_level_from(children[-count].start_byte)
        spans = [
            s
            for d in definitions
            if (s := _span(document, d.outer_start, d.end)) is not None and not s.indent
        ]
        pairs = list(reversed(list(zip(spans, spans[1:], strict=False))))
        if whole:
            return _choose_gap(data, pairs, multiline_payload)
        fitting = _fitting_gap(data, pairs, multiline_payload)
        if fitting is not None:
            return fitting
        count *= 8 if count > 1 else 2


def _closing_statement(document: Document) -> int | None:
    """Where the file's closing statements start (`return M`, `main "$@"`), if it ends with some."""
    spec = document.code_spec
    first = None
    for child in reversed(document.tree.root_node.named_children):
        if child.type in spec.comment_types:
            continue
        if child.type not in spec.closing_statements and not opening_tag.is_tag(spec, child):
            break  # a PHP file's last `?>` stays last too
        first = child
    if first is None:
        return None
    comment = document.comment_block_start(first.start_byte)
    return document.line_start(comment if comment is not None else first.start_byte)


# --- the operations -------------------------------------------------------------------


def insert(document: Document, operation: Operation, target_text: str, payload: str, *, file: str) -> Result:
    """INSERT_AFTER, INSERT_BEFORE or APPEND_TO on the document (PROTOCOL.md §4a)."""
    spec, data, tree, newline = document.code_spec, document.data, document.tree, document.newline
    label = _label(operation, target_text)
    imports, code = _payload_parts(spec, label, file, payload)
    if operation is Operation.APPEND_TO and target_text.strip().lower() == APPEND_TO_FILE:
        insertion = _append_to_file(document, code)
    else:
        target = parse_target(target_text, file)
        label = _label(operation, str(target))
        definition = resolve_in(target, document, file)
        if operation is Operation.APPEND_TO:
            insertion = _append_to(document, definition, code, label=label, file=file)
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
    label = _label(Operation.DELETE_NODE, str(target))
    definition = resolve_in(target, document, file)
    span = _definition_span(document, definition, label, file)
    if spec.grammar == "python":
        _check_body_kept(document, definition, span, label, file)
    # The blank lines above and below the target.
    above = span.top
    while above > 0 and _is_blank(data[document.line_start(above - 1) : above]):
        above = document.line_start(above - 1)
    below = span.bottom
    while below < len(data) and _is_blank(data[below : _next_line(data, below)]):
        below = _next_line(data, below)
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


def _check_body_kept(document: Document, definition: Definition, span: _Span, label: str, file: str) -> None:
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
