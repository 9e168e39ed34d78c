"""Where two versions of a file start and stop differing, found at C speed.

The report's line counts (engine._line_counts), the per-file delta (disk/delta.py)
and a Vue/Svelte script's changed window (code/read/embedded.py) all look only at
the region an edit changed: a one-method edit of a 20,000-line file compares a few
dozen lines, not all of them.
"""

from __future__ import annotations

from collections.abc import Callable

# Bytes compared at a time while looking for where two versions of a file start to differ.
_STRIDE = 64 * 1024


def common_prefix(a: bytes, b: bytes) -> int:
    """Length of the common prefix."""
    return _agreeing_length(min(len(a), len(b)), lambda i, j: a.startswith(memoryview(b)[i:j], i))


def common_suffix(a: bytes, b: bytes) -> int:
    """Length of the common suffix."""
    return _agreeing_length(
        min(len(a), len(b)), lambda i, j: a.endswith(memoryview(b)[len(b) - j : len(b) - i], 0, len(a) - i)
    )


def _agreeing_length(size: int, agree: Callable[[int, int], bool]) -> int:
    """The longest length ≤ size over which two byte strings agree, counted from one end.

    `agree(i, j)` says whether they agree from the i-th to the j-th byte from that end,
    given they agree over the first i. Equal strides are skipped at C speed, then a
    binary search runs in the first unequal one.
    """
    low = 0
    while low + _STRIDE <= size and agree(low, low + _STRIDE):
        low += _STRIDE
    high = min(low + _STRIDE, size)
    while low < high:  # they agree over the first `low` bytes: only the bytes after them are compared
        middle = (low + high + 1) // 2
        if agree(low, middle):
            low = middle
        else:
            high = middle - 1
    return low
