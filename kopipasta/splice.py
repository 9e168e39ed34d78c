"""Replace one definition's bytes with a rendered payload (PROTOCOL.md §4).

The replaced span is the definition's own, widened only by what the payload
restates: its comment block, its decorators or `export` wrapper. Whatever the
payload does not restate is kept byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.definitions import Definition, comment_block_start
from kopipasta.indent import Unit, detect_unit
from kopipasta.languages import LanguageSpec
from kopipasta.render import render_lines

if TYPE_CHECKING:
    from tree_sitter import Tree

# A payload line that restates the wrapper: a decorator or annotation, or an export.
_PREFIX_LINE = re.compile(r"^(@|export\b)")


@dataclass(frozen=True)
class Splice:
    """The result of one edit: the new file data and where the edit sits in both versions."""

    data: bytes
    start: int  # byte where the changed region starts (same in old and new)
    old_end: int
    new_end: int


def line_start(data: bytes, offset: int) -> int:
    return data.rfind(b"\n", 0, offset) + 1


def indentation_at(data: bytes, offset: int) -> str:
    """The leading whitespace of the line holding `offset`."""
    start = line_start(data, offset)
    line = data[start:offset]
    return line[: len(line) - len(line.lstrip(b" \t"))].decode("ascii")


def file_unit(data: bytes) -> Unit | None:
    return detect_unit(data.decode("utf-8", "replace").splitlines())


def _leading_comment_count(spec: LanguageSpec, lines: list[str]) -> int:
    """How many of the payload's first lines are a comment block (before any code)."""
    prefixes = ("#",) if spec.grammar == "python" else ("//",)
    count = 0
    in_block = False
    for line in lines:
        stripped = line.strip()
        if in_block:
            count += 1
            in_block = "*/" not in stripped
            continue
        if spec.grammar != "python" and stripped.startswith("/*"):
            count += 1
            in_block = "*/" not in stripped[2:]
            continue
        if stripped.startswith(prefixes):
            count += 1
            continue
        break
    return count


def join_rendered(lines: list[str], newline: str) -> str:
    """Rendered lines as text to splice at a position already indented: the first line's indent goes."""
    if not lines:
        return ""
    return newline.join([lines[0].lstrip(" \t"), *lines[1:]])


def replace_definition(
    spec: LanguageSpec, tree: Tree, data: bytes, definition: Definition, payload: str, newline: str
) -> Splice:
    payload_lines = payload.split("\n")
    comment_count = _leading_comment_count(spec, payload_lines)
    body = [line for line in payload_lines[comment_count:]]
    first_code = next((line.strip() for line in body if line.strip()), "")
    restates_prefix = bool(_PREFIX_LINE.match(first_code))

    if comment_count:
        existing_comment = comment_block_start(tree, data, definition.outer_start)
        start = existing_comment if existing_comment is not None else definition.outer_start
    else:
        start = definition.outer_start if restates_prefix else definition.start
    # Decorators and `export` the payload leaves out stay as they are, after its new comment.
    kept = b"" if restates_prefix or not comment_count else data[definition.outer_start : definition.start]

    base = indentation_at(data, start)
    rendered = render_lines(spec, payload, base=base, file_unit=file_unit(data))
    if kept:
        comment_text = join_rendered(rendered[:comment_count], newline)
        body_text = join_rendered(rendered[comment_count:], newline)
        text = (comment_text + newline + base).encode("utf-8") + kept + body_text.encode("utf-8")
    else:
        text = join_rendered(rendered, newline).encode("utf-8")
    new = data[:start] + text + data[definition.end :]
    return Splice(new, start, definition.end, start + len(text))
