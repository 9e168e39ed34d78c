"""The undo journal: what every apply that writes replaced, so it can be put back.

Before an apply writes, the previous bytes of each file it touches (and which
files and folders it creates) are stored under `.kopipasta/journal/` in the
project root, a folder that tells git to ignore it. `undo` restores the newest
entry byte for byte, deletes what that apply created, and refuses when a file
was changed since (checked by hash) unless forced. Each undo removes its entry,
so repeated undos step back through the applies, newest first. Only the newest
`HISTORY` applies are kept.

An entry is a folder `NNNNNN-<unix time>/` holding `manifest.json` and one
`<i>.before` blob per overwritten file. It is written under a temporary name
and renamed into place, so a crash while journaling leaves no half entry that
`undo` could trust.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kopipasta.errors import PatchError
from kopipasta.model import FileChange
from kopipasta.workspace import confine, write_atomic

STATE_DIR = ".kopipasta"
HISTORY = 20  # applies kept; older entries are dropped
_MANIFEST = "manifest.json"
_GITIGNORE = "# kopipasta's state (undo journal): never committed\n*\n"


class JournalError(Exception):
    """Undo is not possible (nothing to undo, files changed since, a damaged entry)."""


class ChangedSince(JournalError):
    """Files the apply wrote were changed afterwards; `paths` lists them."""

    def __init__(self, message: str, paths: tuple[str, ...]) -> None:
        super().__init__(message)
        self.paths = paths


@dataclass(frozen=True)
class UndoResult:
    entry: str  # the journal entry that was undone
    restored: tuple[str, ...]  # files put back to their previous bytes
    deleted: tuple[str, ...]  # files the apply had created, now removed
    remaining: int  # applies still in the journal


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _journal_dir(root: Path) -> Path:
    return root / STATE_DIR / "journal"


def ensure_state_dir(root: Path) -> Path:
    """`.kopipasta/` under the root, with a .gitignore that ignores the folder itself."""
    state = root / STATE_DIR
    state.mkdir(exist_ok=True)
    ignore = state / ".gitignore"
    if not ignore.exists():
        ignore.write_text(_GITIGNORE, encoding="utf-8")
    return state


def _entries(root: Path) -> list[Path]:
    folder = _journal_dir(root)
    if not folder.is_dir():
        return []
    return sorted(
        p for p in folder.iterdir() if p.name[:1].isdigit() and (p / _MANIFEST).is_file()
    )


def _created_dirs(root: Path, relative: str) -> list[str]:
    """The folders above `relative` that do not exist yet, deepest first."""
    missing: list[str] = []
    parent = Path(relative).parent
    while parent != Path(".") and not (root / parent).is_dir():
        missing.append(parent.as_posix())
        parent = parent.parent
    return missing


def record(root: Path, changes: Sequence[FileChange]) -> str:
    """Store what `changes` will overwrite, before anything is written; returns the entry's name."""
    ensure_state_dir(root)
    folder = _journal_dir(root)
    folder.mkdir(exist_ok=True)
    staging = folder / f".staging-{os.getpid()}-{time.monotonic_ns()}"
    staging.mkdir()
    try:
        files: list[dict[str, Any]] = []
        for i, change in enumerate(changes):
            item: dict[str, Any] = {
                "path": change.path,
                # A deleted file has no digest: undo checks it is still absent.
                "after": _digest(change.after) if change.after is not None else None,
                "created": change.before is None,
            }
            if change.before is None:
                item["created_dirs"] = _created_dirs(root, change.path)
            else:
                blob = f"{i}.before"
                (staging / blob).write_bytes(change.before)
                item["before"] = blob
                item["before_sha256"] = _digest(change.before)
            files.append(item)
        manifest = {"version": 1, "time": time.time(), "files": files}
        (staging / _MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        entry = _publish(folder, staging, root)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    for old in _entries(root)[:-HISTORY]:
        shutil.rmtree(old, ignore_errors=True)
    return entry


def _publish(folder: Path, staging: Path, root: Path) -> str:
    """Rename the staged entry to the next free number (another process may race for it)."""
    for _ in range(100):
        existing = _entries(root)
        number = int(existing[-1].name.split("-")[0]) + 1 if existing else 1
        name = f"{number:06d}-{int(time.time())}"
        try:
            staging.rename(folder / name)
        except OSError:
            if (folder / name).exists():
                continue
            raise
        return name
    raise JournalError("Cannot add to the undo journal: too many concurrent applies")


def depth(root: Path) -> int:
    """How many applies can be undone."""
    return len(_entries(root))


def newest(root: Path) -> str | None:
    """The name of the newest journal entry, or None when there is none."""
    entries = _entries(root)
    return entries[-1].name if entries else None


def undo(root: Path, *, force: bool = False, entry: str | None = None) -> UndoResult:
    """Put back the newest apply; refuse if a file it wrote has changed since, unless forced.

    `entry`, when given, must be the newest entry's name: a caller that
    reverts the apply it just made says so, and nothing older is ever undone
    in its place.
    """
    entries = _entries(root)
    if not entries:
        raise JournalError(f"Nothing to undo: no apply is recorded in {STATE_DIR}/")
    folder = entries[-1]
    if entry is not None and folder.name != entry:
        raise JournalError(
            f"Not undone: the newest apply in the journal is {folder.name}, not {entry}"
        )
    files = _read_manifest(folder)
    try:
        if not force:
            changed = tuple(
                f["path"] for f in files if _current_digest(root, f["path"]) != f["after"]
            )
            if changed:
                raise ChangedSince(
                    f"Refusing to undo: changed since that apply: {', '.join(changed)}", changed
                )
        restored: list[str] = []
        deleted: list[str] = []
        for item in files:
            path = confine(root, item["path"])
            if item["created"]:
                if path.is_file() or path.is_symlink():
                    path.unlink()
                _remove_empty_dirs(root, item.get("created_dirs", []))
                deleted.append(item["path"])
            else:
                write_atomic(path, (folder / item["before"]).read_bytes())
                restored.append(item["path"])
    except PatchError as error:
        raise JournalError(f"Cannot undo {folder.name}: {error.message}") from None
    except OSError as error:
        raise JournalError(
            f"Cannot undo {folder.name}: {error.filename or ''} {error.strerror or error}".replace("  ", " ")
        ) from None
    shutil.rmtree(folder, ignore_errors=True)
    return UndoResult(folder.name, tuple(restored), tuple(deleted), len(entries) - 1)


def _read_manifest(folder: Path) -> list[dict[str, Any]]:
    try:
        files = json.loads((folder / _MANIFEST).read_text(encoding="utf-8"))["files"]
        for item in files:
            if not isinstance(item["path"], str) or not isinstance(item["after"], (str, type(None))):
                raise ValueError("bad file record")
            if not item["created"] and not (folder / item["before"]).is_file():
                raise ValueError(f"missing {item['before']}")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise JournalError(f"The journal entry {folder.name} is damaged: {error}") from None
    return list(files)


def _remove_empty_dirs(root: Path, relatives: Sequence[str]) -> None:
    """Remove the folders an apply created, deepest first, if nothing else was put in them."""
    for relative in relatives:
        try:
            (root / relative).rmdir()
        except OSError:
            return


def _current_digest(root: Path, relative: str) -> str | None:
    path = confine(root, relative)
    return _digest(path.read_bytes()) if path.is_file() else None
