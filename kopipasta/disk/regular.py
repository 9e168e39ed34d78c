"""Read a project file only when it is a regular file, and never block opening it (issue 28, item 6).

A FIFO in the project (`mkfifo notes`) blocks a plain `open()` until a writer
comes, and a device never ends: the folder walk of `kopipasta prompt DIR`, the
picker and the MCP server's `list_definitions` (which then wedged every later
call) hung on one. Every loop over the project's files reads through here: the
file is opened with O_NONBLOCK (a FIFO opens at once) and read only when
fstat says it is a regular file.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class NotRegular(OSError):
    """The path is a FIFO, a device, a socket or a folder: not read."""


def read_regular(path: Path | str, limit: int = -1) -> bytes:
    """The first `limit` bytes (all with -1) of the regular file at `path` (symlinks followed).

    Raises NotRegular for anything else, OSError (FileNotFoundError, ...) when it cannot be opened.
    """
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise NotRegular(errno.EINVAL, "not a regular file", str(path))
        chunks: list[bytes] = []
        left = limit
        while left != 0:
            chunk = os.read(descriptor, 1 << 20 if left < 0 else min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            if left > 0:
                left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)
