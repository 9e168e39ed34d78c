"""Where the comment at the end of a replaced YAML value's last line goes (see data/yaml.py).

The span a value is replaced in ends before the comment on its last line (`row_end`), so
that comment would otherwise stay after whatever the new text ends with. That is right
only when the new text still ends on the line the comment was written about:

- a value on the key's line (a scalar, a one-line flow collection, `key:` with nothing) is
  described with its key: a one-line new value keeps the comment, and so does a flow
  collection or quoted scalar spread over lines (the comment still follows the whole
  value); a block collection sent for it leaves the key alone on its line, and the comment
  stays there (`key:  # comment`, the items below); a block scalar keeps it after its
  `|`/`>` header;
- a block collection's comment is on its last entry: it stays only when the new text
  ends with that same entry, unchanged (the file's line stripped equals the new last
  line stripped); anything else is a new last line the comment never described, so the
  comment goes with the old line, as the comments of the other entries do;
- the payload's own comment on its last line replaces the old one, and a payload that
  restates the old comment anywhere has placed it itself: in both cases the old one goes.

Whatever this keeps is a comment next to the line it was written about; it never lands on
a line the reply wrote about something else.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from kopipasta.data.yaml_tree import BLOCK, yaml_parser

_TRAILING = re.compile(rb"[ \t]+#[^\r\n]*")


def settle_trailing_comment(raw: bytes, start: int, end: int, text: str, old: Node | None, *,
                            block: bool, block_scalar: bool, newline: str) -> tuple[int, str]:
    """The edit (its end and text) with the old value's trailing comment kept, moved or dropped.

    `start`/`end` is the span replaced, `text` what is written there; `block` and
    `block_scalar` say what the text is.
    """
    found = _TRAILING.match(raw, end)
    if found is None:
        return end, text
    comment_end = found.end()
    trailing = raw[end:comment_end].decode("utf-8", "surrogatepass")
    written = _comments_written(raw, start, comment_end, text)
    if _text_of(trailing) in written.texts:
        return comment_end, text  # the payload restates it where it wants it
    if old is not None and old.type in BLOCK:
        same_last = _line_of(raw, end).strip() == text.rsplit(newline, 1)[-1].strip()
        if same_last and not written.on_last_line:
            return end, text  # the same last entry, unchanged: its comment stays on it
        return comment_end, text  # it described an entry the payload does not end with
    one_line = raw.count(b"\n", start, end) == 0  # the comment is on the line the edit starts on
    if block:
        if one_line and text.startswith(newline):
            return comment_end, trailing + text  # the key stays alone on its line, with its comment
        return comment_end, text  # the text's first line is an entry: it would describe that
    if block_scalar and newline in text:
        if one_line and not written.on_first_line:
            first, rest = text.split(newline, 1)
            return comment_end, first + trailing + newline + rest  # after the `|`/`>` header
        return comment_end, text
    # One line for one line, or a flow collection or scalar over lines: the comment still
    # follows the whole value, unless the payload ends with a comment of its own.
    return (comment_end if written.on_last_line else end), text


class _Written:
    def __init__(self, texts: set[str], on_first_line: bool, on_last_line: bool) -> None:
        self.texts = texts  # the comments' words
        self.on_first_line = on_first_line
        self.on_last_line = on_last_line


def _comments_written(raw: bytes, start: int, comment_end: int, text: str) -> _Written:
    """The comments the new text holds, read in the file as it would be without the old one."""
    new = text.encode("utf-8", "surrogatepass")
    result = raw[:start] + new + raw[comment_end:]
    stop = start + len(new)
    first_row = result.count(b"\n", 0, start)
    last_row = result.count(b"\n", 0, stop)
    texts: set[str] = set()
    rows: set[int] = set()
    stack = [yaml_parser().parse(result).root_node]
    while stack:
        node = stack.pop()
        if node.end_byte <= start or node.start_byte >= stop:
            continue
        if node.type == "comment" and start <= node.start_byte < stop:
            texts.add(_text_of(result[node.start_byte:node.end_byte].decode("utf-8", "surrogatepass")))
            rows.add(node.start_point.row)
        stack.extend(node.children)
    return _Written(texts, first_row in rows, last_row in rows)


def _text_of(comment: str) -> str:
    return comment.strip().lstrip("#").strip()


def _line_of(raw: bytes, offset: int) -> str:
    start = raw.rfind(b"\n", 0, offset) + 1
    return raw[start:offset].decode("utf-8", "surrogatepass")
