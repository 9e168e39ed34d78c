"""apply_reply: one reply through the whole pipeline (docs/ARCHITECTURE.md).

Every block is planned, resolved, spliced and checked in memory, in reply
order; only then are the files whose blocks all succeeded written, each
atomically. Nothing before `commit` touches the disk, so a dry run is simply
"stop before commit".
"""

from __future__ import annotations

import errno
import fnmatch
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from kopipasta.code.edit.operations import apply_patch
from kopipasta.code.find.document import Document, DocumentCache, open_document
from kopipasta.code.read.guard import check_write
from kopipasta.disk import faults, journal, limits, lock, newlines, own_settings, prompt_record
from kopipasta.disk.workspace import load, normalise, resolve_real
from kopipasta.errors import PatchError, ReplyError
from kopipasta.intake.alternatives import ALTERNATIVES_OFFERED, Choice, find_alternatives
from kopipasta.intake.plan import plan
from kopipasta.intake.reader import RESET_MARKER, read_reply
from kopipasta.intake.textpatch_markers import may_be_text_patch
from kopipasta.model import Block, FileChange, Operation, Outcome, Patch, Report, Status
from kopipasta.startup.line_counts import line_counts
from kopipasta.startup.shared_ends import common_prefix, common_suffix
from kopipasta.startup.shortrun import keep_until_exit

if TYPE_CHECKING:
    from collections.abc import Callable

    from kopipasta.code.read import staleness
    from kopipasta.intake.textpatch_syntax import TextPatch
    from kopipasta.text.files import FileResult


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
    documents: DocumentCache | None = None,
    leave_out: tuple[int, ...] = (),
) -> Report:
    """Apply every patch of `text` under `root`; see PROTOCOL.md §7 for the rules.

    `leave_out`: the indices of blocks not to apply, the alternatives the user did not
    choose (intake/alternatives.py); each is reported skipped.

    `partial` writes a file even when one of its blocks failed, with just the
    blocks that succeeded (each checked as always); the user asked for it.

    A real apply holds the root's lock from the first read to the last write
    (kopipasta.disk.lock); `force` writes read-only files and targets changed
    since the prompt. Raises journal.JournalError when the root is busy or its
    journal cannot be trusted. `documents` keeps files' Documents between
    applies in a long-running caller (the MCP server): see apply_blocks.
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
    options = _Options(
        strict=strict, only=only, partial=partial, force=force, notes=notes, allow_delete=allow_delete, documents=documents,
        leave_out=leave_out,
    )
    return _run(blocks, root, options, dry_run=dry_run)


def apply_blocks(
    blocks: list[Block],
    root: Path,
    *,
    dry_run: bool = False,
    strict: bool = False,
    partial: bool = False,
    force: bool = False,
    allow_delete: bool = False,
    documents: DocumentCache | None = None,
    since_prompt: bool = True,
    accept: Callable[[tuple[FileChange, ...]], bool] | None = None,
) -> Report:
    """Apply blocks a caller built itself (the MCP server's single-edit tools), as `apply_reply` would.

    Each block is planned, resolved and checked exactly as a block read from a
    reply: same Patch, same refusals, same hints. `documents`, when given, is
    asked for each file's Document (it reuses one only while the file's bytes
    are the same) and told the version each write leaves on disk.
    `since_prompt` False skips the check that a target did not change since a
    prompt showed it: a caller that names definitions as they are now (an
    agent that read the file) is not answering that prompt.
    `accept`, when given, sees the changes about to be written and may decline
    them (returns False): then nothing is written and the report holds no change
    (edit_definition's net: exactly its one replace, in one pass, not a dry run first).
    """
    options = _Options(
        strict=strict, only=(), partial=partial, force=force, notes=(), allow_delete=allow_delete, documents=documents,
        since_prompt=since_prompt, accept=accept,
    )
    return _run(blocks, root, options, dry_run=dry_run)


def _run(blocks: list[Block], root: Path, options: _Options, *, dry_run: bool) -> Report:
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
    documents: DocumentCache | None = None  # Documents kept between applies (a long-running caller)
    since_prompt: bool = True  # refuse targets changed since a prompt showed them (unless force)
    leave_out: tuple[int, ...] = ()  # blocks the user chose against (alternatives)
    accept: Callable[[tuple[FileChange, ...]], bool] | None = None  # the caller's last word on the changes


def _apply_blocks(
    blocks: list[Block], root: Path, project: journal.Project | None, options: _Options
) -> Report:
    """Every block in memory, then the commit; `project` is None for a dry run."""
    notes = options.notes
    outcomes: list[Outcome] = []
    files: dict[str, _FileState] = {}
    keep_until_exit(files)  # a short run leaves with os._exit: its files' trees need no freeing
    # "Option 1 / Option 2" on one definition: the user picks (issue 19); those not picked are left out.
    choices = find_alternatives([b for b in blocks if b.index not in options.leave_out])
    for block in blocks:
        if block.file is None and (block.prose_paths or block.comment_paths or block.paragraph_paths):
            block = _named_in_prose(block, root)
        if block.index in options.leave_out:
            outcomes.append(
                Outcome(block.index, block.line, block.file, None, None, Status.SKIPPED, "left out: you chose another of the alternatives")
            )
            continue
        choice = choices.get(block.index)
        if choice is not None or (block.cut_off and block.file is not None):
            outcomes.append(_offered(block, choice) if choice is not None else _cut_off(block))
            _hold_file(root, files, block, options)
            continue
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
            outcomes.append(_apply_block(block, root, files, options))
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
    report = _commit(
        project, outcomes, files, strict=options.strict, partial=options.partial, documents=options.documents,
        accept=options.accept,
    )
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
        _, state = _file_state(root, files, block.file, options)
    except (PatchError, OSError):
        return  # the path itself is refused: no document to hold back
    state.fail(block.index)


def _offered(block: Block, choice: Choice) -> Outcome:
    """A block the reply offers as one of several alternatives for a definition: not applied."""
    shown = " or ".join(f"block {i}" for i in choice.blocks)
    # One message for every block of the choice (the report prints it once), under the
    # definition's name: it is one question, which of them, not one failure per block.
    outcome = _failed(
        block,
        None,
        f"{block.file}: the reply offers alternatives for {choice.name}: {shown}, and which one it means is not certain",
        "keep the block you choose and delete the others from the reply, then apply it again "
        "(the session offers them as keys 1, 2, …)",
        ALTERNATIVES_OFFERED,
    )
    return replace(outcome, operation=Operation.REPLACE_NODE, target=choice.name)


def _cut_off(block: Block) -> Outcome:
    """A block whose fence never closes: the reply was cut off, and the block may be too (issue 19).

    A truncated Python function still parses (its last lines simply missing), so no check
    after the fact can tell; the unclosed fence is the one sign, and it is refused.
    """
    return _failed(
        block,
        None,
        f"Cannot apply block {block.index} to {block.file}: its fence never closes, so the reply was cut off "
        "and the block may be too",
        "ask the model to finish (or resend) it; if the block is complete, close it with ``` and apply again",
        "PayloadError",
    )


def _reply_error(message: str) -> Report:
    return Report((), (), written=False, reply_error=message)


def _apply_block(block: Block, root: Path, files: dict[str, _FileState], options: _Options) -> Outcome:
    patch: Patch | None = None
    state: _FileState | None = None
    try:
        patch = plan(block)
        if patch is None:
            return Outcome(block.index, block.line, None, None, None, Status.SKIPPED, "no FILE: explanation, not a patch")
        if patch.operation is not Operation.WHOLE_FILE:  # before the file is read (disk/limits.py)
            too_big = limits.payload_problem(len(patch.payload.encode("utf-8", "surrogatepass")))
            if too_big:
                raise PatchError(*too_big.split(" — ", 1))
        path = normalise(patch.file)
        real, state = _file_state(root, files, patch.file, options)
        if state.stale is not None:  # only a file a prompt recorded, changed since (staleness.check)
            from kopipasta.code.read import staleness

            staleness.check(patch, state.stale)
        before = state.document.source.data
        faults.hit("patch", patch.file)
        edit = apply_patch(patch, state.document)
        if state.stale is not None and patch.operation is Operation.WHOLE_FILE:
            # After reading, not before: a fragment replaces only its definitions (issue 21, item 5).
            from kopipasta.code.read import staleness

            staleness.check_file_block(patch, state.stale, edit.reading, edit.data)
        own_settings.refuse_settings_change(
            patch.file, real, before if state.document.source.exists else None, edit.data, root=root
        )
        after = state.document.after(edit.data, edit.tree)
        # The net under every reading (code/read/guard.py): nothing the block does not mention is lost.
        check_write(patch, state.document, after, edit.reading)
        state.document = after
        added, removed = _line_counts(before, edit.data)
        status = Status.UNCHANGED if edit.data == before and state.document.source.exists else Status.APPLIED
        state.blocks.append(block.index)
        return Outcome(
            block.index, block.line, path, patch.operation, patch.target, status, edit.note, "", added, removed, edit.reading
        )
    except PatchError as error:
        if state is not None:
            state.fail(block.index)
        return _failed(block, patch, error.message, error.hint, type(error).__name__, error.reading)
    except (OSError, MemoryError, RecursionError) as error:
        if state is not None:
            state.fail(block.index)
        message, hint = _system_failure(patch.file if patch else block.file or "the reply", error)
        return _failed(block, patch, message, hint, type(error).__name__)
    except Exception as error:  # noqa: BLE001 — a bug must still be one line, never a traceback
        if state is not None:
            state.fail(block.index)
        return _failed(
            block, patch, f"Internal error ({type(error).__name__}: {error})",
            "this is a bug in kopipasta; please report it with the reply", "InternalError",
        )


def _system_failure(file: str, error: BaseException) -> tuple[str, str]:
    """An OS or resource failure is not a bug: name the file and the cause."""
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
    if error.errno == errno.ENXIO:  # what opening a socket (or a FIFO without a writer) says
        return f"Cannot read {file}: it is not a regular file (a socket or a FIFO)", "check the path"
    return f"Cannot read {file}: {reason}", "check the path and its permissions"


def _file_state(root: Path, files: dict[str, _FileState], written: str, options: _Options) -> tuple[str, _FileState]:
    """The document of the file a block names, loaded once per real file; its key in `files`."""
    only, force = options.only, options.force
    path = normalise(written)
    real = resolve_real(root, written)  # two names of one file are one document
    # The file the write lands in is what --only allows or not: `src/lnk -> ../secret`
    # matches 'src/*' as written, and writes secret/ (issue 18, item 9).
    if only and not (_only_allows(path, only) and _only_allows(real, only)):
        shown = written if real == path else f"{written} (really {real})"
        raise PatchError(
            f"{shown} is outside the files this run may change (--only {' '.join(only)})",
            "widen --only, or drop this block",
        )
    own_settings.refuse_settings_file(written, real, root=root)
    state = files.get(real)
    if state is None:
        source = load(root, written)
        if source.readonly and not force:
            raise PatchError(
                f"Refusing to write {written}: it is read-only",
                "make it writable (chmod u+w), or pass --force",
            )
        opened = options.documents.open(source, root) if options.documents is not None else open_document(source, root)
        state = _FileState(opened, source.to_bytes() if source.exists else None, opened=opened)
        if not force and options.since_prompt and prompt_record.recorded(root):  # else no record to read
            from kopipasta.code.read import staleness

            state.stale = staleness.changed_since_prompt(root, source, opened)
        files[real] = state
    state.names.add(path)
    return real, state


def _only_allows(path: str, only: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in only)


def _apply_text_block(
    block: Block, text_patch: TextPatch, root: Path, files: dict[str, _FileState], options: _Options
) -> list[Outcome]:
    """A diff, search/replace or envelope block (PROTOCOL.md §8): every file it touches, or none."""
    from kopipasta.text.rooted import rooted

    text_patch = rooted(text_patch, root)  # Claude Code's absolute paths
    touched: list[str] = []
    real_of: dict[str, str] = {}  # the block's normalised paths → their documents' keys

    def current(path: str) -> Document:
        real, state = _file_state(root, files, path, options)
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
        elif isinstance(error, (OSError, MemoryError, RecursionError)):  # the OS's answer, not a bug
            named = getattr(error, "filename", None)
            if isinstance(named, str) and any(named in (f.path, f.move_to) for f in text_patch.files):
                failing = named
            failing = failing or (text_patch.files[0].path if text_patch.files else None)
            message, hint = _system_failure(failing or "the reply", error)
            kind = type(error).__name__
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
    try:
        _refuse_settings_changes(results, files, real_of, root)
    except PatchError as error:
        for path in touched:
            files[path].fail(block.index)
        return [
            Outcome(
                block.index, block.line, touched[-1] if touched else block.file, Operation.TEXT_PATCH, label,
                Status.FAILED, error.message, error.hint, failure_kind=type(error).__name__,
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


def _refuse_settings_changes(
    results: list[FileResult], files: dict[str, _FileState], real_of: dict[str, str], root: Path
) -> None:
    """A text patch may not change [tool.kopipasta] either: created, changed, deleted or renamed away."""
    for result in results:
        ends = [(result.path, result.data if result.exists else None)]
        if result.moved_from is not None:
            ends.append((result.moved_from, None))
        for path, after in ends:
            real = real_of.get(path, path)
            source = files[real].document.source
            own_settings.refuse_settings_change(path, real, source.data if source.exists else None, after, root=root)


def _failed(block: Block, patch: Patch | None, message: str, hint: str, kind: str, reading: str = "") -> Outcome:
    return Outcome(
        block.index,
        block.line,
        patch.file if patch else block.file,
        patch.operation if patch else None,
        patch.target if patch else None,
        Status.FAILED,
        message,
        hint,
        reading=reading,
        failure_kind=kind,
    )


def _line_counts(before: bytes, after: bytes) -> tuple[int, int]:
    """Lines added and removed, diffing only the region that changed."""
    if before == after:
        return 0, 0
    prefix = before.rfind(b"\n", 0, common_prefix(before, after)) + 1
    limit = min(len(before), len(after)) - prefix
    suffix = min(common_suffix(before, after), limit)
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
    documents: DocumentCache | None = None,
    accept: Callable[[tuple[FileChange, ...]], bool] | None = None,
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
                changes.append(_change(path, state, after))
        elif failed_block is not None:
            _hold_back(outcomes, state.blocks, f"not written: block {failed_block} on this file failed", state.names)
        elif strict and first_failure is not None:
            _hold_back(outcomes, state.blocks, f"not written: --strict, and block {first_failure} failed", state.names)
        elif after != state.original:
            changes.append(_change(path, state, after))
    if changes and accept is not None and not accept(tuple(changes)):
        return Report(tuple(outcomes), (), written=False)
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
            if documents is not None:
                for change in changes:
                    documents.written(files[change.path].document, change.after)
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


def _change(path: str, state: _FileState, after: bytes | None) -> FileChange:
    """A file's change; a rename's new name says which path it had (its old name's change deletes it)."""
    renamed_from = state.renamed_with[0] if state.original is None and state.renamed_with else None
    return FileChange(path, state.original, after, renamed_from)


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


__all__ = ["apply_reply", "apply_blocks", "ReplyError", "Operation"]
