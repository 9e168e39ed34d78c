"""A file's hunks applied in memory, in order, all or none (PROTOCOL.md §8).

Each hunk is matched by `matcher` (one tier at a time), must match exactly one
place (a diff's `@@ -N` or an envelope's `@@ anchor` may pick it among several),
and replaces only its own lines: context lines stay as the file has them, byte
for byte, so a hunk matched through trailing whitespace or an indentation shift
changes nothing but the lines it adds and removes. Line terminators (CRLF stays
CRLF), the BOM and a missing final newline are kept. A hunk whose new text
already stands where it would go is `unchanged`, so a reply applied twice never
adds its lines twice. The caller checks the syntax and writes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kopipasta.code.layout.indent import Unit, detect_unit
from kopipasta.errors import AmbiguousTarget, PatchError, PayloadError, TargetNotFound
from kopipasta.intake.textpatch_syntax import DIFF, ENVELOPE, SEARCH_REPLACE, Hunk
from kopipasta.text.matcher import (
    INDENT,
    NO_SHIFT,
    TIERS,
    Match,
    Shift,
    closest_difference,
    find,
    leading,
)
from kopipasta.text.midline import replace_within_lines

UNCHANGED = "unchanged"


@dataclass
class Lines:
    """A file's text as lines without terminators, and each line's terminator."""

    texts: list[str]
    ends: list[str]
    final_newline: bool

    @classmethod
    def of(cls, text: str) -> Lines:
        parts = text.split("\n")
        final = len(parts) > 1 and parts[-1] == ""
        if final or parts[-1] == "":
            parts.pop()
        texts: list[str] = []
        ends: list[str] = []
        for k, part in enumerate(parts):
            last = k == len(parts) - 1
            if last and not final:
                texts.append(part)
                ends.append("")
            elif part.endswith("\r"):
                texts.append(part[:-1])
                ends.append("\r\n")
            else:
                texts.append(part)
                ends.append("\n")
        return cls(texts, ends, final or not parts)

    def text(self, newline: str) -> str:
        ends = list(self.ends)
        for k in range(len(ends)):
            if not ends[k]:
                ends[k] = newline
        if ends and not self.final_newline:
            ends[-1] = ""
        return "".join(t + e for t, e in zip(self.texts, ends, strict=True))


def hunk_label(form: str, path: str, hunk: Hunk) -> str:
    if form == DIFF:
        return f"Diff hunk {hunk.number} for {path}"
    if form == ENVELOPE:
        return f"Envelope hunk {hunk.number} for {path}"
    return f"Search/replace section {hunk.number} for {path}"


def _hunk_unit(hunk: Hunk) -> Unit | None:
    """The unit the hunk's lines indent by, or None when they show none (one indented line, or
    two a step apart that is no unit): a guessed unit would let a level conversion write its
    added lines where a plain column shift puts them (`    }` then `  // x` for a 2-space file)."""
    lines = [text for _, text in hunk.lines if text.strip()]
    unit = detect_unit(lines)
    if unit is not None:
        return unit
    return Unit("\t") if any(leading(line).startswith("\t") for line in lines) else None


def _scope_end(texts: list[str], k: int) -> int:
    """The end of the block a line opens: the next line indented no deeper than it.

    A header spread over lines (`class Foo(` / `    Base,` / `):`) opens its block where
    its brackets close: the closing line at the header's depth does not end the block.
    """
    width = len(leading(texts[k]).expandtabs(4))
    header_end = k
    depth = _bracket_delta(texts[k])
    while depth > 0 and header_end + 1 < len(texts):
        header_end += 1
        depth += _bracket_delta(texts[header_end])
    if depth > 0:
        header_end = k  # never closed: read as one line, as before
    for j in range(header_end + 1, len(texts)):
        if texts[j].strip() and len(leading(texts[j]).expandtabs(4)) <= width:
            return j
    return len(texts)


def _bracket_delta(line: str) -> int:
    """Brackets a line opens less those it closes (strings are not told apart: a header has few)."""
    return sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")


def _anchor_hit(line: str, anchor: str) -> bool:
    """A file line the anchor names: equal to it, or starting with it up to a word boundary.

    The anchor's own closing `:` or `{` is not required (`@@ def f(self):` names
    `def f(self) -> None:`).
    """
    s = line.strip()
    if s == anchor:
        return True
    head = anchor.rstrip(":{ ")
    return bool(head) and s.startswith(head) and (len(s) == len(head) or not (s[len(head)].isalnum() or s[len(head)] == "_"))


def anchor_regions(texts: list[str], anchors: tuple[str, ...], label: str) -> list[tuple[int, int]]:
    """Where the envelope's `@@` anchors put the hunk: the blocks the anchor lines open."""
    regions = [(0, len(texts))]
    for anchor in anchors:
        found: list[tuple[int, int]] = []
        for start, end in regions:
            for k in range(start, end):
                if _anchor_hit(texts[k], anchor.strip()):
                    found.append((k, min(_scope_end(texts, k), end)))
        if not found:
            raise TargetNotFound(f"{label}: its anchor `@@ {anchor}` is not in the file", "send the anchor line as the file has it")
        regions = found
    return regions


def _lines_of(matches: list[Match]) -> str:
    return ", ".join(str(m.start + 1) for m in matches)


def apply_hunk(
    lines: Lines,
    hunk: Hunk,
    *,
    label: str,
    expected: int | None,
    file_unit: Unit | None,
    newline: str,
    path: str = "",
    midline: bool = False,
) -> str:
    """Apply one hunk to `lines` in place; returns the tier that matched, or UNCHANGED.

    `midline`: a search/replace section, whose old text may also start or end inside a
    line (text/midline.py) when no tier finds its lines whole.
    """
    old, new = hunk.old, hunk.new
    texts = lines.texts
    hunk_unit = _hunk_unit(hunk)
    if not old:
        return _apply_addition(lines, hunk, label=label, file_unit=file_unit, newline=newline)
    if hunk.replace_all:
        tier = replace_within_lines(texts, lines.ends, old, new, label=label, newline=newline, replace_all=True)
        if tier is None:
            raise TargetNotFound(
                f"{label}: its old text is not in the file — {closest_difference(texts, old)}",
                "nothing was written; copy the text as the file has it now",
            )
        return tier
    regions = anchor_regions(texts, hunk.anchors, label) if hunk.anchors else None

    def keep(m: Match) -> bool:
        if regions is not None and not any(a <= m.start < b for a, b in regions):
            return False
        return not hunk.at_end or all(not t.strip() for t in texts[m.start + m.length :])

    for tier in TIERS:
        olds = [m for m in find(texts, old, tier, hunk_unit=hunk_unit, file_unit=file_unit) if keep(m)]
        if not olds:
            continue
        news = [m for m in find(texts, new, tier, hunk_unit=hunk_unit, file_unit=file_unit) if keep(m)] if new != old else olds
        # Old text inside a copy of the new text is a hunk already applied there (a pure addition).
        pending = [m for m in olds if not any(m.inside(n) for n in news)] if new != old else []
        if not pending:
            return UNCHANGED
        at_line = [m for m in pending if expected is not None and m.start == expected]
        if expected is not None and not at_line and any(n.start == expected for n in news):
            return UNCHANGED  # the place its @@ line names already holds its new text
        if len(pending) > 1:
            if len(at_line) != 1:
                which = f", and its @@ -{expected + 1} names none of them" if expected is not None else ""
                raise AmbiguousTarget(
                    f"{label} matches {len(pending)} places (lines {_lines_of(pending)}){which}",
                    "nothing was written; add unchanged lines around the change that occur once "
                    "(a diff may give its `@@ -N` line, an envelope an `@@ class X` anchor)",
                )
            pending = at_line
        shift = pending[0].shift if tier == INDENT else _unit_conversion(hunk, hunk_unit, file_unit)
        _replace(lines, pending[0], hunk, label=label, shift=shift, newline=newline, path=path)
        return tier
    if midline:
        tier = replace_within_lines(texts, lines.ends, old, new, label=label, newline=newline, replace_all=False)
        if tier is not None:
            return tier
    # The old text is gone at every tier: if the new text stands once, the hunk is in place.
    if new != old and any(line.strip() for line in new):
        for tier in TIERS:
            news = [m for m in find(texts, new, tier, hunk_unit=hunk_unit, file_unit=file_unit) if keep(m)]
            if len(news) == 1:
                return UNCHANGED
            if news:
                raise TargetNotFound(
                    f"{label}: its old text is not in the file and its new text stands {len(news)} times "
                    f"(lines {_lines_of(news)})",
                    "nothing was written; check which place the change was meant for",
                )
    raise TargetNotFound(
        f"{label}: its old text is not in the file — {closest_difference(texts, old)}",
        "nothing was written; copy the lines as the file has them now, or use TARGET_NODE",
    )


def _render(text: str, shift: Shift, label: str) -> str:
    rendered = shift.render(text)
    if rendered is None:
        raise PayloadError(
            f"{label}: its added line {text.strip()!r} does not fit the indentation shift its other lines took",
            "nothing was written; indent the added lines like the lines around them",
        )
    return rendered


def _unit_conversion(hunk: Hunk, hunk_unit: Unit | None, file_unit: Unit | None) -> Shift:
    """The shift for a hunk matched as written: none, unless it is written in another indent unit.

    A 2-space hunk whose old lines all stand at the margin matches a 4-space file
    exactly, but its added lines are 2-space: they are converted level by level into
    the file's unit, as TARGET_NODE's payloads are. Only when every old line is at the
    margin: an indented old line matched exactly shows the hunk already writes the
    file's unit.
    """
    if file_unit is None or hunk_unit is None or hunk_unit == file_unit or detect_unit([t for _, t in hunk.lines if t.strip()]) is None:
        return NO_SHIFT
    if any(leading(text) for op, text in hunk.lines if op != "+" and text.strip()):
        return NO_SHIFT
    conversion = Shift(levels=0, hunk_unit=hunk_unit, file_unit=file_unit)
    if any(conversion.render(text) is None for op, text in hunk.lines if op == "+"):
        return NO_SHIFT  # a line off the hunk's steps (aligned continuation): as written, as before
    return conversion


def _string_rows(path: str, texts: list[str], rows: list[int]) -> set[int]:
    """Which of `rows` (added lines, in `texts`: the file with the hunk in place) lie inside a
    multi-line string the hunk itself opens.

    Their text is a value: a shift would change it (PROTOCOL.md §3). A string the file
    already holds, whose lines the hunk's context matched with the shift, takes the shift
    like its context does. Read from the whole file's parse, where the opener has its
    context; a docstring's inner lines are layout and move with their opener.
    """
    from kopipasta.syntax.languages import language_for_path, parse

    spec = language_for_path(path) if path else None
    if spec is None or not rows or not spec.string_types:
        return set()
    from kopipasta.code.layout.render import multiline_nodes, value_rows

    added = set(rows)
    root = parse(spec, "\n".join(texts).encode("utf-8")).root_node
    _, docstring = value_rows(spec, root)
    values: set[int] = set()
    for node in multiline_nodes(root, frozenset(spec.string_types)):
        first, last = node.start_point[0], node.end_point[0]
        if first in added:
            values.update(row for row in range(first + 1, last + 1) if row in added and row not in docstring)
    return values


def _replace(lines: Lines, match: Match, hunk: Hunk, *, label: str, shift: Shift, newline: str, path: str) -> None:
    texts: list[str] = []
    ends: list[str] = []
    k = match.start
    added: dict[int, str] = {}  # row in texts → the added line as sent
    for op, text in hunk.lines:
        if op == " ":
            texts.append(lines.texts[k])
            ends.append(lines.ends[k])
            k += 1
        elif op == "-":
            k += 1
        else:
            added[len(texts)] = text
            rendered = shift.render(text) if shift != NO_SHIFT else text
            texts.append(text if rendered is None else rendered)
            ends.append(newline)
    if shift != NO_SHIFT:
        strings: set[int] = set()
        if len(added) > 1:
            whole = [*lines.texts[: match.start], *texts, *lines.texts[match.start + match.length :]]
            strings = {row - match.start for row in _string_rows(path, whole, [match.start + r for r in added])}
        for row, text in added.items():
            # Inside a string the line is a value, kept as sent; elsewhere it must take the shift.
            texts[row] = text if row in strings else _render(text, shift, label)
    end = match.start + match.length
    was_last = end == len(lines.texts)
    if was_last and ends and lines.ends[end - 1] == "" and ends[-1] == newline:
        ends[-1] = ""  # the file had no final newline: it still has none
    lines.texts[match.start : end] = texts
    lines.ends[match.start : end] = ends
    # Only the file's last line has no terminator; it can now stand just before, inside or
    # just after what was replaced, never elsewhere (a scan of the whole file per hunk
    # made many hunks quadratic).
    for i in range(max(match.start - 1, 0), min(match.start + len(texts) + 1, len(lines.ends) - 1)):
        if not lines.ends[i]:
            lines.ends[i] = newline


def _apply_addition(lines: Lines, hunk: Hunk, *, label: str, file_unit: Unit | None, newline: str) -> str:
    """A hunk with no old lines: only an empty file or `*** End of File` says where it goes."""
    new = hunk.new
    if not lines.texts:
        lines.texts[:] = list(new)
        lines.ends[:] = [newline] * len(new)
        lines.final_newline = True
        return "exact"
    if len(find(lines.texts, new, "exact")) == 1:
        return UNCHANGED
    if hunk.at_end:
        lines.ends[-1] = lines.ends[-1] or newline
        lines.texts.extend(new)
        lines.ends.extend([newline] * len(new))
        return "exact"
    raise PayloadError(
        f"{label} only adds lines and has no context lines: nothing says where they go",
        "nothing was written; include a few unchanged lines around the addition",
    )


def apply_hunks(text: str, hunks: tuple[Hunk, ...], *, form: str, path: str, newline: str) -> tuple[str, list[str]]:
    """The file's text after every hunk, and the tier (or UNCHANGED) each took."""
    lines = Lines.of(text)
    file_unit = detect_unit(lines.texts)
    tiers: list[str] = []
    delta = 0
    for hunk in hunks:
        expected = hunk.old_start - 1 + delta if hunk.old_start else None
        if expected is not None and hunk.old_start == 0:
            expected = None
        label = hunk_label(form, path, hunk)
        if hunk.alternative is not None:
            tiers.append(_apply_either(lines, hunk, label=label, file_unit=file_unit, newline=newline, path=path))
            delta += len(hunk.new) - len(hunk.old)
            continue
        try:
            tier = apply_hunk(lines, hunk, label=label, expected=expected, file_unit=file_unit, newline=newline, path=path,
                              midline=form == SEARCH_REPLACE)
        except TargetNotFound:
            if not hunk.padded:
                raise
            # The blank lines the header's counts put back may be the model's miscount, not
            # trimmed context: the hunk as written, still matched whole and exactly once.
            hunk = replace(hunk, lines=hunk.lines[: -hunk.padded], padded=0)
            tier = apply_hunk(lines, hunk, label=label, expected=expected, file_unit=file_unit, newline=newline, path=path)
        tiers.append(tier)
        delta += len(hunk.new) - len(hunk.old)
    return lines.text(newline), tiers


def _apply_either(lines: Lines, hunk: Hunk, *, label: str, file_unit: Unit | None, newline: str, path: str) -> str:
    """A diff hunk without `@@` whose context reads two ways (space as prefix, or as the file's text).

    Each reading is tried on its own copy; the one that applies is kept. Both applying
    with different bytes is a reply that says two things: refused, never guessed.
    """
    done: list[tuple[Lines, str]] = []
    failures: list[PatchError] = []
    for reading in (hunk.lines, hunk.alternative):
        assert reading is not None
        trial = Lines(list(lines.texts), list(lines.ends), lines.final_newline)
        try:
            tier = apply_hunk(trial, replace(hunk, lines=reading, alternative=None), label=label, expected=None,
                              file_unit=file_unit, newline=newline, path=path)
        except PatchError as error:
            failures.append(error)
            continue
        done.append((trial, tier))
    if not done:
        # The reading that found its lines (several times, say) tells more than one that found none.
        raise next((f for f in failures if not isinstance(f, TargetNotFound)), failures[0])
    if len(done) == 2 and (done[0][0].texts, done[0][0].ends) != (done[1][0].texts, done[1][0].ends):
        raise AmbiguousTarget(
            f"{label} has no @@ header and its context lines read two ways (with or without their first space), "
            "each changing the file differently",
            "nothing was written; send the diff with its @@ header, or as a search/replace block",
        )
    chosen, tier = done[0]
    lines.texts[:], lines.ends[:], lines.final_newline = chosen.texts, chosen.ends, chosen.final_newline
    return tier


def created_text(hunks: tuple[Hunk, ...], *, final_newline: bool) -> str:
    """The text of a file a diff or envelope creates: its added lines."""
    lines = [text for hunk in hunks for _, text in hunk.lines]
    if not lines:
        return ""
    return "\n".join(lines) + ("\n" if final_newline else "")


def tiers_note(form: str, tiers: list[str]) -> str:
    """`diff: exact`, `search/replace: 2 exact, 1 unchanged` — how the block was read and matched."""
    if not tiers:
        return form
    counts: dict[str, int] = {}
    for tier in tiers:
        counts[tier] = counts.get(tier, 0) + 1
    if len(counts) == 1 and len(tiers) == 1:
        return f"{form}: {tiers[0]}"
    return f"{form}: " + ", ".join(f"{n} {tier}" for tier, n in counts.items())
