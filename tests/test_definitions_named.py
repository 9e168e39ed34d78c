"""`definitions_named` finds a name's definitions exactly as the full listing has them.

(`definitions_ending_in` too, with the dotted names ending in `.name`.)

The fast path queries only the stretches of the file where the name's bytes
stand; the full listing queries everything. For every code file of the
fixtures (19 languages, Vue and Svelte through their `<script>`), the project's
multi-language corpus, and three big real modules, and for every name the
listing holds, names the file uses for something else, and names it does not
hold at all, both must give the same Definitions in the same order.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kopipasta.code.find import definitions, named
from kopipasta.code.find.definitions import Definition, list_definitions
from kopipasta.code.find.named import definitions_ending_in, definitions_named
from kopipasta.code.read import embedded
from kopipasta.syntax.languages import LanguageSpec, language_for_path, parse

REPO = Path(__file__).resolve().parent.parent
# Names no file defines, some of them shaped like what a reply's target may hold.
ABSENT = ("kopipasta_absent", "", "operator==", "~Absent", "a b", "Absent.inner", "x\ufffd", "$", "#private", "?")
_WORD = re.compile(rb"[A-Za-z_$#~][\w$!?=]*")


def _sources() -> list[Path]:
    import click
    import jinja2
    import rich

    found = sorted(p for side in ("before", "after") for p in REPO.glob(f"fixtures/*/{side}/**/*") if p.is_file())
    found += sorted(p for p in (REPO / "tests" / "identity_corpus").rglob("*") if p.is_file())
    found += [
        Path(click.__file__).parent / "core.py",
        Path(rich.__file__).parent / "console.py",
        Path(jinja2.__file__).parent / "environment.py",
    ]
    return [p for p in found if language_for_path(p.name) is not None]


SOURCES = _sources()


def _code(path: Path) -> tuple[LanguageSpec, bytes] | None:
    """The file's code as the operations parse it: a component's `<script>` through its code view."""
    host = language_for_path(path.name)
    assert host is not None
    data = path.read_bytes()
    if host.embedding is None:
        return host, data
    view = embedded.code_view(host, data)
    return None if view is None else (view.spec, view.data)


def _label(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else path.name


def _other_words(data: bytes, defined: set[str]) -> Iterator[str]:
    """Words the file uses that name no definition: calls, parameters, locals, keywords."""
    words = sorted({m.group().decode("utf-8", "replace") for m in _WORD.finditer(data)} - defined)
    step = max(len(words) // 40, 1)
    return iter(words[::step])


def test_the_corpus_covers_every_language() -> None:
    grammars = {language_for_path(p.name).name for p in SOURCES}  # type: ignore[union-attr]
    assert len(grammars) >= 19, sorted(grammars)
    assert len(SOURCES) > 800


@pytest.mark.parametrize("path", SOURCES, ids=_label)
def test_named_equals_the_listing_filtered(path: Path) -> None:
    code = _code(path)
    if code is None:
        pytest.skip("a component without a <script>")
    spec, data = code
    tree = parse(spec, data)
    listing = list_definitions(spec, tree)
    defined = {d.name for d in listing}
    # The last parts of dotted names (`namespace A.B` → `B`), for definitions_ending_in.
    parts = {d.name.rsplit(".", 1)[-1] for d in listing}
    for name in [*sorted(defined | parts), *_other_words(data, defined), *ABSENT]:
        expected = [d for d in listing if d.name == name]
        assert definitions_named(spec, tree, name) == expected, f"{_label(path)}: {name!r}"
        ending = [d for d in listing if d.name == name or d.name.endswith("." + name)]
        assert definitions_ending_in(spec, tree, name) == ending, f"{_label(path)}: ending in {name!r}"


# The files where many definitions share a name or nest deeply: the ways of grouping occurrences
# into queries (one query each, one over all of them) must give the same answer as the default.
GROUPING_SOURCES = [p for p in SOURCES if not p.is_relative_to(REPO / "fixtures")] + [
    p for p in SOURCES if p.is_relative_to(REPO / "fixtures") and p.suffix in (".kt", ".scala", ".cpp", ".ts", ".pyi")
][:60]


# The ways of grouping a name's occurrences into queries: one query each, all merged into one
# stretch, one range over all of them, as many stretches as the file's size allows.
OCCURRENCE_GROUPINGS = pytest.mark.parametrize(
    ("gap", "most", "per_stretch"), [(-1, 10_000, 10**9), (10**9, 10_000, 10**9), (256, 0, 10**9), (256, 0, 1)],
    ids=["apart", "merged", "one-range", "by-size"],
)


def group_occurrences(monkeypatch: pytest.MonkeyPatch, gap: int, most: int, per_stretch: int) -> None:
    monkeypatch.setattr(named, "_MERGE_GAP", gap)
    monkeypatch.setattr(named, "_MAX_STRETCHES", most)
    monkeypatch.setattr(named, "_BYTES_PER_STRETCH", per_stretch)


@OCCURRENCE_GROUPINGS
def test_named_is_the_same_however_occurrences_are_grouped(
    monkeypatch: pytest.MonkeyPatch, gap: int, most: int, per_stretch: int
) -> None:
    group_occurrences(monkeypatch, gap, most, per_stretch)
    for path in GROUPING_SOURCES:
        code = _code(path)
        if code is None:
            continue
        spec, data = code
        tree = parse(spec, data)
        listing = list_definitions(spec, tree)
        for name in sorted({d.name for d in listing}):
            assert definitions_named(spec, tree, name) == [d for d in listing if d.name == name], f"{_label(path)}: {name!r}"


def test_the_fast_path_answers_the_corpus_without_falling_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every name of the real modules is answered by the range queries, not by the full listing."""

    def no_listing(*args: object, **kwargs: object) -> list[Definition]:
        raise AssertionError("fell back to the full listing")

    for path in SOURCES[-3:]:
        spec, data = _code(path)  # type: ignore[misc]
        tree = parse(spec, data)
        names = sorted({d.name for d in list_definitions(spec, tree)})
        with monkeypatch.context() as patched:
            patched.setattr(named, "list_definitions", no_listing)
            for name in names:
                assert definitions_named(spec, tree, name), name


def test_overload_stubs_go_with_their_implementation() -> None:
    """Python `@overload` stubs: absorbed into the definition below, the last one of a stub-only run stays."""
    spec = language_for_path("m.py")
    assert spec is not None
    data = b'''from typing import overload


class Codec:
    @overload
    def encode(self, value: int) -> bytes: ...
    # a comment between the stubs
    @overload
    def encode(self, value: str) -> bytes: ...
    def encode(self, value):
        return str(value).encode()

    def decode(self, raw): return raw


@overload
def parse(text: str) -> int: ...
@overload
def parse(text: bytes) -> int: ...
'''
    tree = parse(spec, data)
    listing = list_definitions(spec, tree)
    for name in ("encode", "decode", "parse", "Codec", "overload"):
        assert definitions_named(spec, tree, name) == [d for d in listing if d.name == name], name
    (encode,) = definitions_named(spec, tree, "encode")
    assert data[encode.outer_start :].startswith(b"@overload\n    def encode(self, value: int)")
    assert encode.scope == ("Codec",) and encode.kind == "method"


@pytest.mark.parametrize("path", SOURCES[::7], ids=_label)
def test_a_range_query_sees_every_match_of_a_node_reaching_into_it(path: Path) -> None:
    """The premise of the fast path: for a node reaching into a queried range, the range
    query's entry (kind of the first pattern, `@not_definition`) is the whole file's."""
    from kopipasta.syntax.languages import query_matches

    code = _code(path)
    if code is None:
        pytest.skip("a component without a <script>")
    spec, data = code
    root = parse(spec, data).root_node
    whole = definitions.captured_by_node(query_matches(spec, root))
    choose = random.Random(path.name)
    for _ in range(25):
        start = choose.randrange(0, max(root.end_byte - 1, 1))
        end = min(root.end_byte, start + choose.choice((1, 1, 2, 16, 200, 3000)))
        part = definitions.captured_by_node(query_matches(spec, root, (start, end)))
        reaching = {key for key in {*whole, *part} if key[0] < end and start < key[1]}
        assert {key: part.get(key) for key in reaching} == {key: whole.get(key) for key in reaching}, (start, end)


# --- Generated sources: names shared across levels, overload stubs, wrappers ----------------------

NAMES = ("run", "Run", "a", "overload", "ns")


@st.composite
def python_block(draw: st.DrawFn, depth: int = 0) -> list[str]:
    """Statements of a Python body: defs, classes, stubs, decorators, assignments, comments, ifs."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(NAMES))
        choice = draw(st.integers(0, 8 if depth < 2 else 4))
        if choice == 0:
            lines += [f"{name} = 1"]
        elif choice == 1:
            lines += [f"{name} = other = 2"]
        elif choice == 2:
            lines += ["# a comment", f"def {name}(x): return x"]
        elif choice == 3:
            lines += ["@overload", f"def {name}(x: int) -> int: ..."]
        elif choice == 4:
            lines += ["@property", f"def {name}(self): return 1"]
        else:
            head = {5: f"def {name}():", 6: f"class {name}:", 7: f"class {name}(Protocol):", 8: "if x:"}[choice]
            body = draw(python_block(depth + 1))
            lines += [head, *("    " + line for line in body)]
    return lines


@st.composite
def typescript_block(draw: st.DrawFn, depth: int = 0) -> list[str]:
    """Statements of a TypeScript body: functions and their overloads, classes, namespaces, exports."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(NAMES))
        choice = draw(st.integers(0, 7 if depth < 2 else 4))
        if choice == 0:
            lines += [f"export const {name} = () => 1;"]
        elif choice == 1:
            lines += [f"function {name}(x: string): string;", f"function {name}(x: any) {{ return x; }}"]
        elif choice == 2:
            lines += [f"export function {name}(x: number): number;", "// between", f"export function {name}(x: any) {{ return x; }}"]
        elif choice == 3:
            lines += [f"declare function {name}(x: number): void;"]
        elif choice == 4:
            lines += [f"let {name} = 1;"]
        else:
            head = {5: f"namespace ns.{name} {{", 6: f"export class {name} {{", 7: f"function {name}() {{"}[choice]
            if choice == 6:
                body = [f"{draw(st.sampled_from(NAMES))}(): void {{}}", f"@dec() {draw(st.sampled_from(NAMES))} = 1;"]
            else:
                body = draw(typescript_block(depth + 1))
            lines += [head, *("  " + line for line in body), "}"]
    return lines


@st.composite
def kotlin_block(draw: st.DrawFn, depth: int = 0) -> list[str]:
    """Kotlin declarations, among them the annotated functions its grammar reads as expressions."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(NAMES))
        choice = draw(st.integers(0, 6 if depth < 2 else 3))
        if choice == 0:
            lines += [f"val {name} = 1"]
        elif choice == 1:
            lines += ["@Preview", "@Composable", f"private fun {name}() {{", f"    {name}()", "}"]
        elif choice == 2:
            lines += [f"fun String.{name}() = 1"]
        elif choice == 3:
            lines += [f"fun {name}(x: Int): Int {{ return x }}"]
        else:
            head = {4: f"class {name} {{", 5: f"object {name} {{", 6: f"fun {name}() {{"}[choice]
            lines += [head, *("    " + line for line in draw(kotlin_block(depth + 1))), "}"]
    return lines


def _assert_named_equals_listing(path: str, source: str) -> None:
    spec = language_for_path(path)
    assert spec is not None
    tree = parse(spec, source.encode())
    listing = list_definitions(spec, tree)
    for name in (*NAMES, *(d.name for d in listing), "ns.run", "absent"):
        assert definitions_named(spec, tree, name) == [d for d in listing if d.name == name], name
        ending = [d for d in listing if d.name == name or d.name.endswith("." + name)]
        assert definitions_ending_in(spec, tree, name) == ending, name


@settings(max_examples=300, deadline=None)
@given(python_block())
def test_generated_python(lines: list[str]) -> None:
    _assert_named_equals_listing("m.py", "from typing import overload, Protocol\n" + "\n".join(lines) + "\n")


@settings(max_examples=300, deadline=None)
@given(typescript_block())
def test_generated_typescript(lines: list[str]) -> None:
    _assert_named_equals_listing("m.ts", "\n".join(lines) + "\n")


@settings(max_examples=200, deadline=None)
@given(kotlin_block())
def test_generated_kotlin(lines: list[str]) -> None:
    _assert_named_equals_listing("m.kt", "\n".join(lines) + "\n")
