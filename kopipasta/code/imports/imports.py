"""Imports a definition's payload brings along (PROTOCOL.md §4b), and byte edits.

Models restate the import lines their change needs above the definition.
Spliced as written they would land inside a class body or mid-module, so they
are taken off the payload (`split_imports`) and merged into the file's own
imports (`import_merge.plan_imports`, imported only when a payload brings
some: issue 9). Every edit is a byte splice (`TextEdit`, made together by
`apply_edits`), so the rest of the file, the existing imports included, is
kept byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.layout.render import parse_payload
from kopipasta.errors import PatchError, PayloadError
from kopipasta.startup.dedent import dedent
from kopipasta.syntax.languages import Change, LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Node


@dataclass(frozen=True)
class TextEdit:
    """Bytes [start, end) of the original data become `text`."""

    start: int
    end: int
    text: bytes


@dataclass(frozen=True)
class ImportPlan:
    """The edits that merge a payload's imports into the file, and what they did."""

    edits: tuple[TextEdit, ...]
    added: int  # payload import statements that changed the file
    present: int  # payload import statements the file already had

    @property
    def note(self) -> str:
        """What happened to the payload's imports, for the report."""
        if not self.added:
            return "import already present" if self.present == 1 else "imports already present"
        note = f"+{self.added} import{'s' if self.added > 1 else ''}"
        return note + (f", {self.present} already present" if self.present else "")


def _import_types(spec: LanguageSpec) -> tuple[str, ...]:
    return spec.import_types


def _top_level(root: Node) -> list[Node]:
    """The root's children, with Kotlin's `import_list` opened: its imports stand at the top level."""
    children: list[Node] = []
    for child in root.children:
        children.extend(child.children if child.type == "import_list" else [child])
    return children


# --- split --------------------------------------------------------------------------


def refuse_unmerged_imports(spec: LanguageSpec, payload: str, label: str, file: str) -> None:
    """A payload starting with an import this language cannot merge yet fails (PHP `use`)."""
    if spec.unmerged_import is None:
        return
    first = next((line.strip() for line in payload.split("\n") if line.strip()), "")
    if re.match(spec.unmerged_import, first):
        raise PayloadError(
            f"{label} in {file} starts with an import ({first}): {spec.name} imports are not merged yet, "
            "and spliced into the definition it would mean something else",
            "add the import with a separate edit, and send the definition without it",
        )



def split_imports(spec: LanguageSpec, payload: str) -> tuple[list[str], str]:
    """The payload's leading import statements, and the rest of it.

    Blank lines and comments between the imports and the definition are
    dropped, except the comment block directly above the definition, which is
    its own (§4). A payload that does not start with an import is returned
    unchanged; one that holds only imports returns an empty rest.
    """
    lines = payload.split("\n")
    # Dedenting keeps the rows, and lets an indented payload parse.
    root = parse_payload(spec, dedent(payload).encode("utf-8")).root_node  # the renderer's parse too
    imports: list[Node] = []
    trailing_comments: list[Node] = []
    first_code: Node | None = None
    package: Node | None = None  # `package api` above the imports: the file has its own
    for child in _top_level(root):
        if child.type in spec.comment_types:
            if imports or package is not None:
                trailing_comments.append(child)
            continue
        if child.type in spec.package_types and package is None and not imports and not child.has_error:
            package = child
            trailing_comments = []
            continue
        if child.type in _import_types(spec) and not child.has_error and first_code is None:
            imports.append(child)
            trailing_comments = []
            continue
        first_code = child
        break
    if not imports and (package is None or first_code is None):
        return [], payload
    texts = [node.text.decode("utf-8") for node in imports if node.text is not None]
    header = imports[-1] if imports else package
    assert header is not None
    # Kotlin's grammar keeps the comments after an import inside it: they are the definition's.
    own = [c for c in header.children if c.type not in spec.comment_types]
    last_row = (own[-1] if own else header).end_point[0]
    if first_code is None:
        return texts, ""
    start_row = first_code.start_point[0]
    if start_row <= last_row:
        return [], payload  # code on an import's own line: not a header we can take apart
    trailing_comments += [c for c in header.children if c.type in spec.comment_types]
    for comment in reversed(trailing_comments):
        if comment.start_point[0] > last_row and comment.end_point[0] >= start_row - 1:
            start_row = comment.start_point[0]
        else:
            break
    return texts, "\n".join(lines[start_row:])


def apply_edits(data: bytes, edits: list[TextEdit]) -> tuple[bytes, Change | None]:
    """`data` with the edits (non-overlapping, original offsets) made, and one Change spanning them all."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    for before, after in zip(ordered, ordered[1:], strict=False):
        if after.start < before.end:
            raise PatchError("Internal error (overlapping edits) — this is a bug in kopipasta")
    if not ordered:
        return data, None
    # Slices of a view: the kept bytes are copied once, into the result (a big file is not copied twice).
    view = memoryview(data)
    out: list[bytes | memoryview] = []
    cursor = 0
    for edit in ordered:
        out += [view[cursor : edit.start], edit.text]
        cursor = edit.end
    out.append(view[cursor:])
    start, old_end = ordered[0].start, max(e.end for e in ordered)
    delta = sum(len(e.text) - (e.end - e.start) for e in ordered)
    return b"".join(out), Change(start, old_end, old_end + delta)
