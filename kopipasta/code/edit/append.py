"""APPEND_TO: new members last in a class's (an interface's, an enum's) body, or new
definitions at the end of the file (PROTOCOL.md §4a).

A member lands after the body's last member, spaced as the members are; a Python
placeholder body (`pass`, `...`) is replaced by the first member; a body in
sections (`public:` / `private:`) says which one it landed in. At the end of a
file the new definitions go before a statement that must stay last.
"""


from __future__ import annotations

from typing import TYPE_CHECKING

from kopipasta.code.edit import visibility
from kopipasta.code.edit.spacing import (
    Insertion,
    choose_gap,
    default_gap,
    ends_with_lines,
    fitting_gap,
    is_blank,
    is_multiline,
    lines_of,
    payload_unit,
    rendered,
)
from kopipasta.code.find.definitions import Definition
from kopipasta.code.find.placement import CONTAINER_KINDS, definitions_in
from kopipasta.code.imports.imports import (
    TextEdit,
)
from kopipasta.code.read.members import container_body
from kopipasta.errors import PayloadError
from kopipasta.syntax import opening_tag
from kopipasta.syntax.languages import LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Node

    from kopipasta.code.find.document import Document


# Definitions whose body holds members, the only targets APPEND_TO takes.
# Bodies whose members are not definitions (`email: string;`, `Red = "red",`): one per line by default.
_LIST_BODIES = frozenset({"interface_body", "object_type", "enum_body"})


# A body that stands for "nothing yet" in Python: replaced by the first member appended.
_PLACEHOLDER_BODIES = frozenset({"pass", "..."})


APPEND_TO_FILE = "file"


# APPEND_TO: file asks first for the definitions in the file's last this many top-level nodes.
_MODULE_TAIL = 16


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


def append_to(document: Document, container: Definition, code: str, *, label: str, file: str) -> Insertion | None:
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
        indent = container_indent + payload_unit(document, code).text
        text = rendered(document, code, indent).encode("utf-8")
        close = body.children[-1] if body.children else None
        if close is None or close.type != "}":
            raise PayloadError(
                f"{label} in {file}: cannot find where the body of {container.qualified_name} ends"
            )
        if close.start_point[0] == body.start_point[0]:
            opening = body.start_byte + 1
            inserted = eol + text + eol + container_indent.encode("ascii")
            return Insertion(
                (TextEdit(opening, close.start_byte, inserted),),
                opening + len(eol),
                len(text),
                scope,
            )
        line = document.line_start(close.start_byte)
        return Insertion((TextEdit(line, line, text + eol),), line, len(text), scope)
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
    spans = [lines_of(document, start, member.end_byte) for member, start in members]
    last = spans[-1]
    if last is None:
        raise PayloadError(
            f"{label} in {file}: the last member of {container.qualified_name} shares its line with other code",
            f"replace it with TARGET_NODE: {container.kind} {container.qualified_name}",
        )
    indent = next((s.indent for s in reversed(spans) if s is not None), container_indent)
    code, section_label = _section_label(document, [member for member, _ in members], code)
    text = rendered(document, code, indent).encode("utf-8")
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
            return Insertion(
                (TextEdit(line, last.bottom, text + ending),),
                line,
                len(text),
                scope,
                f"replaced `{placeholder}`",
            )

    # Already there: the body's last lines are the payload.
    content_end = last.bottom
    if data[:content_end].endswith(b"\n"):
        if ends_with_lines(data, content_end, text + eol):
            return None
    elif ends_with_lines(data, content_end, text):
        return None

    member_pairs = [
        (a, b) for a, b in zip(spans, spans[1:], strict=False) if a is not None and b is not None
    ]
    # The new pair is (last member, payload): one holding a multi-line definition is separated like
    # such pairs, not like the run of one-line fields above it (a one-line `fun` after a companion object).
    gap = choose_gap(data, list(reversed(member_pairs)), "\n" in code or is_multiline(data, last))
    if gap is None:
        gap = 0 if body.type in _LIST_BODIES or body.type in spec.comma_body_types else 1
    if last.bottom == len(data) and not data.endswith(b"\n"):
        inserted = eol * (gap + 1) + text
        offset = len(eol) * (gap + 1)
    else:
        inserted = eol * gap + text + eol
        offset = len(eol) * gap
    return Insertion(
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


def append_to_file(document: Document, code: str) -> Insertion | None:
    spec, data, newline = document.code_spec, document.data, document.newline
    text = rendered(document, code, "").encode("utf-8")
    eol = newline.encode("ascii")
    content_end = len(data.rstrip())
    if content_end == 0:
        return Insertion((TextEdit(0, len(data), text + eol),), 0, len(text), ())
    if ends_with_lines(data, content_end, text):
        return None
    gap = _module_gap(document, "\n" in code)
    if gap is None:
        gap = default_gap(spec, "")
    closing = _closing_statement(document)
    if closing is not None:
        # Lua's `return M` ends the module: the new definitions go above it.
        cursor = closing
        while cursor > 0 and is_blank(data[document.line_start(cursor - 1) : cursor]):
            cursor = document.line_start(cursor - 1)
        if cursor > 0 and ends_with_lines(data, cursor, text + eol):
            return None
        # Right under code (PHP's `}` then `?>`): the new definitions keep the gap above them too.
        lead = eol * gap if cursor == closing and cursor > 0 else b""
        return Insertion(
            (TextEdit(closing, closing, lead + text + eol + eol * gap),), closing + len(lead), len(text), ()
        )
    inserted = eol * (gap + 1) + text
    return Insertion(
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
            if (s := lines_of(document, d.outer_start, d.end)) is not None and not s.indent
        ]
        pairs = list(reversed(list(zip(spans, spans[1:], strict=False))))
        if whole:
            return choose_gap(data, pairs, multiline_payload)
        fitting = fitting_gap(data, pairs, multiline_payload)
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
