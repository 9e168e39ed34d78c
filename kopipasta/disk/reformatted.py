"""The newest apply's files, as a formatter left them: what undo compares against.

`undo` refuses a file whose bytes differ from the hash the journal recorded
after the apply (someone changed it since). `apply --format-cmd` rewrites the
files it just wrote, on purpose: `record_reformatted` moves those hashes to
the formatted bytes, so an undo right after still works, while the bytes
before the apply (the `.before` blobs) stay exactly what undo restores.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from kopipasta.disk import beneath
from kopipasta.disk.digest import sha256_hex
from kopipasta.disk.journal import entry_names, open_journal, writing
from kopipasta.disk.manifest import MANIFEST, JournalError, read_manifest


def written_files(root: Path, entry: str) -> tuple[str, ...]:
    """The files journal `entry` wrote and left in place (created or overwritten, not deleted)."""
    with beneath.root_descriptor(root) as root_fd:
        journal_fd = open_journal(root_fd)
        if journal_fd is None:
            return ()
        try:
            return tuple(item["path"] for item in read_manifest(journal_fd, entry) if item["after"] is not None)
        finally:
            os.close(journal_fd)


def record_reformatted(root: Path, entry: str, paths: Sequence[str]) -> tuple[str, ...]:
    """Record the current bytes of `paths` as what apply `entry` left; returns the files that changed.

    Raises JournalError when `entry` is no longer the newest apply (another
    apply came in between: its own hashes are left alone).
    """
    wanted = set(paths)
    with writing(root) as project:
        journal_fd = open_journal(project.root_fd)
        if journal_fd is None:
            raise JournalError(f"Not recorded: the journal entry {entry} is gone")
        try:
            names = entry_names(journal_fd)
            if not names or names[-1] != entry:
                raise JournalError(f"Not recorded: the newest apply in the journal is no longer {entry}")
            read_manifest(journal_fd, entry)  # checked before it is trusted
            entry_fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=journal_fd)
            try:
                manifest = json.loads(beneath.read_at(entry_fd, MANIFEST, MANIFEST)[0])
                changed: list[str] = []
                for item in manifest["files"]:
                    if item["path"] not in wanted or item["after"] is None:
                        continue
                    found = beneath.read_file(project.root_fd, item["path"])
                    digest = sha256_hex(found[0]) if found is not None else None
                    if digest is not None and digest != item["after"]:
                        item["after"] = digest
                        changed.append(item["path"])
                if changed:
                    _replace_manifest(entry_fd, json.dumps(manifest, indent=1).encode())
                return tuple(changed)
            finally:
                os.close(entry_fd)
        finally:
            os.close(journal_fd)


def _replace_manifest(entry_fd: int, data: bytes) -> None:
    """Write the manifest beside the old one, then rename it over: a crash leaves one or the other."""
    temporary = f".{MANIFEST}.{os.getpid()}"
    beneath.unlink_quietly(entry_fd, temporary)
    beneath.write_temporary(entry_fd, temporary, data, 0o600)
    os.rename(temporary, MANIFEST, src_dir_fd=entry_fd, dst_dir_fd=entry_fd)
    os.fsync(entry_fd)
