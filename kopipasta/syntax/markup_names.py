"""The names of CSS rules, at-rules and HTML ids, in the one spelling a target compares (issue 25).

A CSS rule is named by its selector, which a person writes with the spacing
they like: `.card>h2`, `.card > h2` and `.card  >\n  h2` are one selector. So
the name of a rule (in the file, in a payload, in a target) is its selector in
a canonical spelling: whitespace runs read as one space, comments as none, a
combinator (`>`, `+`, `~`) and a selector list's `,` spaced as `a > b`, `a, b`
at the top level and unspaced inside parentheses; strings, attribute
selectors (`[title="a  b"]`) and escapes (`.md\\:flex`) are kept as written.
An at-rule is named by its keyword and prelude the same way
(`@media (max-width: 600px)`), a `@keyframes` by its name, and an HTML element
by its `id` as a selector writes it (`#sidebar`).

Nesting is written as CSS nests: `@media (max-width: 600px) { .btn }` is the
rule `.btn` inside that `@media` (`nested`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

_COMBINATORS = ">+~"
# After these a space is never needed: the canonical form writes its own.
_NO_SPACE_AFTER = " ,>+~("


def canonical_selector(text: str) -> str:
    """A selector (or a selector list) in the spelling names are compared in."""
    out: list[str] = []
    depth = 0  # parentheses: `:is(a, b)`, `:nth-child(2n+1)`
    pending = False  # whitespace seen since the last character written
    i = 0
    while i < len(text):
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = len(text) if close < 0 else close + 2
            pending = True
            continue
        if c.isspace():
            pending = True
            i += 1
            continue
        if c in "\"'[":  # a string or an attribute selector: written as it stands
            end = _closing(text, i)
            _space(out, pending)
            out.append(text[i:end])
            pending = False
            i = end
            continue
        if c == "\\":  # an escape (`.md\:flex`): the escaped character is part of the name
            _space(out, pending)
            out.append(text[i : i + 2])
            pending = False
            i += 2
            continue
        if c in _COMBINATORS or c == ",":
            _trim(out)
            out.append((f" {c} " if c != "," else ", ") if depth == 0 else c)
        elif c == "(":
            depth += 1
            out.append(c)
        elif c == ")":
            depth = max(depth - 1, 0)
            _trim(out)
            out.append(c)
        else:
            _space(out, pending)
            out.append(c)
        pending = False
        i += 1
    return "".join(out).strip()


def canonical_prelude(text: str) -> str:
    """An at-rule's prelude (`screen and (max-width:600px)`) in the spelling names are compared in."""
    out: list[str] = []
    pending = False
    for c in text:
        if c.isspace():
            pending = True
            continue
        if c in ":,":
            _trim(out)
            out.append(c + " ")
        elif c == ")":
            _trim(out)
            out.append(c)
        else:
            _space(out, pending)
            out.append(c)
        pending = False
    return "".join(out).strip()


def at_rule_name(keyword: str, prelude: str) -> str:
    """`@media (max-width: 600px)`, `@font-face`: the name of an at-rule with a block."""
    keyword = "@" + keyword.strip().lstrip("@").lower()
    prelude = canonical_prelude(prelude)
    return f"{keyword} {prelude}" if prelude else keyword


def _space(out: list[str], pending: bool) -> None:
    if pending and out and not out[-1].endswith(tuple(_NO_SPACE_AFTER)):
        out.append(" ")


def _trim(out: list[str]) -> None:
    while out and out[-1] == " ":
        out.pop()


def _closing(text: str, start: int) -> int:
    """The index after the string or `[…]` that opens at `start` (to the end when it never closes)."""
    closer = "]" if text[start] == "[" else text[start]
    i = start + 1
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c in "\"'" and closer == "]":
            i = _closing(text, i)
            continue
        if c == closer:
            return i + 1
        i += 1
    return len(text)


def nested(parts: tuple[str, ...]) -> str:
    """A qualified markup name as CSS nests it: `@media print { #main }`."""
    if len(parts) == 1:
        return parts[0]
    return f"{parts[0]} {{ {nested(parts[1:])} }}"


def name_of(node: Node) -> str:
    """The name a captured @name node gives its definition, in the canonical spelling."""
    text = (node.text or b"").decode("utf-8", "replace")
    if node.type == "selectors":
        return canonical_selector(text)
    if node.type in ("media_statement", "supports_statement", "at_rule"):
        return _at_rule_node_name(node)
    if node.type == "attribute_value":  # an HTML element's id
        return "#" + text.strip()
    return text.strip()


def _at_rule_node_name(node: Node) -> str:
    """`@media screen and (…)`: the keyword, and the prelude up to the block."""
    block = next((c for c in node.children if c.type == "block"), None)
    first = node.children[0] if node.children else None
    if first is None:
        return ""
    keyword = (first.text or b"").decode("utf-8", "replace")
    end = block.start_byte if block is not None else node.end_byte
    data = node.text or b""
    prelude = data[first.end_byte - node.start_byte : end - node.start_byte].decode("utf-8", "replace")
    return at_rule_name(keyword, _without_comments(prelude))


def _without_comments(prelude: str) -> str:
    """A prelude with its comments read as spaces (`@media /* narrow */ (…)`)."""
    while "/*" in prelude:
        start = prelude.index("/*")
        close = prelude.find("*/", start + 2)
        prelude = prelude[:start] + " " + ("" if close < 0 else prelude[close + 2 :])
    return prelude
