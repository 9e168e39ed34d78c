"""The sizes kopipasta accepts, and how to raise them.

Work is linear in the input up to these sizes; beyond them an apply is
refused with one line saying which limit was passed and which environment
variable raises it (RELIABILITY.md, "Size and time").
"""

from __future__ import annotations

import os

from kopipasta.errors import PatchError

MB = 1 << 20
# name of the variable → default in MB
REPLY_VARIABLE = "KOPIPASTA_MAX_REPLY_MB"
FILE_VARIABLE = "KOPIPASTA_MAX_FILE_MB"
DEFAULT_REPLY_MB = 64
DEFAULT_FILE_MB = 64


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
