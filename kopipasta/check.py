"""Check before write: a patch may not add a syntax error (PROTOCOL.md §4).

Tree-sitter recovers from errors, so its tree says whether the file is still
well formed. For Python, the interpreter's own parser is the exact judge: it
catches what Tree-sitter lets through (an indentation that does not line up,
a `return` outside a function, …).
"""

from __future__ import annotations

import ast
import warnings
from typing import TYPE_CHECKING

from kopipasta.errors import SyntaxCheckError
from kopipasta.languages import LanguageSpec, first_error, parse

if TYPE_CHECKING:
    from tree_sitter import Tree


def _error_count(tree: Tree) -> int:
    count = 0
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return count


def _line_text(data: bytes, row: int) -> str:
    lines = data.split(b"\n")
    text = lines[row].decode("utf-8", "replace").strip() if row < len(lines) else ""
    return text if len(text) <= 80 else text[:77] + "..."


def check_syntax(
    spec: LanguageSpec, file: str, target: str, old_data: bytes, old_tree: Tree, data: bytes
) -> Tree:
    """The new tree, or SyntaxCheckError when the patch broke what parsed before."""
    tree = parse(spec, data)
    if tree.root_node.has_error and (
        not old_tree.root_node.has_error or _error_count(tree) > _error_count(old_tree)
    ):
        error = first_error(tree.root_node) or tree.root_node
        row, column = error.start_point
        raise SyntaxCheckError(
            f"Patch for {target} would break the syntax of {file} at line {row + 1}, "
            f"column {column + 1}: {_line_text(data, row)}",
            "check the block's brackets and indentation; nothing was written",
        )
    if spec.grammar == "python":
        _check_python(file, target, old_data, data)
    return tree


def _python_error(data: bytes) -> SyntaxError | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes etc. are the file's business
            ast.parse(data)
    except SyntaxError as error:
        return error
    except ValueError:  # NUL bytes: not ours to judge
        return None
    return None


def _check_python(file: str, target: str, old_data: bytes, data: bytes) -> None:
    error = _python_error(data)
    if error is None:
        return
    if _python_error(old_data) is not None:
        return  # it did not compile before either: only Tree-sitter's verdict counts
    line = error.lineno or 0
    column = error.offset or 0
    raise SyntaxCheckError(
        f"Patch for {target} would break the syntax of {file} at line {line}, column {column}: "
        f"{error.msg}",
        "check the block's indentation; nothing was written",
    )
