"""apply_reply: one reply through the whole pipeline (docs/ARCHITECTURE.md).

Every block is planned, resolved, spliced and checked in memory, in reply
order; only then are the files whose blocks all succeeded written, each
atomically. Nothing before `commit` touches the disk, so a dry run is simply
"stop before commit".
"""

from __future__ import annotations

import difflib
import fnmatch
from dataclasses import dataclass, field, replace
from pathlib import Path

from kopipasta import journal
from kopipasta.errors import PatchError, ReplyError
from kopipasta.intake import RESET_MARKER, read_reply
from kopipasta.model import Block, FileChange, Operation, Outcome, Patch, Report, Status
from kopipasta.operations import Document, apply_patch, open_document
from kopipasta.plan import plan
from kopipasta.text.files import apply_text_patch
from kopipasta.textpatch_syntax import TextPatch, read_text_patch
from kopipasta.workspace import Source, confine, load, normalise, remove_file, write_atomic


@dataclass
class _FileState:
    document: Document
    original: bytes | None  # bytes on disk before the reply; None: the file does not exist
    blocks: list[int] = field(default_factory=list)  # outcome indices of the blocks that touched it
    failed_block: int | None = None  # the first block on this file that failed
    renamed_with: list[str] = field(default_factory=list)  # the other end of a rename: written together or not at all


def apply_reply(
    text: str,
    root: Path,
    *,
    dry_run: bool = False,
    strict: bool = False,
    only: tuple[str, ...] = (),
    allow_delete: bool = False,
    partial: bool = False,
) -> Report:
    """Apply every patch of `text` under `root`; see PROTOCOL.md §7 for the rules.

    `partial` writes a file even when one of its blocks failed, with just the
    blocks that succeeded (each checked as always); the user asked for it.
    """
    read = read_reply(text)
    blocks = read.blocks
    notes: tuple[str, ...] = ()
    if read.withdrawn:
        s = "" if read.withdrawn == 1 else "s"
        notes = (f"{RESET_MARKER}: the {read.withdrawn} block{s} above it withdrawn",)
    if not blocks:
        if read.withdrawn:
            return replace(_reply_error(f"The reply holds no code blocks after its last {RESET_MARKER}"), notes=notes)
        return _reply_error("The reply holds no code blocks")
    outcomes: list[Outcome] = []
    files: dict[str, _FileState] = {}
    for block in blocks:
        try:
            text_patch = read_text_patch(block)
        except PatchError as error:
            outcomes.append(_failed(block, None, error.message, error.hint, type(error).__name__))
            continue
        if text_patch is not None:
            outcomes.extend(_apply_text_block(block, text_patch, root, files, only, allow_delete))
        else:
            outcomes.append(_apply_block(block, root, files, only))
    if all(o.status is Status.SKIPPED for o in outcomes):
        return Report(
            tuple(outcomes),
            (),
            written=False,
            reply_error=(
                "The reply holds no patch: its one code block names no file"
                if len(blocks) == 1
                else f"The reply holds no patch: none of its {len(blocks)} code blocks names a file"
            ),
            notes=notes,
        )
    return replace(_commit(root, outcomes, files, dry_run=dry_run, strict=strict, partial=partial), notes=notes)


def _reply_error(message: str) -> Report:
    return Report((), (), written=False, reply_error=message)


def _apply_block(block: Block, root: Path, files: dict[str, _FileState], only: tuple[str, ...]) -> Outcome:
    patch: Patch | None = None
    state: _FileState | None = None
    try:
        patch = plan(block)
        if patch is None:
            return Outcome(block.index, block.line, None, None, None, Status.SKIPPED, "no FILE: explanation, not a patch")
        path = normalise(patch.file)
        if only and not any(fnmatch.fnmatchcase(path, pattern) for pattern in only):
            raise PatchError(
                f"{patch.file} is outside the files this run may change (--only {' '.join(only)})",
                "widen --only, or drop this block",
            )
        state = files.get(path)
        if state is None:
            source = load(root, patch.file)
            state = _FileState(open_document(source), source.to_bytes() if source.exists else None)
            files[path] = state
        before = state.document.source.data
        edit = apply_patch(patch, state.document)
        state.document.update(edit.data, edit.tree)
        added, removed = _line_counts(before, edit.data)
        status = Status.UNCHANGED if edit.data == before and state.document.source.exists else Status.APPLIED
        state.blocks.append(block.index)
        return Outcome(block.index, block.line, path, patch.operation, patch.target, status, edit.note, "", added, removed)
    except PatchError as error:
        if state is not None:
            state.blocks.append(block.index)
            if state.failed_block is None:
                state.failed_block = block.index
        return _failed(block, patch, error.message, error.hint, type(error).__name__)
    except Exception as error:  # noqa: BLE001 — a bug must still be one line, never a traceback
        if state is not None and state.failed_block is None:
            state.failed_block = block.index
        return _failed(
            block, patch, f"Internal error ({type(error).__name__}: {error})",
            "this is a bug in kopipasta; please report it with the reply", "InternalError",
        )


def _file_state(root: Path, files: dict[str, _FileState], path: str, only: tuple[str, ...], written: str) -> _FileState:
    if only and not any(fnmatch.fnmatchcase(path, pattern) for pattern in only):
        raise PatchError(
            f"{written} is outside the files this run may change (--only {' '.join(only)})",
            "widen --only, or drop this block",
        )
    state = files.get(path)
    if state is None:
        source = load(root, written)
        state = _FileState(open_document(source), source.to_bytes() if source.exists else None)
        files[path] = state
    return state


def _apply_text_block(
    block: Block, text_patch: TextPatch, root: Path, files: dict[str, _FileState], only: tuple[str, ...], allow_delete: bool
) -> list[Outcome]:
    """A diff, search/replace or envelope block (PROTOCOL.md §8): every file it touches, or none."""
    touched: list[str] = []

    def current(path: str) -> Source:
        normal = normalise(path)
        state = _file_state(root, files, normal, only, path)
        if normal not in touched:
            touched.append(normal)
        return state.document.source

    label = text_patch.form
    try:
        results = apply_text_patch(text_patch, current, allow_delete=allow_delete)
    except Exception as error:  # noqa: BLE001 — a bug must still be one line, never a traceback
        for path in touched:
            files[path].blocks.append(block.index)
            if files[path].failed_block is None:
                files[path].failed_block = block.index
        failing = touched[-1] if touched else block.file
        if isinstance(error, PatchError):
            message, hint, kind = error.message, error.hint, type(error).__name__
        else:
            message = f"Internal error ({type(error).__name__}: {error})"
            hint, kind = "this is a bug in kopipasta; please report it with the reply", "InternalError"
        if len(touched) > 1:
            message += f" (so none of the block's files is written: {', '.join(touched)})"
        return [
            Outcome(
                block.index, block.line, failing, Operation.TEXT_PATCH, label, Status.FAILED, message, hint,
                failure_kind=kind,
            )
        ]
    outcomes: list[Outcome] = []
    for result in results:
        for path in filter(None, (result.moved_from, result.path)):
            state = files[path]
            before, existed = state.document.source.data, state.document.source.exists
            if path == result.path:
                state.document.update(result.data, None)
                state.document.source = replace(state.document.source, exists=result.exists, bom=result.bom)
            else:
                state.document.update(b"", None)
                state.document.source = replace(state.document.source, exists=False)
            state.blocks.append(block.index)
        if result.moved_from is not None:
            files[result.moved_from].renamed_with.append(result.path)
            files[result.path].renamed_with.append(result.moved_from)
        changed = (result.data, result.exists) != (before, existed)
        added, removed = _line_counts(before, result.data)
        status = Status.APPLIED if changed else Status.UNCHANGED
        outcomes.append(Outcome(block.index, block.line, result.path, Operation.TEXT_PATCH, label, status, result.note, "", added, removed))
    return outcomes


def _failed(block: Block, patch: Patch | None, message: str, hint: str, kind: str) -> Outcome:
    return Outcome(
        block.index,
        block.line,
        patch.file if patch else block.file,
        patch.operation if patch else None,
        patch.target if patch else None,
        Status.FAILED,
        message,
        hint,
        failure_kind=kind,
    )


def _common_prefix(a: bytes, b: bytes) -> int:
    """Length of the common prefix, by binary search over C-speed comparisons."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a.startswith(b[:middle]):
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: bytes, b: bytes) -> int:
    """Length of the common suffix, by the same binary search."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a.endswith(b[len(b) - middle :]):
            low = middle
        else:
            high = middle - 1
    return low


def _line_counts(before: bytes, after: bytes) -> tuple[int, int]:
    """Lines added and removed, diffing only the region that changed."""
    if before == after:
        return 0, 0
    prefix = before.rfind(b"\n", 0, _common_prefix(before, after)) + 1
    limit = min(len(before), len(after)) - prefix
    suffix = min(_common_suffix(before, after), limit)
    # Widen the region to whole lines at its end too, or a shared line tail counts as changed.
    tail = before[len(before) - suffix :]
    newline = tail.find(b"\n")
    suffix = suffix - (newline + 1) if newline >= 0 else 0
    old_lines = before[prefix : len(before) - suffix].splitlines()
    new_lines = after[prefix : len(after) - suffix].splitlines()
    added = removed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            removed += i2 - i1
        if tag in ("replace", "insert"):
            added += j2 - j1
    return added, removed


def _commit(
    root: Path,
    outcomes: list[Outcome],
    files: dict[str, _FileState],
    *,
    dry_run: bool,
    strict: bool,
    partial: bool = False,
) -> Report:
    first_failure = next((o.block_index for o in outcomes if o.status is Status.FAILED), None)
    changes: list[FileChange] = []
    for path, state in files.items():
        # A file a text patch deleted has no bytes after (PROTOCOL.md §8, --allow-delete).
        after = state.document.source.to_bytes() if state.document.source.exists else None
        # A rename's two ends go together: a source is never deleted when its copy is held back.
        failed_block = next(
            (files[p].failed_block for p in (path, *state.renamed_with) if files[p].failed_block is not None), None
        )
        if failed_block is not None and partial and not strict:
            if after != state.original:
                _note_partial(outcomes, state.blocks, failed_block, path)
                changes.append(FileChange(path, state.original, after))
        elif failed_block is not None:
            _hold_back(outcomes, state.blocks, f"not written: block {failed_block} on this file failed", path)
        elif strict and first_failure is not None:
            _hold_back(outcomes, state.blocks, f"not written: --strict, and block {first_failure} failed", path)
        elif after != state.original:
            changes.append(FileChange(path, state.original, after))
    written = bool(changes) and not dry_run
    if written:
        journal.record(root, changes)
        for change in changes:
            if change.after is None:
                remove_file(confine(root, change.path))
            else:
                write_atomic(confine(root, change.path), change.after)
    return Report(tuple(outcomes), tuple(changes), written=written)


def _note_partial(outcomes: list[Outcome], block_indices: list[int], failed_block: int, path: str) -> None:
    """--partial: say on each block that is written that its file goes without the failed one."""
    for i, outcome in enumerate(outcomes):
        if outcome.block_index in block_indices and outcome.file == path and outcome.status is Status.APPLIED:
            note = f"written without failed block {failed_block} (--partial)"
            outcomes[i] = replace(outcome, message=f"{outcome.message}; {note}" if outcome.message else note)


def _hold_back(outcomes: list[Outcome], block_indices: list[int], reason: str, path: str) -> None:
    """Blocks that applied in memory but whose file is not written are reported as skipped."""
    for i, outcome in enumerate(outcomes):
        if outcome.block_index in block_indices and outcome.file == path and outcome.status is Status.APPLIED:
            outcomes[i] = replace(outcome, status=Status.SKIPPED, message=reason)


__all__ = ["apply_reply", "ReplyError", "Operation"]
