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

import sys
from typing import Any

from tree_sitter import Node

from kopipasta.data.common import (
    Key,
    TopKey,
    dedent,
    key_list,
    newline_of,
    out_of_range,
    parse_path,
    render_path,
    same_data,
)
from kopipasta.data.json import value_at, with_value
from kopipasta.data.toml_payload import (
    Payload,
    as_one_value,
    body_text,
    key_written,
    read_payload,
    restated,
    spread_like,
    string_like,
    trailing_comment_end,
    with_newline,
)
from kopipasta.data.toml_tree import (
    Section,
    TablePath,
    array_tables,
    header_end,
    key_node_of,
    key_parts,
    line_end,
    line_indent,
    sections_of,
    toml_parser,
    value_node_of,
)
from kopipasta.errors import SyntaxCheckError, TargetNotFound

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


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
    root = toml_parser().parse(raw).root_node
    if root.has_error:
        raise SyntaxCheckError(f"{file} cannot be read by the TOML grammar",
                               "send the whole file instead (FILE and no target)")
    adding = _check_path(data, keys, path, file)
    sections = sections_of(raw, root)
    exists = not adding
    current = value_at(data, keys) if exists else None
    holds_own_name = isinstance(current, dict) and keys[-1] in current
    value = restated(read_payload(payload, path, file), keys, holds_own_name)
    if exists and same_data(value_at(data, keys), value.value):
        return source
    newline = newline_of(source)
    if adding:
        start, end, text = _add(raw, sections, data, keys, value, path, file)
    else:
        start, end, text = _replace(raw, sections, keys, value, path, file)
    result = (raw[:start] + with_newline(text, newline).encode("utf-8", "surrogatepass") + raw[end:]).decode(
        "utf-8", "surrogatepass")
    _verify(result, with_value(data, keys, value.value), path, file)
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


def _spelt_by(sections: list[Section], keys: TablePath) -> str:
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


def _replace(raw: bytes, sections: list[Section], keys: list[Key], payload: Payload, path: str,
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
    if target in array_tables(sections):
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
                pair_key, value = key_node_of(pair), value_node_of(pair)
                if pair_key is None or value is None:
                    continue
                parts = key_parts(pair_key, raw)
                if parts == rest[:len(parts)]:
                    node, rest = value, rest[len(parts):]
                    break
            else:
                return None
        else:
            return None
    return node


def _replace_value(raw: bytes, old: Node, payload: Payload, path: str, file: str) -> tuple[int, int, str]:
    payload = as_one_value(payload, path, file, f"'{path}'")
    base = line_indent(raw, old.start_byte)
    text = string_like(payload.text, payload.value, old, raw)
    text = spread_like(text, old, raw, base)
    first, *rest = text.split("\n")
    if rest and not (old.type == "string" and text.startswith(('"""', "'''"))):
        rest = [base + line if line.strip() else line for line in rest]
    return old.start_byte, trailing_comment_end(raw, old.end_byte, text), "\n".join([first, *rest])


def _replace_section(raw: bytes, sections: list[Section], section: Section, payload: Payload,
                     path: str, file: str) -> tuple[int, int, str]:
    assert section.node is not None
    under = [s for s in sections if s.node is not None and len(s.path) > len(section.path)
             and s.path[:len(section.path)] == section.path]
    if under:
        name = render_path(list(under[0].path))[2:]
        raise TargetNotFound(f"Path '{path}' in {file} is a table that continues in [{name}] "
                             f"(line {under[0].node.start_point.row + 1})",  # type: ignore[union-attr]
                             "set its keys one by one, or each of its tables on its own")
    body = body_text(payload, path, file)
    body_start = header_end(raw, section.node)
    pairs = [c for c in section.node.named_children if c.type == "pair"]
    end = line_end(raw, pairs[-1].end_byte) if pairs else body_start
    return body_start, end, ("\n" + body if body else "")


def _add(raw: bytes, sections: list[Section], data: Any, keys: list[Key], payload: Payload,
         path: str, file: str) -> tuple[int, int, str]:
    parent, key = tuple(keys[:-1]), keys[-1]
    assert isinstance(key, str)
    name = key_written(key)
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
        written = ".".join(key_written(str(k)) for k in prefix) + "." + name
        at = line_end(raw, last.pair.end_byte)
        return at, at, "\n" + line_indent(raw, last.pair.start_byte) + written + " = " + as_one_value(
            payload, path, file, f"'{path}'").text
    raise TargetNotFound(f"Path '{path}' in {file}: the table {render_path(list(parent))} is written "
                         f"{_spelt_by(sections, parent)}, with no section of its own to add '{key}' to",
                         "send the new key as `key = value` lines to make it a table, or send the whole file")


def _header_defined(sections: list[Section], parent: TablePath) -> bool:
    return any(s.node is not None and s.path[:len(parent)] == parent for s in sections)


def _add_pair(raw: bytes, sections: list[Section], section: Section, name: str,
              payload: Payload) -> tuple[int, int, str]:
    pairs = [e.pair for e in section.entries]
    line = f"{name} = {payload.text}"
    if pairs:
        at = line_end(raw, pairs[-1].end_byte)
        return at, at, "\n" + line_indent(raw, pairs[-1].start_byte) + line
    if section.node is not None:
        at = header_end(raw, section.node)
        return at, at, "\n" + line
    first = next((s.node for s in sections if s.node is not None), None)
    if first is None:  # a file of comments only
        at = len(raw)
        return at, at, ("\n" if raw and not raw.endswith(b"\n") else "") + line + "\n"
    at = first.start_byte
    return at, at, line + "\n\n"


def _add_section(raw: bytes, sections: list[Section], parent: TablePath, name: str, payload: Payload,
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
        at = line_end(raw, pairs[-1].end_byte) if pairs else header_end(raw, last.node)
    header = ".".join([*(key_written(str(k)) for k in parent), name])
    body = body_text(payload, path, file)
    gap = "\n\n" if at else ""
    return at, at, f"{gap}[{header}]" + ("\n" + body if body else "") + ("" if at else "\n\n")


def _add_inline(raw: bytes, node: Node, name: str, payload: Payload, path: str,
                file: str) -> tuple[int, int, str]:
    if node.type != "inline_table":
        raise TargetNotFound(f"Path '{path}' not found in {file}: its parent is not a table")
    text = as_one_value(payload, path, file, f"'{path}'").text
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
    root = toml_parser().parse(data).root_node
    if root.has_error:
        return []
    listed: list[TopKey] = []
    for section in sections_of(data, root):
        if section.node is None:
            for entry in section.entries:
                pair = entry.pair
                listed.append(TopKey("key", render_path(list(entry.path))[2:], pair.start_byte, pair.end_byte,
                                     pair.start_point.row + 1, pair.end_point.row + 1))
            continue
        node = section.node
        pairs = [c for c in node.named_children if c.type == "pair"]
        end = pairs[-1].end_byte if pairs else header_end(data, node)
        listed.append(TopKey("table", render_path(list(section.path))[2:], node.start_byte, end,
                             node.start_point.row + 1, data.count(b"\n", 0, end) + 1))
    return listed


def value_text(data: bytes, start: int) -> str | None:
    """The value of the root key or [table] starting at byte `start`, as a payload that sets
    it back unchanged (for the prompt's example): a value, or a table's body lines."""
    root = toml_parser().parse(data).root_node
    for child in root.named_children:
        if child.start_byte != start:
            continue
        if child.type == "pair":
            value = value_node_of(child)
            return None if value is None else data[value.start_byte:value.end_byte].decode("utf-8").replace("\r\n", "\n")
        pairs = [c for c in child.named_children if c.type == "pair"]
        if child.type != "table" or not pairs:
            return None
        body = data[header_end(data, child):pairs[-1].end_byte].decode("utf-8").replace("\r\n", "\n")
        return dedent(body)
    return None
