"""The data value at a TARGET_PATH, in any of the three formats: what staleness compares.

A TARGET_PATH block is stale when the value at its path differs from the value the
prompt showed (issue 18, item 7). The value is compared as data, so reformatting a
file the prompt showed does not make its values stale; a path that leads nowhere on
both sides (a new key) is the same on both.
"""

from __future__ import annotations

import sys
from typing import Any

from kopipasta.data import format_of
from kopipasta.data.common import Key, parse_path, same_data
from kopipasta.errors import PatchError

MISSING = object()  # no value at the path (a parent missing, or of another kind)


def value_at(text: str, path: str, file: str) -> Any:
    """The data at `path` in `text`, or MISSING; PatchError when the text does not parse."""
    keys = parse_path(path.strip(), file)
    kind = format_of(file)
    if kind == "YAML":
        documents = _yaml_documents(text, file)
        if len(documents) == 1:
            return _walk(documents[0], keys)
        return _walk(documents, keys)  # `[1].spec`: the document's index first
    if kind == "TOML":
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover
            import tomli as tomllib

        try:
            return _walk(tomllib.loads(text), keys)
        except tomllib.TOMLDecodeError as error:
            raise PatchError(f"{file} is not valid TOML: {error}") from None
    from kopipasta.data import json as datapath

    return _walk(datapath.load_json(text, file, datapath.allows_comments(file))[2], keys)


def same_value(a: Any, b: Any) -> bool:
    if a is MISSING or b is MISSING:
        return a is b
    return same_data(a, b)


def _yaml_documents(text: str, file: str) -> list[Any]:
    import yaml

    from kopipasta.data.yaml_aliases import compose_all, too_many_aliases
    from kopipasta.data.yaml_style import construct

    try:
        graphs = compose_all(text)
    except yaml.YAMLError as error:
        raise PatchError(f"{file} is not valid YAML: {str(error).splitlines()[0]}") from None
    if too_many_aliases(graphs, text):
        raise PatchError(f"{file} expands its aliases too far to compare its values")
    return [construct(graph) for graph in graphs]


def _walk(data: Any, keys: list[Key]) -> Any:
    for key in keys:
        if isinstance(key, int) and isinstance(data, list) and -len(data) <= key < len(data) or isinstance(key, str) and isinstance(data, dict) and key in data:
            data = data[key]
        else:
            return MISSING
    return data
