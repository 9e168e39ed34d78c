"""A container's members, in order: the definitions, imports, statements and placeholders it holds.

Fragments and elided payloads (PROTOCOL.md §6) are read as a sequence of
members of a container (the module, or a class / interface / namespace body),
and so is the original container they are merged into. A member is a
definition (with the comment block directly above it), an import, a
placeholder line standing for elided code, or any other statement (a module
docstring, `if __name__ == "__main__":`, `export default App;`).
Reading the text itself (placeholders, the class wrapper, its definitions) is
`parsed.py`'s.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.find.comments import comment_block_start
from kopipasta.code.find.definitions import Definition
from kopipasta.code.read.fields import field_key
from kopipasta.code.read.parsed import Parsed
from kopipasta.syntax import opening_tag

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from kopipasta.syntax.languages import LanguageSpec
# Definitions whose body holds members, merged member by member when elided.
# CSS groups rules in `@media` and other block at-rules (issue 25).
CONTAINER_KINDS = frozenset(
    {"class", "interface", "enum", "module", "struct", "impl", "trait", "record", "object", "extension", "media", "at-rule"}
)
# The wrapper `render.payload_tree` puts around JS/TS class members that do not parse alone.


@dataclass(frozen=True)
class Member:
    """One member of a container, in order: a definition, an import, a statement or a placeholder."""

    kind: str  # "definition", "import", "statement", "placeholder"
    first_row: int  # first row (0-based), a definition's comment block included
    last_row: int
    start: int  # byte offsets in the parsed text (a definition: its comment block's start)
    end: int
    definition: Definition | None = None
    text: str = ""  # statements: the text with whitespace squashed; placeholders: the line
    key: str = ""  # fields (interface properties, enum members): their name


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def body_of(spec: LanguageSpec, node: Node) -> Node | None:
    """A container node's body: its `body` field, or the nearest node of the language's body types.

    Kotlin's class_body is a child without a field name; a Go struct's field list stands
    three levels down (`type_declaration` > `type_spec` > `struct_type` > `field_declaration_list`).
    """
    body = node.child_by_field_name("body")
    if body is None and spec.body_types:
        level = [node]
        for _ in range(3):
            level = [c for n in level for c in n.children]
            body = next((c for c in level if c.type in spec.body_types), None)
            if body is not None:
                break
    return body


def container_body(spec: LanguageSpec, tree: Tree, definition: Definition) -> Node | None:
    """The body of the container `definition` is, found from its bytes up (None: it has none)."""
    node = tree.root_node.descendant_for_byte_range(definition.start, definition.end)
    while node is not None and body_of(spec, node) is None:
        node = node.parent
    return body_of(spec, node) if node is not None else None


def _wrapper_body(wrapper: Node) -> Node | None:
    body = wrapper.child_by_field_name("body")
    if body is not None:
        return body
    # Grammars without field names (Kotlin): the body is the wrapper's last named child.
    children = wrapper.named_children
    return children[-1] if children and children[-1].type.endswith("body") else None


def container_nodes(parsed: Parsed, container: Definition | None) -> list[Node] | None:
    """The nodes directly in the container's body (the module's top level for None)."""
    root = parsed.tree.root_node
    if container is None:
        if parsed.wrapped:
            # The wrapper is the one declaration around the payload: a class, or Rust's impl.
            wrapper = next(
                (
                    c
                    for c in root.named_children
                    if c.type not in parsed.spec.comment_types and not opening_tag.is_tag(parsed.spec, c)
                ),
                None,
            )
            body = _wrapper_body(wrapper) if wrapper is not None else None
            return list(body.named_children) if body is not None else None
        return list(root.named_children)
    body = container_body(parsed.spec, parsed.tree, container)
    return list(body.named_children) if body is not None else None


def members(parsed: Parsed, container: Definition | None) -> list[Member] | None:
    """The container's members in order; None when its body cannot be found."""
    nodes = container_nodes(parsed, container)
    if nodes is None:
        return None
    spec = parsed.spec
    scope = () if container is None else (*container.scope, container.name)
    own = [d for d in parsed.definitions if d.container == scope]
    result: list[Member] = []
    taken: set[int] = set()
    for node in nodes:
        row = node.start_point[0] - parsed.offset
        if row in parsed.placeholders and node.start_point[0] == node.end_point[0]:
            result.append(Member("placeholder", row, row, node.start_byte, node.end_byte, text=parsed.placeholders[row]))
            continue
        if node.type in spec.comment_types or node.type in spec.prefix_types:
            continue  # a comment block belongs to the definition below it; decorators too
        if container is None and opening_tag.is_tag(spec, node):
            continue  # PHP's `<?php` (and a last `?>`) opens the code, it is no part of it
        definition = next((d for d in own if d.outer_start <= node.start_byte < d.end), None)
        if definition is not None:
            if id(definition) in taken:
                continue
            taken.add(id(definition))
            comment = comment_block_start(parsed.tree, parsed.data, definition.outer_start)
            start = comment if comment is not None else definition.outer_start
            if comment is not None:
                start = _below_placeholders(parsed, start, definition.outer_start)
            result.append(
                Member("definition", parsed.row(start), parsed.row(definition.end), start, definition.end, definition)
            )
            continue
        text = (node.text or b"").decode("utf-8", "replace")
        kind = "import" if _is_import(spec, node) else "statement"
        key = field_key(node) if container is not None and spec.grammar != "python" else None
        if key is not None:
            kind = "field"  # an interface property or enum member: known by its name
        last = node.end_point[0] - parsed.offset
        result.append(Member(kind, row, last, node.start_byte, node.end_byte, text=squash(text), key=key or ""))
    return result


def _below_placeholders(parsed: Parsed, start: int, outer_start: int) -> int:
    """A definition's comment block never holds a placeholder line: Cursor writes
    `// ... existing code ...` directly above the definition it restates, and that line
    stands for the code before it, not for part of the definition."""
    first, own = parsed.row(start), parsed.row(outer_start)
    held = [row for row in parsed.placeholders if first <= row < own]
    if not held:
        return start
    position = start
    for _ in range(max(held) - first + 1):  # to the line below the last placeholder
        position = parsed.data.index(b"\n", position) + 1
    return position


def _is_import(spec: LanguageSpec, node: Node) -> bool:
    if node.type in spec.import_types:
        return True
    # Kotlin gathers its imports in one `import_list`.
    children = node.named_children
    return bool(children) and all(c.type in spec.import_types or c.type in spec.comment_types for c in children)


def text_of(lines: list[str], member: Member) -> str:
    return "\n".join(lines[member.first_row : member.last_row + 1])


def has_placeholder(parsed: Parsed, member: Member) -> bool:
    return any(member.first_row <= row <= member.last_row for row in parsed.placeholders)



def comments_left_out(original: Parsed, definition: Definition, parsed: Parsed, restated: Definition) -> bool:
    """Whether a restated container sends a member without the comment block the original has above it.

    `impl Todo { pub fn complete(…) }` sent for an impl whose `complete` carries a `///` doc
    comment is a skeleton around the method that changed: merged member by member, the
    method's comment stays, as it does for a TARGET_NODE payload that restates no comment
    (PROTOCOL.md §4). Replaced whole, the comment would go.
    """
    scope = (*definition.scope, definition.name)
    pscope = (*restated.scope, restated.name)
    sent = {
        d.name: d
        for d in parsed.definitions
        if d.container == pscope and restated.start <= d.start < restated.end
    }
    for member in original.definitions:
        if member.container != scope or not definition.start <= member.start < definition.end:
            continue
        twin = sent.get(member.name)
        if twin is None or comment_block_start(original.tree, original.data, member.outer_start) is None:
            continue
        if comment_block_start(parsed.tree, parsed.data, twin.outer_start) is None:
            return True
    return False


def statements_left_out(original: Parsed, definition: Definition, parsed: Parsed, restated: Definition) -> bool:
    """Whether a restated container leaves out statements its original holds (issue 19).

    A Rails model's `belongs_to`, `validates` and `scope` lines are statements, not
    definitions: a class sent with its methods and none of them is a skeleton around
    the methods that changed, not the whole class. Only fewer statements count: one
    rewritten in place is the restatement's to change.
    """
    # An import inside a container (Rust's `use super::*;` in `mod tests`) is the same: a line
    # the skeleton leaves out, not one it removes.
    have = [m.text for m in members(original, definition) or [] if m.kind in ("statement", "import")]
    if not have:
        return False
    sent = [m.text for m in members(parsed, restated) or [] if m.kind in ("statement", "import")]
    return len(sent) < len(have) and any(text not in sent for text in have)


def only_placeholders(parsed: Parsed, container: Definition | None) -> bool:
    """Whether the container's members are placeholders, or containers holding only placeholders."""
    found = members(parsed, container)
    if not found:
        return False
    for member in found:
        if member.kind == "placeholder":
            continue
        definition = member.definition
        if member.kind != "definition" or definition is None or definition.kind not in CONTAINER_KINDS:
            return False
        if not only_placeholders(parsed, definition):
            return False
    return True
