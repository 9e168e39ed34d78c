"""Source → the definitions a TARGET_NODE can name.

The language's query file says which nodes are definitions; this module adds
what a query cannot: the chain of enclosing definitions, functions that are
methods because of where they stand, locals that are not definitions at all,
and the wrappers (decorators, `export`, overload stubs) that belong to each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.languages import LanguageSpec, query_matches

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

# Kinds whose bodies hold locals: a variable inside one is not a definition.
_FUNCTION_KINDS = frozenset({"function", "method"})
_CLASS_KINDS = frozenset({"class", "interface", "struct", "impl", "trait"})
_PYTHON_STATEMENT_PARENTS = frozenset({"module", "block", "expression_statement"})
_PROTOCOL_BASES = frozenset({"Protocol", "typing.Protocol", "typing_extensions.Protocol"})
_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})


@dataclass(frozen=True)
class Definition:
    kind: str  # function, method, class, interface, type, enum, module, variable
    name: str
    scope: tuple[str, ...]  # names of the enclosing definitions, outermost first
    start: int  # byte where the definition itself starts (after decorators and `export`)
    end: int  # byte where it ends
    outer_start: int  # byte where its decorators, `export` and overload stubs start
    line: int  # 1-based line of `start`
    end_line: int  # 1-based line of `end`
    also_fits: frozenset[str] = frozenset()  # further kinds: component, interface (Protocol), …
    # Where its own decorators and `export` start, overload stubs left out; None: at outer_start.
    wrapper_start: int | None = None
    # Where the `export` keyword of its wrapper starts (JS/TS), after any decorators before it.
    export_start: int | None = None
    # Where the `declare` keyword of its wrapper starts (TS ambient declarations).
    declare_start: int | None = None

    @property
    def qualified_name(self) -> str:
        return ".".join((*self.scope, self.name))

    def fits(self, kind: str) -> bool:
        if kind == self.kind or kind in self.also_fits:
            return True
        return kind == "function" and self.kind == "method"


@dataclass(frozen=True)
class _Captured:
    pattern: int
    kind: str  # "overload" or a definition kind
    node: Node
    name: str


def overload_names(spec: LanguageSpec, root: Node) -> set[str]:
    """The names of the overload stubs under `root` (a payload's tree, say)."""
    return {item.name for item in _captures(spec, root, None).values() if item.kind == "overload"}


def _key(node: Node) -> tuple[int, int, str]:
    return (node.start_byte, node.end_byte, node.type)


def _captures(
    spec: LanguageSpec, root: Node, byte_range: tuple[int, int] | None
) -> dict[tuple[int, int, str], _Captured]:
    """Each captured node with the kind of the first pattern that captured it."""
    found: dict[tuple[int, int, str], _Captured] = {}
    for pattern, captures in query_matches(spec, root, byte_range):
        names = captures.get("name")
        if not names:
            continue
        for capture, nodes in captures.items():
            if capture == "overload":
                kind = "overload"
            elif capture.startswith("definition."):
                kind = capture.removeprefix("definition.")
            else:
                continue
            node = nodes[0]
            previous = found.get(_key(node))
            if previous is None or pattern < previous.pattern:
                name = (names[0].text or b"").decode("utf-8", "replace")
                found[_key(node)] = _Captured(pattern, kind, node, name)
    return found


def _outer(spec: LanguageSpec, node: Node) -> Node:
    """The node with the wrappers that belong to this definition (decorators, export)."""
    while node.parent is not None and node.parent.type in spec.wrapper_types:
        node = node.parent
    return node


def _own_start(spec: LanguageSpec, node: Node) -> int:
    """Where the definition starts once its own leading decorators are skipped."""
    for child in node.children:
        if child.type not in spec.prefix_types and child.type not in spec.comment_types:
            return child.start_byte
    return node.start_byte


def _base_names(node: Node) -> set[str]:
    superclasses = node.child_by_field_name("superclasses")
    if superclasses is None:
        return set()
    return {
        (child.text or b"").decode("utf-8", "replace")
        for child in superclasses.named_children
        if child.type in ("identifier", "attribute")
    }


def _also_fits(spec: LanguageSpec, kind: str, name: str, node: Node) -> frozenset[str]:
    extra: set[str] = set()
    if spec.has_components and kind in ("function", "class") and name[:1].isupper():
        extra.add("component")
    if node.type in ("lexical_declaration", "variable_declaration", "field_definition", "public_field_definition"):
        extra.add("variable")  # `const X = () => …` is a const as well as a function
    if node.type == "class_definition":
        bases = _base_names(node)
        if bases & _PROTOCOL_BASES:
            extra.add("interface")
        if {b.rsplit(".", 1)[-1] for b in bases} & _ENUM_BASES:
            extra.add("enum")
    return frozenset(extra)


def list_definitions(
    spec: LanguageSpec, tree: Tree, byte_range: tuple[int, int] | None = None
) -> list[Definition]:
    """Every addressable definition of the file, in file order (or those touching `byte_range`)."""
    captured = _captures(spec, tree.root_node, byte_range)
    definitions: list[Definition] = []
    for item in captured.values():
        node = item.node
        if item.kind == "overload" and (
            spec.grammar == "python"  # the inner `def` is captured as a function too: that one counts
            or _absorbed(spec, _outer(spec, node), item.name, captured)
        ):
            continue
        if spec.grammar == "python" and item.kind == "variable" and (
            node.parent is None or node.parent.type not in _PYTHON_STATEMENT_PARENTS
        ):
            continue  # `a = b = 1`: only the outer assignment is a statement
        enclosing = _enclosing(node, captured)
        enclosing_kind = enclosing[-1].kind if enclosing else None
        kind = "function" if item.kind == "overload" else item.kind
        if kind == "variable" and enclosing_kind in _FUNCTION_KINDS:
            continue  # a local
        if kind == "function" and enclosing_kind in _CLASS_KINDS:
            kind = "method"
        outer = _outer(spec, node)
        if (
            outer is not node
            and _overload_in(spec, outer, captured) is not None
            and _absorbed(spec, outer, item.name, captured)
        ):
            continue  # a Python `@overload` stub: part of the definition below it
        first = _first_sibling_decorator(spec, outer)
        outer_start = _first_overload_start(spec, first, item.name, captured)
        start = _own_start(spec, node)
        definitions.append(
            Definition(
                kind=kind,
                name=item.name,
                scope=tuple(e.name for e in enclosing),
                start=start,
                end=node.end_byte,
                outer_start=outer_start,
                line=node.start_point[0] + 1,
                end_line=node.end_point[0] + 1,
                also_fits=_also_fits(spec, kind, item.name, node),
                wrapper_start=first.start_byte,
                export_start=_export_keyword_start(outer),
                declare_start=_declare_keyword_start(node),
            )
        )
    definitions.sort(key=lambda d: (d.start, -d.end))
    return definitions


def _enclosing(node: Node, captured: dict[tuple[int, int, str], _Captured]) -> list[_Captured]:
    """The definitions around `node`, outermost first, with their effective kinds."""
    chain: list[_Captured] = []
    parent = node.parent
    while parent is not None:
        item = captured.get(_key(parent))
        if item is not None and item.kind != "overload":
            chain.append(item)
        parent = parent.parent
    chain.reverse()
    # A function directly inside a class is a method: the rule applies to the chain too.
    effective: list[_Captured] = []
    for i, item in enumerate(chain):
        kind = item.kind
        if kind == "function" and i > 0 and effective[i - 1].kind in _CLASS_KINDS:
            kind = "method"
        effective.append(_Captured(item.pattern, kind, item.node, item.name))
    return effective


def _first_sibling_decorator(spec: LanguageSpec, outer: Node) -> Node:
    """The first of the decorators standing before a definition as its siblings.

    TypeScript puts a class member's decorators in the class body beside it,
    not inside it: `@Get(":id")` then `findOne() {}`. They are still its own.
    """
    first = outer
    sibling = outer.prev_sibling
    while sibling is not None and sibling.type in spec.prefix_types:
        first = sibling
        sibling = sibling.prev_sibling
    return first


def _export_keyword_start(outer: Node) -> int | None:
    """Where `export` starts in an export wrapper; decorators may stand before it."""
    if outer.type != "export_statement":
        return None
    keyword = next((child for child in outer.children if child.type == "export"), None)
    return keyword.start_byte if keyword is not None else None


def _declare_keyword_start(node: Node) -> int | None:
    """Where `declare` starts when the definition is a TS ambient declaration."""
    parent = node.parent
    return parent.start_byte if parent is not None and parent.type == "ambient_declaration" else None


def _first_overload_start(
    spec: LanguageSpec, outer: Node, name: str, captured: dict[tuple[int, int, str], _Captured]
) -> int:
    """Overload stubs just above a definition are part of it, like its decorators.

    Comments between the stubs, or between the last stub and the body (Vue's
    `/*@__NO_SIDE_EFFECTS__*/`), do not break the run: the stubs still belong
    to the body, so a payload restating them replaces them rather than adding
    copies. A comment above the first stub stays outside, as any comment block.
    """
    start = outer.start_byte
    sibling = outer.prev_named_sibling
    while sibling is not None:
        while sibling is not None and sibling.type in spec.comment_types:
            sibling = sibling.prev_named_sibling
        stub = _overload_in(spec, sibling, captured) if sibling is not None else None
        if sibling is None or stub is None or stub.name != name:
            break
        start = sibling.start_byte
        sibling = sibling.prev_named_sibling
    return start


def _captured_in(
    spec: LanguageSpec, node: Node, captured: dict[tuple[int, int, str], _Captured]
) -> _Captured | None:
    """The definition or overload stub that `node` is, or wraps (`export function f(): T;`)."""
    while True:
        item = captured.get(_key(node))
        if item is not None:
            return item
        if node.type not in spec.wrapper_types or node.named_child_count == 0:
            return None
        node = node.named_children[-1]


def _overload_in(
    spec: LanguageSpec, node: Node, captured: dict[tuple[int, int, str], _Captured]
) -> _Captured | None:
    """The overload stub that `node` is, or wraps."""
    item = _captured_in(spec, node, captured)
    return item if item is not None and item.kind == "overload" else None


def _absorbed(
    spec: LanguageSpec, outer: Node, name: str, captured: dict[tuple[int, int, str], _Captured]
) -> bool:
    """Whether an overload stub belongs to what follows it: another stub or the body of the same name.

    The last stub of a run with no body after it (a `.pyi` or `.d.ts` file,
    `declare function`) is the definition itself, with the stubs above it.
    """
    sibling = outer.next_named_sibling
    while sibling is not None and sibling.type in spec.comment_types:
        sibling = sibling.next_named_sibling
    if sibling is None:
        return False
    item = _captured_in(spec, sibling, captured)
    return item is not None and item.name == name


def comment_block_start(tree: Tree, data: bytes, outer_start: int) -> int | None:
    """Start of the comment lines directly above a definition, if any.

    Contiguous comments at the definition's indentation, with no blank line
    between them and the definition, belong to it (PROTOCOL.md §4).
    """
    line_start = data.rfind(b"\n", 0, outer_start) + 1
    indent = outer_start - line_start
    block_start: int | None = None
    cursor = line_start
    while cursor > 0:
        previous_end = cursor - 1  # the "\n" ending the line above
        previous_text_end = previous_end
        if previous_text_end > 0 and data[previous_text_end - 1 : previous_text_end] == b"\r":
            previous_text_end -= 1
        previous_start = data.rfind(b"\n", 0, previous_end) + 1
        line = data[previous_start:previous_text_end]
        if not line.strip():
            break
        last = previous_start + len(line.rstrip()) - 1
        node = tree.root_node.descendant_for_byte_range(last, last + 1)
        if node is None or "comment" not in node.type:
            break
        comment_line_start = data.rfind(b"\n", 0, node.start_byte) + 1
        if node.start_byte - comment_line_start != indent or data[comment_line_start : node.start_byte].strip():
            break
        block_start = node.start_byte
        cursor = comment_line_start
    return block_start
