"""Source → the definitions a TARGET_NODE can name.

The language's query file says which nodes are definitions; this module adds
what a query cannot: the chain of enclosing definitions, functions that are
methods because of where they stand, locals that are not definitions at all,
and the wrappers (decorators, `export`, overload stubs) that belong to each.

Two ways in, one builder: `list_definitions` lists the file, `definitions_named`
finds one name's definitions from range queries (issue 9). Both build each
Definition with the same `Builder`, which is why they share this module: the
fast path cannot drift from the listing it must equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple, Protocol

from kopipasta.syntax import markup_names
from kopipasta.syntax.languages import LanguageSpec, query_matches

if TYPE_CHECKING:

    from tree_sitter import Node, Tree

# Kinds whose bodies hold locals: a variable (or Swift/Kotlin `let`/`val`) inside one is not a definition.
_FUNCTION_KINDS = frozenset({"function", "method", "constructor", "property"})
_VALUE_KINDS = frozenset({"variable", "property"})
# Kinds whose functions are methods.
_CLASS_KINDS = frozenset(
    {"class", "interface", "struct", "impl", "trait", "record", "object", "extension", "enum"}
)
# Kinds that mean more than one word, in every language (docs/decisions/code-languages.md, issue 8).
_KIND_FAMILIES = {
    "record": frozenset({"class"}),
    "constructor": frozenset({"method", "function"}),
    "property": frozenset({"variable"}),
    "object": frozenset({"class"}),
}
# Definitions named by a selector or an at-rule's prelude, not an identifier (issue 25): their
# qualified names nest as CSS does, never split on dots.
MARKUP_KINDS = frozenset({"rule", "media", "at-rule", "keyframes", "element"})
_PYTHON_STATEMENT_PARENTS = frozenset({"module", "block", "expression_statement"})
_PROTOCOL_BASES = frozenset({"Protocol", "typing.Protocol", "typing_extensions.Protocol"})
_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})


@dataclass(frozen=True)
class Definition:
    """One definition of a file: its kind, name and scope, and where it stands in the bytes."""

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
    # How many of the scope's last names the definition writes itself (@scope captures: a Go
    # receiver `func (s *Server) …`, a Kotlin extension `fun String.shout`), rather than standing in them.
    qualifier_count: int = 0
    # Captured `@secondary` (a Rust `impl Trait for Type`): gives way to a same-named definition that is not.
    secondary: bool = False
    # The text of a `@detail` capture: what tells same-named definitions apart (the trait of an impl).
    detail: str = ""

    @property
    def container(self) -> tuple[str, ...]:
        """The scope it stands in: a Go method `Server.ServeHTTP` stands at the top level."""
        return self.scope[: len(self.scope) - self.qualifier_count]

    @property
    def qualified_name(self) -> str:
        if self.kind in MARKUP_KINDS:  # `@media print { #main }`: selectors hold dots of their own
            return markup_names.nested((*self.scope, self.name))
        return ".".join((*self.scope, self.name))

    def fits(self, kind: str) -> bool:
        if kind == self.kind or kind in self.also_fits:
            return True
        return kind == "function" and self.kind == "method"


class Captured(NamedTuple):
    pattern: int
    kind: str  # "overload" or a definition kind
    node: Node
    name: str
    # Qualifiers written in the definition itself, outermost first (@scope, split on `::` and `.`).
    qualifiers: tuple[str, ...] = ()
    also: frozenset[str] = frozenset()  # from `@also.<kind>` captures
    secondary: bool = False  # from a `@secondary` capture
    detail: str = ""  # from a `@detail` capture


class _Lookup(Protocol):
    """What building a Definition asks of the captured nodes: a dict for a whole listing,
    a `_RangeCaptures` when the definitions of one name are looked up."""

    def get(self, key: tuple[int, int, str], /) -> Captured | None: ...


def overload_names(spec: LanguageSpec, root: Node) -> set[str]:
    """The names of the overload stubs under `root` (a payload's tree, say)."""
    return {item.name for item in _captures(spec, root, None).values() if item.kind == "overload"}


def capture_key(node: Node) -> tuple[int, int, str]:
    return (node.start_byte, node.end_byte, node.type)


def _captures(
    spec: LanguageSpec, root: Node, byte_range: tuple[int, int] | None
) -> dict[tuple[int, int, str], Captured]:
    """Each captured node with the kind of the first pattern that captured it."""
    return captured_by_node(query_matches(spec, root, byte_range), markup=spec.markup_names)


class _Shape(NamedTuple):
    """What a match's capture names say, the same for every match with those names."""

    kinds: tuple[tuple[str, str], ...]  # (capture, kind) of each definition or overload capture
    also: frozenset[str]  # from `@also.<kind>` captures
    secondary: bool  # a `@secondary` capture


_SHAPES: dict[tuple[str, ...], _Shape] = {}


def _shape(names: tuple[str, ...]) -> _Shape:
    shape = _SHAPES.get(names)
    if shape is None:
        kinds = tuple(
            (c, "overload" if c == "overload" else c.removeprefix("definition."))
            for c in names
            if c == "overload" or c.startswith("definition.")
        )
        also = frozenset(c.removeprefix("also.") for c in names if c.startswith("also."))
        shape = _SHAPES[names] = _Shape(kinds, also, "secondary" in names)
    return shape


def captured_by_node(
    matches: list[tuple[int, dict[str, list[Node]]]], *, markup: bool = False
) -> dict[tuple[int, int, str], Captured]:
    """The matches' captured nodes, each with the kind of the first pattern that captured it.

    `markup`: names are selectors and ids, spelled canonically (markup_names.py).
    """
    found: dict[tuple[int, int, str], Captured] = {}
    excluded: set[tuple[int, int, str]] = set()
    for pattern, captures in matches:
        # `@not_definition`: a node no pattern may make a definition (`int a, b;` declares two names).
        not_definitions = captures.get("not_definition")
        if not_definitions:
            excluded.update(capture_key(node) for node in not_definitions)
        names = captures.get("name")
        if not names:
            continue
        shape = _shape(tuple(captures))
        for capture, kind in shape.kinds:
            node = captures[capture][0]
            key = (node.start_byte, node.end_byte, node.type)
            previous = found.get(key)
            if previous is None or pattern < previous.pattern:
                found[key] = _captured(pattern, kind, node, names[0], captures, shape, markup)
    for key in excluded:
        found.pop(key, None)
    return found


def _captured(
    pattern: int, kind: str, node: Node, name: Node, captures: dict[str, list[Node]], shape: _Shape, markup: bool
) -> Captured:
    """One captured definition node, with what the rest of its match says about it."""
    scopes = captures.get("scope")
    qualifiers = (
        tuple(part for scope in sorted(scopes, key=lambda n: n.start_byte) for part in _qualifier_parts(scope))
        if scopes
        else ()
    )
    details = captures.get("detail")
    detail = " ".join((n.text or b"").decode("utf-8", "replace") for n in details) if details else ""
    return Captured(
        pattern,
        kind,
        node,
        markup_names.name_of(name) if markup else (name.text or b"").decode("utf-8", "replace"),
        qualifiers,
        shape.also,
        shape.secondary,
        detail,
    )


def _qualifier_parts(node: Node) -> list[str]:
    """The names a @scope capture writes, outermost first.

    A node with `scope`/`name` fields is taken apart by them: Ruby's `Admin::Auth`
    gives `Admin`, `Auth`; C++'s template `Box<T>` gives `Box` (its arguments are
    no name). Plain text is split on `::` and `.` (Go, Kotlin, Lua identifiers).
    """
    name = node.child_by_field_name("name")
    if name is not None:
        scope = node.child_by_field_name("scope")
        return [*(_qualifier_parts(scope) if scope is not None else []), *_qualifier_parts(name)]
    text = (node.text or b"").decode("utf-8", "replace")
    return [part for part in re.split(r"::|\.", text) if part.strip()]


def _own_start(spec: LanguageSpec, node: Node) -> int:
    """Where the definition starts once its own leading decorators and `export`-like keywords are skipped.

    Java/Kotlin/Swift keep annotations inside a `modifiers` child, beside
    `public`: the definition starts at the first modifier that is not one.
    """
    for child in node.children:
        kind = child.type
        if kind in spec.prefix_types or kind in spec.comment_types or kind in spec.export_types:
            continue
        if kind in spec.modifier_types:
            inner = next(
                (c for c in child.children if c.type not in spec.prefix_types and c.type not in spec.comment_types),
                None,
            )
            if inner is None:
                continue  # only annotations: the definition starts after them
            return inner.start_byte
        return child.start_byte
    return node.start_byte


def _decorators_start(spec: LanguageSpec, node: Node) -> int | None:
    """Where a definition's own leading decorators start, when it holds them (Java `@Override`, C# `[HttpGet]`)."""
    for child in node.children:
        kind = child.type
        if kind in spec.comment_types:
            continue
        if kind in spec.prefix_types:
            return child.start_byte
        if kind in spec.modifier_types:
            first = next((c for c in child.children if c.type not in spec.comment_types), None)
            return first.start_byte if first is not None and first.type in spec.prefix_types else None
        return None
    return None


def _export_child_start(spec: LanguageSpec, node: Node) -> int | None:
    """Where a child playing `export`'s role starts (Rust `pub`), after any decorators."""
    if not spec.export_types:
        return None
    for child in node.children:
        kind = child.type
        if kind in spec.export_types:
            return child.start_byte
        if kind not in spec.prefix_types and kind not in spec.comment_types:
            return None
    return None


def _suffix_end(spec: LanguageSpec, node: Node) -> int:
    """The end of the definition with the siblings after it that belong to it (Kotlin `get()`/`set`)."""
    end = node.end_byte
    sibling = node.next_sibling
    while sibling is not None and sibling.type in spec.suffix_types:
        end = sibling.end_byte
        sibling = sibling.next_sibling
    return end


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
    extra: set[str] = set(_KIND_FAMILIES.get(kind, ()))
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
    spec: LanguageSpec, tree: Tree, byte_range: tuple[int, int] | None = None, *, source: bytes | None = None
) -> list[Definition]:
    """Every addressable definition of the file, in file order (or those touching `byte_range`).

    `source`, when the caller has it, is the bytes the tree was parsed from: a big file's
    bytes are then not copied out of the tree again (`root_node.text` is a copy).
    """
    captured = _captures(spec, tree.root_node, byte_range)
    if spec.part_of_types:
        captured = {key: item for key, item in captured.items() if not part_of_another(spec, item.node)}
    # Without a stub in the file no overload lookup can find one: the sibling walks are skipped.
    build = Builder(spec, tree, captured, any(item.kind == "overload" for item in captured.values()), source)
    definitions = [d for d in map(build.definition, captured.values()) if d is not None]
    if spec.misparsed_types:
        definitions += misparsed_definitions(spec, tree, captured, byte_range)
    definitions.sort(key=lambda d: (d.start, -d.end))
    return definitions


def part_of_another(spec: LanguageSpec, node: Node) -> bool:
    """A captured node inside a parent that it is part of (C's `typedef struct node {…} node_t;`)."""
    parent = node.parent
    return parent is not None and parent.type in spec.part_of_types


class Builder:
    """Turns captured nodes into Definitions, asking `captured` about the nodes around each."""

    def __init__(
        self, spec: LanguageSpec, tree: Tree, captured: _Lookup, overloads: bool, source: bytes | None = None
    ) -> None:
        self.spec = spec
        self.tree = tree
        self.captured = captured
        self.overloads = overloads  # False: no stub anywhere, `_overload_in` would find none
        self.chains: dict[Node, _Chain] = {}  # the enclosing chain of each parent's children
        self.source = source  # the file's bytes (indexed by file offsets), read when first needed

    def definition(self, item: Captured) -> Definition | None:
        """The Definition `item` is, or None when it is none of its own (a local, a stub, `a = b = 1`'s `b`)."""
        spec, captured = self.spec, self.captured
        node = item.node
        parent = node.parent
        outer = node
        wrapper = parent
        while wrapper is not None and wrapper.type in spec.wrapper_types:
            outer = wrapper
            wrapper = wrapper.parent
        if item.kind == "overload" and (
            spec.grammar == "python"  # the inner `def` is captured as a function too: that one counts
            or _absorbed(spec, outer, item.name, captured)
        ):
            return None
        if spec.grammar == "python" and item.kind == "variable" and (
            parent is None or parent.type not in _PYTHON_STATEMENT_PARENTS
        ):
            return None  # `a = b = 1`: only the outer assignment is a statement
        enclosing = self.enclosing(parent)
        enclosing_kind = enclosing.kind
        kind = "function" if item.kind == "overload" else item.kind
        if kind in _VALUE_KINDS and enclosing_kind in _FUNCTION_KINDS:
            return None  # a local
        # A qualified function is not a method by its qualifier alone (Lua's `function M.add` is a
        # module function); a query says `@definition.method` where it is one (Kotlin's `fun String.shout`).
        if kind == "function" and enclosing_kind in _CLASS_KINDS:
            kind = "method"
        if (
            self.overloads
            and outer is not node
            and _overload_in(spec, outer, captured) is not None
            and _absorbed(spec, outer, item.name, captured)
        ):
            return None  # a Python `@overload` stub: part of the definition below it
        first = _first_sibling_decorator(spec, outer) if spec.prefix_types else outer
        outer_start = _first_overload_start(spec, first, item.name, captured) if self.overloads else first.start_byte
        start = _own_start(spec, node)
        wrapper_start = first.start_byte
        if first is node and (own := _decorators_start(spec, node)) is not None:
            wrapper_start = own  # a comment inside the node, before its annotations, is not replaced
        end = _suffix_end(spec, node) if spec.suffix_types else node.end_byte
        end_node = node if end == node.end_byte else (node.next_sibling or node)
        end_row = _end_row(end_node, end)
        if end == end_node.end_byte:
            # Scala's grammar ends `def f =` + a body on the next lines after the newline and the
            # next line's indentation: those are not its bytes. It ends with its last token.
            if self.source is None:
                self.source = tree_bytes(self.tree)
            source = self.source
            # Only a definition whose last byte is whitespace can end past its last token.
            if end > len(source) or source[end - 1 : end].isspace():
                last = _last_token(end_node)
                if start < last.end_byte < end:
                    gap = source[last.end_byte : end]
                    trailing = gap[len(gap.rstrip()) :]  # a closing `"` the grammar left childless stays
                    end -= len(trailing)
                    end_row -= trailing.count(b"\n")
        export_start = _export_keyword_start(outer)
        if export_start is None:
            export_start = _export_child_start(spec, node)
        return Definition(
            kind=kind,
            name=item.name,
            scope=(*enclosing.scope, *item.qualifiers) if item.qualifiers else enclosing.scope,
            start=start,
            end=end,
            outer_start=outer_start,
            line=_row(node, start) + 1,
            end_line=end_row + 1,
            also_fits=_also_fits(spec, kind, item.name, node) | item.also,
            wrapper_start=wrapper_start,
            export_start=export_start,
            declare_start=parent.start_byte if parent is not None and parent.type == "ambient_declaration" else None,
            qualifier_count=len(item.qualifiers),
            secondary=item.secondary,
            detail=item.detail,
        )

    def enclosing(self, parent: Node | None) -> _Chain:
        """The definitions around a child of `parent`: the innermost's effective kind, their names.

        Siblings share their chain: it is built once per parent, from the nearest
        ancestor whose chain is known, rather than walked up for every definition.
        """
        if parent is None:
            return _NO_CHAIN
        known = self.chains.get(parent)
        if known is not None:
            return known
        unknown: list[Node] = []
        chain = _NO_CHAIN
        node: Node | None = parent
        while node is not None:
            known = self.chains.get(node)
            if known is not None:
                chain = known
                break
            unknown.append(node)
            node = node.parent
        for node in reversed(unknown):
            item = self.captured.get(capture_key(node))
            if item is not None and item.kind != "overload":
                # A function directly inside a class is a method: the rule applies to the chain too.
                kind = "method" if item.kind == "function" and chain.kind in _CLASS_KINDS else item.kind
                chain = _Chain(kind, (*chain.scope, *item.qualifiers, item.name))
            self.chains[node] = chain
        return chain


class _Chain(NamedTuple):
    """The definitions around a node, as a definition inside them needs them."""

    kind: str | None  # the effective kind of the innermost (a function in a class is a method)
    scope: tuple[str, ...]  # their qualifiers and names, outermost first


_NO_CHAIN = _Chain(None, ())


def misparsed_definitions(
    spec: LanguageSpec,
    tree: Tree,
    captured: _Lookup,
    byte_range: tuple[int, int] | None,
    containing: bytes | None = None,
) -> list[Definition]:
    """Definitions the grammar took for an expression, found by parsing that stretch alone.

    Kotlin's grammar reads `@Preview` / `@Composable` / `private fun X() {…}`
    followed by another declaration as an annotated expression, without an
    error; parsed on its own, the same text is a function declaration.
    With `containing`, only stretches whose text holds it (a name looked up) are parsed.
    """
    from kopipasta.syntax.languages import nodes_of_types, parse

    found: list[Definition] = []
    root = tree.root_node
    for node in nodes_of_types(spec, root, spec.misparsed_types):
        parent = node.parent
        if parent is None or (parent != root and parent.type not in spec.body_types):
            continue
        if byte_range is not None and (node.end_byte <= byte_range[0] or node.start_byte >= byte_range[1]):
            continue
        text = node.text or b""
        if not text.startswith(b"@") or (containing is not None and containing not in text):
            continue
        sub = parse(spec, text)
        if sub.root_node.has_error:
            continue
        enclosing = Builder(spec, tree, captured, overloads=True).enclosing(parent)
        outer = enclosing.scope
        in_class = enclosing.kind in _CLASS_KINDS
        shift, rows = node.start_byte, node.start_point[0]
        for inner in list_definitions(spec, sub):
            found.append(
                replace(
                    inner,
                    kind="method" if in_class and inner.kind == "function" and not inner.scope else inner.kind,
                    scope=(*outer, *inner.scope),
                    start=inner.start + shift,
                    end=inner.end + shift,
                    outer_start=inner.outer_start + shift,
                    line=inner.line + rows,
                    end_line=inner.end_line + rows,
                    wrapper_start=None if inner.wrapper_start is None else inner.wrapper_start + shift,
                    export_start=None if inner.export_start is None else inner.export_start + shift,
                    declare_start=None if inner.declare_start is None else inner.declare_start + shift,
                )
            )
    return found


def _last_token(node: Node) -> Node:
    """The last token of a node that is not empty (zero-width MISSING or automatic tokens are)."""
    while node.child_count:
        tokens = [c for c in node.children if c.end_byte > c.start_byte]
        if not tokens:
            break
        node = tokens[-1]
    return node


def _row(node: Node, offset: int) -> int:
    """The row of `offset` inside `node`: a Java method's line is its signature's, not its annotation's."""
    if offset == node.start_byte:
        return node.start_point[0]
    inner = node.descendant_for_byte_range(offset, offset)
    return inner.start_point[0] if inner is not None else node.start_point[0]


def _end_row(node: Node, end: int) -> int:
    while node.end_byte != end and node.next_sibling is not None:
        node = node.next_sibling
    return node.end_point[0]


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


def _first_overload_start(
    spec: LanguageSpec, outer: Node, name: str, captured: _Lookup
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
    spec: LanguageSpec, node: Node, captured: _Lookup
) -> Captured | None:
    """The definition or overload stub that `node` is, or wraps (`export function f(): T;`)."""
    while True:
        item = captured.get(capture_key(node))
        if item is not None:
            return item
        if node.type not in spec.wrapper_types or node.named_child_count == 0:
            return None
        node = node.named_children[-1]


def _overload_in(
    spec: LanguageSpec, node: Node, captured: _Lookup
) -> Captured | None:
    """The overload stub that `node` is, or wraps."""
    item = _captured_in(spec, node, captured)
    return item if item is not None and item.kind == "overload" else None


def _absorbed(
    spec: LanguageSpec, outer: Node, name: str, captured: _Lookup
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


def tree_bytes(tree: Tree) -> bytes:
    """The bytes a tree was parsed from, as far as file offsets index them (a copy out of the tree).

    The root node starts after the file's leading whitespace: its text alone would shift
    every offset. Those bytes are whitespace; spaces stand in for them.
    """
    root = tree.root_node
    return b" " * root.start_byte + (root.text or b"")
