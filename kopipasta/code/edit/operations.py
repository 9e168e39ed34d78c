"""One patch applied to one file in memory: resolve, render, splice, check.

Each operation takes the file as it stands after the blocks before it and
returns the new data, or raises a PatchError. Nothing here writes to disk.

Only what a TARGET_NODE on a code file runs is imported at the top; every other
operation's modules (data paths, whole files, Vue/Svelte, insertions, merges,
"did you mean") are imported where it runs, so a reply pays at start-up only for
what it uses (issue 9).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from kopipasta.code.edit.replace import replace_node
from kopipasta.code.find.document import Document
from kopipasta.code.find.resolve import parse_target, resolve_with_payload_in
from kopipasta.code.read.parsed import (
    Parsed,
    only_its_target,
    placeholder_rows,
    read_payload,
    read_target_payload,
    structural,
)
from kopipasta.disk.workspace import Source, load, normalise
from kopipasta.errors import PatchError, PayloadError, TargetNotFound, UnsupportedFile
from kopipasta.model import Operation, Patch
from kopipasta.syntax import opening_tag
from kopipasta.syntax.languages import LANGUAGES, LanguageSpec, parse

if TYPE_CHECKING:
    from tree_sitter import Tree

    from kopipasta.code.find.definitions import Definition


@dataclass(frozen=True)
class Edit:
    """What one operation made of the file: its new bytes, and what the report says about them."""

    data: bytes
    tree: Tree | None  # the new data's tree, when the check parsed it
    note: str = ""  # said in the report beside `applied` (a rename, a created file)
    reading: str = ""  # how a block without a target was read: whole file, inferred fragment, merged elision


def apply_patch(patch: Patch, document: Document) -> Edit:
    if patch.operation is Operation.WHOLE_FILE:
        return _whole_file(patch, document)
    if not document.source.exists:
        from kopipasta.code.find.samename import did_you_mean, suggestions

        elsewhere = suggestions(document.root, patch.file) if document.root is not None else []
        raise TargetNotFound(
            f"Cannot apply {patch.directive} to {patch.file}: the file does not exist",
            did_you_mean(elsewhere, patch.file) if elsewhere else "to create it, send the whole file with FILE and no target",
        )
    if patch.operation is Operation.SET_PATH:
        return _set_path(patch, document)
    if document.spec is not None and document.spec.embedding is not None:
        return _embedded_code(patch, document)
    return _code_patch(patch, document)


def _code_patch(patch: Patch, document: Document) -> Edit:
    spec = document.spec
    if spec is not None and spec.opening_tag and opening_tag.has_own_tag(spec, patch.payload):
        # A targeted payload lands inside code already: PHP's `<?php` atop it is not part of it.
        patch = dataclasses.replace(patch, payload=opening_tag.dropped(spec, patch.payload))
    if patch.operation is Operation.REPLACE_NODE:
        return _replace_node(patch, document)
    return _add_or_delete(patch, document)


def _embedded_code(patch: Patch, document: Document) -> Edit:
    """A Vue/Svelte component or an HTML page: the operation runs on its `<script>` (embedded.py);
    on a page, a target naming a rule runs on its `<style>`, one naming an element on its markup."""
    from kopipasta.code.read import embedded

    assert document.spec is not None and patch.target is not None
    target = parse_target(patch.target, patch.file)
    if target.markup and target.kind == "element":
        return _markup_code(patch, document)

    def run(view: Source, spec: LanguageSpec) -> tuple[bytes, str]:
        edit = _code_patch(patch, Document(view, spec))
        return edit.data, edit.note

    data, note = embedded.apply_in_view(document.spec, document.source, patch.directive, run, style=target.markup)
    return Edit(data, None, note)


def _markup_code(patch: Patch, document: Document) -> Edit:
    """An element of an HTML page, by its `id`: the operation runs on the page itself (issue 25)."""
    from kopipasta.code.read import embedded

    assert document.spec is not None
    markup = embedded.markup_spec(document.spec)
    if markup is None:
        raise UnsupportedFile(
            f"{patch.directive} in {patch.file}: elements are targeted by id in HTML pages only",
            "target the script's definitions, or send the whole file",
        )
    edit = _code_patch(patch, Document(document.source, markup, root=document.root, tree=document.tree))
    embedded.check_views(document.spec, patch.file, document.source.data, edit.data)
    return edit


def _code_document(patch: Patch, document: Document) -> LanguageSpec:
    if document.spec is not None:
        return document.spec
    from kopipasta import data as data_formats
    from kopipasta.code.read import hints

    if data_formats.format_of(patch.file) is not None:
        message, hint = hints.target_node_on_data(patch.file, patch.directive, document.source.data)
        raise UnsupportedFile(message, hint)
    supported = ", ".join(ext for spec in LANGUAGES for ext in spec.extensions)
    raise UnsupportedFile(
        f"{patch.directive} in {patch.file}: no grammar for this file type (supported: {supported})",
        "send the whole file instead (FILE and no target)",
    )


def _replace_node(patch: Patch, document: Document) -> Edit:
    spec = _code_document(patch, document)
    assert patch.target is not None
    target = parse_target(patch.target, patch.file)
    definition, picked_note = resolve_with_payload_in(
        target, document, patch.file, patch.payload, overloads=spec.has_overloads
    )
    # A payload that elides, or restates more than its target, is merged as §6 reads a file block;
    # one that is plainly its target (the common case) is told without importing the merge.
    merged = None
    payload = read_target_payload(document, patch.payload, definition)
    if payload.placeholders:
        # A lazy edit of its target (or of more): placed line by line (issue 24).
        from kopipasta.code.edit.line_merge import merge_lines

        lines = merge_lines(
            document, patch.payload, file=patch.file, label=str(target), prose=patch.block.prose,
            target=definition if _only_target_defined(payload, definition) else None,
        )
        note = "; ".join(n for n in (picked_note, lines.note) if n)
        return Edit(lines.data, lines.tree, note, lines.reading)
    if not only_its_target(payload, definition):
        from kopipasta.code.edit import merge

        merged = merge.merge_targeted(
            document, patch.payload, definition, file=patch.file, label=str(target), parsed=payload
        )
    if merged is not None:
        note = "; ".join(n for n in (picked_note, merged.note()) if n)
        return Edit(merged.data, merged.tree, note, merged.reading)
    result = replace_node(document, definition, patch.payload, file=patch.file, label=str(target))
    note = "; ".join(n for n in (picked_note, result.note) if n)
    return Edit(result.data, result.tree, note)


def _only_target_defined(payload: Parsed, target: Definition) -> bool:
    """Whether every definition at the payload's top level is named as the target: its lines are the window."""
    return all(d.name == target.name for d in structural(payload.definitions) if not d.container)


def _add_or_delete(patch: Patch, document: Document) -> Edit:
    """INSERT_AFTER, INSERT_BEFORE, APPEND_TO and DELETE_NODE (PROTOCOL.md §4a), in insert.py."""
    from kopipasta.code.edit import insert

    _code_document(patch, document)
    assert patch.target is not None
    if patch.operation is Operation.DELETE_NODE:
        result = insert.delete(document, patch.target, file=patch.file)
    else:
        result = insert.insert(document, patch.operation, patch.target, patch.payload, file=patch.file)
    return Edit(result.data, result.tree, result.note)


def _set_path(patch: Patch, document: Document) -> Edit:
    from kopipasta import data as data_formats

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
    # The merge and the component reader are imported where used: a block read line by line (the
    # lazy edit, most replies) needs neither (issue 24's speed goal counts the import).
    from kopipasta.code.read import reading, wholefile
    from kopipasta.syntax.check import check_syntax

    source = document.source
    spec = document.spec
    python = spec is not None and spec.grammar == "python"
    wholefile.check_not_diff(patch.payload, file=patch.file, info=patch.block.info)
    if not source.exists:
        _check_not_elsewhere(patch, document)
    dropped: tuple[str, ...] = ()
    if source.exists:
        if not patch.payload.strip() and source.data.strip():
            raise PayloadError(
                f"Whole-file block for {patch.file} is empty: it would erase the file",
                "to change part of it use TARGET_NODE; delete files yourself",
            )
        if spec is None:
            wholefile.check_complete(patch.payload, file=patch.file, python=python)
            fragment = _check_opaque_whole(patch, source)
            if fragment is not None:
                return fragment
        elif spec.embedding is not None:
            from kopipasta.code.read import embedded

            if not embedded.is_component(patch.payload):
                return _embedded_fragment(patch, document)  # bare script code: merged into the <script>
            embedded.check_whole_component(spec, patch.file, source.data, patch.payload)
        else:
            # A fragment is merged by definition, an elided payload line by line: never written over the file (§6).
            read = reading.read_code_block(document, patch.payload)
            # A whole file that leaves definitions out keeps them, unless the reply says it removes
            # them (issue 19). (A cut-off block never gets here: the engine refuses it.)
            kept = reading.kept_unless_removed(read, patch.block.prose)
            missing = reading.frame_left_out(document, patch.payload) if read.kind == reading.WHOLE else ()
            lines_only = read.kind == reading.FRAGMENT and reading.inside_one_definition(document, patch.payload)
            if read.kind == reading.ELIDED or missing and not kept or lines_only:
                # A whole file that leaves out an import or statement of the file keeps it, and a run
                # of statements from inside one function is placed by its own lines (issue 24):
                # read line by line, the lines it does not show stay.
                from kopipasta.code.edit.line_merge import merge_lines

                lines = merge_lines(
                    document, patch.payload, file=patch.file, label="File block", prose=patch.block.prose
                )
                note = "; ".join(
                    n for n in (lines.note, *(f"kept {m}, not in the block" for m in missing if m not in lines.note)) if n
                )
                return Edit(lines.data, lines.tree, note, lines.reading)
            if read.kind != reading.WHOLE or kept:
                from kopipasta.code.edit import merge

                merged = merge.merge_file_block(document, patch.payload, file=patch.file)
                note = "; ".join(n for n in (merged.note(), *(f"kept {name}, not in the block" for name in kept)) if n)
                return Edit(merged.data, merged.tree, note, merged.reading)
            dropped = read.dropped
    final_newline = source.data.endswith(b"\n") if source.exists and source.data else True
    data = wholefile.file_bytes(patch.payload, newline=source.newline, final_newline=final_newline)
    tree = None
    if spec is not None and data != source.data:
        old_data = source.data if source.exists else b""
        old_tree = document.tree if source.exists else parse(spec, old_data)  # the tree already parsed, if any
        tree = check_syntax(spec, patch.file, "the whole file", old_data, old_tree, data)
        if spec.embedding is not None:
            from kopipasta.code.read import embedded

            embedded.check_scripts(spec, patch.file, old_data, data)  # the <script> too
    elif spec is None and data != source.data:
        _check_data_still_parses(patch.file, source.data if source.exists else b"", data)
    note = "" if source.exists else "created"
    if dropped:
        note = "drops " + ", ".join(dropped)
    return Edit(data, tree, note, "whole file")


def _check_data_still_parses(file: str, old: bytes, new: bytes) -> None:
    """A YAML or TOML file that parsed must parse after a whole-file block (data/wellformed.py)."""
    from kopipasta import data as data_formats

    if data_formats.format_of(file) in ("YAML", "TOML"):
        from kopipasta.data.wellformed import check_still_parses

        check_still_parses(file, old, new, "The whole-file block")


def _embedded_fragment(patch: Patch, document: Document) -> Edit:
    """Bare script code sent as a Vue/Svelte file block: a fragment (or elided script) merged into its `<script>`."""
    from kopipasta.code.edit import merge
    from kopipasta.code.read import embedded

    assert document.spec is not None
    reading_kind = ""

    def run(view: Source, spec: LanguageSpec) -> tuple[bytes, str]:
        nonlocal reading_kind
        if placeholder_rows(spec, patch.payload, view.data):
            from kopipasta.code.edit.line_merge import merge_lines

            lines = merge_lines(Document(view, spec), patch.payload, file=patch.file, label="File block")
            reading_kind = lines.reading
            return lines.data, lines.note
        merged = merge.merge_file_block(Document(view, spec), patch.payload, file=patch.file)
        reading_kind = merged.reading
        return merged.data, merged.note()

    data, note = embedded.apply_in_view(document.spec, document.source, "File block", run)
    return Edit(data, None, note, reading_kind)


def _check_opaque_whole(patch: Patch, source: Source) -> Edit | None:
    """A file kopipasta cannot merge is replaced only by a payload that is clearly all of it.

    A data file's part that restates the keys down to the values it changes is a
    fragment: those values are set as TARGET_PATH sets them (data/fragment.py).
    """
    from kopipasta.code.read import reading

    old = source.data.decode("utf-8", "replace")
    verdict = reading.opaque_whole(patch.file, old, patch.payload, patch.block.prose)
    if verdict.whole:
        return None
    from kopipasta import data as data_formats

    kind = data_formats.format_of(patch.file)
    detail = verdict.detail
    if kind is not None:
        from kopipasta.data.fragment import NOT_A_MAPPING, NotAFragment, apply_fragment

        try:
            applied = apply_fragment(kind, source.data.decode("utf-8"), patch.payload, file=patch.file)
        except NotAFragment as refused:
            if refused.reason != NOT_A_MAPPING:
                detail = refused.reason
        else:
            shown = ", ".join(applied.paths[:3]) + (", …" if len(applied.paths) > 3 else "")
            note = f"set {shown}" if applied.paths else "already in place"
            if applied.kept:
                kept = ", ".join(f"'{p}'" for p in applied.kept[:3]) + (", …" if len(applied.kept) > 3 else "")
                note += f"; kept {kept}, not in the block"
            return Edit(applied.text.encode("utf-8"), None, note, "data fragment")
    raise PayloadError(
        f"File block for {patch.file} looks like part of the file, not all of it ({detail}): "
        "writing it would delete the rest",
        verdict.hint,
    )


def _check_not_elsewhere(patch: Patch, document: Document) -> None:
    """A fragment of `app/tokens.py` sent as `tokens.py` fails instead of creating a stray file.

    A complete new file is created even when a file of the same name exists
    elsewhere; a payload that elides code, or restates definitions of that
    file without being all of it, names it instead; so does a new text of the
    one file of that name, sent under a folder that does not exist.
    """
    if document.root is None:
        return
    from kopipasta.code.find.samename import did_you_mean, same_name

    elsewhere = same_name(document.root, patch.file)
    if not elsewhere:
        return
    spec = document.spec
    for path in elsewhere:
        try:
            other = load(document.root, path)
        except (PatchError, OSError):
            continue
        if _part_of(spec, other, patch.payload):
            raise TargetNotFound(
                f"File block for {patch.file}: the file does not exist, and the payload is part of {path}",
                did_you_mean(elsewhere),
            )
    folder = PurePosixPath(normalise(patch.file)).parent
    if folder.parts and not (document.root / folder).is_dir() and _new_version_of(document.root, elsewhere, patch.payload):
        # A new folder for a name the project has once (`path/to/x.txt` for `x.txt`), and the
        # payload a version of that file: the path is an example's or a guess, not a place the
        # reply means to create.
        raise TargetNotFound(
            f"File block for {patch.file}: neither the file nor its folder {folder.as_posix()}/ exists, "
            f"and {PurePosixPath(elsewhere[0]).name} does",
            did_you_mean(elsewhere),
        )


def _new_version_of(root: Path, elsewhere: list[str], payload: str) -> bool:
    """Whether the payload reads as a new text of the one file of its name the project has.

    It shares a line with it, or that file is so short (three lines or fewer) that any
    text sent for its name is a version of it. Several files of the name (`__init__.py`,
    `index.ts`) make the name a folder's convention: a new folder may want its own.
    """
    if len(elsewhere) != 1:
        return False
    try:
        other = load(root, elsewhere[0]).data.decode("utf-8", "replace")
    except (PatchError, OSError):
        return False
    have = {line.strip() for line in other.splitlines() if line.strip()}
    sent = {line.strip() for line in payload.splitlines() if line.strip()}
    return len(have) <= 3 or bool(have & sent)


def _part_of(spec: LanguageSpec | None, other: Source, payload: str) -> bool:
    from kopipasta.code.read import embedded, reading, wholefile

    if wholefile.find_placeholder(payload, python=spec is not None and spec.grammar == "python"):
        return True
    if spec is not None and spec.embedding is not None:
        return not embedded.is_component(payload)  # bare script code is part of some component
    if spec is None:
        verdict = reading.opaque_whole(other.path, other.data.decode("utf-8", "replace"), payload)
        return not verdict.whole and "restates 0 " not in verdict.detail and "restates" in verdict.detail
    document = Document(other, spec)
    read = reading.read_code_block(document, payload)
    if read.kind == reading.WHOLE:
        return False
    theirs = {d.name for d in structural(document.definitions)}
    return any(d.name in theirs for d in structural(read_payload(spec, payload).definitions))
