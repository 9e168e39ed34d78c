"""One text-patch block over its files: update, create, delete, rename — all or none.

The engine hands over the files as they stand after the blocks before (their
Documents: a tree already parsed is reused by the check); this computes what the block makes of each, in memory, and raises a PatchError for
the first file that fails, so the engine keeps every file of the block as it
was. Deletions and renames need `allow_delete` (`apply --allow-delete`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kopipasta.code.find.document import Document
from kopipasta.data import format_of
from kopipasta.disk.limits import files_problem
from kopipasta.disk.workspace import Source, normalise
from kopipasta.errors import PatchError, PayloadError, SyntaxCheckError, TargetNotFound
from kopipasta.intake.textpatch_syntax import FilePatch, TextPatch
from kopipasta.syntax.check import check_syntax
from kopipasta.syntax.languages import language_for_path, parse
from kopipasta.text.apply import UNCHANGED, apply_hunks, created_text, tiers_note

if TYPE_CHECKING:
    from tree_sitter import Tree


@dataclass(frozen=True)
class FileResult:
    """What the block makes of one file (after a rename: of its new path)."""

    path: str
    data: bytes  # empty when deleted
    exists: bool
    note: str
    moved_from: str | None = None
    bom: bool = False  # the file's BOM (a renamed file keeps its own)
    tree: Tree | None = None  # the new data's tree, when the check parsed it


def _deletion_refused(form: str, what: str) -> PatchError:
    return PatchError(
        f"The {form} {what}: deleting or renaming a file needs `kopipasta apply --allow-delete`",
        "nothing was written; rerun with --allow-delete if the file should go",
    )


def _check(path: str, old: bytes, new: bytes, label: str, old_tree: Tree | None = None) -> Tree | None:
    """The reparse check: a text patch may not break what parsed before (code, JSON, YAML, TOML).
    The new tree, if parsed."""
    if old == new:
        return None
    spec = language_for_path(path)
    if spec is not None:
        return check_syntax(spec, path, label, old, old_tree or parse(spec, old), new)
    if format_of(path) in ("YAML", "TOML"):
        from kopipasta.data.wellformed import check_still_parses

        check_still_parses(path, old, new, label[:1].upper() + label[1:])
        return None
    if path.lower().endswith(".json"):
        try:
            json.loads(old or b"null")
        except ValueError:
            return None
        try:
            json.loads(new)
        except ValueError as error:
            raise SyntaxCheckError(
                f"Patch for {label} would break the JSON of {path}: {error}", "nothing was written; check the hunk's commas and brackets"
            ) from None
    return None


def apply_text_patch(
    patch: TextPatch, current: Callable[[str], Document], *, allow_delete: bool
) -> list[FileResult]:
    """Each file the block touches, as the block leaves it; `current(path)` is the file before it."""
    too_many = files_problem(len(patch.files))
    if too_many:  # before any file is read (disk/limits.py)
        raise PatchError(*too_many.split(" — ", 1))
    staged: dict[str, Document] = {}
    results: list[FileResult] = []

    def now(path: str) -> Document:
        return staged.get(path) or current(path)

    for file_patch in patch.files:
        result = _apply_file(patch.form, file_patch, now, allow_delete=allow_delete)
        for moved in (result.moved_from,):
            if moved is not None:
                gone = now(moved).source
                staged[moved] = now(moved).with_source(Source(gone.path, b"", gone.bom, gone.newline, False))
        before = now(result.path)
        staged[result.path] = before.with_source(
            Source(result.path, result.data, result.bom, before.newline, result.exists), result.tree
        )
        results.append(result)
    return results


def _apply_file(form: str, fp: FilePatch, now: Callable[[str], Document], *, allow_delete: bool) -> FileResult:
    path = normalise(fp.path)
    document = now(path)
    source = document.source
    label = f"the {form}"
    if fp.action == "delete":
        if not allow_delete:
            raise _deletion_refused(form, f"deletes {path}")
        if not source.exists:
            return FileResult(path, b"", False, f"{form}: already deleted")
        if fp.hunks:
            rest, _ = apply_hunks(source.data.decode("utf-8"), fp.hunks, form=form, path=path, newline=source.newline)
            if rest.strip():  # a deletion's hunks must take the whole file
                raise PayloadError(
                    f"The {form} deletes {path} but its removed lines are not the whole file",
                    "nothing was written; check that it is the file meant",
                )
        return FileResult(path, b"", False, f"{form}: deleted")
    if fp.action == "create":
        text = created_text(fp.hunks, final_newline=fp.final_newline)
        data = text.replace("\n", source.newline).encode("utf-8") if source.exists else text.encode("utf-8")
        if source.exists:
            if source.data.replace(b"\r\n", b"\n") == text.encode("utf-8"):
                return FileResult(path, source.data, True, f"{form}: already created", bom=source.bom)
            raise TargetNotFound(
                f"The {form} creates {path}, but it already exists with other content",
                "nothing was written; send a diff against its current text",
            )
        tree = _check(path, b"", data, label)
        return FileResult(path, data, True, f"{form}: created", tree=_kept(document, path, tree))
    if not source.exists and fp.other_name is not None and now(normalise(fp.other_name)).source.exists:
        # `--- app_old.py` / `+++ app.py`: as `patch` does, the name that exists is the file.
        return _apply_file(form, replace(fp, path=fp.other_name, other_name=None), now, allow_delete=allow_delete)
    # An update, perhaps with a rename.
    destination = normalise(fp.move_to) if fp.move_to else None
    if destination is not None and not allow_delete:
        raise _deletion_refused(form, f"renames {path} to {destination}")
    if not source.exists and destination is None and fp.hunks and all(not hunk.old for hunk in fp.hunks):
        # Only additions to a file that is not there (an empty SEARCH, `@@ -0,0`): it is created.
        return _apply_file(form, FilePatch(fp.path, "create", fp.hunks), now, allow_delete=allow_delete)
    if not source.exists:
        if destination is not None and now(destination).source.exists:
            # Renamed already (the reply applied before): the hunks must stand in the new file.
            return _update(form, fp, now(destination), destination, label, note_prefix="already renamed; ")
        create = "an empty SEARCH part creates it" if form == "search/replace" else "a diff from /dev/null creates it"
        raise TargetNotFound(f"The {form} changes {path}, which does not exist", f"check the path; {create}")
    if destination is not None and destination != path and now(destination).source.exists:
        raise PatchError(
            f"The {form} renames {path} to {destination}, which already exists", "nothing was written; remove or rename it first"
        )
    result = _update(form, fp, document, destination or path, label)
    if destination is not None and destination != path:
        # The tree is left to be parsed again: it is read in the destination's language, not this file's.
        return FileResult(destination, result.data, True, f"{result.note}; moved from {path}", moved_from=path, bom=source.bom)
    return result


def _update(form: str, fp: FilePatch, document: Document, path: str, label: str, note_prefix: str = "") -> FileResult:
    source = document.source
    text = source.data.decode("utf-8")
    new_text, tiers = apply_hunks(text, fp.hunks, form=form, path=path, newline=source.newline)
    data = new_text.encode("utf-8")
    # The tree the document already has, when it is of the language the check reads the path in. Only
    # an error-free one: where recovery made ERROR nodes, the check counts them in a fresh parse, as before.
    old_tree = document.tree if source.exists and _same_language(document, path) else None
    if old_tree is not None and old_tree.root_node.has_error:
        old_tree = None
    tree = _check(path, source.data, data, label, old_tree)
    note = tiers_note(form, tiers) if any(t != UNCHANGED for t in tiers) else f"{form}: already in place"
    return FileResult(path, data, True, note_prefix + note, bom=source.bom, tree=_kept(document, path, tree))


def _same_language(document: Document, path: str) -> bool:
    """Whether the document's trees are what the check parses `path` as (a link may name another type)."""
    return document.spec is not None and document.spec == language_for_path(path)


def _kept(document: Document, path: str, tree: Tree | None) -> Tree | None:
    """The checked tree, for the document's next version when it is of the document's own language."""
    return tree if tree is not None and _same_language(document, path) else None
