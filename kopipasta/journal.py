"""The undo journal: what every apply that writes replaced, so it can be put back.

Before an apply writes, the previous bytes of each file it touches (and which
files it creates) are stored under `.kopipasta/journal/` in the project root,
a folder that tells git to ignore it. `undo` restores the newest entry byte
for byte, and refuses when a file was changed since (checked by hash).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kopipasta.model import FileChange
from kopipasta.workspace import confine, write_atomic

STATE_DIR = ".kopipasta"
HISTORY = 20  # applies kept; older entries are dropped


class JournalError(Exception):
    """Undo is not possible (nothing to undo, files changed since, a damaged entry)."""


@dataclass(frozen=True)
class UndoResult:
    restored: tuple[str, ...]  # files put back to their previous bytes
    deleted: tuple[str, ...]  # files the apply had created, now removed
    remaining: int  # applies still in the journal


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _journal_dir(root: Path) -> Path:
    return root / STATE_DIR / "journal"


def _ensure_state_dir(root: Path) -> None:
    state = root / STATE_DIR
    state.mkdir(exist_ok=True)
    ignore = state / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# kopipasta's undo journal: never committed\n*\n", encoding="utf-8")


def _entries(root: Path) -> list[Path]:
    folder = _journal_dir(root)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if (p / "manifest.json").is_file())


def record(root: Path, changes: Sequence[FileChange]) -> None:
    """Store what `changes` will overwrite, before anything is written."""
    _ensure_state_dir(root)
    folder = _journal_dir(root)
    folder.mkdir(exist_ok=True)
    existing = _entries(root)
    number = int(existing[-1].name.split("-")[0]) + 1 if existing else 1
    entry = folder / f"{number:06d}-{int(time.time())}"
    entry.mkdir()
    files = []
    for i, change in enumerate(changes):
        item: dict[str, object] = {"path": change.path, "after": _digest(change.after), "created": change.before is None}
        if change.before is not None:
            blob = f"{i}.before"
            (entry / blob).write_bytes(change.before)
            item["before"] = blob
        files.append(item)
    (entry / "manifest.json").write_text(json.dumps({"files": files}, indent=1), encoding="utf-8")
    for old in _entries(root)[:-HISTORY]:
        shutil.rmtree(old, ignore_errors=True)


def depth(root: Path) -> int:
    """How many applies can be undone."""
    return len(_entries(root))


def undo(root: Path, *, force: bool = False) -> UndoResult:
    """Put back the newest apply; refuse if a file it wrote has changed since, unless forced."""
    entries = _entries(root)
    if not entries:
        raise JournalError("Nothing to undo: no apply is recorded in .kopipasta/")
    entry = entries[-1]
    try:
        files = json.loads((entry / "manifest.json").read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError) as error:
        raise JournalError(f"The newest journal entry {entry.name} is damaged: {error}") from None
    if not force:
        changed = [f["path"] for f in files if _current_digest(root, f["path"]) != f["after"]]
        if changed:
            raise JournalError(
                f"Refusing to undo: changed since the apply: {', '.join(changed)} (--force puts them back anyway)"
            )
    restored: list[str] = []
    deleted: list[str] = []
    for item in files:
        path = confine(root, item["path"])
        if item["created"]:
            path.unlink(missing_ok=True)
            deleted.append(item["path"])
        else:
            write_atomic(path, (entry / item["before"]).read_bytes())
            restored.append(item["path"])
    shutil.rmtree(entry)
    return UndoResult(tuple(restored), tuple(deleted), len(entries) - 1)


def _current_digest(root: Path, relative: str) -> str | None:
    path = confine(root, relative)
    return _digest(path.read_bytes()) if path.is_file() else None
