"""Each run of a block with placeholders written into the plan (PROTOCOL.md §6, item 3).

`line_anchored.align` places the block's lines; `RunWriter` turns each run into the plan's
operations, in file order: what a placeholder keeps, the file's lines a run replaces, the
definitions, imports and statements a gap passes over without showing (kept), new
definitions and where they go (after the one before them, at the end of what holds them, or
where the definitions stand that the prose says they replace), and a run's edges next to a
placeholder: a changed line there is an insertion, unless it assigns what the file's line
beside it assigns, or only the other reading parses (`edges_replace`), or it resembles that
line and both readings parse (then `Plan.edge_resembles` refuses).
"""

from __future__ import annotations

import re

from kopipasta.code.read.line_plan import (
    FRAME_KINDS,
    BlockDef,
    FileDef,
    Lines,
    Plan,
    Unplaced,
    key,
    width,
)

# A line that is a comment (or a decorator, an annotation): it belongs to what follows it.
_COMMENTISH = re.compile(r"^\s*(#|//|/\*|\*|--|@|<!--|;)")

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


class RunWriter:
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
        if head and start < first_line:
            self.replace(head, first_line)
        elif head and any(bkeys[r] for r in head) and _only_new_definitions(head, self.block_defs, self.block, matched):
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
                fl: Lines, targeted: bool) -> None:
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
