"""A block with placeholders read against one version of its file (PROTOCOL.md §6.3).

`line_anchored.align` works on lines and spans; this module gives it them: the
file's lines and definitions (with their comment blocks, and the file's own
imports and statements as entries to keep), the block's rows, its placeholders
and the definitions it restates (cut or whole), and the names the prose says
are removed. The last reading is kept, so the write guard asks the same plan
the writer used for the bytes it checks.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.read import line_levels
from kopipasta.code.read.line_anchored import align
from kopipasta.code.read.line_plan import FRAME_KINDS, BlockDef, FileDef, Plan, key, width
from kopipasta.code.read.reading import said_removed

if TYPE_CHECKING:
    from kopipasta.code.find.definitions import Definition
    from kopipasta.code.find.document import Document

# A sentence that says a definition goes, or is replaced: "Removed the unused `helper`", "replaced
# `parse` with `load`" (in a lazy block the new definitions stand where the old ones stood).
_REMOVAL_OR_REPLACEMENT = re.compile(
    r"(?i)\b(remov|delet|drop|renam|replac|get(?:ting)? rid|eliminat|no longer (?:need|use))\w*"
)


_RENAME_WORDS = re.compile(r"(?i)\b(?:renam|replac)")


def said_renamed(prose: str, old_names: list[str], new_names: list[str]) -> frozenset[str]:
    """The old names a sentence says are renamed or replaced by one of the new names, in that
    order: "I replaced `requireEnv` with `requireEnvLogged`", "renamed parse to load". A name
    that only stands near the verb ("replaced the loop in `parse` with a helper") is not one."""
    if not _RENAME_WORDS.search(prose):
        return frozenset()
    # Only names the prose spells are candidates: a pattern per pair of a 2,000-line file's
    # hundreds of definitions would cost more than the whole apply.
    olds = {o for o in old_names if o.rsplit(".", 1)[-1] in prose}
    news = {n for n in new_names if n.rsplit(".", 1)[-1] in prose}
    said = set()
    for old in olds:
        for new in news - {old}:
            o, n = (re.escape(x.rsplit(".", 1)[-1]) for x in (old, new))
            sentence = re.compile(
                rf"(?i)\b(?:renam|replac)\w*\s+(?:the\s+)?(?:\w+\s+)?`?{o}`?(?:\(\))?\s+"
                rf"(?:with|by|to|into|->|→)\s+(?:the\s+|a\s+|an\s+)?(?:new\s+)?(?:\w+\s+)?`?{n}`?(?!\w)"
            )
            if sentence.search(prose):
                said.add(old)
    return frozenset(said)


@dataclass(frozen=True)
class Reading:
    """A block read against one version of its file: the lines on both sides and the plan."""

    file_lines: list[str]
    block: list[str]
    placeholders: frozenset[int]
    plan: Plan
    frame_names: frozenset[str] = frozenset()  # the names given to the file's imports and statements


_last: list[tuple[tuple[bytes, str, tuple[int, int] | None, str], Reading]] = []


def read_block(
    document: Document, payload: str, *, window: tuple[int, int] | None = None, prose: str = "",
    edges_replace: bool = False,
) -> Reading:
    """The block read against the document's lines; the last answer is kept for the write guard.

    `edges_replace`: a changed line next to a placeholder stands for the file's line there (the
    other reading of `Plan.edge_inserted`, asked when the first does not parse)."""
    cache_key = (document.data, payload, window, prose, edges_replace)
    for known, reading in _last:
        if known == cache_key:
            return reading
    from kopipasta.code.read.members import CONTAINER_KINDS
    from kopipasta.code.read.parsed import placeholder_rows, read_payload, structural

    spec = document.code_spec
    data = document.data
    file_lines = data.decode("utf-8", "surrogateescape").split("\n")
    block = payload.replace("\r\n", "\n").split("\n")
    placeholders = set(placeholder_rows(spec, payload, data))
    starts = [0]
    for i, line in enumerate(file_lines[:-1]):
        starts.append(starts[i] + len(line.encode("utf-8", "surrogateescape")) + 1)
    originals = structural(document.definitions)
    file_defs = [_file_def(document, starts, file_lines, d) for d in originals]
    file_defs += _frame(document, starts, file_lines)
    parsed = read_payload(spec, payload, data)
    block_defs = []
    # The parse's text starts at the root node, past leading blank lines (an import blanked above).
    lead = parsed.tree.root_node.start_point[0] if not parsed.offset else 0
    for d in structural(parsed.definitions):
        header, end = parsed.row(d.start) + lead, parsed.row(max(d.end - 1, d.start)) + lead
        top = parsed.row(d.outer_start) + lead
        trailing_placeholder = False
        while header < end < len(block) and (not block[end].strip() or end in placeholders):
            # A definition's node may take the newline after it, and a placeholder below it
            # (Python's parse puts `# ...` at the body's indentation inside the body).
            if end in placeholders and (width(block[end]) > width(block[header]) or d.kind in CONTAINER_KINDS):
                trailing_placeholder = True  # indented into the body: it stands for the body's rest
            end -= 1
        node = parsed.tree.root_node.descendant_for_byte_range(d.start, d.end)
        broken = node is not None and (node.has_error or node.is_missing)
        cut = trailing_placeholder or any(header <= r <= end for r in placeholders)
        if 0 <= header < len(block):
            block_defs.append(
                BlockDef(d.name, max(top, 0), header, min(end, len(block) - 1), not (broken or cut), tuple(d.scope))
            )
    removal = said_removed([d.name for d in originals], prose, _REMOVAL_OR_REPLACEMENT) if prose else frozenset()
    renamed = said_renamed(prose, [d.name for d in originals], [d.name for d in block_defs]) if prose else frozenset()
    plan = align(
        file_lines, block, placeholders, file_defs, block_defs,
        window=window, removal_said=removal, renamed_said=renamed, indent_scoped=spec.grammar == "python",
        edges_replace=edges_replace, levels=line_levels.learn(spec, payload, block, placeholders, document.unit),
    )
    frame = frozenset(d.name for d in file_defs if d.kind in FRAME_KINDS)
    reading = Reading(file_lines, block, frozenset(placeholders), plan, frame)
    _last[:] = [(cache_key, reading)]
    return reading


def last_reading(data: bytes) -> Reading | None:
    """The last block read against exactly these file bytes (for the write guard), if any."""
    for (known_data, *_), reading in _last:
        if known_data == data:
            return reading
    return None


def _line_of(starts: list[int], offset: int) -> int:
    return bisect_right(starts, offset) - 1


def _file_def(document: Document, starts: list[int], file_lines: list[str], d: Definition) -> FileDef:
    comment = document.comment_block_start(d.outer_start)
    top = _line_of(starts, min(d.outer_start, comment) if comment is not None else d.outer_start)
    header = _line_of(starts, d.start)
    end = _line_of(starts, max(d.end - 1, d.start))
    from kopipasta.code.read.members import CONTAINER_KINDS

    return FileDef(d.name, d.kind, top, header, end, width(file_lines[header]), d.kind in CONTAINER_KINDS, tuple(d.scope))


def _frame(document: Document, starts: list[int], file_lines: list[str]) -> list[FileDef]:
    """The file's imports and statements that are no definition, as entries named by their first
    line: at the top level, and in every class, module or other container (Ruby's `belongs_to`,
    a class attribute, an interface's field), so a gap between two shown lines keeps them as it
    keeps a definition the block does not show."""
    from kopipasta.code.read.members import CONTAINER_KINDS, members
    from kopipasta.code.read.parsed import read_file

    parsed = read_file(document)
    found = []
    holders = [None, *(d for d in document.definitions if d.kind in CONTAINER_KINDS)]
    for holder in holders:
        for m in members(parsed, holder) or []:
            if m.kind in FRAME_KINDS or (holder is not None and m.kind == "field"):
                top, end = _line_of(starts, m.start), _line_of(starts, max(m.end - 1, m.start))
                # An import group (Go's `import ( … )`, Python's parenthesised names) is one line
                # an import: a whole file that leaves out one of them keeps it.
                spans = [(top, end)]
                if m.kind == "import" and end > top:
                    spans += [(r, r) for r in range(top + 1, end) if key(file_lines[r]) not in ("", "(", ")")]
                for a, b in spans:
                    name = key(file_lines[a])
                    name = name if len(name) <= 50 else name[:47] + "..."
                    found.append(FileDef(name, "statement" if m.kind == "field" else m.kind, a, a, b, 0, False))
    return found


def target_window(document: Document, target: Definition) -> tuple[int, int]:
    """A TARGET_NODE's lines: from its comment block (or decorators) to its last line, as a window."""
    data = document.data
    comment = document.comment_block_start(target.outer_start)
    start = min(target.outer_start, comment) if comment is not None else target.outer_start
    end = max(target.end - 1, target.start)
    return data.count(b"\n", 0, start), data.count(b"\n", 0, end) + 1


def new_imports(document: Document, payload: str) -> tuple[list[str], str]:
    """The block's import statements the file lacks, and the block with their lines made blank.

    An import is not a line to place: it merges into the file's imports (§4b), wherever the
    block shows it. One the file holds already is an ordinary line (an anchor, often the first).
    """
    from kopipasta.code.read.members import members
    from kopipasta.code.read.parsed import read_payload

    spec = document.code_spec
    parsed = read_payload(spec, payload, document.data)
    found = [m for m in members(parsed, None) or [] if m.kind == "import"]
    if not found:
        return [], payload
    own = {line.strip() for line in document.data.decode("utf-8", "replace").splitlines()}
    lines = payload.split("\n")
    imports: list[str] = []
    for m in found:
        rows = range(max(m.first_row, 0), min(m.last_row, len(lines) - 1) + 1)
        if all(lines[r].strip() in own for r in rows if lines[r].strip()):
            continue
        imports.append("\n".join(lines[r] for r in rows))
        for r in rows:
            lines[r] = ""
    return imports, "\n".join(lines)
