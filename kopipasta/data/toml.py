"""TARGET_PATH for TOML files (PROTOCOL.md §5).

The path syntax is JSON's: `tool.ruff.line-length`, `bin[0].name` for the first `[[bin]]`,
`["a.b"]` for a key holding a dot. A path names data, however the file spells it: a
`[table]` section, a dotted key (`a.b = 1`), a key inside an inline table or an array.

What can be set:

- a value (`key = value`, at any depth, inside inline tables and arrays too): the payload is
  a TOML value, or the `key = value` line itself;
- a `[table]` or one `[[array]]` element: the payload is the table's body (`key = value`
  lines), its `[header]` line, or an inline table, and it replaces the section's lines
  from below its header to its last key (comments after that stay with what follows);
- a new key in a table that has its own section, in the root, in an inline table, or in a
  table spelt by dotted keys (it is written with the same dotted prefix); a new table sent
  as `key = value` lines under a table defined by `[headers]` becomes a new `[section]`
  after that table's last section.

What fails, and says so: a table that exists only through its sub-tables or dotted keys
(`tool` in a pyproject, set one of its tables); a `[table]` that continues in sub-table
sections (`[tool.ruff]` with `[tool.ruff.lint]`); a whole array of tables; a missing parent;
an index out of range; a payload that is not TOML.

Style: a string takes the quotes of the string it replaces (`'literal'` or `"basic"`) when
they spell the same string; an array sent on one line for an array the file spreads one
item a line is spread the same way. Everything outside the span is kept byte for byte, and
the result must load (tomllib) to the old data with exactly that value set.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from tree_sitter import Node, Parser
from tree_sitter_language_pack import get_parser

from kopipasta.data.common import (
    Key,
    TopKey,
    key_list,
    newline_of,
    out_of_range,
    parse_path,
    render_path,
    same_data,
)
from kopipasta.errors import PayloadError, SyntaxCheckError, TargetNotFound

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

_KEYS = ("bare_key", "quoted_key", "dotted_key")
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_Path = tuple[Key, ...]


@lru_cache(maxsize=1)
def _parser() -> Parser:
    return get_parser("toml")


# --- the file as sections and entries ---------------------------------------------------------


@dataclass
class _Section:
    path: _Path  # concrete: `[[bin]]` elements carry their index
    node: Node | None  # table / table_array_element; None for the root table
    entries: list[_Entry] = field(default_factory=list)


@dataclass
class _Entry:
    path: _Path  # the full path of the value
    pair: Node
    value: Node
    section: _Section
    dotted: int  # how many key parts the pair's own key has


def _key_parts(node: Node, raw: bytes) -> list[str]:
    if node.type == "dotted_key":
        return [part for child in node.named_children for part in _key_parts(child, raw)]
    text = raw[node.start_byte:node.end_byte].decode("utf-8", "surrogatepass")
    if node.type == "bare_key":
        return [text]
    return [next(iter(tomllib.loads(f"{text} = 0")))]


def _pair_key(pair: Node) -> Node | None:
    return next((c for c in pair.named_children if c.type in _KEYS), None)


def _pair_value(pair: Node) -> Node | None:
    values = [c for c in pair.named_children if c.type not in (*_KEYS, "comment")]
    return values[0] if values else None


def _sections(raw: bytes, root: Node) -> list[_Section]:
    """The root table and each `[table]` / `[[array]]` element, in file order, with the
    `key = value` pairs written in each."""
    root_section = _Section((), None)
    sections = [root_section]
    counts: dict[_Path, int] = {}
    current = root_section
    for child in root.named_children:
        if child.type == "pair":
            _add_entry(current, child, raw)
            continue
        if child.type not in ("table", "table_array_element"):
            continue
        key = _pair_key(child)
        parts = _key_parts(key, raw) if key is not None else []
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
        current = _Section(tuple(concrete), child)
        sections.append(current)
        for pair in child.named_children:
            if pair.type == "pair":
                _add_entry(current, pair, raw)
    return sections


def _add_entry(section: _Section, pair: Node, raw: bytes) -> None:
    key, value = _pair_key(pair), _pair_value(pair)
    if key is None or value is None:
        return
    parts = _key_parts(key, raw)
    section.entries.append(_Entry((*section.path, *parts), pair, value, section, len(parts)))


def _array_tables(sections: list[_Section]) -> set[_Path]:
    return {s.path[:-1] for s in sections if s.node is not None and s.node.type == "table_array_element"}


# --- the payload ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Payload:
    text: str  # "\n" line breaks, no common indentation
    value: Any
    is_body: bool  # `key = value` lines (a table's body), not one value


def _dedent(text: str) -> str:
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    margin = min((len(line) - len(line.lstrip(" \t")) for line in lines if line.strip()), default=0)
    return "\n".join(line[margin:] for line in lines)


def _read_payload(text: str, path: str, file: str) -> _Payload:
    text = _dedent(text)
    if not text.strip():
        raise PayloadError(f"Payload for '{path}' in {file} is empty", "give the TOML value to set")
    try:
        return _Payload(text, tomllib.loads(f"v = {text}\n")["v"], False)
    except tomllib.TOMLDecodeError:
        pass
    try:
        return _Payload(text, tomllib.loads(text + "\n"), True)
    except tomllib.TOMLDecodeError as err:
        raise PayloadError(f"Payload for '{path}' in {file} is not valid TOML: {err}",
                           "send a TOML value, or `key = value` lines for a table") from None


def _restated(payload: _Payload, keys: list[Key], holds_own_name: bool) -> _Payload:
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
            return _Payload(_dedent(body) if body.strip() else "", _value_at(payload.value, keys), True)
    last = keys[-1]
    if holds_own_name or not isinstance(last, str) or list(payload.value) != [last]:
        return payload
    root = _parser().parse(payload.text.encode("utf-8", "surrogatepass")).root_node
    pairs = [c for c in root.named_children if c.type == "pair"]
    if len(pairs) != 1 or [c.type for c in root.named_children if c.type != "comment"] != ["pair"]:
        return payload
    raw = payload.text.encode("utf-8", "surrogatepass")
    key_node, value = _pair_key(pairs[0]), _pair_value(pairs[0])
    if key_node is None or value is None or _key_parts(key_node, raw) != [last]:
        return payload
    text = raw[value.start_byte:value.end_byte].decode("utf-8", "surrogatepass")
    return _Payload(text, payload.value[last], False)


def _flatten_keys(data: Any) -> list[str]:
    keys: list[str] = []
    while isinstance(data, dict) and len(data) == 1:
        key = next(iter(data))
        keys.append(key)
        data = data[key]
    return keys


def _value_at(data: Any, keys: list[Key]) -> Any:
    for key in keys:
        data = data[key]
    return data


def _with_value(data: Any, keys: list[Key], value: Any) -> Any:
    if not keys:
        return value
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    head, rest = keys[0], keys[1:]
    copy[head] = _with_value(data[head], rest, value) if rest else value  # type: ignore[index]
    return copy


# --- writing ----------------------------------------------------------------------------------


def _key_written(key: str) -> str:
    return key if _BARE.fullmatch(key) else json.dumps(key, ensure_ascii=False)


def _string_like(text: str, value: Any, old: Node, raw: bytes) -> str:
    """The payload's string in the quotes of the string it replaces, when they spell it."""
    if not isinstance(value, str) or old.type != "string":
        return text
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


def _spread_like(text: str, old: Node, raw: bytes, base: str) -> str:
    """A one-line array written one item a line, as the array it replaces is."""
    if old.type != "array" or old.start_point.row == old.end_point.row or "\n" in text:
        return text
    items = [c for c in old.named_children if c.type != "comment"]
    if not items or items[0].start_point.row == old.start_point.row:
        return text
    payload_root = _parser().parse(f"v = {text}".encode("utf-8", "surrogatepass")).root_node
    pair = payload_root.named_children[0] if payload_root.named_children else None
    array = _pair_value(pair) if pair is not None else None
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


def _with_newline(text: str, newline: str) -> str:
    return text.replace("\n", newline)


def _line_indent(raw: bytes, offset: int) -> str:
    start = raw.rfind(b"\n", 0, offset) + 1
    match = re.match(rb"[ \t]*", raw[start:offset])
    return match.group().decode() if match else ""


def _line_end(raw: bytes, offset: int) -> int:
    """The offset of the line break ending the line of `offset` (before a \\r), or the end."""
    end = raw.find(b"\n", offset)
    if end < 0:
        return len(raw)
    return end - 1 if raw[end - 1:end] == b"\r" else end


def _value_payload(payload: _Payload, path: str, file: str, what: str) -> _Payload:
    """The payload as one value: `key = value` lines become an inline table, when each
    pair is one line and there are no [headers] or comments to lose."""
    if payload.is_body:
        if payload.value == {}:
            raise PayloadError(f"Payload for '{path}' in {file} holds no value", "send the value to set")
        root = _parser().parse(payload.text.encode("utf-8", "surrogatepass")).root_node
        pairs = root.named_children
        if all(p.type == "pair" and p.start_point.row == p.end_point.row and not any(
                c.type == "comment" for c in p.children) for p in pairs):
            raw = payload.text.encode("utf-8", "surrogatepass")
            inline = "{ " + ", ".join(raw[p.start_byte:p.end_byte].decode("utf-8", "surrogatepass")
                                      for p in pairs) + " }"
            return _Payload(inline, payload.value, False)
        raise PayloadError(f"Payload for '{path}' in {file} is `key = value` lines, but {what} takes one "
                           "value", "send the value alone, e.g. 120 or \"text\" or [1, 2]")
    return payload


def _body_text(payload: _Payload, path: str, file: str) -> str:
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
    root = _parser().parse(raw).root_node
    table = _pair_value(root.named_children[0]) if root.named_children else None
    if table is None or table.type != "inline_table":
        raise PayloadError(f"Payload for '{path}' in {file} is not a table", "send its `key = value` lines")
    return "\n".join(raw[p.start_byte:p.end_byte].decode("utf-8", "surrogatepass")
                     for p in table.named_children if p.type == "pair")


# --- the whole operation ----------------------------------------------------------------------


def set_toml_value(source: str, path: str, payload: str, *, file: str) -> str:
    """Return `source` with the value at `path` set to the TOML `payload`."""
    path = path.strip()
    keys = parse_path(path, file)
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as err:
        raise SyntaxCheckError(f"{file} is not valid TOML: {err}") from None
    if not keys:
        raise TargetNotFound(f"Path '{path}' in {file} names the whole file",
                             "send the whole file instead (FILE and no target)")
    raw = source.encode("utf-8", "surrogatepass")
    root = _parser().parse(raw).root_node
    if root.has_error:
        raise SyntaxCheckError(f"{file} cannot be read by the TOML grammar",
                               "send the whole file instead (FILE and no target)")
    adding = _check_path(data, keys, path, file)
    sections = _sections(raw, root)
    exists = not adding
    current = _value_at(data, keys) if exists else None
    holds_own_name = isinstance(current, dict) and keys[-1] in current
    value = _restated(_read_payload(payload, path, file), keys, holds_own_name)
    if exists and same_data(_value_at(data, keys), value.value):
        return source
    newline = newline_of(source)
    if adding:
        start, end, text = _add(raw, sections, data, keys, value, path, file)
    else:
        start, end, text = _replace(raw, sections, keys, value, path, file)
    result = (raw[:start] + _with_newline(text, newline).encode("utf-8", "surrogatepass") + raw[end:]).decode(
        "utf-8", "surrogatepass")
    _verify(result, _with_value(data, keys, value.value), path, file)
    return result


def _check_path(data: Any, keys: list[Key], path: str, file: str) -> bool:
    """Fail on a missing parent or an index out of range; True when the last key is new."""
    failed = f"Path '{path}' not found in {file}"
    node = data
    for depth, key in enumerate(keys):
        where = render_path(keys[:depth])
        if isinstance(key, int):
            if not isinstance(node, list):
                raise TargetNotFound(f"{failed}: {where} is {_kind(node)}, not an array")
            if key >= len(node):
                raise TargetNotFound(out_of_range(failed, key, len(node), where))
        else:
            if not isinstance(node, dict):
                raise TargetNotFound(f"{failed}: {where} is {_kind(node)}, not a table")
            if key not in node:
                if depth == len(keys) - 1:
                    return True
                raise TargetNotFound(f"{failed}: no key '{key}' at {where} ({key_list(list(node))})")
        node = node[key]
    return False


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return "a date or time"


def _spelt_by(sections: list[_Section], keys: _Path) -> str:
    """How a table with no section of its own is written: its sub-tables or dotted keys."""
    under = [s for s in sections if s.node is not None and s.path[:len(keys)] == keys]
    if under:
        names = ", ".join(f"[{render_path(list(s.path))[2:]}]" for s in under[:3])
        return f"only through its sub-tables ({names}{', …' if len(under) > 3 else ''})"
    dotted = [e for s in sections for e in s.entries if e.path[:len(keys)] == keys]
    if not dotted:
        return "only through dotted keys inside an inline table"
    names = ", ".join(render_path(list(e.path))[2:] for e in dotted[:3])
    return f"only through dotted keys ({names}{', …' if len(dotted) > 3 else ''})"


def _replace(raw: bytes, sections: list[_Section], keys: list[Key], payload: _Payload, path: str,
             file: str) -> tuple[int, int, str]:
    target = tuple(keys)
    for section in sections:
        if section.node is not None and section.path == target:
            return _replace_section(raw, sections, section, payload, path, file)
    for section in sections:
        for entry in section.entries:
            if entry.path == target:
                return _replace_value(raw, entry.value, payload, path, file)
            if entry.path == target[:len(entry.path)]:
                node = _descend(raw, entry.value, list(target[len(entry.path):]))
                if node is not None:
                    return _replace_value(raw, node, payload, path, file)
    if target in _array_tables(sections):
        raise TargetNotFound(f"Path '{path}' in {file} is an array of tables ([[{path}]] sections)",
                             f"set one of them, e.g. {path}[0], or send the whole file")
    raise TargetNotFound(f"Path '{path}' in {file} is a table written {_spelt_by(sections, target)}",
                         "set one of those tables or keys, or send the whole file")


def _descend(raw: bytes, node: Node, rest: list[Key]) -> Node | None:
    """The node at `rest` inside an inline table or array value."""
    while rest:
        key = rest[0]
        if node.type == "array" and isinstance(key, int):
            items = [c for c in node.named_children if c.type != "comment"]
            if key >= len(items):
                return None
            node, rest = items[key], rest[1:]
        elif node.type == "inline_table" and isinstance(key, str):
            for pair in (c for c in node.named_children if c.type == "pair"):
                pair_key, value = _pair_key(pair), _pair_value(pair)
                if pair_key is None or value is None:
                    continue
                parts = _key_parts(pair_key, raw)
                if parts == rest[:len(parts)]:
                    node, rest = value, rest[len(parts):]
                    break
            else:
                return None
        else:
            return None
    return node


def _replace_value(raw: bytes, old: Node, payload: _Payload, path: str, file: str) -> tuple[int, int, str]:
    payload = _value_payload(payload, path, file, f"'{path}'")
    base = _line_indent(raw, old.start_byte)
    text = _string_like(payload.text, payload.value, old, raw)
    text = _spread_like(text, old, raw, base)
    first, *rest = text.split("\n")
    if rest and not (old.type == "string" and text.startswith(('"""', "'''"))):
        rest = [base + line if line.strip() else line for line in rest]
    return old.start_byte, old.end_byte, "\n".join([first, *rest])


def _replace_section(raw: bytes, sections: list[_Section], section: _Section, payload: _Payload,
                     path: str, file: str) -> tuple[int, int, str]:
    assert section.node is not None
    under = [s for s in sections if s.node is not None and len(s.path) > len(section.path)
             and s.path[:len(section.path)] == section.path]
    if under:
        name = render_path(list(under[0].path))[2:]
        raise TargetNotFound(f"Path '{path}' in {file} is a table that continues in [{name}] "
                             f"(line {under[0].node.start_point.row + 1})",  # type: ignore[union-attr]
                             "set its keys one by one, or each of its tables on its own")
    body = _body_text(payload, path, file)
    header_end = _header_end(raw, section.node)
    pairs = [c for c in section.node.named_children if c.type == "pair"]
    end = _line_end(raw, pairs[-1].end_byte) if pairs else header_end
    return header_end, end, ("\n" + body if body else "")


def _header_end(raw: bytes, node: Node) -> int:
    closing = next(c for c in node.children if c.type in ("]", "]]"))
    return _line_end(raw, closing.end_byte)


def _add(raw: bytes, sections: list[_Section], data: Any, keys: list[Key], payload: _Payload,
         path: str, file: str) -> tuple[int, int, str]:
    parent, key = tuple(keys[:-1]), keys[-1]
    assert isinstance(key, str)
    name = _key_written(key)
    # A table sent as `key = value` lines becomes a [section]; so does an inline table whose
    # parent is written as sections only (there is no line to put `key = {…}` on).
    as_section = payload.is_body or (isinstance(payload.value, dict) and not any(
        s.path == parent for s in sections) and _header_defined(sections, parent))
    # The parent as a section of its own (the root, a [table], an [[array]] element).
    owner = next((s for s in sections if s.path == parent and (s.node is not None or not parent)), None)
    if owner is not None and not as_section:
        return _add_pair(raw, sections, owner, name, payload)
    if as_section and (owner is not None or _header_defined(sections, parent)):
        return _add_section(raw, sections, parent, name, payload, path, file)
    for section in sections:
        for entry in section.entries:
            if entry.path == parent:
                return _add_inline(raw, entry.value, name, payload, path, file)
            if entry.path == parent[:len(entry.path)] and len(entry.path) < len(parent):
                node = _descend(raw, entry.value, list(parent[len(entry.path):]))
                if node is not None:
                    return _add_inline(raw, node, name, payload, path, file)
    dotted = [e for s in sections for e in s.entries if len(e.path) > len(parent) and e.path[:len(parent)] == parent
              and e.dotted > len(e.path) - len(parent) - 1]
    if dotted and not as_section:
        last = dotted[-1]
        prefix = last.path[len(last.section.path):len(parent)]
        written = ".".join(_key_written(str(k)) for k in prefix) + "." + name
        at = _line_end(raw, last.pair.end_byte)
        return at, at, "\n" + _line_indent(raw, last.pair.start_byte) + written + " = " + _value_payload(
            payload, path, file, f"'{path}'").text
    raise TargetNotFound(f"Path '{path}' in {file}: the table {render_path(list(parent))} is written "
                         f"{_spelt_by(sections, parent)}, with no section of its own to add '{key}' to",
                         "send the new key as `key = value` lines to make it a table, or send the whole file")


def _header_defined(sections: list[_Section], parent: _Path) -> bool:
    return any(s.node is not None and s.path[:len(parent)] == parent for s in sections)


def _add_pair(raw: bytes, sections: list[_Section], section: _Section, name: str,
              payload: _Payload) -> tuple[int, int, str]:
    pairs = [e.pair for e in section.entries]
    line = f"{name} = {payload.text}"
    if pairs:
        at = _line_end(raw, pairs[-1].end_byte)
        return at, at, "\n" + _line_indent(raw, pairs[-1].start_byte) + line
    if section.node is not None:
        at = _header_end(raw, section.node)
        return at, at, "\n" + line
    first = next((s.node for s in sections if s.node is not None), None)
    if first is None:  # a file of comments only
        at = len(raw)
        return at, at, ("\n" if raw and not raw.endswith(b"\n") else "") + line + "\n"
    at = first.start_byte
    return at, at, line + "\n\n"


def _add_section(raw: bytes, sections: list[_Section], parent: _Path, name: str, payload: _Payload,
                 path: str, file: str) -> tuple[int, int, str]:
    if any(isinstance(k, int) for k in parent):
        raise TargetNotFound(f"Path '{path}' in {file}: a new table inside an array element is not "
                             "written as a section", "send it as an inline table: { key = value }")
    under = [s for s in sections if s.node is not None and s.path[:len(parent)] == parent]
    last = under[-1] if under else sections[-1]
    if last.node is None:
        at = len(raw.rstrip(b"\r\n"))
    else:
        pairs = [c for c in last.node.named_children if c.type == "pair"]
        at = _line_end(raw, pairs[-1].end_byte) if pairs else _header_end(raw, last.node)
    header = ".".join([*(_key_written(str(k)) for k in parent), name])
    body = _body_text(payload, path, file)
    gap = "\n\n" if at else ""
    return at, at, f"{gap}[{header}]" + ("\n" + body if body else "") + ("" if at else "\n\n")


def _add_inline(raw: bytes, node: Node, name: str, payload: _Payload, path: str,
                file: str) -> tuple[int, int, str]:
    if node.type != "inline_table":
        raise TargetNotFound(f"Path '{path}' not found in {file}: its parent is not a table")
    text = _value_payload(payload, path, file, f"'{path}'").text
    pairs = [c for c in node.named_children if c.type == "pair"]
    if not pairs:
        at = node.start_byte + 1
        return at, at, f" {name} = {text} "[0 if raw[at:at + 1] == b" " else 0:]
    at = pairs[-1].end_byte
    return at, at, f", {name} = {text}"


def _verify(result: str, expected: Any, path: str, file: str) -> None:
    try:
        data = tomllib.loads(result)
    except tomllib.TOMLDecodeError as err:
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {err}") from None
    if not same_data(data, expected):
        raise SyntaxCheckError(f"Setting '{path}' in {file} would change more than that value",
                               "nothing was written; this is a kopipasta bug, please report it")


# --- the inventory ----------------------------------------------------------------------------


def top_keys(data: bytes) -> list[TopKey]:
    """The root table's keys, then each [table] and [[array]] element, as paths."""
    root = _parser().parse(data).root_node
    if root.has_error:
        return []
    listed: list[TopKey] = []
    for section in _sections(data, root):
        if section.node is None:
            for entry in section.entries:
                pair = entry.pair
                listed.append(TopKey("key", render_path(list(entry.path))[2:], pair.start_byte, pair.end_byte,
                                     pair.start_point.row + 1, pair.end_point.row + 1))
            continue
        node = section.node
        end_row = node.end_point.row - (1 if node.end_point.column == 0 else 0)
        end = data.rfind(b"\n", 0, node.end_byte) if node.end_point.column == 0 else node.end_byte
        listed.append(TopKey("table", render_path(list(section.path))[2:], node.start_byte, max(end, node.start_byte),
                             node.start_point.row + 1, end_row + 1))
    return listed
