"""Check before write: a patch may not add a syntax error (PROTOCOL.md §4).

Tree-sitter recovers from errors, so its tree says whether the file is still
well formed; the reparse is incremental, so a big file costs little more than
the edit. For Python, the interpreter's own parser is the exact judge: it
catches what Tree-sitter lets through (a dedent that does not line up, a
misplaced `*`, …). It parses the smallest definition around the edit, since
syntax never depends on what stands outside a definition.
"""

from __future__ import annotations

import ast
import warnings
from typing import TYPE_CHECKING

from kopipasta.errors import SyntaxCheckError
from kopipasta.syntax.languages import Change, LanguageSpec, error_count, first_error, reparse

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

_PYTHON_UNITS = ("function_definition", "class_definition", "decorated_definition")


def _point_of(data: bytes, offset: int) -> tuple[int, int]:
    """Row and column of the first non-blank byte at or after `offset` (the edit's first line)."""
    while offset < len(data) and data[offset : offset + 1] in (b" ", b"\t", b"\r", b"\n"):
        offset += 1
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def _line_text(data: bytes, row: int) -> str:
    start = 0
    for _ in range(row):
        start = data.find(b"\n", start) + 1
        if start == 0:
            return ""
    end = data.find(b"\n", start)
    text = data[start : end if end >= 0 else len(data)].decode("utf-8", "replace").strip()
    return text if len(text) <= 80 else text[:77] + "..."


def check_syntax(
    spec: LanguageSpec,
    file: str,
    target: str,
    old_data: bytes,
    old_tree: Tree,
    data: bytes,
    change: Change | None = None,
) -> Tree:
    """The new tree, or SyntaxCheckError when the patch broke what parsed before."""
    tree = reparse(spec, old_data, old_tree, data, change)
    if tree.root_node.has_error and error_count(spec, tree.root_node) > error_count(spec, old_tree.root_node):
        if spec.grammar == "python":
            # Tree-sitter's first ERROR often wraps the whole module (line 1, column 1);
            # the interpreter names the line that is actually wrong.
            _check_python(file, target, old_data, tree, data, change)
        error = first_error(tree.root_node) or tree.root_node
        row, column = error.start_point
        if change is not None and error.start_byte < change.start:
            # Recovery swallowed code before the edit (Ruby's missing `end` makes the whole
            # file one ERROR): the first line the patch changed is where to look.
            row, column = _point_of(data, change.start)
        raise SyntaxCheckError(
            f"Patch for {target} would break the syntax of {file} at line {row + 1}, "
            f"column {column + 1}: {_line_text(data, row)}",
            "check the block's brackets and indentation; nothing was written",
        )
    if spec.grammar == "python":
        _check_python(file, target, old_data, tree, data, change)
    return tree


def _python_error(source: bytes) -> SyntaxError | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like are the file's business
            ast.parse(source)
    except SyntaxError as error:
        return error
    except ValueError:  # NUL bytes: not ours to judge
        return None
    return None


def _enclosing_unit(tree: Tree, change: Change | None) -> Node | None:
    """The innermost definition holding the whole edit, or None for the whole module."""
    if change is None:
        return None
    node: Node | None = tree.root_node.descendant_for_byte_range(change.start, max(change.start, change.new_end - 1))
    while node is not None and node.type not in _PYTHON_UNITS:
        node = node.parent
    if node is not None and node.parent is not None and node.parent.type == "decorated_definition":
        node = node.parent  # its decorators are part of the same statement
    return node


def _unit_source(data: bytes, unit: Node) -> tuple[bytes, int, int]:
    """The unit's full lines without its own indentation, its first line number, and that indentation's width."""
    line_start = data.rfind(b"\n", 0, unit.start_byte) + 1
    indent = data[line_start : unit.start_byte]
    lines = data[line_start : unit.end_byte].split(b"\n")
    # Lines inside string literals may have less indentation: they keep theirs.
    body = b"\n".join(line[len(indent) :] if line.startswith(indent) else line for line in lines)
    return body + b"\n", unit.start_point[0], len(indent)


def _check_python(
    file: str, target: str, old_data: bytes, tree: Tree, data: bytes, change: Change | None
) -> None:
    unit = _enclosing_unit(tree, change)
    source, first_line, indent = _unit_source(data, unit) if unit is not None else (data, 0, 0)
    error = _python_error(source)
    if error is None:
        return
    if _python_error(old_data) is not None:
        return  # it did not compile before either: only Tree-sitter's verdict counts
    line = (error.lineno or 0) + first_line
    column = (error.offset or 0) + indent
    raise SyntaxCheckError(
        f"Patch for {target} would break the syntax of {file} at line {line}, column {column}: "
        f"{error.msg}",
        "check the block's indentation; nothing was written"
        if "indent" in error.msg.lower()
        else "check the block's brackets, quotes and indentation; nothing was written",
    )
