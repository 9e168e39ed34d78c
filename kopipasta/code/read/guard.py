"""The write guard: one check behind every reading of a code block (issue 19).

Whatever a block was read as — TARGET_NODE, an insertion, a fragment, an
elided merge, a whole file — the file's definitions before and after it are
compared, as the Document lists them, before anything is written:

- every definition the block does not mention is still there (by qualified
  name), and a definition holding no other is byte for byte the same
  (moved, never changed or removed);
- every definition the payload carries sits at the nesting the payload gives
  it: inside the container its frame names, and a member the payload indents
  (a method between `// ... existing code ...` markers) never at the top level;
- no definition is added under a new name beside an unmentioned one whose
  body it repeats (a rename read as an addition duplicates the function);
- every code line of the payload's definitions is in the result.

A block "mentions" a definition when the payload defines one of that name,
or its directive names it or a definition holding it (TARGET_NODE, DELETE_NODE,
INSERT_*/APPEND_TO's anchor: the directive is explicit about what it covers),
or it is read as the whole file (everything). Text patches are not checked
here: their removed lines are what they mention, by construction.

This is a net, not a reading: each reading decides what a block means, and
the guard refuses the result when it would lose or misplace code the block
did not speak of. Its cost on the common path (a TARGET_NODE whose change
stays inside its target) is one comparison of the bytes and a lookup of the
target by name, which the resolver already made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import MARKUP_KINDS, Definition
from kopipasta.code.read.parsed import Parsed, read_payload, structural
from kopipasta.errors import PayloadError
from kopipasta.model import Operation, Patch

if TYPE_CHECKING:
    from kopipasta.code.find.document import Document

# Readings that map the payload onto the file by name (the report's `reading` words).
WHOLE_FILE_READING = "whole file"
LINE_ANCHORED_READING = "merged elision"  # code/edit/line_merge.py
_EXPLICIT = (Operation.REPLACE_NODE, Operation.DELETE_NODE, Operation.INSERT_AFTER, Operation.INSERT_BEFORE, Operation.APPEND_TO)
_INSERTS = (Operation.INSERT_AFTER, Operation.INSERT_BEFORE, Operation.APPEND_TO)
_FUNCTION_KINDS = frozenset({"function", "method"})
# A new definition whose body is at least this like an unmentioned neighbour's repeats it (a rename).
_RENAME_LIKENESS = 0.9


class GuardError(PayloadError):
    """A block whose result would lose, change or misplace code it does not mention."""


def check_write(patch: Patch, before: Document, after: Document, reading: str = "") -> None:
    """Raise GuardError when the block's result loses or misplaces what the block does not mention."""
    spec = before.spec
    if spec is None or spec.embedding is not None or not before.source.exists or not after.source.exists:
        return  # data and text files have no definitions; a new file loses nothing
    old, new = before.data, after.data
    if old == new or not old.strip() or patch.operation is Operation.SET_PATH:
        return
    if patch.operation is Operation.WHOLE_FILE and reading == WHOLE_FILE_READING:
        return  # the whole file restated: it mentions everything, and its lines are the file's
    if patch.operation is Operation.DELETE_NODE:
        return  # removes its target (and what it holds), with its comment; insert.delete checks the span
    if reading == LINE_ANCHORED_READING and _check_line_anchored(patch, before, after):
        return
    start, old_end, new_end, inserted = _changed_region(old, new)
    if inserted and patch.operation in _INSERTS:
        return  # an insertion that only adds, where its directive says: nothing else is touched
    inside = _inside_target(patch, before, start, old_end)
    if inside and patch.operation is Operation.REPLACE_NODE and not reading:
        return  # TARGET_NODE's one splice of its payload, inside its target (the common path: no payload parse)
    payload = read_payload(spec, patch.payload, old) if patch.payload.strip() else None
    if payload is not None:
        _check_payload_lines(patch, payload, new, start, new_end)
    if inside:
        return  # the change stays inside what the directive names: nothing else is touched
    only_adds = inserted or not old[start:old_end].strip()
    names = _payload_names(patch, payload)
    # A definition holding one the payload names is mentioned too (a handler restated inside its component).
    explicit = _explicit_spans(patch, before) + [(d.start, d.end) for d in _named(before, names)]
    old_defs = structural(before.definitions)
    new_defs = structural(after.definitions)
    if not only_adds:
        _check_kept(patch, before, after, old_defs, new_defs, names, explicit)
    if payload is not None:
        _check_nesting(patch, payload, old_defs, new_defs, after)
        _check_no_rename(patch, before, after, payload, old_defs, new_defs, names)
    _check_overload_sets(patch, before, after)


def _check_overload_sets(patch: Patch, before: Document, after: Document) -> None:
    """No TypeScript overload signature left without its implementation that the file did not have
    (code/read/overload_sets.py): one signature of a set renamed is the usual cause."""
    from kopipasta.code.read.overload_sets import orphans

    new = orphans(after)
    if not new:
        return
    old = orphans(before)
    for name in new:
        if name not in old:
            raise GuardError(
                f"{_where(patch)}: {name} would be left an overload signature without its implementation "
                "(TypeScript refuses that: TS2391) — one signature of an overload set renamed?",
                "send each overload set whole under one name: its signatures, then its implementation",
            )


# --- where the bytes changed ------------------------------------------------------------


def _changed_region(old: bytes, new: bytes) -> tuple[int, int, int, bool]:
    """The changed region as whole lines: its start, its end in `old`, its end in `new`; and
    whether `new` is `old` with bytes inserted (nothing of `old` removed or changed)."""
    limit = min(len(old), len(new))
    prefix = _agreeing(limit, lambda i, j: old[i:j] == new[i:j])
    room = limit - prefix
    suffix = _agreeing(room, lambda i, j: old[len(old) - j : len(old) - i] == new[len(new) - j : len(new) - i])
    start = old.rfind(b"\n", 0, prefix) + 1
    old_end = old.find(b"\n", len(old) - suffix)
    new_end = new.find(b"\n", len(new) - suffix)
    inserted = prefix + suffix >= len(old)
    return start, len(old) if old_end < 0 else old_end, len(new) if new_end < 0 else new_end, inserted


_STRIDE = 4096  # bytes compared at a time: equal strides are skipped at C speed


def _agreeing(size: int, agree: Callable[[int, int], bool]) -> int:
    """How far (≤ size) two byte strings agree from one end; `agree(i, j)` compares bytes i to j from it."""
    low = 0
    while low + _STRIDE <= size and agree(low, low + _STRIDE):
        low += _STRIDE
    high = min(low + _STRIDE, size)
    while low < high:  # they agree over the first `low` bytes; the first unequal stride is halved
        middle = (low + high + 1) // 2
        if agree(low, middle):
            low = middle
        else:
            high = middle - 1
    return low


def _payload_names(patch: Patch, payload: Parsed | None) -> set[str]:
    """The names of the definitions the payload writes, read at its top level and as class members."""
    if payload is None:
        return set()
    names = {d.name for d in payload.definitions}
    if not payload.wrapped and payload.spec.payload_wrappers:
        from kopipasta.code.read.parsed import read_as_members

        members = read_as_members(payload.spec, patch.payload)
        if members is not None and not members.has_error:
            names |= {d.name for d in members.definitions}
    return names


def _named(before: Document, names: set[str]) -> list[Definition]:
    """The file's definitions (at any depth, inside functions too) called one of `names`."""
    return [d for name in names for d in before.named(name)]


def _target_parts(patch: Patch) -> tuple[str, ...]:
    """The names a directive's target writes (`method A.b#2` → ("A", "b")), kind and ordinal aside."""
    if patch.target is None:
        return ()
    from kopipasta.code.find.resolve import parse_target

    try:
        target = parse_target(patch.target, patch.file)
    except Exception:  # noqa: BLE001 — a target the resolver refused never reaches the guard
        return ()
    return tuple(target.parts)


def _named_by_directive(patch: Patch, before: Document) -> list[Definition]:
    """The definitions the block's directive may name: every one its target's name fits."""
    if patch.operation not in _EXPLICIT:
        return []
    parts = _target_parts(patch)
    if not parts:
        return []
    suffix = ".".join(parts)
    return [
        d
        for d in before.ending_in(parts[-1])
        if d.qualified_name == suffix or d.qualified_name.endswith("." + suffix) or d.name == parts[-1]
    ]


def _span(before: Document, definition: Definition) -> tuple[int, int]:
    """A definition's lines, its comment block above included (what a splice may rewrite)."""
    start = definition.outer_start
    comment = before.comment_block_start(start)
    if comment is not None:
        start = min(start, comment)
    end = before.data.find(b"\n", definition.end)
    return before.line_start(start), len(before.data) if end < 0 else end


def _inside_target(patch: Patch, before: Document, start: int, end: int) -> bool:
    """Whether the changed lines lie inside one definition the directive names."""
    return any(s <= start and end <= e for s, e in (_span(before, d) for d in _named_by_directive(patch, before)))


def _explicit_spans(patch: Patch, before: Document) -> list[tuple[int, int]]:
    """The spans the directive names (a TARGET_NODE's target, APPEND_TO's container): theirs to change."""
    return [(d.start, d.end) for d in _named_by_directive(patch, before)]


# --- the rules ------------------------------------------------------------------------


def _where(patch: Patch) -> str:
    if patch.operation is Operation.WHOLE_FILE:
        return f"File block for {patch.file}"
    return f"{patch.directive} in {patch.file}"


def _check_kept(
    patch: Patch,
    before: Document,
    after: Document,
    old_defs: list[Definition],
    new_defs: list[Definition],
    names: set[str],
    explicit: list[tuple[int, int]],
) -> None:
    """Every definition the block does not mention is still there; one holding no other, byte for byte."""
    texts: dict[str, list[bytes]] = {}
    after_data: set[tuple[str, bytes]] | None = None
    for d in new_defs:
        texts.setdefault(d.qualified_name, [])
    holders = {".".join(d.container[: k + 1]) for d in old_defs for k in range(len(d.container))}
    for d in old_defs:
        if d.name in names or any(s <= d.start and d.end <= e or d.start <= s and e <= d.end for s, e in explicit):
            continue  # named, inside what the directive names, or holding what the payload names
        if d.qualified_name not in texts:
            raise GuardError(
                f"{_where(patch)}: the block would remove {d.kind} {d.qualified_name} (line {d.line}), "
                "which it does not mention",
                _mention_hint(patch, d),
            )
        if d.qualified_name in holders:
            continue  # a container: its members are checked one by one
        if after_data is None:
            after_data = {(n.qualified_name, after.data[n.start : n.end]) for n in new_defs}
        if (d.qualified_name, before.data[d.start : d.end]) not in after_data:
            raise GuardError(
                f"{_where(patch)}: the block would change {d.kind} {d.qualified_name} (line {d.line}), "
                "which it does not mention",
                _mention_hint(patch, d),
            )


def _mention_hint(patch: Patch, lost: Definition) -> str:
    if patch.operation is Operation.WHOLE_FILE:
        return (
            f"restate {lost.name} in the block, or send the change with `TARGET_NODE` for the definitions it changes; "
            f"to remove it, add a block `DELETE_NODE: {lost.kind} {lost.qualified_name}`"
        )
    return f"restate {lost.name} in the payload, or send only the definition that changes; to remove it, use `DELETE_NODE: {lost.kind} {lost.qualified_name}`"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _check_nesting(
    patch: Patch, payload: Parsed, old_defs: list[Definition], new_defs: list[Definition], after: Document
) -> None:
    """Each payload definition lands in the container its frame or its indentation puts it in."""
    lines = patch.payload.split("\n")
    margin = min(
        (_indent(line) for row, line in enumerate(lines) if line.strip()),
        default=0,
    )
    old_keys = {(d.qualified_name, d.line) for d in old_defs}
    old_texts = {d.qualified_name for d in old_defs}
    for p in structural(payload.definitions):
        row = payload.row(p.start)
        # A member by its indentation, or because it parses only inside a class (the wrapper).
        indented = not p.container and (payload.wrapped or (0 <= row < len(lines) and _indent(lines[row]) > margin))
        if not p.container and not indented:
            continue
        landed = [d for d in new_defs if d.name == p.name and (d.qualified_name, d.line) not in old_keys]
        landed = [d for d in landed if d.qualified_name not in old_texts] or landed
        if not landed:
            continue
        if p.container:
            if any(d.container[len(d.container) - len(p.container) :] == p.container for d in landed):
                continue
            where = "at the top level of the file" if not landed[0].container else "in " + ".".join(landed[0].container)
            raise GuardError(
                f"{_where(patch)}: the payload's {p.kind} {p.qualified_name} would land {where}, "
                f"not inside {'.'.join(p.container)} where the payload puts it",
                f"send it with `TARGET_NODE: {p.kind} {p.qualified_name}` (or `APPEND_TO: {'.'.join(p.container)}`)",
            )
        if patch.operation in _INSERTS:
            continue  # the directive says where it goes
        if all(not d.container for d in landed):
            raise GuardError(
                f"{_where(patch)}: the payload indents {p.kind} {p.name} (its line {row + 1}) as a member, "
                "but it would be added at the top level of the file",
                f"say which class it belongs to: `APPEND_TO: class <Class>` for a new member, "
                f"`TARGET_NODE: method <Class>.{p.name}` for one it replaces, or restate the class around it",
            )


def _body(data: bytes, definition: Definition) -> list[str]:
    """A definition's lines after its first, stripped: what stays when only its name changes."""
    text = data[definition.start : definition.end].decode("utf-8", "replace").split("\n")
    return [line.strip() for line in text[1:] if line.strip()]


def _check_no_rename(
    patch: Patch,
    before: Document,
    after: Document,
    payload: Parsed,
    old_defs: list[Definition],
    new_defs: list[Definition],
    names: set[str],
) -> None:
    """A new definition beside an unmentioned one whose body it repeats is a rename read as an addition."""
    if patch.operation in _INSERTS:
        return  # an insertion says it adds
    old_names = {d.qualified_name for d in old_defs}
    added = [d for d in new_defs if d.qualified_name not in old_names and d.name in names and d.kind in _FUNCTION_KINDS]
    for new in added:
        body = _body(after.data, new)
        if len(body) < 2:
            continue
        for old in old_defs:
            if old.name in names or old.container != new.container or old.kind not in _FUNCTION_KINDS:
                continue
            theirs = _body(before.data, old)
            if theirs == body or _alike(theirs, body):
                raise GuardError(
                    f"{_where(patch)}: the payload's {new.kind} {new.qualified_name} is not in the file, and its body "
                    f"repeats {old.kind} {old.qualified_name} (line {old.line}), which the block does not mention: "
                    "a rename would leave both",
                    f"to rename it, send it with `TARGET_NODE: {old.kind} {old.qualified_name}`; "
                    f"to add a second one, use `INSERT_AFTER: {old.kind} {old.qualified_name}`",
                )


def _alike(theirs: list[str], body: list[str]) -> bool:
    import difflib  # only when a block adds a function: a TARGET_NODE apply does not pay for it

    return difflib.SequenceMatcher(None, theirs, body, autojunk=False).ratio() >= _RENAME_LIKENESS


def _check_payload_lines(patch: Patch, payload: Parsed, new: bytes, start: int, new_end: int) -> None:
    """Every code line of the payload's definitions (placeholders aside) is in the result."""
    lines = patch.payload.split("\n")
    rows: set[int] = set()
    headers: set[int] = set()
    for d in structural(payload.definitions):
        first, last = payload.row(d.outer_start), payload.row(d.end)
        rows.update(range(max(first, 0), min(last, len(lines) - 1) + 1))
        headers.add(payload.row(d.start))
    # A definition's own first line is spliced with the file's wrapper kept (`export`, `pub`,
    # `local`, `private`, a Go `const (` group): it is the definition's name, not its content.
    rows -= set(payload.placeholders) | headers
    wanted = {lines[r].strip() for r in rows if lines[r].strip()}
    if not wanted:
        return
    region = {line.strip() for line in new[start:new_end].decode("utf-8", "replace").split("\n")}
    missing = wanted - region
    if missing:
        everywhere = {line.strip() for line in new.decode("utf-8", "replace").splitlines()}
        missing -= everywhere
    if missing:
        row = min(r for r in rows if lines[r].strip() in missing)
        shown = lines[row].strip()
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise GuardError(
            f"{_where(patch)}: the payload's line {row + 1} (`{shown}`) would not be in the result",
            "send the definition with `TARGET_NODE`, complete",
        )


# --- the line-anchored reading (issue 24) ----------------------------------------------------


def _check_line_anchored(patch: Patch, before: Document, after: Document) -> bool:
    """A block placed line by line: every line a placeholder stands for is in the result as it was,
    in order, and every line the block shows is in the result, in order.

    The reading is asked again (its last answer is kept, so this costs a lookup): the check
    holds the result to what the reading said, not to what the writer did.
    """
    from kopipasta.code.read import line_reading

    reading = line_reading.last_reading(before.data)
    if reading is None or reading.block != patch.payload.replace("\r\n", "\n").split("\n"):
        return False  # not read line by line against this file (its imports merged first): the usual checks
    new_lines = after.data.decode("utf-8", "surrogateescape").split("\n")
    at = 0
    for a, b in reading.plan.placeholder_spans:
        wanted = reading.file_lines[a:b]
        found = _find_run(new_lines, wanted, at)
        if found < 0:
            raise GuardError(
                f"{_where(patch)}: the file's lines {a + 1}-{b} that a placeholder stands for would change",
                "restate the lines around the change exactly as the file has them",
            )
        at = found + len(wanted)
    keys = [line.strip() for line in new_lines]
    at = 0
    for row, line in enumerate(reading.block):
        wanted_key = line.strip()
        if not wanted_key or row in reading.placeholders:
            continue
        try:
            at = keys.index(wanted_key, at) + 1
        except ValueError:
            shown = wanted_key if len(wanted_key) <= 60 else wanted_key[:57] + "..."
            raise GuardError(
                f"{_where(patch)}: the block's line {row + 1} (`{shown}`) would not be in the result, in its order",
                "send the definition with `TARGET_NODE`, complete",
            ) from None
    _check_containers_kept(patch, before, after)
    return True


def _check_containers_kept(patch: Patch, before: Document, after: Document) -> None:
    """No definition leaves its container: the line reading writes a block's lines at the depth its
    placed lines say, so a method that lands at another depth (a 4-space block shifted by one column
    amount into a 2-space file put `def total` at column 0, out of `Cart`) is a misreading, never what
    the block means. Its lines are all in the result, in order, so only the names tell."""
    # A selector's dots are not nesting (`.x .btn` → `.btn` is a rule renamed, not moved).
    old = Counter(d.qualified_name for d in before.definitions if d.kind not in MARKUP_KINDS)
    new = Counter(d.qualified_name for d in after.definitions if d.kind not in MARKUP_KINDS)
    arrived = {q.rsplit(".", 1)[-1]: q for q in new - old}
    for gone in old - new:
        now = arrived.get(gone.rsplit(".", 1)[-1])
        # At the same depth it is its container renamed (`Counter.increment` → `CounterLogged.increment`).
        if now is not None and now.count(".") != gone.count("."):
            raise GuardError(
                f"{_where(patch)}: `{gone}` would become `{now}`, at another nesting",
                "restate the definition at its indentation in the file, or send it with `TARGET_NODE`",
            )


def _find_run(lines: list[str], wanted: list[str], start: int) -> int:
    """Where `wanted` stands as consecutive lines in `lines`, from `start` on; -1 if nowhere."""
    if not wanted:
        return start
    first = wanted[0]
    i = start
    while True:
        try:
            i = lines.index(first, i)
        except ValueError:
            return -1
        if lines[i : i + len(wanted)] == wanted:
            return i
        i += 1
