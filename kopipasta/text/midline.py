"""A search/replace whose old text starts or ends inside a line (Claude Code's and Cline's semantics).

`old_string` → `new_string` means: the old text, character for character, stands
exactly once in the file; it becomes the new text, and the rest of the lines it
touches stay as they are. The line tiers of `matcher` come first (they tolerate
whitespace); this is read only when none of them finds the old lines, and only
exactly — no whitespace slack here, since a part of a line has no indentation to
shift.

A place where the old text would cut a word in two (`x = 1` inside `max = 1`, or
inside `x = 10`) is not a place the reply named: such places never count, and when
they are the only ones the section is refused. `replace_all` (Claude Code's flag)
replaces every place, and is refused when one of them cuts a word.
"""

from __future__ import annotations

from kopipasta.errors import AmbiguousTarget, TargetNotFound

MIDLINE = "mid-line"


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _positions(text: str, part: str) -> list[int]:
    found: list[int] = []
    start = text.find(part)
    while start != -1:
        found.append(start)
        start = text.find(part, start + 1)
    return found


def _cuts_a_word(text: str, start: int, part: str) -> bool:
    end = start + len(part)
    return (start > 0 and _word(text[start - 1]) and _word(part[0])) or (
        end < len(text) and _word(text[end]) and _word(part[-1])
    )


def replace_within_lines(
    texts: list[str], ends: list[str], old: list[str], new: list[str], *, label: str, newline: str, replace_all: bool
) -> str | None:
    """Apply the section to `texts`/`ends` in place: MIDLINE, "unchanged", or None when the old text is nowhere."""
    whole = "\n".join(texts)
    old_text, new_text = "\n".join(old), "\n".join(new)
    if not old_text.strip():
        return None
    found = _positions(whole, old_text)
    if not found:
        # Its new text standing once, whole words at its edges, is the edit already made.
        placed = [p for p in _positions(whole, new_text) if not _cuts_a_word(whole, p, new_text)] if new_text.strip() else []
        return "unchanged" if len(placed) == 1 else None
    clean = [p for p in found if not _cuts_a_word(whole, p, old_text)]
    line_of = [whole.count("\n", 0, p) + 1 for p in found]
    if not clean or (replace_all and len(clean) < len(found)):
        cut = next(line for p, line in zip(found, line_of, strict=True) if p not in clean)
        raise TargetNotFound(
            f"{label}: its old text stands in the file only as part of a longer word (line {cut})"
            if not clean
            else f"{label}: replace_all would also change its old text inside a longer word (line {cut})",
            "nothing was written; give the old text up to whole words (or whole lines)",
        )
    placed = _positions(whole, new_text) if new_text and new_text != old_text else []
    # Old text inside a copy of the new text is the edit already made there (applied twice).
    pending = [p for p in clean if not any(n <= p and p + len(old_text) <= n + len(new_text) for n in placed)]
    if not pending:
        return "unchanged"
    if len(pending) > 1 and not replace_all:
        lines = ", ".join(str(whole.count("\n", 0, p) + 1) for p in pending)
        raise AmbiguousTarget(
            f"{label}: its old text stands {len(pending)} times in the file (lines {lines})",
            "nothing was written; include more of the text around the change so it occurs once",
        )
    for start in reversed(pending):  # from the end: earlier offsets stay valid
        _splice(texts, ends, whole, start, old_text, new_text, newline)
    return MIDLINE


def _splice(texts: list[str], ends: list[str], whole: str, start: int, old_text: str, new_text: str, newline: str) -> None:
    """Replace `old_text` at offset `start` of `whole` ("\\n".join(texts)) in the lines it touches."""
    first = whole.count("\n", 0, start)
    last = first + old_text.count("\n")
    line_start = whole.rfind("\n", 0, start) + 1
    column = start - line_start
    end_column = len(old_text) - old_text.rfind("\n") - 1 if "\n" in old_text else column + len(old_text)
    head, rest = texts[first][:column], texts[last][end_column:]
    replaced = (head + new_text + rest).split("\n")
    # Lines the edit keeps a count of keep their terminators (CRLF stays CRLF); the last keeps the file's last.
    kept_ends = ends[first:last]
    new_ends = [kept_ends[k] if k < len(kept_ends) else newline for k in range(len(replaced) - 1)] + [ends[last]]
    texts[first : last + 1] = replaced
    ends[first : last + 1] = new_ends
