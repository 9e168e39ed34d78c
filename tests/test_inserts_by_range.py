"""Inserts by range (issue 9): a member's siblings without the whole-file listing, the same answers.

INSERT_AFTER / INSERT_BEFORE learn their spacing from the target's nearest
siblings: the definitions of its container. For a member, `Document.members`
asks `named.members_of`, range queries over the nodes holding the
container's members, where the full listing was filtered before. Checked here
against that plain computation:
- the members of every container of every corpus file are the listing's;
- for every definition of the corpus as an anchor, the siblings (and so the
  spacing) are those the listing gives;
- every INSERT_* / APPEND_TO reply of the fixtures, with the shortcut forced off
  and on, writes the same bytes and reports the same lines.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from cli_process import kopipasta
from test_definitions_named import (
    GROUPING_SOURCES,
    OCCURRENCE_GROUPINGS,
    REPO,
    SOURCES,
    _code,
    _label,
    group_occurrences,
)

from kopipasta.code.edit import append, insert, spacing
from kopipasta.code.find import document as document_module
from kopipasta.code.find.definitions import Definition, list_definitions
from kopipasta.code.find.document import Document, in_memory
from kopipasta.code.find.named import members_of, top_level_from
from kopipasta.engine import apply_reply
from kopipasta.errors import PatchError
from kopipasta.model import Operation
from kopipasta.syntax.languages import LanguageSpec, language_for_path, parse


def _listing(spec: LanguageSpec, data: bytes) -> tuple[object, list[Definition]]:
    tree = parse(spec, data)
    return tree, list_definitions(spec, tree, source=data)


@pytest.mark.parametrize("path", SOURCES, ids=_label)
def test_members_are_the_listing_filtered(path: Path) -> None:
    code = _code(path)
    if code is None:
        return
    spec, data = code
    tree, listing = _listing(spec, data)
    containers = {d.container for d in listing if d.container}
    # Names that hold no members too: a function's own scope, a name the file does not define.
    containers |= {(*d.scope, d.name) for d in listing}
    containers |= {("kopipasta_absent",), ("",), ("x\ufffd",)}
    for container in sorted(containers):
        found = members_of(spec, tree, container, source=data)  # type: ignore[arg-type]
        if found is not None:
            assert found == [d for d in listing if d.container == container], (_label(path), container)


def test_the_corpus_is_answered_by_range() -> None:
    """Every container that has members is answered without the listing (several holders included)."""
    asked = fell_back = 0
    holders_of_several = 0
    for path in SOURCES:
        code = _code(path)
        if code is None:
            continue
        spec, data = code
        if spec.markup_names:
            continue  # a stylesheet is listed whole: a selector's name is not its bytes (markup_names.py)
        tree, listing = _listing(spec, data)
        for container in {d.container for d in listing if d.container}:
            asked += 1
            if members_of(spec, tree, container, source=data) is None:  # type: ignore[arg-type]
                fell_back += 1
        names = [(*d.scope, d.name) for d in listing if d.kind in ("class", "impl", "struct", "object", "extension")]
        holders_of_several += len(names) - len(set(names))
    assert asked > 800 and fell_back == 0
    assert holders_of_several > 20  # Rust impl blocks, Swift extensions, Scala companions: several holders


@OCCURRENCE_GROUPINGS
def test_members_are_the_same_however_occurrences_are_grouped(
    monkeypatch: pytest.MonkeyPatch, gap: int, most: int, per_stretch: int
) -> None:
    group_occurrences(monkeypatch, gap, most, per_stretch)
    for path in GROUPING_SOURCES:
        code = _code(path)
        if code is None:
            continue
        spec, data = code
        tree, listing = _listing(spec, data)
        for container in sorted({d.container for d in listing if d.container}):
            found = members_of(spec, tree, container, source=data)  # type: ignore[arg-type]
            assert found == [d for d in listing if d.container == container], (_label(path), container)


def _plain_siblings(document: Document, target: Definition, span: spacing.Span) -> tuple[object, object]:
    """insert._siblings as it was: over the whole listing."""
    before = after = None
    for other in document.definitions:
        if other == target or other.container != target.container:
            continue
        other_span = spacing.lines_of(document, other.outer_start, other.end)
        if other_span is None or other_span.indent != span.indent:
            continue
        if other_span.top >= span.bottom and (after is None or other_span.top < after.top):
            after = other_span
        if other_span.bottom <= span.top and (before is None or other_span.bottom > before.bottom):
            before = other_span
    return before, after


@pytest.mark.parametrize("path", SOURCES[::3], ids=_label)
def test_every_anchor_has_the_listings_siblings(path: Path) -> None:
    code = _code(path)
    if code is None:
        return
    spec, data = code
    plain = in_memory(spec, data)
    for target in plain.definitions:
        span = spacing.lines_of(plain, target.outer_start, target.end)
        if span is None:
            continue
        fresh = in_memory(spec, data)  # a new version: nothing listed yet
        assert insert._siblings(fresh, target, span) == _plain_siblings(plain, target, span), (
            _label(path),
            target.qualified_name,
        )
        if target.container and not spec.markup_names:  # a stylesheet is listed whole
            assert fresh._definitions is None  # the member's siblings came without the listing


def _shortcuts_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every range shortcut answers "not exact": the Document lists the file, as before."""
    monkeypatch.setattr(document_module, "members_of", lambda *args, **kwargs: None)
    monkeypatch.setattr(document_module, "top_level_from", lambda *args, **kwargs: None)


def _insert_cases() -> list[Path]:
    cases = sorted(p.parent for p in (REPO / "fixtures").glob("*/reply.md"))
    return [
        case
        for case in cases
        if any(word in (case / "reply.md").read_text(encoding="utf-8") for word in ("INSERT_AFTER", "INSERT_BEFORE", "APPEND_TO"))
    ]


INSERT_CASES = _insert_cases()


def _options(case: Path) -> dict[str, object]:
    args = (case / "args.txt").read_text(encoding="utf-8").split("\n") if (case / "args.txt").is_file() else []
    words = [a.strip() for a in args if a.strip()]
    options: dict[str, object] = {}
    if "--allow-delete" in words:
        options["allow_delete"] = True
    if "--partial" in words:
        options["partial"] = True
    if "--strict" in words:
        options["strict"] = True
    if "--only" in words:
        options["only"] = (words[words.index("--only") + 1],)
    return options


def _apply(case: Path, root: Path) -> tuple[object, dict[str, bytes]]:
    shutil.copytree(case / "before", root)
    report = apply_reply((case / "reply.md").read_text(encoding="utf-8"), root, **_options(case))  # type: ignore[arg-type]
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and ".kopipasta" not in p.parts}
    return report, files


def test_the_fixtures_hold_member_inserts() -> None:
    assert len(INSERT_CASES) >= 30


@pytest.mark.parametrize("case", INSERT_CASES, ids=lambda p: p.name)
def test_a_fixture_insert_is_the_same_with_the_shortcut_off(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    on = _apply(case, tmp_path / "on")
    _shortcuts_off(monkeypatch)
    off = _apply(case, tmp_path / "off")
    assert on == off


def test_inserting_a_method_asks_no_listing() -> None:
    """A member's INSERT_AFTER resolves by name and learns its spacing by range: no listing of the file."""
    spec = language_for_path("m.py")
    assert spec is not None
    data = b"import os\n\n\nclass A:\n    def one(self):\n        pass\n\n    def two(self):\n        pass\n\n\ndef f():\n    pass\n"
    document = in_memory(spec, data)
    result = insert.insert(document, Operation.INSERT_AFTER, "method A.one", "def new(self):\n    pass\n", file="m.py")
    assert document._definitions is None
    assert result.data == data.replace(b"        pass\n\n    def two", b"        pass\n\n    def new(self):\n        pass\n\n    def two")


def _restated(document: Document, target: Definition) -> str:
    """The target's own lines, dedented: a payload that is valid where the target stands."""
    top = document.line_start(target.outer_start)
    return textwrap.dedent(document.data[top : target.end].decode("utf-8", "replace")) + "\n"


def _outcome(document: Document, operation: Operation, target: Definition, payload: str) -> object:
    try:
        result = insert.insert(document, operation, f"{target.kind} {target.qualified_name}", payload, file="f")
    except PatchError as error:
        return str(error)
    return result.data, result.note


@pytest.mark.parametrize("path", SOURCES[1::4], ids=_label)
def test_inserting_beside_each_member_writes_what_the_listing_would(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """INSERT_AFTER and INSERT_BEFORE each member, restating it: the same bytes (or failure) either way."""
    code = _code(path)
    if code is None:
        return
    spec, data = code
    members = [d for d in in_memory(spec, data).definitions if d.container]
    for target in members[:: max(len(members) // 12, 1)]:
        for operation in (Operation.INSERT_AFTER, Operation.INSERT_BEFORE):
            payload = _restated(in_memory(spec, data), target)
            with monkeypatch.context() as off:
                _shortcuts_off(off)
                plain = _outcome(in_memory(spec, data), operation, target, payload)
            assert _outcome(in_memory(spec, data), operation, target, payload) == plain, (
                _label(path), operation, target.qualified_name
            )


def test_member_spacing_is_learnt_from_its_siblings(tmp_path: Path) -> None:
    """Methods two blank lines apart: a method inserted after the last one, or before the first, is too."""
    source = (
        "class Cart:\n"
        '    """A cart."""\n\n\n'
        "    def add(self, item):\n        self.items.append(item)\n\n\n"
        "    def total(self):\n        return sum(self.items)\n\n\n"
        "def main():\n    pass\n"
    )
    (tmp_path / "cart.py").write_text(source, encoding="utf-8")
    reply = (
        "```python\n# FILE: cart.py\n# INSERT_AFTER: method Cart.total\n"
        "def count(self):\n    return len(self.items)\n```\n\n"
        "```python\n# FILE: cart.py\n# INSERT_BEFORE: method Cart.add\n"
        "def clear(self):\n    self.items = []\n```\n"
    )
    (tmp_path / "reply.md").write_text(reply, encoding="utf-8")
    result = kopipasta("apply", str(tmp_path / "reply.md"), "--root", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "cart.py").read_text(encoding="utf-8") == (
        "class Cart:\n"
        '    """A cart."""\n\n\n'
        "    def clear(self):\n        self.items = []\n\n\n"
        "    def add(self, item):\n        self.items.append(item)\n\n\n"
        "    def total(self):\n        return sum(self.items)\n\n\n"
        "    def count(self):\n        return len(self.items)\n\n\n"
        "def main():\n    pass\n"
    )


# -- APPEND_TO: file: the module's last definitions, by range --------------------------------


@pytest.mark.parametrize("path", SOURCES, ids=_label)
def test_top_level_from_is_the_listing_filtered(path: Path) -> None:
    code = _code(path)
    if code is None:
        return
    spec, data = code
    tree, listing = _listing(spec, data)
    children = tree.root_node.children  # type: ignore[attr-defined]
    offsets = {child.start_byte for child in children} | {0, len(data), len(data) // 3, len(data) // 2 + 1}
    for offset in sorted(offsets):
        found = top_level_from(spec, tree, offset, source=data)  # type: ignore[arg-type]
        if found is not None:
            assert found == [d for d in listing if not d.container and d.start >= offset], (_label(path), offset)
        else:
            assert spec.misparsed_types, (_label(path), offset)  # only Kotlin's misparsed declarations list the file


def _plain_module_gap(document: Document, multiline: bool) -> int | None:
    """append_to_file's separator as it was: from every top-level definition of the listing."""
    spans = [
        s
        for d in document.definitions
        if not d.container and (s := spacing.lines_of(document, d.outer_start, d.end)) is not None and not s.indent
    ]
    pairs = list(reversed(list(zip(spans, spans[1:], strict=False))))
    return spacing.choose_gap(document.data, pairs, multiline)


@pytest.mark.parametrize("path", SOURCES, ids=_label)
def test_the_module_gap_is_the_listings(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = _code(path)
    if code is None:
        return
    spec, data = code
    plain = in_memory(spec, data)
    for multiline in (True, False):
        for step in (16, 1):  # the rounds as they are, and one child at a time (every partial answer)
            monkeypatch.setattr(append, "_MODULE_TAIL", step)
            assert append._module_gap(in_memory(spec, data), multiline) == _plain_module_gap(plain, multiline), (
                _label(path), multiline, step
            )


def test_appending_to_a_long_module_asks_no_listing() -> None:
    spec = language_for_path("m.py")
    assert spec is not None
    functions = "\n\n".join(f"def f{n}(x):\n    return x + {n}\n" for n in range(40))
    data = ("import os\n\n\n" + functions).encode()
    document = in_memory(spec, data)
    result = insert.insert(document, Operation.APPEND_TO, "file", "def g(x):\n    return x\n", file="m.py")
    assert document._definitions is None
    assert result.data == data + b"\n\ndef g(x):\n    return x\n"  # two blank lines, as the file has them
