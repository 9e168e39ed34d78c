"""A journal entry's manifest, trusted no more than a reply.

Its shape and types, each path (normalised and resolved like a reply path:
relative, no `..`, not `.git/`, the real file inside the root), each blob's
name and sha256, and `created_dirs` being folders above their file: all
checked before `undo` changes anything. Any problem is one `JournalError`
line ending "nothing was changed".
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

from kopipasta.disk import beneath
from kopipasta.disk.digest import sha256_hex
from kopipasta.disk.workspace import normalise, resolve_real
from kopipasta.errors import PatchError
from kopipasta.startup.lazy_pattern import lazy_compile

MANIFEST = "manifest.json"
VERSION = 2
_BLOB_NAME = lazy_compile(r"^\d+\.before$")
_SHA256 = lazy_compile(r"^[0-9a-f]{64}$")


class JournalError(Exception):
    """Undo is not possible (nothing to undo, files changed since, a damaged entry)."""


class ChangedSince(JournalError):
    """Files the apply wrote were changed afterwards; `paths` lists them."""

    def __init__(self, message: str, paths: tuple[str, ...]) -> None:
        super().__init__(message)
        self.paths = paths


def _damaged(entry: str, why: str) -> JournalError:
    return JournalError(f"The journal entry {entry} is damaged: {why} — nothing was changed")


def read_manifest(journal_fd: int, entry: str) -> list[dict[str, Any]]:
    """The manifest's file records, each checked for shape; JournalError if anything is off."""
    try:
        entry_fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=journal_fd)
    except OSError as error:
        raise _damaged(entry, "it is not a folder (or is a symlink)" if error.errno in (errno.ELOOP, errno.ENOTDIR) else error.strerror or str(error)) from None
    try:
        raw = beneath.read_at(entry_fd, MANIFEST, MANIFEST)[0]
        manifest = json.loads(raw.decode("utf-8"))
    except PatchError:
        raise _damaged(entry, f"{MANIFEST} is a symlink") from None
    except RecursionError:  # json's parser recurses once per level: `[[[[…` 100,000 deep
        raise _damaged(entry, f"{MANIFEST} is nested too deeply") from None
    except (OSError, ValueError) as error:
        raise _damaged(entry, str(getattr(error, "strerror", None) or error)) from None
    finally:
        os.close(entry_fd)
    if not isinstance(manifest, dict) or manifest.get("version") not in (1, VERSION):
        raise _damaged(entry, "unknown manifest version")
    files = manifest.get("files")
    if not isinstance(files, list) or not files:
        raise _damaged(entry, "no file records")
    seen: set[str] = set()
    for item in files:
        problem = _record_problem(item)
        if problem:
            raise _damaged(entry, problem)
        if item["path"] in seen:
            raise _damaged(entry, f"{item['path']} is recorded twice")
        seen.add(item["path"])
    return files


def _record_problem(item: Any) -> str:
    if not isinstance(item, dict):
        return "a file record is not an object"
    path = item.get("path")
    if not isinstance(path, str) or not path:
        return "a file record has no path"
    if "\x00" in path:  # no system call takes it (ValueError), so no check below may meet it
        return f"{path!r} holds a NUL character"
    after = item.get("after")
    if not (after is None or (isinstance(after, str) and _SHA256.match(after))):
        return f"{path}: bad 'after' hash"
    created = item.get("created")
    if not isinstance(created, bool):
        return f"{path}: 'created' is not true or false"
    if created:
        if "before" in item or "before_sha256" in item:
            return f"{path}: recorded as created, yet with previous bytes"
        dirs = item.get("created_dirs", [])
        if not isinstance(dirs, list) or not all(isinstance(d, str) and "\x00" not in d for d in dirs):
            return f"{path}: 'created_dirs' is not a list of paths"
        if any(not path.startswith(d + "/") for d in dirs):
            return f"{path}: 'created_dirs' names a folder that does not hold it"
        if after is None:
            return f"{path}: a created file without its hash"
    else:
        blob, digest = item.get("before"), item.get("before_sha256")
        if not isinstance(blob, str) or not _BLOB_NAME.match(blob):
            return f"{path}: bad blob name"
        if not isinstance(digest, str) or not _SHA256.match(digest):
            return f"{path}: no sha256 for its previous bytes"
    return ""


def check_path(root: Path, entry: str, item: dict[str, Any]) -> None:
    """A manifest path is confined like a reply's: relative, normal, the real file, not in .git/."""
    path = item["path"]
    try:
        if normalise(path) != path or resolve_real(root, path) != path:
            raise _damaged(entry, f"{path} is not a plain path inside the project")
        # created_dirs are whole-component prefixes of this normal path (_record_problem): normal too.
    except PatchError as error:
        raise _damaged(entry, error.message) from None


def read_blobs(journal_fd: int, entry: str, files: list[dict[str, Any]]) -> dict[str, bytes]:
    """Every previous-bytes blob, each matching its recorded sha256."""
    blobs: dict[str, bytes] = {}
    entry_fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=journal_fd)
    try:
        for item in files:
            if item["created"]:
                continue
            try:
                data = beneath.read_at(entry_fd, item["before"], item["before"])[0]
            except PatchError:
                raise _damaged(entry, f"the copy of {item['path']} is a symlink") from None
            except OSError as error:
                raise _damaged(entry, f"the copy of {item['path']}: {error.strerror or error}") from None
            if sha256_hex(data) != item["before_sha256"]:
                raise _damaged(entry, f"the copy of {item['path']} does not match its sha256")
            blobs[item["path"]] = data
    finally:
        os.close(entry_fd)
    return blobs
