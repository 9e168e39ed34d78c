"""A data file's fragment: a block that restates the keys down to the values it changes.

`{"devDependencies": {"vite": "^5.1.2"}}` for a package.json, a YAML mapping down to
one value, a TOML `[table]` with one bumped key: the meaning is as certain as
TARGET_PATH's — those values set, every other byte kept. So the fragment is taken
apart into one path per changed leaf and each is set with the format's own
`set_value`, which keeps every byte outside the value and checks its result.

Only mappings and tables are walked. A sequence is walked only where each item the
payload restates is matched by a key whose value is unique on both sides (`name` in
a list of services); otherwise the payload's sequence is the value, set whole when
it keeps every item of the file's or has as many (a one-for-one replacement), and
refused when it leaves items out (it may be "add this one"). Anything else — a
payload that is not one mapping, a file of several YAML documents, a file that does
not load — is not a fragment, and the caller keeps its refusal.

Whole or fragment is decided here too (`left_out`): a data block is the whole file
only when it restates every key, at every level it descends into. One that would
drop keys the reply does not say it removes is a fragment, even when it restates
every top-level key (`services:` with one service's image), and the keys it leaves
out are kept and named in the report. A block none of whose keys is a top-level key
of the file (`ports:` alone for a compose file) belongs below: under the one mapping
that holds such a key, or nowhere certain when several do (`runs-on:` in a workflow
with three jobs), and then it is refused, the candidates named.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

from kopipasta.data.common import Key, render_path, same_data
from kopipasta.errors import PayloadError


class NotAFragment(Exception):
    """The payload does not read as a fragment of the file; `reason` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AliasesTooFar(NotAFragment):
    """A side whose YAML aliases expand past the budget: its keys cannot be compared at all."""


# Not a mapping on one side: the reading's own reason ("it is one string, and the file holds
# an object") says more than this, and stands (code/edit/operations.py).
NOT_A_MAPPING = "it is not a mapping of the file's keys"


@dataclass(frozen=True)
class Applied:
    text: str
    paths: tuple[str, ...]  # the paths set, as TARGET_PATH spells them
    kept: tuple[str, ...] = ()  # keys left out of a block that restated every top-level key


def left_out(kind: str, source: str, payload: str, *, file: str) -> list[str] | None:
    """The paths of the file's keys, in the mappings the block restates, that the block leaves out.

    None when either side does not load as one mapping (the caller judges it by its lines);
    AliasesTooFar when one does but its aliases expand past the budget (nothing can be told).
    """
    jsonc = kind == "JSON" and _allows_comments(file)
    try:
        have = _load(kind, source, what="the file", jsonc=jsonc, file=file)
        sent = _load(kind, payload, what="the block", bare_pairs=kind == "JSON", jsonc=jsonc, file=file)
    except AliasesTooFar:
        raise
    except NotAFragment:
        return None
    if not isinstance(have, dict) or not isinstance(sent, dict):
        return None
    missing: list[str] = []
    stack: list[tuple[dict[Any, Any], dict[Any, Any], list[Key]]] = [(have, sent, [])]
    while stack:
        old, new, keys = stack.pop()
        for key, value in old.items():
            if key not in new:
                missing.append(_path([*keys, key]))
            elif isinstance(value, dict) and isinstance(new[key], dict):
                stack.append((value, new[key], [*keys, key]))
    return sorted(missing)


def apply_fragment(kind: str, source: str, payload: str, *, file: str) -> Applied:
    """`source` with every value the fragment `payload` restates set; NotAFragment when it is none."""
    from kopipasta import data as data_formats

    jsonc = kind == "JSON" and _allows_comments(file)
    have = _load(kind, source, what="the file", jsonc=jsonc, file=file)
    sent = _load(kind, payload, what="the block", bare_pairs=kind == "JSON", jsonc=jsonc, file=file)
    if not isinstance(have, dict) or not isinstance(sent, dict) or not sent:
        raise NotAFragment(NOT_A_MAPPING)
    kept: tuple[str, ...] = ()
    if have and all(key in sent for key in have):
        kept = tuple(left_out(kind, source, payload, file=file) or ())
    elif have and not any(key in have for key in sent):
        sent = _rooted(have, sent, file)
    leaves: list[tuple[list[Key], Any]] = []
    _walk(have, sent, [], leaves)
    text = source
    paths: list[str] = []
    for keys, value in leaves:
        path = render_path(keys).removeprefix("$").removeprefix(".")
        text = data_formats.set_value(text, path, _value_text(kind, value), file=file)
        paths.append(path)
    return Applied(text, tuple(paths), kept)


def _path(keys: list[Key]) -> str:
    return render_path(keys).removeprefix("$").removeprefix(".")


def _rooted(have: dict[Any, Any], sent: dict[Any, Any], file: str) -> dict[Any, Any]:
    """A block of keys the file holds only below its top level, set under the one mapping that holds them.

    `ports:` alone for a compose file whose one service has ports means that
    service's; when no mapping holds any of the keys they are new top-level keys;
    when several do, which one the block means is not certain.
    """
    places: list[list[Key]] = []
    stack: list[tuple[Any, list[Key]]] = [(value, [key]) for key, value in reversed(have.items())]
    while stack:
        node, keys = stack.pop()
        if isinstance(node, dict):
            if any(key in node for key in sent):
                places.append(keys)
            stack.extend((value, [*keys, key]) for key, value in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((item, [*keys, index]) for index, item in reversed(list(enumerate(node))))
    if not places:
        return sent
    first = next(iter(sent))
    if len(places) > 1:
        shown = ", ".join(_path(keys) for keys in places[:3]) + (", …" if len(places) > 3 else "")
        raise PayloadError(
            f"File block for {file}: '{first}' is not a top-level key, and {len(places)} places hold one "
            f"({shown}): which one the block means is not certain",
            f"name it with `TARGET_PATH: {_path([*places[0], first])}`",
        )
    place = places[0]
    if not all(isinstance(key, str) for key in place):
        raise PayloadError(
            f"File block for {file}: '{first}' is not a top-level key, and the one place that holds it "
            f"({_path(place)}) is an item of a list",
            f"name it with `TARGET_PATH: {_path([*place, first])}`",
        )
    rooted = sent
    for key in reversed(place):
        rooted = {key: rooted}
    return rooted


def _walk(have: Any, sent: Any, keys: list[Key], leaves: list[tuple[list[Key], Any]]) -> None:
    if same_data(have, sent):
        return
    if isinstance(have, dict) and isinstance(sent, dict):
        for key, value in sent.items():
            if key in have:
                _walk(have[key], value, [*keys, key], leaves)
            else:
                leaves.append(([*keys, key], value))  # a new key in a mapping the file has
        return
    if isinstance(have, list) and isinstance(sent, list):
        matched = _matched_items(have, sent)
        if matched is not None:
            for index, item in matched:
                _walk(have[index], item, [*keys, index], leaves)
            return
        restated = {_fingerprint(new) for new in sent}
        kept_all = all(_fingerprint(old) in restated for old in have)
        if not kept_all and len(sent) != len(have):
            where = render_path(keys).removeprefix("$").removeprefix(".")
            raise NotAFragment(
                f"its '{where}' holds {len(sent)} of the file's {len(have)} items, and none is matched by a unique key"
            )
    leaves.append((keys, sent))


def _matched_items(have: list[Any], sent: list[Any]) -> list[tuple[int, Any]] | None:
    """Each restated item with the index of the one file item sharing its unique key, or None."""
    if not sent or not all(isinstance(item, dict) for item in [*have, *sent]):
        return None
    for field in sent[0]:
        ids = [item.get(field) for item in have]
        wanted = [item.get(field) for item in sent]
        if not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in [*ids, *wanted]):
            continue
        if len(set(ids)) != len(ids) or len(set(wanted)) != len(wanted) or not set(wanted) <= set(ids):
            continue
        index = {value: position for position, value in enumerate(ids)}
        return [(index[item[field]], item) for item in sent]
    return None


def _fingerprint(value: Any) -> Any:
    """A hashable stand-in equal for equal data as `same_data` tells it (1, 1.0 and true apart):
    restated lists are compared in one pass, not item against item."""
    if isinstance(value, dict):
        return ("map", frozenset((_fingerprint(k), _fingerprint(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(_fingerprint(item) for item in value))
    if isinstance(value, float) and value != value:
        return ("nan",)
    try:
        hash(value)
    except TypeError:
        return (type(value).__name__, repr(value))
    return (type(value).__name__, value)


def _allows_comments(file: str) -> bool:
    from kopipasta.data.json import allows_comments

    return allows_comments(file)


# The last two texts loaded, with what they gave: `left_out` (is the block the whole file?) and
# `apply_fragment` load the same two texts one after the other, and a YAML text of 20,000 items
# costs 0.1 s each time. Nothing here changes what it was given (the data is only read).
_LOADED: list[tuple[tuple[Any, ...], Any]] = []


def _load(kind: str, text: str, *, what: str, bare_pairs: bool = False, jsonc: bool = False, file: str = "") -> Any:
    key = (kind, text, what, bare_pairs, jsonc, file)
    for seen, result in _LOADED:
        if seen == key:
            if isinstance(result, NotAFragment):
                raise type(result)(result.reason)
            return result
    try:
        result = _load_once(kind, text, what=what, bare_pairs=bare_pairs, jsonc=jsonc, file=file)
    except NotAFragment as refused:
        result = refused
    _LOADED.insert(0, (key, result))
    del _LOADED[2:]  # one block's two texts: a server does not keep more alive between calls
    if isinstance(result, NotAFragment):
        raise type(result)(result.reason)
    return result


def _load_once(kind: str, text: str, *, what: str, bare_pairs: bool, jsonc: bool, file: str) -> Any:
    try:
        if kind == "JSON":
            loads = _jsonc_loads(file) if jsonc else json.loads
            try:
                return loads(text)
            except Exception:  # noqa: BLE001 — json's ValueError, or the JSONC loader's SyntaxCheckError
                stripped = text.strip().rstrip(",")
                if not (bare_pairs and stripped.startswith('"')):
                    raise
                return loads("{" + stripped + "}")  # `"devDependencies": {…}` without its braces
        if kind == "YAML":

            from kopipasta.data.yaml_aliases import compose_all, too_many_aliases
            from kopipasta.data.yaml_style import construct

            graphs = compose_all(text)
            if len(graphs) != 1:
                raise NotAFragment(f"{what} holds {len(graphs)} YAML documents")
            if too_many_aliases(graphs, text):
                raise AliasesTooFar(f"{what} expands its aliases too far to compare its values")
            return construct(graphs[0])
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover
            import tomli as tomllib

        return tomllib.loads(text)
    except NotAFragment:
        raise
    except Exception as error:  # noqa: BLE001 — each parser has its own error class; any means "not that format"
        raise NotAFragment(f"{what} does not read as {kind} ({str(error).splitlines()[0] if str(error) else error})") from None


def _jsonc_loads(file: str) -> Any:
    """JSON with comments and trailing commas (tsconfig.json), read as TARGET_PATH reads it."""
    from kopipasta.data.json import load_jsonc

    return lambda text: load_jsonc(text, file)


def _value_text(kind: str, value: Any) -> str:
    """The value as a payload of the format; `set_value` writes it in the file's style."""
    if kind == "JSON":
        return json.dumps(value, ensure_ascii=False, indent=2)
    if kind == "YAML":
        import yaml

        if isinstance(value, (dict, list)):
            # libyaml's emitter when PyYAML has it: the same text, 2x faster on a 20,000-item list
            dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
            return str(yaml.dump(value, Dumper=dumper, default_flow_style=False, sort_keys=False, allow_unicode=True))
        if isinstance(value, (str, int, float, bool)) or value is None:
            return json.dumps(value, ensure_ascii=False)
        return str(yaml.safe_dump(value)).removesuffix("\n...\n").strip()  # a date
    return _toml_value(value)


def _toml_key(key: str) -> str:
    """A bare key when TOML allows one (`strict`), else a quoted one."""
    return key if key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    raise PayloadError(f"cannot write {value!r} as TOML")
