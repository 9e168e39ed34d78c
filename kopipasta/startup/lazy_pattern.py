"""Regular expressions compiled the first time they are used, not when their module is imported.

A module-level `re.compile` runs on every start, whether or not the run ever
matches that pattern: the hot path of a one-block apply imports about fifty
of them, most of which (diff headers, search/replace markers, near-miss
directives) a TARGET_NODE reply never reaches (issue 9). `lazy_compile`
returns a stand-in that compiles on its first method call and then binds the
compiled pattern's methods to itself, so later calls cost what a plain
compiled pattern's do.

Use it only where the pattern is called through its methods (`.match`,
`.search`, `.sub`, …); `re.match(pattern, text)` needs a real `re.Pattern`.
"""

from __future__ import annotations

import re
from typing import Any, AnyStr, cast

_BOUND = ("match", "fullmatch", "search", "sub", "subn", "split", "findall", "finditer", "pattern", "flags", "groups", "groupindex")


class _LazyPattern:
    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # Only reached while an attribute is missing: the first use, or a name not in _BOUND.
        compiled = re.compile(self._source, self._flags)
        for attribute in _BOUND:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self._source!r}, {self._flags})"


def lazy_compile(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(source, flags)`, done at the first call of one of its methods."""
    return cast("re.Pattern[AnyStr]", _LazyPattern(source, flags))
