"""Members that are not definitions: interface properties, enum members, found by their name.

An elided `interface Props { … // ... existing props ... }` restates some
properties and adds others. They are not definitions (PROTOCOL.md §4: not
targets of their own), so they are matched by name within their container
and replaced or added by whole lines, rendered like any payload; the usual
check follows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import Definition
from kopipasta.code.imports.imports import TextEdit, apply_edits
from kopipasta.code.layout.render import render_lines
from kopipasta.errors import PayloadError
from kopipasta.syntax.check import check_syntax

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from kopipasta.code.find.document import Document


def field_key(node: Node) -> str | None:
    """The name a non-definition member is known by: `email` in `email: string;`, `Red` in an enum."""
    name = node.child_by_field_name("name")
    if name is None and node.type == "property_identifier":
        name = node
    if name is None or name.text is None:
        return None
    return name.text.decode("utf-8", "replace")


def _body(tree: Tree, container: Definition) -> Node | None:
    node = tree.root_node.descendant_for_byte_range(container.start, container.end)
    while node is not None and node.child_by_field_name("body") is None:
        node = node.parent
    return node.child_by_field_name("body") if node is not None else None


def apply_field_step(
    document: Document,
    container: Definition,
    key: str,
    text: str,
    action: str,  # "replace", "after", "before"
    *,
    file: str,
    label: str,
) -> tuple[bytes, Tree]:
    """The member `key` of `container` replaced by `text`, or `text` put after or before it; checked."""
    spec, data, tree, newline = document.code_spec, document.data, document.tree, document.newline
    body = _body(tree, container)
    found = [c for c in (body.named_children if body is not None else []) if field_key(c) == key]
    if len(found) != 1:
        raise PayloadError(
            f"{label} in {file}: '{key}' is not one member of {container.qualified_name}",
            f"send the complete {container.kind} with `TARGET_NODE: {container.kind} {container.qualified_name}`",
        )
    node = found[0]
    top = document.line_start(node.start_byte)
    end = data.find(b"\n", node.end_byte)
    end = len(data) if end < 0 else end
    if end > 0 and data[end - 1 : end] == b"\r":
        end -= 1
    rest = data[node.end_byte : end].strip().lstrip(b";,").strip()
    if data[top : node.start_byte].strip() or (rest and not rest.startswith((b"//", b"/*", b"#"))):
        raise PayloadError(
            f"{label} in {file}: '{key}' shares its line with other code in {container.qualified_name}",
            f"send the complete {container.kind} with `TARGET_NODE: {container.kind} {container.qualified_name}`",
        )
    indent = document.indentation_at(node.start_byte)
    rendered = newline.join(render_lines(spec, text, base=indent, file_unit=document.unit))
    line = rendered.encode("utf-8")
    eol = newline.encode("ascii")
    if action == "replace":
        edit = TextEdit(top, end, line)
    elif action == "after":
        edit = TextEdit(end, end, eol + line)
    else:
        edit = TextEdit(top, top, line + eol)
    new_data, change = apply_edits(data, [edit])
    if new_data == data:
        return data, tree
    return new_data, check_syntax(spec, file, label, data, tree, new_data, change)
