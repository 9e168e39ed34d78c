"""The top-level keys of a JSON file, as `kopipasta nodes` lists them.

Read with the same loader TARGET_PATH uses, so a JSONC file (tsconfig.json) with comments
and trailing commas lists its keys, and a key listed is a path that resolves.
"""

from __future__ import annotations

from kopipasta.data import json as datapath
from kopipasta.data.common import TopKey, plain_key_ok, render_path
from kopipasta.errors import PatchError


def top_keys(data: bytes, *, allow_comments: bool) -> list[TopKey]:
    """The keys of a top-level object; [] when the file is not one, or repeats a key."""
    try:
        raw, root, _, _ = datapath.load_json(data.decode("utf-8"), "", allow_comments)
    except (PatchError, UnicodeError, RecursionError):
        return []
    if root.type != "object":
        return []
    keys: list[TopKey] = []
    for pair in datapath.members(root):
        name = datapath.key_of(pair, raw) if pair.type == "pair" else None
        if name is None:
            return []
        segment = name if plain_key_ok(name) else render_path([name])[1:]
        keys.append(TopKey("key", segment, pair.start_byte, pair.end_byte,
                           pair.start_point.row + 1, pair.end_point.row + 1))
    if len({k.name for k in keys}) != len(keys):
        return []  # duplicate keys: a path could not say which one
    return keys
