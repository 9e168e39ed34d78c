"""Import merging (PROTOCOL.md §4b) for languages whose imports are one statement per line.

Go, Rust, Java, C#, Kotlin, Scala and Swift import with statements that name
one thing each (or a group, in Go and Rust): `import "net/http"`,
`use std::collections::{HashMap, HashSet};`, `import java.util.List;`,
`using System.Linq;`. Each is read as a set of *units* — one imported path
with its alias — so an import the file already has, or that a wildcard of
the file already covers, is dropped; the rest are added in the file's style:

- Go: a missing path joins the file's `import ( … )` group, one per line, at
  the group's indentation; a file without a group gets `import "x"` lines.
- Rust: a missing name joins a `use prefix::{…};` list of the same prefix;
  otherwise it becomes its own `use` statement.
- The others: the payload's statement, on its own line after the file's last
  top-level import.

A file without imports gets them after its package line (Go, Java, Kotlin,
Scala) or at its top, after a leading comment block that is not directly
above code, with a blank line between. Nothing existing is reordered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.find.document import indentation, line_end, line_start
from kopipasta.syntax.languages import LanguageSpec, parse

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from kopipasta.code.imports.imports import ImportPlan, TextEdit


@dataclass(frozen=True)
class _Rules:
    header_types: tuple[str, ...]  # the package line that imports go under, when there is no import
    wildcard: str  # the text that ends a wildcard import's path (`.*`, `::*`, `._`)
    separator: str  # between a path's parts, as units are written (`.` or `::`)


_RULES = {
    "go": _Rules(("package_clause",), "", "/"),
    "rust": _Rules(("inner_attribute_item",), "::*", "::"),  # `#![…]` stays first
    "java": _Rules(("package_declaration",), ".*", "."),
    "csharp": _Rules((), "", "."),
    "kotlin": _Rules(("package_header",), ".*", "."),
    "scala": _Rules(("package_clause",), "._", "."),
    "swift": _Rules((), "", "."),
}


def handles(spec: LanguageSpec) -> bool:
    return spec.grammar in _RULES


def _text(node: Node | None) -> str:
    return "" if node is None or node.text is None else node.text.decode("utf-8")


def _own_end(node: Node) -> int:
    """Where an import statement itself ends: Kotlin's grammar puts the comments after it inside it."""
    own = [c for c in node.children if "comment" not in c.type]
    return own[-1].end_byte if own else node.end_byte


def _import_text(node: Node) -> str:
    text = node.text or b""
    return text[: _own_end(node) - node.start_byte].decode("utf-8")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text).rstrip(";")


# --- units ------------------------------------------------------------------------------


def _go_units(node: Node) -> list[tuple[str, Node]]:
    """Each import_spec of a Go import declaration: `alias "path"` squashed, and its node."""
    specs = [c for c in node.named_children if c.type == "import_spec"]
    for group in (c for c in node.named_children if c.type == "import_spec_list"):
        specs += [c for c in group.named_children if c.type == "import_spec"]
    return [(_squash(_text(spec)), spec) for spec in specs]


def _rust_paths(node: Node, prefix: str) -> list[str]:
    """A use tree flattened to its paths: `a::{b, c as d}` → `a::b`, `a::c as d`."""
    kind = node.type
    if kind == "scoped_use_list":
        path = node.child_by_field_name("path")
        inner = prefix + (_squash(_text(path)) + "::" if path is not None else "")
        listed = node.child_by_field_name("list")
        return _rust_paths(listed, inner) if listed is not None else []
    if kind == "use_list":
        return [p for child in node.named_children if child.type not in ("line_comment", "block_comment")
                for p in _rust_paths(child, prefix)]
    if kind == "use_as_clause":
        return [prefix + _squash(_text(node.child_by_field_name("path"))) + " as " + _text(node.child_by_field_name("alias"))]
    if kind == "use_wildcard":
        return [prefix + _squash(_text(node))]
    return [prefix + _squash(_text(node))]


def _rust_units(node: Node) -> list[str]:
    argument = node.child_by_field_name("argument")
    if argument is None:
        return [_squash(_text(node))]
    visibility = next((c for c in node.children if c.type == "visibility_modifier"), None)
    prefix = _squash(_text(visibility)) + " " if visibility is not None else ""
    return [prefix + path for path in _rust_paths(argument, "")]


def _units(spec: LanguageSpec, node: Node) -> list[str]:
    if spec.grammar == "go":
        return [unit for unit, _ in _go_units(node)]
    if spec.grammar == "rust":
        return _rust_units(node)
    # Spaces kept, one each: `import a.B as C` must stay an alias, apart from `import a.*`.
    return [re.sub(r"\s+", " ", _import_text(node)).rstrip(";").strip()]


def _covered(rules: _Rules, unit: str, have: set[str]) -> bool:
    """Present as it is, or under a wildcard of its parent (`java.util.*` covers `java.util.List`)."""
    if unit in have:
        return True
    if not rules.wildcard or " as " in unit or unit.endswith(rules.wildcard):
        return False
    parent = unit.rsplit(rules.separator, 1)[0]
    return parent != unit and parent + rules.wildcard in have


# --- the file's imports -----------------------------------------------------------------


def _file_imports(spec: LanguageSpec, root: Node) -> list[Node]:
    """Top-level import statements; Kotlin keeps them inside an `import_list`."""
    found: list[Node] = []
    for child in root.children:
        if child.type in spec.import_types and not child.has_error:
            found.append(child)
        elif child.type == "import_list":
            found += [c for c in child.children if c.type in spec.import_types and not c.has_error]
    return found




def _last_row(node: Node) -> int:
    """The last row a node has text on: Rust's line comments end after their newline."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


def _header_anchor(spec: LanguageSpec, rules: _Rules, data: bytes, root: Node) -> int | None:
    """Where a file without imports gets its first: the end of its package line, else of its leading comments."""
    headers = [c for c in root.children if c.type in rules.header_types]
    if headers:
        return line_end(data, headers[-1].start_byte + len((headers[-1].text or b"").rstrip()))
    comments: list[Node] = []
    for child in root.children:
        if child.type in spec.comment_types:
            comments.append(child)
            continue
        # A comment directly above code (no blank line between) is that code's own.
        next_row = child.start_point[0]
        while comments and _last_row(comments[-1]) >= next_row - 1:
            next_row = comments.pop().start_point[0]
        break
    if not comments:
        return None
    last = comments[-1]
    return line_end(data, last.start_byte + len((last.text or b"").rstrip()))


# --- planning ---------------------------------------------------------------------------


def plan_imports(spec: LanguageSpec, data: bytes, tree: Tree, imports: list[str], newline: str) -> ImportPlan:
    """The edits that merge the payload's import statements into the file's (see the module doc)."""
    from kopipasta.code.imports.imports import ImportPlan, TextEdit

    rules = _RULES[spec.grammar]
    eol = newline.encode("ascii")
    existing = _file_imports(spec, tree.root_node)
    have = {unit for node in existing for unit in _units(spec, node)}
    go_group = _last_go_group(existing) if spec.grammar == "go" else None
    rust_lists = _rust_lists(existing) if spec.grammar == "rust" else {}
    group_lines: list[bytes] = []  # Go specs that join the file's import group
    joins: dict[int, tuple[Node, list[str]]] = {}  # Rust `use p::{…}` → names that join it
    statements: list[str] = []
    added = present = 0
    for text in imports:
        for node in _file_imports(spec, parse(spec, text.encode("utf-8")).root_node):
            units = _units(spec, node)
            missing = [u for u in units if not _covered(rules, u, have)]
            if not missing:
                present += 1
                continue
            added += 1
            have.update(missing)
            if spec.grammar == "go":
                specs = [_text(s) for unit, s in _go_units(node) if unit in missing]
                if go_group is not None:
                    group_lines += [s.encode("utf-8") for s in specs]
                else:
                    statements += [f"import {s}" for s in specs]
            elif spec.grammar == "rust":
                unjoined = _rust_join(missing, rust_lists, joins)
                if len(unjoined) == len(units):
                    statements.append(_import_text(node).replace("\n", newline))  # as the payload wrote it
                else:
                    statements += [f"use {unit};" for unit in unjoined]
            else:
                statements.append(_import_text(node).replace("\n", newline))
    edits: list[TextEdit] = []
    if group_lines and go_group is not None:
        edits += _join_go_group(data, go_group, group_lines, eol)
    for use_list, names in joins.values():
        edits += _join_use_list(use_list, names)
    if statements:
        block = eol.join(s.encode("utf-8") for s in statements)
        if existing:
            edits += _sorted_insertions(data, existing, statements, eol)
        else:
            anchor = _header_anchor(spec, rules, data, tree.root_node)
            if anchor is not None:
                following = data[anchor:].lstrip(b"\r")[1:].split(b"\n", 1)[0]
                edits.append(TextEdit(anchor, anchor, eol + eol + block + (eol if following.strip() else b"")))
            else:
                edits.append(TextEdit(0, 0, block + eol + eol))
    return ImportPlan(tuple(sorted(edits, key=lambda e: (e.start, e.end))), added, present)


def _sort_key(text: str) -> str:
    return re.sub(r"\s+", " ", text).rstrip(";").strip()


def _runs(nodes: list[Node]) -> list[list[Node]]:
    """The nodes in runs on consecutive lines; a blank line (or other code) starts a new run."""
    runs: list[list[Node]] = [[nodes[0]]]
    for node in nodes[1:]:
        if node.start_point[0] - runs[-1][-1].end_point[0] == 1:
            runs[-1].append(node)
        else:
            runs.append([node])
    return runs


def _last_run(nodes: list[Node]) -> list[Node]:
    return _runs(nodes)[-1]


def _shared_prefix(a: str, b: str) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def _run_for(runs: list[list[Node]], key: str) -> list[Node]:
    """The run of imports a new one belongs to: the one sharing the longest prefix with it, else the last."""
    best = max(
        range(len(runs)),
        key=lambda i: (max(_shared_prefix(key, _sort_key(_import_text(n))) for n in runs[i]), i),
    )
    return runs[best]


def _sorted_insertions(data: bytes, existing: list[Node], statements: list[str], eol: bytes) -> list[TextEdit]:
    """New statements in the file's last run of imports: in sorted place when the run is sorted, else after it.

    rustfmt, gofmt, ktlint and the IDEs keep imports sorted; a file that does
    not gets its new imports at the end, where they are easy to see.
    """
    from kopipasta.code.imports.imports import TextEdit

    runs = _runs(existing)
    edits: list[TextEdit] = []
    for statement in sorted(statements, key=_sort_key):
        run = _run_for(runs, _sort_key(statement))
        keys = [_sort_key(_import_text(node)) for node in run]
        in_order = keys == sorted(keys)
        following = next((n for n, k in zip(run, keys, strict=True) if k > _sort_key(statement)), None)
        if in_order and following is not None:
            start = line_start(data, following.start_byte)
            edits.append(TextEdit(start, start, statement.encode("utf-8") + eol))
        else:
            end = line_end(data, _own_end(run[-1]))
            edits.append(TextEdit(end, end, eol + statement.encode("utf-8")))
    return edits


def _last_go_group(existing: list[Node]) -> Node | None:
    """The last `import ( … )` list of the file, where new paths join."""
    for node in reversed(existing):
        group = next((c for c in node.named_children if c.type == "import_spec_list"), None)
        if group is not None:
            return group
    return None


def _go_path(spec_text: str) -> str:
    match = re.search(r"[\"`]([^\"`]*)[\"`]", spec_text)
    return match.group(1) if match else spec_text


def _join_go_group(data: bytes, group: Node, lines: list[bytes], eol: bytes) -> list[TextEdit]:
    """New specs in the file's `import ( … )`, where gofmt would put them.

    gofmt sorts each run of specs (runs are split by blank lines): when the
    last run is sorted, a new path goes in its sorted place in it; otherwise
    after the last spec.
    """
    from kopipasta.code.imports.imports import TextEdit

    specs = [c for c in group.named_children if c.type == "import_spec"]
    close = group.children[-1]
    if not specs:
        start = close.start_byte
        return [TextEdit(start, start, b"".join(b"\t" + line + eol for line in lines))]
    runs = _runs(specs)
    indent = indentation(data, runs[-1][-1].start_byte)
    edits: list[TextEdit] = []
    for line in sorted(lines, key=lambda text: _go_path(text.decode("utf-8"))):
        path = _go_path(line.decode("utf-8"))
        run = _go_run(runs, path)
        paths = [_go_path(_text(spec)) for spec in run]
        following = next((spec for spec, p in zip(run, paths, strict=True) if p > path), None)
        if paths == sorted(paths) and following is not None:
            start = line_start(data, following.start_byte)
            edits.append(TextEdit(start, start, indent + line + eol))
        else:
            end = line_end(data, run[-1].end_byte)
            edits.append(TextEdit(end, end, eol + indent + line))
    return edits


def _go_standard(path: str) -> bool:
    """A standard-library path: no dot in its first element (`net/http`, not `github.com/x`)."""
    return "." not in path.split("/", 1)[0]


def _go_run(runs: list[list[Node]], path: str) -> list[Node]:
    """The run a new path joins: the last run of its kind (standard library or not), else the last.

    goimports keeps the standard library in a run of its own, before the others.
    """
    standard = _go_standard(path)
    kind = [run for run in runs if all(_go_standard(_go_path(_text(spec))) == standard for spec in run)]
    return kind[-1] if kind else runs[-1]


def _rust_lists(existing: list[Node]) -> dict[str, Node]:
    """`use prefix::{…};` statements of the file, by prefix: where a name of that module joins."""
    lists: dict[str, Node] = {}
    for node in existing:
        argument = node.child_by_field_name("argument")
        if argument is None or argument.type != "scoped_use_list":
            continue
        if any(c.type == "visibility_modifier" for c in node.children):
            continue
        listed = argument.child_by_field_name("list")
        path = argument.child_by_field_name("path")
        if listed is not None and path is not None and listed.children and listed.children[-1].type == "}":
            lists.setdefault(_squash(_text(path)), listed)
    return lists


def _join_use_list(use_list: Node, names: list[str]) -> list[TextEdit]:
    """Names into a `{…}` list: in sorted place when it is sorted (rustfmt keeps it so), else last."""
    from kopipasta.code.imports.imports import TextEdit

    items = [c for c in use_list.named_children if "comment" not in c.type]
    texts = [_text(item) for item in items]
    close = use_list.children[-1]
    # One item per line (`{` and `}` on lines of their own): a new name gets its own line too.
    per_line = bool(items) and close.start_point[0] > items[-1].end_point[0] and items[0].start_point[0] > use_list.start_point[0]
    last = items[-1] if items else None
    trailing_comma = last is not None and last.next_sibling is not None and last.next_sibling.type == ","
    edits: list[TextEdit] = []
    for name in sorted(names):
        following = next((item for item, text in zip(items, texts, strict=True) if text > name), None)
        if texts == sorted(texts) and following is not None:
            if per_line and data_indent(following):
                start = following.start_byte - len(data_indent(following))
                edits.append(TextEdit(start, start, f"{data_indent(following)}{name},\n".encode()))
            else:
                edits.append(TextEdit(following.start_byte, following.start_byte, f"{name}, ".encode()))
        elif per_line and trailing_comma and last is not None and last.next_sibling is not None:
            end = last.next_sibling.end_byte
            edits.append(TextEdit(end, end, f"\n{data_indent(last)}{name},".encode()))
        else:
            edits.append(TextEdit(close.start_byte, close.start_byte, f", {name}".encode()))
    return edits


def data_indent(node: Node) -> str:
    """The whitespace before a node on its line, when nothing else stands there."""
    root = node
    while root.parent is not None:
        root = root.parent
    source = root.text or b""
    start = source.rfind(b"\n", 0, node.start_byte) + 1
    before = source[start : node.start_byte]
    return before.decode("utf-8") if not before.strip() else ""


def _rust_join(missing: list[str], lists: dict[str, Node], joins: dict[int, tuple[Node, list[str]]]) -> list[str]:
    """Missing Rust paths join a `use prefix::{…}` of the same prefix; the others are returned."""
    unjoined: list[str] = []
    for unit in missing:
        prefix, _, name = unit.rpartition("::")
        target = lists.get(prefix) if prefix and " " not in prefix else None
        if target is not None and name:
            joins.setdefault(target.start_byte, (target, []))[1].append(name)
        else:
            unjoined.append(unit)
    return unjoined
