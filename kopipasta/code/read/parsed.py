"""A text read for its definitions: a payload (placeholders masked so it parses) or a file.

What a fragment, an elided payload or a TARGET_NODE payload holds is read the
same way everywhere (`read_payload`): placeholder lines found and masked, the
text dedented and parsed (inside the language's class wrapper when it must
be), its definitions listed with the wrapper taken off their scope.
`members.py` takes a `Parsed` apart member by member for a merge; this module
holds only the reading, so a plain TARGET_NODE payload, which never merges,
is read without importing the merge's modules (issue 9, `only_its_target`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import Definition, list_definitions
from kopipasta.code.layout.render import payload_tree, wrapped_tree
from kopipasta.code.read import wholefile
from kopipasta.startup.dedent import dedent
from kopipasta.syntax.languages import LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Tree

    from kopipasta.code.find.document import Document

_FUNCTION_KINDS = frozenset({"function", "method"})


@dataclass(frozen=True)
class Parsed:
    """A text read for its members: a payload (placeholders masked so it parses) or a file."""

    spec: LanguageSpec
    data: bytes  # what was parsed (a payload: masked, possibly inside the class wrapper)
    tree: Tree
    offset: int  # wrapper rows before the text's first row
    definitions: list[Definition]  # scope without the wrapper
    placeholders: dict[int, str]  # row (0-based, in the text) → the placeholder line
    # Read inside the class wrapper: its members are the wrapper's. PHP's `<?php` line alone
    # also makes an offset, but wraps nothing.
    wrapped: bool = False

    @property
    def has_error(self) -> bool:
        return self.tree.root_node.has_error

    def row(self, offset: int) -> int:
        return self.data.count(b"\n", 0, offset) - self.offset


def placeholder_rows(spec: LanguageSpec, text: str, original: bytes | None = None) -> dict[int, str]:
    """Rows (0-based) of the lines that stand for elided code.

    A placeholder-looking line the original already holds (its own `# ...`
    comment) is code, not a placeholder. One block asks this several times (reading,
    attribution, the line-anchored reading): the last answers are kept.
    """
    cache_key = (spec.grammar, text, original)
    for known, rows in _placeholder_answers:
        if known == cache_key:
            return dict(rows)
    found = _placeholder_rows(spec, text, original)
    _placeholder_answers[:] = [(cache_key, found), *_placeholder_answers[:3]]
    return dict(found)


_placeholder_answers: list[tuple[tuple[str, str, bytes | None], dict[int, str]]] = []


def _placeholder_rows(spec: LanguageSpec, text: str, original: bytes | None) -> dict[int, str]:
    found = dict(
        (number - 1, line) for number, line in wholefile.iter_placeholders(text, python=spec.grammar == "python")
    )
    if original is not None and found:
        own = {line.strip() for line in original.decode("utf-8", "replace").splitlines()}
        found = {row: line for row, line in found.items() if line not in own}
    return found


def _masked(spec: LanguageSpec, text: str, rows: dict[int, str]) -> str:
    """The text with each placeholder line made parseable: `...` in Python, a comment elsewhere."""
    lines = text.split("\n")
    for row in rows:
        line = lines[row]
        indent = line[: len(line) - len(line.lstrip())]
        lines[row] = indent + ("..." if spec.grammar == "python" else "// ...")
    return "\n".join(lines)


def read_payload(spec: LanguageSpec, payload: str, original: bytes | None = None) -> Parsed:
    rows, text = _payload_text(spec, payload, original)
    tree, offset = payload_tree(spec, text)
    definitions = list_definitions(spec, tree)
    if not offset and not definitions:
        # Some grammars (Java) read a bare method at the top level without an error, but as no
        # method: inside the class wrapper it is one.
        wrapped = wrapped_tree(spec, text)
        if wrapped is not None:
            tree, offset = wrapped
            definitions = list_definitions(spec, tree)
    return _parsed(spec, tree, offset, definitions, rows)


def read_as_members(spec: LanguageSpec, payload: str, original: bytes | None = None) -> Parsed | None:
    """The payload read inside the language's class wrapper, or None when it does not parse there."""
    rows, text = _payload_text(spec, payload, original)
    wrapped = wrapped_tree(spec, text)
    if wrapped is None:
        return None
    tree, offset = wrapped
    return _parsed(spec, tree, offset, list_definitions(spec, tree), rows)


def top_level_definitions(parsed: Parsed) -> list[Definition]:
    """The definitions that are (or open) one of the text's top-level statements, not ones nested in a statement."""
    starts = {child.start_byte for child in parsed.tree.root_node.children}
    return [d for d in parsed.definitions if d.outer_start in starts or d.start in starts]


def _payload_text(spec: LanguageSpec, payload: str, original: bytes | None) -> tuple[dict[int, str], str]:
    rows = placeholder_rows(spec, payload, original)
    # An indented payload (a method without its class) parses at its own margin; rows stay the same.
    text = dedent(_masked(spec, payload, rows))
    if not text.endswith("\n"):
        text += "\n"  # Go wants a declaration ended: at the end of input, a newline ends it
    return rows, text


def _parsed(spec: LanguageSpec, tree: Tree, offset: int, definitions: list[Definition], rows: dict[int, str]) -> Parsed:
    data = tree.root_node.text or b""
    wrapper = wrapper_name(spec, data) if offset else None
    if wrapper is not None:  # a class wrapper; PHP's `<?php` alone wraps no definition
        definitions = [_unwrapped(d) for d in definitions if d.scope[:1] == (wrapper,)]
    return Parsed(spec, data, tree, offset, definitions, rows, wrapped=wrapper is not None)


def read_file(document: Document) -> Parsed:
    """The file read for its members, with the document's own definitions."""
    return Parsed(document.code_spec, document.data, document.tree, 0, document.definitions, {})


def wrapper_name(spec: LanguageSpec, data: bytes) -> str | None:
    """The name of the class (or impl) a member payload was parsed inside (render.payload_tree), if any."""
    openings = [o for o, _ in spec.payload_wrappers if data.startswith(o.encode("utf-8"))]
    if not openings:
        return None
    found = re.search(r"\b__\w+", max(openings, key=len))
    return found.group() if found else None


def _unwrapped(definition: Definition) -> Definition:
    from dataclasses import replace

    kind = "function" if definition.kind == "method" and len(definition.scope) == 1 else definition.kind
    return replace(definition, scope=definition.scope[1:], kind=kind)


def structural(definitions: list[Definition]) -> list[Definition]:
    """Definitions that are not inside a function: what a file or class is made of."""
    # One sweep in start order, not a function-by-definition scan: a 20,000-line file has thousands.
    # d is inside a function f when f.start <= d.start < f.end, f not d.
    starts_of_functions: dict[int, int] = {}
    for d in definitions:
        if d.kind in _FUNCTION_KINDS:
            starts_of_functions[d.start] = starts_of_functions.get(d.start, 0) + 1
    inside: set[int] = set()
    reach = -1  # the furthest end of the functions already swept (each starts at or before d)
    for d in sorted(definitions, key=lambda d: d.start):
        same_start = starts_of_functions.get(d.start, 0) - (1 if d.kind in _FUNCTION_KINDS else 0)
        if reach > d.start or same_start > 0:
            inside.add(id(d))
        if d.kind in _FUNCTION_KINDS:
            reach = max(reach, d.end)
    return [d for d in definitions if id(d) not in inside]


def read_target_payload(document: Document, payload: str, target: Definition) -> Parsed:
    """A TARGET_NODE payload read for its definitions (the target's own comments are not placeholders)."""
    return read_payload(document.code_spec, payload, document.data[target.outer_start : target.end])


def only_its_target(payload: Parsed, target: Definition) -> bool:
    """Whether a TARGET_NODE payload (read_target_payload) is plainly its target: nothing to merge.

    True when the payload holds no placeholder and every definition at its top
    level is named as the target (the target itself, an overload beside it).
    `merge.merge_targeted` answers None for such a payload first; `operations`
    asks here, so that `merge` (and the modules a merge needs) is imported only
    for a payload that may merge. tests/test_merge_shortcut.py checks that
    skipping merge_targeted for these changes nothing, on every fixture reply
    and on payloads made from the corpus.
    """
    if payload.placeholders:
        return False
    return all(not another_definition(d, target) for d in structural(payload.definitions) if not d.container)


# Kinds named after the type they add to (Rust's `impl Config`, Swift's `extension`).
EXTENDING_KINDS = frozenset({"impl", "extension"})


def another_definition(definition: Definition, target: Definition) -> bool:
    """Whether a payload's top-level definition is not its target: another name, or an `impl` beside a `struct`."""
    if definition.name != target.name:
        return True
    return definition.kind != target.kind and bool(EXTENDING_KINDS & {definition.kind, target.kind})
