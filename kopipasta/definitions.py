"""Source → the definitions a TARGET_NODE can name.

The language's query file says which nodes are definitions; this module adds
what a query cannot: the chain of enclosing definitions, functions that are
methods because of where they stand, locals that are not definitions at all,
and the wrappers (decorators, `export`, overload stubs) that belong to each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kopipasta.languages import LanguageSpec, query_matches

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

# Kinds whose bodies hold locals: a variable (or Swift/Kotlin `let`/`val`) inside one is not a definition.
_FUNCTION_KINDS = frozenset({"function", "method", "constructor", "property"})
_VALUE_KINDS = frozenset({"variable", "property"})
# Kinds whose functions are methods.
_CLASS_KINDS = frozenset(
    {"class", "interface", "struct", "impl", "trait", "record", "object", "extension", "enum"}
)
# Kinds that mean more than one word, in every language (docs/ARCHITECTURE.md, issue 8).
_KIND_FAMILIES = {
    "record": frozenset({"class"}),
    "constructor": frozenset({"method", "function"}),
    "property": frozenset({"variable"}),
    "object": frozenset({"class"}),
}
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
    # Qualifiers written in the definition itself, outermost first (@scope, split on `::` and `.`).
    qualifiers: tuple[str, ...] = ()
    also: frozenset[str] = frozenset()  # from `@also.<kind>` captures
    secondary: bool = False  # from a `@secondary` capture
    detail: str = ""  # from a `@detail` capture


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
    excluded: set[tuple[int, int, str]] = set()
    for pattern, captures in query_matches(spec, root, byte_range):
        # `@not_definition`: a node no pattern may make a definition (`int a, b;` declares two names).
        excluded.update(_key(node) for node in captures.get("not_definition", []))
        names = captures.get("name")
        if not names:
            continue
        qualifiers = tuple(
            part
            for node in sorted(captures.get("scope", []), key=lambda n: n.start_byte)
            for part in _qualifier_parts(node)
        )
        also = frozenset(c.removeprefix("also.") for c in captures if c.startswith("also."))
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
                detail = " ".join((n.text or b"").decode("utf-8", "replace") for n in captures.get("detail", []))
                found[_key(node)] = _Captured(
                    pattern, kind, node, name, qualifiers, also, "secondary" in captures, detail
                )
    for key in excluded:
        found.pop(key, None)
    return found


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


def _outer(spec: LanguageSpec, node: Node) -> Node:
    """The node with the wrappers that belong to this definition (decorators, export)."""
    while node.parent is not None and node.parent.type in spec.wrapper_types:
        node = node.parent
    return node


def _own_start(spec: LanguageSpec, node: Node) -> int:
    """Where the definition starts once its own leading decorators and `export`-like keywords are skipped.

    Java/Kotlin/Swift keep annotations inside a `modifiers` child, beside
    `public`: the definition starts at the first modifier that is not one.
    """
    for child in node.children:
        if child.type in spec.prefix_types or child.type in spec.comment_types or child.type in spec.export_types:
            continue
        if child.type in spec.modifier_types:
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
        if child.type in spec.comment_types:
            continue
        if child.type in spec.prefix_types:
            return child.start_byte
        if child.type in spec.modifier_types:
            first = next((c for c in child.children if c.type not in spec.comment_types), None)
            return first.start_byte if first is not None and first.type in spec.prefix_types else None
        return None
    return None


def _export_child_start(spec: LanguageSpec, node: Node) -> int | None:
    """Where a child playing `export`'s role starts (Rust `pub`), after any decorators."""
    if not spec.export_types:
        return None
    for child in node.children:
        if child.type in spec.export_types:
            return child.start_byte
        if child.type not in spec.prefix_types and child.type not in spec.comment_types:
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
    spec: LanguageSpec, tree: Tree, byte_range: tuple[int, int] | None = None
) -> list[Definition]:
    """Every addressable definition of the file, in file order (or those touching `byte_range`)."""
    captured = _captures(spec, tree.root_node, byte_range)
    if spec.part_of_types:
        captured = {
            key: item
            for key, item in captured.items()
            if item.node.parent is None or item.node.parent.type not in spec.part_of_types
        }
    definitions: list[Definition] = []
    source: bytes | None = None  # the file's bytes, read only when a definition ends in whitespace
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
        if kind in _VALUE_KINDS and enclosing_kind in _FUNCTION_KINDS:
            continue  # a local
        # A qualified function is not a method by its qualifier alone (Lua's `function M.add` is a
        # module function); a query says `@definition.method` where it is one (Kotlin's `fun String.shout`).
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
        wrapper_start = first.start_byte
        if first is node and (own := _decorators_start(spec, node)) is not None:
            wrapper_start = own  # a comment inside the node, before its annotations, is not replaced
        end = _suffix_end(spec, node)
        end_node = node if end == node.end_byte else (node.next_sibling or node)
        end_row = _end_row(end_node, end)
        if end == end_node.end_byte:
            # Scala's grammar ends `def f =` + a body on the next lines after the newline and the
            # next line's indentation: those are not its bytes. It ends with its last token.
            last = _last_token(end_node)
            if start < last.end_byte < end:
                if source is None:
                    source = tree.root_node.text or b""
                gap = source[last.end_byte : end]
                trailing = gap[len(gap.rstrip()) :]  # a closing `"` the grammar left childless stays
                end -= len(trailing)
                end_row -= trailing.count(b"\n")
        export_start = _export_keyword_start(outer)
        if export_start is None:
            export_start = _export_child_start(spec, node)
        definitions.append(
            Definition(
                kind=kind,
                name=item.name,
                scope=(*(part for e in enclosing for part in (*e.qualifiers, e.name)), *item.qualifiers),
                start=start,
                end=end,
                outer_start=outer_start,
                line=_row(node, start) + 1,
                end_line=end_row + 1,
                also_fits=_also_fits(spec, kind, item.name, node) | item.also,
                wrapper_start=wrapper_start,
                export_start=export_start,
                declare_start=_declare_keyword_start(node),
                qualifier_count=len(item.qualifiers),
                secondary=item.secondary,
                detail=item.detail,
            )
        )
    if spec.misparsed_types:
        definitions += _misparsed_definitions(spec, tree, captured, byte_range)
    definitions.sort(key=lambda d: (d.start, -d.end))
    return definitions


def _misparsed_definitions(
    spec: LanguageSpec,
    tree: Tree,
    captured: dict[tuple[int, int, str], _Captured],
    byte_range: tuple[int, int] | None,
) -> list[Definition]:
    """Definitions the grammar took for an expression, found by parsing that stretch alone.

    Kotlin's grammar reads `@Preview` / `@Composable` / `private fun X() {…}`
    followed by another declaration as an annotated expression, without an
    error; parsed on its own, the same text is a function declaration.
    """
    from kopipasta.languages import nodes_of_types, parse

    found: list[Definition] = []
    root = tree.root_node
    for node in nodes_of_types(spec, root, spec.misparsed_types):
        parent = node.parent
        if parent is None or (parent != root and parent.type not in spec.body_types):
            continue
        if byte_range is not None and (node.end_byte <= byte_range[0] or node.start_byte >= byte_range[1]):
            continue
        text = node.text or b""
        if not text.startswith(b"@"):
            continue
        sub = parse(spec, text)
        if sub.root_node.has_error:
            continue
        enclosing = _enclosing(node, captured)
        outer = tuple(part for e in enclosing for part in (*e.qualifiers, e.name))
        in_class = bool(enclosing) and enclosing[-1].kind in _CLASS_KINDS
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
        effective.append(
            _Captured(item.pattern, kind, item.node, item.name, item.qualifiers, item.also, item.secondary, item.detail)
        )
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
        block_start = node.start_byte
        cursor = comment_line_start
    return block_start


def definitions_named(spec: LanguageSpec, tree: Tree, name: str) -> list[Definition]:
    """The definitions called `name` (a target's last part), as list_definitions gives them."""
    return [d for d in list_definitions(spec, tree) if d.name == name]
