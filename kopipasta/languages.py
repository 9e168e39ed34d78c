"""File extension → language, and the one place that touches py-tree-sitter's API.

Language support is data: a `LanguageSpec` row here and a query file in
`queries/`. Grammars and queries load lazily and are cached, so a reply that
touches only Python files never loads the TypeScript grammar.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Query, Tree

    from kopipasta.check import Change


@dataclass(frozen=True)
class LanguageSpec:
    name: str  # display name
    grammar: str  # name in tree-sitter-language-pack
    query_file: str  # in kopipasta/queries/
    extensions: tuple[str, ...]
    # Node types whose text is a value: re-indentation must not touch their inner lines.
    string_types: tuple[str, ...]
    # Wrappers that belong to a definition: `export …`, `@decorator …`.
    wrapper_types: tuple[str, ...]
    # Children at the start of a definition node that are prefixes, not the definition.
    prefix_types: tuple[str, ...]
    comment_types: tuple[str, ...] = ("comment",)
    # React: a capitalised function or class is a component.
    has_components: bool = False


PYTHON = LanguageSpec(
    name="Python",
    grammar="python",
    query_file="python.scm",
    extensions=(".py", ".pyi"),
    # Not `concatenated_string`: the lines between its parts ("a "\n"b") are
    # layout, and each part is a `string` of its own.
    string_types=("string",),
    wrapper_types=("decorated_definition",),
    prefix_types=("decorator",),
)

_JS_STRINGS = ("string", "template_string")
_JS_WRAPPERS = ("export_statement",)
# TypeScript also wraps a definition in `declare …` (an ambient declaration).
_TS_WRAPPERS = ("export_statement", "ambient_declaration")
_JS_PREFIXES = ("decorator",)

JAVASCRIPT = LanguageSpec(
    name="JavaScript",
    grammar="javascript",
    query_file="javascript.scm",
    extensions=(".js", ".mjs", ".cjs", ".jsx"),
    string_types=_JS_STRINGS,
    wrapper_types=_JS_WRAPPERS,
    prefix_types=("decorator",),
    has_components=True,
)

TYPESCRIPT = LanguageSpec(
    name="TypeScript",
    grammar="typescript",
    query_file="typescript.scm",
    extensions=(".ts", ".mts", ".cts"),
    string_types=_JS_STRINGS,
    wrapper_types=_TS_WRAPPERS,
    prefix_types=_JS_PREFIXES,
    has_components=True,
)

TSX = LanguageSpec(
    name="TSX",
    grammar="tsx",
    query_file="typescript.scm",
    extensions=(".tsx",),
    string_types=_JS_STRINGS,
    wrapper_types=_TS_WRAPPERS,
    prefix_types=_JS_PREFIXES,
    has_components=True,
)

LANGUAGES = (PYTHON, JAVASCRIPT, TYPESCRIPT, TSX)


def language_for_path(path: str) -> LanguageSpec | None:
    suffix = PurePosixPath(path).suffix.lower()
    for spec in LANGUAGES:
        if suffix in spec.extensions:
            return spec
    return None


@functools.cache
def _parser(grammar: str) -> Parser:
    from tree_sitter_language_pack import get_parser

    return get_parser(grammar)  # type: ignore[arg-type]


@functools.cache
def _query(grammar: str, query_file: str) -> Query:
    from tree_sitter import Query
    from tree_sitter_language_pack import get_language

    text = resources.files("kopipasta.queries").joinpath(query_file).read_text(encoding="utf-8")
    return Query(get_language(grammar), text)  # type: ignore[arg-type]


def parse(spec: LanguageSpec, data: bytes) -> Tree:
    return _parser(spec.grammar).parse(data)


def _point(data: bytes, offset: int) -> tuple[int, int]:
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def reparse(spec: LanguageSpec, old_data: bytes, old_tree: Tree, data: bytes, change: Change | None) -> Tree:
    """Parse `data`, reusing the old tree around a known edit: a big file reparses in little time."""
    if change is None:
        return parse(spec, data)
    tree = old_tree.copy()  # the caller's tree stays valid for its own data
    tree.edit(
        start_byte=change.start,
        old_end_byte=change.old_end,
        new_end_byte=change.new_end,
        start_point=_point(old_data, change.start),
        old_end_point=_point(old_data, change.old_end),
        new_end_point=_point(data, change.new_end),
    )
    return _parser(spec.grammar).parse(data, tree)


@functools.cache
def _types_query(grammar: str, types: tuple[str, ...]) -> Query:
    from tree_sitter import Query
    from tree_sitter_language_pack import get_language

    alternatives = " ".join(f"({t})" for t in dict.fromkeys(types))
    return Query(get_language(grammar), f"[{alternatives}] @node")  # type: ignore[arg-type]


def nodes_of_types(
    spec: LanguageSpec, root: Node, types: tuple[str, ...], rows: int | None = None
) -> list[Node]:
    """Every node of the given types under root (touching its first `rows` rows, if given).

    A query runs in C where a Python walk over the tree would crawl.
    """
    from tree_sitter import Point, QueryCursor

    cursor = QueryCursor(_types_query(spec.grammar, types))
    if rows is not None:
        cursor.set_point_range(Point(0, 0), Point(rows, 0))
    return cursor.captures(root).get("node", [])


def query_matches(
    spec: LanguageSpec, root: Node, byte_range: tuple[int, int] | None = None
) -> list[tuple[int, dict[str, list[Node]]]]:
    """All matches of the language's definitions query (those touching `byte_range`, if given)."""
    from tree_sitter import QueryCursor

    cursor = QueryCursor(_query(spec.grammar, spec.query_file))
    if byte_range is not None:
        cursor.set_byte_range(*byte_range)
    return cursor.matches(root)


def first_error(root: Node) -> Node | None:
    """The first ERROR or MISSING node in document order, or None for a clean tree."""
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            return node
        stack.extend(child for child in reversed(node.children) if child.has_error or child.is_missing)
    return None
