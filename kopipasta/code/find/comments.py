"""The comment lines above a definition, which belong to it (PROTOCOL.md §4).

A replace keeps them unless the payload restates them, a delete takes them, and
read_definition shows them: all ask `comment_block_start` where they begin.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node, Tree


def comment_block_start(tree: Tree, data: bytes, outer_start: int) -> int | None:
    """Start of the comment lines directly above a definition, if any.

    Contiguous comments at the definition's indentation, with no blank line
    between them and the definition, belong to it (PROTOCOL.md §4). So does a
    doc comment (`/** … */`) a blank line or two above it, with nothing between
    (issue 25): express and many JS, Java and PHP files write their JSDoc so.
    """
    line_start = data.rfind(b"\n", 0, outer_start) + 1
    indent = outer_start - line_start
    block_start: int | None = None
    cursor = line_start
    blank_lines = 0
    while cursor > 0:
        previous_end = cursor - 1  # the "\n" ending the line above
        previous_text_end = previous_end
        if previous_text_end > 0 and data[previous_text_end - 1 : previous_text_end] == b"\r":
            previous_text_end -= 1
        previous_start = data.rfind(b"\n", 0, previous_end) + 1
        line = data[previous_start:previous_text_end]
        if not line.strip():
            if block_start is not None or blank_lines >= _DOC_COMMENT_GAP:
                break
            blank_lines += 1
            cursor = previous_start
            continue
        last = previous_start + len(line.rstrip()) - 1
        node = tree.root_node.descendant_for_byte_range(last, last + 1)
        # Rust's `/// doc` is a line_comment around a doc_comment: the whole comment counts.
        while node is not None and node.parent is not None and "comment" in node.parent.type:
            node = node.parent
        if node is None or "comment" not in node.type:
            break
        while node.parent is not None and "comment" in node.parent.type:
            node = node.parent  # Lua's `comment_content` inside its `comment`
        comment_line_start = data.rfind(b"\n", 0, node.start_byte) + 1
        if node.start_byte - comment_line_start != indent or data[comment_line_start : node.start_byte].strip():
            break
        if blank_lines and not _is_doc_comment(node, comment_line_start):
            break
        block_start = node.start_byte
        cursor = comment_line_start
    return block_start


# Blank lines a doc comment may stand above the definition it documents.
_DOC_COMMENT_GAP = 2
# A doc comment that says it is about the file (a license, an overview) documents no definition.
_FILE_COMMENT = re.compile(rb"@(?:license|file|fileoverview|module|copyright|preserve)\b|\bCopyright\b", re.IGNORECASE)


def _is_doc_comment(node: Node, line_start: int) -> bool:
    """A `/** … */` doc comment of a definition, not the file's header (which is the file's)."""
    text = node.text or b""
    if not text.startswith(b"/**") or text.startswith(b"/**/") or _FILE_COMMENT.search(text):
        return False
    return line_start > 0
