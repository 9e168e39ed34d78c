"""The TOML file as TARGET_PATH reads it: the root table and each [table] / [[array]]
element as a section, with the `key = value` pairs written in it and their full paths."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field

from tree_sitter import Node, Parser

from kopipasta.data.common import Key
from kopipasta.syntax.languages import grammar_parser

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

KEY_TYPES = ("bare_key", "quoted_key", "dotted_key")


TablePath = tuple[Key, ...]


def toml_parser() -> Parser:
    return grammar_parser("toml")


@dataclass
class Section:
    path: TablePath  # concrete: `[[bin]]` elements carry their index
    node: Node | None  # table / table_array_element; None for the root table
    entries: list[Entry] = field(default_factory=list)


@dataclass
class Entry:
    path: TablePath  # the full path of the value
    pair: Node
    value: Node
    section: Section
    dotted: int  # how many key parts the pair's own key has


def key_parts(node: Node, raw: bytes) -> list[str]:
    if node.type == "dotted_key":
        return [part for child in node.named_children for part in key_parts(child, raw)]
    text = raw[node.start_byte:node.end_byte].decode("utf-8", "surrogatepass")
    if node.type == "bare_key":
        return [text]
    return [next(iter(tomllib.loads(f"{text} = 0")))]


def key_node_of(pair: Node) -> Node | None:
    return next((c for c in pair.named_children if c.type in KEY_TYPES), None)


def value_node_of(pair: Node) -> Node | None:
    values = [c for c in pair.named_children if c.type not in (*KEY_TYPES, "comment")]
    return values[0] if values else None


def sections_of(raw: bytes, root: Node) -> list[Section]:
    """The root table and each `[table]` / `[[array]]` element, in file order, with the
    `key = value` pairs written in each."""
    root_section = Section((), None)
    sections = [root_section]
    counts: dict[TablePath, int] = {}
    current = root_section
    for child in root.named_children:
        if child.type == "pair":
            _add_entry(current, child, raw)
            continue
        if child.type not in ("table", "table_array_element"):
            continue
        key = key_node_of(child)
        parts = key_parts(key, raw) if key is not None else []
        concrete: list[Key] = []
        for index, part in enumerate(parts):
            concrete.append(part)
            last = index == len(parts) - 1
            if last and child.type == "table_array_element":
                count = counts.get(tuple(concrete), 0)
                counts[tuple(concrete)] = count + 1
                concrete.append(count)
            elif tuple(concrete) in counts:
                concrete.append(counts[tuple(concrete)] - 1)
        current = Section(tuple(concrete), child)
        sections.append(current)
        for pair in child.named_children:
            if pair.type == "pair":
                _add_entry(current, pair, raw)
    return sections


def _add_entry(section: Section, pair: Node, raw: bytes) -> None:
    key, value = key_node_of(pair), value_node_of(pair)
    if key is None or value is None:
        return
    parts = key_parts(key, raw)
    section.entries.append(Entry((*section.path, *parts), pair, value, section, len(parts)))


def array_tables(sections: list[Section]) -> set[TablePath]:
    return {s.path[:-1] for s in sections if s.node is not None and s.node.type == "table_array_element"}


def line_indent(raw: bytes, offset: int) -> str:
    start = raw.rfind(b"\n", 0, offset) + 1
    match = re.match(rb"[ \t]*", raw[start:offset])
    return match.group().decode() if match else ""


def line_end(raw: bytes, offset: int) -> int:
    """The offset of the line break ending the line of `offset` (before a \\r), or the end."""
    end = raw.find(b"\n", offset)
    if end < 0:
        return len(raw)
    return end - 1 if raw[end - 1:end] == b"\r" else end


def header_end(raw: bytes, node: Node) -> int:
    closing = next(c for c in node.children if c.type in ("]", "]]"))
    return line_end(raw, closing.end_byte)
