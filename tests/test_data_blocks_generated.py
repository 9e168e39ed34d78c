"""Data file blocks written the way replies write them, over real data files read at test time.

The files are the repo's own: tests/data_corpus (a compose file, a workflow, a
Cargo.toml, a Kubernetes deployment, a pyproject.toml), every JSON, YAML and TOML
file of the fixtures' `before/` projects, and this repo's pyproject.toml. For each
one, two replies are written:

- "every top-level key, part below": each top-level key restated, one leaf deep in
  the file changed, every other mapping cut to its first key. Nothing the block
  leaves out may go: the file must load as before with that one value changed, and
  only that value's line may change.
- "a bare key": one key that the file holds only below its top level, sent alone
  with a new value. When one mapping holds it, it is set there; when several do,
  the block is refused naming how many places hold it, and nothing is written.
"""

from __future__ import annotations

import copy
import difflib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from kopipasta.data.yaml_aliases import too_many_aliases
from kopipasta.engine import apply_reply
from kopipasta.model import Status

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
SUFFIXES = {".json": "json", ".yml": "yaml", ".yaml": "yaml", ".toml": "toml"}


def _files() -> list[Path]:
    found = [*sorted((REPO / "tests" / "data_corpus").iterdir()), REPO / "pyproject.toml"]
    found += sorted(p for p in (REPO / "fixtures").glob("*/before/**/*") if p.suffix in SUFFIXES and p.is_file())
    return [p for p in found if p.suffix in SUFFIXES and _load(p) is not None]


def _load(path: Path) -> dict[str, Any] | None:
    text = path.read_text(encoding="utf-8")
    try:
        if path.suffix == ".json":
            data = json.loads(text)
        elif path.suffix == ".toml":
            data = tomllib.loads(text)
        else:
            graphs = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
            # Hostile fixtures hold alias bombs: built, they would take minutes.
            if len(graphs) != 1 or too_many_aliases(graphs) or "*" in text:
                return None
            data = yaml.safe_load(text)
    except Exception:  # noqa: BLE001 — a file on purpose broken (JSONC, a template): not a case
        return None
    plain = isinstance(data, dict) and len(data) >= 2 and _json_like(data)
    return data if plain else None


def _json_like(value: Any) -> bool:
    """Only what every writer here can restate (no dates, no non-string keys)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_like(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_json_like(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def _leaves(data: Any, keys: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Paths (through mappings only) to one-line scalar values."""
    out: list[tuple[str, ...]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, dict):
                out += _leaves(value, (*keys, key))
            elif isinstance(value, (int, str)) and not isinstance(value, bool) and "\n" not in str(value):
                out.append((*keys, key))
    return out


def _changed(value: Any) -> Any:
    return value + 1 if isinstance(value, int) else f"{value}-next"


def _get(data: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        data = data[key]
    return data


def _set(data: Any, keys: tuple[str, ...], value: Any) -> None:
    _get(data, keys[:-1])[keys[-1]] = value


def _every_top_key_part_below(data: dict[str, Any], leaf: tuple[str, ...]) -> dict[str, Any]:
    """Each top-level key restated; the leaf's spine whole down to the new value, every other mapping cut."""

    def cut(value: Any, spine: tuple[str, ...]) -> Any:
        if not isinstance(value, dict) or not value:
            return value
        if not spine:
            first = next(iter(value))
            return {first: cut(value[first], ())}
        return {spine[0]: cut(value[spine[0]], spine[1:]) if len(spine) > 1 else _changed(value[spine[0]])}

    return {key: cut(value, leaf[1:]) if key == leaf[0] else cut(value, ()) for key, value in data.items()}


def _places(data: Any, key: str) -> list[Any]:
    """Every mapping, at any depth below the top, that holds `key`."""
    found: list[Any] = []
    stack = [v for v in data.values()]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if key in node:
                found.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"


def _render(kind: str, data: dict[str, Any]) -> str:
    if kind == "json":
        return json.dumps(data, indent=2) + "\n"
    if kind == "yaml":
        return str(yaml.safe_dump(data, sort_keys=False, default_flow_style=False))
    scalars = [f"{json.dumps(k)} = {_toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    tables = [
        f"[{json.dumps(k)}]\n" + "".join(f"{json.dumps(sk)} = {_toml_value(sv)}\n" for sk, sv in v.items())
        for k, v in data.items()
        if isinstance(v, dict)
    ]
    return "\n".join([*scalars, *tables]) + "\n"


def _reply(relative: str, kind: str, payload: dict[str, Any]) -> str:
    comment = "#" if kind != "json" else "//"
    header = f"{comment} FILE: {relative}\n" if kind != "json" else ""
    prose = f"`{relative}`\n" if kind == "json" else ""  # the path alone on the line above
    return f"{prose}```{kind}\n{header}{_render(kind, payload)}```\n"


def _project(tmp_path: Path, source: Path) -> tuple[Path, str]:
    relative = source.name
    (tmp_path / relative).write_bytes(source.read_bytes())
    return tmp_path, relative


FILES = _files()


def test_the_corpus_is_real_and_varied() -> None:
    kinds = {SUFFIXES[p.suffix] for p in FILES}
    assert kinds == {"json", "yaml", "toml"} and len(FILES) >= 20, FILES


@pytest.mark.parametrize("source", FILES, ids=[p.relative_to(REPO).as_posix() for p in FILES])
def test_every_top_key_restated_with_part_below_changes_one_value(source: Path, tmp_path: Path) -> None:
    data = _load(source)
    assert data is not None
    leaves = [leaf for leaf in _leaves(data) if len(leaf) >= 2]
    if not leaves:
        pytest.skip("no value below the top level")
    leaf = leaves[len(leaves) // 2]
    root, relative = _project(tmp_path, source)
    kind = SUFFIXES[source.suffix]
    before = (root / relative).read_text(encoding="utf-8")
    report = apply_reply(_reply(relative, kind, _every_top_key_part_below(data, leaf)), root)
    [outcome] = report.outcomes
    assert outcome.status is Status.APPLIED, (outcome.message, outcome.hint)
    after = (root / relative).read_text(encoding="utf-8")
    expected = copy.deepcopy(data)
    _set(expected, leaf, _changed(_get(data, leaf)))
    assert _load(root / relative) == expected
    changed = [line for line in difflib.ndiff(before.splitlines(), after.splitlines()) if line[:1] in "+-"]
    assert len(changed) == 2, "\n".join(changed)


@pytest.mark.parametrize("source", FILES, ids=[p.relative_to(REPO).as_posix() for p in FILES])
def test_a_bare_key_is_set_under_its_one_parent_or_refused(source: Path, tmp_path: Path) -> None:
    data = _load(source)
    assert data is not None
    candidates = [leaf for leaf in _leaves(data) if len(leaf) >= 2 and leaf[-1] not in data]
    if not candidates:
        pytest.skip("no key held only below the top level")
    leaf = candidates[0]
    key, value = leaf[-1], _changed(_get(data, leaf))
    root, relative = _project(tmp_path, source)
    kind = SUFFIXES[source.suffix]
    before = (root / relative).read_bytes()
    places = _places(data, key)
    report = apply_reply(_reply(relative, kind, {key: value}), root)
    [outcome] = report.outcomes
    if len(places) == 1:
        assert outcome.status is Status.APPLIED, (outcome.message, outcome.hint)
        expected = copy.deepcopy(data)
        _set(expected, leaf, value)
        assert _load(root / relative) == expected
    else:
        assert outcome.status is Status.FAILED
        assert f"'{key}' is not a top-level key, and {len(places)} places hold one" in outcome.message
        assert (root / relative).read_bytes() == before
