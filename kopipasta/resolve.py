"""A `[kind] name` target → exactly one Definition, or an explicit failure.

PROTOCOL.md §4: names match from the inside out (`Inner.method` finds
`Outer.Inner.method`), an exact qualified name wins over deeper matches, and
`name#2` picks the second of candidates that share one qualified name.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from kopipasta.definitions import Definition
from kopipasta.errors import AmbiguousTarget, PayloadError, TargetNotFound
from kopipasta.shape import distinct_shapes, pick_by_shape

KINDS = (
    "function",
    "method",
    "class",
    "interface",
    "type",
    "enum",
    "struct",
    "trait",
    "impl",
    "module",
    "variable",
    "component",
)

# What models write for a kind, mapped to the protocol's word for it.
KIND_ALIASES = {
    "def": "function",
    "fn": "function",
    "func": "function",
    "async function": "function",
    "async def": "function",
    "arrow function": "function",
    "const": "variable",
    "let": "variable",
    "var": "variable",
    "constant": "variable",
    "field": "variable",
    "attribute": "variable",
    "property": "variable",
    "namespace": "module",
    "abstract class": "class",
    "type alias": "type",
    "protocol": "interface",
    "react component": "component",
}

_TARGET = re.compile(r"^(?:(?P<kind>[A-Za-z][A-Za-z ]*?)\s+)?(?P<name>[^\s]+?)(?:#(?P<ordinal>\d+))?$")


@dataclass(frozen=True)
class Target:
    kind: str | None
    parts: tuple[str, ...]  # the dotted name, split
    ordinal: int | None  # from `name#2`

    @property
    def name(self) -> str:
        return ".".join(self.parts)

    def __str__(self) -> str:
        text = f"{self.kind} {self.name}" if self.kind else self.name
        return f"{text}#{self.ordinal}" if self.ordinal else text


def parse_target(text: str, file: str) -> Target:
    """Read `[kind] name[#n]`, accepting the usual spellings of each kind."""
    cleaned = text.strip().strip("`'\"").strip()
    match = _TARGET.match(cleaned)
    if not match:
        raise PayloadError(
            f"Target '{text}' in {file} is not `[kind] name`",
            "write it as e.g. `function TableBody` or `method Cart.total`",
        )
    kind = match.group("kind")
    if kind is not None:
        kind = " ".join(kind.lower().split())
        kind = KIND_ALIASES.get(kind, kind)
        if kind not in KINDS:
            raise PayloadError(
                f"Unknown kind '{match.group('kind')}' in target '{text}' for {file}",
                f"use one of: {', '.join(KINDS)}, or no kind at all",
            )
    name = match.group("name").removesuffix("()")
    parts = tuple(p for p in name.split("."))
    if not all(parts):
        raise PayloadError(f"Target '{text}' in {file} has an empty name part", "write it as e.g. `Cart.total`")
    ordinal = int(match.group("ordinal")) if match.group("ordinal") else None
    return Target(kind=kind, parts=parts, ordinal=ordinal)


def _qualified_parts(definition: Definition) -> tuple[str, ...]:
    # A TypeScript `namespace A.B` is one definition named "A.B": split it like the target.
    return tuple(".".join((*definition.scope, definition.name)).split("."))


def resolve(target: Target, definitions: list[Definition], file: str) -> Definition:
    """Exactly one definition for the target, or TargetNotFound / AmbiguousTarget."""
    fitting = [d for d in definitions if target.kind is None or d.fits(target.kind)]
    named = [d for d in fitting if _qualified_parts(d)[-len(target.parts) :] == target.parts]
    if not named:
        raise _not_found(target, definitions, file)
    exact = [d for d in named if _qualified_parts(d) == target.parts]
    if exact:
        return _pick_ordinal(target, exact, file)
    if len({d.qualified_name for d in named}) == 1:
        return _pick_ordinal(target, named, file)
    raise _ambiguous(target, named, file)


def resolve_with_payload(
    target: Target, definitions: list[Definition], file: str, data: bytes, payload: str
) -> tuple[Definition, str]:
    """`resolve`, but a name that several definitions share may be settled by the payload's shape.

    A property and its setter (or a TS getter and setter) share one qualified
    name; the payload's decorators or `get`/`set` keyword say which it restates
    (shape.py). Returns the definition and a note for the report ("" when the
    name alone sufficed). Candidates with different qualified names stay
    ambiguous: qualifying the name is the user's call, not the payload's.
    """
    try:
        return resolve(target, definitions, file), ""
    except AmbiguousTarget as error:
        fitting = [d for d in definitions if target.kind is None or d.fits(target.kind)]
        named = [d for d in fitting if _qualified_parts(d)[-len(target.parts) :] == target.parts]
        exact = [d for d in named if _qualified_parts(d) == target.parts]
        candidates = exact or named
        if len({d.qualified_name for d in candidates}) != 1:
            raise
        picked = pick_by_shape(candidates, data, payload)
        if picked is None:
            shapes = distinct_shapes(candidates, data)
            if shapes:
                raise AmbiguousTarget(
                    error.message, f"{error.hint}, or start the payload with the one it restates: {shapes}"
                ) from None
            raise
        return picked


def _pick_ordinal(target: Target, same_name: list[Definition], file: str) -> Definition:
    if target.ordinal is None:
        if len(same_name) == 1:
            return same_name[0]
        lines = ", ".join(f"#{i} at line {d.line}" for i, d in enumerate(same_name, 1))
        raise AmbiguousTarget(
            f"Node '{target.name}' is ambiguous in {file}: {len(same_name)} definitions named "
            f"'{same_name[0].qualified_name}' ({lines})",
            f"pick one as '{same_name[0].qualified_name}#2'",
        )
    if not 1 <= target.ordinal <= len(same_name):
        raise TargetNotFound(
            f"Node '{target}' not found in AST of {file}: there are {len(same_name)} "
            f"definitions named '{same_name[0].qualified_name}'",
            f"use #1 to #{len(same_name)}",
        )
    return same_name[target.ordinal - 1]


def _ambiguous(target: Target, candidates: list[Definition], file: str) -> AmbiguousTarget:
    listed = ", ".join(f"{d.kind} {d.qualified_name} (line {d.line})" for d in candidates)
    return AmbiguousTarget(
        f"Node '{target.name}' is ambiguous in {file}: {listed}",
        f"qualify it as '{candidates[0].qualified_name}'",
    )


def _not_found(target: Target, definitions: list[Definition], file: str) -> TargetNotFound:
    described = f"'{target.name}'"
    same_name = [d for d in definitions if _qualified_parts(d)[-len(target.parts) :] == target.parts]
    if same_name:
        # The name exists, the kind does not fit: say what it is.
        found = ", ".join(f"{d.kind} {d.qualified_name} (line {d.line})" for d in same_name)
        return TargetNotFound(
            f"Node {described} not found in AST of {file} as {_article(target.kind or '')} {target.kind}: "
            f"the name is {found}",
            f"write `{same_name[0].kind} {same_name[0].qualified_name}`, or leave out the kind",
        )
    names = sorted({d.qualified_name for d in definitions} | {d.name for d in definitions})
    close = _closest(target.name, names)
    hint = "did you mean " + " or ".join(f"'{c}'" for c in close) + "?" if close else ""
    if not hint and not definitions:
        hint = "the file has no definitions to target"
    elif not hint:
        hint = "`kopipasta nodes " + file + "` lists what can be targeted"
    return TargetNotFound(f"Node {described} not found in AST of {file}", hint)


def _article(word: str) -> str:
    return "an" if word[:1] in ("a", "e", "i", "o", "u") else "a"


def _closest(name: str, names: list[str]) -> list[str]:
    """The nearest existing names: the best match, and any about as near."""
    scored = []
    for candidate in names:
        ratio = difflib.SequenceMatcher(None, name, candidate).ratio()
        if ratio >= 0.6:
            scored.append((ratio, candidate))
    scored.sort(key=lambda item: (-item[0], item[1]))
    if not scored:
        return []
    best = scored[0][0]
    return [candidate for ratio, candidate in scored[:3] if ratio >= best - 0.05]
