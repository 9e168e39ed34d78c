"""Whether a block may be a text patch, without importing the text-patch reader (issue 9).

`textpatch_syntax.read_text_patch` answers None for every block whose payload
holds none of the substrings its forms start with, and whose fence is not a
`diff`/`patch` fence: every marker it looks for (search/replace `<<<`/`---`
and `>>>`/`+++`, `diff --git`, `@@` hunks, `*** Begin Patch`, `<<<DELETE>>>`,
git's conflict markers) contains one of them. So a TARGET_NODE block of plain
code is known not to be a text patch without importing that module (its
classes and regexes). A block that holds one is read by `read_text_patch`,
which decides, as before. tests/test_textpatch_markers.py checks the claim on
every fixture's reply.
"""

from __future__ import annotations

from kopipasta.model import Block

MARKER_SUBSTRINGS = ("<<<", ">>>", "---", "+++", "@@", "diff --git ", "*** Begin Patch")
_PATCH_FENCES = ("diff", "patch")


def may_be_text_patch(block: Block) -> bool:
    """False only when `read_text_patch(block)` is certainly None."""
    if block.info.lower() in _PATCH_FENCES:
        return True
    payload = block.payload
    if '"old_string"' in payload or '"edits"' in payload:
        return True  # a JSON edit as Claude Code writes it (json_edit.py)
    if (payload.startswith("-") or "\n-" in payload) and (payload.startswith("+") or "\n+" in payload):
        return True  # `-` and `+` lines: perhaps a diff without its `@@` (headerless_diff)
    return any(marker in payload for marker in MARKER_SUBSTRINGS)


def may_hold_unfenced_patches(lines: list[str], prose: list[bool]) -> bool:
    """False only when `unfenced.unfenced_blocks(lines, prose)` is certainly empty.

    (`prose` may be shorter than `lines`: a line past its end is not prose.)

    An unfenced patch starts on a prose line holding one of the same substrings.
    """
    return any(is_prose and any(marker in line for marker in MARKER_SUBSTRINGS) for line, is_prose in zip(lines, prose, strict=False))
