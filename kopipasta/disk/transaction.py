"""Put a set of files in place all or nothing.

Phase one prepares everything that can fail: every folder is created, every
file is checked to still hold the bytes the apply read, and every new content
is written and fsynced to a temporary file beside its target. Phase two
renames the temporaries over their targets, re-checking each target right
before its rename. If anything fails, what was already renamed is put back
from the bytes in memory, temporaries and created folders are removed, and
one `CommitError` says which file and why. A crash (kill -9) in phase two
leaves the journal entry incomplete: `journal.recover` reports it and `undo`
restores every file of it.

Temporaries are named `.<name>.<tag>.kopipasta-tmp`, the tag being the journal
entry's name, so a later run can find and remove those a crash left.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

from kopipasta.disk import beneath, faults, syncs
from kopipasta.errors import PatchError

TEMP_SUFFIX = ".kopipasta-tmp"


@dataclass(frozen=True)
class FileWrite:
    """One file of a transaction: the bytes expected on disk now, and what to put there."""

    path: str  # real path relative to the root, "/"-separated
    expected: bytes | None  # what must be on disk now; None: no file
    data: bytes | None  # what to put there; None: remove the file
    mode: int | None = None  # for a new file (None: the umask's default)


class CommitError(Exception):
    """Nothing (rolled_back) or possibly part of the set was written; `message` says where and why."""

    def __init__(self, message: str, path: str, *, rolled_back: bool = True) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.rolled_back = rolled_back


def temporary_name(name: str, tag: str) -> str:
    # A name near the 255-byte limit still leaves room for the tag.
    return f".{name[:120]}.{tag}{TEMP_SUFFIX}"


@dataclass
class _Prepared:
    """A write whose temporary is in place, with what a rollback needs to put the target back."""

    write: FileWrite
    dir_fd: int
    name: str
    temporary: str | None
    identity: tuple[int, int, int] | None  # (inode, size, mtime_ns) of the checked target
    mode: int | None  # the target's permission bits, to restore on rollback


def describe(error: BaseException, path: str) -> str:
    if isinstance(error, PatchError):
        return error.message
    if isinstance(error, OSError):
        reason = error.strerror or str(error)
        if error.errno == errno.ENOTDIR and error.strerror and " is a file" in error.strerror:
            return f"Cannot write {path}: {error.strerror}"
        return f"Cannot write {path}: {reason}"
    return f"Cannot write {path}: {error}"


def commit(
    root_fd: int,
    writes: Sequence[FileWrite],
    tag: str,
    new_mode: int,
    also_sync: Sequence[int] = (),
    replaced_files: list[int] | None = None,
) -> list[str]:
    """Write every file of `writes` or none; returns the folders it created, outermost first.

    `also_sync`: folders whose fsync must be done before the first rename (the journal's,
    after its entry was published); they are waited for with the temporaries' fsyncs.
    `replaced_files`: on success, the descriptors of the files the renames replaced are
    added to it for the caller to close (the last close of a replaced inode frees its
    blocks, milliseconds no one needs to wait for); without it they are closed here.
    """
    prepared: list[_Prepared] = []
    created_dirs: list[str] = []
    current = ""
    pending: list[syncs.Unsynced] = []  # temporaries written, their fsyncs not yet waited for
    try:
        faults.hit("before-prepare")
        for write in writes:
            current = write.path
            item, unsynced = _prepare(root_fd, write, tag, new_mode, created_dirs)
            prepared.append(item)
            if unsynced is not None:
                pending.append(unsynced)
            faults.hit("prepare", write.path)
        waiting, pending = pending, []
        try:
            syncs.sync_together(waiting, also_sync)  # closes them, whatever happens
        except OSError:
            # The one whose fsync failed is the one sync_together removed.
            current = next((i.write.path for i in prepared if i.temporary and beneath.lstat_at(i.dir_fd, i.temporary) is None), current)
            raise
        faults.hit("prepared")
    except BaseException as error:
        for unsynced in pending:
            os.close(unsynced.fd)
        _discard(prepared, root_fd, created_dirs)
        if isinstance(error, (OSError, PatchError)):
            raise CommitError(describe(error, current), current) from None
        raise
    done: list[_Prepared] = []
    replaced: list[int] = []  # the replaced files, watched across their renames
    try:
        for item in prepared:
            current = item.write.path
            faults.hit("rename", current)
            watch = _recheck(item)
            try:
                if watch is not None and _stamp(os.fstat(watch)) != _watch_stamp(item):
                    raise _changed(current)  # the last look, microseconds before the rename
                faults.hit("before-rename", current)  # a test's write here lands in the window
                if item.temporary is not None:
                    os.rename(item.temporary, item.name, src_dir_fd=item.dir_fd, dst_dir_fd=item.dir_fd)
                    item.temporary = None
                elif item.identity is not None:
                    os.unlink(item.name, dir_fd=item.dir_fd)
                done.append(item)
                if watch is not None and _stamp(os.fstat(watch)) != _watch_stamp(item):
                    # A write landed between the last look and the rename: the replaced file
                    # is still open here, so the rollback puts back its bytes, not ours.
                    item.write = replace(item.write, expected=_read_all(watch))
                    raise _changed(current)
            finally:
                if watch is not None:
                    replaced.append(watch)
        folders: dict[tuple[int, int], int] = {}
        for item in prepared:  # one sync per folder, however many of its entries were renamed
            folders.setdefault(_identity(item.dir_fd), item.dir_fd)
        syncs.sync_together([], list(folders.values()))
    except BaseException as error:
        _close_all(replaced)
        rolled_back = _roll_back(done, new_mode, tag)
        _discard(prepared, root_fd, created_dirs if rolled_back else [])
        message = describe(error, current) if isinstance(error, (OSError, PatchError)) else f"Interrupted while writing {current}"
        raise CommitError(message, current, rolled_back=rolled_back) from None
    _close(prepared)
    if replaced_files is None:
        _close_all(replaced)
    else:
        replaced_files.extend(replaced)
    return created_dirs


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        os.close(fd)
    fds.clear()


def _prepare(
    root_fd: int, write: FileWrite, tag: str, new_mode: int, created_dirs: list[str]
) -> tuple[_Prepared, syncs.Unsynced | None]:
    """The write checked and its temporary written; its fsync is the caller's, beside the others'."""
    folders, name = beneath.split(write.path)
    dir_fd = beneath.open_dir(root_fd, write.path, folders, create=write.data is not None, created=created_dirs)
    try:
        identity, mode = _check_expected(dir_fd, name, write)
        temporary = None
        unsynced = None
        if write.data is not None:
            temporary = temporary_name(name, tag)
            beneath.unlink_quietly(dir_fd, temporary)  # one a crash left under this very tag
            chosen = mode if mode is not None else (write.mode if write.mode is not None else new_mode)
            faults.hit("write", write.path)
            unsynced = beneath.write_unsynced(dir_fd, temporary, write.data, chosen)
    except BaseException:
        os.close(dir_fd)
        raise
    return _Prepared(write, dir_fd, name, temporary, identity, mode), unsynced


def _check_expected(dir_fd: int, name: str, write: FileWrite) -> tuple[tuple[int, int, int] | None, int | None]:
    """The target's identity and mode, after checking it still holds what the apply read."""
    info = beneath.lstat_at(dir_fd, name)
    if write.expected is None:
        if info is not None:
            raise PatchError(
                f"Not written: {write.path} was created by another program during the apply",
                "apply the reply again to see it against the new file",
            )
        return None, None
    if info is None:
        raise PatchError(
            f"Not written: {write.path} was removed by another program during the apply",
            "apply the reply again",
        )
    same, info = beneath.holds_at(dir_fd, name, write.path, write.expected)
    if not same:
        raise _changed(write.path)
    return (info.st_ino, info.st_size, info.st_mtime_ns), info.st_mode & 0o7777


def _changed(path: str) -> PatchError:
    return PatchError(
        f"Not written: {path} changed on disk during the apply, and writing would lose that change",
        "apply the reply again to patch the new contents",
    )


def _recheck(item: _Prepared) -> int | None:
    """Right before the rename: the target is still the file (and the bytes) phase one checked.

    Returns a descriptor of that file (None for a new file), which the caller watches
    across the rename and closes: a write into it after this check changes its size or
    mtime, which the caller looks at again just before and just after the rename.
    """
    info = beneath.lstat_at(item.dir_fd, item.name)
    if item.identity is None:
        if info is not None:
            raise PatchError(
                f"Not written: {item.write.path} was created by another program during the apply",
                "apply the reply again to see it against the new file",
            )
        return None
    if info is None or (info.st_ino, info.st_size, info.st_mtime_ns) != item.identity:
        raise _changed(item.write.path)
    watch = os.open(item.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=item.dir_fd)
    try:
        opened = os.fstat(watch)
        expected = item.write.expected
        if (
            (opened.st_ino, opened.st_size, opened.st_mtime_ns) != item.identity
            or expected is None
            or not beneath.holds_at(item.dir_fd, item.name, item.write.path, expected)[0]
            or _stamp(os.fstat(watch)) != _stamp(opened)
        ):
            raise _changed(item.write.path)
    except BaseException:
        os.close(watch)
        raise
    return watch


def _stamp(info: os.stat_result) -> tuple[int, int]:
    return info.st_size, info.st_mtime_ns


def _watch_stamp(item: _Prepared) -> tuple[int, int]:
    """The size and mtime the target had when it was checked (its identity's last two)."""
    assert item.identity is not None
    return item.identity[1], item.identity[2]


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks: list[bytes] = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def rollback_tag(tag: str) -> str:
    """The tag of a rollback's temporaries: the entry's own, so the next command finds them."""
    return f"{tag}-rollback"


def _roll_back(done: list[_Prepared], new_mode: int, tag: str) -> bool:
    """Put back every file already renamed, newest first; False if one could not be."""
    ok = True
    for item in reversed(done):
        back = temporary_name(item.name, rollback_tag(tag))
        try:
            if item.write.expected is None:
                os.unlink(item.name, dir_fd=item.dir_fd)
            else:
                beneath.unlink_quietly(item.dir_fd, back)
                mode = item.mode if item.mode is not None else new_mode
                beneath.write_temporary(item.dir_fd, back, item.write.expected, mode)
                faults.hit("rollback", item.write.path)  # the copy is written; its rename fails
                os.rename(back, item.name, src_dir_fd=item.dir_fd, dst_dir_fd=item.dir_fd)
        except OSError:
            beneath.unlink_quietly(item.dir_fd, back)  # a rename that failed leaves it whole
            ok = False
    return ok


def _discard(prepared: list[_Prepared], root_fd: int, created_dirs: list[str]) -> None:
    for item in prepared:
        if item.temporary is not None:
            beneath.unlink_quietly(item.dir_fd, item.temporary)
    _close(prepared)
    remove_empty_dirs(root_fd, created_dirs)


def remove_empty_dirs(root_fd: int, relatives: Sequence[str]) -> None:
    """Remove folders if nothing else was put in them, deepest first, stopping at one that is not empty.

    A chain of folders (`a/b/c`, `a/b`, `a`) is walked down once and climbed
    back through `..`, each step checked against the inode seen on the way
    down, so a 2,000-level path costs 2,000 opens, not two million.
    """
    wanted = set(relatives)
    done: set[str] = set()
    for relative in sorted(wanted, key=lambda r: r.count("/"), reverse=True):
        if relative in done:
            continue
        parts = relative.split("/")
        chain = 1
        while chain < len(parts) and "/".join(parts[: len(parts) - chain]) in wanted:
            chain += 1
        done.update("/".join(parts[: len(parts) - k]) for k in range(chain))
        try:
            _remove_chain(root_fd, relative, parts, chain)
        except (OSError, PatchError):
            continue


def _remove_chain(root_fd: int, relative: str, parts: list[str], count: int) -> None:
    identities: list[tuple[int, int]] = []
    fd = os.dup(root_fd)
    try:
        identities.append(_identity(fd))
        for depth in range(len(parts) - 1):
            child = beneath.open_dir(fd, relative, [parts[depth]])
            os.close(fd)
            fd = child
            identities.append(_identity(fd))
        level = len(parts) - 1  # fd is the folder at this depth, the parent of parts[level]
        for _ in range(count):
            try:
                os.rmdir(parts[level], dir_fd=fd)
            except OSError:
                return
            if level == 0:
                return
            up = os.open("..", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=fd)
            if _identity(up) != identities[level - 1]:
                os.close(up)
                return  # the folder was moved meanwhile: climb no further
            os.close(fd)
            fd = up
            level -= 1
    finally:
        os.close(fd)


def _identity(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_dev, info.st_ino


def _close(prepared: list[_Prepared]) -> None:
    for item in prepared:
        if item.dir_fd >= 0:
            os.close(item.dir_fd)
            item.dir_fd = -1
