"""The line-anchored reading of a block with placeholders (PROTOCOL.md §6.3, issue 24).

A careful reader places a lazy edit by its lines, not by its shape. The block
is cut at its placeholders into runs; each run is placed in the file by its
own lines that the file holds once (anchors, the patience-diff idea: lines
unique in the block and in the file, kept in order by a longest increasing
subsequence), and by the definitions it restates (a restated header names its
definition even when it changed; a complete restated definition ends where the
file's does). Between two placed lines of one run, the file's lines are
replaced by the block's; what a placeholder stands for, and what lies outside
the block's first and last placed lines, is kept byte for byte.

This module only reads: `align` places the block's lines among the file's
(`code/read/line_reading.py` gives it both) and `code/read/line_runs.py` writes
each run into the plan (which file lines are kept, which block rows written,
which definitions kept or removed); the edit is `code/edit/line_merge.py`, and
the write guard asks the same plan for the lines each placeholder stands for. It refuses, with the block's row, when an
anchor is not unique, anchors are out of order, a run's edge cannot be
placed, or two readings would give different bytes.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter

from kopipasta.code.read.line_levels import Levels, shifts
from kopipasta.code.read.line_plan import (
    FRAME_KINDS,
    BlockDef,
    FileDef,
    Lines,
    Plan,
    Unplaced,
    key,
)
from kopipasta.code.read.line_runs import RunWriter


def _lis(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of (row, line) pairs, in row order, whose lines increase."""
    tails: list[int] = []  # tails[k]: smallest last line of an increasing subsequence of length k+1
    tail_at: list[int] = []
    back: list[int] = [-1] * len(pairs)
    for i, (_, line) in enumerate(pairs):
        k = bisect_left(tails, line)
        if k == len(tails):
            tails.append(line)
            tail_at.append(i)
        else:
            tails[k], tail_at[k] = line, i
        back[i] = tail_at[k - 1] if k else -1
    out: list[tuple[int, int]] = []
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        out.append(pairs[i])
        i = back[i]
    return out[::-1]


def _match_gap(
    fl: Lines, bkeys: list[str], rows: list[int], lo: int, hi: int, out: dict[int, int]
) -> None:
    """Patience inside a gap: block rows `rows` against file lines lo..hi-1, matched lines into `out`."""
    if not rows or lo >= hi:
        return
    # Equal lines from both ends first (the common case: a few changed lines among unchanged ones).
    i, f = 0, lo
    while i < len(rows) and f < hi and bkeys[rows[i]] == fl.keys[f]:
        if bkeys[rows[i]]:
            out[rows[i]] = f
        i, f = i + 1, f + 1
    j, g = len(rows) - 1, hi - 1
    while j >= i and g >= f and bkeys[rows[j]] == fl.keys[g]:
        if bkeys[rows[j]]:
            out[rows[j]] = g
        j, g = j - 1, g - 1
    rows, lo, hi = rows[i : j + 1], f, g + 1
    if not rows or lo >= hi:
        return
    counts = Counter(bkeys[r] for r in rows if bkeys[r])
    pairs = []
    for r in rows:
        k = bkeys[r]
        if k and counts[k] == 1:
            hits = fl.within(k, lo, hi)
            if len(hits) == 1:
                pairs.append((r, hits[0]))
    anchors = _lis(pairs)
    if not anchors:
        return
    previous_row, previous_line = -1, lo - 1
    for r, f in [*anchors, (None, hi)]:
        inner = [x for x in rows if previous_row < x and (r is None or x < r)]
        _match_gap(fl, bkeys, inner, previous_line + 1, f, out)
        if r is not None:
            out[r] = f
            previous_row, previous_line = r, f


def _runs(blank: list[bool], placeholders: set[int]) -> list[tuple[int, int]]:
    """The block's runs between placeholders, trimmed of blank rows at both ends: (first row, last row)."""
    runs: list[tuple[int, int]] = []
    start = None
    for row in range(len(blank) + 1):
        if row == len(blank) or row in placeholders:
            if start is not None:
                code = [r for r in range(start, row) if not blank[r]]
                if code:
                    runs.append((code[0], code[-1]))
            start = None
        elif start is None:
            start = row
    return runs


def _place_by_run(fl: Lines, bkeys: list[str], rows: list[int], lo: int, hi: int) -> dict[int, int] | None:
    """A run with no line of its own that the file holds once, placed by its shortest start (or end)
    that occurs once among the file's non-blank lines in lo..hi-1 (`return x` then `}`)."""
    if not rows:
        return None
    for ending in (False, True):
        seq = rows[::-1] if ending else rows
        starts = fl.within(bkeys[seq[0]], lo, hi)
        # Each candidate walks the file's non-blank lines from its start, as the run does.
        walks = {s: [s] for s in starts}
        for length in range(2, len(seq) + 2):
            if len(walks) <= 1:
                if len(walks) == 1 and length > 2:
                    (walk,) = walks.values()
                    return {seq[k]: walk[k] for k in range(len(walk))}
                break
            if length > len(seq):
                break
            nxt: dict[int, list[int]] = {}
            for s, walk in walks.items():
                f = walk[-1] + (-1 if ending else 1)
                while lo <= f < hi and not fl.keys[f]:
                    f += -1 if ending else 1
                if lo <= f < hi and fl.keys[f] == bkeys[seq[length - 1]]:
                    nxt[s] = [*walk, f]
            walks = nxt
    return None


def _pair_definitions(
    fl: Lines,
    block: list[str],
    bkeys: list[str],
    file_defs: list[FileDef],
    block_defs: list[BlockDef],
    placeholders: set[int],
    unique: dict[int, int],
    lo: int,
    hi: int,
    indent_scoped: bool,
) -> dict[int, int]:
    """Each definition the block writes, paired with the file's of that name: its header, and its
    end when the block writes it complete (a changed signature still names its definition)."""
    pairs: dict[int, int] = {}
    partial: set[int] = set()  # headers of Python definitions the block shows only the head of
    by_name: dict[str, list[FileDef]] = {}
    for d in file_defs:
        if lo <= d.header < hi and d.kind not in FRAME_KINDS:
            by_name.setdefault(d.name, []).append(d)
    for p in block_defs:
        # A definition the block writes inside others is theirs: `Rename` in the controller is not `Product.Rename`.
        found = [d for d in by_name.get(p.name, []) if d.scope[len(d.scope) - len(p.scope) :] == p.scope]
        if len(found) > 1:
            inside = [r for r in range(p.header, p.end + 1) if r in unique]
            found = [d for d in found if any(d.top <= unique[r] <= d.end for r in inside)]
        if len(found) != 1:
            continue
        (d,) = found
        if bkeys[p.header]:
            pairs[p.header] = d.header
        if p.end <= p.header or d.end <= d.header or p.end in placeholders:
            continue
        if not p.complete:
            # Cut by a placeholder: its last row still ends it when it is the file's last line of it
            # (`};` after `// ... existing code ...` inside a class).
            if bkeys[p.end] == fl.keys[d.end] and any(p.header < r < p.end for r in placeholders):
                pairs[p.end] = d.end
            continue
        if indent_scoped and bkeys[p.end] != fl.keys[d.end] and fl.within(bkeys[p.end], d.header + 1, d.end + 1):
            # Python: the last line shown is a line from inside the definition, and a placeholder
            # follows: the rest of it is what the placeholder stands for.
            after = next((r for r in range(p.end + 1, len(block)) if bkeys[r] or r in placeholders), None)
            if after is not None and after in placeholders:
                partial.add(p.header)
                continue
        pairs[p.end] = d.end
    block_defs[:] = [BlockDef(p.name, p.top, p.header, p.end, False, p.scope) if p.header in partial else p for p in block_defs]
    return pairs


def innermost(file_defs: list[FileDef], line: int) -> FileDef | None:
    """The innermost definition of the file holding the line, if any."""
    holding = [d for d in file_defs if d.kind not in FRAME_KINDS and d.top <= line <= d.end]
    return max(holding, key=lambda d: d.header) if holding else None


def align(
    file_lines: list[str],
    block: list[str],
    placeholders: set[int],
    file_defs: list[FileDef],
    block_defs: list[BlockDef],
    *,
    window: tuple[int, int] | None = None,
    removal_said: frozenset[str] = frozenset(),
    renamed_said: frozenset[str] = frozenset(),
    edges_replace: bool = False,
    indent_scoped: bool = False,
    levels: Levels | None = None,
) -> Plan:
    """The plan of the block's lines over the file's (see the module's docstring)."""
    # A file that ends with a newline has an empty last "line": what is added at its end goes before it.
    lo, hi = window or (0, len(file_lines) - 1 if len(file_lines) > 1 and file_lines[-1] == "" else len(file_lines))
    fl = Lines(file_lines)
    bkeys = [key(line) for line in block]
    runs = _runs([not k for k in bkeys], placeholders)
    if not runs:
        raise Unplaced(min(placeholders, default=0), "is a placeholder, and the block holds no code",
                       "ask for the code itself: the changed lines with a line of context around them")
    code_rows = [r for a, b in runs for r in range(a, b + 1) if bkeys[r]]
    run_of = {r: n for n, (a, b) in enumerate(runs) for r in range(a, b + 1)}
    leading = bool(placeholders) and min(placeholders) < runs[0][0]
    trailing = bool(placeholders) and max(placeholders) > runs[-1][1]

    # 1. The block's lines the window holds once, and the definitions the block restates.
    counts = Counter(bkeys[r] for r in code_rows)
    pairs: dict[int, int] = {}
    for r in code_rows:
        if counts[bkeys[r]] == 1:
            hits = fl.within(bkeys[r], lo, hi)
            if len(hits) == 1:
                pairs[r] = hits[0]
    named = _pair_definitions(fl, block, bkeys, file_defs, block_defs, placeholders, pairs, lo, hi, indent_scoped)
    claimed = set(pairs.values())
    # A line placed by itself wins, both ways: its own file line, and the file line it holds.
    pairs.update((r, f) for r, f in named.items() if f not in claimed and r not in pairs)
    # The rows of a whole definition the file does not have are written as they are: none of its
    # lines (a `}`, a `return x`) is placed on the file's lines of another definition.
    scopes = {(d.name, d.scope) for d in file_defs if lo <= d.header < hi}

    def in_file(p: BlockDef) -> bool:
        return any(name == p.name and scope[len(scope) - len(p.scope) :] == p.scope for name, scope in scopes)

    def new(p: BlockDef) -> bool:
        # A one-line "definition" the file holds as a line is a statement shown from inside a body
        # (`todo = deque([self])` read alone parses as a module variable), not a new variable.
        return p.complete and p.header not in pairs and not in_file(p) and not (
            p.top == p.header == p.end and fl.within(bkeys[p.header], lo, hi)
        )

    new_rows = {r for p in block_defs if new(p) for r in range(p.top, p.end + 1)}
    mkeys = [f"\0{r}" if r in new_rows else k for r, k in enumerate(bkeys)]
    for r in new_rows:
        pairs.pop(r, None)
    chosen = dict(_lis(sorted(pairs.items())))
    dropped = {r: f for r, f in pairs.items() if r not in chosen}

    # 2. A run with no line of its own that the file holds once: by its shortest start or end that does.
    for a, b in runs:
        if any(a <= r <= b for r in chosen):
            continue
        before = max((f for r, f in chosen.items() if r < a), default=lo - 1)
        after = min((f for r, f in chosen.items() if r > b), default=hi)
        found = _place_by_run(fl, mkeys, [r for r in range(a, b + 1) if mkeys[r]], before + 1, after)
        if found:
            chosen.update(found)

    # 3. Within each run: the gaps between its placed lines, and its edges, line by line.
    matched: dict[int, int] = dict(chosen)
    for a, b in runs:
        inside = sorted((r, f) for r, f in chosen.items() if a <= r <= b)
        for (r1, f1), (r2, f2) in zip(inside, inside[1:], strict=False):
            _match_gap(fl, mkeys, list(range(r1 + 1, r2)), f1 + 1, f2, matched)
        if not inside:
            continue
        previous = max((f for r, f in chosen.items() if r < a), default=lo - 1)
        following = min((f for r, f in chosen.items() if r > b), default=hi)
        i, f = inside[0][0] - 1, inside[0][1] - 1
        while i >= a and f > previous and mkeys[i] == fl.keys[f]:
            if mkeys[i]:
                matched[i] = f
            i, f = i - 1, f - 1
        i, f = inside[-1][0] + 1, inside[-1][1] + 1
        while i <= b and f < following and mkeys[i] == fl.keys[f]:
            if mkeys[i]:
                matched[i] = f
            i, f = i + 1, f + 1
        # Lines left at the run's edges are matched inside the definition that holds its placed
        # lines (a changed statement, then the function's `}`: that `}` is the function's).
        last_row = max(r for r in matched if a <= r <= b)
        tail = [r for r in range(last_row + 1, b + 1)]
        holder = innermost(file_defs, matched[last_row])
        if tail and holder is not None:
            _match_gap(fl, mkeys, tail, matched[last_row] + 1, min(holder.end + 1, following), matched)
        first_row = min(r for r in matched if a <= r <= b)
        head = [r for r in range(a, first_row)]
        holder = innermost(file_defs, matched[first_row])
        if head and holder is not None:
            _match_gap(fl, mkeys, head, max(holder.top, previous + 1), matched[first_row], matched)

    # A unique line the order left out is a move inside its own run, or the block is not certain.
    for r, f in dropped.items():
        a, b = runs[run_of[r]]
        lines = [g for s, g in matched.items() if a <= s <= b]
        if lines and not min(lines) < f < max(lines):
            holder = innermost(file_defs, min(lines))
            if holder is not None and max(lines) <= holder.end and not holder.top <= f <= holder.end:
                # The run stands inside one definition and this line of it only elsewhere, in
                # another: a line the block adds here that happens to equal one there (`return ""`).
                continue
        if not lines or not min(lines) < f < max(lines):
            raise Unplaced(
                r, f"is the file's line {f + 1}, out of the order of the block's other lines in the file",
                "restate the code in the file's order, or send each change as its own block",
            )

    plan = Plan(shift=shifts(block, file_lines, matched, runs, levels), values=levels.frozen if levels else None)

    merge = RunWriter(plan, file_lines, block, bkeys, file_defs, block_defs, removal_said, renamed_said, lo, hi, edges_replace)
    plan.ops.append(("file", 0, lo))
    for n, (a, b) in enumerate(runs):
        placed = sorted((r, f) for r, f in matched.items() if a <= r <= b)
        after_placeholder = n > 0 or leading
        before_placeholder = n < len(runs) - 1 or trailing
        if not placed:
            merge.new_run(a, b, matched, after_placeholder, before_placeholder, fl, window is not None)
            continue
        merge.placed_run(a, b, placed, matched, after_placeholder, before_placeholder, window is not None)
    merge.keep(hi, trailing)
    plan.ops.append(("file", hi, len(file_lines)))
    return plan


