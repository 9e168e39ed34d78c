"""A TOML payload: a value, a table's body lines or a restated `key = value`, and how it
is written in the file's own style (see data/toml.py)."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Any

from tree_sitter import Node

from kopipasta.data.common import Key, dedent
from kopipasta.data.json import value_at
from kopipasta.data.toml_tree import (
    key_node_of,
    key_parts,
    toml_parser,
    value_node_of,
)
from kopipasta.errors import PayloadError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


@dataclass(frozen=True)
class Payload:
    text: str  # "\n" line breaks, no common indentation
    value: Any
    is_body: bool  # `key = value` lines (a table's body), not one value


def read_payload(text: str, path: str, file: str) -> Payload:
    text = dedent(text)
    if not text.strip():
        raise PayloadError(f"Payload for '{path}' in {file} is empty", "give the TOML value to set")
    try:
        return Payload(text, tomllib.loads(f"v = {text}\n")["v"], False)
    except tomllib.TOMLDecodeError as err:
        as_value = str(err)
    try:
        return Payload(text, tomllib.loads(text + "\n"), True)
    except tomllib.TOMLDecodeError as err:
        problem = str(err)
    # A payload that does not start like `key =` or `[table]` was meant as one value: its
    # own error says where (the column less the `v = ` it was read behind).
    if not re.match(r"\s*(\[[^\[\]\"']*\]\s*$|[\w\"'.-]+\s*=)", text.split("\n")[0]):
        problem = re.sub(r"\(at line 1, column (\d+)\)",
                         lambda m: f"(at line 1, column {max(int(m.group(1)) - 4, 1)})", as_value)
    raise PayloadError(f"Payload for '{path}' in {file} is not valid TOML: {problem}",
                       "send a TOML value, or `key = value` lines for a table")


def restated(payload: Payload, keys: list[Key], holds_own_name: bool) -> Payload:
    """`line-length = 120` for `…line-length` is the value 120; `[tool.ruff]` + lines for
    `tool.ruff` is that table's body. Only a table that holds a key of its own name takes
    `name = …` as its new body."""
    if not payload.is_body or not keys:
        return payload
    lines = payload.text.split("\n")
    header = next((i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")), None)
    if header is not None and re.match(r"\s*\[[^\[]", lines[header]):
        try:
            named = tomllib.loads(lines[header] + "\n")
        except tomllib.TOMLDecodeError:
            named = None
        inner: Any = named
        for key in keys:
            inner = inner.get(key) if isinstance(inner, dict) and isinstance(key, str) else None
        if inner == {} and len(_flatten_keys(named)) == len(keys):
            body = "\n".join(lines[header + 1:])
            return Payload(dedent(body) if body.strip() else "", value_at(payload.value, keys), True)
    last = keys[-1]
    if holds_own_name or not isinstance(last, str) or list(payload.value) != [last]:
        return payload
    root = toml_parser().parse(payload.text.encode("utf-8", "surrogatepass")).root_node
    pairs = [c for c in root.named_children if c.type == "pair"]
    if len(pairs) != 1 or [c.type for c in root.named_children if c.type != "comment"] != ["pair"]:
        return payload
    raw = payload.text.encode("utf-8", "surrogatepass")
    key_node, value = key_node_of(pairs[0]), value_node_of(pairs[0])
    if key_node is None or value is None or key_parts(key_node, raw) != [last]:
        return payload
    comment = _TRAILING.match(raw, value.end_byte)  # the line's comment comes with the value
    text = raw[value.start_byte:comment.end() if comment else value.end_byte].decode("utf-8", "surrogatepass")
    return Payload(text, payload.value[last], False)


def _flatten_keys(data: Any) -> list[str]:
    keys: list[str] = []
    while isinstance(data, dict) and len(data) == 1:
        key = next(iter(data))
        keys.append(key)
        data = data[key]
    return keys




def key_written(key: str) -> str:
    return key if BARE_KEY.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def string_like(text: str, value: Any, old: Node, raw: bytes) -> str:
    """The payload's string in the quotes of the string it replaces, when they spell it."""
    if not isinstance(value, str) or old.type != "string" or _comments_in(text):
        return text  # (requoted from its value, the payload's own comment would be lost)
    old_quote = raw[old.start_byte:old.start_byte + 1]
    if text[:1].encode() == old_quote or raw[old.start_byte:old.start_byte + 3] in (b'"""', b"'''"):
        return text
    if old_quote == b"'":
        if "'" in value or "\n" in value or not value.isprintable():
            return text
        candidate = f"'{value}'"
    else:
        candidate = json.dumps(value, ensure_ascii=False)
    try:
        same = tomllib.loads(f"v = {candidate}")["v"] == value
    except tomllib.TOMLDecodeError:
        same = False
    return candidate if same else text


def spread_like(text: str, old: Node, raw: bytes, base: str) -> str:
    """A one-line array written one item a line, as the array it replaces is."""
    if old.type != "array" or old.start_point.row == old.end_point.row or "\n" in text:
        return text
    items = [c for c in old.named_children if c.type != "comment"]
    if not items or items[0].start_point.row == old.start_point.row:
        return text
    payload_root = toml_parser().parse(f"v = {text}".encode("utf-8", "surrogatepass")).root_node
    pair = payload_root.named_children[0] if payload_root.named_children else None
    array = value_node_of(pair) if pair is not None else None
    if array is None or array.type != "array":
        return text
    new_raw = f"v = {text}".encode("utf-8", "surrogatepass")
    new_items = [new_raw[c.start_byte:c.end_byte].decode("utf-8", "surrogatepass")
                 for c in array.named_children if c.type != "comment"]
    if not new_items or len(array.named_children) != len(new_items):
        return text
    line_start = raw.rfind(b"\n", 0, items[0].start_byte) + 1
    indent = raw[line_start:items[0].start_byte].decode("utf-8", "surrogatepass")
    trailing = re.match(rb"\s*,", raw[items[-1].end_byte:]) is not None
    lines = [indent + item + ("," if i < len(new_items) - 1 or trailing else "") for i, item in enumerate(new_items)]
    return "[\n" + "\n".join(lines) + "\n" + base + "]"


def _comments_in(text: str) -> list[tuple[int, str]]:
    """The comments of a one-value payload: (row, text without `#`)."""
    if "#" not in text:
        return []
    raw = f"v = {text}".encode("utf-8", "surrogatepass")
    found: list[tuple[int, str]] = []
    stack = [toml_parser().parse(raw).root_node]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            comment = raw[node.start_byte:node.end_byte].decode("utf-8", "surrogatepass")
            found.append((node.start_point.row, comment.lstrip("#").strip()))
        stack.extend(node.children)
    return found


_TRAILING = re.compile(rb"[ \t]+#[^\r\n]*")


def trailing_comment_end(raw: bytes, end: int, text: str) -> int:
    """Where a value's replaced span ends: before the comment after it on its line (that
    comment stays, describing the key), unless the payload brings a comment for its last
    line (it replaces the old one) or restates that comment (it has placed it itself)."""
    found = _TRAILING.match(raw, end)
    if found is None:
        return end
    comments = _comments_in(text)
    old = raw[end:found.end()].decode("utf-8", "surrogatepass").strip().lstrip("#").strip()
    last_row = text.count("\n")
    if any(row == last_row for row, _ in comments) or any(words == old for _, words in comments):
        return found.end()
    return end


def with_newline(text: str, newline: str) -> str:
    return text.replace("\n", newline)


def as_one_value(payload: Payload, path: str, file: str, what: str) -> Payload:
    """The payload as one value: `key = value` lines become an inline table, when each
    pair is one line and there are no [headers] or comments to lose."""
    if payload.is_body:
        if payload.value == {}:
            raise PayloadError(f"Payload for '{path}' in {file} holds no value", "send the value to set")
        root = toml_parser().parse(payload.text.encode("utf-8", "surrogatepass")).root_node
        pairs = root.named_children
        if all(p.type == "pair" and p.start_point.row == p.end_point.row and not any(
                c.type == "comment" for c in p.children) for p in pairs):
            raw = payload.text.encode("utf-8", "surrogatepass")
            inline = "{ " + ", ".join(raw[p.start_byte:p.end_byte].decode("utf-8", "surrogatepass")
                                      for p in pairs) + " }"
            return Payload(inline, payload.value, False)
        raise PayloadError(f"Payload for '{path}' in {file} is `key = value` lines, but {what} takes one "
                           "value", "send the value alone, e.g. 120 or \"text\" or [1, 2]")
    return payload


def body_text(payload: Payload, path: str, file: str) -> str:
    """A table's new body: the payload's lines, or an inline table's pairs one a line."""
    if payload.is_body:
        if re.search(r"(?m)^\s*\[", payload.text):
            raise PayloadError(f"Payload for '{path}' in {file} holds [table] headers of its own",
                               "send the table's `key = value` lines, and each sub-table in its own block")
        return payload.text
    if not isinstance(payload.value, dict):
        raise PayloadError(f"Payload for '{path}' in {file} is not a table, but '{path}' is a [table] "
                           "section", "send its `key = value` lines")
    raw = f"v = {payload.text}".encode("utf-8", "surrogatepass")
    root = toml_parser().parse(raw).root_node
    table = value_node_of(root.named_children[0]) if root.named_children else None
    if table is None or table.type != "inline_table":
        raise PayloadError(f"Payload for '{path}' in {file} is not a table", "send its `key = value` lines")
    return "\n".join(raw[p.start_byte:p.end_byte].decode("utf-8", "surrogatepass")
                     for p in table.named_children if p.type == "pair")
