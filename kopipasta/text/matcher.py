"""Where a hunk's old text stands in a file: the ladder of PROTOCOL.md §8, and nothing more.

Lines are compared whole, without their line terminators. The tiers are tried
one at a time and never mixed:

1. **exact**: every line equal;
2. **trailing whitespace**: equal once trailing blanks are dropped;
3. **indentation shift**: equal after the indentation, and the indentation of
   every old line differs from the file's by one constant amount: a number of
   columns of the same character, or — when the hunk and the file indent with
   different units (a tab against four spaces, two spaces against four) — a
   number of levels, each counted in its own unit. Added lines get the same
   shift, in the file's unit.

No similarity ratio, no skipped line, no partial match. When nothing matches,
`closest_difference` says which line of the closest region differs, so a
person (or the model) can see why.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from kopipasta.code.layout.indent import Unit, detect_unit

EXACT = "exact"
TRAILING = "trailing whitespace"
INDENT = "indentation shift"
TIERS = (EXACT, TRAILING, INDENT)


def leading(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _levels(indent: str, unit: Unit) -> int | None:
    """Whole levels of `unit` that `indent` is made of, or None when it is not."""
    if not indent:
        return 0
    if unit.text == "\t":
        return len(indent) if indent.strip("\t") == "" else None
    if indent.strip(" ") or len(indent) % len(unit.text):
        return None
    return len(indent) // len(unit.text)


@dataclass(frozen=True)
class Shift:
    """How the hunk's indentation maps onto the file's at one match."""

    columns: int = 0  # add (negative: remove) this many `char` in front of each line
    char: str = " "
    levels: int | None = None  # set: convert levels from hunk_unit to file_unit, adding this many
    hunk_unit: Unit | None = None
    file_unit: Unit | None = None

    def render(self, line: str) -> str | None:
        """An added line as it must stand in the file, or None when it cannot take the shift."""
        if not line.strip():
            return line if self.levels is None and self.columns == 0 else ""
        if self.levels is None:
            if self.columns >= 0:
                return self.char * self.columns + line
            cut = -self.columns
            return line[cut:] if line[:cut] == self.char * cut else None
        assert self.hunk_unit is not None and self.file_unit is not None
        indent = leading(line)
        if self.hunk_unit.text == "\t":
            tabs = len(indent) - len(indent.lstrip("\t"))
            level, rest = tabs, indent[tabs:]
        else:
            if "\t" in indent:
                return None
            level, extra = divmod(len(indent), len(self.hunk_unit.text))
            rest = " " * extra
        if rest.strip():
            return None
        new_level = level + self.levels
        if new_level < 0:
            return None
        return self.file_unit.text * new_level + rest + line[len(indent) :]


NO_SHIFT = Shift()


@dataclass(frozen=True)
class Match:
    start: int  # 0-based index of the first old line in the file
    length: int
    shift: Shift = NO_SHIFT

    def inside(self, other: Match) -> bool:
        return other.start <= self.start and self.start + self.length <= other.start + other.length


def _indent_shift(window: list[str], pattern: list[str], hunk_unit: Unit | None, file_unit: Unit | None) -> Shift | None:
    """The one shift that maps every pattern line onto its window line, or None."""
    pairs: list[tuple[str, str]] = []
    for p, f in zip(pattern, window, strict=True):
        if not p.strip() or not f.strip():
            if p.strip() or f.strip():
                return None
            continue
        if p.lstrip(" \t") != f.lstrip(" \t"):
            return None
        pairs.append((leading(p), leading(f)))
    if not pairs:
        return None
    # When the hunk's unit and the file's differ, a shift by levels is what the hunk means (its
    # added lines deeper than the context take the file's unit per level), even where a constant
    # number of columns would map the old lines too: a 2-space hunk at depth 1 in a 4-space file
    # is 2 columns off, but its depth-2 lines belong at 8 columns, not 6.
    # Only when the old lines themselves show the hunk's unit (two depths at least), or stand at one
    # depth that is the file's depth counted in levels (`  x` for `    x`: the whole hunk written
    # in 2-space steps, its added lines' steps giving the unit, issue 25). A unit guessed from
    # the added lines where the levels differ too would turn a plain column shift into a wrong one.
    if hunk_unit is not None and file_unit is not None and hunk_unit != file_unit:
        old_unit = detect_unit([p for p in pattern if p.strip()])
        differences: set[int | None] = set()
        for p, f in pairs:
            level_p, level_f = _levels(p, hunk_unit), _levels(f, file_unit)
            differences.add(None if level_p is None or level_f is None else level_f - level_p)
        if len(differences) == 1 and None not in differences and (old_unit == hunk_unit or (
            old_unit is None and differences == {0} and hunk_unit.text != "\t" and file_unit.text != "\t"
        )):
            return Shift(levels=differences.pop(), hunk_unit=hunk_unit, file_unit=file_unit)
    chars = set("".join(p + f for p, f in pairs))
    if len(chars) <= 1:
        deltas = {len(f) - len(p) for p, f in pairs}
        if len(deltas) == 1:
            return Shift(columns=deltas.pop(), char=chars.pop() if chars else " ")
        return None
    # Mixed tabs and spaces: the same run of one character put in front of every old line
    # (`  ` before a tab-indented file's `\t`), or taken from every one, is still one shift.
    return _prefix_shift(pairs)


def _prefix_shift(pairs: list[tuple[str, str]]) -> Shift | None:
    extras = {p[: len(p) - len(f)] if p.endswith(f) else None for p, f in pairs}
    if len(extras) == 1 and (extra := extras.pop()) and len(set(extra)) == 1:
        return Shift(columns=-len(extra), char=extra[0])
    extras = {f[: len(f) - len(p)] if f.endswith(p) else None for p, f in pairs}
    if len(extras) == 1 and (extra := extras.pop()) and len(set(extra)) == 1:
        return Shift(columns=len(extra), char=extra[0])
    return None


def find(
    lines: list[str], pattern: list[str], tier: str, *, hunk_unit: Unit | None = None, file_unit: Unit | None = None
) -> list[Match]:
    """Every place where `pattern` stands in `lines` under `tier` alone."""
    if not pattern or len(pattern) > len(lines):
        return []
    size = len(pattern)
    matches: list[Match] = []
    if tier == INDENT:
        nonblank = [i for i, p in enumerate(pattern) if p.strip()]
        if not nonblank:
            return []
        first = nonblank[0]
        key = pattern[first].strip()
        for j in range(first, len(lines) - size + first + 1):
            if lines[j].strip() != key:
                continue
            start = j - first
            shift = _indent_shift(lines[start : start + size], pattern, hunk_unit, file_unit)
            if shift is not None:
                matches.append(Match(start, size, shift))
        return matches
    # The first line is looked for with list.index (a scan in C), the rest compared
    # only where it stands: 600 hunks over a 20k-line file stay a fraction of a second.
    seen = lines if tier == EXACT else [line.rstrip() for line in lines]
    want = pattern if tier == EXACT else [p.rstrip() for p in pattern]
    head = want[0]
    last = len(lines) - size
    start = -1
    while True:
        try:
            start = seen.index(head, start + 1, last + 1)
        except ValueError:
            return matches
        if seen[start : start + size] == want:
            matches.append(Match(start, size))


def _show(text: str) -> str:
    text = text if len(text) <= 70 else text[:67] + "..."
    return repr(text)


# How many (pattern line, file line) pairs the closest region's vote may count: the rarest
# lines vote first, so a near-miss hunk of 5,000 lines on 50,000 stays linear (issue 28, item 6).
_VOTE_BUDGET = 200_000


def _prefixes(pattern_ids: list[int], line_ids: list[int]) -> list[int]:
    """For each file index s, how many of the pattern's first lines stand at s: the Z-function, linear."""
    text = [*pattern_ids, -1, *line_ids]
    z = [0] * len(text)
    left = right = 0
    for k in range(1, len(text)):
        if k < right:
            z[k] = min(right - k, z[k - left])
        while k + z[k] < len(text) and text[z[k]] == text[k + z[k]]:
            z[k] += 1
        if k + z[k] > right:
            left, right = k, k + z[k]
    return z[len(pattern_ids) + 1 :]


def closest_difference(lines: list[str], pattern: list[str]) -> str:
    """Why `pattern` is not in `lines`: the first line that differs in the closest region.

    Linear in the file and the hunk: each start's agreeing prefix comes from
    one Z-function pass, and the vote on where the hunk stands counts the
    rarest lines first, within a budget (common lines such as `}` add little).
    """
    ids: dict[str, int] = {}
    pattern_ids = [ids.setdefault(p.strip(), len(ids)) for p in pattern]
    line_ids = [ids.get(line.strip(), -2) for line in lines]  # -2: a line the pattern does not have
    positions: dict[int, list[int]] = {}
    for j, key in enumerate(line_ids):
        if key >= 0:
            positions.setdefault(key, []).append(j)
    blank = ids.get("")
    voters = [(len(positions.get(key, ())), i) for i, key in enumerate(pattern_ids) if key != blank and key in positions]
    voters.sort()
    scores: Counter[int] = Counter()
    budget = _VOTE_BUDGET
    for count, i in voters:
        if count > budget and scores:
            break
        scores.update([j - i for j in positions[pattern_ids[i]]])  # counted in C
        budget -= count
    if not scores:
        return "none of its lines is in the file"
    prefixes = _prefixes(pattern_ids, line_ids)

    def prefix(start: int) -> int:
        """How many of the pattern's first lines stand at `start` (whitespace aside)."""
        return prefixes[start] if 0 <= start < len(lines) else 0

    # The region that agrees longest from its first line wins: the line after is where the
    # hunk went wrong. Between equals, the one sharing the most lines, then the first.
    # A start whose first line was too common to vote still competes on its prefix.
    candidates = set(scores)
    if pattern_ids[0] != blank and pattern_ids[0] in positions:
        candidates.update(positions[pattern_ids[0]])
    start = max(candidates, key=lambda s: (prefix(s), scores[s], -s))
    shown = max(start, 0)
    first_whitespace: int | None = None
    for i, p in enumerate(pattern):
        j = start + i
        if j < 0:
            continue
        if j >= len(lines):
            return f"closest at line {shown + 1}, but the file ends at line {len(lines)} where it expects {_show(p)}"
        f = lines[j]
        if f == p:
            continue
        if f.strip() == p.strip():
            if first_whitespace is None:
                first_whitespace = i
            continue
        return f"closest at line {shown + 1}: line {j + 1} reads {_show(f)} where it expects {_show(p)}"
    if first_whitespace is not None:
        j = start + first_whitespace
        return (
            f"closest at line {shown + 1}: its lines differ from the file's only in whitespace, but not by one "
            f"shift for every line (line {j + 1} reads {_show(lines[j])} where it expects {_show(pattern[first_whitespace])})"
        )
    return f"closest at line {shown + 1}"  # unreachable in practice: that region would have matched
