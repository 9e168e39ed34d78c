"""A path an OS error names, as a message may show it: relative to the root, never the machine's.

An OSError carries the absolute path it failed on. Most are the project's own
files and folders, named relative to the root everywhere else; the root
itself, gone or replaced while a server runs on it (issue 28, item 10), would
put the machine's layout (`/home/alice/work/…`) in every result an agent (and
whatever it forwards them to) reads. The root is "the project root"; a path
inside it is its relative path; anything else is only its last name.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

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


def without_root(root: Path, value: Any) -> Any:
    """`value` (text, or JSON-like data) with the root's absolute spelling, given and resolved, taken
    out: the last net under every result the MCP server sends, whoever formatted it. The same object
    back when it holds none (the usual case: one scan)."""
    bases = [b.rstrip(os.sep) for b in sorted({str(root), os.path.realpath(root)}, key=len, reverse=True)]
    bases = [b for b in bases if len(b) > 1]
    if not any(b in (value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)) for b in bases):
        return value
    return _cleaned(bases, value)


def _cleaned(bases: list[str], value: Any) -> Any:
    if isinstance(value, str):
        for base in bases:
            # Whole components only: `/work/p` is not taken out of `/work/project`.
            value = re.sub(re.escape(base) + r"(/|(?![\w.\-]))", lambda m: "" if m.group(1) else ROOT_NAME, value)
        return value
    if isinstance(value, dict):
        return {_cleaned(bases, k): _cleaned(bases, v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_cleaned(bases, v) for v in value]
    return value
