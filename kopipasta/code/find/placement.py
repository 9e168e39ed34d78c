"""Where a payload's definitions landed, checked after the splice.

A payload can parse and still land wrong: models often resend `class Repo:`
around the one method they changed, which would nest a second `Repo` inside
the first. Only the shape of the result tells, so both TARGET_NODE and the
insert operations look at the definitions that now stand in the new bytes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import Definition, list_definitions
from kopipasta.errors import PayloadError
from kopipasta.syntax.languages import LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Tree

# Definitions that hold members: one of these around a member is a wrapper.
CONTAINER_KINDS = frozenset(
    {"class", "interface", "enum", "module", "struct", "impl", "trait", "record", "object", "extension", "media", "at-rule"}
)


def definitions_in(
    spec: LanguageSpec, tree: Tree, start: int, end: int, source: bytes | None = None
) -> list[Definition]:
    """The definitions that start within [start, end) of the new file (`source`: its bytes, if at hand)."""
    return [d for d in list_definitions(spec, tree, (start, end), source=source) if start <= d.start < end]


def check_landed(
    landed: list[Definition], scope: tuple[str, ...], *, label: str, file: str, what: str, hint: str
) -> None:
    """Fail when the outermost new definitions are not in `scope`, or sit in a copy of its container."""
    if not landed:
        return
    # Where each stands, not what it is called: `function M.close` stands at the top level.
    outermost = min(len(d.container) for d in landed)
    for new in landed:
        if len(new.container) != outermost:
            continue
        if scope and new.container == scope and new.name == scope[-1] and new.kind in CONTAINER_KINDS:
            raise PayloadError(
                f"Payload for {label} in {file} wraps {what} in `{new.kind} {new.name}`: "
                f"it would nest a second {new.name} inside {'.'.join(scope)}",
                hint.format(container=f"{new.kind} {'.'.join(scope)}"),
            )
        if new.container != scope:
            raise PayloadError(
                f"Payload for {label} in {file} would land in {'.'.join(new.container) or 'the module'}, "
                f"not in {'.'.join(scope) or 'the module'}",
                "check the payload's indentation; nothing was written",
            )
