"""Let the payload settle what the name cannot (issue 6, item 6).

A Python property and its setter share one qualified name (`Temp.celsius`),
as do a TypeScript `get x()` and `set x()`. The name alone is ambiguous, but
the payload says which one it restates: it starts with `@celsius.setter`, or
its first line is `set x(value)`. When exactly one candidate has the
payload's shape — the same decorator names and the same accessor keyword —
that one is the target; otherwise the ambiguity stands and the block fails
listing the candidates, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from kopipasta.code.find.definitions import Definition
from kopipasta.startup.lazy_pattern import lazy_compile

# The name of a decorator or annotation: `@celsius.setter` → `celsius.setter`, `@app.get("/")` → `app.get`.
_DECORATOR = lazy_compile(r"^@\s*(?P<name>[\w$.]+)")
# A getter or setter's first line, after the modifiers that may stand before the keyword.
_ACCESSOR = lazy_compile(
    r"^(?:(?:export|public|private|protected|static|override|readonly|abstract|declare|async)\s+)*"
    r"(?P<keyword>get|set)\s+[\w$#\[\"']"
)
_COMMENT_LINE = lazy_compile(r"^(?:#|//|/\*|\*|\*/)")
_IMPORT_LINE = lazy_compile(r"^(?:import\b|from\s+\S+\s+import\b)")
# How far into a definition its first line is looked for.
_FIRST_LINE_CAP = 400


@dataclass(frozen=True)
class Shape:
    decorators: tuple[str, ...]  # decorator names, in order
    accessor: str | None  # "get", "set" or None

    def describe(self) -> str:
        if self.accessor is not None:
            return f"`{self.accessor}` accessor"
        return ", ".join(f"`@{name}`" for name in self.decorators) or "no decorator"


def payload_shape(payload: str) -> Shape:
    """The decorators and accessor keyword a payload's definition starts with."""
    decorators: list[str] = []
    in_block_comment = False
    for raw in payload.split("\n"):
        line = raw.strip()
        if in_block_comment:
            in_block_comment = "*/" not in line
            continue
        if not line or _IMPORT_LINE.match(line):
            continue
        if line.startswith("/*"):
            in_block_comment = "*/" not in line[2:]
            continue
        if _COMMENT_LINE.match(line):
            continue
        decorator = _DECORATOR.match(line)
        if decorator is not None:
            decorators.append(decorator["name"])
            continue
        return Shape(tuple(decorators), _accessor(line))
    return Shape(tuple(decorators), None)


def definition_shape(definition: Definition, data: bytes) -> Shape:
    """The same for a definition of the file: its own decorators and its first line."""
    wrapper = definition.wrapper_start if definition.wrapper_start is not None else definition.outer_start
    decorators = []
    for raw in data[wrapper : definition.start].decode("utf-8", "replace").split("\n"):
        decorator = _DECORATOR.match(raw.strip())
        if decorator is not None:
            decorators.append(decorator["name"])
    first = data[definition.start : definition.start + _FIRST_LINE_CAP].decode("utf-8", "replace")
    return Shape(tuple(decorators), _accessor(first.split("\n", 1)[0].strip()))


def _accessor(line: str) -> str | None:
    match = _ACCESSOR.match(line)
    return match["keyword"] if match is not None else None


def pick_by_shape(
    candidates: list[Definition], data: bytes, payload: str
) -> tuple[Definition, str] | None:
    """The one candidate whose shape is the payload's, with a note saying so; None if not exactly one."""
    wanted = payload_shape(payload)
    shapes = [definition_shape(d, data) for d in candidates]
    # Only a shape that tells the candidates apart can settle anything.
    if len(set(shapes)) < 2:
        return None
    fitting = [d for d, shape in zip(candidates, shapes, strict=True) if shape == wanted]
    return only_fit(candidates, fitting, "is ambiguous", wanted.describe())


def only_fit(
    candidates: list[Definition], fitting: list[Definition], situation: str, what: str
) -> tuple[Definition, str] | None:
    """The one candidate that fits the payload, with the note that says why; None unless exactly one."""
    if len(fitting) != 1:
        return None
    chosen = fitting[0]
    others = ", ".join(str(d.line) for d in candidates if d is not chosen)
    note = (
        f"'{chosen.qualified_name}' {situation}: took line {chosen.line}, "
        f"the one with the payload's {what} (not line {others})"
    )
    return chosen, note


def distinct_shapes(candidates: list[Definition], data: bytes) -> str:
    """The candidates' shapes, when they tell them apart: "`@property` (line 15) or …"; else ""."""
    shapes = [definition_shape(d, data) for d in candidates]
    if len(set(shapes)) != len(shapes):
        return ""
    return " or ".join(f"{shape.describe()} (line {d.line})" for d, shape in zip(candidates, shapes, strict=True))
