"""One patch applied to one file in memory: resolve, render, splice, check.

Each operation takes the file as it stands after the blocks before it and
returns the new data, or raises a PatchError. Nothing here writes to disk.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kopipasta import data as data_formats
from kopipasta import hints, insert, wholefile
from kopipasta.check import check_syntax
from kopipasta.definitions import Definition, list_definitions
from kopipasta.errors import PayloadError, TargetNotFound, UnsupportedFile
from kopipasta.imports import TextEdit, apply_edits, plan_imports, split_imports
from kopipasta.languages import LANGUAGES, LanguageSpec, language_for_path, parse
from kopipasta.model import Operation, Patch
from kopipasta.placement import check_landed, definitions_in
from kopipasta.resolve import Target, parse_target, resolve_with_payload
from kopipasta.splice import replace_definition
from kopipasta.workspace import Source

if TYPE_CHECKING:
    from tree_sitter import Tree


@dataclass
class Document:
    """A file being patched, with its parse tree kept while the data does not change."""

    source: Source
    spec: LanguageSpec | None
    _tree: Tree | None = field(default=None, repr=False)

    @property
    def tree(self) -> Tree:
        assert self.spec is not None
        if self._tree is None:
            self._tree = parse(self.spec, self.source.data)
        return self._tree

    def update(self, data: bytes, tree: Tree | None) -> None:
        self.source = self.source.with_data(data)
        self._tree = tree


@dataclass(frozen=True)
class Edit:
    data: bytes
    tree: Tree | None  # the new data's tree, when the check parsed it
    note: str = ""  # said in the report beside `applied` (a rename, a created file)


def open_document(source: Source) -> Document:
    return Document(source, language_for_path(source.path))


def apply_patch(patch: Patch, document: Document) -> Edit:
    if patch.operation is Operation.WHOLE_FILE:
        return _whole_file(patch, document)
    if not document.source.exists:
        raise TargetNotFound(
            f"Cannot apply {patch.operation.name} to {patch.file}: the file does not exist",
            "to create it, send the whole file with FILE and no target",
        )
    if patch.operation is Operation.SET_PATH:
        return _set_path(patch, document)
    if patch.operation is Operation.REPLACE_NODE:
        return _replace_node(patch, document)
    return _add_or_delete(patch, document)


def _code_document(patch: Patch, document: Document) -> LanguageSpec:
    if document.spec is None and data_formats.format_of(patch.file) is not None:
        key = "TARGET_NODE" if patch.operation is Operation.REPLACE_NODE else patch.operation.name
        message, hint = hints.target_node_on_data(patch.file, f"{key} {patch.target}", document.source.data)
        raise UnsupportedFile(message, hint)
    if document.spec is None:
        supported = ", ".join(ext for spec in LANGUAGES for ext in spec.extensions)
        key = "TARGET_NODE" if patch.operation is Operation.REPLACE_NODE else patch.operation.name
        raise UnsupportedFile(
            f"{key} {patch.target} in {patch.file}: no grammar for this file type (supported: {supported})",
            "send the whole file instead (FILE and no target)",
        )
    return document.spec


def _replace_node(patch: Patch, document: Document) -> Edit:
    spec = _code_document(patch, document)
    assert patch.target is not None
    target = parse_target(patch.target, patch.file)
    data = document.source.data
    tree = document.tree
    definitions = list_definitions(spec, tree)
    definition, picked_note = resolve_with_payload(target, definitions, patch.file, data, patch.payload)
    _check_not_elided(spec, patch, target, data[definition.outer_start : definition.end])
    # Import lines above the definition are merged into the file's imports (PROTOCOL.md §4b).
    imports, payload = split_imports(spec, patch.payload)
    if imports and not payload.strip():
        raise PayloadError(
            f"TARGET_NODE {target} in {patch.file} holds only import lines: there is no definition to replace",
            "send the definition below the imports it needs",
        )
    splice = replace_definition(spec, tree, data, definition, payload, document.source.newline)
    merged = plan_imports(spec, data, tree, imports, document.source.newline) if imports else None
    import_edits = merged.edits if merged else ()
    replaced = TextEdit(splice.start, splice.old_end, splice.data[splice.start : splice.new_end])
    new_data, change = apply_edits(data, [replaced, *import_edits])  # one reparse for both
    if new_data == data:
        return Edit(data, tree)
    # Where the definition landed, after the imports added above it.
    shift = sum(len(e.text) - (e.end - e.start) for e in import_edits if e.end <= splice.start)
    start, end = splice.start + shift, splice.new_end + shift
    new_tree = check_syntax(spec, patch.file, str(target), data, tree, new_data, change)
    landed = definitions_in(spec, new_tree, start, end)
    check_landed(
        landed,
        definition.scope,
        label=str(target),
        file=patch.file,
        what="it",
        hint=f"send only the {definition.kind} itself, or target `{{container}}` to replace all of it",
    )
    notes = [picked_note, _rename_note(definition, landed), merged.note if merged else ""]
    return Edit(new_data, new_tree, "; ".join(note for note in notes if note))


def _add_or_delete(patch: Patch, document: Document) -> Edit:
    """INSERT_AFTER, INSERT_BEFORE, APPEND_TO and DELETE_NODE (PROTOCOL.md §4a), in insert.py."""
    spec = _code_document(patch, document)
    assert patch.target is not None
    source = document.source
    if patch.operation is Operation.DELETE_NODE:
        result = insert.delete(spec, patch.target, file=patch.file, data=source.data, tree=document.tree)
    else:
        result = insert.insert(
            spec,
            patch.operation,
            patch.target,
            patch.payload,
            file=patch.file,
            data=source.data,
            tree=document.tree,
            newline=source.newline,
        )
    return Edit(result.data, result.tree, result.note)


def _check_not_elided(spec: LanguageSpec, patch: Patch, target: Target, original: bytes) -> None:
    """A class payload with `# ... existing methods ...` would delete those methods (PROTOCOL.md §6).

    The same placeholders that fail a whole-file block fail a definition; a line
    the definition already holds (a `# ...` comment of its own) is not one.
    """
    found = wholefile.find_placeholder(patch.payload, python=spec.grammar == "python")
    if found is None:
        return
    number, text = found
    if text in {line.strip() for line in original.decode("utf-8", "replace").splitlines()}:
        return
    raise PayloadError(
        f"TARGET_NODE {target} in {patch.file} elides code at the payload's line {number} ({text}): "
        "replacing the definition would delete what it leaves out",
        "send the complete definition, or target just the inner definition that changes",
    )


def _rename_note(old: Definition, landed: list[Definition]) -> str:
    """Say so when the payload renamed what it replaced (PROTOCOL.md §7)."""
    same_scope = [d for d in landed if d.scope == old.scope]
    if not same_scope or any(d.name == old.name for d in same_scope):
        return ""
    return f"renamed '{old.qualified_name}' to '{same_scope[0].qualified_name}'"


def _set_path(patch: Patch, document: Document) -> Edit:
    assert patch.target is not None
    if data_formats.format_of(patch.file) is None:
        raise UnsupportedFile(
            f"TARGET_PATH {patch.target} in {patch.file}: data paths work in JSON, YAML and TOML files only",
            "send the whole file instead (FILE and no target)",
        )
    text = document.source.data.decode("utf-8")
    # The value is written in the file's own newline style, whatever the payload's.
    new_text = data_formats.set_value(text, patch.target, patch.payload, file=patch.file)
    return Edit(new_text.encode("utf-8"), None)


def _whole_file(patch: Patch, document: Document) -> Edit:
    source = document.source
    python = document.spec is not None and document.spec.grammar == "python"
    wholefile.check_not_diff(patch.payload, file=patch.file, info=patch.block.info)
    if source.exists:
        if not patch.payload.strip() and source.data.strip():
            raise PayloadError(
                f"Whole-file block for {patch.file} is empty: it would erase the file",
                "to change part of it use TARGET_NODE; delete files yourself",
            )
        wholefile.check_complete(patch.payload, file=patch.file, python=python)
    final_newline = source.data.endswith(b"\n") if source.exists and source.data else True
    data = wholefile.file_bytes(patch.payload, newline=source.newline, final_newline=final_newline)
    tree = None
    if document.spec is not None and data != source.data:
        old_data = source.data if source.exists else b""
        tree = check_syntax(document.spec, patch.file, "the whole file", old_data, parse(document.spec, old_data), data)
    return Edit(data, tree, "" if source.exists else "created")
