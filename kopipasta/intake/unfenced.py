"""Text patches written straight into a reply, without a fence (PROTOCOL.md §8).

A run of prose lines is a patch only when it reads as one of the forms from its
first line to its last (a diff, search/replace sections, the patch envelope);
a FILE or path line right above names its file. Anything else is talk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from kopipasta.intake.textpatch_syntax import (
    GIT_HEADER,
    GIT_META,
    HUNK_HEADER,
    SR_CLOSE,
    SR_OPEN,
    path_line,
)
from kopipasta.model import FILE_KEY, Block


def unfenced_blocks(lines: list[str], prose: list[bool]) -> list[Block]:
    """Text patches written straight into the reply, without a fence.

    Only a run that reads as one of the forms from its first line to its last
    counts; a FILE line followed by prose is talk about a file, never a patch.
    """
    found: list[Block] = []
    i = 0
    n = len(lines)

    def is_prose(k: int) -> bool:
        return k < len(prose) and prose[k]

    while i < n:
        if not is_prose(i):
            i += 1
            continue
        line = lines[i]
        start, end = i, None
        if line.strip() == "*** Begin Patch":
            end = next((k for k in range(i + 1, n) if is_prose(k) and lines[k].strip() == "*** End Patch"), None)
        elif ("<<<" in line or "---" in line) and SR_OPEN.match(line):
            end = _unfenced_sr_end(lines, i, is_prose)
        elif (
            (line.startswith("diff --git ") and GIT_HEADER.match(line))
            or (line.startswith("--- ") and i + 1 < n and lines[i + 1].startswith("+++ "))
            or (line.startswith("@@") and HUNK_HEADER.match(line))
        ):
            end = _unfenced_diff_end(lines, i, is_prose)
        if end is None:
            i += 1
            continue
        # A FILE or path line right above names the file.
        file = None
        if start > 0 and is_prose(start - 1) and lines[start - 1].strip():
            file = path_line(lines[start - 1])
            if file is not None:
                start -= 1
        if file is None and (SR_OPEN.match(line) or line.startswith("@@")):
            i = end + 1
            if SR_OPEN.match(line):
                found.append(Block(0, start + 1, "", (), None, "\n".join(lines[start : end + 1])))
            continue
        payload = "\n".join(lines[i : end + 1])
        found.append(Block(0, start + 1, "", ((FILE_KEY, file),) if file else (), file, payload))
        i = end + 1
    return found


def _unfenced_sr_end(lines: list[str], i: int, check: Callable[[int], bool]) -> int | None:
    """The last line of the search/replace sections starting at line i, or None."""
    end = None
    k = i
    while k < len(lines) and check(k):
        if SR_OPEN.match(lines[k]):
            close = next((j for j in range(k + 1, len(lines)) if SR_CLOSE.match(lines[j])), None)
            if close is None or not all(check(j) for j in range(k, close + 1)):
                return end
            end = close
            k = close + 1
            continue
        if not lines[k].strip() or (path_line(lines[k]) and k + 1 < len(lines) and SR_OPEN.match(lines[k + 1])):
            k += 1
            continue
        break
    return end


def _unfenced_diff_end(lines: list[str], i: int, check: Callable[[int], bool]) -> int | None:
    """The last line of the diff starting at line i: while lines read as diff lines."""
    end = None
    k = i
    while k < len(lines) and check(k):
        line = lines[k]
        if line == "":
            # A blank line is context only when the diff goes on after it.
            if k + 1 < len(lines) and check(k + 1) and lines[k + 1][:1] in (" ", "-", "+", "@"):
                k += 1
                continue
            break
        if line[:1] in (" ", "-", "+", "@", "\\") or GIT_HEADER.match(line) or GIT_META.match(line):
            if line[:1] == "@" and not HUNK_HEADER.match(line):
                break
            end = k
            k += 1
            continue
        break
    return end


def merge_unfenced(
    blocks: list[Block], lines: list[str], prose: list[bool], *, after: int = -1, first_index: int = 1
) -> list[Block]:
    """The reply's fenced blocks and its unfenced text patches below line `after`, in reply order.

    When there are unfenced patches, every block is numbered again from `first_index`.
    """
    extra = [b for b in unfenced_blocks(lines, prose) if b.line - 1 > after]
    if not extra:
        return blocks
    ordered = sorted([*blocks, *extra], key=lambda b: b.line)
    return [replace(b, index=k) for k, b in enumerate(ordered, first_index)]
