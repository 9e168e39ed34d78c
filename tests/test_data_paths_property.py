"""Random TARGET_PATHs set in real YAML and TOML files: one value changes, nothing else.

Seeded random cases (no hypothesis: the cases are drawn from each file's own paths, which
a strategy would have to be rebuilt for per file). For each file in tests/data_corpus, and
its CRLF twin, paths are drawn from the file's data (values at any depth, sequence items,
new keys in existing mappings/tables) and random payloads, written in several spellings,
are set. Each case checks, with code of its own (not the implementation's):

- the data read back equals the old data with exactly that value set (YAML: the old
  document's node graph with the node swapped, so aliases follow as YAML means; TOML: the
  old dict with the key set);
- the bytes outside the value are kept: the changed region of the old text lies within the
  value's own span as PyYAML's marks give it (YAML), or keeps every comment line and
  [header] line (TOML; a table's own body comments go with the body it is given); a new
  key only inserts, right after its mapping;
- a refusal is one of the few explicit ones (a path through an alias; a block payload for
  a value inside a flow collection, which cannot hold one; a value replaced without the
  anchor it held, that an alias further down uses; an anchored mapping that a `<<:` merge
  uses, set to a scalar) and never "would change more".

`pytest tests/test_data_paths_property.py -s` prints the counts.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from kopipasta.data import set_value
from kopipasta.data.common import plain_key_ok, same_data
from kopipasta.errors import PatchError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CORPUS = Path(__file__).parent / "data_corpus"
YAML_FILES = ["ci.yml", "docker-compose.yml", "deployment.yaml"]
TOML_FILES = ["pyproject.toml", "Cargo.toml"]
CASES_PER_FILE = 60
SEED = 20261126
ACCEPTED_REFUSALS = ("is the alias", "sits in a flow collection", "goes in a flow mapping",
                     "would remove the anchor", "for merging, but found")

WORDS = ["hello", "two words", "with: colon", "hash # inside", "quote's", 'double "q"', "123", "yes",
         "null", "", "ünïcödé", "  lead", "*star", "- dash", "@at", "{brace}", "ends with:", "0x1F",
         "tab\tin", "latest", "8080:80", "a,b"]
KEYS = ["alpha", "beta", "gamma", "new-key", "x_y"]


def _scalar(rng: random.Random) -> Any:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randint(-1000, 100000)
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return round(rng.uniform(-100, 100), 2)
    return rng.choice(WORDS)


def _value(rng: random.Random, *, nulls: bool, nested: bool = False) -> Any:
    kind = rng.randrange(10)
    if kind < 6:
        value = _scalar(rng)
        return None if nulls and kind == 0 and rng.random() < 0.3 else value
    if kind < 8:
        return [_scalar(rng) for _ in range(rng.randint(1, 3))]
    if kind == 8 and nested:  # a sequence of mappings holding sequences, as CI steps are
        return [{"name": _scalar(rng), "with": [_scalar(rng)]} for _ in range(rng.randint(1, 2))]
    return {rng.choice(KEYS) + str(i): _scalar(rng) for i in range(rng.randint(1, 3))}


def _path_text(keys: list[str | int]) -> str:
    parts = []
    for key in keys:
        if isinstance(key, int):
            parts.append(f"[{key}]")
        elif plain_key_ok(key):
            parts.append(("." if parts else "") + key)
        else:
            parts.append(f"[{json.dumps(key, ensure_ascii=False)}]")
    return "".join(parts)


def _changed_region(old: str, new: str) -> tuple[int, int, int]:
    """(start, end in old, end in new) of the one region where old and new differ."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return start, end_old, end_new


# --- YAML -------------------------------------------------------------------------------------


def _yaml_payload(rng: random.Random, value: Any) -> str:
    style = rng.randrange(4)
    if style == 0:
        return json.dumps(value, ensure_ascii=False)
    text = yaml.dump(value, Dumper=_IndentedSequences if style == 3 else yaml.SafeDumper,
                     default_flow_style=(style == 1), allow_unicode=True, sort_keys=False,
                     indent=4 if style == 3 else 2)
    return text.removesuffix("...\n")


class _IndentedSequences(yaml.SafeDumper):
    """Four-space steps, and sequences indented under their keys: the other common style."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _nodes(node: yaml.Node, keys: list[str | int], out: list[tuple[list[str | int], yaml.Node]],
           seen: set[int]) -> None:
    """Every node with its path; an alias's node (seen before) is listed, not entered."""
    out.append((keys, node))
    if id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                _nodes(value, [*keys, key.value], out, seen)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _nodes(item, [*keys, index], out, seen)


def _tight_end(node: yaml.Node, text: str) -> int:
    """Where a node's last character is: a block collection ends with its last value."""
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        value = last[1] if isinstance(last, tuple) else last
        if value.start_mark.index < node.start_mark.index:  # an alias: its anchor is earlier
            if not isinstance(last, tuple):
                return node.end_mark.index
            match = re.compile(r"\s*:\s*\*[^\s,\]}]+").match(text, last[0].end_mark.index)
            assert match is not None
            return match.end()
        return _tight_end(value, text)
    return node.end_mark.index


def _gap_start(text: str, index: int) -> int:
    while index > 0 and text[index - 1] in " \t\r\n":
        index -= 1
    return index


def _graph_at(document: yaml.Node, keys: list[str | int]) -> yaml.Node:
    node = document
    for key in keys:
        node = node.value[key] if isinstance(key, int) else next(v for k, v in node.value if k.value == key)
    return node


def _yaml_case(rng: random.Random, text: str, file: str) -> str:
    documents = list(yaml.compose_all(text))
    doc_index = rng.randrange(len(documents))
    candidates: list[tuple[list[str | int], yaml.Node]] = []
    _nodes(documents[doc_index], [], candidates, set())
    candidates = [c for c in candidates if c[0]]
    keys, node = rng.choice(candidates)
    alias = sum(n is node for _, n in candidates) > 1 and next(k for k, n in candidates if n is node) != keys
    adding = isinstance(node, yaml.MappingNode) and rng.random() < 0.25
    if adding:
        keys = [*keys, f"added_{rng.randrange(1000)}"]
    value = _value(rng, nulls=True, nested=True)
    payload = _yaml_payload(rng, value)
    prefix: list[str | int] = [doc_index] if len(documents) > 1 else []
    path = _path_text([*prefix, *keys])
    try:
        result = set_value(text, path, payload, file=file)
    except PatchError as error:
        assert "would change more" not in error.message, (path, payload, error.message)
        assert any(reason in error.message for reason in ACCEPTED_REFUSALS), (path, payload, error.message)
        return "refused"
    # The data: the old graph with the node at the path swapped for the payload's.
    new_value = yaml.compose(payload + "\n")
    expected_graph = list(yaml.compose_all(text))
    parent = _graph_at(expected_graph[doc_index], keys[:-1])
    if adding:
        parent.value.append((yaml.ScalarNode("tag:yaml.org,2002:str", keys[-1]), new_value))
    elif alias:  # the alias is replaced, not the node its anchor names
        last = keys[-1]
        if isinstance(last, int):
            parent.value[last] = new_value
        else:
            index = next(i for i, (k, _) in enumerate(parent.value) if k.value == last)
            parent.value[index] = (parent.value[index][0], new_value)
    else:  # in place: the node keeps its anchor, so its aliases show the new value too
        target = _graph_at(expected_graph[doc_index], keys)
        target.__class__, target.__dict__ = new_value.__class__, dict(new_value.__dict__)
    expected = [yaml.constructor.SafeConstructor().construct_document(g) for g in expected_graph]
    actual = list(yaml.safe_load_all(result))
    assert same_data(actual, expected), (path, payload, result)
    # The bytes: one region changed, inside the value's span (or right after the mapping).
    start, end_old, _ = _changed_region(text, result)
    if result == text:
        return "unchanged"
    if alias:  # the alias itself was replaced: its place is not in the graph's marks
        return "applied"
    if adding:
        tight = _tight_end(node, text)
        if isinstance(node, yaml.MappingNode) and node.flow_style:
            assert node.start_mark.index < start <= tight and end_old == start, (path, payload, result)
        else:
            assert end_old == start and re.fullmatch(r"[ \t]*(#[^\n]*)?\s*", text[tight:start]), (path, payload, result)
    else:
        assert _gap_start(text, node.start_mark.index) <= start, (path, payload, result)
        # The comment ending the value's last line may go with it (data/yaml_comments.py).
        tight = _tight_end(node, text)
        comment = re.compile(r"[ \t]+#[^\r\n]*").match(text, tight)
        assert end_old <= max(comment.end() if comment else tight, start), (path, payload, result)
    return "applied"


# --- TOML -------------------------------------------------------------------------------------


def _toml_scalar(value: Any, rng: random.Random) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return hex(value) if value >= 0 and rng.random() < 0.2 else str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str) and rng.random() < 0.3 and "'" not in value and value.isprintable():
        return f"'{value}'"
    return json.dumps(value, ensure_ascii=False)


def _toml_value(value: Any, rng: random.Random) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v, rng) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v, rng)}" for k, v in value.items()) + " }"
    return _toml_scalar(value, rng)


def _toml_payload(rng: random.Random, value: Any, key: str | int, table: bool) -> str:
    if isinstance(value, dict) and (table or rng.random() < 0.5):
        return "\n".join(f"{k} = {_toml_value(v, rng)}" for k, v in value.items())
    text = _toml_value(value, rng)
    if isinstance(key, str) and plain_key_ok(key) and re.fullmatch(r"[A-Za-z0-9_-]+", key) and rng.random() < 0.3:
        return f"{key} = {text}"  # the key restated, as TOML people write it
    return text


def _toml_paths(data: Any, keys: list[str | int], out: list[list[str | int]]) -> None:
    if keys:
        out.append(keys)
    if isinstance(data, dict):
        for key, value in data.items():
            _toml_paths(value, [*keys, key], out)
    elif isinstance(data, list):
        for index, item in enumerate(data):
            _toml_paths(item, [*keys, index], out)


def _set(data: Any, keys: list[str | int], value: Any) -> Any:
    for key in keys[:-1]:
        data = data[key]
    data[keys[-1]] = value


def _toml_case(rng: random.Random, text: str, file: str) -> str:
    data = tomllib.loads(text)
    paths: list[list[str | int]] = []
    _toml_paths(data, [], paths)
    keys = rng.choice(paths)
    old: Any = data
    for key in keys:
        old = old[key]
    if isinstance(old, dict) and rng.random() < 0.3:
        keys = [*keys, f"added_{rng.randrange(1000)}"]
        old = None
    value = _value(rng, nulls=False)
    payload = _toml_payload(rng, value, keys[-1], isinstance(old, dict))
    path = _path_text(keys)
    try:
        result = set_value(text, path, payload, file=file)
    except PatchError as error:
        assert "would change more" not in error.message, (path, payload, error.message)
        # The explicit refusals of tables that have no section of their own to hold the change.
        assert re.search(r"is a table (written only|that continues)|array of tables|inside an array element|"
                         r"takes one value|is not a table|no section of its own", error.message), (path, payload, error.message)
        return "refused"
    expected = tomllib.loads(text)
    _set(expected, keys, tomllib.loads(f"v = {payload}")["v"] if "=" not in payload.split("\n")[0].split('"')[0]
         or payload.lstrip().startswith("{") else _payload_value(payload, keys[-1]))
    assert same_data(tomllib.loads(result), expected), (path, payload, result)
    if result == text:
        return "unchanged"
    start, end_old, _ = _changed_region(text, result)
    line_from = text.rfind("\n", 0, start) + 1
    line_to = text.find("\n", end_old)
    touched = text[line_from:len(text) if line_to < 0 else line_to]
    # A table's comments inside its body go with the body it is given; all others stay.
    markers = ("[",) if isinstance(old, dict) else ("#", "[")
    kept = [line for line in touched.split("\n") if line.strip().startswith(markers)]
    for line in kept:  # a comment or header line in the changed lines is still there, in place
        assert line in result, (path, payload, line, result)
    assert text[:start] == result[:start] and text[end_old:] == result[len(result) - (len(text) - end_old):]
    return "applied"


def _payload_value(payload: str, key: str | int) -> Any:
    table = tomllib.loads(payload)
    return table[key] if isinstance(key, str) and list(table) == [key] else table


# --- the runs ---------------------------------------------------------------------------------


def _variants(name: str) -> list[tuple[str, str]]:
    text = (CORPUS / name).read_text(encoding="utf-8")
    return [(name, text), (name + " (CRLF)", text.replace("\n", "\r\n"))]


@pytest.mark.parametrize("name", YAML_FILES + TOML_FILES)
def test_random_paths_change_one_value_and_nothing_else(name: str) -> None:
    rng = random.Random(f"{SEED}-{name}")
    counts: dict[str, int] = {"applied": 0, "unchanged": 0, "refused": 0}
    for label, text in _variants(name):
        for _ in range(CASES_PER_FILE):
            case = _yaml_case if name in YAML_FILES else _toml_case
            outcome = case(rng, text, name)
            counts[outcome] += 1
            if label.endswith("(CRLF)") and outcome == "applied":
                pass
    total = sum(counts.values())
    print(f"\n{name}: {total} cases: {counts}")
    assert total == 2 * CASES_PER_FILE
    assert counts["applied"] >= total * 0.75, counts
