"""The sizes kopipasta accepts, and how to raise them.

Work is linear in the input up to these sizes; beyond them an apply is
refused with one line saying which limit was passed and which environment
variable raises it (RELIABILITY.md, "Size and time").
"""

from __future__ import annotations

import os
from typing import BinaryIO

from kopipasta.errors import PatchError

MB = 1 << 20
# name of the variable → default in MB
REPLY_VARIABLE = "KOPIPASTA_MAX_REPLY_MB"
FILE_VARIABLE = "KOPIPASTA_MAX_FILE_MB"
BLOCKS_VARIABLE = "KOPIPASTA_MAX_BLOCKS"
FILES_VARIABLE = "KOPIPASTA_MAX_FILES_PER_BLOCK"
PAYLOAD_VARIABLE = "KOPIPASTA_MAX_PAYLOAD_MB"
# Measured on a shared 2-core machine (RELIABILITY.md): a 4 MB payload of short
# Python lines takes about a minute and ~1 GB; beyond these, refuse and say how to raise.
DEFAULT_REPLY_MB = 8
DEFAULT_FILE_MB = 16
# Each block resolves against the file as the blocks before it left it, so
# many blocks on one big file cost blocks × file size.
DEFAULT_BLOCKS = 500
# One diff or envelope block naming thousands of files is a generated dump, not an edit: each
# file is read, checked and journalled (issue 28, item 9: 5,000 new files were all written).
DEFAULT_FILES_PER_BLOCK = 1000
# A definition's replacement (TARGET_NODE and the other targeted forms) is parsed with the file
# around it several times over; a 7 MB payload cost 23-50 s and 2.6 GB (issue 28, item 9).
# 2 MB of code (100,000 lines) is far past any definition a model writes; whole-file blocks keep
# the reply limit.
DEFAULT_PAYLOAD_MB = 2


def _limit(variable: str, default: int) -> int:
    value = os.environ.get(variable, "")
    try:
        return max(1, int(value)) * MB if value else default * MB
    except ValueError:
        return default * MB


def reply_limit() -> int:
    return _limit(REPLY_VARIABLE, DEFAULT_REPLY_MB)


def file_limit() -> int:
    return _limit(FILE_VARIABLE, DEFAULT_FILE_MB)


def block_limit() -> int:
    value = os.environ.get(BLOCKS_VARIABLE, "")
    return max(1, int(value)) if value.isdigit() else DEFAULT_BLOCKS


def files_per_block_limit() -> int:
    value = os.environ.get(FILES_VARIABLE, "")
    return max(1, int(value)) if value.isdigit() else DEFAULT_FILES_PER_BLOCK


def payload_limit() -> int:
    return _limit(PAYLOAD_VARIABLE, DEFAULT_PAYLOAD_MB)


def files_problem(count: int) -> str:
    """Why one block naming `count` files is refused, or ""."""
    limit = files_per_block_limit()
    if count <= limit:
        return ""
    return (
        f"The block names {count:,} files, above the limit of {limit:,} for one block — "
        f"split it, or set {FILES_VARIABLE}=<count> to raise it"
    )


def payload_problem(size: int) -> str:
    """Why a targeted block's payload of `size` bytes is refused, or ""."""
    limit = payload_limit()
    if size <= limit:
        return ""
    return (
        f"The block's replacement is {size / MB:.1f} MB, above the {limit // MB} MB limit for one definition — "
        f"send the whole file instead, or set {PAYLOAD_VARIABLE}=<MB> to raise it"
    )


def reply_problem(size: int, blocks: int | None = None) -> str:
    """Why a reply is refused for its size, or ""."""
    if size > reply_limit():
        return "The reply " + too_large("", size, reply_limit(), REPLY_VARIABLE).lstrip()
    if blocks is not None and blocks > block_limit():
        # The reader stops one block past the limit (intake/reader.py): the true count is not known.
        return (
            f"The reply holds more than {block_limit():,} code blocks, the limit — "
            f"split it, or set {BLOCKS_VARIABLE}=<count> to raise it"
        )
    return ""


class ReplyTooLarge(Exception):
    """The reply passed the size limit while it was being read."""


def read_bounded(stream: BinaryIO) -> bytes:
    """Every byte of `stream` up to the reply limit, read a chunk at a time.

    A regular file above the limit is refused by its size, unread; anything else
    (a pipe, `/dev/zero`, a device) raises ReplyTooLarge as soon as one byte more
    than the limit has arrived: refusing costs at most the limit, never the whole
    input in memory first. A stream without a descriptor (a test runner's) is read
    the same way.
    """
    import stat

    limit = reply_limit()
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        status = None
    if status is not None and stat.S_ISREG(status.st_mode) and status.st_size > limit:
        raise ReplyTooLarge(reply_problem(status.st_size))
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = stream.read(min(1 << 20, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise ReplyTooLarge(stream_too_large())


def stream_too_large() -> str:
    """The one line for a reply found too large while reading (its full size never known)."""
    limit = reply_limit()
    return (
        f"The reply is larger than the {limit // MB} MB limit — "
        f"set {REPLY_VARIABLE}=<MB> to raise it"
    )


def too_large(what: str, size: int, limit: int, variable: str) -> str:
    return (
        f"{what} is {size / MB:.1f} MB, above the {limit // MB} MB limit — "
        f"set {variable}=<MB> to raise it"
    )


def check_file(relative: str, size: int) -> None:
    limit = file_limit()
    if size > limit:
        raise PatchError(
            f"Cannot patch {relative}: " + too_large("it", size, limit, FILE_VARIABLE).split(" — ")[0],
            f"set {FILE_VARIABLE}=<MB> to raise the limit",
        )
