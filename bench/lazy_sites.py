"""The real files the lazy-edit generator writes about, in eight languages, and where an edit can go in them.

Python is every module of the installed click, rich and jinja2 (read at run
time, never copied in); TypeScript/TSX, Rust, C++, Scala, Lua, Go and Java are
the `before/` files of the fixtures, the test corpora and bench/samples
(bench/samples/lazy/ holds a few small files written for this bench), each
distinct text once. A *site* is one function or method: unique by name, alone
on its lines, with a body of at least three statements each starting on a line
of its own, so an edit can go before any of them and a snippet can show a
head, a tail or a run from the middle of it with exact intended bytes.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from bench.reply_sites import REPO, python_files

if TYPE_CHECKING:
    from tree_sitter import Node

# The languages of the table, each with the suffixes its files have, in table order.
LANGUAGES: dict[str, tuple[str, ...]] = {
    "python": (".py",),
    "ts/tsx": (".ts", ".tsx"),
    "rust": (".rs",),
    "c++": (".cpp", ".cc", ".hpp", ".h"),
    "scala": (".scala",),
    "lua": (".lua",),
    "go": (".go",),
    "java": (".java",),
}
LANGUAGE_OF = {suffix: language for language, suffixes in LANGUAGES.items() for suffix in suffixes}
FENCE_INFO = {
    ".py": "python", ".ts": "typescript", ".tsx": "tsx", ".rs": "rust", ".cpp": "cpp", ".cc": "cpp",
    ".hpp": "cpp", ".h": "cpp", ".scala": "scala", ".lua": "lua", ".go": "go", ".java": "java",
}
# The file's own line comment: `# ...` and `-- ...` placeholders, header comments, a trailing note.
COMMENT = {suffix: "//" for suffix in FENCE_INFO} | {".py": "#", ".lua": "--"}
# The statement an edit adds, per language ({name} filled in): it parses wherever a statement does.
STATEMENT = {
    "python": 'log.debug("lazy {name}")',
    "ts/tsx": 'console.debug("lazy {name}");',
    "rust": 'log::debug!("lazy {name}");',
    "c++": 'std::clog << "lazy {name}" << std::endl;',
    "scala": 'println("lazy {name}")',
    "lua": 'print("lazy {name}")',
    "go": 'log.Printf("lazy {name}")',
    "java": 'System.out.println("lazy {name}");',
}
_CODE_GLOBS = (
    "fixtures/*/before/**/*", "tests/identity_corpus/*", "tests/identity_samples/*", "bench/samples/*",
    "bench/samples/lazy/*",
)
# Node types that hold a function's statements, across the eight grammars.
_BODY_TYPES = {"block", "statement_block", "compound_statement", "constructor_body", "indented_block"}
MIN_STATEMENTS = 3


@dataclass(frozen=True)
class Statement:
    row: int  # 0-based first row, alone on it (only indentation before)
    end_row: int
    one_line: bool  # starts and ends on its row, nothing after it but `;`


@dataclass(frozen=True)
class Site:
    """One function or method of one real file, and the statements of its body."""

    path: str  # relative to the project root
    text: str
    kind: str
    name: str
    container: tuple[str, ...]
    first: int  # 0-based row where its text starts (decorators, doc comment not included)
    header: int
    last: int
    body_indent: str
    member_indent: str
    statements: tuple[Statement, ...]
    named_once: bool  # its name stands nowhere else in the file: a rename leaves no caller behind

    @property
    def suffix(self) -> str:
        return Path(self.path).suffix

    @property
    def language(self) -> str:
        return LANGUAGE_OF[self.suffix]

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


@dataclass(frozen=True)
class SourceFile:
    path: str
    text: str
    sites: tuple[Site, ...]

    @property
    def suffix(self) -> str:
        return Path(self.path).suffix

    @property
    def language(self) -> str:
        return LANGUAGE_OF[self.suffix]


def other_files() -> list[tuple[str, Path]]:
    """The distinct non-Python files of the eight languages in the fixtures, corpora and samples, sorted."""
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
def files_by_language() -> dict[str, list[tuple[str, Path]]]:
    found: dict[str, list[tuple[str, Path]]] = {language: [] for language in LANGUAGES}
    for relative, path in python_files() + other_files():
        found[LANGUAGE_OF[path.suffix]].append((relative, path))
    return found


@cache
def read_source(relative: str, path: Path) -> SourceFile | None:
    """The file's sites, or None when it cannot be used (CRLF, a BOM, tabs outside Go, a parse error)."""
    text = path.read_text(encoding="utf-8")
    if "\r" in text or text.startswith("\ufeff") or ("\t" in text and path.suffix != ".go"):
        return None
    from kopipasta.code.find.definitions import list_definitions
    from kopipasta.syntax.languages import language_for_path, parse

    spec = language_for_path(path.name)
    if spec is None:
        return None
    data = text.encode("utf-8")
    tree = parse(spec, data)
    if tree.root_node.has_error:
        return None
    definitions = list_definitions(spec, tree, source=data)
    plain = [d.name for d in definitions]
    lines = text.split("\n")

    def row(offset: int) -> int:
        return data.count(b"\n", 0, offset)

    sites = []
    for d in definitions:
        if d.kind not in ("function", "method", "constructor") or plain.count(d.name) != 1:
            continue
        node = _definition_node(tree.root_node, d.start, d.end)
        body = _body(node) if node is not None else None
        if body is None:
            continue
        first, header, last = row(d.outer_start), row(d.start), row(d.end)
        if lines[last].strip() not in ("}", "};", "end") and path.suffix != ".py" and path.suffix != ".scala":
            continue
        if _code_after(data, d.end):
            continue
        statements = _statements(body, lines, path.suffix == ".py")
        if len(statements) < MIN_STATEMENTS or statements[0].row <= header:
            continue
        if any(s.row > last for s in statements):
            continue
        indent = lines[statements[0].row][: _column(lines[statements[0].row])]
        if any(lines[s.row][: _column(lines[s.row])] != indent for s in statements):
            continue
        sites.append(
            Site(
                path=relative, text=text, kind=d.kind, name=d.name, container=tuple(d.container),
                first=first, header=header, last=last, body_indent=indent,
                member_indent=lines[first][: _column(lines[first])], statements=tuple(statements),
                named_once=len(re.findall(rf"(?<![\w$]){re.escape(d.name)}(?![\w$])", text)) == 1,
            )
        )
    if not sites:
        return None
    return SourceFile(relative, text, tuple(sites))


def _column(line: str) -> int:
    return len(line) - len(line.lstrip())


def _code_after(data: bytes, end: int) -> bool:
    stop = data.find(b"\n", end)
    return bool(data[end : stop if stop >= 0 else len(data)].strip(b" \t;,"))


def _definition_node(root: Node, start: int, end: int) -> Node | None:
    node: Node | None = root.descendant_for_byte_range(start, end)
    while node is not None and node.end_byte < end:
        node = node.parent
    return node


def _body(node: Node) -> Node | None:
    """The definition's own statement block: a child (or a `function_body`'s child) of a body type."""
    for child in reversed(node.named_children):
        if child.type in _BODY_TYPES:
            return child
        if child.type in ("function_body", "body"):
            inner = [c for c in child.named_children if c.type in _BODY_TYPES]
            return inner[0] if inner else None
    return None


def _statements(body: Node, lines: list[str], python: bool) -> list[Statement]:
    children = [c for c in body.named_children if c.type != "comment"]
    if len(children) == 1 and children[0].type == "statement_list":  # Go
        children = [c for c in children[0].named_children if c.type != "comment"]
    if python and children and _is_docstring(children[0]):
        children = children[1:]
    found = []
    previous_end = -1
    for child in children:
        start, end = child.start_point, child.end_point
        line = lines[start[0]]
        if start[0] <= previous_end or line[: start[1]].strip():
            return []  # two statements on one row, or one after other text: no clean insertion rows
        tail = lines[end[0]][end[1] :].strip()
        found.append(Statement(start[0], end[0], start[0] == end[0] and tail in ("", ";")))
        previous_end = end[0]
    return found


def _is_docstring(node: Node) -> bool:
    if node.type == "string":
        return True
    first = node.named_children[0] if node.named_children else None
    return node.type == "expression_statement" and first is not None and first.type == "string"
