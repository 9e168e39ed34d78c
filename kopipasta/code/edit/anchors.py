"""A placeholder inside a function body, filled from the original when its neighbours anchor it (§6.3).

`# ... existing code ...` between two lines of a restated function stands for
the original lines between the same two lines. That is certain only when the
payload line right before the placeholder and the one right after it each
occur exactly once in the original definition (compared as whole lines,
indentation aside), in that order — or, a line repeated alone (`return x`,
`}`), the run of payload lines it ends or starts does; otherwise the block
fails, naming the placeholder's line. The definition's own first and last lines (its
signature, its closing brace) anchor to the original's first and last when
they are equal; a one-line signature anchors to the original's even when it
changed (`def f(x, strict=False):` then `# ... existing code ...`), since
the definition was matched by name.

The payload is first rendered at the definition's place in the file (its
indentation, the file's unit), so the original lines copied in and the
payload's own lines share one layout; the result is then spliced as any
TARGET_NODE payload, which leaves an already rendered payload as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import Definition
from kopipasta.code.layout.render import render_lines
from kopipasta.errors import PayloadError, counted

if TYPE_CHECKING:
    from kopipasta.code.find.document import Document


def _same_header(payload_line: str, original_line: str) -> bool:
    """Both are the one-line header of a definition, starting with the same keyword (`def`, `export`, …).

    A decorator or a comment is not a header: it may be there in one and not the other.
    """
    if payload_line.startswith(("@", "#", "//", "/*", "*")) or original_line.startswith(("@", "#", "//", "/*", "*")):
        return False
    first = payload_line.split(None, 1)[:1]
    return bool(first) and first == original_line.split(None, 1)[:1] and payload_line.endswith((":", "{"))


def _unique_run(keys: list[str], run: list[str], *, ending: bool) -> int | None:
    """The original line the run of payload lines ends (or starts) at, when the shortest run
    that tells them apart occurs exactly once among the original's non-blank lines."""
    lines = [i for i, k in enumerate(keys) if k]
    for length in range(2, len(run) + 1):
        wanted = run[-length:] if ending else run[:length]
        hits = [
            lines[p + length - 1] if ending else lines[p]
            for p in range(len(lines) - length + 1)
            if [keys[lines[p + q]] for q in range(length)] == wanted
        ]
        if len(hits) <= 1:
            return hits[0] if hits else None
    return None


def _original_lines(document: Document, definition: Definition) -> list[str]:
    data = document.data
    comment = document.comment_block_start(definition.outer_start)
    top = document.line_start(comment if comment is not None else definition.outer_start)
    end = data.find(b"\n", definition.end)
    text = data[top : len(data) if end < 0 else end].decode("utf-8", "replace")
    return [line.rstrip("\r") for line in text.split("\n")]


def expand(
    document: Document,
    definition: Definition,
    payload: str,
    rows: list[int],
    *,
    file: str,
    label: str,
    first_row: int = 0,
) -> str:
    """The payload with each placeholder row replaced by the original lines it stands for."""
    rendered = render_lines(
        document.spec, payload, base=document.indentation_at(definition.start), file_unit=document.unit
    )
    original = _original_lines(document, definition)
    keys = [line.strip() for line in original]
    code_rows = [r for r, line in enumerate(rendered) if line.strip() and r not in rows]
    first_code = code_rows[0] if code_rows else None
    last_code = code_rows[-1] if code_rows else None
    first_original = next((i for i, k in enumerate(keys) if k), 0)
    last_original = max((i for i, k in enumerate(keys) if k), default=len(keys) - 1)

    def fail(row: int, why: str) -> PayloadError:
        line = rendered[row].strip()
        return PayloadError(
            f"{label} in {file}: the placeholder at the payload's line {first_row + row + 1} ({line}) "
            f"is not anchored: {why}",
            "restate the lines right around it exactly as they are, or send the complete "
            f"{definition.kind} {definition.qualified_name}",
        )

    def locate(row: int, payload_row: int, edge: int | None, edge_original: int) -> int | None:
        key = rendered[payload_row].strip()
        if payload_row == edge and keys[edge_original] == key:
            return edge_original
        if payload_row == edge == first_code and _same_header(key, keys[edge_original]):
            return edge_original  # the restated signature stands for the original's, changed or not
        found = [i for i, k in enumerate(keys) if k == key]
        if len(found) > 1:
            # Repeated alone (`return result`, `}`): the run of payload lines it ends (before the
            # placeholder) or starts (after it) may still occur once in the original.
            bounds = [r for r in rows if r != row]
            if payload_row < row:
                run = [r for r in code_rows if max([-1, *(b for b in bounds if b < row)]) < r <= payload_row]
            else:
                run = [r for r in code_rows if payload_row <= r < min([len(rendered), *(b for b in bounds if b > row)])]
            return _unique_run(keys, [rendered[r].strip() for r in run], ending=payload_row < row)
        return found[0] if len(found) == 1 else None

    out: list[str] = []
    cursor = 0  # the payload rows before `cursor` are in `out`
    last_anchor = -1
    for row in sorted(rows):
        before = next((r for r in reversed(code_rows) if r < row), None)
        after = next((r for r in code_rows if r > row), None)
        if before is None:
            raise fail(row, "nothing of the definition stands before it")
        start = locate(row, before, first_code, first_original)
        if start is None:
            count = keys.count(rendered[before].strip())
            where = "is not in" if count == 0 else f"occurs {counted(count, 'time')} in"
            raise fail(row, f"the line before it (`{rendered[before].strip()}`) {where} the original")
        if after is None:
            stop = last_original + 1  # the placeholder runs to the definition's end
        else:
            located = locate(row, after, last_code, last_original)
            if located is None:
                count = keys.count(rendered[after].strip())
                where = "is not in" if count == 0 else f"occurs {counted(count, 'time')} in"
                raise fail(row, f"the line after it (`{rendered[after].strip()}`) {where} the original")
            stop = located
        if not last_anchor <= start < stop:
            raise fail(row, "the lines around it are not in the original's order")
        last_anchor = stop
        elided = original[start + 1 : stop]
        kept = rendered[cursor:row]
        # A blank line on both sides of an edge (the payload's next to its placeholder, the
        # original's at the edge of the code it stands for) is one blank line, not two.
        if elided and not elided[0].strip():
            while len(kept) > before + 1 - cursor and not kept[-1].strip():
                kept.pop()
        out.extend(kept)
        out.extend(elided)
        cursor = row + 1
        if elided and not elided[-1].strip() and after is not None:
            while cursor < after and not rendered[cursor].strip():
                cursor += 1
    out.extend(rendered[cursor:])
    return "\n".join(out)
