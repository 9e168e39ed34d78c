"""TypeScript overload sets stay whole: a signature is never left without its implementation.

In a `.ts` file an overload signature (`function clamp(v: number): number;`, or
a method's in a class) must be followed by the other signatures of its set and
the implementation, under the same name; TypeScript refuses one that is not
(TS2391, "Function implementation is missing or not immediately following the
declaration"). A reply that renames one signature of a set (`clampV2`) writes
such an orphan whatever reading places it — beside the set, above its comment,
a blank line away — so the write guard refuses a result with an orphan the file
did not have, naming it. Declarations without bodies that are meant to be so
(`declare function`, an interface's members, `abstract` methods, a `.d.ts`
file) are other node types, or in ambient contexts that are not walked.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from kopipasta.code.find.document import Document

_GRAMMARS = frozenset({"typescript", "tsx"})
# The statements a set's members stand in, and what each holds: a signature, or the implementation.
_SIGNATURES = frozenset({"function_signature", "method_signature"})
_IMPLEMENTATIONS = frozenset({"function_declaration", "generator_function_declaration", "method_definition"})
_SKIPPED = frozenset({"comment", ";"})


def orphans(document: Document) -> set[str]:
    """The overload signatures not followed by a member of their set, by name (qualified by their
    class or namespace). Empty for a file that is not TypeScript or has none."""
    spec = document.spec
    if spec is None or spec.grammar not in _GRAMMARS or document.source.path.endswith(".d.ts"):
        return set()
    found: set[str] = set()
    for scope, body in _bodies(document.tree.root_node, ""):
        members = [_unwrapped(child) for child in body.named_children if child.type not in _SKIPPED]
        for index, member in enumerate(members):
            if member.type not in _SIGNATURES:
                continue
            name = _name(member)
            follower = members[index + 1] if index + 1 < len(members) else None
            if follower is None or follower.type not in _SIGNATURES | _IMPLEMENTATIONS or _name(follower) != name:
                found.add(f"{scope}{name}")
    return found


def _bodies(node: Node, scope: str) -> Iterator[tuple[str, Node]]:
    """The statement lists where overload sets stand: the file, class bodies, namespace bodies
    (not `declare` blocks: an ambient signature needs no implementation)."""
    yield scope, node
    for child in node.named_children:
        inner = _unwrapped(child)
        if inner.type == "expression_statement" and inner.named_child_count == 1:
            inner = inner.named_children[0]  # `namespace X { … }` is a statement of its own
        body = inner.child_by_field_name("body")
        if body is None:
            continue
        if inner.type in ("class_declaration", "abstract_class_declaration"):
            yield f"{scope}{_name(inner)}.", body
        elif inner.type == "internal_module":
            yield from _bodies(body, f"{scope}{_name(inner)}.")


def _unwrapped(node: Node) -> Node:
    """The declaration an `export` (or `export default`) statement holds, else the node itself."""
    if node.type == "export_statement":
        declaration = node.child_by_field_name("declaration")
        if declaration is not None:
            return declaration
    return node


def _name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return name.text.decode("utf-8", "replace") if name is not None and name.text is not None else ""
