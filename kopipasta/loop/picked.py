"""The file picker's memory: the last selection and task, per project, in `.kopipasta/picked.json`.

The picker (`kopipasta` with no FILES on a terminal) offers them next time: the
files still there are ticked again, the task is the task field's starting text.
Like the prompt record, the file lives in kopipasta's own folder, is written
beneath the root without following a symlink, and never fails the session: a
project that cannot keep it (read-only, say) just starts the picker empty.
"""

from __future__ import annotations

import json
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from kopipasta.disk import beneath
from kopipasta.disk.prompt_record import STATE_DIR
from kopipasta.errors import PatchError

PICKED = "picked.json"
_MAX_TASK = 20_000  # characters kept of a task: the memory is not a place for a file's worth of text


@dataclass(frozen=True)
class Picked:
    files: tuple[str, ...] = ()  # root-relative, "/"-separated
    outline: tuple[str, ...] = ()  # of `files`, those sent as their definitions
    task: str = ""


def recall(root: Path) -> Picked:
    """What was picked last in this project; empty when nothing was, or it cannot be read."""
    try:
        with beneath.root_descriptor(root) as root_fd:
            found = beneath.read_file(root_fd, f"{STATE_DIR}/{PICKED}")
        data = json.loads(found[0].decode("utf-8")) if found is not None else {}
    except (OSError, PatchError, ValueError):
        return Picked()
    if not isinstance(data, dict):
        return Picked()
    files = _strings(data.get("files"))
    outline = tuple(f for f in _strings(data.get("outline")) if f in files)
    task = data.get("task")
    return Picked(files, outline, task if isinstance(task, str) else "")


def remember(root: Path, picked: Picked) -> None:
    """Keep this selection and task for the next picker; silently skipped when it cannot be kept."""
    from kopipasta.disk.journal import JournalError, replace_state_file

    payload = json.dumps(
        {"version": 1, "files": list(picked.files), "outline": list(picked.outline), "task": picked.task[:_MAX_TASK]},
        ensure_ascii=False,
    ).encode("utf-8")
    with suppress(OSError, PatchError, JournalError):
        replace_state_file(root, PICKED, payload)


def _strings(value: object) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()
