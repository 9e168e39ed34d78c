"""Payload → the lines to splice in: string literals found, then re-indented.

Which lines are values (inside a multi-line string, template literal or
docstring) is read from the payload's own parse tree, so re-indentation never
changes what a program computes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kopipasta.code.layout.indent import Unit, reindent
from kopipasta.syntax import opening_tag
from kopipasta.syntax.languages import LanguageSpec, has_syntax_error, parse

if TYPE_CHECKING:
    from tree_sitter import Node, Tree


# The last payload text parsed alone, and its tree (see parse_payload).
_last_payload: tuple[str, bytes, Tree] | None = None
_PAYLOAD_MEMO_BYTES = 64 * 1024  # a bigger text (a whole file sent as a block) is not held on to


def parse_payload(spec: LanguageSpec, data: bytes) -> Tree:
    """parse(spec, data) for a payload's text; the same bytes asked again get the same tree.

    A TARGET_NODE payload at column 0 without imports is parsed by imports.split_imports and
    then, the same bytes, by the renderer (payload_tree): once is enough. Trees are only
    read (a reparse edits a copy), so one tree serves both. Only the last text is kept.
    """
    global _last_payload
    last = _last_payload
    if last is not None and last[0] == spec.grammar and last[1] == data:
        return last[2]
    tree = parse(spec, data)
    _last_payload = (spec.grammar, data, tree) if len(data) <= _PAYLOAD_MEMO_BYTES else None
    return tree


def payload_tree(spec: LanguageSpec, payload: str) -> tuple[Tree, int]:
    """The payload's parse tree, and how many wrapper lines stand before its first line.

    Class members do not parse at the top level (JS/TS, Java, C++, PHP …), nor does PHP
    without `<?php`: the language's wrappers are tried in turn.
    """
    alone: Tree | None = None
    # A PHP payload that brings its own `<?php` (a whole file, a template) parses as it stands.
    if spec.payload_parses_alone or opening_tag.holds_tag(spec, payload):
        tree = parse_payload(spec, payload.encode("utf-8"))
        if opening_tag.parses_as_code(spec, tree.root_node):  # not all of it HTML text
            alone = tree
            if not has_syntax_error(spec, alone.root_node):
                return alone, 0
    wrapped = wrapped_tree(spec, payload)
    if wrapped is not None:
        return wrapped
    if alone is not None:
        return alone, 0
    if spec.payload_wrappers:  # nothing parses: the first wrapper's tree shows where it breaks
        opening, closing = spec.payload_wrappers[0]
        text = opening_tag.blanked(spec, payload)
        return parse(spec, (opening + text + closing).encode("utf-8")), opening.count("\n")
    return parse(spec, payload.encode("utf-8")), 0  # a language with no wrapper parses its payload alone


def wrapped_tree(spec: LanguageSpec, payload: str) -> tuple[Tree, int] | None:
    """The payload parsed inside the first of the language's wrappers that takes it without an error."""
    text = opening_tag.blanked(spec, payload)  # the wrapper brings PHP's `<?php`: the payload's own is not repeated
    for opening, closing in spec.payload_wrappers:
        wrapped = parse(spec, (opening + text + closing).encode("utf-8"))
        if not has_syntax_error(spec, wrapped.root_node):
            return wrapped, opening.count("\n")
    return None


def string_lines(spec: LanguageSpec, payload: str) -> tuple[set[int], dict[int, int]]:
    """Lines starting inside a string literal, and for docstring lines the line the docstring opens on."""
    tree, offset = payload_tree(spec, payload)
    return value_rows(spec, tree.root_node, offset)


def value_rows(
    spec: LanguageSpec, root: Node, offset: int = 0, rows: int | None = None, *, docstrings: bool = True
) -> tuple[set[int], dict[int, int]]:
    """Rows (less `offset`) that start inside a multi-line string or comment, see string_lines.

    With `rows`, only strings and comments touching the first `rows` rows are looked at.
    Without `docstrings`, only the rows are asked for: the docstring map stays empty.

    The inner lines of a block comment (` * @param` under `/**`) are not layout
    either: they move with the line the comment opens on, like a docstring, and
    their odd one-space steps must not be taken for the indent unit.
    """
    frozen: set[int] = set()
    docstring: dict[int, int] = {}
    for node in multiline_nodes(root, frozenset((*spec.string_types, *spec.comment_types)), rows):
        first, last = node.start_point[0], last_row(node)
        if last == first:
            continue  # a line comment that holds its newline (Rust's `///`) ends on its own row
        if not docstrings:
            frozen.update(range(first + 1 - offset, last + 1 - offset))
            continue
        moves_with_opener = node.type in spec.comment_types or _is_docstring(node) or _is_squiggly_heredoc(node)
        for row in range(first + 1, last + 1):
            frozen.add(row - offset)
            if moves_with_opener:
                docstring[row - offset] = first - offset
    return frozen, docstring


def last_row(node: Node) -> int:
    """The last row a node's text stands on: a node ending at a row's column 0 ends with the
    newline before it (tree-sitter-rust's line comments hold theirs), not on that row."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


def multiline_nodes(root: Node, types: frozenset[str], rows: int | None = None) -> list[Node]:
    """The named nodes of `types` under `root` (root too) that span more than one row, in document order.

    With `rows`, only those starting before row `rows`. What the query `[(type) …] @node`
    (languages.nodes_of_types) finds, less its one-row nodes, which value_rows has no use
    for; without compiling that query, which costs 1-17 ms per grammar and process (Kotlin,
    Scala, C++ the most) where this walk costs less than running it. A node spanning rows
    lies only under nodes spanning rows (a node's range holds its children's), so only the
    children of those are looked at: a one-row node and all beneath it are passed over.
    They come in file order, each before the nodes inside it (the query's captures come
    grouped, not in file order). Order matters only to value_rows's docstring map, and only
    if two nested nodes both moved a row (a comment or docstring inside another): the
    grammars make nested block comments one token, and tests/test_many_blocks.py checks the
    map equal to the query's on the corpus, random edits of it, and every fixture payload.
    """
    found: list[Node] = []
    limit = rows if rows is not None else root.end_point[0] + 1
    if root.start_point[0] >= limit or root.end_point[0] == root.start_point[0]:
        return found
    pending = [root]
    while pending:
        node = pending.pop()
        if node.type in types and node.is_named:  # as the query: TypeScript's keyword `string` is no string
            found.append(node)
        deeper: list[Node] = []
        for child in node.children:
            first = child.start_point[0]
            if first >= limit:
                break  # children come in file order: the rest start later still
            if child.end_point[0] != first:
                deeper.append(child)
        pending.extend(reversed(deeper))
    return found


def _is_docstring(node: Node) -> bool:
    """A string that is the first statement of a module, class or function (Python)."""
    statement = node.parent
    if statement is not None and statement.type == "expression_statement":
        if statement.named_child_count != 1:
            return False
        node, statement = statement, statement.parent
    if statement is None or statement.type not in ("block", "module"):
        return False
    first = next((c for c in statement.named_children if c.type != "comment"), None)
    if first is None or (first.start_byte, first.end_byte) != (node.start_byte, node.end_byte):
        return False
    # A module's first string, or the body of a def/class. A payload that is
    # only a method at column 0 parses as a module: its def's body is a block.
    return statement.type == "module" or (
        statement.parent is not None and statement.parent.type in ("function_definition", "class_definition")
    )


def _is_squiggly_heredoc(node: Node) -> bool:
    """A Ruby `<<~` heredoc's body: Ruby strips its common indentation, so, like a docstring,
    its value does not depend on where it stands and its lines move with the line it opens on.

    The body starts at the end of its opener's line; the `heredoc_beginning`s of that line
    (one line may open several) must all be squiggly.
    """
    if node.type != "heredoc_body":
        return False
    row = node.start_point[0]
    scope = node.parent
    beginnings: list[Node] = []
    pending = [scope] if scope is not None else []
    while pending:
        current = pending.pop()
        if current.start_point[0] > row or current.end_point[0] < row:
            continue
        if current.type == "heredoc_beginning":
            beginnings.append(current)
        pending.extend(current.children)
    return bool(beginnings) and all((b.text or b"").startswith(b"<<~") for b in beginnings)


def render_lines(spec: LanguageSpec | None, payload: str, *, base: str, file_unit: Unit | None) -> list[str]:
    """The payload's lines, re-indented to `base` and the file's indent unit."""
    frozen: set[int] = set()
    docstring: dict[int, int] = {}
    if spec is not None:
        frozen, docstring = string_lines(spec, payload)
    return reindent(payload, base=base, file_unit=file_unit, frozen=frozen, docstring=docstring)
