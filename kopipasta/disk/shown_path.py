"""A path an OS error names, as a message may show it: relative to the root, never the machine's.

An OSError carries the absolute path it failed on. Most are the project's own
files and folders, named relative to the root everywhere else; the root
itself, gone or replaced while a server runs on it (issue 28, item 10), would
put the machine's layout (`/home/alice/work/…`) in every result an agent (and
whatever it forwards them to) reads. The root is "the project root"; a path
inside it is its relative path; anything else is only its last name.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT_NAME = "the project root"


def shown_path(root: Path, filename: object) -> str:
    """`filename` (an OSError's, str, bytes or a descriptor) as a message names it."""
    if filename is None or isinstance(filename, int):
        return ""
    name = os.fsdecode(filename) if isinstance(filename, (bytes, os.PathLike)) else str(filename)
    if not os.path.isabs(name):
        return name
    for base in dict.fromkeys((str(root), os.path.realpath(root))):
        base = base.rstrip(os.sep) or os.sep
        if name == base:
            return ROOT_NAME
        if name.startswith(base + os.sep):
            return name[len(base) + 1 :]
    return os.path.basename(name.rstrip(os.sep)) or ROOT_NAME


def os_error_text(root: Path, error: OSError) -> str:
    """`path: reason` for an OSError, the path shown as above (no path: the reason alone)."""
    where = shown_path(root, error.filename)
    return f"{where}: {error.strerror or error}" if where else f"{error.strerror or error}"


def without_root(root: Path, text: str) -> str:
    """`text` with the root's absolute spelling (given and resolved) taken out: the last net under every
    message the server sends, whoever formatted it."""
    for base in sorted({str(root), os.path.realpath(root)}, key=len, reverse=True):
        base = base.rstrip(os.sep)
        if len(base) > 1 and base in text:
            text = text.replace(base + os.sep, "").replace(base, ROOT_NAME)
    return text
