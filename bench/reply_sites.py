"""The real files the reply generator writes about, and the definitions in them a reply can change.

Python comes from the installed click, rich and jinja2 (read at run time, never
copied into the repository); TypeScript, Go, Ruby and Rust from the `before/`
files of the fixtures, the test corpora and the bench's React sample, each
distinct text once. A *site* is one function or method a reply can rewrite:
found by Tree-sitter, unique by name in its file, several lines long, alone on
its lines; it knows its containers (class, impl, module) outermost first, and
where in its body a new first statement goes (after a Python docstring), so
every shape can compute its intended result from the file's own structure.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from kopipasta.code.find.definitions import Definition

REPO = Path(__file__).resolve().parent.parent

# Fence info string per file extension, as a chat model writes it.
FENCE_INFO = {".py": "python", ".ts": "typescript", ".tsx": "tsx", ".go": "go", ".rb": "ruby", ".rs": "rust"}
# A line comment per extension: placeholders and path comments are written with it.
COMMENT = {".py": "#", ".rb": "#", ".ts": "//", ".tsx": "//", ".go": "//", ".rs": "//"}
# The node types that hold a function's statements, per grammar.
_BODY_TYPES = {"block", "statement_block", "body_statement"}
_CODE_GLOBS = ("fixtures/*/before/**/*", "tests/identity_corpus/*", "tests/identity_samples/*", "bench/samples/*")
_PYTHON_PACKAGES = ("click", "rich", "jinja2")
# A function inside a function is a local: the shapes here are about members of classes and impls.
_NOT_CONTAINERS = {"function", "method", "variable", "component"}


@dataclass(frozen=True)
class Container:
    """A class, impl or module around a site: the lines a skeleton restates of it."""

    name: str
    kind: str
    head: tuple[str, ...]  # its decorators and header line, as in the file
    close: str | None  # its closing line (`}`, `end`), None in Python


@dataclass(frozen=True)
class Site:
    """One function or method of one real file that a generated reply rewrites."""

    path: str  # relative to the project root
    text: str  # the file
    kind: str  # function or method
    name: str
    containers: tuple[Container, ...]  # outermost first; () at the top level (a Go method too)
    first: int  # 0-based line where its restated text starts (decorators, `export`)
    header: int  # 0-based line of its keyword (`def`, `func`, `fn`)
    last: int  # 0-based line where it ends
    body: int  # 0-based line before which a new first statement goes
    body_indent: str  # that statement's indentation
    member_indent: str  # the indentation of its first line

    @property
    def suffix(self) -> str:
        return Path(self.path).suffix

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


@dataclass(frozen=True)
class SourceFile:
    path: str
    text: str
    sites: tuple[Site, ...]
    top_level: tuple[tuple[str, int, int], ...]  # (name, first, last) of unique top-level definitions


def python_files() -> list[tuple[str, Path]]:
    """Every module of the installed click, rich and jinja2, as (project path, file), sorted."""
    found = []
    for package in _PYTHON_PACKAGES:
        module = importlib.import_module(package)
        assert module.__file__, package
        folder = Path(module.__file__).resolve().parent
        for path in sorted(folder.rglob("*.py")):
            found.append((f"{package}/{path.relative_to(folder).as_posix()}", path))
    return found


def corpus_files() -> list[tuple[str, Path]]:
    """The distinct TypeScript, Go, Ruby and Rust files of the fixtures and corpora, sorted."""
    seen: set[str] = set()
    found = []
    for pattern in _CODE_GLOBS:
        for path in sorted(REPO.glob(pattern)):
            if not path.is_file() or path.suffix not in FENCE_INFO or path.suffix == ".py":
                continue
            digest = hashlib.sha1(path.read_bytes()).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            parts = path.relative_to(REPO).parts
            relative = "/".join(parts[3:]) if parts[0] == "fixtures" else f"src/{path.name}"
            found.append((relative, path))
    return found


@cache
def read_source(relative: str, path: Path) -> SourceFile | None:
    """The file's sites, or None when it cannot be used (CRLF, a BOM, a parse error, no sites)."""
    text = path.read_text(encoding="utf-8")
    if "\r" in text or text.startswith("\ufeff") or "\t" in text and path.suffix != ".go":
        return None
    from kopipasta.code.find.definitions import list_definitions
    from kopipasta.code.layout.render import value_rows
    from kopipasta.syntax.languages import language_for_path, parse

    spec = language_for_path(path.name)
    if spec is None:
        return None
    data = text.encode("utf-8")
    tree = parse(spec, data)
    if tree.root_node.has_error:
        return None
    definitions = list_definitions(spec, tree, source=data)
    lines = text.split("\n")
    names = [d.qualified_name for d in definitions]
    plain = [d.name for d in definitions]
    by_name = {d.qualified_name: d for d in definitions}

    def row(offset: int) -> int:
        return data.count(b"\n", 0, offset)

    def alone(d: Definition) -> bool:
        start = data.rfind(b"\n", 0, d.outer_start) + 1
        end = data.find(b"\n", d.end)
        after = data[d.end : end if end >= 0 else len(data)]
        return not data[start : d.outer_start].strip() and not after.strip(b" \t;,")

    # Rows inside a multi-line string whose lines keep the columns they are sent at (PROTOCOL
    # §4: not a docstring, not a `<<~` heredoc): a reply that re-indents such a definition
    # changes the string's value or not depending on how the model moved its lines, so the
    # intended bytes are not certain and the definition is no site.
    frozen, moving = value_rows(spec, tree.root_node)
    kept_as_sent = frozen - set(moving)

    sites = []
    top_level = []
    for d in definitions:
        if names.count(d.qualified_name) != 1 or plain.count(d.name) != 1 or not alone(d):
            continue
        if not d.container and not lines[row(d.outer_start)][:1].isspace():
            top_level.append((d.name, row(d.outer_start), row(d.end)))
        if d.kind not in ("function", "method") or row(d.end) - row(d.start) < 2:
            continue
        if any(row(d.start) <= r <= row(d.end) for r in kept_as_sent):
            continue
        containers = _containers(d, by_name, lines, row)
        if containers is None or any(c.kind in _NOT_CONTAINERS for c in containers):
            continue
        body = _first_statement(tree.root_node, d.start, d.end, path.suffix == ".py")
        if body is None or row(body.start_byte) <= row(d.start):
            continue
        body_row = row(body.start_byte)
        line = lines[body_row]
        if line[: body.start_point[1]].strip():
            continue  # the first statement shares its line with the header
        first = row(d.outer_start)
        sites.append(
            Site(
                path=relative,
                text=text,
                kind=d.kind,
                name=d.name,
                containers=containers,
                first=first,
                header=row(d.start),
                last=row(d.end),
                body=body_row,
                body_indent=line[: len(line) - len(line.lstrip())],
                member_indent=lines[first][: len(lines[first]) - len(lines[first].lstrip())],
            )
        )
    if not sites:
        return None
    return SourceFile(relative, text, tuple(sites), tuple(top_level))


def _containers(
    d: Definition, by_name: dict[str, Definition], lines: list[str], row: Callable[[int], int]
) -> tuple[Container, ...] | None:
    """The definitions around `d`, outermost first, with their header and closing lines; None if odd."""
    container = d.container
    found = []
    for depth in range(1, len(container) + 1):
        outer = by_name.get(".".join(container[:depth]))
        if outer is None:
            return None
        first, header, last = row(outer.outer_start), row(outer.start), row(outer.end)
        head = tuple(lines[first : header + 1])
        if not head[-1].rstrip().endswith((":", "{")) and not lines[header].lstrip().startswith(("class ", "module ")):
            return None  # a header spread over lines: a skeleton would not restate it faithfully
        closing = lines[last].strip()
        close = lines[last] if closing in ("}", "};", "end") else None
        if close is None and not lines[first].lstrip().startswith(("class ", "@")):
            return None
        found.append(Container(outer.name, outer.kind, head, close))
    return tuple(found)


def _first_statement(root: Node, start: int, end: int, python: bool) -> Node | None:
    """The first statement of the function body spanning start..end (after a docstring), or None."""
    node: Node | None = root.descendant_for_byte_range(start, end)
    while node is not None and node.end_byte < end:
        node = node.parent
    if node is None:
        return None
    stack = [node]
    while stack:
        current = stack.pop(0)
        if current.type in _BODY_TYPES and current.start_byte >= start:
            children = [c for c in current.named_children if c.type != "comment"]
            if children and children[0].type == "statement_list":
                children = [c for c in children[0].named_children if c.type != "comment"]
            if python and children and _is_docstring(children[0]):
                children = children[1:]
            return children[0] if children else None
        stack.extend(current.named_children)
    return None


def _is_docstring(node: Node) -> bool:
    # tree-sitter-python writes a statement that is only a string as the `string` itself
    # (older grammars wrap it in an expression_statement).
    if node.type == "string":
        return True
    first = node.named_children[0] if node.named_children else None
    return node.type == "expression_statement" and first is not None and first.type == "string"
