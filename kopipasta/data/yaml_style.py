"""A YAML payload, read and then written in the file's own style (see data/yaml.py)."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import yaml
from tree_sitter import Node

from kopipasta.data.common import Key, same_data
from kopipasta.data.common import dedent as common_dedent
from kopipasta.data.yaml_aliases import ALIAS_BUDGET, compose_all, too_many_aliases
from kopipasta.data.yaml_comments import settle_trailing_comment
from kopipasta.data.yaml_tree import (
    BLOCK,
    DECORATIONS,
    SCALARS,
    WRAPPERS,
    Found,
    column_at,
    document_value,
    documents_in,
    entries_in,
    item_value,
    key_text,
    pair_key,
    pair_value,
    row_end,
    value_in,
    yaml_parser,
)
from kopipasta.errors import PayloadError

UNKNOWN = object()  # a payload whose value only the file can tell (it uses the file's anchors)

# --- the file's style -------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    unit: int  # the indent step of a mapping nested under a key
    sequence: int | None  # how far a block sequence under a key is indented (None: not seen)
    newline: str


def style_of(raw: bytes, root: Node, newline: str) -> Style:
    steps: Counter[int] = Counter()
    sequences: Counter[int] = Counter()
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type != "block_mapping_pair":
            continue
        value = value_in(pair_value(node))
        if value is None or value.type not in BLOCK or value.start_point.row == node.start_point.row:
            continue
        step = value.start_point.column - node.start_point.column
        (steps if value.type == "block_mapping" else sequences)[step] += 1
    unit = max(steps, key=lambda s: (steps[s], -s)) if steps else 2
    sequence = max(sequences, key=lambda s: (sequences[s], -s)) if sequences else None
    return Style(unit if unit > 0 else 2, sequence, newline)


# --- the payload ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Payload:
    text: str  # "\n" line breaks, no common indentation, no blank lines around it
    value: Any  # its data, or UNKNOWN when it refers to the file's anchors
    content: Node | None  # its tree's value node (past anchors and tags)
    decorated: bool  # it brings its own anchor or tag

    @property
    def block(self) -> bool:
        return self.content is not None and self.content.type in BLOCK

    @property
    def block_scalar(self) -> bool:
        return self.content is not None and self.content.type == "block_scalar"


def dedent(text: str) -> str:
    return common_dedent(text, " ")  # YAML indents with spaces only: a tab is content


def read_payload(text: str, path: str, file: str) -> Payload:
    text = dedent(_without_document_markers(dedent(text)))
    if not text.strip():
        raise PayloadError(f"Payload for '{path}' in {file} is empty", "give the YAML value to set "
                           "(null for an empty one)")
    value: Any
    try:
        # In the file a line break ends it: a block scalar's clip keeps that one. Composed once
        # (a 20,000-item list is no small parse); a text that does not compose is composed as
        # sent, so its error names the line the reply wrote.
        try:
            documents = compose_all(text + "\n")
        except yaml.YAMLError:
            documents = compose_all(text)
            raise
        if len(documents) != 1:
            raise PayloadError(f"Payload for '{path}' in {file} holds {len(documents)} YAML documents",
                               "send one value")
        if too_many_aliases(documents, text):
            raise PayloadError(f"Payload for '{path}' in {file} expands its aliases to more than "
                               f"{ALIAS_BUDGET:,} values", "send the value written out, without anchors")
        value = construct(documents[0])
    except yaml.MarkedYAMLError as err:
        if err.problem and err.problem.startswith("found undefined alias"):
            value = UNKNOWN  # `<<: *defaults`: the file's own anchor, checked in the file
        else:
            raise PayloadError(f"Payload for '{path}' in {file} is not valid YAML: {problem_text(err)}") from None
    except yaml.YAMLError as err:
        raise PayloadError(f"Payload for '{path}' in {file} is not valid YAML: {err}") from None
    raw = text.encode("utf-8", "surrogatepass")
    documents_nodes = documents_in(yaml_parser().parse(raw).root_node)
    wrapper = document_value(documents_nodes[0]) if documents_nodes else None
    decorated = wrapper is not None and wrapper.type in WRAPPERS and any(
        c.type in DECORATIONS for c in wrapper.named_children)
    return Payload(text, value, value_in(wrapper), decorated)


def _without_document_markers(text: str) -> str:
    """A payload sent as a document (`---` first, `...` last): the value is what is inside;
    written into the file, the markers would start a document of their own."""
    lines = text.split("\n")
    while lines and re.match(r"%[A-Z]", lines[0]):
        lines.pop(0)
    if lines and re.fullmatch(r"---(?:[ \t]+.*)?", lines[0]):
        rest = lines.pop(0)[3:].strip()
        if rest:
            lines.insert(0, rest)
    if lines and lines[-1].rstrip() == "...":
        lines.pop()
    return "\n".join(lines)


def unwrap_restated_key(payload: Payload, key: Key, path: str, file: str) -> Payload:
    """`image: nginx:1.27` sent for `…image` is the value `nginx:1.27`."""
    content = payload.content
    if not isinstance(key, str) or content is None or content.type != "block_mapping":
        return payload
    pairs = entries_in(content)
    raw = payload.text.encode("utf-8", "surrogatepass")
    if len(pairs) != 1 or key_text(pair_key(pairs[0]), raw) != key:
        return payload
    value = pair_value(pairs[0])
    if value is None:
        return read_payload("null", path, file)
    end = row_end(value, raw)
    comment = re.compile(rb"[ \t]+#[^\r\n]*").match(raw, end)  # the line's comment comes with it
    text = raw[value.start_byte:comment.end() if comment else end].decode("utf-8", "surrogatepass")
    if value.start_point.row != pairs[0].start_point.row:
        text = " " * value.start_point.column + text
    return read_payload(text, path, file)


def problem_text(err: yaml.MarkedYAMLError) -> str:
    mark = err.problem_mark
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
    return f"{err.problem}{where}"


def construct(node: yaml.Node) -> Any:
    return yaml.constructor.SafeConstructor().construct_document(node)


# --- writing the payload in the file's style --------------------------------------------------


def _reindented(payload: Payload, style: Style) -> str:
    """The payload's text with its nested block collections at the file's indent steps."""
    raw = payload.text.encode("utf-8", "surrogatepass")
    root = yaml_parser().parse(raw).root_node
    lines = payload.text.split("\n")
    shift = [0] * len(lines)

    def last_row(node: Node) -> int:
        row = node.end_point.row
        return row - 1 if node.end_point.column == 0 and row > node.start_point.row else row

    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, delta = stack.pop()
        if node.type == "block_mapping_pair":
            value = value_in(pair_value(node))
            if value is not None and value.type in BLOCK and value.start_point.row > node.start_point.row:
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
    content = value_in(node)
    if content is None:
        return "null"
    if node is not None and node.type in WRAPPERS and any(c.type in DECORATIONS for c in node.named_children):
        return None
    text = raw[content.start_byte:content.end_byte].decode("utf-8", "surrogatepass")
    if content.type == "block_mapping":
        parts = []
        for pair in entries_in(content):
            key, value = _flow_text(pair_key(pair), raw), _flow_text(pair_value(pair), raw)
            if key is None or value is None:
                return None
            parts.append(f"{key}: {value}")
        return "{" + ", ".join(parts) + "}"
    if content.type == "block_sequence":
        items = [_flow_text(item_value(item), raw) for item in entries_in(content)]
        return None if None in items else "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
    if content.type == "block_scalar" or "\n" in text or content.type == "comment":
        return None
    return text


def _block_text(node: Node | None, raw: bytes, style: Style) -> str | None:
    """A flow collection written in block style (at column 0), or None."""
    content = value_in(node)
    if content is None:
        return None
    if node is not None and node.type in WRAPPERS and any(c.type in DECORATIONS for c in node.named_children):
        return None
    if content.type == "flow_mapping":
        pairs = entries_in(content)
        if not pairs or any(p.type != "flow_pair" for p in pairs):
            return None
        lines = []
        for pair in pairs:
            key = _flow_text(pair_key(pair), raw)
            value = pair_value(pair)
            inner = value_in(value)
            if key is None:
                return None
            if inner is not None and inner.type in ("flow_mapping", "flow_sequence") and entries_in(inner):
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
        items = entries_in(content)
        if not items:
            return None
        lines = []
        for item in items:
            inner = value_in(item)
            if item.type == "flow_pair" or (inner is not None and inner.type in ("flow_mapping", "flow_sequence") and entries_in(inner)):
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


def _quoted_like(payload: Payload, old: Node) -> str | None:
    """The payload's string in the quoting of the scalar it replaces, if that spells it."""
    if not isinstance(payload.value, str) or payload.content is None:
        return None
    if payload.content.type not in SCALARS or old.type not in SCALARS or payload.content.type == old.type:
        return None
    if payload.decorated or "\n" in payload.text:
        return None
    if "#" in payload.text and _has_comment(yaml_parser().parse(payload.text.encode("utf-8", "surrogatepass")).root_node):
        return None  # requoted from its value, the payload's own comment would be lost
    value = payload.value
    if old.type == "double_quote_scalar":
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


def _payload_text(payload: Payload, old: Node | None, style: Style, in_flow: bool) -> tuple[str, bool]:
    """The text to write (column 0, "\n" breaks) and whether it is a block collection."""
    raw = payload.text.encode("utf-8", "surrogatepass")
    root = yaml_parser().parse(raw).root_node
    documents = documents_in(root)
    wrapper = document_value(documents[0]) if documents else None
    if old is not None and not payload.decorated:
        quoted = _quoted_like(payload, old)
        if quoted is not None:
            return quoted, False
    if in_flow and isinstance(payload.value, str) and payload.content is not None \
            and payload.content.type == "plain_scalar" and not _same_as_payload(f"[{payload.text}]", payload, item=True):
        return json.dumps(payload.value, ensure_ascii=False), False  # `a,b` would be two items
    wants_flow = in_flow or (old is not None and old.type in ("flow_mapping", "flow_sequence")
                             and entries_in(old) and old.start_point.row == old.end_point.row)
    if payload.block and wants_flow and not _has_comment(root):  # flow style has no room for them
        flow = _flow_text(wrapper, raw)
        if flow is not None and _same_as_payload(flow, payload):
            return flow, False
    if in_flow and (payload.block or payload.block_scalar):
        raise PayloadError("", "")  # replaced by the caller's message
    wants_block = (old is not None and old.type in BLOCK and not in_flow)
    if wants_block and payload.content is not None and payload.content.type in ("flow_mapping", "flow_sequence") \
            and "\n" not in payload.text:
        block = _block_text(wrapper, raw, style)
        if block is not None and _same_as_payload(block, payload):
            return block, True
    if payload.block:
        return _reindented(payload, style), True
    return payload.text, False


def _has_comment(root: Node) -> bool:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            return True
        stack.extend(node.children)
    return False


def _same_as_payload(text: str, payload: Payload, *, item: bool = False) -> bool:
    """Whether `text` spells the payload's value (as the one item of a flow sequence)."""
    if payload.value is UNKNOWN:
        return False
    try:
        return same_data(yaml.safe_load(text + "\n"), [payload.value] if item else payload.value)
    except yaml.YAMLError:
        return False


def _lines_after_first(text: str, prefix: str, newline: str) -> str:
    first, *rest = text.split("\n")
    return newline.join([first, *((prefix + line) if line.strip() else line for line in rest)])


def new_value_edit(raw: bytes, found: Found, payload: Payload, style: Style, path: str,
                    file: str) -> tuple[int, int, str]:
    """The byte span to replace and its new text, for a value the file has; the comment at
    the end of the old value's last line is kept only where it still describes that line."""
    start, end, text, block = _placed_value(raw, found, payload, style, path, file)
    end, text = settle_trailing_comment(raw, start, end, text, value_in(found.wrapper), block=block,
                                        block_scalar=payload.block_scalar, newline=style.newline)
    return start, end, text


def _placed_value(raw: bytes, found: Found, payload: Payload, style: Style, path: str,
                  file: str) -> tuple[int, int, str, bool]:
    """The span, its new text, and whether that is a block collection."""
    holder, wrapper = found.holder, found.wrapper
    old = value_in(wrapper)
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
        end = row_end(wrapper if payload.decorated or old is None else old, raw)
    key_col = column_at(raw, holder.start_byte) if holder is not None else 0
    gap_from = _gap_start(raw, start)
    gap_is_blank = not raw[gap_from:start].strip()
    line_start = raw.rfind(b"\n", 0, start) + 1
    own_line = wrapper is not None and re.fullmatch(rb"[ \t]*(?:-[ \t]+)*", raw[line_start:start]) is not None
    under_key = holder is not None and holder.type == "block_mapping_pair"
    if block:
        if own_line and not under_key:  # a sequence item's value, or the document's
            return start, end, _lines_after_first(text, " " * column_at(raw, start), newline), True
        # Under a key, on the lines below it, at the file's step for what the payload is
        # (a mapping under `key:` / `- a` must not land at the sequence's column).
        indent = " " * (key_col + _step(payload, style))
        if own_line and not gap_is_blank:  # a comment between the key and the value stays
            return line_start, end, indent + _lines_after_first(text, indent, newline), True
        return gap_from, end, newline + indent + _lines_after_first(text, indent, newline), True
    # A one-line value, a flow collection or a block scalar: it goes on the key's line.
    extra = "" if payload.block_scalar or "\n" not in text else " " * style.unit
    if wrapper is None or (under_key and own_line and gap_is_blank):
        return gap_from, end, " " + _lines_after_first(text, " " * key_col + extra, newline), False
    prefix = " " * (column_at(raw, start) if own_line else key_col)
    return start, end, _lines_after_first(text, prefix + extra, newline), False


def _step(payload: Payload, style: Style) -> int:
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
    return json.dumps(key, ensure_ascii=False)


def new_key_edit(raw: bytes, mapping: Node, key: str, payload: Payload, style: Style,
                  path: str, file: str) -> tuple[int, int, str]:
    """The text inserting `key: payload` as the last pair of `mapping`."""
    pairs = entries_in(mapping)
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
        indent = " " * column_at(raw, last.start_byte)
        if trailing:
            at = last.end_byte + trailing.end()
            return at, at, newline + indent + member + ","
        return last.end_byte, last.end_byte, "," + newline + indent + member
    column = column_at(raw, pairs[0].start_byte) if pairs else column_at(raw, mapping.start_byte)
    last = pairs[-1] if pairs else mapping
    line_end = raw.find(b"\n", row_end(last, raw))
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
