"""What the data formats share: the path syntax, data equality, positions, key listings."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from kopipasta.data.json import Key, key_list, parse_path, render_path

__all__ = ["Key", "TopKey", "key_list", "parse_path", "render_path", "same_data", "newline_of",
           "line_column", "KIND_WORDS", "kind_of", "out_of_range", "plain_key_ok"]

_PLAIN_SEGMENT = re.compile(r"[.\[\]]|^\s|\s$")


@dataclass(frozen=True)
class TopKey:
    """One top-level key or table of a data file, as `kopipasta nodes` lists it."""

    kind: str  # "key", or "table" for a TOML [table] / [[array-of-tables]] element
    name: str  # the TARGET_PATH that selects it
    start: int
    end: int
    line: int
    end_line: int


def plain_key_ok(key: str) -> bool:
    return bool(key) and not _PLAIN_SEGMENT.search(key) and key != "$"


def same_data(a: Any, b: Any) -> bool:
    """Data equality that tells 1 from 1.0 from true and takes NaN as equal to itself."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_data(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_data(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def newline_of(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def line_column(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    return raw.count(b"\n", 0, offset) + 1, len(raw[line_start:offset].decode("utf-8", "replace")) + 1


KIND_WORDS = {"mapping": "a mapping", "sequence": "a sequence", "scalar": "a scalar",
              "table": "a table", "array": "an array", "alias": "an alias", "null": "null"}


def kind_of(word: str) -> str:
    return KIND_WORDS.get(word, word)


def out_of_range(failed: str, index: int, count: int, where: str) -> str:
    items = f"{count} item" + ("" if count == 1 else "s")
    return f"{failed}: index {index} is out of range at {where} ({items})"


def dedent(text: str, indent_chars: str = " \t") -> str:
    """A payload without its blank first and last lines and its common indentation."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    margin = min((len(line) - len(line.lstrip(indent_chars)) for line in lines if line.strip()), default=0)
    return "\n".join(line[margin:] for line in lines)
