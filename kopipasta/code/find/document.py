"""One version of a file as every operation sees it: analysed once, asked by all.

A Document owns a file version's bytes, newline style and language, and
computes on first ask, once, what operations need of it: the parse tree, the
definitions (the full listing, or those of one name), the indent unit. It
answers the questions about places in the bytes (`line_start`,
`indentation_at`, `comment_block_start`) so no operation reaches into
another module's helpers for them.

A Document never changes: a splice makes the next version with `after`,
which takes the tree the syntax check already parsed for the new bytes (never
parsing them again) and starts the next version's analysis afresh.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kopipasta.code.find.comments import comment_block_start
from kopipasta.code.find.definitions import Definition, list_definitions
from kopipasta.code.find.named import (
    definitions_ending_in,
    definitions_named,
    members_of,
    top_level_from,
)
from kopipasta.code.layout.indent import UNIT_SAMPLE_LINES, Unit, detect_unit
from kopipasta.code.layout.render import value_rows
from kopipasta.disk.workspace import Source
from kopipasta.syntax.languages import LanguageSpec, language_for_path, parse

if TYPE_CHECKING:
    from tree_sitter import Tree

_SMALL_FILE = 64 * 1024  # bytes: counting every newline of such a file is cheaper than finding them one by one
_NOT_YET = object()  # the indent unit not asked yet (None is an answer: no unit)


def line_start(data: bytes, offset: int) -> int:
    """The start of the line holding `offset`."""
    return data.rfind(b"\n", 0, offset) + 1


def line_end(data: bytes, offset: int) -> int:
    """The end of the line holding `offset`, before its newline."""
    end = data.find(b"\n", offset)
    if end < 0:
        return len(data)
    return end - 1 if end > 0 and data[end - 1 : end] == b"\r" else end


def indentation(data: bytes, offset: int) -> bytes:
    line = data[line_start(data, offset) : offset]
    return line[: len(line) - len(line.lstrip(b" \t"))]


def indentation_at(data: bytes, offset: int) -> str:
    """The leading whitespace of the line holding `offset`."""
    start = line_start(data, offset)
    line = data[start:offset]
    return line[: len(line) - len(line.lstrip(b" \t"))].decode("ascii")


def _file_unit(data: bytes, spec: LanguageSpec | None, tree: Tree | None) -> Unit | None:
    """The file's indent unit, learnt from its layout lines only.

    With the tree, lines inside multi-line strings and block comments are left
    out: a JSDoc's ` * ` lines would otherwise make a 2-space file look 1-space.
    """
    # detect_unit reads a sample from the top; a 20,000-line file is not split or queried whole.
    # The sample's lines are decoded in one go: a newline never belongs to a multi-byte
    # sequence, so each line decodes as it would alone.
    text = _sample(data).decode("utf-8", "replace").split("\n")
    if spec is not None and tree is not None:
        frozen, _ = value_rows(spec, tree.root_node, rows=UNIT_SAMPLE_LINES, docstrings=False)
        text = [line for row, line in enumerate(text) if row not in frozen]
    return detect_unit(text)


def _same_sample(old: Document, new: Document) -> bool:
    """Whether `new` learns its unit from exactly `old`'s lines (an edit past the sample, issue 26).

    The unit is learnt from the first UNIT_SAMPLE_LINES lines, less those inside
    multi-line strings and comments; a one-method edit deep in a 20,000-line file
    leaves both alone, and learning them again costs more than the edit. Carried over
    only when the sample's bytes (and the newline closing it) are the same, and in
    neither tree does a string or comment reach across the sample's end: then every
    string or comment touching the sample lies inside it, before the edit, lexed alike.
    """
    end = len(_sample(old.data))
    if end >= len(old.data) or old.data[: end + 1] != new.data[: end + 1] or old.spec is None:
        return False
    kinds = (*old.spec.string_types, *old.spec.comment_types)
    for tree in (old._tree, new._tree):
        if tree is None:
            return False
        node = tree.root_node.descendant_for_byte_range(end, end)
        while node is not None:
            if node.type in kinds:
                return False
            node = node.parent
    return True


def _sample(data: bytes) -> bytes:
    """The file's first UNIT_SAMPLE_LINES lines (without the newline after the last)."""
    if len(data) <= _SMALL_FILE and data.count(b"\n") < UNIT_SAMPLE_LINES:
        return data
    end = -1
    for _ in range(UNIT_SAMPLE_LINES):
        end = data.find(b"\n", end + 1)
        if end < 0:
            return data
    return data[:end]


class Document:
    """A file version: its source and language, with its tree, definitions and unit computed once."""

    def __init__(
        self, source: Source, spec: LanguageSpec | None, *, root: Path | None = None, tree: Tree | None = None
    ) -> None:
        self.source = source
        self.spec = spec
        self.root = root  # the project root, for "did you mean" when a path does not exist
        self._tree = tree
        self._definitions: list[Definition] | None = None
        self._named: dict[str, list[Definition]] = {}
        self._ending_in: dict[str, list[Definition]] = {}
        self._members: dict[tuple[str, ...], list[Definition]] = {}
        self._unit: object = _NOT_YET

    def __repr__(self) -> str:
        return f"Document({self.source.path!r}, {len(self.source.data)} bytes)"

    @property
    def data(self) -> bytes:
        return self.source.data

    @property
    def newline(self) -> str:
        return self.source.newline

    @property
    def code_spec(self) -> LanguageSpec:
        """The language, for the operations that run only on code files (their caller checked)."""
        assert self.spec is not None
        return self.spec

    @property
    def tree(self) -> Tree:
        if self._tree is None:
            self._tree = parse(self.code_spec, self.data)
        return self._tree

    @property
    def definitions(self) -> list[Definition]:
        """Every definition of the file, in file order (definitions.list_definitions), listed once."""
        if self._definitions is None:
            self._definitions = list_definitions(self.code_spec, self.tree, source=self.data)
        return self._definitions

    def named(self, name: str) -> list[Definition]:
        """The definitions called `name`, as the full listing gives them, without listing the rest."""
        found = self._named.get(name)
        if found is None:
            if self._definitions is not None:
                found = [d for d in self._definitions if d.name == name]
            else:
                found = definitions_named(self.code_spec, self.tree, name, source=self.data)
            self._named[name] = found
        return found

    def ending_in(self, part: str) -> list[Definition]:
        """The definitions whose qualified name ends in the part `part` (`B` of `namespace A.B` too).

        Every definition a target whose last part is `part` can resolve to, in file order
        (named.definitions_ending_in: range queries about the part's occurrences).
        """
        found = self._ending_in.get(part)
        if found is None:
            if self._definitions is not None:
                found = [d for d in self._definitions if d.name == part or d.name.endswith("." + part)]
            else:
                found = definitions_ending_in(self.code_spec, self.tree, part, source=self.data)
            self._ending_in[part] = found
        return found

    def members(self, container: tuple[str, ...]) -> list[Definition]:
        """The definitions whose `container` is `container`, in file order, as the listing has them.

        A non-empty container's members come from a range query over the one node holding
        them (named.members_of); the module's, or where that is not exact, from the listing.
        """
        found = self._members.get(container)
        if found is None:
            exact = None
            if container and self._definitions is None:
                exact = members_of(self.code_spec, self.tree, container, source=self.data)
            found = exact if exact is not None else [d for d in self.definitions if d.container == container]
            self._members[container] = found
        return found

    def top_level_from(self, offset: int) -> list[Definition]:
        """The top-level definitions (container `()`) starting at or after `offset`, as the listing has them.

        From one range query over the file's end (named.top_level_from), or the listing.
        """
        exact = None
        if self._definitions is None:
            exact = top_level_from(self.code_spec, self.tree, offset, source=self.data)
        if exact is not None:
            return exact
        return [d for d in self.definitions if not d.container and d.start >= offset]

    @property
    def unit(self) -> Unit | None:
        """The file's indent unit (None when it has no indented lines), learnt once."""
        if self._unit is _NOT_YET:
            self._unit = _file_unit(self.data, self.spec, self.tree if self.spec is not None else None)
        return self._unit  # type: ignore[return-value]

    def line_start(self, offset: int) -> int:
        return line_start(self.data, offset)

    def indentation_at(self, offset: int) -> str:
        """The leading whitespace of the line holding `offset`."""
        return indentation_at(self.data, offset)

    def comment_block_start(self, outer_start: int) -> int | None:
        """Start of the comment lines directly above what starts at `outer_start`, if any (PROTOCOL.md §4)."""
        return comment_block_start(self.tree, self.data, outer_start)

    def after(self, data: bytes, tree: Tree | None) -> Document:
        """The next version: `data`, with `tree` when the check parsed it (else parsed when asked).

        Nothing of this version's analysis is carried over but the tree the
        check made: shifting the definitions past an edit is not exact (an edit
        can change the scope, kind or span of definitions far from it).
        """
        if data == self.data and self.source.exists:
            if self._tree is None:
                self._tree = tree
            return self
        document = Document(self.source.with_data(data), self.spec, root=self.root, tree=tree)
        if self._unit is not _NOT_YET and tree is not None and _same_sample(self, document):
            document._unit = self._unit  # learnt from the same lines, with the same lines left out
        return document

    def with_source(self, source: Source, tree: Tree | None = None) -> Document:
        """Another version whose source differs by more than its bytes (a text patch's new file, a deletion)."""
        return Document(source, self.spec, root=self.root, tree=tree)


def open_document(source: Source, root: Path | None = None) -> Document:
    return Document(source, language_for_path(source.path), root=root)


def in_memory(spec: LanguageSpec, data: bytes, newline: str = "\n", path: str = "f") -> Document:
    """A document of bytes that stand in no file (a test's source, say), with the given newline style."""
    return Document(Source(path, data, False, newline, True), spec)


class DocumentCache:
    """Each file's newest Document, kept between applies by a long-running caller (the MCP server).

    A command-line run analyses a file once and exits; a server that edits the
    same files call after call would parse them and list their definitions
    again every time. This keeps, per file, the Document of the version last
    read or written, and hands it back only while the file holds exactly those
    bytes: the engine loads the file first (under the lock, as every apply
    does), and the Document is reused only when the loaded Source is equal to
    its own, bytes, BOM, newline style and permissions alike. A file edited
    behind the caller's back, even to the same size within the same second,
    gets a fresh Document: nothing is ever resolved against stale bytes.
    Trees are never edited in place (syntax.languages.reparse copies), so a
    kept Document stays true to its bytes whatever later applies do.
    """

    def __init__(self, limit: int = 32) -> None:
        self._limit = limit  # files kept; the least recently used goes first
        self._documents: dict[str, Document] = {}

    def __len__(self) -> int:
        return len(self._documents)

    def open(self, source: Source, root: Path | None = None) -> Document:
        """The kept Document when it is of exactly `source`, else a new one (kept from now on)."""
        kept = self._documents.pop(source.path, None)
        if kept is not None and kept.source == source and kept.root == root:
            self._documents[source.path] = kept  # the most recently used, last
            return kept
        document = open_document(source, root)
        self._keep(document)
        return document

    def kept(self, path: str) -> Document | None:
        """The Document kept for `path` (of the bytes last read or written), if any."""
        return self._documents.get(path)

    def written(self, document: Document, data: bytes | None) -> None:
        """An apply wrote `data` for `document`'s file: keep the Document if it is of those bytes."""
        path = document.source.path
        if data is None or not document.source.exists or document.source.to_bytes() != data:
            self._documents.pop(path, None)  # deleted, or written as other bytes (a mixed file's endings)
            return
        self._documents.pop(path, None)
        self._keep(document)

    def _keep(self, document: Document) -> None:
        self._documents[document.source.path] = document
        while len(self._documents) > self._limit:
            del self._documents[next(iter(self._documents))]
