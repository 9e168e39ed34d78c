"""File extension → language, and the one place that touches py-tree-sitter's API.

Language support is data: a `LanguageSpec` row in `syntax/specs.py` and a query
file in `queries/`. Grammars and queries load lazily and are cached here, so a
reply that touches only Python files never loads the TypeScript grammar.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

# The rows are data of their own (syntax/specs.py); callers import them from here, with the grammars.
from kopipasta.syntax.specs import (  # noqa: F401
    BASH,
    CPP,
    CSHARP,
    CSS,
    GO,
    HTML,
    HTML_MARKUP,
    JAVA,
    JAVASCRIPT,
    KOTLIN,
    LANGUAGES,
    LUA,
    PHP,
    PYTHON,
    RUBY,
    RUST,
    SCALA,
    SVELTE,
    SWIFT,
    TSX,
    TYPESCRIPT,
    VUE,
    C,
    Embedding,
    LanguageSpec,
    language_for_grammar,
    language_for_path,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from tree_sitter import Language, Node, Parser, Query, Tree

    from kopipasta.syntax.query_shapes import Step


# Each grammar's own wheel, published by the tree-sitter project (pyproject.toml pins the
# versions our queries are tested against), and the function that gives its language.
# Vue has no wheel: its single-file components parse with the HTML grammar, whose
# `script_element`, `start_tag` and `end_tag` are all embedded.py reads of the host.
GRAMMAR_PACKAGES: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    # Kotlin: see _FROM_THE_PACK.
    "scala": ("tree_sitter_scala", "language"),
    "swift": ("tree_sitter_swift", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    # `<?php` code inside HTML, as a .php file is.
    "php": ("tree_sitter_php", "language_php"),
    "lua": ("tree_sitter_lua", "language"),
    "bash": ("tree_sitter_bash", "language"),
    "vue": ("tree_sitter_html", "language"),
    "svelte": ("tree_sitter_svelte", "language"),
    "html": ("tree_sitter_html", "language"),
    "css": ("tree_sitter_css", "language"),
    "json": ("tree_sitter_json", "language"),
    "yaml": ("tree_sitter_yaml", "language"),
    "toml": ("tree_sitter_toml", "language"),
}

# Grammars whose published wheel parses into other node types than our queries are written for,
# taken from tree-sitter-language-pack 0.13 when it is installed (the `kotlin` extra): every
# tree-sitter-kotlin on the package index (1.x) is a rewrite of the grammar (`identifier` for
# `simple_identifier`, `import` for `import_header`, no `import_list`), and kotlin.scm with the
# Kotlin rows here are written for the 0.3 grammar the pack ships. Porting them to 1.x takes
# the pack out for good (docs/install.md).
_FROM_THE_PACK = {"kotlin": ("Kotlin", "kotlin")}

# Read by path: importlib.resources would import zipfile and its readers on every start (issue 9).
_QUERIES = os.path.join(os.path.dirname(__file__), "queries")


@functools.cache
def grammar_language(grammar: str) -> Language:
    """The grammar's tree-sitter Language, loading only its compiled binding.

    A grammar package's `__init__` imports importlib.resources (and with it
    zipfile and its readers) for query files kopipasta never reads, on every
    start (issue 9). So the package's `_binding` extension is loaded directly,
    under the name the package itself gives it; on any surprise (another
    layout, another platform) the package is imported as usual.
    """
    from tree_sitter import Language

    if grammar in _FROM_THE_PACK:
        try:
            return Language(_pack_binding(grammar).language())
        except ImportError:  # another layout of the pack: its own loader knows it
            from tree_sitter_language_pack import get_language

            return get_language(grammar)  # type: ignore[arg-type]
    package, function = GRAMMAR_PACKAGES[grammar]
    try:
        binding = _binding(package)
    except ImportError:
        binding = importlib.import_module(package)
    return Language(getattr(binding, function)())


def _binding(package: str) -> ModuleType:
    import importlib.util

    name = f"{package}._binding"
    if name in sys.modules:
        return sys.modules[name]
    # A top-level package's spec is found without running its __init__.
    found = importlib.util.find_spec(package)
    if found is None or not found.submodule_search_locations:
        raise ImportError(name)
    return _extension(name, next(iter(found.submodule_search_locations)), "_binding")


def _pack_binding(grammar: str) -> ModuleType:
    """The language pack's binding of `grammar`, loaded alone: the pack's `__init__` imports
    ctypes and three other grammars on every start (issue 9)."""
    import importlib.util

    name = f"tree_sitter_language_pack.bindings.{grammar}"
    if name in sys.modules:
        return sys.modules[name]
    pack = importlib.util.find_spec("tree_sitter_language_pack")
    if pack is None or not pack.submodule_search_locations:
        from kopipasta.errors import UnsupportedFile

        display, extra = _FROM_THE_PACK[grammar]
        raise UnsupportedFile(
            f"{display} files need tree-sitter-language-pack's {display} grammar, which is not installed",
            f"in kopipasta's clone, run: pip install -e '.[{extra}]'",
        )
    folder = os.path.join(next(iter(pack.submodule_search_locations)), "bindings")
    return _extension(name, folder, grammar)


def _extension(name: str, folder: str, stem: str) -> ModuleType:
    """The compiled module `folder/stem.<suffix>`, loaded as `name`."""
    import importlib.machinery
    import importlib.util

    path = next(
        (p for p in (os.path.join(folder, stem + s) for s in importlib.machinery.EXTENSION_SUFFIXES) if os.path.isfile(p)),
        None,
    )
    if path is None:
        raise ImportError(name)
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:
        raise ImportError(name)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules[name] = module
    return module


@functools.cache
def grammar_parser(grammar: str) -> Parser:
    """The one parser of a grammar for the whole run (code files here; JSON, YAML and TOML in data/)."""
    from tree_sitter import Parser

    return Parser(grammar_language(grammar))


# The mark of a pattern matched below its root in Python (`"#" + query_shapes.MARKER`), looked
# for before query_shapes is imported: a query without marks (Python's) never imports it.
_SHAPE_MARK = "#structure-in-python!"


@functools.cache
def _query(grammar: str, query_file: str, extra_queries: tuple[str, ...] = ()) -> tuple[Query, dict[int, Step]]:
    """The definitions query, and the patterns whose structure is matched in Python, by index."""
    # The main file's patterns come first: a node captured twice keeps the first pattern's kind.
    text = "\n".join(_query_text(name) for name in (query_file, *extra_queries))
    return compile_definitions_query(grammar, text)


def compile_definitions_query(grammar: str, text: str, *, native: bool = False) -> tuple[Query, dict[int, Step]]:
    """`text` compiled, each `(#structure-in-python!)` pattern as its root alone (query_shapes.py).

    `native`: every pattern compiled whole by Tree-sitter (the plain computation tests compare with).
    """
    from tree_sitter import Query

    if native or _SHAPE_MARK not in text:
        return Query(grammar_language(grammar), text), {}
    from kopipasta.syntax import query_shapes

    compiled, shared_steps = query_shapes.compiled_patterns(text)
    steps = dict(shared_steps)  # the cached split is shared (TypeScript and TSX): the caller's own copy
    query = Query(grammar_language(grammar), "\n".join(compiled))
    # Each marked pattern must keep its index: the split must see the patterns Tree-sitter sees.
    if query.pattern_count != len(compiled):
        raise query_shapes.ShapeError(f"{len(compiled)} patterns split, {query.pattern_count} compiled")
    return query, steps


def _query_text(name: str) -> str:
    with open(os.path.join(_QUERIES, name), encoding="utf-8") as handle:
        return handle.read()


def parse(spec: LanguageSpec, data: bytes) -> Tree:
    return grammar_parser(spec.grammar).parse(data)


def _point(data: bytes, offset: int) -> tuple[int, int]:
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def _point_after(data: bytes, start: int, start_row: int, offset: int) -> tuple[int, int]:
    """`_point(data, offset)` for an offset at or after `start`, whose row is `start_row`."""
    if offset < start:
        return _point(data, offset)
    return start_row + data.count(b"\n", start, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


@dataclass(frozen=True)
class Change:
    """Where an edit sits: bytes [start, old_end) became [start, new_end)."""

    start: int
    old_end: int
    new_end: int


def reparse(spec: LanguageSpec, old_data: bytes, old_tree: Tree, data: bytes, change: Change | None) -> Tree:
    """Parse `data`, reusing the old tree around a known edit: a big file reparses in little time."""
    if change is None:
        return parse(spec, data)
    tree = old_tree.copy()  # the caller's tree stays valid for its own data
    start_point = _point(old_data, change.start)
    tree.edit(
        start_byte=change.start,
        old_end_byte=change.old_end,
        new_end_byte=change.new_end,
        start_point=start_point,
        # Both versions hold the same bytes before the edit: its ends' rows are counted from its start.
        old_end_point=_point_after(old_data, change.start, start_point[0], change.old_end),
        new_end_point=_point_after(data, change.start, start_point[0], change.new_end),
    )
    return grammar_parser(spec.grammar).parse(data, tree)


@functools.cache
def _types_query(grammar: str, types: tuple[str, ...]) -> Query:
    from tree_sitter import Query

    alternatives = " ".join(f"({t})" for t in dict.fromkeys(types))
    return Query(grammar_language(grammar), f"[{alternatives}] @node")


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

    query, shaped = _query(spec.grammar, spec.query_file, spec.extra_queries)
    return run_definitions_query(query, shaped, root, byte_range)


def run_definitions_query(
    query: Query, shaped: dict[int, Step], root: Node, byte_range: tuple[int, int] | None = None
) -> list[tuple[int, dict[str, list[Node]]]]:
    """The matches of a query from `compile_definitions_query`, the Python-matched patterns expanded."""
    from tree_sitter import QueryCursor

    cursor = QueryCursor(query)
    if byte_range is not None:
        cursor.set_byte_range(*byte_range)
    # Our own predicates are not known to tree-sitter, which would let every match through
    # without this callback: run the definitions query only here.
    matches = cursor.matches(root, _predicate)
    if not shaped:
        return matches
    from kopipasta.syntax import query_shapes

    # A root-only pattern's match stands for every match the whole pattern has at that root
    # (the byte range limits where a match may start, as for a native pattern: its root).
    matcher = query_shapes.Matcher()
    expanded: list[tuple[int, dict[str, list[Node]]]] = []
    for index, captures in matches:
        step = shaped.get(index)
        if step is None:
            expanded.append((index, captures))
            continue
        for found in matcher.matches(step, captures[query_shapes.ROOT_CAPTURE][0]):
            expanded.append((index, query_shapes.grouped(found)))
    return expanded


def _predicate(
    predicate: str, args: list[tuple[str, Literal["capture", "string"]]], pattern_index: int, captures: dict[str, list[Node]]
) -> bool:
    """The queries' own predicates; tree-sitter's (#eq?, #match?, …) never reach here.

    `(#first-argument-is? @call type …)`: the captured call's argument list
    starts with a node of one of the types, as `(call_expression arguments:
    (arguments . [(type) …]))` would say. A pattern nested under call_expression
    costs ~2.5 ms of query compilation in the TypeScript grammars (issue 9);
    this costs nothing until a match needs it. An uncaptured @call (another
    alternative matched) passes.
    """
    if predicate == "structure-in-python!":
        return True  # the marker (query_shapes.py), met here only when the pattern is compiled whole
    if predicate == "first-argument-is?":
        types = {value for value, kind in args[1:]}
        return all(_first_argument_is(call, types) for call in captures.get(args[0][0], []))
    if predicate == "decorated-as-overload?":
        return all(_decorated_as_overload(node) for node in captures.get(args[0][0], []))
    raise ValueError(f"unknown query predicate #{predicate}")


def _first_argument_is(call: Node, types: set[str]) -> bool:
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.type != "arguments":
        return False  # no argument list (a tagged template: memo`…`)
    # The `.` anchor's first child: the first named node, a comment included.
    first = next((child for child in arguments.children if child.is_named), None)
    return first is not None and first.type in types


def _decorated_as_overload(definition: Node) -> bool:
    """A Python decorated definition with a decorator `overload` or `x.overload`.

    What `(decorator [(identifier) (attribute attribute: (identifier))] @d (#match? @d
    "(^|\\.)overload$"))` among its children says: a decorator child that is an
    identifier, or an attribute whose attribute is one, whose text ends the name
    `overload` (such a node's text never ends in a newline, where `$` would also match).
    """
    for decorator in definition.children:
        if decorator.type != "decorator":
            continue
        for child in decorator.children:
            if child.type == "identifier" or (
                child.type == "attribute"
                and (attribute := child.child_by_field_name("attribute")) is not None
                and attribute.type == "identifier"
            ):
                text = (child.text or b"").decode("utf-8", "replace")
                if text == "overload" or text.endswith(".overload"):
                    return True
    return False


def error_count(spec: LanguageSpec, root: Node) -> int:
    """ERROR and MISSING nodes under root, the grammar's known quirks left out (0 for a clean tree).

    A MISSING token the grammar hides (Kotlin's automatic semicolon) is not
    among a node's children; only the tree's S-expression shows it.
    """
    if not root.has_error:
        return 0
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error and spec.prelude_types and _in_prelude(spec, node):
            continue
        if node.is_error or node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    text = s_expression(root)
    hidden = text.count("(MISSING ") - sum(text.count(f"(MISSING {quirk})") for quirk in spec.quirk_missing)
    visible_missing = _visible_missing(root)
    return count + max(hidden - visible_missing, 0)


# Tree-sitter writes a node's S-expression recursively in C, one frame (~320 bytes,
# measured) per level of nesting: on the main thread's 8 MB stack a 50 KB line of
# `a/a/a/…` (25,000 levels) killed the process with SIGSEGV. A node can nest no
# deeper than it has bytes (plus a few zero-width nodes), so a small node is
# written here, a bigger one on a thread whose stack fits its width.
_INLINE_BYTES = 8_000
_FRAME_BYTES = 512
_MAX_STACK = 1 << 30


def s_expression(node: Node) -> str:
    """str(node), on a stack deep enough for any nesting its bytes can hold.

    Raises RecursionError (which callers report as "nested too deeply") when that
    stack would be over 1 GB and the node really nests that deep.
    """
    width = node.end_byte - node.start_byte
    if width <= _INLINE_BYTES:
        return str(node)
    stack = width * _FRAME_BYTES + (16 << 20)
    if stack > _MAX_STACK:
        if _depth(node) * _FRAME_BYTES + (16 << 20) > _MAX_STACK:
            raise RecursionError("the syntax tree is nested too deeply")
        stack = _MAX_STACK
    return _on_thread(lambda: str(node), stack)


def _on_thread(work: Callable[[], str], stack: int) -> str:
    import threading

    result: list[str] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as error:  # handed to the caller's thread
            failure.append(error)

    previous = threading.stack_size(stack)
    try:
        worker = threading.Thread(target=run, name="kopipasta-sexp")
        worker.start()
    except (RuntimeError, MemoryError) as error:  # the stack could not be mapped
        raise MemoryError("no memory for a stack deep enough to read the syntax tree") from error
    finally:
        threading.stack_size(previous)
    worker.join()
    if failure:
        raise failure[0]
    return result[0]


def _depth(node: Node) -> int:
    """How deep the tree under node nests, walked with a cursor (no recursion)."""
    cursor = node.walk()
    depth = deepest = 0
    while True:
        if cursor.goto_first_child():
            depth += 1
            deepest = max(deepest, depth)
            continue
        while not cursor.goto_next_sibling():
            if depth == 0 or not cursor.goto_parent():
                return deepest
            depth -= 1


def _in_prelude(spec: LanguageSpec, error: Node) -> bool:
    """An ERROR with nothing MISSING inside an at-rule's prelude, whose block (or `;`) the grammar read."""
    if error.has_error and any(c.is_missing or c.has_error for c in error.children):
        return False
    statement = error.parent
    while statement is not None and statement.type not in spec.prelude_types:
        if statement.type in ("block", "stylesheet") or statement.is_error:
            return False  # inside a block: a declaration or a rule the grammar could not read
        statement = statement.parent
    if statement is None or statement.has_error and _missing_below(statement):
        return False
    block = next((c for c in statement.children if c.type == "block"), None)
    if block is not None:
        return error.end_byte <= block.start_byte
    last = statement.children[-1] if statement.children else None
    return last is not None and last.type == ";" and not last.is_missing


def _missing_below(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_missing:
            return True
        stack.extend(c for c in current.children if c.has_error or c.is_missing)
    return False


def _visible_missing(root: Node) -> int:
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return count


def has_syntax_error(spec: LanguageSpec, root: Node) -> bool:
    return error_count(spec, root) > 0


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
