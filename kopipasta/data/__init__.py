"""TARGET_PATH in data files (PROTOCOL.md §5), one module per format behind one interface.

`format_of(path)` names the format of a file (or None), `set_value` sets one value, and
`top_keys` lists what `kopipasta nodes` shows. JSON lives in `json.py` (its keys
for `nodes` in `json_keys.py`); YAML in `yaml.py` (+ `yaml_tree.py`, `yaml_style.py`), TOML
in `toml.py` (+ `toml_tree.py`, `toml_payload.py`). Each finds the value's byte span with Tree-sitter,
writes the new value in the file's own style, and checks the result by parsing it again:
every byte outside the changed value is kept.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kopipasta.data.common import TopKey

# Each format's modules are imported when a value of that format is set or listed: `format_of`,
# asked by hints and the apply log about every file, must not load the JSON path (issue 9).

_SUFFIXES = {".json": "JSON", ".jsonc": "JSON", ".yaml": "YAML", ".yml": "YAML", ".toml": "TOML"}


def format_of(path: str) -> str | None:
    """"JSON", "YAML" or "TOML" for a data file that TARGET_PATH can address, else None."""
    return _SUFFIXES.get(PurePosixPath(path.replace("\\", "/")).suffix.lower())


def set_value(source: str, path: str, payload: str, *, file: str) -> str:
    """Return `source` with the value at `path` set to `payload` (written in the file's format)."""
    kind = format_of(file)
    if kind == "YAML":
        from kopipasta.data import yaml

        return yaml.set_yaml_value(source, path, payload, file=file)
    if kind == "TOML":
        from kopipasta.data import toml

        return toml.set_toml_value(source, path, payload, file=file)
    from kopipasta.data import json as datapath

    return datapath.set_json_value(source, path, payload, file=file,
                                   allow_comments=datapath.allows_comments(file))


def top_keys(data: bytes, file: str) -> list[TopKey]:
    """The top-level keys (and, in TOML, the tables) of a data file; [] when unreadable."""
    kind = format_of(file)
    if kind == "YAML":
        from kopipasta.data import yaml

        return yaml.top_keys(data)
    if kind == "TOML":
        from kopipasta.data import toml

        return toml.top_keys(data)
    from kopipasta.data import json as datapath
    from kopipasta.data import json_keys

    return json_keys.top_keys(data, allow_comments=datapath.allows_comments(file))


def value_text(data: bytes, file: str, start: int) -> str | None:
    """A YAML or TOML top-level entry's value as a payload that restates it (for examples)."""
    kind = format_of(file)
    if kind == "YAML":
        from kopipasta.data import yaml

        return yaml.value_text(data, start)
    if kind == "TOML":
        from kopipasta.data import toml

        return toml.value_text(data, start)
    return None
