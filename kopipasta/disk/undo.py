"""`kopipasta undo`: the newest apply of the journal put back, byte for byte.

The journal (journal.py) records what every apply replaced; undo restores the
newest entry's files, deletes what that apply created, and refuses when a file
was changed since (checked by hash) unless forced. Each undo removes its entry,
so repeated undos step back through the applies, newest first. Its own module
(issue 9): an apply, which only records, does not build what an undo returns.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kopipasta.disk import beneath, lock, transaction
from kopipasta.disk.digest import sha256_hex
from kopipasta.disk.journal import (
    STATE_DIR,
    Project,
    entry_names,
    open_journal,
    record_undo_dirs,
    remove_flat_dir,
    writing,
)
from kopipasta.disk.manifest import (
    ChangedSince,
    JournalError,
    check_path,
    read_blobs,
    read_manifest,
)
from kopipasta.disk.shown_path import os_error_text
from kopipasta.disk.workspace import new_file_mode
from kopipasta.errors import PatchError
from kopipasta.model import FileChange


@dataclass(frozen=True)
class UndoResult:
    """What an undo put back, and how many applies the journal still holds."""

    entry: str  # the journal entry that was undone
    restored: tuple[str, ...]  # files put back to their previous bytes
    deleted: tuple[str, ...]  # files the apply had created, now removed
    remaining: int  # applies still in the journal
    changes: tuple[FileChange, ...] = ()  # what the undo wrote: each file's bytes before and after it


def undo_newest(root: Path, *, force: bool = False, entry: str | None = None) -> UndoResult:
    """Put back the newest apply; refuse if a file it wrote has changed since, unless forced.

    `entry`, when given, must be the newest entry's name: a caller that
    reverts the apply it just made says so, and nothing older is ever undone
    in its place.
    """
    try:
        with writing(root) as project:
            return _undo(project, force=force, entry=entry)
    except lock.Busy as busy:
        raise JournalError(str(busy).replace("Not applied", "Not undone")) from None
    except PatchError as error:  # a folder of a journaled file became a symlink since the checks
        raise JournalError(f"Cannot undo: {error.message} — nothing was changed") from None
    except OSError as error:
        raise JournalError(f"Cannot undo: {os_error_text(root, error)}") from None


def _undo(project: Project, *, force: bool, entry: str | None) -> UndoResult:
    journal_fd = open_journal(project.root_fd)
    entries = entry_names(journal_fd) if journal_fd is not None else []
    if journal_fd is None or not entries:
        if journal_fd is not None:
            os.close(journal_fd)
        raise JournalError(f"Nothing to undo: no apply is recorded in {STATE_DIR}/")
    try:
        name = entries[-1]
        if entry is not None and name != entry:
            raise JournalError(f"Not undone: the newest apply in the journal is {name}, not {entry}")
        files = read_manifest(journal_fd, name)
        for item in files:
            check_path(project.root, name, item)
        befores = read_blobs(journal_fd, name, files)
        writes, changed = _undo_writes(project.root_fd, files, befores)
        if changed and not force:
            raise ChangedSince(f"Refusing to undo: changed since that apply: {', '.join(changed)}", tuple(changed))
        missing = _refuse_many_folders(project.root, name, writes)
        if missing:  # recorded first: an undo killed after making them leaves them for recovery
            record_undo_dirs(journal_fd, name, missing)
        try:
            transaction.commit(project.root_fd, writes, name + "-undo", new_file_mode())
        except transaction.CommitError as error:
            raise JournalError(f"Cannot undo {name}: {error.message}") from None
        for item in files:
            if item["created"]:
                transaction.remove_empty_dirs(project.root_fd, item.get("created_dirs", []))
        remove_flat_dir(journal_fd, name)
        restored = tuple(item["path"] for item in files if not item["created"])
        deleted = tuple(item["path"] for item in files if item["created"])
        changes = tuple(FileChange(w.path, w.expected, w.data) for w in writes)
        return UndoResult(name, restored, deleted, len(entries) - 1, changes)
    finally:
        os.close(journal_fd)


# An undo puts back files that existed before the apply: their folders existed then. A few
# may have gone since (a folder the user removed, `--force`); thousands are a manifest that
# was tampered with to make undo build a tree (issue 18, item 9).
MAX_FOLDERS_UNDO_CREATES = 64


def _refuse_many_folders(root: Path, entry: str, writes: list[transaction.FileWrite]) -> list[str]:
    """The folders restoring would create; refused before writing when more than MAX_FOLDERS_UNDO_CREATES.

    The paths were checked (manifest.check_path): relative, normal, no symlink on the
    way, so a folder that is not a directory under the root is one the commit would make.
    """
    missing: set[str] = set()
    real_root = os.path.realpath(root)
    for write in writes:
        if write.data is None:
            continue
        parts = write.path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            folder = "/".join(parts[:depth])
            if folder in missing or not os.path.isdir(os.path.join(real_root, folder)):
                missing.update("/".join(parts[:d]) for d in range(depth, len(parts) + 1))
                break
        if len(missing) > MAX_FOLDERS_UNDO_CREATES:
            raise JournalError(
                f"Refusing to undo {entry}: it would create more than {MAX_FOLDERS_UNDO_CREATES} folders "
                "that are not there now; its journal entry does not look like an apply's — "
                f"inspect {STATE_DIR}/journal/{entry}/manifest.json, or remove that entry"
            )
    return sorted(missing)


def _undo_writes(
    root_fd: int, files: list[dict[str, Any]], befores: dict[str, bytes]
) -> tuple[list[transaction.FileWrite], list[str]]:
    """What undo must write, and which files were changed since the apply."""
    writes: list[transaction.FileWrite] = []
    changed: list[str] = []
    for item in files:
        path = item["path"]
        found = beneath.read_file(root_fd, path)
        if found is not None and not stat.S_ISREG(found[1].st_mode):
            raise JournalError(f"Cannot undo: {path} is no longer a regular file")
        current = found[0] if found is not None else None
        before = befores.get(path)
        current_digest = sha256_hex(current) if current is not None else None
        if current_digest != item["after"] and current != before:
            changed.append(path)
        if current != before:
            writes.append(transaction.FileWrite(path, current, before))
    return writes, changed

