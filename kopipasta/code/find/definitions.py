"""Source → the definitions a TARGET_NODE can name.

The language's query file says which nodes are definitions; this module adds
what a query cannot: the chain of enclosing definitions, functions that are
methods because of where they stand, locals that are not definitions at all,
and the wrappers (decorators, `export`, overload stubs) that belong to each.

Two ways in, one builder: `list_definitions` lists the file, `definitions_named`
finds one name's definitions from range queries (issue 9). Both build each
Definition with the same `_Builder`, which is why they share this module: the
fast path cannot drift from the listing it must equal.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple, Protocol

from kopipasta.syntax import markup_names
from kopipasta.syntax.languages import LanguageSpec, query_matches

if TYPE_CHECKING:
    from collections.abc import Callable

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


class _Captured(NamedTuple):
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

    def get(self, key: tuple[int, int, str], /) -> _Captured | None: ...


def overload_names(spec: LanguageSpec, root: Node) -> set[str]:
    """The names of the overload stubs under `root` (a payload's tree, say)."""
    return {item.name for item in _captures(spec, root, None).values() if item.kind == "overload"}


def _key(node: Node) -> tuple[int, int, str]:
    return (node.start_byte, node.end_byte, node.type)


def _captures(
    spec: LanguageSpec, root: Node, byte_range: tuple[int, int] | None
) -> dict[tuple[int, int, str], _Captured]:
    """Each captured node with the kind of the first pattern that captured it."""
    return _captured_by_node(query_matches(spec, root, byte_range), markup=spec.markup_names)


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


def _captured_by_node(
    matches: list[tuple[int, dict[str, list[Node]]]], *, markup: bool = False
) -> dict[tuple[int, int, str], _Captured]:
    """The matches' captured nodes, each with the kind of the first pattern that captured it.

    `markup`: names are selectors and ids, spelled canonically (markup_names.py).
    """
    found: dict[tuple[int, int, str], _Captured] = {}
    excluded: set[tuple[int, int, str]] = set()
    for pattern, captures in matches:
        # `@not_definition`: a node no pattern may make a definition (`int a, b;` declares two names).
        not_definitions = captures.get("not_definition")
        if not_definitions:
            excluded.update(_key(node) for node in not_definitions)
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
) -> _Captured:
    """One captured definition node, with what the rest of its match says about it."""
    scopes = captures.get("scope")
    qualifiers = (
        tuple(part for scope in sorted(scopes, key=lambda n: n.start_byte) for part in _qualifier_parts(scope))
        if scopes
        else ()
    )
    details = captures.get("detail")
    detail = " ".join((n.text or b"").decode("utf-8", "replace") for n in details) if details else ""
    return _Captured(
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
        captured = {key: item for key, item in captured.items() if not _part_of_another(spec, item.node)}
    # Without a stub in the file no overload lookup can find one: the sibling walks are skipped.
    build = _Builder(spec, tree, captured, any(item.kind == "overload" for item in captured.values()), source)
    definitions = [d for d in map(build.definition, captured.values()) if d is not None]
    if spec.misparsed_types:
        definitions += _misparsed_definitions(spec, tree, captured, byte_range)
    definitions.sort(key=lambda d: (d.start, -d.end))
    return definitions


def _part_of_another(spec: LanguageSpec, node: Node) -> bool:
    """A captured node inside a parent that it is part of (C's `typedef struct node {…} node_t;`)."""
    parent = node.parent
    return parent is not None and parent.type in spec.part_of_types


class _Builder:
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

    def definition(self, item: _Captured) -> Definition | None:
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
            item = self.captured.get(_key(node))
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


def _misparsed_definitions(
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
        enclosing = _Builder(spec, tree, captured, overloads=True).enclosing(parent)
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
    spec: LanguageSpec, node: Node, captured: _Lookup
) -> _Captured | None:
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


def comment_block_start(tree: Tree, data: bytes, outer_start: int) -> int | None:
    """Start of the comment lines directly above a definition, if any.

    Contiguous comments at the definition's indentation, with no blank line
    between them and the definition, belong to it (PROTOCOL.md §4). So does a
    doc comment (`/** … */`) a blank line or two above it, with nothing between
    (issue 25): express and many JS, Java and PHP files write their JSDoc so.
    """
    line_start = data.rfind(b"\n", 0, outer_start) + 1
    indent = outer_start - line_start
    block_start: int | None = None
    cursor = line_start
    blank_lines = 0
    while cursor > 0:
        previous_end = cursor - 1  # the "\n" ending the line above
        previous_text_end = previous_end
        if previous_text_end > 0 and data[previous_text_end - 1 : previous_text_end] == b"\r":
            previous_text_end -= 1
        previous_start = data.rfind(b"\n", 0, previous_end) + 1
        line = data[previous_start:previous_text_end]
        if not line.strip():
            if block_start is not None or blank_lines >= _DOC_COMMENT_GAP:
                break
            blank_lines += 1
            cursor = previous_start
            continue
        last = previous_start + len(line.rstrip()) - 1
        node = tree.root_node.descendant_for_byte_range(last, last + 1)
        # Rust's `/// doc` is a line_comment around a doc_comment: the whole comment counts.
        while node is not None and node.parent is not None and "comment" in node.parent.type:
            node = node.parent
        if node is None or "comment" not in node.type:
            break
        while node.parent is not None and "comment" in node.parent.type:
            node = node.parent  # Lua's `comment_content` inside its `comment`
        comment_line_start = data.rfind(b"\n", 0, node.start_byte) + 1
        if node.start_byte - comment_line_start != indent or data[comment_line_start : node.start_byte].strip():
            break
        if blank_lines and not _is_doc_comment(node, comment_line_start):
            break
        block_start = node.start_byte
        cursor = comment_line_start
    return block_start


# Blank lines a doc comment may stand above the definition it documents.
_DOC_COMMENT_GAP = 2
# A doc comment that says it is about the file (a license, an overview) documents no definition.
_FILE_COMMENT = re.compile(rb"@(?:license|file|fileoverview|module|copyright|preserve)\b|\bCopyright\b", re.IGNORECASE)


def _is_doc_comment(node: Node, line_start: int) -> bool:
    """A `/** … */` doc comment of a definition, not the file's header (which is the file's)."""
    text = node.text or b""
    if not text.startswith(b"/**") or text.startswith(b"/**/") or _FILE_COMMENT.search(text):
        return False
    return line_start > 0


# --- Find by name (issue 9): the definitions of one name without listing the file ----------------

# Bytes that continue an ASCII identifier. A name starting (ending) with one does not stand
# right after (before) one: a lexer reads an identifier to its end, so `add` in `address` is no
# name. Other bytes (`$`, `@`, non-ASCII) count as boundaries: an extra occurrence costs one query.
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# Occurrences closer than this are looked up by one query over the stretch holding them.
_MERGE_GAP = 256
# Past this many stretches one query over all of them is cheaper than a query each.
_MAX_STRETCHES = 64
# One more stretch allowed per this many bytes of the file: a whole-file query grows with the file,
# a query per stretch (~30 µs) does not (click's `Context`, 172 stretches in 20k lines: 17 → 2.6 ms).
_BYTES_PER_STRETCH = 2048


def _most_stretches(size: int) -> int:
    """How many stretches are queried one by one in a file of `size` bytes, before one query over all."""
    return max(_MAX_STRETCHES, size // _BYTES_PER_STRETCH)


def tree_bytes(tree: Tree) -> bytes:
    """The bytes a tree was parsed from, as far as file offsets index them (a copy out of the tree).

    The root node starts after the file's leading whitespace: its text alone would shift
    every offset. Those bytes are whitespace; spaces stand in for them.
    """
    root = tree.root_node
    return b" " * root.start_byte + (root.text or b"")


def definitions_named(spec: LanguageSpec, tree: Tree, name: str, *, source: bytes | None = None) -> list[Definition]:
    """The definitions named `name`, equal to and in the order of those `list_definitions` gives.

    The name's occurrences in the bytes are the only places its definitions can
    stand: the query runs over those stretches alone, and the nodes around them
    answer the scope. What that cannot answer exactly falls back to the full listing.
    """
    found = _named_at_occurrences(spec, tree, name, dotted=False, source=source)
    if found is None:
        return [d for d in list_definitions(spec, tree, source=source) if d.name == name]
    return found


def definitions_ending_in(spec: LanguageSpec, tree: Tree, part: str, *, source: bytes | None = None) -> list[Definition]:
    """`definitions_named`, with the definitions whose own name is dotted and ends in `.part` too.

    A TypeScript `namespace A.B` or a C# `namespace Shop.Api` is one definition
    named `A.B`: a target whose last part is `B` may mean it (resolve.py splits
    qualified names on dots). Equal to the listing filtered the same way, in order.
    """
    found = _named_at_occurrences(spec, tree, part, dotted=True, source=source)
    if found is None:
        return [d for d in list_definitions(spec, tree, source=source) if _ends_in(d.name, part)]
    return found


def _ends_in(name: str, part: str) -> bool:
    return name == part or name.endswith("." + part)


class _Unanswerable(Exception):
    """A question the range queries cannot answer exactly (a zero-width node): list the file instead."""


class _RangeCaptures:
    """The captured nodes about a few stretches of the file, each exactly as the whole-file query has it.

    A query limited to a byte range returns every match whose nodes reach into the
    range. Every match that captures a node is rooted at that node or above it, so
    for a node reaching into a queried stretch, every match capturing it came back,
    and its entry (the first pattern's kind, `@not_definition`) is the whole file's.
    Other nodes a range query returns may lack matches: they are not kept, and a
    question about one runs a query over its own first byte.
    """

    def __init__(self, spec: LanguageSpec, root: Node) -> None:
        self.spec = spec
        self.root = root
        self.stretches: list[tuple[int, int]] = []  # queried byte ranges, sorted, disjoint
        self.found: dict[tuple[int, int, str], _Captured] = {}

    def query(self, start: int, end: int) -> list[tuple[int, dict[str, list[Node]]]]:
        matches = query_matches(self.spec, self.root, (start, end))
        for key, item in _captured_by_node(matches, markup=self.spec.markup_names).items():
            if key[0] < end and start < key[1] and not (
                self.spec.part_of_types and _part_of_another(self.spec, item.node)
            ):
                self.found[key] = item
        bisect.insort(self.stretches, (start, end))
        return matches

    def get(self, key: tuple[int, int, str]) -> _Captured | None:
        start, end, _ = key
        if not self._covered(start, end):
            if end <= start:
                raise _Unanswerable  # a zero-width node reaches into no range
            self.query(start, start + 1)
        return self.found.get(key)

    def _covered(self, start: int, end: int) -> bool:
        """Whether a node spanning start..end reaches into a queried stretch."""
        if end <= start:
            return False
        index = bisect.bisect_right(self.stretches, (start, end))
        # The stretches are disjoint and sorted: only the neighbours of the insertion point can overlap.
        return any(
            stretch_start < end and start < stretch_end
            for stretch_start, stretch_end in self.stretches[max(index - 1, 0) : index + 1]
        )


def _named_at_occurrences(
    spec: LanguageSpec, tree: Tree, name: str, *, dotted: bool, source: bytes | None = None
) -> list[Definition] | None:
    """`definitions_named` (`definitions_ending_in` when `dotted`) from range queries over the name's
    occurrences, or None where that is not exact."""
    needle = _needle(name)
    if needle is None or spec.markup_names:
        return None  # a selector's name is spelled canonically: its bytes may be spelled otherwise
    root = tree.root_node
    if source is None:
        text = root.text
        if text is None:
            return None  # a tree parsed without its bytes at hand: nothing to search
        occurrences = _occurrences(text, needle, root.start_byte, 0, len(text))
    else:
        occurrences = _occurrences(source, needle, 0, root.start_byte, root.end_byte)
    captured = _RangeCaptures(spec, root)
    dotted_needle = b"." + needle if dotted else None
    candidates = _candidates_named(
        captured,
        _stretches(occurrences, len(needle), _most_stretches(root.end_byte)),
        lambda text_of_name: text_of_name == needle
        or (dotted_needle is not None and text_of_name.endswith(dotted_needle)),
    )
    try:
        # A stub above a candidate is asked about rather than ruled out: one more query, where there is one.
        build = _Builder(spec, tree, captured, overloads=True, source=source)
        definitions: list[Definition] = []
        for key in candidates:
            item = captured.get(key)
            if item is None or not (item.name == name or (dotted and _ends_in(item.name, name))):
                continue
            if (definition := build.definition(item)) is not None:
                definitions.append(definition)
        if spec.misparsed_types:
            misparsed = _misparsed_definitions(spec, tree, captured, None, containing=needle)
            definitions += [d for d in misparsed if d.name == name or (dotted and _ends_in(d.name, name))]
    except _Unanswerable:
        return None
    return _in_file_order(definitions)


def _needle(name: str) -> bytes | None:
    """The bytes to search for a name's definitions, or None where they cannot be searched for.

    A name node's text is the name itself, so each definition stands at an occurrence of its
    bytes; a name read from bytes that are not UTF-8 (U+FFFD) has no bytes to search for.
    """
    if not name or "\ufffd" in name:
        return None
    try:
        return name.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _candidates_named(
    captured: _RangeCaptures, stretches: list[tuple[int, int]], accepts: Callable[[bytes], bool]
) -> dict[tuple[int, int, str], None]:
    """The definition and overload-stub nodes, in query order, of the matches over `stretches`
    whose name's text `accepts`."""
    candidates: dict[tuple[int, int, str], None] = {}
    for start, end in stretches:
        for _pattern, captures in captured.query(start, end):
            names = captures.get("name")
            text_of_name = names[0].text if names else None
            if text_of_name is None or not accepts(text_of_name):
                continue
            for capture, nodes in captures.items():
                if capture == "overload" or capture.startswith("definition."):
                    candidates[_key(nodes[0])] = None
    return candidates


def _in_file_order(definitions: list[Definition]) -> list[Definition] | None:
    """The definitions in the listing's order, or None where it cannot be told from their spans."""
    definitions.sort(key=lambda d: (d.start, -d.end))
    spans = [(d.start, d.end) for d in definitions]
    if len(set(spans)) != len(spans):
        return None  # same-span definitions keep the query's order in the listing: not reproduced here
    return definitions


def members_of(
    spec: LanguageSpec, tree: Tree, container: tuple[str, ...], *, source: bytes | None = None
) -> list[Definition] | None:
    """The definitions standing in `container` (non-empty), equal to the listing's whose
    `container` it is, in that order; None where range queries cannot say so exactly.

    A definition's container is the names of the captured nodes around it, innermost
    last (`_Builder.enclosing`), so its innermost holder is a captured node named
    `container[-1]` whose own chain is `container`. The holders are found at the
    occurrences of that name, as `definitions_named` finds definitions (a Rust type has
    one per `impl` block, a reopened Ruby class one per opening); every member lies
    inside one of them, and a range query over each builds them all.
    """
    name = container[-1] if container else ""
    needle = _needle(name)
    if needle is None or spec.markup_names:
        return None
    root = tree.root_node
    if source is None:
        source = tree_bytes(tree)
    occurrences = _occurrences(source, needle, 0, root.start_byte, root.end_byte)
    captured = _RangeCaptures(spec, root)
    # A container's name is often a common word of the file (click's `Context`: 172 occurrences in 20k lines).
    stretches = _stretches(occurrences, len(needle), _most_stretches(root.end_byte))
    candidates = _candidates_named(captured, stretches, lambda text_of_name: text_of_name == needle)
    try:
        build = _Builder(spec, tree, captured, overloads=True, source=source)
        holders = []
        for key in candidates:
            item = captured.get(key)
            if item is None or item.kind == "overload" or item.name != name:
                continue
            if (*build.enclosing(item.node.parent).scope, *item.qualifiers, item.name) == container:
                holders.append(item.node)
        if not holders:
            return None
        # Every member's node lies inside its holder: it reached into the query, its entry is exact.
        for holder in holders:
            captured.query(holder.start_byte, holder.end_byte)
        inside = [
            item
            for (start, end, _), item in list(captured.found.items())
            if any(holder.start_byte <= start and end <= holder.end_byte for holder in holders)
        ]
        members = [
            d for d in map(build.definition, inside) if d is not None and d.container == container
        ]
        if spec.misparsed_types:
            # Kotlin's declarations parsed alone may stand anywhere (a class among them too): all of them.
            misparsed = _misparsed_definitions(spec, tree, captured, None)
            members += [d for d in misparsed if d.container == container]
    except _Unanswerable:
        return None
    return _in_file_order(members)


def top_level_from(
    spec: LanguageSpec, tree: Tree, offset: int, *, source: bytes | None = None
) -> list[Definition] | None:
    """The listing's top-level definitions (container `()`) that start at or after `offset`, in
    order; None where one range query cannot say so exactly (Kotlin's misparsed declarations).

    Such a definition's node lies in a child of the root that ends after `offset` (it starts
    before its own start), so one query from the first of those children to the end finds them.
    """
    if spec.misparsed_types:
        return None
    root = tree.root_node
    first = next((child for child in root.children if child.end_byte > offset), None)
    if first is None:
        return []
    captured = _RangeCaptures(spec, root)
    try:
        captured.query(min(first.start_byte, offset), root.end_byte)
        build = _Builder(spec, tree, captured, overloads=True, source=source)
        items = [item for (_, end, _), item in list(captured.found.items()) if end > offset]
        found = [
            d for d in map(build.definition, items) if d is not None and not d.container and d.start >= offset
        ]
    except _Unanswerable:
        return None
    return _in_file_order(found)


def _occurrences(text: bytes, needle: bytes, base: int, start: int, end: int) -> list[int]:
    """The file offsets where `needle` stands within text[start:end], not inside a longer identifier
    there (`text` starts at file offset `base`; the bytes outside start..end are not looked at)."""
    found: list[int] = []
    check_before = needle[0] in _WORD_BYTES
    check_after = needle[-1] in _WORD_BYTES
    index = text.find(needle, start, end)
    while index >= 0:
        after = index + len(needle)
        if not (check_before and index > start and text[index - 1] in _WORD_BYTES) and not (
            check_after and after < end and text[after] in _WORD_BYTES
        ):
            found.append(base + index)
        index = text.find(needle, index + 1, end)
    return found


def _stretches(occurrences: list[int], width: int, most: int) -> list[tuple[int, int]]:
    """The byte ranges to query: each occurrence, with those close after it in one range
    (past `most` ranges, one range over them all)."""
    stretches: list[tuple[int, int]] = []
    for start in occurrences:
        if stretches and start - stretches[-1][1] <= _MERGE_GAP:
            stretches[-1] = (stretches[-1][0], start + width)
        else:
            stretches.append((start, start + width))
    if len(stretches) > most:
        return [(stretches[0][0], stretches[-1][1])]
    return stretches

