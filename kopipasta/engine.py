"""apply_reply: one reply through the whole pipeline (docs/ARCHITECTURE.md).

Every block is planned, resolved, spliced and checked in memory, in reply
order; only then are the files whose blocks all succeeded written, each
atomically. Nothing before `commit` touches the disk, so a dry run is simply
"stop before commit".
"""

from __future__ import annotations

import errno
import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kopipasta.code.edit.operations import apply_patch
from kopipasta.code.find.document import Document, open_document
from kopipasta.disk import faults, journal, limits, lock, newlines, prompt_record
from kopipasta.disk.workspace import load, normalise, resolve_real
from kopipasta.errors import PatchError, ReplyError
from kopipasta.intake.plan import plan
from kopipasta.intake.reader import RESET_MARKER, read_reply
from kopipasta.intake.textpatch_markers import may_be_text_patch
from kopipasta.model import Block, FileChange, Operation, Outcome, Patch, Report, Status
from kopipasta.startup.line_counts import line_counts
from kopipasta.startup.shortrun import keep_until_exit

if TYPE_CHECKING:
    from kopipasta.code.read import staleness
    from kopipasta.intake.textpatch_syntax import TextPatch


@dataclass
class _FileState:
    """One file the reply touches: its document, its bytes before, and the blocks on it."""

    document: Document
    original: bytes | None  # bytes on disk before the reply; None: the file does not exist
    blocks: list[int] = field(default_factory=list)  # outcome indices of the blocks that touched it
    failed_block: int | None = None  # the first block on this file that failed
    stale: staleness.Changed | None = None  # what changed since a prompt showed the file
    names: set[str] = field(default_factory=set)  # the paths blocks wrote for it (an alias is a second name)
    renamed_with: list[str] = field(default_factory=list)  # the other end of a rename: written together or not at all
    opened: Document | None = None  # the document as read: the staleness record reuses its analysis

    def fail(self, block_index: int) -> None:
        """Block `block_index` failed on this file: it holds the file back (PROTOCOL.md §7)."""
        if block_index not in self.blocks:
            self.blocks.append(block_index)
        if self.failed_block is None:
            self.failed_block = block_index


def apply_reply(
    text: str,
    root: Path,
    *,
    dry_run: bool = False,
    strict: bool = False,
    only: tuple[str, ...] = (),
    allow_delete: bool = False,
    partial: bool = False,
    force: bool = False,
) -> Report:
    """Apply every patch of `text` under `root`; see PROTOCOL.md §7 for the rules.

    `partial` writes a file even when one of its blocks failed, with just the
    blocks that succeeded (each checked as always); the user asked for it.

    A real apply holds the root's lock from the first read to the last write
    (kopipasta.disk.lock); `force` writes read-only files and targets changed
    since the prompt. Raises journal.JournalError when the root is busy or its
    journal cannot be trusted.
    """
    too_big = limits.reply_problem(len(text.encode("utf-8", "surrogatepass")))
    if too_big:
        return _reply_error(too_big)
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
    too_many = limits.reply_problem(0, len(blocks))
    if too_many:
        return _reply_error(too_many)
    options = _Options(strict=strict, only=only, partial=partial, force=force, notes=notes, allow_delete=allow_delete)
    if dry_run:
        return _apply_blocks(blocks, root, None, options)
    try:
        with journal.writing(root) as project:
            return _apply_blocks(blocks, root, project, options)
    except lock.Busy as busy:
        raise journal.JournalError(str(busy)) from None


@dataclass(frozen=True)
class _Options:
    """The apply options every block is run with."""

    strict: bool
    only: tuple[str, ...]
    partial: bool
    force: bool
    notes: tuple[str, ...]
    allow_delete: bool = False


def _apply_blocks(
    blocks: list[Block], root: Path, project: journal.Project | None, options: _Options
) -> Report:
    """Every block in memory, then the commit; `project` is None for a dry run."""
    notes = options.notes
    outcomes: list[Outcome] = []
    files: dict[str, _FileState] = {}
    keep_until_exit(files)  # a short run leaves with os._exit: its files' trees need no freeing
    for block in blocks:
        if block.file is None and (block.prose_paths or block.comment_paths):
            block = _named_in_prose(block, root)
        try:
            text_patch = None
            if may_be_text_patch(block):  # plain code never imports the text-patch reader (issue 9)
                from kopipasta.intake.textpatch_syntax import read_text_patch

                text_patch = read_text_patch(block)
        except PatchError as error:
            if block.file is None and error.file is not None:
                block = replace(block, file=error.file)  # the file a malformed diff's headers name
            outcomes.append(_failed(block, None, error.message, error.hint, type(error).__name__))
            _hold_file(root, files, block, options)
            continue
        if text_patch is not None:
            outcomes.extend(_apply_text_block(block, text_patch, root, files, options))
        else:
            outcomes.append(_apply_block(block, root, files, options.only, options.force))
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
            notes=(*(project.notes if project else ()), *notes),
        )
    report = _commit(project, outcomes, files, strict=options.strict, partial=options.partial)
    return replace(report, notes=(*(project.notes if project else ()), *notes))


def _named_in_prose(block: Block, root: Path) -> Block:
    """The block with the file its prose names, when the project confirms it (PROTOCOL.md §2)."""
    from kopipasta.text.belongs import named_in_prose

    return named_in_prose(block, root)


def _hold_file(root: Path, files: dict[str, _FileState], block: Block, options: _Options) -> None:
    """A block that names its file but cannot be read still holds that file back (PROTOCOL.md §7)."""
    if block.file is None:
        return
    try:
        _, state = _file_state(root, files, block.file, options.only, options.force)
    except (PatchError, OSError):
        return  # the path itself is refused: no document to hold back
    state.fail(block.index)


def _reply_error(message: str) -> Report:
    return Report((), (), written=False, reply_error=message)


def _apply_block(
    block: Block, root: Path, files: dict[str, _FileState], only: tuple[str, ...], force: bool
) -> Outcome:
    patch: Patch | None = None
    state: _FileState | None = None
    try:
        patch = plan(block)
        if patch is None:
            return Outcome(block.index, block.line, None, None, None, Status.SKIPPED, "no FILE: explanation, not a patch")
        path = normalise(patch.file)
        _, state = _file_state(root, files, patch.file, only, force)
        if state.stale is not None:  # only a file a prompt recorded, changed since (staleness.check)
            from kopipasta.code.read import staleness

            staleness.check(patch, state.stale)
        before = state.document.source.data
        faults.hit("patch", patch.file)
        edit = apply_patch(patch, state.document)
        state.document = state.document.after(edit.data, edit.tree)
        added, removed = _line_counts(before, edit.data)
        status = Status.UNCHANGED if edit.data == before and state.document.source.exists else Status.APPLIED
        state.blocks.append(block.index)
        return Outcome(
            block.index, block.line, path, patch.operation, patch.target, status, edit.note, "", added, removed, edit.reading
        )
    except PatchError as error:
        if state is not None:
            state.fail(block.index)
        return _failed(block, patch, error.message, error.hint, type(error).__name__)
    except (OSError, MemoryError, RecursionError) as error:
        if state is not None:
            state.fail(block.index)
        message, hint = _system_failure(block, patch, error)
        return _failed(block, patch, message, hint, type(error).__name__)
    except Exception as error:  # noqa: BLE001 — a bug must still be one line, never a traceback
        if state is not None:
            state.fail(block.index)
        return _failed(
            block, patch, f"Internal error ({type(error).__name__}: {error})",
            "this is a bug in kopipasta; please report it with the reply", "InternalError",
        )


def _system_failure(block: Block, patch: Patch | None, error: BaseException) -> tuple[str, str]:
    """An OS or resource failure is not a bug: name the file and the cause."""
    file = patch.file if patch else block.file or "the reply"
    if isinstance(error, MemoryError):
        return f"Cannot patch {file}: not enough memory to parse it", "patch a smaller file, or free memory"
    if isinstance(error, RecursionError):
        return f"Cannot patch {file}: it is nested too deeply to process", "patch a smaller part of it"
    assert isinstance(error, OSError)
    reason = error.strerror or str(error)
    if error.errno == errno.ENAMETOOLONG:
        return f"Cannot open {file}: the name is too long", "use a shorter path"
    if error.errno == errno.ELOOP:
        return f"Cannot open {file}: a symlink loop", "fix the symlink"
    return f"Cannot read {file}: {reason}", "check the path and its permissions"


def _file_state(
    root: Path, files: dict[str, _FileState], written: str, only: tuple[str, ...], force: bool
) -> tuple[str, _FileState]:
    """The document of the file a block names, loaded once per real file; its key in `files`."""
    path = normalise(written)
    if only and not any(fnmatch.fnmatchcase(path, pattern) for pattern in only):
        raise PatchError(
            f"{written} is outside the files this run may change (--only {' '.join(only)})",
            "widen --only, or drop this block",
        )
    real = resolve_real(root, written)  # two names of one file are one document
    state = files.get(real)
    if state is None:
        source = load(root, written)
        if source.readonly and not force:
            raise PatchError(
                f"Refusing to write {written}: it is read-only",
                "make it writable (chmod u+w), or pass --force",
            )
        opened = open_document(source, root)
        state = _FileState(opened, source.to_bytes() if source.exists else None, opened=opened)
        if not force and prompt_record.recorded(root):  # else staleness has no record to read
            from kopipasta.code.read import staleness

            state.stale = staleness.changed_since_prompt(root, source, opened)
        files[real] = state
    state.names.add(path)
    return real, state


def _apply_text_block(
    block: Block, text_patch: TextPatch, root: Path, files: dict[str, _FileState], options: _Options
) -> list[Outcome]:
    """A diff, search/replace or envelope block (PROTOCOL.md §8): every file it touches, or none."""
    touched: list[str] = []
    real_of: dict[str, str] = {}  # the block's normalised paths → their documents' keys

    def current(path: str) -> Document:
        real, state = _file_state(root, files, path, options.only, options.force)
        real_of[normalise(path)] = real
        if real not in touched:
            touched.append(real)
        return state.document

    # Text patches only: a reply of TARGET_NODE blocks does not pay for their modules.
    from kopipasta.text.files import apply_text_patch

    label = text_patch.form
    try:
        results = apply_text_patch(text_patch, current, allow_delete=options.allow_delete)
    except Exception as error:  # noqa: BLE001 — a bug must still be one line, never a traceback
        for path in touched:
            files[path].fail(block.index)
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
            state = files[real_of.get(path, path)]
            before, existed = state.document.source.data, state.document.source.exists
            source = state.document.source
            if path == result.path:
                state.document = state.document.with_source(
                    replace(source, data=result.data, exists=result.exists, bom=result.bom), result.tree
                )
            else:
                state.document = state.document.with_source(replace(source, data=b"", exists=False))
            state.blocks.append(block.index)
        if result.moved_from is not None:
            source_key, target_key = real_of.get(result.moved_from, result.moved_from), real_of.get(result.path, result.path)
            files[source_key].renamed_with.append(target_key)
            files[target_key].renamed_with.append(source_key)
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


# Bytes compared at a time while looking for where two versions of a file start to differ.
_STRIDE = 64 * 1024


def _common_prefix(a: bytes, b: bytes) -> int:
    """Length of the common prefix."""
    return _agreeing_length(min(len(a), len(b)), lambda i, j: a.startswith(memoryview(b)[i:j], i))


def _common_suffix(a: bytes, b: bytes) -> int:
    """Length of the common suffix."""
    return _agreeing_length(
        min(len(a), len(b)), lambda i, j: a.endswith(memoryview(b)[len(b) - j : len(b) - i], 0, len(a) - i)
    )


def _agreeing_length(size: int, agree: Callable[[int, int], bool]) -> int:
    """The longest length ≤ size over which two byte strings agree, counted from one end.

    `agree(i, j)` says whether they agree from the i-th to the j-th byte from that end,
    given they agree over the first i. Equal strides are skipped at C speed, then a
    binary search runs in the first unequal one.
    """
    low = 0
    while low + _STRIDE <= size and agree(low, low + _STRIDE):
        low += _STRIDE
    high = min(low + _STRIDE, size)
    while low < high:  # they agree over the first `low` bytes: only the bytes after them are compared
        middle = (low + high + 1) // 2
        if agree(low, middle):
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
    return line_counts(old_lines, new_lines)


def _commit(
    project: journal.Project | None,
    outcomes: list[Outcome],
    files: dict[str, _FileState],
    *,
    strict: bool,
    partial: bool = False,
) -> Report:
    """Write the files whose blocks all succeeded (or, with `partial`, every changed file); None: dry run."""
    first_failure = next((o.block_index for o in outcomes if o.status is Status.FAILED), None)
    changes: list[FileChange] = []
    for path, state in files.items():
        # A file a text patch deleted has no bytes after (PROTOCOL.md §8, --allow-delete).
        after = state.document.source.to_bytes() if state.document.source.exists else None
        if after is not None and state.original is not None and after != state.original and newlines.is_mixed(state.original):
            after = newlines.keep_styles(state.original, after)
        # A rename's two ends go together: a source is never deleted when its copy is held back.
        failed_block = next(
            (files[p].failed_block for p in (path, *state.renamed_with) if files[p].failed_block is not None), None
        )
        if failed_block is not None and partial and not strict:
            if after != state.original:
                _note_partial(outcomes, state.blocks, failed_block, state.names)
                changes.append(FileChange(path, state.original, after))
        elif failed_block is not None:
            _hold_back(outcomes, state.blocks, f"not written: block {failed_block} on this file failed", state.names)
        elif strict and first_failure is not None:
            _hold_back(outcomes, state.blocks, f"not written: --strict, and block {first_failure} failed", state.names)
        elif after != state.original:
            changes.append(FileChange(path, state.original, after))
    if not changes or project is None:
        return Report(tuple(outcomes), tuple(changes), written=False)
    # Every file or none (kopipasta.disk.transaction); without --strict a file that
    # cannot be written is dropped and the others are tried again.
    while changes:
        try:
            journal.write_changes(project, changes)
            if prompt_record.recorded(project.root):  # else there is no record to keep current
                from kopipasta.code.read import staleness

                staleness.after_write(
                    project.root,
                    [(c.path, c.before, c.after) for c in changes if c.before is not None and c.after is not None],
                    [d for c in changes for d in (files[c.path].opened, files[c.path].document) if d is not None],
                )
            return Report(tuple(outcomes), tuple(changes), written=True)
        except journal.WriteFailed as failure:
            failed = next((c for c in changes if c.path == failure.path), None)
            _fail_file(outcomes, files, failure)
            if strict or not failure.rolled_back or failed is None:
                for change in changes:
                    if change is not failed:
                        _hold_back(
                            outcomes, files[change.path].blocks, f"not written: writing {failure.path} failed", files[change.path].names
                        )
                return Report(tuple(outcomes), (), written=False)
            changes.remove(failed)
    return Report(tuple(outcomes), (), written=False)


def _fail_file(outcomes: list[Outcome], files: dict[str, _FileState], failure: journal.WriteFailed) -> None:
    """The blocks of the file that could not be written fail with the reason."""
    state = files.get(failure.path)
    blocks = state.blocks if state else []
    hint = "" if failure.rolled_back else "some files may be written: `kopipasta undo` puts every file of this apply back"
    for i, outcome in enumerate(outcomes):
        if outcome.block_index in blocks and outcome.status in (Status.APPLIED, Status.UNCHANGED):
            outcomes[i] = replace(outcome, status=Status.FAILED, message=str(failure), hint=hint, lines_added=0, lines_removed=0)
    if not blocks:  # the failure is not one file's (the journal): every applied block fails
        for i, outcome in enumerate(outcomes):
            if outcome.status is Status.APPLIED:
                outcomes[i] = replace(outcome, status=Status.FAILED, message=str(failure), hint=hint)


def _note_partial(outcomes: list[Outcome], block_indices: list[int], failed_block: int, names: set[str]) -> None:
    """--partial: say on each block that is written that its file goes without the failed one."""
    for i, outcome in enumerate(outcomes):
        if outcome.block_index in block_indices and outcome.file in names and outcome.status is Status.APPLIED:
            note = f"written without failed block {failed_block} (--partial)"
            outcomes[i] = replace(outcome, message=f"{outcome.message}; {note}" if outcome.message else note)


def _hold_back(outcomes: list[Outcome], block_indices: list[int], reason: str, names: set[str]) -> None:
    """Blocks that applied in memory but whose file is not written are reported as skipped."""
    for i, outcome in enumerate(outcomes):
        if outcome.block_index in block_indices and outcome.file in names and outcome.status is Status.APPLIED:
            outcomes[i] = replace(outcome, status=Status.SKIPPED, message=reason)


__all__ = ["apply_reply", "ReplyError", "Operation"]
