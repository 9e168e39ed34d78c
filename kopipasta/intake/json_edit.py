"""Claude Code's edit tool calls as a reply shows them: JSON `old_string` → `new_string` edits.

    {"file_path": "/home/me/app/src/x.py", "old_string": "…", "new_string": "…"}
    {"file_path": "src/x.py", "edits": [{"old_string": "…", "new_string": "…", "replace_all": true}]}

(also a list of those, or one wrapped as a tool call: `{"name": "Edit", "input": {…}}`).
Each edit is a search/replace section with Claude Code's meaning: its old text stands
exactly once in the file, even starting or ending inside a line (text/midline.py), or
every time with `replace_all`. The path may be absolute, as Claude Code writes it;
`kopipasta.text.rooted` finds it in the project.

A JSON payload of another shape is not an edit and is left alone: a JSON file's content
is never read as one. A block whose FILE names a `.json` file other than the edit's own
is that file's content.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kopipasta.errors import PayloadError
from kopipasta.model import Block

_EDIT_KEYS = frozenset({"file_path", "old_string", "new_string", "replace_all", "edits"})
_ONE_EDIT_KEYS = frozenset({"old_string", "new_string", "replace_all"})
_CALL_KEYS = frozenset({"name", "tool", "type", "id", "input", "parameters", "arguments"})


@dataclass(frozen=True)
class Edit:
    """One old → new replacement, as lines (a line ending closing both sides taken off)."""

    old: list[str]
    new: list[str]
    replace_all: bool


def _unwrapped(value: Any) -> Any:
    """A tool call's arguments (`{"name": "Edit", "input": {…}}`), or the value itself."""
    if isinstance(value, dict) and set(value) <= _CALL_KEYS:
        for key in ("input", "parameters", "arguments"):
            inner = value.get(key)
            if isinstance(inner, str):
                try:
                    inner = json.loads(inner)
                except ValueError:
                    return value
            if isinstance(inner, dict):
                return inner
    return value


def _is_edit(value: Any) -> bool:
    if not isinstance(value, dict) or not set(value) <= _EDIT_KEYS or not isinstance(value.get("file_path"), str):
        return False
    if "edits" in value:
        return "old_string" not in value and isinstance(value["edits"], list)
    return "old_string" in value and "new_string" in value


def _edit(edit: Any, number: int, where: str) -> Edit:
    if not isinstance(edit, dict) or not set(edit) <= _ONE_EDIT_KEYS or not {"old_string", "new_string"} <= set(edit):
        raise PayloadError(
            f"{where}: its edit {number} is not an {{\"old_string\", \"new_string\"}} object",
            "nothing was written; give each edit its old_string and new_string",
        )
    old, new, every = edit["old_string"], edit["new_string"], edit.get("replace_all", False)
    if not isinstance(old, str) or not isinstance(new, str) or not isinstance(every, bool):
        raise PayloadError(f"{where}: its edit {number} has a value that is not text", "nothing was written; resend the edit")
    if not old.strip():
        raise PayloadError(
            f"{where}: its edit {number} has an empty old_string, which says nothing about where the new text goes",
            "nothing was written; give the lines the new text replaces, or the whole file under FILE",
        )
    # A line ending closing both sides is the end of their last line, not a blank line after it;
    # one closing the old side alone, with nothing new, removes that whole line.
    if old.endswith("\n") and (new.endswith("\n") or new == ""):
        old, new = old[:-1], new[:-1] if new else new
    return Edit(old.split("\n"), new.split("\n") if new else [], every)


def read_json_edits(block: Block) -> list[tuple[str, list[Edit]]] | None:
    """The block's edits, file by file in reply order, or None when its payload is not Claude Code's edit."""
    payload = block.payload.strip()
    if not payload.startswith(("{", "[")) or '"old_string"' not in payload and '"edits"' not in payload:
        return None
    try:
        value = json.loads(payload)
    except ValueError:
        return None
    items = [_unwrapped(v) for v in (value if isinstance(value, list) else [value])]
    if not items or not all(_is_edit(item) for item in items):
        return None
    files: dict[str, list[Edit]] = {}
    for item in items:
        path = item["file_path"].strip()
        if block.file and block.file.lower().endswith(".json") and not path.endswith(block.file):
            return None  # a JSON file's content that happens to look like an edit
        where = f"Block {block.index} (line {block.line}) for {path}"
        edits = item["edits"] if "edits" in item else [{k: v for k, v in item.items() if k != "file_path"}]
        if not edits:
            raise PayloadError(f"{where}: its edits list is empty", "nothing was written; resend the edit")
        known = files.setdefault(path, [])
        known.extend(_edit(edit, len(known) + k + 1, where) for k, edit in enumerate(edits))
    return list(files.items())
