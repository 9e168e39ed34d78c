"""PHP's `<?php`: the tag that opens code in a file of text, in a payload and in a tree.

A PHP file is text until `<?php`; the grammar reads a payload without the tag
as one HTML `text` node, so a payload is parsed after a `<?php` the wrapper
adds (render.payload_tree). A payload that brings its own tag (a whole file
resent, a fragment copied with the file's first line) must not get a second
one: it parses as it stands, and inside the class wrapper its tag is turned
to spaces, so rows and columns stay those of the payload. The tag (and a
trailing `?>`) only switches the grammar into code: it is not a member of the
file that a fragment restates or leaves out (members.py). A targeted payload
(TARGET_NODE, INSERT_*, APPEND_TO) lands inside code already: its tag is
dropped before anything reads it (operations._code_patch). Nothing is inserted
into the HTML outside `<?php … ?>` (insert.py asks `lands_in_text`), and a new
definition goes above a file's last `?>`. docs/decisions/code-languages.md, "PHP's `<?php`".
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from kopipasta.syntax.languages import LanguageSpec


def _own_tag(spec: LanguageSpec, payload: str) -> re.Match[str] | None:
    """The payload's opening tag when its first non-blank text is that tag (`<?php`, any case)."""
    if not spec.opening_tag:
        return None
    return re.match(r"\s*(" + re.escape(spec.opening_tag) + r")(?=\s|$)", payload, re.IGNORECASE)


def has_own_tag(spec: LanguageSpec, payload: str) -> bool:
    return _own_tag(spec, payload) is not None


def holds_tag(spec: LanguageSpec, payload: str) -> bool:
    """Whether the payload may be a file of its own: it starts with its tag, or with HTML (a template).

    PHP code never starts with `<`; a bare function that echoes `"<?php …"` in a string must
    not be read as HTML text around that string.
    """
    return bool(spec.opening_tag) and payload.lstrip().startswith("<")


def blanked(spec: LanguageSpec, payload: str) -> str:
    """The payload with its own opening tag turned to spaces (rows and columns kept), for a wrapper."""
    found = _own_tag(spec, payload)
    if found is None:
        return payload
    return payload[: found.start(1)] + " " * len(found.group(1)) + payload[found.end(1) :]


def dropped(spec: LanguageSpec, payload: str) -> str:
    """A targeted payload without its own opening tag: the tag's line goes when it holds nothing else."""
    found = _own_tag(spec, payload)
    if found is None:
        return payload
    rest = payload[found.end(1) :]
    line_end = rest.find("\n")
    if not rest[: line_end if line_end >= 0 else len(rest)].strip():
        # The tag's line goes, and the blank lines under it: the payload starts at its code.
        rest = re.sub(r"\A(?:[ \t]*\n)+", "", rest[line_end + 1 :] if line_end >= 0 else "")
    else:
        rest = payload[: found.start(1)] + rest.lstrip(" \t")  # `<?php namespace App;`: the code stays
    # The `?>` that closes what the tag opened, alone on the last line, goes with it.
    return re.sub(r"\n[ \t]*\?>\s*\Z", "", rest)


def parses_as_code(spec: LanguageSpec, root: Node) -> bool:
    """Whether a tree parsed without a wrapper holds code: for PHP, a `<?php` somewhere at its top."""
    if not spec.opening_tag_type:
        return True
    return any(child.type == spec.opening_tag_type for child in root.children)


def opens_file(spec: LanguageSpec, root: Node) -> bool:
    """Whether a file's first top-level node is its opening tag (`<?php` on its first line)."""
    first = next(iter(root.children), None)
    return bool(spec.opening_tag_type) and first is not None and first.type == spec.opening_tag_type


def is_tag(spec: LanguageSpec, node: Node) -> bool:
    """A node that only switches into code or out of it: `<?php`, or a `?>` with nothing after it."""
    if not spec.opening_tag_type:
        return False
    if node.type == spec.opening_tag_type:
        return True
    named = node.named_children
    return bool(named) and all(child.type == spec.closing_tag_type for child in named)


def lands_in_text(spec: LanguageSpec, root: Node, start: int, end: int, data: bytes) -> bool:
    """Whether inserted bytes [start, end) stand in the text outside `<?php … ?>` (HTML, not code)."""
    if not spec.outside_code_type:
        return False
    first = start
    while first < end and data[first : first + 1].isspace():
        first += 1  # the blank lines put before the code
    if first >= end:
        return False
    node: Node | None = root.descendant_for_byte_range(first, first + 1)
    while node is not None:
        if node.type == spec.outside_code_type:
            return True
        node = node.parent
    return False
