"""File operations confined to the root at the moment they happen.

Every path is opened component by component from a descriptor of the root
with O_NOFOLLOW, so a folder exchanged for a symlink between the check and the
write makes the open fail (ELOOP/ENOTDIR) instead of following the link out of
the root. Temporary files are created and renamed inside the descriptor of
their folder. Callers pass paths already resolved to their real location
inside the root (`workspace.resolve_real`): a symlink met here is a race, or a
loop, and is refused.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress

from kopipasta.disk import faults, syncs
from kopipasta.errors import ConfinementError

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def split(relative: str) -> tuple[list[str], str]:
    """`a/b/c.py` → (["a", "b"], "c.py")."""
    parts = relative.split("/")
    return parts[:-1], parts[-1]


@contextmanager
def root_descriptor(root: os.PathLike[str] | str) -> Iterator[int]:
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        yield fd
    finally:
        os.close(fd)


def _symlink_refusal(relative: str, part: str) -> ConfinementError:
    return ConfinementError(
        f"Refusing {relative}: `{part}` is a symlink (a loop, or swapped in while applying)",
        "nothing was written through it; check the folder and apply again",
    )


def open_dir(
    root_fd: int,
    relative: str,
    parts: Sequence[str],
    *,
    create: bool = False,
    created: list[str] | None = None,
) -> int:
    """A descriptor of the folder `parts` under the root, without following symlinks.

    With `create`, missing folders are made (their paths appended to `created`,
    outermost first). The caller closes the descriptor.
    """
    if any(part in ("", ".", "..") for part in parts):
        raise ConfinementError(f"Refusing path {relative}: it is not a plain path inside the project")
    fd = os.dup(root_fd)
    try:
        for depth, part in enumerate(parts):
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(part, 0o777, dir_fd=fd)
                    if created is not None:
                        created.append("/".join(parts[: depth + 1]))
                except FileExistsError:
                    pass  # made by someone else meanwhile: open it, below, with the same checks
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as error:
                if error.errno == errno.ELOOP:
                    raise _symlink_refusal(relative, "/".join(parts[: depth + 1])) from None
                if error.errno == errno.ENOTDIR:
                    if _is_symlink(fd, part):
                        raise _symlink_refusal(relative, "/".join(parts[: depth + 1])) from None
                    raise OSError(
                        errno.ENOTDIR, f"{'/'.join(parts[: depth + 1])} is a file, not a folder", relative
                    ) from None
                raise
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _is_symlink(dir_fd: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def lstat_at(dir_fd: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def _open_regular(dir_fd: int, name: str, relative: str) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file `name` in `dir_fd`, never through a symlink or into a FIFO; the caller closes it."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise _symlink_refusal(relative, relative) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", relative)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_at(dir_fd: int, name: str, relative: str) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file `name` in `dir_fd`, never through a symlink or into a FIFO."""
    fd, info = _open_regular(dir_fd, name, relative)
    try:
        chunks: list[bytes] = []
        while True:
            chunk = os.read(fd, max(1 << 20, info.st_size + 1))
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks), info
    finally:
        os.close(fd)


def holds_at(dir_fd: int, name: str, relative: str, expected: bytes) -> tuple[bool, os.stat_result]:
    """Whether the regular file `name` in `dir_fd` holds exactly `expected` (as `read_at(…)[0] == expected`).

    Compared a read at a time, so checking a big file before writing it does not hold
    a second copy of it.
    """
    fd, info = _open_regular(dir_fd, name, relative)
    try:
        position = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return position == len(expected), info
            if not expected.startswith(chunk, position):
                return False, info
            position += len(chunk)
    finally:
        os.close(fd)


def read_file(root_fd: int, relative: str) -> tuple[bytes, os.stat_result] | None:
    """The file's bytes and stat, or None when it does not exist (nor its folder)."""
    folders, name = split(relative)
    try:
        dir_fd = open_dir(root_fd, relative, folders)
    except FileNotFoundError:
        return None
    try:
        return read_at(dir_fd, name, relative)
    except FileNotFoundError:
        return None
    finally:
        os.close(dir_fd)


def write_temporary(dir_fd: int, name: str, data: bytes, mode: int) -> None:
    """Create `name` (which must not exist) in `dir_fd`, write `data`, fsync, set `mode`.

    If any step after the creation fails (ENOSPC, EIO, EDQUOT on a write or the fsync,
    or the process is interrupted), the half-written file is removed before the error
    goes on: nothing else knows its name to remove it later.
    """
    syncs.sync_together([write_unsynced(dir_fd, name, data, mode)])


def write_unsynced(dir_fd: int, name: str, data: bytes, mode: int) -> syncs.Unsynced:
    """`write_temporary` up to its fsync, which the caller waits for with `syncs.sync_together`
    beside the other fsyncs of the same step. Removed again if the write fails."""
    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        faults.hit("temporary-write", name)
        while view:
            written = os.write(fd, view[: 1 << 24])
            view = view[written:]
        os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        unlink_quietly(dir_fd, name)
        raise
    return syncs.Unsynced(dir_fd, name, fd)


def unlink_quietly(dir_fd: int, name: str) -> None:
    with suppress(OSError):
        os.unlink(name, dir_fd=dir_fd)
