"""A lazy block's indentation in the file's unit (PROTOCOL.md §6.3; decisions/code.md).

The line-anchored reading writes each run of a block at the depth its placed lines say. A
block written in another unit than the file's (2-space steps for a 4-space file, 4 spaces for
a tab file) that adds nesting cannot be placed by one column shift per run: `def total` at 2
lands at the file's 4 by +2, the new `if` body under it at 4 + 2 = 6, while the lines the
block keeps from the body sit at the file's 8 — Python refuses the mix, and a brace language
gets lines at a depth the file never uses. A careful reader converts the block's levels.

So when the block's own unit is learnt for certain (`layout/indent.py`'s learner, as for a
TARGET_NODE payload), each row is measured in levels of that unit and written in levels of
the file's; the run's base comes from its placed lines as before. The levels are used only
when the placed lines agree with them at least as well as with the plain shift, so a block
that mixes its unit with the file's (lines copied at 4, a new line 2 deeper) keeps today's
reading.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kopipasta.code.layout.indent import Unit, indent_steps, unit_of
from kopipasta.code.read.line_plan import TAB, width

if TYPE_CHECKING:
    from kopipasta.syntax.languages import LanguageSpec


@dataclass(frozen=True)
class Levels:
    """The block's unit and the file's, as `line_plan.width` counts them (a tab is TAB)."""

    block: int
    file: int
    steps: int  # how many times the block's lines step one level of its unit deeper
    frozen: frozenset[int]  # rows starting inside a multi-line string or comment: values, not layout
    # ... of which those of a docstring, block comment or `<<~` heredoc: row → the row it opens on,
    # which they move with (as `layout/indent.reindent` does); other strings' lines stay as sent.
    movers: dict[int, int] = field(default_factory=dict)

    def place(self, line: str) -> int:
        """The line's indentation converted to the file's unit; a remainder (alignment) kept as columns."""
        levels, rest = divmod(width(line), self.block)
        return levels * self.file + rest


def _width(unit: Unit) -> int:
    return TAB if unit.text == "\t" else len(unit.text)


def learn(
    spec: LanguageSpec, payload: str, block: list[str], placeholders: set[int], file_unit: Unit | None
) -> Levels | None:
    """The block's unit, when its own lines say it for certain and it is not the file's; else None.

    Not certain: no step at all (one level only), or a step that is not a whole number of the
    unit (a 4-space block with 2-space lines, spaces beside tabs). Placeholders are not layout
    (Cursor writes them at column 0 inside a body), nor the inner lines of strings and comments.
    """
    if file_unit is None:
        return None
    rows = [r for r, line in enumerate(block) if line.strip() and r not in placeholders]
    unit = unit_of(indent_steps(block[r] for r in rows))
    if unit is None or unit.text == file_unit.text:
        return None  # the common case, settled without parsing the block again
    from kopipasta.code.layout.render import string_lines

    frozen, movers = string_lines(spec, payload)
    steps = indent_steps(block[r] for r in rows if r not in frozen)
    unit = unit_of(steps)
    if unit is None or unit.text == file_unit.text:
        return None
    tab = unit.text == "\t"
    for step in steps:
        if (step == "\t") != tab or (not tab and len(step) % len(unit.text)):
            return None  # mixed
    return Levels(_width(unit), _width(file_unit), steps[unit.text], frozenset(frozen), movers)


def run_shifts(
    block: list[str],
    file_lines: list[str],
    matched: dict[int, int],
    runs: list[tuple[int, int]],
    place: Callable[[str], int],
    frozen: frozenset[int] = frozenset(),
    movers: dict[int, int] | None = None,
) -> tuple[dict[int, int], int]:
    """Each row's indentation change, block → file, with the rows placed at `place(line)` plus
    their run's base (the most common among its placed lines; the block's, for a run with
    none); and how many placed lines land exactly on their file line's indentation."""
    overall: Counter[int] = Counter()
    per_run: list[Counter[int]] = []
    for a, b in runs:
        here: Counter[int] = Counter(
            width(file_lines[f]) - place(block[r])
            for r, f in matched.items()
            if a <= r <= b and block[r].strip() and r not in frozen
        )
        per_run.append(here)
        overall.update(here)
    default = overall.most_common(1)[0][0] if overall else 0
    shifts: dict[int, int] = {}
    agreeing = 0
    for (a, b), here in zip(runs, per_run, strict=True):
        base = here.most_common(1)[0][0] if here else default
        agreeing += here[base]
        for r in range(a, b + 1):
            if r in frozen:
                opener = (movers or {}).get(r)
                delta = shifts.get(opener, 0) if opener is not None else 0
            else:
                delta = place(block[r]) + base - width(block[r])
            if delta:
                shifts[r] = delta
    return shifts, agreeing


def shifts(
    block: list[str],
    file_lines: list[str],
    matched: dict[int, int],
    runs: list[tuple[int, int]],
    levels: Levels | None,
) -> dict[int, int]:
    """The plan's shifts: one column change per run, or, when the block's unit is certain and its
    placed lines agree, its levels converted to the file's unit."""
    plain, plain_agreeing = run_shifts(block, file_lines, matched, runs, width)
    if levels is None:
        return plain
    converted, agreeing = run_shifts(block, file_lines, matched, runs, levels.place, levels.frozen, levels.movers)
    # Placed lines at two depths tell the ratio of the units: the levels must fit them better,
    # or, when nothing tells (one placed depth), the block must have stepped its unit twice.
    if agreeing > plain_agreeing or (agreeing == plain_agreeing and levels.steps >= 2):
        return converted
    return plain
