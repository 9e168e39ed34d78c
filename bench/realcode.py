"""Real code for the bench: click's `formatting.py`, big files of click + rich, a React layout.

click and rich are kopipasta's own dependencies, so their installed sources are
always there to copy. The edits are computed from whatever version is installed
(a guard clause added after a function's docstring), so the rows work on any
click; `ast` finds the function, and the edit checks it stands once in the file.
"""

from __future__ import annotations

import ast
import importlib
from functools import cache
from pathlib import Path

from bench.edits import Edit

SAMPLES = Path(__file__).resolve().parent / "samples"


def package_dir(name: str) -> Path:
    module = importlib.import_module(name)
    assert module.__file__, name
    return Path(module.__file__).resolve().parent


def click_formatting() -> str:
    return (package_dir("click") / "formatting.py").read_text(encoding="utf-8")


def _function(tree: ast.Module, qualified: str) -> ast.FunctionDef:
    scope: list[ast.stmt] = tree.body
    parts = qualified.split(".")
    for depth, part in enumerate(parts):
        found = [node for node in scope if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == part]
        assert len(found) == 1, f"{qualified}: {part} found {len(found)} times"
        if depth == len(parts) - 1:
            node = found[0]
            assert isinstance(node, ast.FunctionDef), qualified
            return node
        scope = found[0].body
    raise AssertionError(qualified)


def guard_edit(path: str, text: str, qualified: str, parameter: str, target: str) -> Edit:
    """Add `if PARAMETER < 1: raise ValueError(...)` right after the docstring of function `qualified`."""
    lines = text.split("\n")
    node = _function(ast.parse(text), qualified)
    first, last = node.lineno - 1, node.end_lineno or node.lineno
    body = node.body
    has_docstring = isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant)
    after = (body[0].end_lineno or body[0].lineno) if has_docstring else body[0].lineno - 1
    first_statement = lines[body[0].lineno - 1]
    indent = first_statement[: len(first_statement) - len(first_statement.lstrip())]
    guard = [f"{indent}if {parameter} < 1:", f'{indent}    raise ValueError("{parameter} must be positive")']
    column = node.col_offset
    old_lines = lines[first:last]
    new_lines = lines[first:after] + guard + lines[after:last]
    old = "\n".join(old_lines)[column:]
    new = "\n".join(new_lines)[column:]
    return Edit(path, old, new, "python", "function_definition", qualified.split(".")[-1], target)


def write_dl_edit(path: str, text: str) -> Edit:
    """HelpFormatter.write_dl refuses a non-positive col_max: a method, sent at column 0."""
    return guard_edit(path, text, "HelpFormatter.write_dl", "col_max", "method HelpFormatter.write_dl")


def wrap_text_edit(path: str, text: str) -> Edit:
    """wrap_text refuses a non-positive width: a top-level function (the fragment row's edit)."""
    return guard_edit(path, text, "wrap_text", "width", "function wrap_text")


# The method the insert row adds after HelpFormatter.write_dl, as a model sends it (column 0).
NEW_METHOD = (
    "def write_rows(self, rows: list[tuple[str, str]]) -> None:\n"
    '    """Writes each row as a term and its help, one line each."""\n'
    "    for term, text in rows:\n"
    '        self.write(f"{term}: {text}\\n")\n'
)


def insert_after_edit(path: str, text: str) -> Edit:
    """A method inserted after HelpFormatter.write_dl: the method's text, then one blank line
    (the class's spacing) and the new method indented as the class's methods are."""
    lines = text.split("\n")
    node = _function(ast.parse(text), "HelpFormatter.write_dl")
    first, last = node.lineno - 1, node.end_lineno or node.lineno
    indent = " " * node.col_offset
    old = "\n".join(lines[first:last])[node.col_offset :]
    added = "\n".join(indent + line if line else line for line in NEW_METHOD.rstrip("\n").split("\n"))
    return Edit(path, old, old + "\n\n" + added, "python", "function_definition", "write_dl", "method HelpFormatter.write_dl")


@cache
def _filler_sources() -> tuple[str, ...]:
    """click's and rich's modules (not formatting.py), each ending in a newline, in a fixed order."""
    files = sorted((package_dir("click")).glob("*.py")) + sorted((package_dir("rich")).rglob("*.py"))
    sources = []
    for file in files:
        if file.name == "formatting.py" and file.parent.name == "click":
            continue
        source = file.read_text(encoding="utf-8")
        if "def wrap_text(" in source or "def write_dl(" in source or not source.strip():
            continue
        sources.append(source if source.endswith("\n") else source + "\n")
    return tuple(sources)


def big_python_file(lines: int) -> str:
    """About `lines` lines of real Python: click + rich modules, repeated as needed, with
    click's formatting.py once in the middle (so `wrap_text` and `write_dl` stand exactly once)."""
    core = click_formatting()
    budget = max(lines - core.count("\n"), 0)
    chosen: list[str] = []
    total = 0
    sources = _filler_sources()
    while total < budget:
        progress = False
        for source in sources:
            size = source.count("\n")
            if total + size <= budget * 1.02 + 50:
                chosen.append(source)
                total += size
                progress = True
                if total >= budget:
                    break
        if not progress:
            break
    half = len(chosen) // 2
    return "\n\n".join(["".join(chosen[:half]), core, "".join(chosen[half:])])


def react_layout() -> str:
    return (SAMPLES / "dashboard_layout.tsx").read_text(encoding="utf-8")


def navigation_item_edit(path: str, text: str) -> Edit:
    """The sidebar item shows its badge: a function component in the .tsx sample."""
    start = text.index("function NavigationItem(")
    end = text.index("\n}\n", start) + 2
    old = text[start:end]
    marker = "      {!collapsed && item.name}\n"
    assert marker in old
    new = old.replace(
        marker,
        marker
        + "      {!collapsed && item.badge ? (\n"
        + '        <span className="ml-auto rounded-full bg-gray-700 px-2 text-xs">{item.badge}</span>\n'
        + "      ) : null}\n",
    )
    return Edit(path, old, new, "tsx", "function_declaration", "NavigationItem", "function NavigationItem")
