"""Fragments, merged definition by definition (PROTOCOL.md §6).

A payload that is not the whole file and holds no placeholder — "here is the
updated function", a class restated with only the members that changed, the
whole file sent under a TARGET_NODE — is read as members of a container (§6).
A payload with a placeholder never comes here: it is read line by line
(`line_merge.py`, issue 24). Each definition it
restates replaces its namesake exactly as TARGET_NODE would (`replace.py`),
each definition it adds goes beside its restated neighbours (`insert.py`),
its imports merge into the file's (§4b), and everything it does not mention
stays byte for byte. Where the mapping is not certain, the block fails and
says which directive to add; nothing is ever guessed.

The merge is planned on the original file first (which definition each
member maps to, where each new one goes), then carried out one step at a
time, each step resolving its definition afresh in the result of the ones
before, with the usual check after each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kopipasta.code.edit.replace import replace_node
from kopipasta.code.find.comments import comment_block_start
from kopipasta.code.find.definitions import MARKUP_KINDS, Definition
from kopipasta.code.find.resolve import NEW_OVERLOAD_HINT, Target, resolve_with_payload
from kopipasta.code.imports.import_merge import plan_imports
from kopipasta.code.imports.imports import apply_edits
from kopipasta.code.read.members import (
    CONTAINER_KINDS,
    Member,
    comments_left_out,
    members,
    squash,
    statements_left_out,
    text_of,
)
from kopipasta.code.read.parsed import (
    EXTENDING_KINDS,
    Parsed,
    another_definition,
    only_its_target,
    read_as_members,
    read_file,
    read_payload,
    read_target_payload,
    structural,
    top_level_definitions,
)
from kopipasta.errors import AmbiguousTarget, PatchError, TargetNotFound, counted
from kopipasta.model import Operation
from kopipasta.syntax.check import check_syntax

if TYPE_CHECKING:
    from tree_sitter import Tree

    from kopipasta.code.edit.mergeplan import Plan
    from kopipasta.code.find.document import Document

# The planning and stepping modules (mergeplan, insert, fields) are imported where a
# merge really happens: a plain TARGET_NODE payload only passes through merge_targeted's first
# test, and should not pay for them at start-up (issue 9).


@dataclass
class Merged:
    data: bytes
    tree: Tree
    replaced: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    import_note: str = ""
    reading: str = ""  # "inferred fragment", "merged elision", "read by definition"

    def note(self) -> str:
        parts: list[str] = []
        if self.replaced:
            parts.append("replaced " + ", ".join(self.replaced))
        if self.added:
            parts.append("added " + ", ".join(self.added))
        if self.import_note:
            parts.append(self.import_note)
        return "; ".join(parts)


# --- planning -------------------------------------------------------------------------


def _namesakes(plan: Plan, scope: tuple[str, ...], any_depth: bool, payload_members: list[Member]) -> dict[int, Definition | None]:
    """Each payload definition's original, by index in `payload_members`; None for a new one.

    In a container a member's namesake is the member of
    the same name directly in the original container; at the top of a
    fragment it is found the way TARGET_NODE finds a name, at any depth. A
    name the original defines several times maps only when the payload
    restates it as many times: then in order.
    """
    originals = structural(plan.original.definitions)
    result: dict[int, Definition | None] = {}
    by_name: dict[tuple[str, str], list[int]] = {}
    for index, member in enumerate(payload_members):
        if member.kind == "definition" and member.definition is not None:
            # Qualifiers a definition writes itself (a Go receiver, C++ `Class::`) are part of its name.
            # A Rust `impl Config` (a Swift `extension`) beside `struct Config` is a definition of its own.
            extends = member.definition.kind if member.definition.kind in EXTENDING_KINDS else ""
            by_name.setdefault((_own_name(member.definition), extends), []).append(index)
    for (qualified, _), indices in by_name.items():
        name = qualified.rsplit(".", 1)[-1]
        kind = payload_members[indices[0]].definition.kind  # type: ignore[union-attr]
        same_scope = [d for d in originals if d.container == scope and _own_name(d) == qualified]
        everywhere = plan.original.definitions  # TARGET_NODE finds a name at any depth, a hook's handler too
        if not same_scope and any_depth and any(
            d.qualified_name == qualified or d.qualified_name.endswith("." + qualified) for d in everywhere
        ):
            try:
                # A property and its setter share a name: the payload's shape may settle it (§4).
                text = text_of(plan.lines, payload_members[indices[0]]) if len(indices) == 1 else ""
                same_scope = [
                    resolve_with_payload(
                        _target(kind, qualified), everywhere, plan.file, plan.original.data, text,
                        overloads=plan.spec.has_overloads,  # as TARGET_NODE picks an overload by its parameters
                    )[0]
                ]
            except AmbiguousTarget as error:
                raise plan.fail(
                    f"'{name}' is defined more than once, so which one the fragment replaces is not certain "
                    f"({error.message.split(': ', 1)[-1]})",
                    _qualified_hint(error.hint, name),
                ) from None
            except TargetNotFound as error:
                raise plan.fail(error.message, error.hint) from None
        if not same_scope and not scope and any(_indented_member(plan, payload_members[i]) for i in indices):
            same_scope = _member_namesakes(plan, originals, qualified, name)
        if not same_scope:
            for index in indices:
                result[index] = None
            continue
        fitting = [d for d in same_scope if d.fits(kind) or kind in ("function", "method") and d.kind in ("function", "method")]
        if not fitting:
            found = same_scope[0]
            raise plan.fail(
                f"the payload's {kind} '{name}' is a {found.kind} in the file (line {found.line})",
                f"add `TARGET_NODE: {found.kind} {found.qualified_name}` to the block",
            )
        details = {payload_members[i].definition.detail for i in indices}  # type: ignore[union-attr]
        if len(details) == 1 and any(d.detail for d in fitting):
            # A Rust impl is told from the type's other impls by its trait (`@detail`): an
            # inherent `impl Tokenizer` restates the inherent one, `impl Display for Token`
            # only a Display impl; none of that trait in the file makes it a new impl.
            fitting = [d for d in fitting if d.detail in details]
            if not fitting:
                for index in indices:
                    result[index] = None
                continue
        if len(fitting) != len(indices) and len(indices) == 1 and len({d.qualified_name for d in fitting}) == 1:
            from kopipasta.code.find.shape import pick_by_shape

            text = text_of(plan.lines, payload_members[indices[0]])
            picked = pick_by_shape(fitting, plan.original.data, text)
            if picked is None and plan.spec.has_overloads:
                from kopipasta.code.find.overloads import pick_by_parameters

                picked = pick_by_parameters(fitting, plan.original.data, text)
            if picked is not None:
                fitting = [picked[0]]
        if len(fitting) != len(indices):
            lines = ", ".join(str(d.line) for d in fitting)
            qualified = fitting[0].qualified_name
            if len(fitting) == 1:
                raise plan.fail(
                    f"'{qualified}' is defined once (line {lines}) and the payload restates it "
                    f"{counted(len(indices), 'time')}, so which restatement replaces it is not certain",
                    f"send '{qualified}' once",
                )
            raise plan.fail(
                f"'{qualified}' is defined {len(fitting)} times (lines {lines}) and the payload "
                f"restates it {counted(len(indices), 'time')}, so which one it replaces is not certain",
                f"add `TARGET_NODE: {qualified}#N` to the block (N from 1 to {len(fitting)})",
            )
        for index, original in zip(indices, fitting, strict=True):
            result[index] = original
    return result


def _indented_member(plan: Plan, member: Member) -> bool:
    """Whether a definition at the payload's top level is a member: indented past the payload's margin.

    Cursor writes `// ... existing code ...` at column 0 around a method at its class's
    indentation: the indentation says it is a member, not a new top-level definition.
    """
    if member.definition is None:
        return False
    if plan.payload.wrapped:
        return True  # it parses only inside a class: a member whatever its indentation
    row = plan.payload.row(member.definition.start)
    if not 0 <= row < len(plan.lines):
        return False
    margin = min((_indent_of(line) for line in plan.lines if line.strip()), default=0)
    return _indent_of(plan.lines[row]) > margin


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _member_namesakes(plan: Plan, originals: list[Definition], qualified: str, name: str) -> list[Definition]:
    """An indented member is the member of that name of the one container that defines it."""
    found = [d for d in originals if d.container and _own_name(d) == qualified]
    containers = {".".join(d.container) for d in found}
    if len(containers) > 1:
        lines = ", ".join(str(d.line) for d in found)
        raise plan.fail(
            f"the payload indents '{name}' as a member, and {len(containers)} definitions of the file hold one "
            f"(lines {lines}), so which one it restates is not certain",
            f"add `TARGET_NODE: {found[0].qualified_name}` to the block (or the one you mean)",
        )
    return found


def _target(kind: str, qualified: str) -> Target:
    """The target that names a payload's definition in the file: dotted, or a selector as it stands."""
    if kind in MARKUP_KINDS:
        return Target(kind, (qualified,), None, markup=True)
    return Target(kind, tuple(qualified.split(".")), None)


def _own_name(definition: Definition) -> str:
    """The definition's name with the qualifiers it writes itself: `Server.ServeHTTP` for a Go method."""
    return ".".join((*definition.scope[len(definition.container) :], definition.name))


def _headers_differ(plan: Plan, restated: Definition, original: Definition) -> bool:
    """Whether the payload changes the container's own header line (or the attributes it restates)."""
    # Decorators, attributes and `export` count only when the payload restates them: not restated, kept.
    outer = restated.outer_start < restated.start
    return _container_header(plan.payload, restated, outer) != _container_header(plan.original, original, outer)


def _container_header(parsed: Parsed, definition: Definition, outer: bool = False) -> str:
    from kopipasta.code.read.members import container_body, container_nodes

    nodes = container_nodes(parsed, definition)
    body_start = nodes[0].start_byte if nodes else definition.end
    # The body as the grammar has it: a `body` field, or a body type without one (Kotlin's
    # class_body, a Go struct's field list): otherwise the "header" runs to the class's end.
    body = container_body(parsed.spec, parsed.tree, definition)
    if body is not None and definition.start <= body.start_byte <= definition.end:
        body_start = body.start_byte
        # Ruby: a comment above the body's first member is a child of the class/module, not
        # of its body (docs/decisions/code.md); it is a member's comment, not the header's.
        container = body.parent
        if container is not None:
            comment = next(
                (
                    c
                    for c in container.children
                    if c.type in parsed.spec.comment_types
                    and c.start_point[0] > container.start_point[0]
                    and c.end_byte <= body.start_byte
                ),
                None,
            )
            if comment is not None:
                body_start = comment.start_byte
    start = definition.outer_start if outer else definition.start
    return squash(parsed.data[start:body_start].decode("utf-8", "replace"))


def _restates_all_members(plan: Plan, original: Definition, restated: Definition) -> bool:
    scope = (*original.scope, original.name)
    pscope = (*restated.scope, restated.name)
    # Only what stands inside the body: a Rust `impl Token` beside `enum Token` is not the enum's.
    have = {
        _own_name(d)
        for d in structural(plan.original.definitions)
        if d.container == scope and original.start <= d.start < original.end
    }
    sent = {
        _own_name(d) for d in plan.payload.definitions if d.container == pscope and restated.start <= d.start < restated.end
    }
    # Interface properties and enum members count too: `interface P { caption?: string }` sent for
    # a five-property interface adds one, it does not delete four.
    have |= {m.key for m in members(plan.original, original) or [] if m.kind == "field"}
    sent |= {m.key for m in members(plan.payload, restated) or [] if m.kind == "field"}
    # A class sent without its statements (`belongs_to`, `validates`) around the one method that
    # changed is a skeleton, merged member by member (issue 19).
    # So is one whose member comes without the comment the original has above it (issue 19).
    return (
        have <= sent
        and not statements_left_out(plan.original, original, plan.payload, restated)
        and not comments_left_out(plan.original, original, plan.payload, restated)
        and _nested_restate_all(plan, original, restated, scope, pscope)
    )


def _nested_restate_all(plan: Plan, original: Definition, restated: Definition, scope: tuple[str, ...], pscope: tuple[str, ...]) -> bool:
    """Every container nested in the restated one restates all of its own members too (issue 25).

    Ruby's `class Thor; module Shell; class Basic; def say …` restates `Thor`'s one
    member `Shell`, and `Shell`'s one member `Basic`, but only one method of `Basic`:
    it is a skeleton of the nesting, merged member by member, not `Thor` written anew.
    """
    for inner in plan.payload.definitions:
        if inner.kind not in CONTAINER_KINDS or inner.container != pscope or not restated.start <= inner.start < restated.end:
            continue
        namesake = next(
            (
                d
                for d in structural(plan.original.definitions)
                if d.container == scope and _own_name(d) == _own_name(inner) and original.start <= d.start < original.end
            ),
            None,
        )
        if namesake is not None and namesake.kind in CONTAINER_KINDS and not _restates_all_members(plan, namesake, inner):
            return False
    return True


def _plan_container(plan: Plan, original: Definition | None, restated: Definition | None) -> None:
    """Map the payload container's members onto the original's and queue the steps."""
    from kopipasta.code.edit.mergeplan import Step, plan_new, ref_of

    payload_members = members(plan.payload, restated)
    original_members = members(plan.original, original)
    what = "the file" if original is None else f"{original.kind} {original.qualified_name}"
    if payload_members is None or original_members is None:
        raise plan.fail(f"cannot read the members of {what}")
    scope = () if original is None else (*original.scope, original.name)
    any_depth = original is None and not plan.siblings_only
    namesakes = _namesakes(plan, scope, any_depth, payload_members)
    all_definitions = plan.original.definitions

    # Each payload member as an anchor in the original (its index there), a gap, or new.
    position = {id(m.definition): i for i, m in enumerate(original_members) if m.definition is not None}
    statements = {m.text: i for i, m in enumerate(original_members) if m.kind == "statement"}
    last_import = max((i for i, m in enumerate(original_members) if m.kind == "import"), default=None)
    entries: list[tuple[str, int | Definition | None, Member]] = []  # ("anchor", index) | ("gap", None) | ("new", None) | ("skip", None)
    for index, member in enumerate(payload_members):
        if member.kind == "placeholder":
            entries.append(("gap", None, member))
        elif member.kind == "import":
            if restated is not None:
                raise plan.fail(f"the payload's line {member.first_row + 1} is an import inside {what}")
            plan.imports.append(text_of(plan.lines, member))
            entries.append(("skip", last_import, member))
        elif member.kind == "field":
            same = [i for i, m in enumerate(original_members) if m.kind == "field" and m.key == member.key]
            if not same:
                entries.append(("new", None, member))
                continue
            if len(same) > 1:
                raise plan.fail(f"'{member.key}' is in {what} {len(same)} times, so which one the payload restates is not certain")
            if original_members[same[0]].text != member.text:
                assert original is not None
                plan.steps.append(
                    Step("field_replace", ref_of(all_definitions, original), text_of(plan.lines, member), (member.key,), member.first_row, member.key)
                )
            entries.append(("anchor", same[0], member))
        elif member.kind == "statement":
            if member.text not in statements:
                shown = member.text if len(member.text) <= 60 else member.text[:57] + "..."
                raise plan.fail(
                    f"the payload's line {member.first_row + 1} (`{shown}`) is code that {what} does not have, "
                    "so the payload is neither the whole file nor only definitions",
                    plan.hint,
                )
            entries.append(("anchor", statements[member.text], member))
        else:
            found = namesakes[index]
            if found is None:
                entries.append(("new", None, member))
                continue
            assert member.definition is not None
            anchor = position.get(id(found))
            # A namesake found deeper (a method sent at column 0) anchors by itself.
            entries.append(("anchor", anchor if anchor is not None else found, member))
            _plan_definition(plan, found, member)

    if original is None and not any(m.kind == "definition" for m in payload_members):
        raise plan.fail(
            "the payload holds no definition, so it is neither the whole file nor a change to one",
            "send the definitions that change, or the whole file",
        )
    if any(kind == "new" for kind, _, _ in entries) and not any(kind == "anchor" and member.kind == "definition" for kind, _, member in entries) and original is None:
        names = ", ".join(
            f"{m.definition.kind} {m.definition.detail} for {m.definition.name}" if m.definition.detail else m.definition.name
            for k, _, m in entries
            if k == "new" and m.definition
        )
        raise plan.fail(
            f"nothing in the payload is defined in the file ({names}), so it is neither the whole file nor a change to it",
            "to add definitions use `APPEND_TO: file` or INSERT_AFTER; to replace the file, send all of it",
        )
    plan_new(plan, original, original_members, entries, all_definitions)


def _qualified_hint(resolver_hint: str, name: str) -> str:
    """The resolver's "qualify it as 'A.f' or 'B.f'" as the directive a fragment's block needs."""
    choice, found, new_overload = resolver_hint.partition(NEW_OVERLOAD_HINT)
    names = choice.split("'")[1::2] or [name]
    hint = "add " + " or ".join(f"`TARGET_NODE: {qualified}`" for qualified in names) + " to the block"
    return hint + found + new_overload


def _plan_definition(plan: Plan, found: Definition, member: Member) -> None:
    from kopipasta.code.edit.mergeplan import Step, ref_of

    assert member.definition is not None
    ref = ref_of(plan.original.definitions, found)
    name = found.qualified_name
    text = text_of(plan.lines, member)
    is_container = found.kind in CONTAINER_KINDS
    explicit = plan.explicit is not None and found.start == plan.explicit.start
    if is_container and not explicit and not _restates_all_members(plan, found, member.definition):
        # A class sent with only the members that changed: the others stay (a block never deletes
        # what it does not mention).
        if _headers_differ(plan, member.definition, found):
            raise plan.fail(
                f"{found.kind} {name} is sent with only some of its members and a changed header line",
                f"send the complete {found.kind} with `TARGET_NODE: {found.kind} {name}`",
            )
        _plan_container(plan, found, member.definition)
        return
    text = _without_left_out_comments(plan, found, text)
    plan.steps.append(Step("replace", ref, text, (name,), member.first_row))


def _without_left_out_comments(plan: Plan, found: Definition, text: str) -> str:
    """The restated definition's text without the comment of a definition the block leaves out.

    A "complete file" that leaves a definition out but keeps the comment above it puts that
    comment right above the next definition, where it reads as the next one's. The left-out
    definition stays, its comment with it; written again above the next, the same lines would
    stand twice (every line a block carries lands once, in its place).
    """
    lines = text.split("\n")
    own = _comment_lines(plan.original, found) or []
    for container, start, comment in _left_out_comments(plan):
        if container != found.container or start == found.start:
            continue
        if lines[: len(comment)] == comment and own[: len(comment)] != comment and len(lines) > len(comment):
            return "\n".join(lines[len(comment) :])
    return text


def _left_out_comments(plan: Plan) -> list[tuple[tuple[str, ...], int, list[str]]]:
    """Each left-out definition's comment lines, learnt once per plan (not once per restated definition)."""
    if plan.left_out_comments is None:
        restated = {d.qualified_name for d in plan.payload.definitions}
        found = []
        for other in plan.original.definitions:
            if other.qualified_name not in restated:
                comment = _comment_lines(plan.original, other)
                if comment:
                    found.append((other.container, other.start, comment))
        plan.left_out_comments = found
    return plan.left_out_comments


def _comment_lines(parsed: Parsed, definition: Definition) -> list[str] | None:
    """The lines of the comment block directly above a definition of the file, if any."""
    start = comment_block_start(parsed.tree, parsed.data, definition.outer_start)
    if start is None:
        return None
    first = parsed.data.rfind(b"\n", 0, start) + 1
    end = parsed.data.rfind(b"\n", 0, definition.outer_start) + 1
    return parsed.data[first:end].decode("utf-8", "replace").split("\n")[:-1]


# --- carrying out ---------------------------------------------------------------------


def _run(plan: Plan, document: Document) -> Merged:
    """The plan's steps carried out one by one, each on the document the steps before left."""
    from kopipasta.code.edit import insert
    from kopipasta.code.edit.mergeplan import find_ref
    from kopipasta.code.read import fields

    spec, file = plan.spec, plan.file
    merged = Merged(document.data, document.tree)
    if plan.imports:
        data, tree = document.data, document.tree
        imports = plan_imports(spec, data, tree, plan.imports, document.newline, root=document.root)
        new_data, change = apply_edits(data, list(imports.edits))
        if new_data != data:
            document = document.after(new_data, check_syntax(spec, file, plan.label, data, tree, new_data, change))
        merged.import_note = imports.note
    for step in plan.steps:
        data = document.data
        if step.action == "replace":
            assert step.ref is not None
            target = find_ref(document.definitions, step.ref, file)
            text = step.text
            result = replace_node(document, target, text, file=file, label=plan.label)
            if result.data != data:
                merged.replaced.append(step.names[0])
            document = document.after(result.data, result.tree)
            continue
        if step.action.startswith("field_"):
            assert step.ref is not None
            container = find_ref(document.definitions, step.ref, file)
            new_data, tree = fields.apply_field_step(
                document, container, step.key, step.text, step.action.removeprefix("field_"), file=file, label=plan.label
            )
            document = document.after(new_data, tree)
            if new_data != data:
                name = f"{step.ref.qualified}.{', '.join(step.names)}"
                if step.action == "field_replace":
                    merged.replaced.append(name)
                else:
                    merged.added.append(f"{name} ({step.action.removeprefix('field_')} {step.ref.qualified}.{step.key})")
            continue
        operation = {
            "after": Operation.INSERT_AFTER,
            "before": Operation.INSERT_BEFORE,
            "append": Operation.APPEND_TO,
            "append_file": Operation.APPEND_TO,
        }[step.action]
        target_text = insert.APPEND_TO_FILE if step.ref is None else step.ref.target
        result_insert = insert.insert(document, operation, target_text, step.text, file=file)
        if result_insert.data != data:
            where = {"after": "after", "before": "before", "append": "at the end of", "append_file": "at the end of"}[step.action]
            anchor = "the file" if step.ref is None else step.ref.qualified
            merged.added.append(f"{', '.join(step.names)} ({where} {anchor})")
        document = document.after(result_insert.data, result_insert.tree)
    merged.data, merged.tree = document.data, document.tree
    return merged


# --- entry points ---------------------------------------------------------------------


def merge_file_block(document: Document, payload: str, *, file: str) -> Merged:
    """A file block that is a fragment (no placeholder: those are read line by line) merged into the file."""
    from kopipasta.code.edit.mergeplan import Plan

    spec, data = document.code_spec, document.data
    label = "Fragment"
    hint = "add `TARGET_NODE: <name>` for one definition, or send the complete file"
    reading = "inferred fragment"
    try:
        parsed = read_payload(spec, payload, data)
        # Members sent without their class (`// ... existing code ...` around an indented method
        # in Cursor's answers too) are read as the members they are (issue 19).
        parsed = _members_reading(document, payload, parsed) or parsed
        plan = Plan(spec, file, label, hint, payload.split("\n"), parsed, read_file(document), None)
        _check_parses(plan)
        _plan_container(plan, None, None)
        merged = _run(plan, document)
    except PatchError as error:
        error.reading = error.reading or reading  # a failed fragment is logged as a fragment (issue 21)
        raise
    merged.reading = reading
    return merged


def _members_reading(document: Document, payload: str, parsed: Parsed) -> Parsed | None:
    """A fragment of class members that also parses at the top level as statements, read as the members.

    `handleError = (error) => { const message = …; throw error; };` is an assignment
    statement at a TypeScript file's top level, and a class field holding a method
    inside a class. Its local `const` is a definition, so `read_payload`'s own retry
    (nothing defined at all) does not take it. It is read inside the class wrapper
    only where that is certain: the top-level reading defines nothing at its top
    level, and the file has every member the wrapped reading defines as a member of
    a class, and nothing of that name at its top level. Otherwise the fragment is
    read as it stands (and fails as code the file does not have).
    """
    spec = document.code_spec
    if parsed.wrapped or not spec.payload_wrappers or top_level_definitions(parsed):
        return None
    members_read = read_as_members(spec, payload, document.data)
    if members_read is None:
        return None
    sent = [d for d in members_read.definitions if not d.scope]
    if not sent:
        return None
    in_file = document.definitions
    top_level = {d.name for d in in_file if not d.container}
    member_names = {d.name for d in in_file if d.container}
    if any(d.name in top_level or d.name not in member_names for d in sent):
        return None
    return members_read


def merge_targeted(
    document: Document, payload: str, target: Definition, *, file: str, label: str, parsed: Parsed | None = None
) -> Merged | None:
    """A TARGET_NODE payload that restates more than its target; None: a plain replacement.

    Plain means: one definition (with new ones beside it, none the file has).
    Otherwise the payload is read as §6 reads a file block, its target
    replaced as the directive says. A payload with a placeholder never comes
    here: `operations` has it read line by line (`line_merge.py`, issue 24).
    `parsed`: the payload as `read_target_payload` read it, when the caller has it.
    """
    spec = document.code_spec
    if parsed is None:
        parsed = read_target_payload(document, payload, target)
    assert not parsed.placeholders, "a payload with placeholders is read line by line"
    if only_its_target(parsed, target):
        return None  # the common case, told without listing the whole file's definitions
    top = [d for d in structural(parsed.definitions) if not d.container]
    originals = structural(document.definitions)
    # With the target at its own top level, the payload stands where the target does: only the
    # target's siblings can be restated. Without it, the payload is a larger piece (the whole
    # file, the class around the target): any definition of the file can be.
    beside_target = any(not another_definition(d, target) for d in top)
    restates_others = any(
        another_definition(d, target)
        and any(
            o.name == d.name and (not beside_target or o.container == target.container)
            for o in originals
            if o.start != target.start
        )
        for d in top
    )
    if not restates_others:
        return None
    from kopipasta.code.edit.mergeplan import Plan

    plan = Plan(
        spec,
        file,
        f"TARGET_NODE {label}",
        f"send only the {target.kind} itself, complete, or one block per definition",
        payload.split("\n"),
        parsed,
        read_file(document),
        target,
    )
    _check_parses(plan)
    # A payload that restates its target at its own top level stands where the target does:
    # its other definitions are the target's siblings. Otherwise it is a larger piece (the
    # whole file, the class around the target), read from the module down.
    container = None
    plan.siblings_only = beside_target
    if beside_target and target.scope:
        container = next(
            (d for d in originals if d.qualified_name == ".".join(target.scope) and d.start <= target.start < d.end),
            None,
        )
    _plan_container(plan, container, None)
    merged = _run(plan, document)
    merged.reading = "read by definition"
    return merged


def _check_parses(plan: Plan) -> None:
    if plan.payload.has_error:
        from kopipasta.syntax.languages import first_error

        error = first_error(plan.payload.tree.root_node)
        row = (error.start_point[0] - plan.payload.offset + 1) if error is not None else 1
        raise plan.fail(
            f"the payload does not parse (line {max(row, 1)}), so which definitions it restates is not certain",
            plan.hint,
        )
