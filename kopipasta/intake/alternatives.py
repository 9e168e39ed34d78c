"""Alternatives: two blocks that each rewrite one definition, offered as a choice (issue 19).

"Option 1 — minimal:" then a block, "Option 2 — stricter:" then another block for the
same function, "pick whichever fits": applying both writes the second over the first,
which is not what the reply meant — it meant one of them, and only the user knows which.
`apply` refuses such blocks in one line naming the definition and the choices.

Two blocks are alternatives when they name the same file, restate a definition in
common, and the prose right above the later one offers it as another choice
("Option 2", "Alternatively", "Or, stricter:", "Another approach"). Sequential edits
of one definition ("then also change X") are not alternatives: their prose does not say so.
Only replies where that prose occurs pay for reading the payloads' definitions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kopipasta.model import Block

# The failure kind of a block refused as one of several alternatives (the report, the session).
ALTERNATIVES_OFFERED = "AlternativesOffered"

# The prose above a block that offers it instead of an earlier one.
_ANOTHER_CHOICE = re.compile(
    r"(?im)"
    r"\b(?:option|approach|alternative|variant|version|solution|choice)\s*(?:#\s*)?(?:[2-9]|b|two|three)\b"
    r"|\balternative(?:ly|\s+(?:version|approach|implementation|solution))\b"
    r"|\banother\s+(?:option|approach|way|variant|version)\b"
    r"|^\W*or\b[,:]?"
    r"|\bif\s+you(?:'d)?\s+prefer\b"
    r"|\bor,?\s+(?:a\s+)?(?:stricter|simpler|shorter|more\s+\w+)\b"
)


@dataclass(frozen=True)
class Choice:
    """A block offered instead of an earlier one on the same definition."""

    name: str  # the definition both rewrite
    blocks: tuple[int, ...]  # the indices of every block offered for it, in reply order


def offers_choice(lead: str) -> bool:
    """Whether the prose right above a block offers it as another choice."""
    return bool(_ANOTHER_CHOICE.search(lead))


def find_alternatives(blocks: list[Block]) -> dict[int, Choice]:
    """Each block that is one of several alternatives for a definition, by block index."""
    later = [b for b in blocks if b.file and offers_choice(b.lead)]
    if not later:
        return {}
    found: dict[int, Choice] = {}
    for block in later:
        names = _restated(block)
        if not names:
            continue
        earlier = [b for b in blocks if b.index < block.index and b.file == block.file]
        for other in earlier:
            shared = sorted(names & _restated(other))
            if not shared:
                continue
            previous = found.get(other.index)
            indices = (*(previous.blocks if previous else (other.index,)), block.index)
            choice = Choice(shared[0], indices)
            for index in indices:
                found[index] = choice
            break
    return found


def _restated(block: Block) -> set[str]:
    """The names of the definitions a block rewrites: its target, or those its payload defines."""
    target = (block.directive("TARGET_NODE") or "").strip()
    if target:
        return {re.split(r"[.:\s]+", re.sub(r"#\d+$", "", target))[-1]}
    if any(block.directive(key) for key in ("TARGET_PATH", "DELETE_NODE", "INSERT_AFTER", "INSERT_BEFORE", "APPEND_TO")):
        return set()
    from kopipasta.code.read.parsed import read_payload, structural
    from kopipasta.syntax.languages import language_for_path

    spec = language_for_path(block.file or "")
    if spec is None or spec.embedding is not None or not block.payload.strip():
        return set()
    try:
        parsed = read_payload(spec, block.payload)
    except Exception:  # noqa: BLE001 — a payload that cannot be read is judged by its own block
        return set()
    restated = structural(parsed.definitions)
    holders = {name for d in restated for name in d.container}
    return {d.name for d in restated if d.name not in holders}  # the leaves: a class around a method is the method
