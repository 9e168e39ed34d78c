"""Lines added and removed by an edit, as difflib's SequenceMatcher counts them (issue 9).

A block's `+N/-M` in the report comes from matching the lines of the region that changed
(engine._line_counts): added are the new lines SequenceMatcher leaves unmatched, removed
the old ones. Two cases need no matcher: where no line is common to both sides nothing
can match, and where one side is a single line common to both it matches exactly once.
Most one-block edits are one of them, so difflib (with heapq, ~0.6 ms to import) is
imported only for the others. tests/test_line_counts.py pins the counts to
SequenceMatcher's.

SequenceMatcher's time grows with the product of the two sides' lengths when lines
repeat (600 one-line hunks over a file of repeated lines: 26 s, issue 18): past
MATCHING_BUDGET line pairs the counts are the two sides' difference as multisets of
lines, linear, and equal to the matcher's whenever the edit moved no line.
"""

from __future__ import annotations

MATCHING_BUDGET = 250_000  # old × new lines: 500 by 500, a few ms of SequenceMatcher at worst


def line_counts(old_lines: list[bytes], new_lines: list[bytes]) -> tuple[int, int]:
    """(added, removed): how many of `new_lines` and of `old_lines` SequenceMatcher leaves unmatched."""
    if set(old_lines).isdisjoint(new_lines):
        matched = 0
    elif len(old_lines) == 1 or len(new_lines) == 1:
        matched = 1
    elif len(old_lines) * len(new_lines) > MATCHING_BUDGET:
        return _counted_as_multisets(old_lines, new_lines)
    else:
        return _counted_by_matching(old_lines, new_lines)
    return len(new_lines) - matched, len(old_lines) - matched


def _counted_by_matching(old_lines: list[bytes], new_lines: list[bytes]) -> tuple[int, int]:
    import difflib

    added = removed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            removed += i2 - i1
        if tag in ("replace", "insert"):
            added += j2 - j1
    return added, removed


def _counted_as_multisets(old_lines: list[bytes], new_lines: list[bytes]) -> tuple[int, int]:
    from collections import Counter

    old, new = Counter(old_lines), Counter(new_lines)
    return sum((new - old).values()), sum((old - new).values())
