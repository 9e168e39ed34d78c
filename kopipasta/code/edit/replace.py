"""Replace one resolved definition with a payload (PROTOCOL.md §4), imports merged (§4b).

The one implementation of TARGET_NODE's splice: `operations` calls it for a
directive, `merge` for every definition a fragment or an elided payload
restates, so both read a payload exactly the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.edit.splice import replace_definition
from kopipasta.code.find.definitions import Definition
from kopipasta.code.find.placement import check_landed, definitions_in
from kopipasta.code.imports.imports import (
    TextEdit,
    apply_edits,
    refuse_unmerged_imports,
    split_imports,
)
from kopipasta.errors import PayloadError
from kopipasta.syntax.check import check_syntax

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from kopipasta.code.find.document import Document


@dataclass(frozen=True)
class Replaced:
    """The file with the definition replaced (and the payload's imports merged), checked."""

    data: bytes
    tree: Tree
    note: str = ""


def replace_node(document: Document, definition: Definition, payload: str, *, file: str, label: str) -> Replaced:
    """`definition` replaced by `payload`, its leading imports merged into the file's; checked."""
    spec, data, tree, newline = document.code_spec, document.data, document.tree, document.newline
    refuse_unmerged_imports(spec, payload, f"TARGET_NODE {label}", file)  # PHP `use`: not spliced in
    imports, code = split_imports(spec, payload)
    if imports and not code.strip():
        raise PayloadError(
            f"TARGET_NODE {label} in {file} holds only import lines: there is no definition to replace",
            "send the definition below the imports it needs",
        )
    splice = replace_definition(document, definition, member_of_its_group(document, definition, code))
    merged = None
    if imports:
        from kopipasta.code.imports.import_merge import plan_imports

        merged = plan_imports(spec, data, tree, imports, newline, root=document.root)
    import_edits = merged.edits if merged else ()
    replaced = TextEdit(splice.start, splice.old_end, splice.text)
    new_data, change = apply_edits(data, [replaced, *import_edits])  # one reparse for both
    if new_data == data:
        return Replaced(data, tree)
    # Where the definition landed, after the imports added above it.
    shift = sum(len(e.text) - (e.end - e.start) for e in import_edits if e.end <= splice.start)
    start, end = splice.start + shift, splice.new_end + shift
    new_tree = check_syntax(spec, file, label, data, tree, new_data, change)
    landed = definitions_in(spec, new_tree, start, end, new_data)
    check_landed(
        landed,
        definition.container,
        label=label,
        file=file,
        what="it",
        hint=f"send only the {definition.kind} itself, or target `{{container}}` to replace all of it",
    )
    check_same_detail(definition, landed, file, label)
    notes = [rename_note(definition, landed), merged.note if merged else ""]
    return Replaced(new_data, new_tree, "; ".join(note for note in notes if note))


def member_of_its_group(document: Document, definition: Definition, code: str) -> str:
    """A grouped declaration's member sent as a declaration of its own, cut down to the member.

    `const maxBodyBytes = 4 << 20`, sent for `maxBodyBytes` in a Go `const ( … )`
    group, would put a second `const` inside the group: a syntax error, so the
    block failed although its meaning is certain. When the target stands in a
    parenthesised group (Go's `const`, `var` and `type` groups) and the payload
    is one top-level declaration of the same node type as the group's, with no
    parentheses of its own, holding one member of the target's node type with
    the target's name, that member's text replaces the target; the payload's
    comments above it stay. Any other payload is spliced as sent (and checked
    as ever).
    """
    target = document.tree.root_node.descendant_for_byte_range(definition.start, definition.end)
    if target is None or (target.start_byte, target.end_byte) != (definition.start, definition.end):
        return code
    holder, grouped = target, False
    while holder.parent is not None and holder.parent.parent is not None:  # up to the top-level declaration
        holder = holder.parent
        grouped = grouped or _parenthesised(holder)
    if not grouped or holder is target:
        return code  # the common case: the payload is not parsed here
    from kopipasta.code.layout.render import parse_payload

    data = code.encode("utf-8")
    declarations = [child for child in parse_payload(document.code_spec, data).root_node.named_children if child.type != "comment"]
    if len(declarations) != 1 or declarations[0].type != holder.type or declarations[0].has_error:
        return code
    declaration = declarations[0]
    # The member stands in the declaration, or in its list (a Go `var_spec_list`) when parenthesised.
    inner = [declaration, *declaration.named_children]
    if any(_parenthesised(node) for node in inner):
        return code
    members = [child for node in inner for child in node.named_children if child.type == target.type]
    from kopipasta.code.read.fields import field_key

    if len(members) != 1 or field_key(members[0]) != definition.name:
        return code
    member = members[0]
    return (data[: declaration.start_byte] + data[member.start_byte : member.end_byte] + data[declaration.end_byte :]).decode("utf-8")


def _parenthesised(node: Node) -> bool:
    return any(child.type == "(" for child in node.children)


def rename_note(old: Definition, landed: list[Definition]) -> str:
    """Say so when the payload renamed what it replaced (PROTOCOL.md §7)."""
    same_scope = [d for d in landed if d.scope == old.scope]
    if not same_scope or any(d.name == old.name for d in same_scope):
        return ""
    return f"renamed '{old.qualified_name}' to '{same_scope[0].qualified_name}'"


def check_same_detail(old: Definition, landed: list[Definition], file: str, label: str) -> None:
    """A payload for `impl Tokenizer` that is `impl Iterator for Tokenizer` is another block: it fails."""
    for new in landed:
        if new.container == old.container and new.name == old.name and new.kind == old.kind and new.detail != old.detail:
            what = f"{old.kind} {new.detail + ' for ' if new.detail else ''}{new.name}"
            raise PayloadError(
                f"Payload for {label} in {file} is `{what}`, another {old.kind} than the one targeted",
                f"target that one: `kopipasta nodes {file}` lists each {old.kind} with the name that picks it",
            )
