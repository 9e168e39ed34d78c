"""The YAML syntax tree as TARGET_PATH reads it: values past their anchors and tags,
mapping pairs and sequence items, keys as text, and where a value's last byte is."""

from __future__ import annotations

from dataclasses import dataclass

import yaml
from tree_sitter import Node, Parser

from kopipasta.data.common import Key
from kopipasta.syntax.languages import grammar_parser

WRAPPERS = ("block_node", "flow_node")
DECORATIONS = ("anchor", "tag")
MAPPINGS = ("block_mapping", "flow_mapping")
SEQUENCES = ("block_sequence", "flow_sequence")
BLOCK = ("block_mapping", "block_sequence")
SCALARS = ("plain_scalar", "double_quote_scalar", "single_quote_scalar")


def yaml_parser() -> Parser:
    return grammar_parser("yaml")


# --- the tree ---------------------------------------------------------------------------------


def value_in(wrapper: Node | None) -> Node | None:
    """The value inside a block_node/flow_node, past its anchor and tag."""
    if wrapper is None:
        return None
    if wrapper.type not in WRAPPERS:
        return wrapper
    inner = [c for c in wrapper.named_children if c.type not in (*DECORATIONS, "comment")]
    return inner[-1] if inner else None


def documents_in(root: Node) -> list[Node]:
    return [c for c in root.named_children if c.type == "document"]


def document_value(document: Node) -> Node | None:
    values = [c for c in document.named_children if c.type in WRAPPERS]
    return values[0] if values else None


def entries_in(collection: Node) -> list[Node]:
    """The pairs of a mapping or the item nodes of a sequence, comments left out."""
    if collection.type == "block_sequence":
        return [c for c in collection.named_children if c.type == "block_sequence_item"]
    return [c for c in collection.named_children if c.type != "comment"]


def item_value(item: Node) -> Node | None:
    if item.type == "block_sequence_item":
        values = [c for c in item.named_children if c.type in WRAPPERS]
        return values[0] if values else None
    return item  # a flow sequence's item is the node itself (flow_node or a one-pair flow_pair)


def pair_key(pair: Node) -> Node | None:
    return pair.child_by_field_name("key") if pair.type in ("block_mapping_pair", "flow_pair") else pair


def pair_value(pair: Node) -> Node | None:
    return pair.child_by_field_name("value") if pair.type in ("block_mapping_pair", "flow_pair") else None


def key_text(key: Node | None, raw: bytes) -> str | None:
    """A key's string as YAML reads it before typing it (`on` is "on", `"a\\tb"` unescaped)."""
    content = value_in(key)
    if content is None or content.type not in SCALARS:
        return None
    text = raw[content.start_byte:content.end_byte].decode("utf-8", "surrogatepass")
    if content.type == "plain_scalar":
        return text
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    return node.value if isinstance(node, yaml.ScalarNode) else None


def kind_word(content: Node | None) -> str:
    if content is None:
        return "null"
    if content.type in MAPPINGS:
        return "a mapping"
    if content.type in SEQUENCES:
        return "a sequence"
    if content.type == "alias":
        return "an alias"
    return "a scalar"


def row_end(node: Node, raw: bytes) -> int:
    """The node's end, without the line breaks, blank lines and trailing comments a block
    node takes in: the end of its last key, value or item."""
    if node.type in WRAPPERS:
        content = value_in(node)
        if content is not None and content.type in (*BLOCK, "block_sequence_item", "block_mapping_pair"):
            return row_end(content, raw)
    if node.type in BLOCK:
        entries = entries_in(node)
        if entries:
            return row_end(entries[-1], raw)
    if node.type == "block_mapping_pair":
        value = pair_value(node)
        if value is not None:
            return row_end(value, raw)
        colon = next((c for c in node.children if c.type == ":"), None)
        if colon is not None:
            return colon.end_byte
    if node.type == "block_sequence_item":
        value = item_value(node)
        return row_end(value, raw) if value is not None else node.children[0].end_byte
    return node.start_byte + len(raw[node.start_byte:node.end_byte].rstrip())


def column_at(raw: bytes, offset: int) -> int:
    return offset - (raw.rfind(b"\n", 0, offset) + 1)


@dataclass(frozen=True)
class Found:
    """Where the path leads: an existing value, or the mapping that is to receive a new key."""

    document: int
    keys: list[Key]  # the path inside that document
    wrapper: Node | None  # the value's block_node/flow_node (None: an empty value, or a new key)
    holder: Node | None  # the pair or sequence item that holds it; the mapping, for a new key
