"""A YAML or TOML file that parsed before an edit must still parse after it.

TARGET_PATH checks its own result (data/yaml.py, data/toml.py); this is the check for
every other way a data file is written: text patches (text/files.py) and whole-file
blocks (operations.py). The format's own parser is the judge: PyYAML composes every
document (syntax, indentation, anchors and aliases; tags are not constructed, so
`!Ref` and friends pass), tomllib loads the file (which also refuses a key or
`[table]` written twice). YAML's parser accepts a key written twice in one mapping,
which YAML forbids and docker compose, Kubernetes and most loaders refuse, so a key
the edit writes a second time fails too.

A file that did not parse before is not held to it (an edit may well be a partial
fix). A new or empty file is: an empty file parses. A new YAML file holding template
markers (`{{ … }}`, `{% … %}`: a Helm chart's or an Ansible/Jinja template) is not
YAML until it is rendered, so it is not held either.

PyYAML and tomllib are imported here, when a file of that format is checked, never at
start-up (issue 9).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from typing import TYPE_CHECKING, Any

from kopipasta.data import format_of
from kopipasta.errors import SyntaxCheckError

if TYPE_CHECKING:
    import yaml

_TEMPLATE = re.compile(r"\{\{|\{%")
HINTS = {
    "YAML": "nothing was written; keep the file's indentation in the change and write no key twice "
            "in one mapping, or set one value with TARGET_PATH",
    "TOML": "nothing was written; write no key or [table] twice (change the one there), or set one "
            "value with TARGET_PATH",
}


def check_still_parses(path: str, old: bytes, new: bytes, what: str) -> None:
    """Raise SyntaxCheckError naming the file and the parser's first error when `new` breaks
    a YAML or TOML file that parsed as `old`; `what` starts the message (`The diff`)."""
    kind = format_of(path)
    if kind not in ("YAML", "TOML") or old == new:
        return
    try:
        old_text, new_text = old.decode("utf-8"), new.decode("utf-8")
    except UnicodeDecodeError:
        return  # not text the parser can read: the workspace has its own say on encodings
    if kind == "YAML":
        if not old_text.strip() and _TEMPLATE.search(new_text):
            return
        problem = _yaml_breaks(old_text, new_text)
    else:
        problem = _toml_breaks(old_text, new_text)
    if problem is not None:
        raise SyntaxCheckError(f"{what} would break the {kind} of {path}: {problem}", HINTS[kind])


# --- YAML -------------------------------------------------------------------------------------


def _yaml_breaks(old: str, new: str) -> str | None:
    old_graphs = _yaml_graphs(old)
    if isinstance(old_graphs, str):
        return None  # it did not parse before
    new_graphs = _yaml_graphs(new)
    if isinstance(new_graphs, str):
        return new_graphs
    return _new_duplicate(old_graphs, new_graphs)


def _yaml_graphs(text: str) -> list[yaml.Node] | str:
    """The documents' node graphs, or the parser's first error as one line."""
    import yaml

    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return list(yaml.compose_all(text, Loader=fast))
        except yaml.YAMLError:
            pass  # PyYAML's own parser says it better (an alias's name): asked below
    try:
        return list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        return f"{error.problem or error.context}{where}"
    except yaml.YAMLError as error:
        return str(error).splitlines()[0] if str(error) else type(error).__name__
    except RecursionError:
        return "nested too deeply to read"


def _duplicates(graphs: list[yaml.Node]) -> list[tuple[str, int, int]]:
    """Each key written again in its mapping: (key, its line, the first one's line), in order."""
    import yaml

    found: list[tuple[str, int, int]] = []
    seen: set[int] = set()
    stack: list[Any] = list(reversed(graphs))
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue  # an alias: its anchor's node is read once
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            first: dict[tuple[str, str], int] = {}
            for key, _ in node.value:
                if not isinstance(key, yaml.ScalarNode):
                    continue
                line = key.start_mark.line + 1
                name = (key.tag, key.value)
                if name in first:
                    found.append((key.value, line, first[name]))
                else:
                    first[name] = line
            stack.extend(reversed([child for pair in node.value for child in pair]))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
    return found


def _new_duplicate(old: list[yaml.Node], new: list[yaml.Node]) -> str | None:
    before = Counter(key for key, _, _ in _duplicates(old))
    after: Counter[str] = Counter()
    for key, line, first in _duplicates(new):
        after[key] += 1
        if after[key] > before[key]:
            return f"the key '{key}' at line {line} is already in its mapping at line {first}"
    return None


# --- TOML -------------------------------------------------------------------------------------


def _toml_breaks(old: str, new: str) -> str | None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib

    try:
        tomllib.loads(old)
    except tomllib.TOMLDecodeError:
        return None  # it did not parse before
    try:
        tomllib.loads(new)
    except tomllib.TOMLDecodeError as error:
        return str(error)
    return None
