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

This module only reads: `align` answers the plan for the lines
`code/read/line_reading.py` gives it (which file lines are kept,
which block rows written, which definitions kept or removed); the edit is
`code/edit/line_merge.py`, and the write guard asks the same plan for the
lines each placeholder stands for. It refuses, with the block's row, when an
anchor is not unique, anchors are out of order, a run's edge cannot be
placed, or two readings would give different bytes.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
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


class _Lines:
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


def _match_gap(
    fl: _Lines, bkeys: list[str], rows: list[int], lo: int, hi: int, out: dict[int, int]
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


_FIELD = re.compile(
    r"^\s*(?:(?:public|private|protected|readonly|static|const|let|var|val|final|pub)\s+)*([A-Za-z_$][\w$]*)\s*[?!]?\s*[:=](?!=)"
)


# What a line does, when it is one call or one opening tag: `app.use(`, `<TableRow`.
_STATEMENT = re.compile(r"^\s*(?:await\s+|return\s+|yield\s+)?(<[\w.:-]+|[A-Za-z_$][\w$.]*\s*\()")


def _resembles(line: str, other: str) -> bool:
    """Whether two different lines do the same thing to something else (the same call, the same
    tag): beside a placeholder, a reader cannot tell a change of one from a line added."""
    a, b = _STATEMENT.match(line), _STATEMENT.match(other)
    return a is not None and b is not None and key(line) != key(other) and a.group(1).replace(" ", "") == b.group(1).replace(" ", "")


def _field(line: str) -> str:
    """The name a field or an assignment line gives (`columns: string[];` → columns), or ""."""
    found = _FIELD.match(line)
    return found.group(1) if found and found.group(1) not in ("return", "case", "default", "else") else ""


# The file's top-level imports and statements: kept in a gap like a definition the block does not show.
FRAME_KINDS = frozenset({"import", "statement"})
_COMMENTISH = re.compile(r"^\s*(#|//|/\*|\*|--|@|<!--|;)")


def _opening(lines: list[str]) -> bool:
    """Whether the lines are only comments, blank lines and at most one triple-quoted string
    (a file's header comment, a module docstring, perhaps going on below): what may stand above
    a file's first code."""
    strings = 0
    quote = None
    for line in lines:
        text = key(line)
        if quote is not None:
            if quote in text:
                quote = None
            continue
        if not text or _COMMENTISH.match(line):
            continue
        opener = text[:3]
        if opener not in ('"""', "'''") or strings:
            return False
        strings += 1
        if opener not in text[3:]:
            quote = opener
    return True


def _only_new_definitions(rows: list[int], block_defs: list[BlockDef], block: list[str], matched: dict[int, int]) -> bool:
    """Whether the rows (none placed) are whole definitions the block adds, with their comments."""
    code = [r for r in rows if block[r].strip()]
    if not code or any(r in matched for r in code):
        return False
    spans = [(d.top, d.end) for d in block_defs if d.complete and d.top >= code[0] and d.end <= code[-1]]
    if not spans:
        return False
    covered = {r for a, b in spans for r in range(a, b + 1)}
    return all(r in covered or _COMMENTISH.match(block[r]) for r in code)


def _place_by_run(fl: _Lines, bkeys: list[str], rows: list[int], lo: int, hi: int) -> dict[int, int] | None:
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
    fl: _Lines,
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


def _shifts(block: list[str], file_lines: list[str], matched: dict[int, int], runs: list[tuple[int, int]]) -> dict[int, int]:
    """Each run's indentation change, block → file, as its placed lines say (the most common)."""
    overall: Counter[int] = Counter()
    per_run: list[Counter[int]] = []
    for a, b in runs:
        here: Counter[int] = Counter(
            width(file_lines[f]) - width(block[r]) for r, f in matched.items() if a <= r <= b and block[r].strip()
        )
        per_run.append(here)
        overall.update(here)
    default = overall.most_common(1)[0][0] if overall else 0
    shifts: dict[int, int] = {}
    for (a, b), here in zip(runs, per_run, strict=True):
        delta = here.most_common(1)[0][0] if here else default
        if delta:
            for r in range(a, b + 1):
                shifts[r] = delta
    return shifts


def _innermost(file_defs: list[FileDef], line: int) -> FileDef | None:
    """The innermost definition of the file holding the line, if any."""
    holding = [d for d in file_defs if d.kind not in FRAME_KINDS and d.top <= line <= d.end]
    return max(holding, key=lambda d: d.header) if holding else None


def _closing(line: str) -> bool:
    k = key(line)
    return k.startswith(("}", ")", "]")) or k in ("end", "end;", "End", "esac", "fi", "done")


def _insertion_after(file_defs: list[FileDef], file_lines: list[str], line: int, indent: int) -> int:
    """Where a definition at `indent` goes after file line `line`: past the end of every definition
    holding that line whose header is at its indent or deeper (a column-0 function after a method
    goes after the class, not into it)."""
    at = line + 1
    for d in sorted((d for d in file_defs if d.top <= line <= d.end and d.kind not in FRAME_KINDS), key=lambda d: d.header, reverse=True):
        if d.indent >= indent:
            at = max(at, d.end + 1)
    return at


def _before_closing_tag(file_lines: list[str], hi: int) -> int:
    """The end of a PHP file's code: before its last `?>`; refused when HTML text follows it."""
    if not file_lines or not file_lines[0].lstrip().startswith("<?php"):
        return hi
    closing = [i for i in range(hi) if key(file_lines[i]).endswith("?>")]
    if not closing or any("<?php" in file_lines[i] for i in range(closing[-1] + 1, hi)):
        return hi
    if any(key(file_lines[i]) for i in range(closing[-1] + 1, hi)):
        raise Unplaced(-1, "would land outside `<?php … ?>`, where PHP reads it as HTML text",
                       "say where it goes with `INSERT_AFTER: function <name>`")
    return closing[-1] if key(file_lines[closing[-1]]) == "?>" else hi


def _end_of_container(file_defs: list[FileDef], file_lines: list[str], line: int | None, indent: int, hi: int) -> int:
    """Where a definition at `indent` goes at the end of what holds it: the innermost definition
    around `line` whose header is shallower, before its closing line; the window's end otherwise."""
    file_defs = [d for d in file_defs if d.kind not in FRAME_KINDS]
    holders = [d for d in file_defs if line is not None and d.top <= line <= d.end and d.indent < indent]
    if not holders:
        if line is None and indent > 0:
            # Members without their class: the one container of the file that holds functions.
            hosts = {d.header: d for d in file_defs if d.container and d.indent < indent}
            holding = [h for h in hosts.values() if any(c.top > h.header and c.end <= h.end and not c.container for c in file_defs)]
            if len(holding) != 1:
                raise Unplaced(-1, "is indented as a member, and which class it belongs to is not certain",
                               "restate the class line around it, or use `APPEND_TO: class <Class>`")
            holders = holding
        else:
            return _before_closing_tag(file_lines, hi)
    holder = max(holders, key=lambda d: d.header)
    return holder.end if _closing(file_lines[holder.end]) and holder.end > holder.header else holder.end + 1


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
) -> Plan:
    """The plan of the block's lines over the file's (see the module's docstring)."""
    # A file that ends with a newline has an empty last "line": what is added at its end goes before it.
    lo, hi = window or (0, len(file_lines) - 1 if len(file_lines) > 1 and file_lines[-1] == "" else len(file_lines))
    fl = _Lines(file_lines)
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
        holder = _innermost(file_defs, matched[last_row])
        if tail and holder is not None:
            _match_gap(fl, mkeys, tail, matched[last_row] + 1, min(holder.end + 1, following), matched)
        first_row = min(r for r in matched if a <= r <= b)
        head = [r for r in range(a, first_row)]
        holder = _innermost(file_defs, matched[first_row])
        if head and holder is not None:
            _match_gap(fl, mkeys, head, max(holder.top, previous + 1), matched[first_row], matched)

    # A unique line the order left out is a move inside its own run, or the block is not certain.
    for r, f in dropped.items():
        a, b = runs[run_of[r]]
        lines = [g for s, g in matched.items() if a <= s <= b]
        if lines and not min(lines) < f < max(lines):
            holder = _innermost(file_defs, min(lines))
            if holder is not None and max(lines) <= holder.end and not holder.top <= f <= holder.end:
                # The run stands inside one definition and this line of it only elsewhere, in
                # another: a line the block adds here that happens to equal one there (`return ""`).
                continue
        if not lines or not min(lines) < f < max(lines):
            raise Unplaced(
                r, f"is the file's line {f + 1}, out of the order of the block's other lines in the file",
                "restate the code in the file's order, or send each change as its own block",
            )

    plan = Plan(shift=_shifts(block, file_lines, matched, runs))
    merge = _Merge(plan, file_lines, block, bkeys, file_defs, block_defs, removal_said, renamed_said, lo, hi, edges_replace)
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


class _Merge:
    """The plan written run by run: `cursor` is the first file line not yet kept or replaced."""

    def __init__(self, plan: Plan, file_lines: list[str], block: list[str], bkeys: list[str],
                 file_defs: list[FileDef], block_defs: list[BlockDef], removal_said: frozenset[str],
                 renamed_said: frozenset[str], lo: int, hi: int, edges_replace: bool = False) -> None:
        self.plan, self.file_lines, self.block, self.bkeys = plan, file_lines, block, bkeys
        self.file_defs, self.block_defs, self.removal_said = file_defs, block_defs, removal_said
        self.renamed_said = renamed_said  # old names the prose says a new definition of the block replaces
        self.edges_replace = edges_replace  # a changed line next to a placeholder stands for the file's there
        self.cursor, self.lo, self.hi = lo, lo, hi
        self.scopes = {(d.name, d.scope) for d in file_defs if lo <= d.header < hi}

    def in_file(self, p: BlockDef) -> bool:
        """Whether the file defines the block's definition where the block puts it (its name, its scope)."""
        return any(name == p.name and scope[len(scope) - len(p.scope) :] == p.scope for name, scope in self.scopes)

    def keep(self, stop: int, placeholder: bool) -> None:
        """The file's lines from the cursor to `stop`, unchanged (what a placeholder stands for)."""
        if stop < self.cursor:
            raise Unplaced(-1, "places code before code the block shows above it", "restate the code in the file's order")
        if stop > self.cursor:
            self.plan.ops.append(("file", self.cursor, stop))
            if placeholder:
                self.plan.placeholder_spans.append((self.cursor, stop))
        self.cursor = stop

    def replace(self, rows: list[int], stop: int) -> None:
        """The file's lines from the cursor to `stop` give way to the block's rows, but for a
        definition the rows do not show and do not replace by a new one (it is kept)."""
        above = [d for d in self.file_defs if d.header == stop and self.cursor <= d.top < stop and d.kind not in FRAME_KINDS]
        if above and not any(_COMMENTISH.match(self.block[r]) for r in rows if self.bkeys[r]):
            # The comment block (or decorators) of the definition the block shows next, not shown: kept.
            top = min(d.top for d in above)
            self.replace(rows, top)
            self.plan.ops.append(("file", top, stop))
            self.cursor = stop
            return
        if not any(self.bkeys[r] for r in rows) and not any(key(x) for x in self.file_lines[self.cursor : stop]):
            self.plan.ops.append(("file", self.cursor, stop))  # blank lines between shown lines: the file's
            self.cursor = stop
            return
        replaced_by_new = any(d.header in rows for d in self.block_defs)
        shows_code = any(self.bkeys[r] and not _COMMENTISH.match(self.block[r]) for r in rows)
        mark = len(self.plan.ops)
        kept_before = len(self.plan.kept)
        self.plan.ops.extend(("row", r, 0) for r in rows)
        kept_to = self.cursor
        for d in sorted(self.file_defs, key=lambda d: (d.top, -d.end)):
            if d.top < max(self.cursor, kept_to) or d.end >= stop:
                continue
            if d.kind in FRAME_KINDS:
                if shows_code:
                    continue  # the block restates this part of the frame: its lines stand
                self.plan.ops.append(("file", d.top, d.end + 1))
                self.plan.kept.append(d.name)
                kept_to = d.end + 1
                continue
            if replaced_by_new or d.name in self.removal_said:
                self.plan.removed.append(d.name)
                kept_to = d.end + 1
                continue
            top = d.top - 1 if d.top - 1 >= self.cursor and not key(self.file_lines[d.top - 1]) else d.top
            self.plan.ops.append(("file", top, d.end + 1))
            self.plan.kept.append(d.name)
            kept_to = d.end + 1
        if len(self.plan.kept) > kept_before and not any(self.bkeys[r] for r in rows):
            # Nothing shown, nothing removed but blank lines: the gap is the file's, as it was.
            kept_lines = {x for op, a, b in self.plan.ops[mark:] if op == "file" for x in range(a, b)}
            if all(x in kept_lines or not key(self.file_lines[x]) for x in range(self.cursor, stop)):
                self.plan.ops[mark:] = [("file", self.cursor, stop)]
        self.cursor = stop

    def placed_run(self, a: int, b: int, placed: list[tuple[int, int]], matched: dict[int, int],
                   after_placeholder: bool, before_placeholder: bool, targeted: bool) -> None:
        bkeys = self.bkeys
        first_row, first_line = placed[0]
        head = list(range(a, first_row))
        start = first_line
        if any(bkeys[r] for r in head):
            new = _only_new_definitions(head, self.block_defs, self.block, matched)
            if new:
                start = self._above_definition(first_line)
            elif targeted and not after_placeholder:
                start = self.lo  # TARGET_NODE: the block starts where its target does
            else:
                header = [d for d in self.file_defs if d.header == first_line and d.top < first_line]
                if header and all(_COMMENTISH.match(self.block[r]) or not bkeys[r] for r in head):
                    # The comment block (or decorators) above a restated definition: the block's
                    # replaces the file's, after a placeholder too (a reworded doc comment).
                    start = max(header[0].top, self.cursor)
                elif not after_placeholder and _opening([self.block[r] for r in head]) and _opening(
                    self.file_lines[self.cursor : first_line]
                ):
                    # A comment (or docstring) opening the block where the file opens with one and
                    # nothing else stands above the first shown line: the file's header, restated.
                    start = self.cursor
                elif not after_placeholder:
                    raise Unplaced(
                        next(r for r in head if bkeys[r]),
                        "starts the block, and it is not in the file: where the block starts is not certain",
                        "start the block with a line the file holds, or with a placeholder",
                    )
        above = first_line - 1  # the file's line a changed head line would stand for
        while above >= self.cursor and not key(self.file_lines[above]):
            above -= 1
        code = [r for r in head if bkeys[r]]
        # A changed field or assignment right before the first placed line, after a placeholder,
        # takes the place of the file's line there that names the same thing (`retries = 5` for
        # `retries = 3`), as at a run's end; read alone it would be a new variable.
        renamed_field = (
            after_placeholder and start == first_line and above >= self.cursor and len(code) == 1
            and _field(self.block[code[0]]) != "" and _field(self.block[code[0]]) == _field(self.file_lines[above])
        )
        edge = (
            after_placeholder and start == first_line and above >= self.cursor and bool(code)
            and (renamed_field or not _only_new_definitions(head, self.block_defs, self.block, matched))
        )
        if edge and not (self.edges_replace or renamed_field) and len(code) == 1 and _resembles(
            self.block[code[0]], self.file_lines[above]
        ):
            self.plan.edge_resembles = self.plan.edge_resembles or Unplaced(
                code[0], f"stands after a placeholder and before the file's line {first_line + 1}, and resembles "
                f"the file's line {above + 1}: whether it changes that line or adds one is not certain",
                "restate the line above it as the file has it, or the changed line with the lines around it",
            )
        if edge and (self.edges_replace or renamed_field):
            # The head's changed line stands for the file's line above the first placed one.
            self.keep(above, True)
            self.plan.ops.extend(("row", r, 0) for r in head)
            self.plan.ops.append(("file", above + 1, first_line))
            self.cursor = first_line
            head = []
        else:
            self.plan.edge_inserted |= edge
            self.keep(start, after_placeholder)
        if not head:
            pass
        elif start < first_line:
            self.replace(head, first_line)
        elif any(bkeys[r] for r in head) and _only_new_definitions(head, self.block_defs, self.block, matched):
            self._insert(head)
        else:
            self.plan.ops.extend(("row", r, 0) for r in head)
        for (r1, f1), (r2, f2) in zip(placed, placed[1:], strict=False):
            self.plan.ops.append(("line", r1, f1))
            self.cursor = f1 + 1
            self.replace(list(range(r1 + 1, r2)), f2)
        last_row, last_line = placed[-1]
        self.plan.ops.append(("line", last_row, last_line))
        self.cursor = last_line + 1
        tail = list(range(last_row + 1, b + 1))
        if not any(bkeys[r] for r in tail):
            return
        closing = self._closed_by(tail, matched, last_line)
        if closing is not None:
            self.replace(tail, closing)  # the end of a definition the block restates whole
        elif _only_new_definitions(tail, self.block_defs, self.block, matched):
            at = _insertion_after(self.file_defs, self.file_lines, last_line, self._indent(tail))
            self.keep(at, False)
            self._insert(tail)
        elif before_placeholder:
            f = last_line + 1
            for r in tail:
                # A changed field or assignment right after the last placed line takes the place of
                # the file's line there that names the same thing (`columns: readonly string[];`).
                if f < len(self.file_lines) and _field(self.block[r]) and _field(self.block[r]) == _field(self.file_lines[f]):
                    self.cursor = f = f + 1
                elif self.bkeys[r]:
                    if f < self.hi and key(self.file_lines[f]):
                        if not self.edges_replace and _resembles(self.block[r], self.file_lines[f]):
                            self.plan.edge_resembles = self.plan.edge_resembles or Unplaced(
                                r, f"stands after the file's line {last_line + 1} and before a placeholder, and "
                                f"resembles the file's line {f + 1}: whether it changes that line or adds one is "
                                "not certain",
                                "restate the line below it as the file has it, or the changed line with the lines around it",
                            )
                        if self.edges_replace:
                            self.cursor = f + 1  # the file's next line, changed (`<TableRow … className>`)
                        else:
                            self.plan.edge_inserted = True
                    break
                self.plan.ops.append(("row", r, 0))
            else:
                return
            self.plan.ops.extend(("row", x, 0) for x in tail if x >= r)
        elif targeted:
            self.replace(tail, self.hi)
        else:
            raise Unplaced(
                next(r for r in reversed(tail) if bkeys[r]),
                "ends the block, and it is not in the file: where the block's last lines end is not certain",
                "end the block with a line the file holds, or with a placeholder for the rest",
            )

    def new_run(self, a: int, b: int, matched: dict[int, int], after_placeholder: bool, before_placeholder: bool,
                fl: _Lines, targeted: bool) -> None:
        """A run the file holds none of: whole new definitions, placed by what comes before them."""
        rows = list(range(a, b + 1))
        repeated = [r for r in rows if self.bkeys[r] and len(fl.within(self.bkeys[r], self.lo, self.hi)) > 1]
        known = any(a <= p.header <= b and self.in_file(p) for p in self.block_defs)
        if known or not _only_new_definitions(rows, self.block_defs, self.block, matched):
            if repeated:
                times = len(fl.within(self.bkeys[repeated[0]], self.lo, self.hi))
                raise Unplaced(repeated[0], f"occurs {times} times in the file, and no line of its run once",
                               "restate a line around it that the file holds once")
            raise Unplaced(a, "is not in the file, and its run holds no line the file has: where it goes is not certain",
                           "restate a line of the file right before or after it")
        indent = self._indent(rows)
        following = min((f for r, f in matched.items() if r > b), default=self.hi)
        replaced = self._said_replaced(indent, following)
        if replaced:
            # "I replaced `requireEnv` with `requireEnvLogged`": the new definitions take the place
            # of the ones the prose says go, what the placeholders stand for around them kept.
            code = [r for r in rows if self.bkeys[r]]
            start = replaced[0].top
            if not _COMMENTISH.match(self.block[code[0]]):
                # The block brings no comment of its own: the file's above the first stays.
                while start < replaced[0].header and (_COMMENTISH.match(self.file_lines[start]) or not key(self.file_lines[start])):
                    start += 1
            self.keep(start, True)
            self.plan.removed.extend(d.name for d in replaced)
            self.plan.ops.extend(("row", r, 0) for r in range(code[0], code[-1] + 1))
            self.cursor = replaced[-1].end + 1
            return
        previous = max((f for r, f in matched.items() if r < a), default=None)
        if previous is not None and before_placeholder:
            if indent > width(self.file_lines[previous]):
                raise Unplaced(a, "is a new definition that stands between placeholders, so where it goes is not certain", "restate the definition it follows, or the end of what holds it")
            at = _insertion_after(self.file_defs, self.file_lines, previous, indent)
        elif before_placeholder or not after_placeholder:
            raise Unplaced(a, "is a new definition with placeholders around it and nothing the file holds: "
                           "where it goes is not certain", "restate the definition it follows")
        else:
            at = _end_of_container(self.file_defs, self.file_lines, previous, indent, self.hi)
        self.keep(max(at, self.cursor), True)
        self._insert(rows)

    def _said_replaced(self, indent: int, stop: int) -> list[FileDef]:
        """The definitions at `indent` between the cursor and `stop` that the prose says are renamed
        or replaced by a definition the block brings, when they stand together; else []."""
        if not self.renamed_said:
            return []
        peers = sorted(
            (d for d in self.file_defs if d.kind not in FRAME_KINDS and d.indent == indent
             and self.cursor <= d.top and d.end < stop),
            key=lambda d: d.top,
        )
        said = [k for k, d in enumerate(peers) if d.name in self.renamed_said]
        if not said or said != list(range(said[0], said[-1] + 1)):
            return []
        return [peers[k] for k in said]

    def _closed_by(self, tail: list[int], matched: dict[int, int], last_line: int) -> int | None:
        """The file line after the definition whose end the tail writes: the innermost complete
        definition of the block around the tail, whose header is placed on the file's definition."""
        code = [r for r in tail if self.bkeys[r]]
        around = [p for p in self.block_defs if p.complete and p.header < code[0] and p.end >= code[-1] and p.header in matched]
        for p in sorted(around, key=lambda p: p.header, reverse=True):
            found = [d for d in self.file_defs if d.header == matched[p.header] and d.name == p.name]
            if found and found[0].end >= last_line:
                return found[0].end + 1
        return None

    def _insert(self, rows: list[int]) -> None:
        """New definitions at the cursor, with a blank line from the code on either side."""
        code = [r for r in rows if self.bkeys[r]]
        rows = list(range(code[0], code[-1] + 1))  # the separation is the file's, not the block's
        before = self.cursor - 1
        if before >= 0 and key(self.file_lines[before]) and not key(self.file_lines[before]).endswith(("{", ":")):
            self.plan.ops.append(("blank", 0, 0))
        self.plan.ops.extend(("row", r, 0) for r in rows)
        if self.cursor < len(self.file_lines) and key(self.file_lines[self.cursor]) and not _closing(self.file_lines[self.cursor]):
            self.plan.ops.append(("blank", 0, 0))

    def _indent(self, rows: list[int]) -> int:
        first = next(r for r in rows if self.bkeys[r])
        return width(self.block[first]) + self.plan.shift.get(first, 0)

    def _above_definition(self, line: int) -> int:
        """New definitions before a placed definition header go above its comment and decorators."""
        found = [d for d in self.file_defs if d.header == line]
        return min(d.top for d in found) if found and min(d.top for d in found) >= self.cursor else line
