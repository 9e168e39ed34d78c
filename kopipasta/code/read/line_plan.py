"""The line-anchored reading's vocabulary: lines by key, the file's and the block's
definitions as line spans, the plan, and the refusal (PROTOCOL.md §6, item 3).

Shared by `line_anchored` (which places the block's lines) and `line_runs` (which writes each
run into the plan), and read by `line_reading`, `line_merge` and the write guard.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

TAB = 4  # a tab's width when a block and a file indent differently


class Unplaced(Exception):
    """The block cannot be placed for certain: its row (0-based), why, and what to send instead."""

    def __init__(self, row: int, why: str, fix: str) -> None:
        super().__init__(why)
        self.row, self.why, self.fix = row, why, fix


@dataclass(frozen=True)
class FileDef:
    """A definition of the file, by lines (0-based): where its comment/decorators start, its header, its end."""

    name: str
    kind: str
    top: int
    header: int
    end: int
    indent: int  # the header line's indentation width
    container: bool
    scope: tuple[str, ...] = ()


@dataclass(frozen=True)
class BlockDef:
    """A definition the block writes, by rows: its first row (comment/decorators), header and last row."""

    name: str
    top: int
    header: int
    end: int
    complete: bool  # the parse closes it inside the block (a Python one: decided by the lines)
    scope: tuple[str, ...] = ()  # the definitions around it in the block


@dataclass
class Plan:
    """The result, in order: ("file", a, b) copies file lines a..b-1; ("row", r) writes block row r."""

    ops: list[tuple[str, int, int]] = field(default_factory=list)
    placeholder_spans: list[tuple[int, int]] = field(default_factory=list)  # file lines each placeholder keeps
    kept: list[str] = field(default_factory=list)  # definitions between anchors the block does not show, kept
    removed: list[str] = field(default_factory=list)  # ... removed: replaced by new ones, or the prose says so
    shift: dict[int, int] = field(default_factory=dict)  # block row → indentation change written
    # Block rows that start inside a string or comment (their leading whitespace is a value), when
    # the block's unit was learnt (`line_levels`); None: not known, tabs and spaces left as sent.
    values: frozenset[int] | None = None
    # A changed line next to a placeholder was written beside the file's line there (an insertion);
    # when that does not parse, `align(edges_replace=True)` reads it as the file's line, changed.
    edge_inserted: bool = False
    # ... and resembles it (the same call, the same tag): if the other reading parses too, which
    # one the block means is not certain (line_merge refuses with this).
    edge_resembles: Unplaced | None = None


def key(line: str) -> str:
    return line.strip()


def width(line: str) -> int:
    lead = line[: len(line) - len(line.lstrip(" \t"))]
    return sum(TAB if c == "\t" else 1 for c in lead)


class Lines:
    """The file's lines by key: where each non-blank line stands, to count it in any range in O(log n)."""

    def __init__(self, lines: list[str]) -> None:
        self.keys = [key(line) for line in lines]
        self.at: dict[str, list[int]] = {}
        for i, k in enumerate(self.keys):
            if k:
                self.at.setdefault(k, []).append(i)

    def within(self, k: str, lo: int, hi: int) -> list[int]:
        found = self.at.get(k, ())
        return list(found[bisect_left(found, lo) : bisect_left(found, hi)])


# The file's imports and statements (top level, or a class's): kept in a gap like a definition the
# block does not show.
FRAME_KINDS = frozenset({"import", "statement"})
