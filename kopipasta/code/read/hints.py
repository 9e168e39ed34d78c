"""Hints that point the right way for the file at hand (issue 10, item 7).

A data file is changed with TARGET_PATH, never TARGET_NODE: a hint that says
"TARGET_NODE" or "send the whole file" about package.json sends the model the
wrong way, so these helpers pick the words (and list the keys) by file type.
"""

from __future__ import annotations

from kopipasta import data as data_formats

_MAX_KEYS_SHOWN = 12


def targeted_block(file: str) -> str:
    """The block that changes one part of `file`, as a hint names it."""
    if data_formats.format_of(file) is not None:
        return "a TARGET_PATH block for just the value that changes"
    return "a TARGET_NODE block for just the definition that changes"


def target_node_on_data(file: str, target: str, data: bytes) -> tuple[str, str]:
    """Message and hint for TARGET_NODE (or INSERT_*/DELETE_NODE) on a data file: say TARGET_PATH, list the keys."""
    try:
        keys = [key.name for key in data_formats.top_keys(data, file)]
    except Exception:  # noqa: BLE001 — a hint must never fail the failure
        keys = []
    name = target.split()[-1] if target.split() else target
    example = name if name in keys else (keys[0] if keys else "key.sub")
    message = f"{target} in {file}: a {data_formats.format_of(file)} file has keys, not definitions"
    if keys:
        shown = ", ".join(keys[:_MAX_KEYS_SHOWN]) + (f" and {len(keys) - _MAX_KEYS_SHOWN} more" if len(keys) > _MAX_KEYS_SHOWN else "")
        hint = f"use TARGET_PATH: {example} (its top-level keys: {shown})"
    else:
        hint = f"use TARGET_PATH: {example} for one value, or send the whole file (FILE and no target)"
    return message, hint
