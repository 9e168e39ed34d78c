"""A block's `+N/-M` counts what difflib's SequenceMatcher leaves unmatched, with or without difflib.

`line_counts` tells two cases without the matcher (no line in common; one side a single
line); these tests pin every answer to SequenceMatcher's own opcodes, on generated line
lists full of repeats, on each fixture's before and after files, and on the shortcut's edges.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from kopipasta import engine
from kopipasta.startup.line_counts import line_counts
from kopipasta.startup.shared_ends import common_prefix, common_suffix

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def matcher_counts(old: list[bytes], new: list[bytes]) -> tuple[int, int]:
    """The plain computation: SequenceMatcher's opcodes, added and removed lines summed."""
    added = removed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            removed += i2 - i1
        if tag in ("replace", "insert"):
            added += j2 - j1
    return added, removed


lines = st.lists(st.sampled_from([b"", b"a", b"b", b"    return x", b"}", b"c"]), max_size=7)


@settings(max_examples=3000, deadline=None)
@given(old=lines, new=lines)
def test_line_counts_are_the_matchers(old: list[bytes], new: list[bytes]) -> None:
    shortcut = set(old).isdisjoint(new) or len(old) == 1 or len(new) == 1
    event("shortcut" if shortcut else "matcher")
    assert line_counts(old, new) == matcher_counts(old, new)


EDGES = [
    ([], []),
    ([], [b"a"]),
    ([b"a"], []),
    ([b"a"], [b"a"]),
    ([b"a"], [b"b", b"a", b"a"]),
    ([b"a", b"a"], [b"a"]),
    ([b"a", b"b"], [b"c", b"d", b"e"]),
    ([b"a", b"b"], [b"b", b"a"]),
    ([b""], [b"", b"x", b""]),
]


@pytest.mark.parametrize(("old", "new"), EDGES)
def test_edges(old: list[bytes], new: list[bytes]) -> None:
    assert line_counts(old, new) == matcher_counts(old, new)


def test_every_fixture_file_before_and_after() -> None:
    """The engine's counts (changed region found, then counted) for each fixture file that changes."""
    pairs = 0
    for after in sorted(FIXTURES.glob("*/after/**/*")):
        case = next(p for p in after.parents if p.parent == FIXTURES)
        relative = after.relative_to(case / "after")
        before = case / "before" / relative
        if not after.is_file() or not before.is_file() or after.is_symlink() or before.is_symlink():
            continue
        old, new = before.read_bytes(), after.read_bytes()
        if old == new:
            continue
        pairs += 1
        region_old, region_new = engine_region(old, new)
        assert engine._line_counts(old, new) == matcher_counts(region_old, region_new), after
    assert pairs > 300


def engine_region(before: bytes, after: bytes) -> tuple[list[bytes], list[bytes]]:
    """The lines `engine._line_counts` compares: the changed region, widened to whole lines."""
    prefix = before.rfind(b"\n", 0, common_prefix(before, after)) + 1
    limit = min(len(before), len(after)) - prefix
    suffix = min(common_suffix(before, after), limit)
    tail = before[len(before) - suffix :]
    newline = tail.find(b"\n")
    suffix = suffix - (newline + 1) if newline >= 0 else 0
    return before[prefix : len(before) - suffix].splitlines(), after[prefix : len(after) - suffix].splitlines()


def test_past_the_matching_budget_lines_are_counted_as_multisets() -> None:
    """Issue 18: SequenceMatcher over a big region of repeated lines took seconds per block."""
    from kopipasta.startup import line_counts as module

    old = [b"x = 1", b"y = 1"] * 600
    new = [b"x = 1", b"y = 2"] * 600
    assert len(old) * len(new) > module.MATCHING_BUDGET
    assert line_counts(old, new) == (600, 600)
    assert line_counts(old, old[:-2]) == (0, 2)
    small_old, small_new = old[:40], new[:40]  # within the budget, the matcher agrees
    assert line_counts(small_old, small_new) == matcher_counts(small_old, small_new) == (20, 20)
