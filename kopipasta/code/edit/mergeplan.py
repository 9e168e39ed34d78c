"""The plan of a merge (PROTOCOL.md §6): its steps, and where new definitions go.

`merge.py` maps a payload's members onto the original's and queues steps;
this module holds the step and plan values, finds a definition again after
earlier steps changed the bytes, and decides where each run of new
definitions goes: beside its restated neighbours, as §6 says.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kopipasta.code.edit import visibility
from kopipasta.code.find.definitions import Definition
from kopipasta.code.read.members import Member, text_of
from kopipasta.code.read.parsed import Parsed
from kopipasta.errors import PatchError, PayloadError
from kopipasta.syntax.languages import LanguageSpec


@dataclass(frozen=True)
class Ref:
    """A definition of the original file, found again after earlier steps changed the bytes."""

    qualified: str
    ordinal: int  # among the definitions sharing this qualified name, 1-based
    total: int

    @property
    def target(self) -> str:
        return f"{self.qualified}#{self.ordinal}" if self.total > 1 else self.qualified


@dataclass(frozen=True)
class Step:
    action: str  # "replace", "anchored", "after", "before", "append", "append_file"
    ref: Ref | None
    text: str
    names: tuple[str, ...]
    first_row: int = 0  # the text's first row in the payload, for messages
    key: str = ""  # field steps: the member's name in its container


@dataclass
class Plan:
    spec: LanguageSpec
    file: str
    label: str
    hint: str
    lines: list[str]
    payload: Parsed
    original: Parsed
    explicit: Definition | None  # the TARGET_NODE's own definition: replaced whole, as the directive says
    siblings_only: bool = False  # a TARGET_NODE payload beside its target: names are the target's siblings
    steps: list[Step] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)
    # The comments above the file's definitions the payload leaves out: (container, start, lines),
    # learnt once per plan by merge._left_out_comments.
    left_out_comments: list[tuple[tuple[str, ...], int, list[str]]] | None = None

    def fail(self, message: str, hint: str | None = None) -> PayloadError:
        return PayloadError(f"{self.label} in {self.file}: {message}", hint or self.hint)


def ref_of(definitions: list[Definition], definition: Definition) -> Ref:
    same = [d for d in definitions if d.qualified_name == definition.qualified_name]
    ordinal = next(i for i, d in enumerate(same, 1) if d.start == definition.start)
    return Ref(definition.qualified_name, ordinal, len(same))


def find_ref(definitions: list[Definition], ref: Ref, file: str) -> Definition:
    same = [d for d in definitions if d.qualified_name == ref.qualified]
    if len(same) != ref.total:
        raise PatchError(f"Internal error (lost track of {ref.target} in {file}) — this is a bug in kopipasta")
    return same[ref.ordinal - 1]


def plan_new(
    plan: Plan,
    original: Definition | None,
    original_members: list[Member],
    entries: list[tuple[str, int | Definition | None, Member]],
    definitions: list[Definition],
) -> None:
    """Where each run of new definitions goes: beside its restated neighbours (§6)."""
    i = 0
    while i < len(entries):
        if entries[i][0] != "new":
            i += 1
            continue
        j = i
        while j + 1 < len(entries) and entries[j + 1][0] == "new":
            j += 1
        run = [m for _, _, m in entries[i : j + 1]]
        names = tuple(m.definition.name if m.definition is not None else m.key for m in run)
        text = "\n".join(plan.lines[run[0].first_row : run[-1].last_row + 1])
        before = _neighbour(entries, i - 1, -1)
        after = _neighbour(entries, j + 1, 1)
        step = _placement(plan, original, original_members, definitions, before, after, text, names, run[0])
        plan.steps.append(_keep_visibility(plan, original, original_members, entries, i, step, run, definitions))
        i = j + 1


def _neighbour(
    entries: list[tuple[str, int | Definition | None, Member]], start: int, direction: int
) -> tuple[int | Definition | None, bool, bool]:
    """The nearest anchor in a direction: (its index in the original, a gap between, anything between)."""
    gap = False
    k = start
    while 0 <= k < len(entries):
        kind, index, _ = entries[k]
        if kind == "gap":
            gap = True
        elif kind == "anchor" and index is not None:
            return index, gap, True
        k += direction
    return None, gap, False


def _placement(
    plan: Plan,
    original: Definition | None,
    original_members: list[Member],
    definitions: list[Definition],
    before: tuple[int | Definition | None, bool, bool],
    after: tuple[int | Definition | None, bool, bool],
    text: str,
    names: tuple[str, ...],
    first: Member,
) -> Step:
    previous, following = before[0], after[0]
    where: tuple[str, int | Definition | None]
    if previous is not None:
        where = ("after", previous)
    elif following is not None:
        where = ("before", following)
    else:
        where = ("end", None)
    return _insertion(plan, original, original_members, definitions, where, text, names, first)


def _insertion(
    plan: Plan,
    original: Definition | None,
    original_members: list[Member],
    definitions: list[Definition],
    where: tuple[str, int | Definition | None],
    text: str,
    names: tuple[str, ...],
    first: Member,
) -> Step:
    kind, index = where
    if isinstance(index, Definition):
        return Step(kind, ref_of(definitions, index), text, names, first.first_row)
    if kind == "start":
        index = next((k for k, m in enumerate(original_members) if m.kind == "definition"), None)
        kind = "before" if index is not None else "end"
    if kind in ("after", "before") and index is not None and original_members[index].kind == "field" and original is not None:
        return Step(f"field_{kind}", ref_of(definitions, original), text, names, first.first_row, original_members[index].key)
    if kind == "after" and index is not None:
        member = original_members[index]
        if member.definition is None:
            # After a statement or the imports: before the definition that follows them.
            following = index + 1
            if following >= len(original_members):
                kind = "end"
            elif original_members[following].definition is not None:
                kind, index = "before", following
            else:
                raise plan.fail(
                    f"cannot tell where the new {', '.join(names)} goes (after line {member.first_row + 1} of the file)",
                    "send it with INSERT_AFTER or INSERT_BEFORE naming a definition",
                )
    if kind == "before" and index is not None and original_members[index].definition is None:
        preceding = index - 1
        if preceding >= 0 and original_members[preceding].definition is not None:
            kind, index = "after", preceding
        else:
            raise plan.fail(
                f"cannot tell where the new {', '.join(names)} goes",
                "send it with INSERT_AFTER or INSERT_BEFORE naming a definition",
            )
    if kind in ("after", "before") and index is not None:
        anchor = original_members[index].definition
        assert anchor is not None
        return Step(kind, ref_of(definitions, anchor), text, names, first.first_row)
    if original is None:
        return Step("append_file", None, text, names, first.first_row)
    return Step("append", ref_of(definitions, original), text, names, first.first_row)


def _keep_visibility(
    plan: Plan,
    original: Definition | None,
    original_members: list[Member],
    entries: list[tuple[str, int | Definition | None, Member]],
    first: int,
    step: Step,
    run: list[Member],
    definitions: list[Definition],
) -> Step:
    """The step, unless it would give the new members another visibility than the payload does.

    In Ruby and C++ a member's visibility is its section's (`visibility.py`): a new member
    placed at the end of a class whose last section is `private` becomes private. One the
    payload shows public then goes after the last public definition; where no such place is
    certain the block is refused.
    """
    spec = plan.spec
    if not visibility.has_sections(spec) or original is None or step.action not in ("after", "before", "append"):
        return step
    if not any(visibility.marker(spec, m) is not None for m in original_members):
        return step  # no sections: every place has the same visibility
    if all(visibility.own_visibility(spec, text_of(plan.lines, m)) for m in run):
        return step
    wanted = visibility.unmarked(spec)
    for kind, _, member in reversed(entries[:first]):
        if kind == "gap":
            return step  # elided code above it may hold a marker: its neighbours' place decides
        found = visibility.marker(spec, member)
        if found is not None:
            wanted = found
            break
    if step.action == "append":
        position = len(original_members)
    else:
        position = next(
            (k for k, m in enumerate(original_members) if m.definition is not None and step.ref == ref_of(definitions, m.definition)),
            -1,
        )
        if position < 0:
            return step
        position += step.action == "after"
    landing, marker_index = visibility.section_at(spec, original, original_members, position)
    if wanted == landing or (wanted is None and (step.action != "append" or landing == "public")):
        return step
    shown = wanted or "public"
    anchor = visibility.last_definition_in(spec, original, original_members, shown)
    if step.action == "append" and wanted is not None and anchor is not None:
        # Shown public at the class's end: the end of its public part, not below `private`.
        return Step("after", ref_of(definitions, anchor), step.text, step.names, step.first_row)
    names = ", ".join(step.names)
    under = (
        f"under `{original_members[marker_index].text}` (line {original_members[marker_index].first_row + 1} of the file)"
        if marker_index is not None
        else "before the first section label"
    )
    shows = f"the payload shows it {wanted}" if wanted is not None else "the payload does not say which section it belongs to"
    label = "`public:`" if spec.grammar == "cpp" else "`private`"
    hint = (
        f"send it with `INSERT_AFTER: {anchor.kind} {anchor.qualified_name}` (the last {shown} member)"
        if anchor is not None
        else "send it with INSERT_AFTER naming the member it follows"
    )
    if wanted is None:
        hint = f"write the section label above it in the payload ({label} as in the file), or {hint}"
    raise plan.fail(
        f"the new {names} at the payload's line {step.first_row + 1} would land {under} and become {landing}, but {shows}",
        hint,
    )
