"""What a write did to one file, for a program to check without reading the file back (issue 20).

`file_delta` describes one changed file: its path, the SHA-256 of its bytes
before and after (as on disk: BOM and line endings included), its newline
style, whether it was created, modified, deleted or renamed, the lines of the
new file that are new or changed, and the unified diff. `kopipasta apply
--json` prints one per written file under `files`, and every result of the
MCP server (kopipasta/agents/) carries them.

The diff and the ranges are computed on the changed region only: the common
lines at both ends are skipped at C speed before difflib sees the rest, so a
one-method edit in a 20,000-line file costs what the method costs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kopipasta.disk.digest import sha256_hex
from kopipasta.model import FileChange
from kopipasta.startup.shared_ends import common_prefix, common_suffix

# Context lines around each hunk of the unified diff, as `diff -u` and git write.
CONTEXT = 3


def newline_style(data: bytes | None) -> str | None:
    """`lf`, `crlf`, `cr` or `mixed` (CRLF and LF both), from the bytes; None for no file or no line break."""
    if data is None:
        return None
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n")
    if crlf and crlf < lf:
        return "mixed"
    if crlf:
        return "crlf"
    if lf:
        return "lf"
    return "cr" if b"\r" in data else None


def file_deltas(changes: Iterable[FileChange]) -> list[dict[str, Any]]:
    """A delta per changed file; a rename is one entry, under its new name, from the old name's bytes."""
    changes = list(changes)
    old_names = {c.renamed_from: c for c in changes if c.renamed_from is not None}
    deltas = []
    for change in changes:
        if change.after is None and change.path in old_names:
            continue  # the old name of a rename: its entry is the new name's
        if change.renamed_from is not None:
            gone = next((c for c in changes if c.path == change.renamed_from), None)
            before = gone.before if gone is not None else None
            deltas.append(file_delta(change.path, before, change.after, change.renamed_from))
        else:
            deltas.append(file_delta(change.path, change.before, change.after))
    return deltas


def file_delta(path: str, before: bytes | None, after: bytes | None, renamed_from: str | None = None) -> dict[str, Any]:
    """One changed file as a JSON-ready object (see the module's docstring).

    `before` None: the file was created (or, with `renamed_from`, is the new
    name of a renamed file); `after` None: it was deleted.
    """
    if renamed_from is not None:
        change = "renamed"
    elif before is None:
        change = "created"
    elif after is None:
        change = "deleted"
    else:
        change = "modified"
    base, old_lines, new_lines = _regions(before or b"", after or b"")
    ranges, diff = _compare(old_lines, new_lines, before is not None, after is not None, renamed_from or path, path, base)
    return {
        "path": path,
        "change": change,
        "renamed_from": renamed_from,
        "sha256_before": sha256_hex(before) if before is not None else None,
        "sha256_after": sha256_hex(after) if after is not None else None,
        "newline": newline_style(after if after is not None else before),
        "changed_lines": [[start, end] for start, end in ranges],
        "lines_before": _line_count(before),
        "lines_after": _line_count(after),
        "diff": diff,
    }


def _line_count(data: bytes | None) -> int:
    """Lines as editors count them (`splitlines`: a lone CR ends a line too)."""
    if not data:
        return 0
    if _lone_cr(data):
        return len(data.splitlines())
    return data.count(b"\n") + (not data.endswith(b"\n"))


def _lone_cr(data: bytes) -> bool:
    return data.count(b"\r") != data.count(b"\r\n")


def _regions(before: bytes, after: bytes) -> tuple[int, list[bytes], list[bytes]]:
    """The lines around the change (with CONTEXT lines more each side), and how many lines come before them.

    The bytes both versions share at each end are skipped at C speed, so a
    one-method edit of a 20,000-line file splits a few dozen lines, not all.
    """
    if _lone_cr(before) or _lone_cr(after):  # a CR-only file's lines are not counted by b"\n"
        return 0, before.splitlines(keepends=True), after.splitlines(keepends=True)
    cut = before.rfind(b"\n", 0, common_prefix(before, after)) + 1
    for _ in range(CONTEXT):
        if cut == 0:
            break
        cut = before.rfind(b"\n", 0, cut - 1) + 1
    shared_end = min(common_suffix(before, after), min(len(before), len(after)) - cut)
    end = len(before) - shared_end  # the suffix starts at the line start at or after here
    if end > cut and before[end - 1 : end] != b"\n":
        newline = before.find(b"\n", end)
        end = len(before) if newline < 0 else newline + 1
    for _ in range(CONTEXT):
        if end >= len(before):
            break
        newline = before.find(b"\n", end)
        end = len(before) if newline < 0 else newline + 1
    tail = len(before) - end
    base = before.count(b"\n", 0, cut)
    return base, before[cut:end].splitlines(keepends=True), after[cut : len(after) - tail].splitlines(keepends=True)


def _compare(
    old: list[bytes], new: list[bytes], had_old: bool, has_new: bool, old_path: str, new_path: str, base: int = 0
) -> tuple[list[tuple[int, int]], str]:
    """The new file's changed line ranges (1-based, inclusive) and the unified diff."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    # The changed region, with the context lines a hunk shows on both sides.
    start = max(0, prefix - CONTEXT)
    old_part = old[start : len(old) - max(0, suffix - CONTEXT)]
    new_part = new[start : len(new) - max(0, suffix - CONTEXT)]
    lead = prefix - start
    old_middle, new_middle = old[prefix : len(old) - suffix], new[prefix : len(new) - suffix]
    matcher: Any
    if set(old_middle).isdisjoint(new_middle):
        # No line common to both sides of the change: one hunk, found without difflib (~0.6 ms
        # to import, which a small `apply --json` does not pay otherwise, issue 9).
        matcher = _OneChange(lead, len(old_middle), len(new_middle), len(old_part), len(new_part))
    else:
        import difflib

        matcher = difflib.SequenceMatcher(None, old_part, new_part, autojunk=False)
    ranges = [
        (base + start + j1 + 1, base + start + j2)
        for tag, _i1, _i2, j1, j2 in matcher.get_opcodes()
        if tag in ("replace", "insert") and j2 > j1
    ]
    text = "".join(
        _diff_lines(matcher, old_part, new_part, base + start, had_old, has_new, old_path, new_path)
    )
    return ranges, text


class _OneChange:
    """SequenceMatcher's answers for two regions that differ in one stretch, with no line in common."""

    def __init__(self, lead: int, old_count: int, new_count: int, old_total: int, new_total: int) -> None:
        middle = "replace" if old_count and new_count else "delete" if old_count else "insert"
        opcodes = [
            ("equal", 0, lead, 0, lead),
            (middle, lead, lead + old_count, lead, lead + new_count),
            ("equal", lead + old_count, old_total, lead + new_count, new_total),
        ]
        self._opcodes = [op for op in opcodes if op[2] > op[1] or op[4] > op[3]]

    def get_opcodes(self) -> list[tuple[str, int, int, int, int]]:
        return self._opcodes

    def get_grouped_opcodes(self, n: int) -> list[list[tuple[str, int, int, int, int]]]:
        # The regions hold at most CONTEXT (= n) equal lines on each side: nothing to trim.
        return [self._opcodes] if any(op[0] != "equal" for op in self._opcodes) else []


def _diff_lines(
    matcher: Any, old: list[bytes], new: list[bytes], offset: int, had_old: bool, has_new: bool, old_path: str, new_path: str
) -> list[str]:
    """A unified diff of the region, numbered as in the whole files; `\\ No newline` where a side ends without one."""
    groups = list(matcher.get_grouped_opcodes(CONTEXT))
    if not groups:
        return []
    out = [
        f"--- {'a/' + old_path if had_old else '/dev/null'}\n",
        f"+++ {'b/' + new_path if has_new else '/dev/null'}\n",
    ]
    for group in groups:
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{_span(offset + i1, i2 - i1)} +{_span(offset + j1, j2 - j1)} @@\n")
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                out.extend(_marked(" ", old[a1:a2]))
                continue
            if tag in ("replace", "delete"):
                out.extend(_marked("-", old[a1:a2]))
            if tag in ("replace", "insert"):
                out.extend(_marked("+", new[b1:b2]))
    return out


def _span(start: int, length: int) -> str:
    """A hunk side as `diff -u` writes it: `start,length`, 1-based; `start` alone for one line."""
    first = start + 1 if length else start
    return str(first) if length == 1 else f"{first},{length}"


def _marked(mark: str, lines: list[bytes]) -> list[str]:
    out = []
    for line in lines:
        text = line.decode("utf-8", "replace")
        body = text.rstrip("\r\n")
        out.append(f"{mark}{body}\n")
        if body == text:
            out.append("\\ No newline at end of file\n")
    return out
