"""The undo journal: what every apply that writes replaced, so it can be put back.

Before an apply writes, the previous bytes of each file it touches (and which
files and folders it creates) are stored under `.kopipasta/disk/journal/` in the
project root, a folder that tells git to ignore it. `undo.undo_newest` restores
the newest entry byte for byte, deletes what that apply created, and refuses
when a file was changed since (checked by hash) unless forced. Each undo removes
its entry, so repeated undos step back through the applies, newest first. Only
the newest `HISTORY` applies are kept.

An entry is a folder `NNNNNN-<unix time>/` holding `manifest.json` and one
`<i>.before` blob per overwritten file. It is staged under a temporary name
and renamed into place before any project file is touched, and a `complete`
file is added once every file is written. An entry without it (version 2)
is an apply that was interrupted while writing: the next command says so,
and `undo` restores every file of it (a file still holding its old bytes
needs nothing).

The journal is trusted no more than a reply: every manifest is checked
(`kopipasta.disk.manifest`: types, paths confined like reply paths, each
blob's sha256) before anything is changed, and `.kopipasta/` reached through a symlink is refused. All of it
is read and written through `kopipasta.disk.beneath`, never following a link.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kopipasta.disk import beneath, faults, lock, syncs, transaction
from kopipasta.disk.digest import sha256_hex
from kopipasta.disk.manifest import MANIFEST as _MANIFEST
from kopipasta.disk.manifest import VERSION as _VERSION
from kopipasta.disk.manifest import ChangedSince, JournalError, read_manifest
from kopipasta.disk.workspace import new_file_mode, normalise
from kopipasta.errors import PatchError
from kopipasta.model import FileChange
from kopipasta.startup.lazy_pattern import lazy_compile

__all__ = ["ChangedSince", "JournalError", "WriteFailed", "depth", "newest", "write_changes"]

STATE_DIR = ".kopipasta"
HISTORY = 20  # applies kept; older entries are dropped
_JOURNAL = "journal"
_COMPLETE = "complete"
# The folders an undo is about to create (the user removed them since the apply), written into
# the entry before the first is made: an undo killed then leaves them empty, and the next
# command's recovery removes those still empty (issue 28, item 10). A finished undo drops the
# entry, file and all.
UNDO_DIRS = "undo-dirs.json"
_GITIGNORE = "# kopipasta's state (undo journal): never committed\n*\n"
_ENTRY_NAME = lazy_compile(r"^(\d{6,})-\d+$")
_STAGING_PREFIX = ".staging-"
_DROPPED_PREFIX = ".dropped-"  # an entry past HISTORY, out of the list, its files being removed


class WriteFailed(JournalError):
    """The apply's files could not be written; `path` is the file, `rolled_back` whether none is."""

    def __init__(self, message: str, path: str, rolled_back: bool) -> None:
        super().__init__(message)
        self.path = path
        self.rolled_back = rolled_back


@dataclass
class Project:
    """A root opened for writing: its descriptor, held under the lock."""

    root: Path
    root_fd: int
    notes: list[str] = field(default_factory=list)  # what recovery found, for the report


def _digest(data: bytes) -> str:
    return sha256_hex(data)


def _refuse_symlinked_state() -> JournalError:
    return JournalError(
        f"Refusing the journal: {STATE_DIR}/ or a folder in it is a symlink, "
        "and the journal is only kept inside the project (remove the link)"
    )


@contextmanager
def writing(root: Path) -> Iterator[Project]:
    """The root opened, locked against other applies, and recovered from an interrupted one."""
    with beneath.root_descriptor(root) as root_fd, lock.hold(root_fd):
        project = Project(root, root_fd)
        project.notes.extend(recover(root_fd))
        yield project


# -- reading the journal ---------------------------------------------------------------


def open_journal(root_fd: int, *, create: bool = False) -> int | None:
    """A descriptor of .kopipasta/disk/journal/, or None when there is none (and not `create`)."""
    try:
        if create:
            _ensure_state_dir(root_fd)
        return beneath.open_dir(root_fd, f"{STATE_DIR}/{_JOURNAL}", [STATE_DIR, _JOURNAL], create=create)
    except FileNotFoundError:
        return None
    except PatchError:
        raise _refuse_symlinked_state() from None
    except OSError as error:
        if error.errno == errno.ENOTDIR:
            raise JournalError(f"Refusing the journal: {STATE_DIR} is not a folder") from None
        raise


def _ensure_state_dir(root_fd: int) -> None:
    os.close(ensure_state_dir_fd(root_fd))


def ensure_state_dir_fd(root_fd: int) -> int:
    """`.kopipasta/` under the root, with a .gitignore that ignores the folder itself; its descriptor."""
    try:
        state_fd = beneath.open_dir(root_fd, STATE_DIR, [STATE_DIR], create=True)
    except PatchError:
        raise _refuse_symlinked_state() from None
    try:
        if beneath.lstat_at(state_fd, ".gitignore") is None:
            with suppress(FileExistsError):
                beneath.write_temporary(state_fd, ".gitignore", _GITIGNORE.encode(), 0o644)
    except BaseException:
        os.close(state_fd)
        raise
    return state_fd


class NotRegular(OSError):
    """A state file is a FIFO, a device or a socket: kopipasta leaves it alone."""


def append_state_line(root: Path, name: str, line: str) -> None:
    """Append one line to `.kopipasta/<name>`, never through a symlink, never into a FIFO.

    Raises NotRegular when something other than a regular file stands there: a FIFO
    opened for writing blocks until a reader comes (every apply and undo hung after
    its work), so it is opened without blocking and left alone.
    """
    with beneath.root_descriptor(root) as root_fd:
        state_fd = ensure_state_dir_fd(root_fd)
        try:
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
            try:
                fd = os.open(name, flags, 0o644, dir_fd=state_fd)
            except OSError as error:
                if error.errno == errno.ENXIO:  # a FIFO with no reader
                    raise NotRegular(f"{STATE_DIR}/{name} is not a regular file") from None
                raise
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise NotRegular(f"{STATE_DIR}/{name} is not a regular file")
                os.write(fd, (line + "\n").encode("utf-8"))
            finally:
                os.close(fd)
        finally:
            os.close(state_fd)


def replace_state_file(root: Path, name: str, payload: bytes) -> None:
    """Put `payload` in `.kopipasta/<name>` whole: a temporary beside it, then a rename, never through a symlink."""
    with beneath.root_descriptor(root) as root_fd:
        state_fd = ensure_state_dir_fd(root_fd)
        try:
            temporary = f".{name}.{os.getpid()}.tmp"
            beneath.unlink_quietly(state_fd, temporary)
            beneath.write_temporary(state_fd, temporary, payload, 0o644)
            os.rename(temporary, name, src_dir_fd=state_fd, dst_dir_fd=state_fd)
        finally:
            os.close(state_fd)


def entry_names(journal_fd: int, listed: Sequence[str] | None = None) -> list[str]:
    """Entry folders, oldest first (of `listed`, the folder's names, when the caller has them);
    anything else in the folder is ignored."""
    names = []
    for name in os.listdir(journal_fd) if listed is None else listed:
        match = _ENTRY_NAME.match(name)
        if match:
            names.append((int(match.group(1)), name))
    return [name for _, name in sorted(names)]


def _entries(root: Path) -> list[str]:
    with beneath.root_descriptor(root) as root_fd:
        journal_fd = open_journal(root_fd)
        if journal_fd is None:
            return []
        try:
            return entry_names(journal_fd)
        finally:
            os.close(journal_fd)


def depth(root: Path) -> int:
    """How many applies can be undone."""
    try:
        return len(_entries(root))
    except (OSError, JournalError):
        return 0


def newest(root: Path) -> str | None:
    """The name of the newest journal entry, or None when there is none."""
    try:
        entries = _entries(root)
    except (OSError, JournalError):
        return None
    return entries[-1] if entries else None


def remove_flat_dir(parent_fd: int, name: str) -> None:
    """Remove a folder holding only files (an entry, a staging folder), never following links."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent_fd)
    except OSError:
        beneath.unlink_quietly(parent_fd, name)  # a symlink or file planted in its place
        return
    try:
        for child in os.listdir(fd):
            beneath.unlink_quietly(fd, child)
    finally:
        os.close(fd)
    with suppress(OSError):
        os.rmdir(name, dir_fd=parent_fd)


# -- recording -------------------------------------------------------------------------


def _created_dirs(root_fd: int, relative: str) -> list[str]:
    """The folders above `relative` that do not exist yet, deepest first."""
    parts = relative.split("/")[:-1]
    fd = os.dup(root_fd)
    missing_from = len(parts)
    try:
        for depth_, part in enumerate(parts):
            try:
                child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=fd)
            except OSError:
                missing_from = depth_
                break
            os.close(fd)
            fd = child
    finally:
        os.close(fd)
    return ["/".join(parts[: i + 1]) for i in range(len(parts) - 1, missing_from - 1, -1)]


def _record(project: Project, changes: Sequence[FileChange], *, synced: bool = True) -> tuple[str, int]:
    """Store what `changes` will overwrite, before anything is written: (entry name, journal fd).

    `synced=False` leaves the journal folder's fsync (the entry's publication) to the caller,
    who waits for it beside the temporaries' before the first rename.
    """
    journal_fd = open_journal(project.root_fd, create=True)
    assert journal_fd is not None
    staging = f"{_STAGING_PREFIX}{os.getpid()}-{time.monotonic_ns()}"
    try:
        os.mkdir(staging, 0o700, dir_fd=journal_fd)
        staging_fd = os.open(staging, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=journal_fd)
        unsynced: list[syncs.Unsynced] = []  # the copies and the manifest, synced together below
        try:
            files: list[dict[str, Any]] = []
            for i, change in enumerate(changes):
                after: bytes | None = change.after
                item: dict[str, Any] = {
                    "path": change.path,
                    "after": _digest(after) if after is not None else None,
                    "created": change.before is None,
                }
                if change.before is None:
                    item["created_dirs"] = _created_dirs(project.root_fd, change.path)
                else:
                    blob = f"{i}.before"
                    unsynced.append(beneath.write_unsynced(staging_fd, blob, change.before, 0o600))
                    faults.hit("journal-blob")
                    item["before"] = blob
                    item["before_sha256"] = _digest(change.before)
                files.append(item)
            manifest = {"version": _VERSION, "time": time.time(), "files": files}
            unsynced.append(beneath.write_unsynced(staging_fd, _MANIFEST, json.dumps(manifest, indent=1).encode(), 0o600))
            waiting, unsynced = unsynced, []
            syncs.sync_together(waiting)  # on disk before the entry is published
        finally:
            for pending in unsynced:
                os.close(pending.fd)
            os.close(staging_fd)
        faults.hit("journal-staged")
        entry = _publish(journal_fd, staging, synced=synced)
    except BaseException:
        remove_flat_dir(journal_fd, staging)
        os.close(journal_fd)
        raise
    return entry, journal_fd


def _publish(journal_fd: int, staging: str, *, synced: bool) -> str:
    """Rename the staged entry to the next free number (and fsync the journal folder if `synced`)."""
    for _ in range(100):
        existing = entry_names(journal_fd)
        number = int(existing[-1].split("-")[0]) + 1 if existing else 1
        name = f"{number:06d}-{int(time.time())}"
        try:
            os.rename(staging, name, src_dir_fd=journal_fd, dst_dir_fd=journal_fd)
        except OSError:
            if beneath.lstat_at(journal_fd, name) is not None:
                continue
            raise
        if synced:
            os.fsync(journal_fd)
        return name
    raise JournalError("Cannot add to the undo journal: too many concurrent applies")


def _mark_complete(journal_fd: int, entry: str) -> None:
    """Mark the entry complete, without a sync of its own (issue 26: the write at its floor).

    It is created only after the renames' folders were synced, so a mark on disk
    always means the files were; a mark lost to a power cut is told from the
    files themselves (`_is_complete`: every file holds the bytes the manifest
    recorded as `after`), so it needs no fsync, and neither does its folder.
    """
    fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=journal_fd)
    try:
        with suppress(FileExistsError):
            os.close(os.open(_COMPLETE, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=fd))
    finally:
        os.close(fd)


def write_changes(project: Project, changes: Sequence[FileChange]) -> str:
    """Journal `changes`, then write them all or none; returns the journal entry's name.

    Raises WriteFailed naming the file and the cause; with `rolled_back` no
    project file was changed and the entry is gone.
    """
    try:
        entry, journal_fd = _record(project, changes, synced=False)
    except OSError as error:
        raise WriteFailed(
            f"Cannot record the undo journal in {STATE_DIR}/: {error.strerror or error}", STATE_DIR, True
        ) from None
    try:
        writes = [transaction.FileWrite(c.path, c.before, c.after) for c in changes]
        replaced: list[int] = []
        try:
            transaction.commit(
                project.root_fd, writes, entry, new_file_mode(), also_sync=[journal_fd], replaced_files=replaced
            )
        except transaction.CommitError as error:
            if error.rolled_back:
                remove_flat_dir(journal_fd, entry)
            else:
                project.notes.append(_interrupted_note(entry))
            raise WriteFailed(error.message, error.path, error.rolled_back) from None
        faults.hit("before-complete")
        try:
            _mark_complete(journal_fd, entry)
        except OSError:
            project.notes.append(_interrupted_note(entry))
        _afterwards(journal_fd, entry_names(journal_fd)[:-HISTORY], replaced)
    finally:
        os.close(journal_fd)
    return entry


def _afterwards(journal_fd: int, past_history: Sequence[str], replaced: list[int]) -> None:
    """Free what the apply made garbage on a thread, beside the report: no one waits for it.

    Freeing blocks costs the disk milliseconds per file, more than the whole edit: the
    files the renames replaced are freed by their last close, and the entries past
    HISTORY by removing their copies. Those entries are first renamed out of the list
    (`entry_names` never sees them: microseconds), so the journal's depth is right
    when the command answers. A command's process waits for it before it exits
    (startup/workers.drain). It removes every `.dropped-` folder it finds, so one a kill
    left behind goes with the next.
    """
    dropping = False
    for old in past_history:
        try:
            os.rename(old, _DROPPED_PREFIX + old, src_dir_fd=journal_fd, dst_dir_fd=journal_fd)
            dropping = True
        except OSError:
            remove_flat_dir(journal_fd, old)
    if not dropping and not replaced:
        return
    from kopipasta.startup import workers

    folder = os.dup(journal_fd) if dropping else None
    kept = list(replaced)
    workers.submit(lambda: _free(folder, kept))  # with no thread to be had, freed here, as before


def _free(journal_fd: int | None, replaced: list[int]) -> None:
    for fd in replaced:
        with suppress(OSError):
            os.close(fd)
    if journal_fd is None:
        return
    try:
        for name in os.listdir(journal_fd):
            if name.startswith(_DROPPED_PREFIX):
                remove_flat_dir(journal_fd, name)
    finally:
        os.close(journal_fd)


def record(root: Path, changes: Sequence[FileChange]) -> str:
    """Journal `changes` without writing them (kept for callers and tests); returns the entry."""
    with beneath.root_descriptor(root) as root_fd:
        entry, journal_fd = _record(Project(root, root_fd), changes)
        try:
            _mark_complete(journal_fd, entry)
        finally:
            os.close(journal_fd)
    return entry


# -- recovery --------------------------------------------------------------------------


def _interrupted_note(entry: str) -> str:
    return (
        f"The apply recorded as {entry} was interrupted while writing its files: "
        "some may hold the new bytes — `kopipasta undo` puts every file of it back"
    )


def recover(root_fd: int) -> list[str]:
    """Clean up after a crashed apply: staging folders, temporaries; say if the newest is incomplete."""
    journal_fd = open_journal(root_fd)
    if journal_fd is None:
        return []
    try:
        listed = os.listdir(journal_fd)
        for name in listed:
            if name.startswith(_STAGING_PREFIX):
                remove_flat_dir(journal_fd, name)
        entries = entry_names(journal_fd, listed)
        notes: list[str] = []
        for entry in entries:
            if _is_complete(root_fd, journal_fd, entry):
                if entry == entries[-1]:
                    _remove_undo_temporaries(root_fd, journal_fd, entry)
                continue
            try:
                files = read_manifest(journal_fd, entry)
            except JournalError:
                continue
            for item in files:
                _remove_temporaries(root_fd, item["path"], entry)
            # Folders made for new files that never arrived: only empty ones go, so a file
            # the interrupted apply did put there (which undo removes) keeps its folder.
            transaction.remove_empty_dirs(
                root_fd, [d for item in files if item["created"] for d in item.get("created_dirs", [])]
            )
            if entry == entries[-1]:
                notes.append(_interrupted_note(entry))
        return notes
    finally:
        os.close(journal_fd)


def _is_complete(root_fd: int, journal_fd: int, entry: str) -> bool:
    with suppress(OSError):
        # The mark, in one stat (every apply asks this of every entry). An entry that is a symlink
        # is looked through here, and is refused by the open below when the mark is not there.
        os.stat(f"{entry}/{_COMPLETE}", dir_fd=journal_fd, follow_symlinks=False)
        return True
    try:
        fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=journal_fd)
    except OSError:
        return True  # not an entry we can read: undo will say so
    try:
        if beneath.lstat_at(fd, _COMPLETE) is not None:
            return True
        manifest = beneath.read_at(fd, _MANIFEST, _MANIFEST)[0]
        if json.loads(manifest).get("version", 1) < _VERSION:
            return True
    except (OSError, ValueError, AttributeError, TypeError, RecursionError, PatchError):
        return True
    finally:
        os.close(fd)
    return _written_through(root_fd, journal_fd, entry)


def _written_through(root_fd: int, journal_fd: int, entry: str) -> bool:
    """An entry without its mark whose every file holds its recorded `after` bytes: the mark was lost
    (it is written without a sync), not the apply interrupted. Marked now, so this is asked once."""
    try:
        files = read_manifest(journal_fd, entry)
    except JournalError:
        return False
    for item in files:
        try:
            folders, name = beneath.split(item["path"])
            dir_fd = beneath.open_dir(root_fd, item["path"], folders)
        except FileNotFoundError:
            if item["after"] is None:
                continue  # deleted, folder and all
            return False
        except (OSError, ValueError, PatchError):
            return False
        try:
            now = beneath.read_at(dir_fd, name, item["path"])[0] if beneath.lstat_at(dir_fd, name) is not None else None
        except (OSError, ValueError, PatchError):
            return False
        finally:
            os.close(dir_fd)
        if (_digest(now) if now is not None else None) != item["after"]:
            return False
    with suppress(OSError):
        _mark_complete(journal_fd, entry)
    return True


def _remove_undo_temporaries(root_fd: int, journal_fd: int, entry: str) -> None:
    """Temporaries an undo of `entry` left when it was killed, and the folders it made for them."""
    try:
        files = read_manifest(journal_fd, entry)
    except JournalError:
        return
    for item in files:
        _remove_temporaries(root_fd, item["path"], entry)
    _remove_undo_dirs(root_fd, journal_fd, entry)


def record_undo_dirs(journal_fd: int, entry: str, folders: Sequence[str]) -> None:
    """Write UNDO_DIRS into `entry` (synced) before the undo makes any of `folders`."""
    fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=journal_fd)
    try:
        beneath.unlink_quietly(fd, UNDO_DIRS)  # an earlier undo's, killed before it made them
        beneath.write_temporary(fd, UNDO_DIRS, json.dumps(sorted(folders)).encode(), 0o600)
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove_undo_dirs(root_fd: int, journal_fd: int, entry: str) -> None:
    try:
        fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=journal_fd)
    except OSError:
        return
    try:
        if beneath.lstat_at(fd, UNDO_DIRS) is None:
            return
        try:
            folders = json.loads(beneath.read_at(fd, UNDO_DIRS, UNDO_DIRS)[0])
        except (OSError, ValueError, RecursionError, PatchError):
            folders = None
        if isinstance(folders, list):  # tampered entries are checked like a manifest's created_dirs
            plain = [f for f in folders if isinstance(f, str) and f and "\x00" not in f and _plain(f)]
            transaction.remove_empty_dirs(root_fd, plain)
        beneath.unlink_quietly(fd, UNDO_DIRS)
    finally:
        os.close(fd)


def _plain(relative: str) -> bool:
    try:
        return normalise(relative) == relative
    except PatchError:
        return False


def _remove_temporaries(root_fd: int, relative: str, entry: str) -> None:
    try:
        folders, name = beneath.split(relative)
        dir_fd = beneath.open_dir(root_fd, relative, folders)
    except (OSError, ValueError, PatchError):  # ValueError: a NUL in a tampered path
        return
    try:
        for tag in (entry, entry + "-undo"):
            for each in (tag, transaction.rollback_tag(tag)):
                beneath.unlink_quietly(dir_fd, transaction.temporary_name(name, each))
    finally:
        os.close(dir_fd)
