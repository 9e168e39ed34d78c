"""Read-before-write: the versions an agent saw, and the refusal of an edit over what it did not see.

A version is a short hash of bytes: of one definition (its text as
read_definition returns it: the comment above, decorators, the definition) or
of a whole file. Every read returns both; every edit tool accepts one as
`expected_version`. The session also remembers, per definition, the text it
last showed the agent (a read, or the agent's own edit): an edit of a
definition whose bytes are no longer those is refused, naming the first line
that changed, instead of being merged over a person's edit the agent never
saw. A definition the session never showed is still edited (first contact),
and the result says so.

The memory follows the session's own writes: after an edit (or an undo, or an
apply_reply) every remembered definition of a written file that was current
before the write is remembered as it is after it, so the agent's own edits
never make its memory stale; one that was already stale stays stale.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

VERSION_LENGTH = 12  # hex digits of sha256: a collision between two versions of one definition is not a risk


def version_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:VERSION_LENGTH]


@dataclass(frozen=True)
class Seen:
    """What the agent last saw of one definition: its version, text and first line."""

    version: str
    text: str
    line: int


class Memory:
    """Per file, per qualified definition name: what this session last showed the agent."""

    def __init__(self) -> None:
        self._seen: dict[str, dict[str, Seen]] = {}

    def remember(self, file: str, name: str, seen: Seen) -> None:
        self._seen.setdefault(file, {})[name] = seen

    def forget(self, file: str, name: str) -> None:
        self._seen.get(file, {}).pop(name, None)

    def seen(self, file: str, name: str) -> Seen | None:
        return self._seen.get(file, {}).get(name)

    def names_in(self, file: str) -> dict[str, Seen]:
        return dict(self._seen.get(file, {}))

    def files(self) -> list[str]:
        return [file for file, names in self._seen.items() if names]


def first_difference(before: Seen, now: Seen) -> str:
    """The first line that differs between what the agent saw and what is there, as a phrase."""
    old, new = before.text.split("\n"), now.text.split("\n")
    for index in range(max(len(old), len(new))):
        was = old[index] if index < len(old) else None
        is_ = new[index] if index < len(new) else None
        if was != is_:
            line = now.line + index
            if was is None:
                return f"line {line} was added: {_short(is_)}"
            if is_ is None:
                return f"the line after {line - 1} was removed: {_short(was)}"
            return f"line {line} was {_short(was)} and is now {_short(is_)}"
    if before.line != now.line:
        return f"it moved from line {before.line} to line {now.line}"
    return "its bytes differ"


def _short(text: str | None) -> str:
    text = (text or "").strip()
    return repr(text if len(text) <= 80 else text[:77] + "...")
