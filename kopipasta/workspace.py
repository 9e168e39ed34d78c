"""The project on disk: paths confined to the root, reading files, atomic writes.

This module and `journal` are the only ones that touch the file system.
Nothing outside the root is ever read for patching or written (PROTOCOL.md §3).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from kopipasta.errors import ConfinementError, UnsupportedFile

BOM = b"\xef\xbb\xbf"
# Folders a reply may never write into: git's internals and our own journal.
_FORBIDDEN_DIRS = (".git", ".kopipasta")


@dataclass(frozen=True)
class Source:
    """A file's text as the pipeline sees it, and how to put it back as bytes."""

    path: str  # relative to the root, "/"-separated, normalised
    data: bytes  # UTF-8 text without the BOM, line endings as on disk
    bom: bool
    newline: str  # "\r\n" when the file's first line ends so, else "\n"
    exists: bool

    def with_data(self, data: bytes) -> Source:
        return Source(self.path, data, self.bom, self.newline, True)

    def to_bytes(self) -> bytes:
        return (BOM if self.bom else b"") + self.data


def normalise(relative: str) -> str:
    """The reply's path, checked and normalised, without looking at the disk."""
    raw = relative.strip().replace("\\", "/")
    if not raw:
        raise ConfinementError("Empty file path", "write the path relative to the project root")
    if raw.startswith("/") or raw.startswith("~") or (len(raw) > 1 and raw[1] == ":"):
        raise ConfinementError(
            f"Refusing absolute path {relative}: paths must be relative to the project root",
            "write it relative to the root, e.g. src/app.py",
        )
    parts: list[str] = []
    for part in PurePosixPath(raw).parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise ConfinementError(
                    f"Refusing path {relative}: it leaves the project root",
                    "write it relative to the root, without '..'",
                )
            parts.pop()
            continue
        parts.append(part)
    if not parts:
        raise ConfinementError(f"Refusing path {relative}: it names the project root itself")
    if any(part in _FORBIDDEN_DIRS for part in parts[:-1]) or parts[-1] in _FORBIDDEN_DIRS:
        raise ConfinementError(f"Refusing path {relative}: files under .git/ and .kopipasta/ are not patched")
    return "/".join(parts)


def confine(root: Path, relative: str) -> Path:
    """The real path of `relative` under `root`; refuses anything that leaves it."""
    normal = normalise(relative)
    real_root = root.resolve()
    resolved = (real_root / normal).resolve()
    if resolved != real_root and real_root not in resolved.parents:
        raise ConfinementError(
            f"Refusing path {relative}: it goes through a symlink that leaves the project root"
        )
    inside = resolved.relative_to(real_root).parts
    if any(part in _FORBIDDEN_DIRS for part in inside):
        raise ConfinementError(f"Refusing path {relative}: it resolves into .git/ or .kopipasta/")
    return resolved


def load(root: Path, relative: str) -> Source:
    """Read a file under the root, or an empty Source for one the reply will create."""
    path = confine(root, relative)
    normal = normalise(relative)
    if not path.exists():
        return Source(normal, b"", False, "\n", False)
    if not path.is_file():
        raise UnsupportedFile(f"Cannot patch {relative}: it is not a regular file")
    raw = path.read_bytes()
    bom = raw.startswith(BOM)
    data = raw[len(BOM) :] if bom else raw
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnsupportedFile(
            f"Cannot patch {relative}: it is not UTF-8 text (byte {error.start})"
        ) from None
    first_newline = data.find(b"\n")
    newline = "\r\n" if first_newline > 0 and data[first_newline - 1 : first_newline] == b"\r" else "\n"
    return Source(normal, data, bom, newline, True)


def remove_file(path: Path) -> None:
    """Delete a file a reply deletes (only under `apply --allow-delete`); gone already is fine."""
    path.unlink(missing_ok=True)


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, then rename over the original.

    A crash leaves the old file or the new one, never a mix. The original's
    permission bits are kept; a new file gets the usual ones for the umask.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".kopipasta")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
