"""Overloads told apart by the payload's own parameter list (Java, C#, Kotlin, Swift, Scala, C++ …).

`findById(long id)` and `findById(String externalId)` share one qualified
name. When the payload restates exactly one of them with its parameter list
unchanged (its text, whitespace aside), that one is what the payload means;
otherwise the ambiguity stands and the block fails listing the candidates.
A payload that changes the parameters cannot settle anything: `name#2` can.
"""

from __future__ import annotations

import re

from kopipasta.code.find.definitions import Definition
from kopipasta.code.find.shape import only_fit

# How far into a definition its parameter list is looked for.
_SIGNATURE_CAP = 2000


def parameters(text: str, name: str) -> str | None:
    """The parameter list after the first `name(` (generic `name<T>(` too), whitespace taken out."""
    match = re.search(rf"(?<![\w$]){re.escape(name)}\s*(?:<[^()]*>)?\s*\(", text)
    if match is None:
        return None
    depth = 0
    for index in range(match.end() - 1, len(text)):
        char = text[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return re.sub(r"\s+", "", text[match.end() : index])
    return None


def pick_by_parameters(candidates: list[Definition], data: bytes, payload: str) -> tuple[Definition, str] | None:
    """The one candidate whose parameter list the payload restates, with a note saying so."""
    name = candidates[0].name
    wanted = parameters(payload, name)
    if wanted is None:
        return None
    lists = [parameters(data[d.start : min(d.end, d.start + _SIGNATURE_CAP)].decode("utf-8", "replace"), name) for d in candidates]
    fitting = [d for d, found in zip(candidates, lists, strict=True) if found == wanted]
    return only_fit(candidates, fitting, "is overloaded", "parameters")
