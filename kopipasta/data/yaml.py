"""TARGET_PATH for YAML files (PROTOCOL.md §5).

The path syntax is JSON's (`services.web.ports[0]`, `["a.b"]`). A file of several
documents (`---`) takes the document's index first (`[1].spec.replicas`); without it the
path must resolve in exactly one document.

How a value is found and written:

- Tree-sitter-yaml gives the value's byte span. Only that span changes (or, for a new key,
  only the new line(s) after the mapping's last pair); comments, blank lines, anchors,
  tags, directives and CRLF around it are kept byte for byte.
- An anchor or tag on the old value stays, unless the payload brings its own.
- The payload is written as sent, moved to the value's depth, in the file's style: its
  nested mappings take the file's indent step, its sequences under keys the file's
  sequence indentation (`key:` / `- a` or `key:` / `  - a`); a block collection sent for
  a flow one (`[a, b]`) is written in flow style and the reverse; a string sent plain or
  in other quotes than the string it replaces takes that string's quoting, when that
  spells the same string.
- A payload that restates the key (`image: nginx:1.27` for `services.web.image`) is read
  as the value, unless the value it replaces is a mapping holding a key of that name.
- A path through an alias (`*defaults`) fails: the value lives where its anchor is. A
  value inside an anchored node may be set: every alias of it shows the change, as YAML
  means.

The check: the file and the result are composed by PyYAML; the old node at the path is
swapped for the new one in the old document's graph (so aliases follow), and the data
built from that graph must equal the data of the result.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import yaml
from tree_sitter import Node, Parser
from tree_sitter_language_pack import get_parser

from kopipasta.data.common import (
    Key,
    TopKey,
    key_list,
    line_column,
    newline_of,
    out_of_range,
    parse_path,
    plain_key_ok,
    render_path,
    same_data,
)
from kopipasta.errors import AmbiguousTarget, PayloadError, SyntaxCheckError, TargetNotFound

_WRAPPERS = ("block_node", "flow_node")
_DECORATIONS = ("anchor", "tag")
_MAPPINGS = ("block_mapping", "flow_mapping")
_SEQUENCES = ("block_sequence", "flow_sequence")
_BLOCK = ("block_mapping", "block_sequence")
_SCALARS = ("plain_scalar", "double_quote_scalar", "single_quote_scalar")
_UNKNOWN = object()  # a payload whose value only the file can tell (it uses the file's anchors)


@lru_cache(maxsize=1)
def _parser() -> Parser:
    return get_parser("yaml")


# --- the tree ---------------------------------------------------------------------------------


def _content(wrapper: Node | None) -> Node | None:
    """The value inside a block_node/flow_node, past its anchor and tag."""
    if wrapper is None:
        return None
    if wrapper.type not in _WRAPPERS:
        return wrapper
    inner = [c for c in wrapper.named_children if c.type not in (*_DECORATIONS, "comment")]
    return inner[-1] if inner else None


def _documents(root: Node) -> list[Node]:
    return [c for c in root.named_children if c.type == "document"]


def _document_value(document: Node) -> Node | None:
    values = [c for c in document.named_children if c.type in _WRAPPERS]
    return values[0] if values else None


def _entries(collection: Node) -> list[Node]:
    """The pairs of a mapping or the item nodes of a sequence, comments left out."""
    if collection.type == "block_sequence":
        return [c for c in collection.named_children if c.type == "block_sequence_item"]
    return [c for c in collection.named_children if c.type != "comment"]


def _item_value(item: Node) -> Node | None:
    if item.type == "block_sequence_item":
        values = [c for c in item.named_children if c.type in _WRAPPERS]
        return values[0] if values else None
    return item  # a flow sequence's item is the node itself (flow_node or a one-pair flow_pair)


def _pair_key(pair: Node) -> Node | None:
    return pair.child_by_field_name("key") if pair.type in ("block_mapping_pair", "flow_pair") else pair


def _pair_value(pair: Node) -> Node | None:
    return pair.child_by_field_name("value") if pair.type in ("block_mapping_pair", "flow_pair") else None


def _key_text(key: Node | None, raw: bytes) -> str | None:
    """A key's string as YAML reads it before typing it (`on` is "on", `"a\\tb"` unescaped)."""
    content = _content(key)
    if content is None or content.type not in _SCALARS:
        return None
    text = raw[content.start_byte:content.end_byte].decode("utf-8", "surrogatepass")
    if content.type == "plain_scalar":
        return text
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    return node.value if isinstance(node, yaml.ScalarNode) else None


def _kind(content: Node | None) -> str:
    if content is None:
        return "null"
    if content.type in _MAPPINGS:
        return "a mapping"
    if content.type in _SEQUENCES:
        return "a sequence"
    if content.type == "alias":
        return "an alias"
    return "a scalar"


def _row_end(node: Node, raw: bytes) -> int:
    """The node's end, without the line breaks, blank lines and trailing comments a block
    node takes in: the end of its last key, value or item."""
    if node.type in _WRAPPERS:
        content = _content(node)
        if content is not None and content.type in (*_BLOCK, "block_sequence_item", "block_mapping_pair"):
            return _row_end(content, raw)
    if node.type in _BLOCK:
        entries = _entries(node)
        if entries:
            return _row_end(entries[-1], raw)
    if node.type == "block_mapping_pair":
        value = _pair_value(node)
        if value is not None:
            return _row_end(value, raw)
        colon = next((c for c in node.children if c.type == ":"), None)
        if colon is not None:
            return colon.end_byte
    if node.type == "block_sequence_item":
        value = _item_value(node)
        return _row_end(value, raw) if value is not None else node.children[0].end_byte
    return node.start_byte + len(raw[node.start_byte:node.end_byte].rstrip())


def _indent_of_row(raw: bytes, offset: int) -> int:
    start = raw.rfind(b"\n", 0, offset) + 1
    return len(raw[start:offset]) - len(raw[start:offset].lstrip(b" "))


def _column(raw: bytes, offset: int) -> int:
    return offset - (raw.rfind(b"\n", 0, offset) + 1)


# --- finding the path -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Found:
    """Where the path leads: an existing value, or the mapping that is to receive a new key."""

    document: int
    keys: list[Key]  # the path inside that document
    wrapper: Node | None  # the value's block_node/flow_node (None: an empty value, or a new key)
    holder: Node | None  # the pair or sequence item that holds it; the mapping, for a new key


def _find_in(root: Node | None, raw: bytes, keys: list[Key], path: str, file: str,
             prefix: list[Key]) -> tuple[Node | None, Node | None]:
    """Return (the value's wrapper, its pair or item), or (None, the mapping to receive the
    last key); a pair without a value gives (None, the pair)."""
    failed = f"Path '{path}' not found in {file}"
    wrapper, holder = root, None
    for depth, key in enumerate(keys):
        where = render_path([*prefix, *keys[:depth]])
        content = _content(wrapper)
        if content is not None and content.type == "alias":
            name = raw[content.start_byte + 1:content.end_byte].decode("utf-8", "surrogatepass")
            line = content.start_point.row + 1
            raise TargetNotFound(f"{failed}: {where} is the alias *{name} (line {line})",
                                 f"set the value where &{name} is defined; every alias of it follows")
        if isinstance(key, int):
            if content is None or content.type not in _SEQUENCES:
                raise TargetNotFound(f"{failed}: {where} is {_kind(content)}, not a sequence")
            items = _entries(content)
            if key >= len(items):
                raise TargetNotFound(out_of_range(failed, key, len(items), where))
            holder, wrapper = items[key], _item_value(items[key])
            if holder.type == "flow_pair":  # `[a: 1]`: a one-pair mapping as a sequence item
                wrapper = holder
        else:
            if content is None or content.type not in _MAPPINGS:
                raise TargetNotFound(f"{failed}: {where} is {_kind(content)}, not a mapping")
            pairs = _entries(content)
            names = [_key_text(_pair_key(p), raw) for p in pairs]
            if names.count(key) > 1:
                raise AmbiguousTarget(f"Path '{path}' is ambiguous in {file}: key '{key}' "
                                      f"appears {names.count(key)} times at {where}")
            if key not in names:
                if depth == len(keys) - 1:
                    return None, content
                raise TargetNotFound(f"{failed}: no key '{key}' at {where} ({key_list(names)})")
            holder = pairs[names.index(key)]
            wrapper = _pair_value(holder)
            if wrapper is None and depth < len(keys) - 1:
                raise TargetNotFound(f"{failed}: {render_path([*prefix, *keys[:depth + 1]])} is null, "
                                     "not a mapping")
    return wrapper, holder


def _find(raw: bytes, root: Node, keys: list[Key], path: str, file: str) -> _Found:
    documents = _documents(root)
    if not documents:
        raise TargetNotFound(f"Path '{path}' not found in {file}: the file holds no YAML document")
    if len(documents) == 1:
        wrapper, holder = _find_in(_document_value(documents[0]), raw, keys, path, file, [])
        return _Found(0, keys, wrapper, holder)
    if keys and isinstance(keys[0], int):
        if keys[0] >= len(documents):
            raise TargetNotFound(f"Path '{path}' not found in {file}: document {keys[0]} is out of "
                                 f"range ({len(documents)} documents)", "documents count from 0")
        wrapper, holder = _find_in(_document_value(documents[keys[0]]), raw, keys[1:], path, file,
                                   keys[:1])
        return _Found(keys[0], keys[1:], wrapper, holder)
    found: list[_Found] = []
    for index, document in enumerate(documents):
        try:
            wrapper, holder = _find_in(_document_value(document), raw, keys, path, file, [index])
        except TargetNotFound:
            continue
        found.append(_Found(index, keys, wrapper, holder))
    hint = f"start the path with the document's index, e.g. [0].{path.removeprefix('$.')}"
    if not found:
        raise TargetNotFound(f"Path '{path}' not found in any of the {len(documents)} documents of "
                             f"{file}", hint)
    if len(found) > 1:
        which = ", ".join(str(f.document) for f in found)
        raise AmbiguousTarget(f"Path '{path}' is ambiguous in {file}: documents {which} all have it",
                              hint)
    return found[0]


# --- the file's style -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Style:
    unit: int  # the indent step of a mapping nested under a key
    sequence: int | None  # how far a block sequence under a key is indented (None: not seen)
    newline: str


def _style_of(raw: bytes, root: Node, newline: str) -> _Style:
    steps: Counter[int] = Counter()
    sequences: Counter[int] = Counter()
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type != "block_mapping_pair":
            continue
        value = _content(_pair_value(node))
        if value is None or value.type not in _BLOCK or value.start_point.row == node.start_point.row:
            continue
        step = value.start_point.column - node.start_point.column
        (steps if value.type == "block_mapping" else sequences)[step] += 1
    unit = max(steps, key=lambda s: (steps[s], -s)) if steps else 2
    sequence = max(sequences, key=lambda s: (sequences[s], -s)) if sequences else None
    return _Style(unit if unit > 0 else 2, sequence, newline)


# --- the payload ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Payload:
    text: str  # "\n" line breaks, no common indentation, no blank lines around it
    value: Any  # its data, or _UNKNOWN when it refers to the file's anchors
    content: Node | None  # its tree's value node (past anchors and tags)
    decorated: bool  # it brings its own anchor or tag

    @property
    def block(self) -> bool:
        return self.content is not None and self.content.type in _BLOCK

    @property
    def block_scalar(self) -> bool:
        return self.content is not None and self.content.type == "block_scalar"


def _dedent(text: str) -> str:
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    margin = min((len(line) - len(line.lstrip(" ")) for line in lines if line.strip()), default=0)
    return "\n".join(line[margin:] for line in lines)


def _read_payload(text: str, path: str, file: str) -> _Payload:
    text = _dedent(text)
    if not text.strip():
        raise PayloadError(f"Payload for '{path}' in {file} is empty", "give the YAML value to set "
                           "(null for an empty one)")
    value: Any
    try:
        documents = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
        if documents:  # in the file a line break ends it: a block scalar's clip keeps that one
            documents = list(yaml.compose_all(text + "\n", Loader=yaml.SafeLoader))
        if len(documents) != 1:
            raise PayloadError(f"Payload for '{path}' in {file} holds {len(documents)} YAML documents",
                               "send one value")
        value = _construct(documents[0])
    except yaml.MarkedYAMLError as err:
        if err.problem and err.problem.startswith("found undefined alias"):
            value = _UNKNOWN  # `<<: *defaults`: the file's own anchor, checked in the file
        else:
            raise PayloadError(f"Payload for '{path}' in {file} is not valid YAML: {_problem(err)}") from None
    except yaml.YAMLError as err:
        raise PayloadError(f"Payload for '{path}' in {file} is not valid YAML: {err}") from None
    raw = text.encode("utf-8", "surrogatepass")
    documents_nodes = _documents(_parser().parse(raw).root_node)
    wrapper = _document_value(documents_nodes[0]) if documents_nodes else None
    decorated = wrapper is not None and wrapper.type in _WRAPPERS and any(
        c.type in _DECORATIONS for c in wrapper.named_children)
    return _Payload(text, value, _content(wrapper), decorated)


def _unwrap_restated_key(payload: _Payload, key: Key, path: str, file: str) -> _Payload:
    """`image: nginx:1.27` sent for `…image` is the value `nginx:1.27`."""
    content = payload.content
    if not isinstance(key, str) or content is None or content.type != "block_mapping":
        return payload
    pairs = _entries(content)
    raw = payload.text.encode("utf-8", "surrogatepass")
    if len(pairs) != 1 or _key_text(_pair_key(pairs[0]), raw) != key:
        return payload
    value = _pair_value(pairs[0])
    if value is None:
        return _read_payload("null", path, file)
    text = raw[value.start_byte:_row_end(value, raw)].decode("utf-8", "surrogatepass")
    if value.start_point.row != pairs[0].start_point.row:
        text = " " * value.start_point.column + text
    return _read_payload(text, path, file)


def _problem(err: yaml.MarkedYAMLError) -> str:
    mark = err.problem_mark
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    return f"{err.problem}{where}"


def _construct(node: yaml.Node) -> Any:
    return yaml.constructor.SafeConstructor().construct_document(node)


# --- writing the payload in the file's style --------------------------------------------------


def _reindented(payload: _Payload, style: _Style) -> str:
    """The payload's text with its nested block collections at the file's indent steps."""
    raw = payload.text.encode("utf-8", "surrogatepass")
    root = _parser().parse(raw).root_node
    lines = payload.text.split("\n")
    shift = [0] * len(lines)

    def last_row(node: Node) -> int:
        row = node.end_point.row
        return row - 1 if node.end_point.column == 0 and row > node.start_point.row else row

    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, delta = stack.pop()
        if node.type == "block_mapping_pair":
            value = _content(_pair_value(node))
            if value is not None and value.type in _BLOCK and value.start_point.row > node.start_point.row:
                step = style.unit if value.type == "block_mapping" else style.sequence
                if step is None:
                    step = value.start_point.column - node.start_point.column
                new_delta = node.start_point.column + delta + step - value.start_point.column
                for row in range(value.start_point.row, last_row(value) + 1):
                    shift[row] = new_delta
                stack.append((value, new_delta))
                continue
        stack.extend((child, delta) for child in node.named_children)
    out = []
    for line, delta in zip(lines, shift, strict=True):
        if delta > 0 and line.strip():
            line = " " * delta + line
        elif delta < 0 and line[:-delta].strip() == "":
            line = line[-delta:]
        out.append(line)
    return "\n".join(out)


def _flow_text(node: Node | None, raw: bytes) -> str | None:
    """A block collection written in flow style from its own scalars' text, or None."""
    content = _content(node)
    if content is None:
        return "null"
    if node is not None and node.type in _WRAPPERS and any(c.type in _DECORATIONS for c in node.named_children):
        return None
    text = raw[content.start_byte:content.end_byte].decode("utf-8", "surrogatepass")
    if content.type == "block_mapping":
        parts = []
        for pair in _entries(content):
            key, value = _flow_text(_pair_key(pair), raw), _flow_text(_pair_value(pair), raw)
            if key is None or value is None:
                return None
            parts.append(f"{key}: {value}")
        return "{" + ", ".join(parts) + "}"
    if content.type == "block_sequence":
        items = [_flow_text(_item_value(item), raw) for item in _entries(content)]
        return None if None in items else "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
    if content.type == "block_scalar" or "\n" in text or content.type == "comment":
        return None
    return text


def _block_text(node: Node | None, raw: bytes, style: _Style) -> str | None:
    """A flow collection written in block style (at column 0), or None."""
    content = _content(node)
    if content is None:
        return None
    if node is not None and node.type in _WRAPPERS and any(c.type in _DECORATIONS for c in node.named_children):
        return None
    if content.type == "flow_mapping":
        pairs = _entries(content)
        if not pairs or any(p.type != "flow_pair" for p in pairs):
            return None
        lines = []
        for pair in pairs:
            key = _flow_text(_pair_key(pair), raw)
            value = _pair_value(pair)
            inner = _content(value)
            if key is None:
                return None
            if inner is not None and inner.type in ("flow_mapping", "flow_sequence") and _entries(inner):
                nested = _block_text(value, raw, style)
                if nested is None:
                    return None
                step = style.unit if inner.type == "flow_mapping" else (style.sequence if style.sequence is not None else style.unit)
                lines.append(f"{key}:")
                lines.extend(" " * step + line for line in nested.split("\n"))
            else:
                text = _flow_text(value, raw)
                if text is None:
                    return None
                lines.append(f"{key}: {text}")
        return "\n".join(lines)
    if content.type == "flow_sequence":
        items = _entries(content)
        if not items:
            return None
        lines = []
        for item in items:
            inner = _content(item)
            if item.type == "flow_pair" or (inner is not None and inner.type in ("flow_mapping", "flow_sequence") and _entries(inner)):
                nested = _block_text(item, raw, style) if item.type != "flow_pair" else None
                if nested is None:
                    return None
                first, *rest = nested.split("\n")
                lines.append("- " + first)
                lines.extend("  " + line for line in rest)
            else:
                text = _flow_text(item, raw)
                if text is None:
                    return None
                lines.append("- " + text)
        return "\n".join(lines)
    return None


def _quoted_like(payload: _Payload, old: Node) -> str | None:
    """The payload's string in the quoting of the scalar it replaces, if that spells it."""
    if not isinstance(payload.value, str) or payload.content is None:
        return None
    if payload.content.type not in _SCALARS or old.type not in _SCALARS or payload.content.type == old.type:
        return None
    if payload.decorated or "\n" in payload.text:
        return None
    value = payload.value
    if old.type == "double_quote_scalar":
        import json

        candidate = json.dumps(value, ensure_ascii=False)
    elif old.type == "single_quote_scalar":
        if not value.isprintable():
            return None
        candidate = "'" + value.replace("'", "''") + "'"
    else:
        candidate = value
    try:
        again = yaml.safe_load(candidate + "\n")
    except yaml.YAMLError:
        return None
    return candidate if isinstance(again, str) and again == value else None


def _payload_text(payload: _Payload, old: Node | None, style: _Style, in_flow: bool) -> tuple[str, bool]:
    """The text to write (column 0, "\n" breaks) and whether it is a block collection."""
    raw = payload.text.encode("utf-8", "surrogatepass")
    root = _parser().parse(raw).root_node
    documents = _documents(root)
    wrapper = _document_value(documents[0]) if documents else None
    if old is not None and not payload.decorated:
        quoted = _quoted_like(payload, old)
        if quoted is not None:
            return quoted, False
    wants_flow = in_flow or (old is not None and old.type in ("flow_mapping", "flow_sequence")
                             and _entries(old) and old.start_point.row == old.end_point.row)
    if payload.block and wants_flow:
        flow = _flow_text(wrapper, raw)
        if flow is not None and _same_as_payload(flow, payload):
            return flow, False
        if in_flow:
            raise PayloadError("", "")  # replaced by the caller's message
    wants_block = (old is not None and old.type in _BLOCK and not in_flow)
    if wants_block and payload.content is not None and payload.content.type in ("flow_mapping", "flow_sequence") \
            and "\n" not in payload.text:
        block = _block_text(wrapper, raw, style)
        if block is not None and _same_as_payload(block, payload):
            return block, True
    if payload.block:
        return _reindented(payload, style), True
    return payload.text, False


def _same_as_payload(text: str, payload: _Payload) -> bool:
    if payload.value is _UNKNOWN:
        return False
    try:
        return same_data(yaml.safe_load(text + "\n"), payload.value)
    except yaml.YAMLError:
        return False


def _lines_after_first(text: str, prefix: str, newline: str) -> str:
    first, *rest = text.split("\n")
    return newline.join([first, *((prefix + line) if line.strip() else line for line in rest)])


def _new_value_edit(raw: bytes, found: _Found, payload: _Payload, style: _Style, path: str,
                    file: str) -> tuple[int, int, str]:
    """The byte span to replace and its new text, for a value the file has."""
    holder, wrapper = found.holder, found.wrapper
    old = _content(wrapper)
    in_flow = holder is not None and holder.parent is not None and holder.parent.type in (
        "flow_mapping", "flow_sequence") or (holder is not None and holder.type == "flow_pair")
    try:
        text, block = _payload_text(payload, old, style, in_flow)
    except PayloadError:
        raise PayloadError(f"Payload for '{path}' in {file} is a block collection, but the value sits "
                           "in a flow collection", "send it in flow style ({a: 1} or [a, b])") from None
    newline = style.newline
    if wrapper is None:  # `key:` or `-` with no value: it goes after the marker
        assert holder is not None
        start = end = holder.end_byte
    else:
        # An anchor or tag stays in place unless the payload brings its own.
        start = wrapper.start_byte if (payload.decorated or old is None) else old.start_byte
        end = _row_end(wrapper if payload.decorated or old is None else old, raw)
    key_col = _column(raw, holder.start_byte) if holder is not None else 0
    gap_from = _gap_start(raw, start)
    gap_is_blank = not raw[gap_from:start].strip()
    line_start = raw.rfind(b"\n", 0, start) + 1
    own_line = wrapper is not None and re.fullmatch(rb"[ \t]*(?:-[ \t]+)*", raw[line_start:start]) is not None
    under_key = holder is not None and holder.type == "block_mapping_pair"
    if block:
        if own_line and not under_key:  # a sequence item's value, or the document's
            return start, end, _lines_after_first(text, " " * _column(raw, start), newline)
        # Under a key, on the lines below it, at the file's step for what the payload is
        # (a mapping under `key:` / `- a` must not land at the sequence's column).
        indent = " " * (key_col + _step(payload, style))
        if own_line and not gap_is_blank:  # a comment between the key and the value stays
            return line_start, end, indent + _lines_after_first(text, indent, newline)
        return gap_from, end, newline + indent + _lines_after_first(text, indent, newline)
    # A one-line value, a flow collection or a block scalar: it goes on the key's line.
    extra = "" if payload.block_scalar or "\n" not in text else " " * style.unit
    if wrapper is None or (under_key and own_line and gap_is_blank):
        return gap_from, end, " " + _lines_after_first(text, " " * key_col + extra, newline)
    prefix = " " * (_column(raw, start) if own_line else key_col)
    return start, end, _lines_after_first(text, prefix + extra, newline)


def _step(payload: _Payload, style: _Style) -> int:
    """How far a block collection sent as a key's value is indented under the key."""
    if payload.content is not None and payload.content.type == "block_sequence" and style.sequence is not None:
        return style.sequence
    return style.unit


def _gap_start(raw: bytes, offset: int) -> int:
    """Where the whitespace (line breaks included) before `offset` starts."""
    pos = offset
    while pos > 0 and raw[pos - 1:pos] in (b" ", b"\t", b"\n", b"\r"):
        pos -= 1
    return pos


def _key_written(key: str) -> str:
    try:
        plain = yaml.safe_load(key) == key and re.fullmatch(r"[^\s#:'\"{}\[\],&*!|>%@`-][^#:]*", key) is not None
    except yaml.YAMLError:
        plain = False
    if plain and key == key.strip():
        return key
    import json

    return json.dumps(key, ensure_ascii=False)


def _new_key_edit(raw: bytes, mapping: Node, key: str, payload: _Payload, style: _Style,
                  path: str, file: str) -> tuple[int, int, str]:
    """The text inserting `key: payload` as the last pair of `mapping`."""
    pairs = _entries(mapping)
    newline, name = style.newline, _key_written(key)
    if mapping.type == "flow_mapping":
        try:
            text, _ = _payload_text(payload, None, style, in_flow=True)
        except PayloadError:
            raise PayloadError(f"Payload for '{path}' in {file} is a block collection, but the value "
                               "goes in a flow mapping", "send it in flow style ({a: 1} or [a, b])") from None
        member = f"{name}: {text}"
        if not pairs:
            return mapping.start_byte + 1, mapping.start_byte + 1, member
        last = pairs[-1]
        after = raw[last.end_byte:mapping.end_byte]
        trailing = re.match(rb"\s*,", after)
        if last.start_point.row == mapping.start_point.row:
            at = last.end_byte + (trailing.end() if trailing else 0)
            return at, at, (" " if trailing else ", ") + member + ("," if trailing else "")
        indent = " " * _column(raw, last.start_byte)
        if trailing:
            at = last.end_byte + trailing.end()
            return at, at, newline + indent + member + ","
        return last.end_byte, last.end_byte, "," + newline + indent + member
    column = _column(raw, pairs[0].start_byte) if pairs else _column(raw, mapping.start_byte)
    last = pairs[-1] if pairs else mapping
    line_end = raw.find(b"\n", _row_end(last, raw))
    at = len(raw) if line_end < 0 else line_end - (raw[line_end - 1:line_end] == b"\r")
    text, block = _payload_text(payload, None, style, in_flow=False)
    if block:
        indent = " " * (column + _step(payload, style))
        value = newline + indent + _lines_after_first(text, indent, newline)
    else:
        extra = "" if payload.block_scalar or "\n" not in text else " " * style.unit
        value = " " + _lines_after_first(text, " " * column + extra, newline)
    lead = newline if line_end >= 0 or raw.endswith(b"\n") or at > 0 else ""
    return at, at, lead + " " * column + name + ":" + value


# --- the whole operation ----------------------------------------------------------------------


def set_yaml_value(source: str, path: str, payload: str, *, file: str) -> str:
    """Return `source` with the value at `path` set to the YAML value `payload`."""
    try:
        return _set(source, path.strip(), payload, file)
    except RecursionError:
        raise SyntaxCheckError(f"{file} or the payload for '{path}' is nested too deeply") from None


def _load_graph(text: str, file: str, what: str) -> list[yaml.Node]:
    try:
        return list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as err:
        raise SyntaxCheckError(f"{what}: {_problem(err)}") from None
    except yaml.YAMLError as err:
        raise SyntaxCheckError(f"{what}: {err}") from None


def _set(source: str, path: str, payload_text: str, file: str) -> str:
    keys = parse_path(path, file)
    raw = source.encode("utf-8", "surrogatepass")
    graphs = _load_graph(source, file, f"{file} is not valid YAML")
    root = _parser().parse(raw).root_node
    if root.has_error:
        error = _first_error(root)
        line, column = line_column(raw, error.start_byte if error else 0)
        raise SyntaxCheckError(f"{file} cannot be read by the YAML grammar: syntax error at line {line}, "
                               f"column {column}", "send the whole file instead (FILE and no target)")
    found = _find(raw, root, keys, path, file)
    payload = _read_payload(payload_text, path, file)
    adding = found.wrapper is None and found.holder is not None and found.holder.type in _MAPPINGS
    old = _content(found.wrapper)
    # `image: nginx` sent for `…image` is the value; only a mapping that holds a key of its
    # own name takes `name: …` as its new contents.
    holds_own_name = old is not None and old.type in _MAPPINGS and found.keys[-1:] != [] and any(
        _key_text(_pair_key(p), raw) == found.keys[-1] for p in _entries(old))
    if found.keys and not holds_own_name:
        payload = _unwrap_restated_key(payload, found.keys[-1], path, file)
    if not adding and payload.value is not _UNKNOWN:
        current = _graph_at(graphs[found.document], found.keys)
        if current is not None and same_data(_construct(current), payload.value):
            return source
    style = _style_of(raw, root, newline_of(source))
    if adding:
        assert found.holder is not None and isinstance(found.keys[-1], str)
        start, end, text = _new_key_edit(raw, found.holder, found.keys[-1], payload, style, path, file)
    elif found.keys or found.wrapper is not None:
        start, end, text = _new_value_edit(raw, found, payload, style, path, file)
    else:
        raise TargetNotFound(f"Path '{path}' not found in {file}: the document is empty",
                             "send the whole file instead (FILE and no target)")
    result = (raw[:start] + text.encode("utf-8", "surrogatepass") + raw[end:]).decode("utf-8", "surrogatepass")
    _verify(source, result, found, payload, path, file)
    return result


def _first_error(root: Node) -> Node | None:
    from kopipasta.languages import first_error

    return first_error(root)


# --- the check --------------------------------------------------------------------------------


def _graph_at(node: yaml.Node, keys: list[Key]) -> yaml.Node | None:
    for key in keys:
        if isinstance(key, int):
            if not isinstance(node, yaml.SequenceNode) or key >= len(node.value):
                return None
            node = node.value[key]
        else:
            if not isinstance(node, yaml.MappingNode):
                return None
            values = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key]
            if len(values) != 1:
                return None
            node = values[0]
    return node


def _graph_set(document: yaml.Node, keys: list[Key], key_node: yaml.Node | None, value: yaml.Node,
               replaces_alias: bool) -> yaml.Node:
    """Set the node at `keys` in place: an anchor kept on it, or around it, makes every
    alias of it show the new value, as the new file will."""
    old = _graph_at(document, keys)
    if old is not None and not replaces_alias:
        old.__class__ = value.__class__
        old.__dict__ = dict(value.__dict__)
        return document
    if not keys:
        return value
    parent, last = _graph_at(document, keys[:-1]), keys[-1]
    if isinstance(parent, yaml.SequenceNode) and isinstance(last, int):
        parent.value[last] = value  # the alias is replaced, not the node it names
    elif isinstance(parent, yaml.MappingNode):
        for index, (k, _) in enumerate(parent.value):
            if isinstance(k, yaml.ScalarNode) and k.value == last:
                parent.value[index] = (k, value)
                break
        else:
            assert key_node is not None
            parent.value.append((key_node, value))
    return document


def _pair_key_node(document: yaml.Node, keys: list[Key]) -> yaml.Node | None:
    parent = _graph_at(document, keys[:-1])
    if isinstance(parent, yaml.MappingNode):
        for k, _ in parent.value:
            if isinstance(k, yaml.ScalarNode) and k.value == keys[-1]:
                return k
    return None


def _verify(source: str, result: str, found: _Found, payload: _Payload, path: str, file: str) -> None:
    """The result must hold the old data with exactly the one value set."""
    try:
        new_graphs = list(yaml.compose_all(result, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as err:
        lost = re.match(r"found undefined alias '(.*)'", err.problem or "")
        if lost and err.problem_mark is not None:
            name = lost.group(1)
            raise PayloadError(f"Setting '{path}' in {file} would remove the anchor &{name}, which "
                               f"*{name} uses at line {err.problem_mark.line + 1}",
                               f"keep &{name} in the payload, where the value had it") from None
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {_problem(err)}") from None
    except yaml.YAMLError as err:
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {err}") from None
    old_graphs = list(yaml.compose_all(source, Loader=yaml.SafeLoader))
    bug = SyntaxCheckError(f"Setting '{path}' in {file} would change more than that value",
                           "nothing was written; this is a kopipasta bug, please report it")
    if len(new_graphs) != len(old_graphs):
        raise bug
    document, keys = found.document, found.keys
    new_node = _graph_at(new_graphs[document], keys)
    if new_node is None:
        raise bug
    if payload.value is not _UNKNOWN and not same_data(_construct(new_node), payload.value):
        raise bug
    key_node = _pair_key_node(new_graphs[document], keys) if keys else None
    old_content = _content(found.wrapper)
    replaces_alias = old_content is not None and old_content.type == "alias" and not payload.decorated
    old_graphs[document] = _graph_set(old_graphs[document], keys, key_node, new_node, replaces_alias)
    try:
        expected = [_construct(g) for g in old_graphs]
        actual = [_construct(g) for g in yaml.compose_all(result, Loader=yaml.SafeLoader)]
    except yaml.MarkedYAMLError as err:  # `<<: *anchor` merging what is no longer a mapping
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {_problem(err)}") from None
    except yaml.YAMLError as err:
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {err}") from None
    if not same_data(expected, actual):
        raise bug


# --- the inventory ----------------------------------------------------------------------------


def top_keys(data: bytes) -> list[TopKey]:
    """The keys of each document's top-level mapping; `[n].key` when there are several."""
    root = _parser().parse(data).root_node
    if root.has_error:
        return []
    documents = _documents(root)
    keys: list[TopKey] = []
    for index, document in enumerate(documents):
        content = _content(_document_value(document))
        if content is None or content.type not in _MAPPINGS:
            continue
        prefix = f"[{index}]." if len(documents) > 1 else ""
        names: list[str] = []
        for pair in _entries(content):
            name = _key_text(_pair_key(pair), data)
            if name is None:
                continue
            names.append(name)
            segment = name if plain_key_ok(name) else render_path([name])[1:]
            keys.append(TopKey("key", prefix + segment, pair.start_byte, _row_end(pair, data),
                               pair.start_point.row + 1, _last_row(pair, data) + 1))
        if len(set(names)) != len(names):
            return []  # duplicate keys: a path could not say which one
    return keys


def _last_row(node: Node, raw: bytes) -> int:
    return raw.count(b"\n", 0, _row_end(node, raw))
