"""Find by name (issue 9): the definitions of one name without listing the file.

A name's definitions can stand only where the name occurs in the bytes: the
definitions query runs over those stretches alone, and the nodes around them
answer the scope. Each Definition is built by the listing's own Builder
(definitions.py) from captures exactly as the whole-file query has them, so the
fast path cannot drift from the listing it must equal
(tests/test_definitions_named.py checks it on the corpus); what range queries
cannot answer exactly falls back to the full listing. Also a container's
members (`members_of`) and the top level past an offset (`top_level_from`).
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import (
    Builder,
    Captured,
    Definition,
    capture_key,
    captured_by_node,
    list_definitions,
    misparsed_definitions,
    part_of_another,
    tree_bytes,
)
from kopipasta.syntax.languages import LanguageSpec, query_matches

if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node, Tree

# Bytes that continue an ASCII identifier. A name starting (ending) with one does not stand
# right after (before) one: a lexer reads an identifier to its end, so `add` in `address` is no
# name. Other bytes (`$`, `@`, non-ASCII) count as boundaries: an extra occurrence costs one query.
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# Occurrences closer than this are looked up by one query over the stretch holding them.
_MERGE_GAP = 256
# Past this many stretches one query over all of them is cheaper than a query each.
_MAX_STRETCHES = 64
# One more stretch allowed per this many bytes of the file: a whole-file query grows with the file,
# a query per stretch (~30 µs) does not (click's `Context`, 172 stretches in 20k lines: 17 → 2.6 ms).
_BYTES_PER_STRETCH = 2048


def _most_stretches(size: int) -> int:
    """How many stretches are queried one by one in a file of `size` bytes, before one query over all."""
    return max(_MAX_STRETCHES, size // _BYTES_PER_STRETCH)


def definitions_named(spec: LanguageSpec, tree: Tree, name: str, *, source: bytes | None = None) -> list[Definition]:
    """The definitions named `name`, equal to and in the order of those `list_definitions` gives.

    The name's occurrences in the bytes are the only places its definitions can
    stand: the query runs over those stretches alone, and the nodes around them
    answer the scope. What that cannot answer exactly falls back to the full listing.
    """
    found = _named_at_occurrences(spec, tree, name, dotted=False, source=source)
    if found is None:
        return [d for d in list_definitions(spec, tree, source=source) if d.name == name]
    return found


def definitions_ending_in(spec: LanguageSpec, tree: Tree, part: str, *, source: bytes | None = None) -> list[Definition]:
    """`definitions_named`, with the definitions whose own name is dotted and ends in `.part` too.

    A TypeScript `namespace A.B` or a C# `namespace Shop.Api` is one definition
    named `A.B`: a target whose last part is `B` may mean it (resolve.py splits
    qualified names on dots). Equal to the listing filtered the same way, in order.
    """
    found = _named_at_occurrences(spec, tree, part, dotted=True, source=source)
    if found is None:
        return [d for d in list_definitions(spec, tree, source=source) if _ends_in(d.name, part)]
    return found


def _ends_in(name: str, part: str) -> bool:
    return name == part or name.endswith("." + part)


class _Unanswerable(Exception):
    """A question the range queries cannot answer exactly (a zero-width node): list the file instead."""


class _RangeCaptures:
    """The captured nodes about a few stretches of the file, each exactly as the whole-file query has it.

    A query limited to a byte range returns every match whose nodes reach into the
    range. Every match that captures a node is rooted at that node or above it, so
    for a node reaching into a queried stretch, every match capturing it came back,
    and its entry (the first pattern's kind, `@not_definition`) is the whole file's.
    Other nodes a range query returns may lack matches: they are not kept, and a
    question about one runs a query over its own first byte.
    """

    def __init__(self, spec: LanguageSpec, root: Node) -> None:
        self.spec = spec
        self.root = root
        self.stretches: list[tuple[int, int]] = []  # queried byte ranges, sorted, disjoint
        self.found: dict[tuple[int, int, str], Captured] = {}

    def query(self, start: int, end: int) -> list[tuple[int, dict[str, list[Node]]]]:
        matches = query_matches(self.spec, self.root, (start, end))
        for key, item in captured_by_node(matches, markup=self.spec.markup_names).items():
            if key[0] < end and start < key[1] and not (
                self.spec.part_of_types and part_of_another(self.spec, item.node)
            ):
                self.found[key] = item
        bisect.insort(self.stretches, (start, end))
        return matches

    def get(self, key: tuple[int, int, str]) -> Captured | None:
        start, end, _ = key
        if not self._covered(start, end):
            if end <= start:
                raise _Unanswerable  # a zero-width node reaches into no range
            self.query(start, start + 1)
        return self.found.get(key)

    def _covered(self, start: int, end: int) -> bool:
        """Whether a node spanning start..end reaches into a queried stretch."""
        if end <= start:
            return False
        index = bisect.bisect_right(self.stretches, (start, end))
        # The stretches are disjoint and sorted: only the neighbours of the insertion point can overlap.
        return any(
            stretch_start < end and start < stretch_end
            for stretch_start, stretch_end in self.stretches[max(index - 1, 0) : index + 1]
        )


def _named_at_occurrences(
    spec: LanguageSpec, tree: Tree, name: str, *, dotted: bool, source: bytes | None = None
) -> list[Definition] | None:
    """`definitions_named` (`definitions_ending_in` when `dotted`) from range queries over the name's
    occurrences, or None where that is not exact."""
    needle = _needle(name)
    if needle is None or spec.markup_names:
        return None  # a selector's name is spelled canonically: its bytes may be spelled otherwise
    root = tree.root_node
    if source is None:
        text = root.text
        if text is None:
            return None  # a tree parsed without its bytes at hand: nothing to search
        occurrences = _occurrences(text, needle, root.start_byte, 0, len(text))
    else:
        occurrences = _occurrences(source, needle, 0, root.start_byte, root.end_byte)
    captured = _RangeCaptures(spec, root)
    dotted_needle = b"." + needle if dotted else None
    candidates = _candidates_named(
        captured,
        _stretches(occurrences, len(needle), _most_stretches(root.end_byte)),
        lambda text_of_name: text_of_name == needle
        or (dotted_needle is not None and text_of_name.endswith(dotted_needle)),
    )
    try:
        # A stub above a candidate is asked about rather than ruled out: one more query, where there is one.
        build = Builder(spec, tree, captured, overloads=True, source=source)
        definitions: list[Definition] = []
        for key in candidates:
            item = captured.get(key)
            if item is None or not (item.name == name or (dotted and _ends_in(item.name, name))):
                continue
            if (definition := build.definition(item)) is not None:
                definitions.append(definition)
        if spec.misparsed_types:
            misparsed = misparsed_definitions(spec, tree, captured, None, containing=needle)
            definitions += [d for d in misparsed if d.name == name or (dotted and _ends_in(d.name, name))]
    except _Unanswerable:
        return None
    return _in_file_order(definitions)


def _needle(name: str) -> bytes | None:
    """The bytes to search for a name's definitions, or None where they cannot be searched for.

    A name node's text is the name itself, so each definition stands at an occurrence of its
    bytes; a name read from bytes that are not UTF-8 (U+FFFD) has no bytes to search for.
    """
    if not name or "\ufffd" in name:
        return None
    try:
        return name.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _candidates_named(
    captured: _RangeCaptures, stretches: list[tuple[int, int]], accepts: Callable[[bytes], bool]
) -> dict[tuple[int, int, str], None]:
    """The definition and overload-stub nodes, in query order, of the matches over `stretches`
    whose name's text `accepts`."""
    candidates: dict[tuple[int, int, str], None] = {}
    for start, end in stretches:
        for _pattern, captures in captured.query(start, end):
            names = captures.get("name")
            text_of_name = names[0].text if names else None
            if text_of_name is None or not accepts(text_of_name):
                continue
            for capture, nodes in captures.items():
                if capture == "overload" or capture.startswith("definition."):
                    candidates[capture_key(nodes[0])] = None
    return candidates


def _in_file_order(definitions: list[Definition]) -> list[Definition] | None:
    """The definitions in the listing's order, or None where it cannot be told from their spans."""
    definitions.sort(key=lambda d: (d.start, -d.end))
    spans = [(d.start, d.end) for d in definitions]
    if len(set(spans)) != len(spans):
        return None  # same-span definitions keep the query's order in the listing: not reproduced here
    return definitions


def members_of(
    spec: LanguageSpec, tree: Tree, container: tuple[str, ...], *, source: bytes | None = None
) -> list[Definition] | None:
    """The definitions standing in `container` (non-empty), equal to the listing's whose
    `container` it is, in that order; None where range queries cannot say so exactly.

    A definition's container is the names of the captured nodes around it, innermost
    last (`Builder.enclosing`), so its innermost holder is a captured node named
    `container[-1]` whose own chain is `container`. The holders are found at the
    occurrences of that name, as `definitions_named` finds definitions (a Rust type has
    one per `impl` block, a reopened Ruby class one per opening); every member lies
    inside one of them, and a range query over each builds them all.
    """
    name = container[-1] if container else ""
    needle = _needle(name)
    if needle is None or spec.markup_names:
        return None
    root = tree.root_node
    if source is None:
        source = tree_bytes(tree)
    occurrences = _occurrences(source, needle, 0, root.start_byte, root.end_byte)
    captured = _RangeCaptures(spec, root)
    # A container's name is often a common word of the file (click's `Context`: 172 occurrences in 20k lines).
    stretches = _stretches(occurrences, len(needle), _most_stretches(root.end_byte))
    candidates = _candidates_named(captured, stretches, lambda text_of_name: text_of_name == needle)
    try:
        build = Builder(spec, tree, captured, overloads=True, source=source)
        holders = []
        for key in candidates:
            item = captured.get(key)
            if item is None or item.kind == "overload" or item.name != name:
                continue
            if (*build.enclosing(item.node.parent).scope, *item.qualifiers, item.name) == container:
                holders.append(item.node)
        if not holders:
            return None
        # Every member's node lies inside its holder: it reached into the query, its entry is exact.
        for holder in holders:
            captured.query(holder.start_byte, holder.end_byte)
        inside = [
            item
            for (start, end, _), item in list(captured.found.items())
            if any(holder.start_byte <= start and end <= holder.end_byte for holder in holders)
        ]
        members = [
            d for d in map(build.definition, inside) if d is not None and d.container == container
        ]
        if spec.misparsed_types:
            # Kotlin's declarations parsed alone may stand anywhere (a class among them too): all of them.
            misparsed = misparsed_definitions(spec, tree, captured, None)
            members += [d for d in misparsed if d.container == container]
    except _Unanswerable:
        return None
    return _in_file_order(members)


def top_level_from(
    spec: LanguageSpec, tree: Tree, offset: int, *, source: bytes | None = None
) -> list[Definition] | None:
    """The listing's top-level definitions (container `()`) that start at or after `offset`, in
    order; None where one range query cannot say so exactly (Kotlin's misparsed declarations).

    Such a definition's node lies in a child of the root that ends after `offset` (it starts
    before its own start), so one query from the first of those children to the end finds them.
    """
    if spec.misparsed_types:
        return None
    root = tree.root_node
    first = next((child for child in root.children if child.end_byte > offset), None)
    if first is None:
        return []
    captured = _RangeCaptures(spec, root)
    try:
        captured.query(min(first.start_byte, offset), root.end_byte)
        build = Builder(spec, tree, captured, overloads=True, source=source)
        items = [item for (_, end, _), item in list(captured.found.items()) if end > offset]
        found = [
            d for d in map(build.definition, items) if d is not None and not d.container and d.start >= offset
        ]
    except _Unanswerable:
        return None
    return _in_file_order(found)


def _occurrences(text: bytes, needle: bytes, base: int, start: int, end: int) -> list[int]:
    """The file offsets where `needle` stands within text[start:end], not inside a longer identifier
    there (`text` starts at file offset `base`; the bytes outside start..end are not looked at)."""
    found: list[int] = []
    check_before = needle[0] in _WORD_BYTES
    check_after = needle[-1] in _WORD_BYTES
    index = text.find(needle, start, end)
    while index >= 0:
        after = index + len(needle)
        if not (check_before and index > start and text[index - 1] in _WORD_BYTES) and not (
            check_after and after < end and text[after] in _WORD_BYTES
        ):
            found.append(base + index)
        index = text.find(needle, index + 1, end)
    return found


def _stretches(occurrences: list[int], width: int, most: int) -> list[tuple[int, int]]:
    """The byte ranges to query: each occurrence, with those close after it in one range
    (past `most` ranges, one range over them all)."""
    stretches: list[tuple[int, int]] = []
    for start in occurrences:
        if stretches and start - stretches[-1][1] <= _MERGE_GAP:
            stretches[-1] = (stretches[-1][0], start + width)
        else:
            stretches.append((start, start + width))
    if len(stretches) > most:
        return [(stretches[0][0], stretches[-1][1])]
    return stretches

