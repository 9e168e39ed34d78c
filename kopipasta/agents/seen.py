"""One definition as an agent sees it: its text (comment above, decorators, body), lines and version.

read_definition returns this text, list_definitions its version, the
read-before-write check compares it with what the session remembers, and
edit_definition replaces inside it: all four must mean the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kopipasta.agents.memory import Seen, version_of
from kopipasta.code.find.definitions import Definition
from kopipasta.code.find.document import Document, DocumentCache, line_start
from kopipasta.errors import PatchError, TargetNotFound, UnsupportedFile


@dataclass(frozen=True)
class Found:
    """A resolved definition of a file: its qualified name, where its text starts, and what it reads as."""

    file: str
    name: str
    definition: Definition
    document: Document
    start: int  # byte where the text starts: the comment above, or the decorators
    seen: Seen


def span_start(document: Document, definition: Definition) -> int:
    comment = document.comment_block_start(definition.outer_start)
    return document.line_start(comment if comment is not None else definition.outer_start)


def seen_of(data: bytes, start: int, definition: Definition) -> Seen:
    text = data[start : definition.end]
    return Seen(version_of(text), text.decode("utf-8", "replace"), data.count(b"\n", 0, start) + 1)


def data_seen(data: bytes, definition: Definition) -> Seen:
    """A data file's key (no comment lookup without a Document): from its line start to its end."""
    return seen_of(data, line_start(data, definition.outer_start), definition)


def qualified(definition: Definition) -> str:
    return ".".join((*definition.scope, definition.name))


def code_document(root: Path, documents: DocumentCache, relative: str, tool: str) -> Document:
    """The Document of a code file kopipasta parses (refused, naming it, for any other file)."""
    from kopipasta.disk.workspace import load
    from kopipasta.syntax.languages import language_for_path

    source = load(root, relative)
    if not source.exists:
        raise TargetNotFound(f"No such file: {relative}", "paths are relative to the project root")
    spec = language_for_path(source.path)
    if spec is None or spec.embedding is not None:
        raise UnsupportedFile(
            f"{tool} cannot read definitions of {relative}: it is not a code file kopipasta parses here",
            "read the file itself; set data values with set_value",
        )
    return documents.open(source, root)


def find(root: Path, documents: DocumentCache, relative: str, target: str, tool: str) -> Found:
    """The definition `target` names in `relative` now; refused as every edit tool refuses a target."""
    return found_in(code_document(root, documents, relative, tool), relative, target)


def found_in(document: Document, relative: str, target: str) -> Found:
    """The definition `target` names in this version of the file (refused as `find` refuses)."""
    from kopipasta.code.find.resolve import parse_target, resolve_in

    definition = resolve_in(parse_target(target, relative), document, relative)
    start = span_start(document, definition)
    return Found(document.source.path, qualified(definition), definition, document, start, seen_of(document.data, start, definition))


def find_quietly(
    root: Path, documents: DocumentCache, relative: str, target: str, document: Document | None = None
) -> Found | None:
    """`find` (in `document`, that version of the file, when given), or None when the target cannot be
    resolved (the edit itself then refuses, with its hint)."""
    try:
        if document is not None:
            return found_in(document, relative, target)
        return find(root, documents, relative, target, "edit")
    except (PatchError, OSError, ValueError):
        return None


def replaced_inside(found: Found, old: str, new: str) -> str:
    """The definition's text with `old`, which must occur exactly once inside it, replaced by `new`."""
    from kopipasta.errors import AmbiguousTarget

    text = found.seen.text
    where = f"{found.file}: {found.definition.kind} {found.name}"
    if not old:
        raise TargetNotFound(f"{where}: edit_definition needs a non-empty `old`", "pass the exact text to replace")
    count = text.count(old)
    if count == 0:
        raise TargetNotFound(
            f"{where} (lines {found.seen.line}-{found.definition.end_line}) does not contain `old`",
            "old must match the definition's current text exactly, whitespace and indentation included: "
            "read_definition shows it",
        )
    if count > 1:
        lines, at = [], -1
        for _ in range(min(count, 5)):
            at = text.find(old, at + 1)
            lines.append(str(found.seen.line + text.count("\n", 0, at)))
        raise AmbiguousTarget(
            f"{where}: `old` occurs {count} times in it (lines {', '.join(lines)}{', …' if count > 5 else ''})",
            "include more of the surrounding text in old and new so that it occurs once",
        )
    return text.replace(old, new, 1)


def lf(text: str) -> str:
    """`text` with "\n" line ends, as Documents hold text and as an agent's arguments are compared."""
    return text.replace("\r\n", "\n").replace("\r", "\n")
