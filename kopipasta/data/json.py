"""TARGET_PATH for JSON and JSON with comments (PROTOCOL.md §5).

Path syntax: keys joined by dots (`compilerOptions.paths`, `dependencies.@types/node`),
`[n]` for an array index, `["a.b"]` or `['a.b']` for a key holding a dot or brackets,
an optional leading `$.`; a bare `$` is the root value.

Only the bytes of the one value (or the one new member) change. A payload equal to the
value already there leaves the file untouched, byte for byte.

The new value is re-serialised from its data by one rule, applied to every container in it
(the value itself and each one nested in it). Scalars and empty containers are written
inline. A non-empty container is written on one line (`["src/*"]`, `["error", {"max": 2}]`)
when both hold:

- it fits: its line, up to the end of the container and its comma, stays within the
  file's line length: 80 columns, or the file's longest line if that is longer (a tab
  counts 4 columns);
- the evidence says one line, the first that applies deciding: (1) the container of the
  same kind (object or array, not empty) that the file holds at that place; (2) else the
  file's non-empty containers of the same kind beside that place, when they agree (all on
  one line, or all spread); (3) else how the payload wrote it.

Otherwise it is laid out one member a line in the file's indent unit, at the depth of the
line it starts on, and the rule goes on to its members. "That place" is the same key in
an object and the same index in an array. A file that is all one line stays one line.
So a payload that adds `"@ui/*": ["ui/*"]` to a tsconfig whose `paths` writes each alias
on one line writes the new alias the same way, however the chat model spread it.

Comments and trailing commas in a payload are accepted for JSONC files but not carried
over: the value is written from its data, so the payload's comments are dropped.

Files are parsed with Tree-sitter's JSON grammar, which accepts comments anywhere;
trailing commas are accepted only in JSONC files (see `allows_comments`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cached_property
from pathlib import PurePosixPath
from typing import Any

from tree_sitter import Node, Parser

from kopipasta.errors import (
    AmbiguousTarget,
    PayloadError,
    SyntaxCheckError,
    TargetNotFound,
    UnsupportedFile,
)
from kopipasta.syntax.languages import first_error, grammar_parser

Key = str | int  # a str is an object key, an int an array index
Edit = tuple[int, int, str]  # byte span of the original file, and the text that replaces it

# The JSON files whose own tools read comments and trailing commas (JSONC).
_JSONC_NAMES = ("tsconfig*.json", "jsconfig*.json", "devcontainer.json", ".devcontainer.json",
                ".eslintrc.json", ".babelrc.json")
_JSONC_FOLDERS = (".vscode", ".devcontainer")
_SEGMENT = re.compile(
    r"""\[\s*(?:(?P<index>\d+)|(?P<dq>"(?:[^"\\]|\\.)*")|'(?P<sq>[^']*)')\s*\]|(?P<bare>[^.\[\]]+)"""
)
_PATH_HINT = 'write keys joined by dots, [n] for an array index, ["a.b"] for a key holding a dot'
_KIND = {"object": "an object", "array": "an array", "string": "a string", "number": "a number",
         "true": "a boolean", "false": "a boolean", "null": "null"}


def is_json_file(path: str) -> bool:
    return PurePosixPath(path.replace("\\", "/")).suffix.lower() in (".json", ".jsonc")


def allows_comments(path: str) -> bool:
    file = PurePosixPath(path.replace("\\", "/").lower())
    if file.suffix == ".jsonc":
        return True
    return file.suffix == ".json" and (
        file.parent.name in _JSONC_FOLDERS or any(fnmatchcase(file.name, p) for p in _JSONC_NAMES))


def set_json_value(source: str, path: str, payload: str, *, file: str, allow_comments: bool) -> str:
    """Return `source` with the value at `path` set to the JSON value `payload`."""
    try:
        return _set_value(source, path.strip(), payload, file, allow_comments)
    except RecursionError:  # json's own parser and printer recurse once per nesting level
        raise UnsupportedFile(f"{file} or the payload for '{path}' is nested too deeply") from None
    except UnicodeError:  # only text that was never valid UTF-8 gets here
        raise UnsupportedFile(f"{file} holds text that is not valid UTF-8") from None


def _set_value(source: str, path: str, payload: str, file: str, allow_comments: bool) -> str:
    keys = _parse_path(path, file)
    raw, root, data, commas = _load(source, file, allow_comments)
    value, payload_node = _parse_payload(payload, path, file, allow_comments)
    node, parent = _find(root, raw, keys, path, file)
    newline = "\r\n" if "\r\n" in source[: source.find("\n") + 1] else "\n"
    layout = _Layout(_indent_unit(raw, root), newline, one_line="\n" not in source.strip(),
                     width=max([_LINE_WIDTH, *map(_columns, source.splitlines())]))
    if node is not None:
        if _dump(_value_at(data, keys)) == _dump(value):
            return source
        place = _Place(raw, node, _beside(node))
        before = _columns(raw[raw.rfind(b"\n", 0, node.start_byte) + 1:node.start_byte].decode(
            "utf-8", "surrogatepass"))
        comma = 1 if re.match(rb"[ \t]*,", raw[node.end_byte:]) else 0
        text = layout.render(value, _line_indent(raw, node.start_byte), before, comma, place, payload_node)
        edits = [(node.start_byte, node.end_byte, text)]
    else:
        assert parent is not None and isinstance(keys[-1], str)
        edits = _new_member_edits(raw, parent, keys[-1], value, commas, layout, payload_node)
    for start, end, text in sorted(edits, reverse=True):
        raw = raw[:start] + text.encode("utf-8", "surrogatepass") + raw[end:]
    result = raw.decode("utf-8", "surrogatepass")
    _verify(result, _with_value(data, keys, value), path, file, allow_comments)
    return result


def load_jsonc(source: str, file: str) -> Any:
    """The data of a JSON text that may hold comments and trailing commas (a data fragment's reading)."""
    return _load(source, file, True)[2]


def _parse_path(path: str, file: str) -> list[Key]:
    """Return the keys and indices of `path`; PayloadError names the column it cannot read."""
    if path == "$":
        return []
    skipped = 2 if path.startswith("$.") else 1 if path.startswith("$[") else 0
    rest, pos, bare_ok = path[skipped:], 0, True
    keys: list[Key] = []
    while True:
        match = _SEGMENT.match(rest, pos)
        key = _segment_key(match) if match and (bare_ok or match["bare"] is None) else None
        if match is None or key is None:
            raise PayloadError(f"TARGET_PATH '{path}' for {file} is malformed at column "
                               f"{skipped + pos + 1}", _PATH_HINT)
        keys.append(key)
        pos = match.end()
        if pos == len(rest):
            return keys
        bare_ok = rest[pos] == "."  # a bare key must follow a dot; a bracket may follow anything
        pos += 1 if bare_ok else 0


def _segment_key(match: re.Match[str]) -> Key | None:
    try:  # int() refuses over 4300 digits, json.loads a bad escape
        if match["index"] is not None:
            return int(match["index"])
        if match["dq"] is not None:
            return str(json.loads(match["dq"]))
        return match["sq"] if match["sq"] is not None else match["bare"]
    except ValueError:
        return None


def _render_path(keys: list[Key]) -> str:
    return "$" + "".join(
        f"[{k}]" if isinstance(k, int)
        else f"[{json.dumps(k, ensure_ascii=False)}]" if not k or re.search(r"[.\[\]]|^\s|\s$", k)
        else f".{k}" for k in keys)


def _load(source: str, file: str, allow_comments: bool) -> tuple[bytes, Node, Any, list[int]]:
    """Return the file's bytes, its root value node, its data and its tolerated trailing commas."""
    raw = source.encode("utf-8", "surrogatepass")
    root = _parse(raw)
    commas = _trailing_commas(root) if allow_comments and root.has_error else []
    if commas:  # the grammar has no trailing commas: blank them so the tree comes out clean
        root = _parse(raw, commas)
    try:
        data = _loads(_plain_json(raw, root, commas))
    except ValueError as err:
        raise SyntaxCheckError(f"{file} is not valid JSON: {_describe(err)}") from None
    values = _members(root)
    error = first_error(root)
    if error is not None or len(values) != 1:
        line, column = _line_column(raw, error.start_byte if error else 0)
        raise SyntaxCheckError(f"{file} is not valid JSON: syntax error at line {line}, column {column}")
    return raw, values[0], data, commas


def _parse_payload(payload: str, path: str, file: str, allow_comments: bool) -> tuple[Any, _Place | None]:
    """Return the payload's value, and where the payload wrote it (None if the tree is unsure)."""
    if not payload.strip():
        raise PayloadError(f"Payload for '{path}' in {file} is empty", "give the JSON value to set")
    raw = payload.encode("utf-8", "surrogatepass")
    root = _parse(raw)
    commas = _trailing_commas(root) if allow_comments and root.has_error else []
    if commas:
        root = _parse(raw, commas)
    text = _plain_json(raw, root, commas) if allow_comments else payload
    try:
        value = _loads(text, finite=True)
    except ValueError as err:
        raise PayloadError(f"Payload for '{path}' in {file} is not valid JSON: {_describe(err)}") from None
    values = _members(root)
    return value, (_Place(raw, values[0], []) if len(values) == 1 and not root.has_error else None)


def _verify(result: str, expected: Any, path: str, file: str, allow_comments: bool) -> None:
    """Guard against our own splicing bugs: the new file must hold exactly the expected data."""
    try:
        data = _load(result, file, allow_comments)[2]
    except SyntaxCheckError as err:
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {err.message}") from None
    if _dump(data) != _dump(expected):
        raise SyntaxCheckError(f"Setting '{path}' in {file} would change more than that value",
                               "nothing was written; this is a kopipasta bug, please report it")


def _parser() -> Parser:
    return grammar_parser("json")


def _parse(raw: bytes, blank_commas: list[int] | None = None) -> Node:
    """Return the syntax tree of `raw`, with every byte offset in place. The data is read by
    json.loads, the tree only gives the spans, so two fixes that keep offsets are safe."""
    # tree-sitter-json before its PR #64 rejects a plus-signed exponent (1e+5): 1e05 is the same
    # kind of token, one byte for one.
    patched = bytearray(re.sub(rb"([0-9][eE])\+(?=[0-9])", rb"\g<1>0", raw))
    for comma in blank_commas or []:
        patched[comma] = ord(" ")
    return _parser().parse(bytes(patched)).root_node


def _trailing_commas(root: Node) -> list[int]:
    """Return the byte offsets of commas right before a `}` or `]`, comments between or not."""
    commas, pending, stack = [], None, [root]
    while stack:  # the tokens in order, strings whole; iterative, as files may nest deeply
        node = stack.pop()
        if node.child_count and node.type != "string":
            stack.extend(reversed(node.children))
        elif node.type in ("}", "]") and pending is not None:
            commas.append(pending)
            pending = None
        elif node.type != "comment" and not node.is_missing:
            pending = node.start_byte if node.type == "," else None
    return commas


def _plain_json(raw: bytes, root: Node, commas: list[int]) -> str:
    """Return the text with comments and trailing commas blanked, for json.loads."""
    spans = [(c, c + 1) for c in commas]
    for match in re.finditer(rb"/[/*]", raw):  # asking the tree at each candidate beats a full walk
        node = root.descendant_for_byte_range(match.start(), match.start() + 1)
        if node is not None and node.type == "comment" and node.start_byte == match.start():
            spans.append((node.start_byte, node.end_byte))
    parts, pos = [], 0
    for start, end in sorted(spans):
        # one blank per character, line breaks kept: json.loads reports the original positions
        parts += [raw[pos:start].decode("utf-8", "surrogatepass"),
                  re.sub(r"[^\r\n]", " ", raw[start:end].decode("utf-8", "surrogatepass"))]
        pos = end
    return "".join([*parts, raw[pos:].decode("utf-8", "surrogatepass")])


def _loads(text: str, *, finite: bool = False) -> Any:
    def reject_constant(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")

    def finite_float(literal: str) -> float:
        number = float(literal)
        if finite and number in (float("inf"), float("-inf")):
            raise ValueError(f"the number {literal} is out of range")
        return number

    return json.loads(text, parse_constant=reject_constant, parse_float=finite_float)


def _dump(data: Any, indent: str | None = None) -> str:
    text = json.dumps(data, ensure_ascii=False, indent=indent)
    # A lone surrogate from a "\ud800" escape cannot be written as UTF-8: keep it escaped.
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)


def _describe(err: ValueError) -> str:
    if isinstance(err, json.JSONDecodeError):
        return f"{err.msg} at line {err.lineno}, column {err.colno}"
    return str(err)


def _line_column(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return raw.count(b"\n", 0, offset) + 1, len(raw[line_start:offset].decode("utf-8", "replace")) + 1


def _line_indent(raw: bytes, offset: int) -> str:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    match = re.match(rb"[ \t]*", raw[line_start:offset])
    return match.group().decode() if match else ""


def _members(node: Node) -> list[Node]:
    """Return the pairs of an object, the items of an array, the value of a document."""
    return [c for c in node.named_children if c.type != "comment"]


def _value_of(member: Node) -> Node | None:
    return member.child_by_field_name("value") if member.type == "pair" else member


def _key_of(pair: Node, raw: bytes) -> str | None:
    key = pair.child_by_field_name("key")
    text = raw[key.start_byte:key.end_byte] if key else b""
    if b"\\" in text:
        return str(json.loads(text))
    return text[1:-1].decode("utf-8", "surrogatepass") if text else None


def _find(root: Node, raw: bytes, keys: list[Key], path: str, file: str) -> tuple[Node | None, Node | None]:
    """Return the value node at `keys`, or (None, the object that is to receive the last key)."""
    node, failed = root, f"Path '{path}' not found in {file}"
    for depth, key in enumerate(keys):
        where, kind = _render_path(keys[:depth]), _KIND.get(node.type, node.type)
        if isinstance(key, int):
            if node.type != "array":
                raise TargetNotFound(f"{failed}: {where} is {kind}, not an array")
            items = _members(node)
            if key >= len(items):
                count = f"{len(items)} item" + ("" if len(items) == 1 else "s")
                raise TargetNotFound(f"{failed}: index {key} is out of range at {where} ({count})")
            found: Node | None = items[key]
        else:
            if node.type != "object":
                raise TargetNotFound(f"{failed}: {where} is {kind}, not an object")
            names = [_key_of(p, raw) for p in _members(node)]
            if names.count(key) > 1:
                raise AmbiguousTarget(f"Path '{path}' is ambiguous in {file}: key '{key}' "
                                      f"appears {names.count(key)} times at {where}")
            if key not in names:
                if depth == len(keys) - 1:
                    return None, node
                raise TargetNotFound(f"{failed}: no key '{key}' at {where} ({_key_list(names)})")
            found = _value_of(_members(node)[names.index(key)])
        if found is None:
            raise TargetNotFound(f"{failed}: {where} holds no value for {key!r}")
        node = found
    return node, None


def _key_list(names: list[str | None]) -> str:
    shown = [n for n in names if n is not None]
    if not shown:
        return "the object is empty"
    more = f", and {len(shown) - 10} more" if len(shown) > 10 else ""
    return "keys: " + ", ".join(shown[:10]) + more


def _value_at(data: Any, keys: list[Key]) -> Any:
    for key in keys:
        data = data[key]
    return data


def _with_value(data: Any, keys: list[Key], value: Any) -> Any:
    if not keys:
        return value
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    head, rest = keys[0], keys[1:]
    copy[head] = _with_value(data[head], rest, value) if rest else value
    return copy


def _indent_unit(raw: bytes, root: Node) -> str:
    """Return the file's indent unit, read off the first container laid out one member a line."""
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        members = _members(node) if node.type in ("object", "array") else []
        if members and members[0].start_point.row > node.start_point.row:
            outer, inner = _line_indent(raw, node.start_byte), _line_indent(raw, members[0].start_byte)
            if inner.startswith(outer) and inner != outer:
                return inner[len(outer):]
        stack.extend(v for v in map(_value_of, reversed(members)) if v is not None)
    return "  "


_LINE_WIDTH = 80  # the line length a file is taken to use, unless its own lines are longer


def _columns(text: str) -> int:
    return len(text) + 3 * text.count("\t")


def _one_row(node: Node) -> bool:
    return node.start_point.row == node.end_point.row


def _beside(node: Node) -> list[Node]:
    """Return the values of the container that holds `node`, itself included."""
    container = node.parent.parent if node.parent is not None and node.parent.type == "pair" else node.parent
    if container is None or container.type not in ("object", "array"):
        return []
    return [v for v in map(_value_of, _members(container)) if v is not None]


@dataclass(frozen=True)
class _Place:
    """A value node in the file or in the payload, and the values beside it in the file."""

    raw: bytes
    node: Node | None
    beside: list[Node]

    @cached_property
    def _inside(self) -> tuple[list[Node], dict[str, Node]]:
        """The values of this container, and its object members' values by key."""
        members = _members(self.node) if self.node is not None and self.node.type in ("object", "array") else []
        by_key: dict[str, Node] = {}
        for member in members:  # json.loads keeps the last of duplicate keys: so does this
            key, value = _key_of(member, self.raw) if member.type == "pair" else None, _value_of(member)
            if key is not None and value is not None:
                by_key[key] = value
        return [v for v in map(_value_of, members) if v is not None], by_key

    def child(self, key: Key) -> _Place:
        """Return the place of the member `key` inside this one (its node None if missing)."""
        node = self.node
        if node is None or node.type != ("array" if isinstance(key, int) else "object"):
            return _Place(self.raw, None, [])
        values, by_key = self._inside
        if isinstance(key, int):
            return _Place(self.raw, values[key] if key < len(values) else None, values)
        return _Place(self.raw, by_key.get(key), values)


@dataclass(frozen=True)
class _Layout:
    """How the file writes JSON: its indent unit, its newline, whether it is all one line, and
    the line length it uses."""

    unit: str
    newline: str
    one_line: bool
    width: int

    def render(self, value: Any, base: str, before: int, after: int, place: _Place,
               payload: _Place | None) -> str:
        """Return `value` as JSON text by the module's rule. `base` starts each line after the
        first; `before` columns precede the value on its line, `after` follow it (its comma)."""
        if self.one_line or not value or not isinstance(value, (dict, list)):
            return _dump(value)
        budget = self.width - before - after
        if self._one_line_wanted(value, place, payload) and _fits(value, budget):
            return _dump(value)
        inner, lines = base + self.unit, []
        items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        for i, (key, item) in enumerate(items):
            head = _dump(key) + ": " if isinstance(value, dict) else ""
            comma = "," if i < len(items) - 1 else ""
            text = self.render(item, inner, _columns(inner + head), len(comma), place.child(key),
                               payload.child(key) if payload is not None else None)
            lines.append(inner + head + text + comma)
        # json.dumps escapes the newlines inside strings: each line break here is the layout's
        brackets = "{}" if isinstance(value, dict) else "[]"
        return brackets[0] + self.newline + self.newline.join(lines) + self.newline + base + brackets[1]

    @staticmethod
    def _one_line_wanted(value: Any, place: _Place, payload: _Place | None) -> bool:
        kind = "object" if isinstance(value, dict) else "array"
        same = place.node
        if same is not None and same.type == kind and _members(same):
            return _one_row(same)
        rows = {_one_row(n) for n in place.beside if n.type == kind and _members(n)}
        if len(rows) == 1:
            return rows.pop()
        if payload is None or payload.node is None:
            return False
        return _one_row(payload.node)


def _fits(value: Any, budget: int) -> bool:
    return _inline_length(value, budget) is not None


def _inline_length(value: Any, budget: int) -> int | None:
    """Return `len(_dump(value))` if it is at most `budget`, else None, without writing out
    more of a long value than the budget."""
    if budget < 0 or isinstance(value, str) and len(value) + 2 > budget:
        return None
    if not isinstance(value, (dict, list)):
        text = _dump(value)
        return len(text) if len(text) <= budget else None
    used = 2 + 2 * max(len(value) - 1, 0)  # the brackets, and ", " between items
    for key, item in (value.items() if isinstance(value, dict) else ((None, v) for v in value)):
        if key is not None:
            used += len(_dump(key)) + 2  # the key and its ": "
        inline = _inline_length(item, budget - used)
        if inline is None:
            return None
        used += inline
    return used if used <= budget else None


def _new_member_edits(raw: bytes, obj: Node, key: str, value: Any, commas: list[int],
                      layout: _Layout, payload: _Place | None) -> list[Edit]:
    """Return the edits adding `key` as the last member of `obj`, laid out like its siblings."""
    members, newline = _members(obj), layout.newline
    place = _Place(raw, None, [v for v in map(_value_of, members) if v is not None])
    head = _dump(key) + ": "
    if not members:
        outer = _line_indent(raw, obj.start_byte)
        member = head + layout.render(value, outer + layout.unit, _columns(outer + layout.unit + head), 0,
                                      place, payload)
        brace_end, close_start = obj.children[0].end_byte, obj.children[-1].start_byte
        if layout.one_line:
            return [(brace_end, brace_end, member)]
        inside = newline + outer + layout.unit + member
        if raw[brace_end:close_start].strip():  # keep a comment that sits in the empty object
            return [(brace_end, brace_end, inside)]
        return [(brace_end, close_start, inside + newline + outer)]
    last = members[-1]
    base = _line_indent(raw, last.start_byte)
    spread = last.start_point.row > obj.start_point.row
    comma = next((c for c in commas if last.end_byte <= c < obj.end_byte), None)
    insert_at = last.end_byte if comma is None else comma + 1
    for child in obj.children:  # a comment on the last member's line stays with it
        if child.type == "comment" and child.start_byte >= insert_at and b"\n" not in raw[insert_at:child.start_byte]:
            # a line comment's token takes in the \r of a CRLF: the new line goes before it
            insert_at = child.end_byte - raw[child.start_byte:child.end_byte].endswith(b"\r")
    if spread:
        gap, before = newline + base, _columns(base + head)
    else:  # on the object's own line, after what is there already
        line = raw[raw.rfind(b"\n", 0, insert_at) + 1:insert_at].decode("utf-8", "surrogatepass")
        gap, before = " ", _columns(line) + len(", " + head)
    text = gap + head + layout.render(value, base, before, 0 if comma is None else 1, place, payload)
    if comma is not None:  # the file ends its members with commas: so does the new one
        return [(insert_at, insert_at, text + ",")]
    if insert_at == last.end_byte:
        return [(insert_at, insert_at, "," + text)]
    return [(last.end_byte, last.end_byte, ","), (insert_at, insert_at, text)]


# The path syntax and its messages are shared with YAML and TOML (kopipasta.data).
parse_path = _parse_path
render_path = _render_path
key_list = _key_list
load_json = _load
key_of = _key_of
members = _members
value_at = _value_at
with_value = _with_value
