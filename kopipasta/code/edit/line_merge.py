"""A block with placeholders written into its file by the line-anchored reading (issue 24).

`code/read/line_anchored.py` reads the block against the file's lines and
answers the plan: which file lines stay, which block rows are written where.
This module feeds it the file's definitions and the block's (as the parse
sees them), merges the block's new imports into the file's first (§4b, so an
`import` the file lacks is not a line to place), writes the plan in the
file's layout (its newline, its indent unit when the block is shifted), and
checks the result parses. Every file line the plan does not name is written
byte for byte, so what a placeholder stands for cannot change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.read import line_plan as lp
from kopipasta.code.read import line_reading
from kopipasta.errors import PayloadError, SyntaxCheckError

if TYPE_CHECKING:
    from tree_sitter import Tree

    from kopipasta.code.find.definitions import Definition
    from kopipasta.code.find.document import Document

READING = "merged elision"


@dataclass
class LineMerged:
    data: bytes
    tree: Tree | None
    note: str
    reading: str = READING


def merge_lines(
    document: Document,
    payload: str,
    *,
    file: str,
    label: str,
    prose: str = "",
    target: Definition | None = None,
) -> LineMerged:
    """The block's lines written over the file (or over `target`'s lines, for TARGET_NODE)."""
    from kopipasta.syntax.check import check_syntax

    spec = document.code_spec
    import_note = ""
    imports, payload_rest = line_reading.new_imports(document, payload)
    if imports:
        from kopipasta.code.imports.import_merge import plan_imports
        from kopipasta.code.imports.imports import apply_edits

        planned = plan_imports(spec, document.data, document.tree, imports, document.newline, root=document.root)
        new_data, change = apply_edits(document.data, list(planned.edits))
        if new_data != document.data:
            tree = check_syntax(spec, file, label, document.data, document.tree, new_data, change)
            document = document.after(new_data, tree)
            if target is not None:
                target = _same_target(document, target)
        import_note = planned.note
    _check_holds_code(document, payload, file, label, target)
    window = line_reading.target_window(document, target) if target is not None else None
    try:
        reading = line_reading.read_block(document, payload_rest, window=window, prose=prose)
    except lp.Unplaced as error:
        raise _refusal(error, payload_rest, file, label, target) from None
    data = _written(document, reading)
    tree = document.tree
    if data != document.data:
        try:
            tree = check_syntax(spec, file, label, document.data, document.tree, data)
        except SyntaxCheckError as first_error:
            if not reading.plan.edge_inserted:
                raise
            # A changed line next to a placeholder, written beside the file's line there, does not
            # parse (`<TableRow key={index} className=…>` above the old `<TableRow key={index}>`):
            # read as the file's line changed, it must (one reading that parses is certain).
            try:
                other = line_reading.read_block(document, payload_rest, window=window, prose=prose, edges_replace=True)
            except lp.Unplaced:
                raise first_error from None
            other_data = _written(document, other)
            try:
                tree = check_syntax(spec, file, label, document.data, document.tree, other_data)
            except SyntaxCheckError:
                raise first_error from None
            reading, data = other, other_data
        else:
            if reading.plan.edge_resembles is not None and _other_reading_parses(document, payload_rest, window, prose):
                raise _refusal(reading.plan.edge_resembles, payload_rest, file, label, target) from None
            line_reading.read_block(document, payload_rest, window=window, prose=prose)  # the guard's reading again
    if reading.plan.removed and data != document.data:
        _check_removed_unused(document.after(data, tree), reading.plan.removed, file, label)
    notes = [n for n in (import_note,) if n]
    frame = [name for name in reading.plan.kept if name in reading.frame_names]
    notes += [f"kept {name}, not in the block" for name in reading.plan.kept if name not in reading.frame_names]
    if frame:
        shown = frame[0] if len(frame) == 1 else f"{len(frame)} imports and statements"
        notes.append(f"kept {shown}, not in the block")
    if reading.plan.removed:
        notes.append("replaced " + ", ".join(reading.plan.removed))
    return LineMerged(data, tree, "; ".join(notes))


def _check_holds_code(document: Document, payload: str, file: str, label: str, target: Definition | None) -> None:
    """A block of placeholders around a header alone (`class Cart:` / `# ... existing code ...`) sent
    nothing: placed, it would report `unchanged`, as if the change were already there."""
    from kopipasta.code.read.members import only_placeholders
    from kopipasta.code.read.parsed import read_payload

    parsed = read_payload(document.code_spec, payload, document.data)
    if parsed.placeholders and only_placeholders(parsed, None):
        what = f"{label} in {file}" if target is None else f"TARGET_NODE {label} in {file}"
        raise PayloadError(
            f"{what}: the block holds no code, only placeholders",
            "ask the model for the code itself: the changed definitions, complete",
        )


def _same_target(document: Document, target: Definition) -> Definition:
    """The target again in the file after its imports merged (same name and kind, nearest place)."""
    found = [d for d in document.definitions if d.qualified_name == target.qualified_name and d.kind == target.kind]
    return min(found, key=lambda d: abs(d.start - target.start)) if found else target


def _other_reading_parses(document: Document, payload: str, window: tuple[int, int] | None, prose: str) -> bool:
    """Whether the block, its edge lines read as the file's lines changed, gives a file that parses."""
    from kopipasta.syntax.check import check_syntax

    try:
        other = line_reading.read_block(document, payload, window=window, prose=prose, edges_replace=True)
        data = _written(document, other)
        check_syntax(document.code_spec, "", "", document.data, document.tree, data)
    except (lp.Unplaced, SyntaxCheckError, PayloadError):
        return False
    return True


def _check_removed_unused(after: Document, removed: list[str], file: str, label: str) -> None:
    """A definition the block replaces (renamed, or said to go) that the file still uses, and no
    longer defines, would leave code that cannot compile: refused, naming the line."""
    defined = {d.name for d in after.definitions}
    gone = {name.rsplit(".", 1)[-1] for name in removed} - {n.rsplit(".", 1)[-1] for n in defined}
    if not gone or after.tree is None:
        return
    cursor = after.tree.walk()
    while True:
        node = cursor.node
        if node is not None and node.type.endswith("identifier") and node.text is not None:
            name = node.text.decode("utf-8", "replace")
            if name in gone:
                raise PayloadError(
                    f"{label} in {file}: the block replaces `{name}`, and line {node.start_point[0] + 1} "
                    "still uses it",
                    f"restate the lines that use `{name}` with the new name, or keep `{name}`",
                )
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.goto_next_sibling():
                break
        else:
            return


def _refusal(error: lp.Unplaced, payload: str, file: str, label: str, target: Definition | None) -> PayloadError:
    lines = payload.split("\n")
    if 0 <= error.row < len(lines):
        shown = lines[error.row].strip()
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        where = f"the block's line {error.row + 1} (`{shown}`)"
    else:
        where = "the block"
    what = f"{label} in {file}" if target is None else f"TARGET_NODE {label} in {file}"
    return PayloadError(f"{what}: {where} {error.why}", error.fix)


def _written(document: Document, reading: line_reading.Reading) -> bytes:
    """The plan in the file's bytes: its lines as they are, the block's rows in its layout."""
    spec = document.code_spec
    file_lines, block, plan = reading.file_lines, reading.block, reading.plan
    crlf = document.newline == "\r\n"
    unit = document.unit
    tab = unit is not None and unit.text == "\t"
    out: list[str] = []

    def row_text(r: int) -> str:
        line = block[r].rstrip("\r")
        shift = plan.shift.get(r, 0)
        if shift and line.strip():
            lead = max(lp.width(line) + shift, 0)
            line = ("\t" * (lead // lp.TAB) + " " * (lead % lp.TAB) if tab else " " * lead) + line.lstrip(" \t")
        elif tab and line.startswith(" ") and line.strip() and (plan.values is None or r not in plan.values):
            lead = lp.width(line)
            line = "\t" * (lead // lp.TAB) + " " * (lead % lp.TAB) + line.lstrip(" \t")
        elif plan.values is not None and r not in plan.values and not tab and line.startswith("\t") and line.strip():
            # A tab block for a file indented with spaces, as wide (a tab is TAB): its layout in spaces.
            line = " " * lp.width(line) + line.lstrip(" \t")
        return line + "\r" if crlf else line

    for index, (op, a, b) in enumerate(plan.ops):
        if op == "file":
            out.extend(file_lines[a:b])
        elif op == "row":
            out.append(row_text(a))
        elif op == "line":
            same = lp.key(block[a]) == lp.key(file_lines[b]) and (
                lp.width(block[a]) + plan.shift.get(a, 0) == lp.width(file_lines[b])
            )
            out.append(file_lines[b] if same else row_text(a))
        elif op == "blank":
            blank = "\r" if crlf else ""
            out.append(blank)
            if spec.grammar == "python" and _next_row_at_margin(plan.ops, index, block):
                out.append(blank)  # PEP 8: two blank lines around a top-level definition
    return "\n".join(out).encode("utf-8", "surrogateescape")


def _next_row_at_margin(ops: list[tuple[str, int, int]], index: int, block: list[str]) -> bool:
    """Whether the block row next to a blank (after it, else before it) starts at column 0."""
    for op, a, _ in [*ops[index + 1 :], *reversed(ops[:index])]:
        if op == "row" and block[a].strip():
            return lp.width(block[a]) == 0
        if op == "file":
            continue
    return False
