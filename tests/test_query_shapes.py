"""Patterns matched in Python below their root give exactly the definitions the native query gives.

Query files mark their dear patterns `(#structure-in-python!)` (query_shapes.py):
compiled as the root node alone, the rest matched in Python. The plain
computation is the same query file compiled whole by Tree-sitter (the marker
is then a predicate that lets every match through), or, where a file's own
patterns were rewritten (python.scm's overload stubs), the file as it stood
before (tests/query_baseline/<lang>.scm). For every code file
of the fixtures, the identity corpora and this test's own edge cases, in every
language, both must give the same listing (names, kinds, scopes, byte ranges,
overload marks, in the same order) and the same `definitions_named` answer
for every name the listing holds (a range query per occurrence of the name).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest
from test_definitions_named import _code

from kopipasta.code.find.definitions import list_definitions, overload_names
from kopipasta.code.find.named import definitions_ending_in, definitions_named
from kopipasta.syntax import languages, query_shapes
from kopipasta.syntax.languages import LanguageSpec, language_for_path, parse

REPO = Path(__file__).resolve().parent.parent
BASELINE = Path(__file__).resolve().parent / "query_baseline"
EDGE_CASES = Path(__file__).resolve().parent / "query_shapes_corpus"
ABSENT = ("kopipasta_absent", "Absent.inner", "operator==", "~Absent")


def _has_marked_patterns(spec: LanguageSpec) -> bool:
    return bool(languages._query(spec.grammar, spec.query_file, spec.extra_queries)[1])


def _sources(keep: Callable[[LanguageSpec], bool] = _has_marked_patterns) -> list[Path]:
    """Every code file of the fixtures and corpora whose language's query has marked patterns
    (for the others both sides are the same query: nothing to compare), or that `keep` keeps."""
    found = sorted(p for side in ("before", "after") for p in REPO.glob(f"fixtures/*/{side}/**/*") if p.is_file())
    for folder in ("identity_corpus", "identity_samples", "query_shapes_corpus"):
        found += sorted(p for p in (REPO / "tests" / folder).rglob("*") if p.is_file())
    kept = []
    for path in found:
        if language_for_path(path.name) is None:
            continue
        code = _code(path)
        if code is not None and keep(code[0]):
            kept.append(path)
    return kept


SOURCES = _sources()


@functools.cache
def _native_query(grammar: str, query_file: str, extra_queries: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    """The plain computation: every pattern compiled whole by Tree-sitter (a baseline, if any, for the file)."""
    texts = []
    for name in (query_file, *extra_queries):
        baseline = BASELINE / name
        texts.append(baseline.read_text(encoding="utf-8") if baseline.exists() else languages._query_text(name))
    return languages.compile_definitions_query(grammar, "\n".join(texts), native=True)


def _answers(spec: LanguageSpec, data: bytes) -> tuple[object, ...]:
    """What the file's definitions query answers: the listing, each name's definitions (by
    name and by last part, from range queries over its occurrences), the overload stubs."""
    tree = parse(spec, data)
    listing = list_definitions(spec, tree, source=data)
    names = sorted({d.name for d in listing} | {d.name.rpartition(".")[2] for d in listing} | set(ABSENT))
    named = {name: definitions_named(spec, tree, name, source=data) for name in names}
    ending = {name: definitions_ending_in(spec, tree, name, source=data) for name in names}
    return listing, named, ending, overload_names(spec, tree.root_node)


MARKED = {"c", "cpp", "csharp", "java", "kotlin", "php", "ruby", "rust", "scala", "swift", "tsx", "typescript"}


def test_the_dear_queries_mark_patterns_and_the_corpus_covers_each() -> None:
    marked = {spec.grammar for spec in languages.LANGUAGES if spec.query_file and _has_marked_patterns(spec)}
    assert marked == MARKED
    covered = {code[0].grammar for code in map(_code, SOURCES) if code is not None}
    assert covered == MARKED
    edge_cases = {language_for_path(p.name).grammar for p in EDGE_CASES.iterdir()}  # type: ignore[union-attr]
    assert edge_cases == MARKED | PREDICATED


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_python_matched_patterns_list_what_the_native_query_lists(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = _code(path)
    assert code is not None
    spec, data = code
    shaped = _answers(spec, data)
    monkeypatch.setattr(languages, "_query", _native_query)
    native = _answers(spec, data)
    assert shaped[0] == native[0]  # the listing first: its diff is the one to read
    assert shaped == native


# Queries whose dear nested pattern became a predicate checked in Python (languages.py):
# Python's overload stubs (#decorated-as-overload? for a decorator child with #match?).
PREDICATED = {"python"}
PREDICATED_SOURCES = _sources(lambda spec: spec.grammar in PREDICATED)


@pytest.mark.parametrize("path", PREDICATED_SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_a_predicate_in_python_lists_what_the_nested_native_pattern_lists(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    test_python_matched_patterns_list_what_the_native_query_lists(path, monkeypatch)


def test_a_marked_pattern_is_compiled_as_its_root_alone() -> None:
    text = '(class_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.class\n'
    query, shaped = languages.compile_definitions_query("typescript", text)
    assert list(shaped) == [0] and query.pattern_count == 1
    assert query.capture_name(0) == query_shapes.ROOT_CAPTURE


def test_languages_looks_for_the_marker_by_its_text() -> None:
    assert languages._SHAPE_MARK == "#" + query_shapes.MARKER


def test_a_marked_pattern_refuses_what_the_matcher_does_not_take() -> None:
    with pytest.raises(query_shapes.ShapeError):
        query_shapes.shape_of('(lexical_declaration . (variable_declarator) @x (#structure-in-python!)) @d')
    with pytest.raises(query_shapes.ShapeError):
        query_shapes.shape_of('(function_declaration name: (identifier) @name (#eq? @name "f") (#structure-in-python!))')


# Patterns that reach the matcher's corners the query files barely use: a named wildcard
# among anonymous children, steps in order over siblings (several ways to fit), fields,
# anonymous nodes, captures on alternations, a wildcard with a field.
SYNTHETIC = [
    ("cpp", "(parameter_list (_) @p)", b"void f(int a, char b) {}\nvoid g() {}\n"),
    ("cpp", '(parameter_list "," @comma (parameter_declaration) @after)', b"void f(int a, char b, long c) {}\n"),
    (
        "typescript",
        "(class_body (method_definition name: (_) @first) (method_definition name: (_) @second))",
        b"class A { a() {} b() {} c() {} x = 1; }\n",
    ),
    ("typescript", "(class_body (public_field_definition) @field (method_definition) @method)", b"class A { x = 1; m() {} y = 2; n() {} }\n"),
    ("typescript", "(pair key: (_) @k value: [(number) (string)] @v)", b"const o = { a: 1, 'b': 'x', c: d, [e]: 2 };\n"),
    ("rust", "(impl_item trait: (_) @trait type: (_) @type)", b"impl A for B {}\nimpl C {}\nimpl<T> D<T> for E<T> {}\n"),
    ("rust", "(function_item (_) @child)", b"pub async fn f(x: i32) -> i32 { x }\n"),
    # `(_)` never matches an ERROR node; a typed step never does either.
    ("rust", "(function_item (_) @child)", b"fn f(x: i32) @ -> i32 { x }\nfn g() -> i32 $ { 1 }\n"),
    ("cpp", "(parameter_list (_) @p)", b"void f(int a, @ char b) {}\n"),
    ("swift", '(class_declaration "class" @keyword name: (_) @name)', b"class A {}\nstruct B {}\nfinal class C: D {}\n"),
    ("ruby", "(method name: (_) @name (_) @rest)", b"def a(x) x end\ndef b; end\ndef c = 1\n"),
    # One child step in a field (the matcher reads only that field's children): other children
    # of the same type outside the field, several children in the field, none.
    ("rust", "(impl_item type: (type_identifier) @type)", b"impl A for B {}\nimpl C {}\nimpl<T> D for E<T> {}\n"),
    ("cpp", "(declaration declarator: (_) @d)", b"int a, b = 2, *c;\nint f();\nstruct S {} s;\n"),
    ("typescript", "(pair value: (identifier) @v)", b"const o = { a: b, c: 1, d, [e]: f };\n"),
    ("typescript", "(function_declaration name: (identifier) @name)", b"function f() {}\nexport function g<T>(x: T) {}\nfunction () {}\n"),
]


@pytest.mark.parametrize(("grammar", "pattern", "source"), SYNTHETIC)
def test_the_matcher_gives_the_matches_tree_sitter_gives(grammar: str, pattern: str, source: bytes) -> None:
    def matched(native: bool) -> set[tuple[int, tuple[tuple[str, tuple[int, int, str]], ...]]]:
        text = pattern if native else pattern[:-1] + " (#structure-in-python!))"
        query, shaped = languages.compile_definitions_query(grammar, text)
        assert bool(shaped) != native
        root = languages.grammar_parser(grammar).parse(source).root_node
        return {
            (index, tuple(sorted((name, (n.start_byte, n.end_byte, n.type)) for name, nodes in captures.items() for n in nodes)))
            for index, captures in languages.run_definitions_query(query, shaped, root)
        }

    native = matched(native=True)
    assert native, "the pattern matches something"
    assert matched(native=False) == native


# Query texts whose brackets hide in strings and comments, and markers that are no predicate.
TRICKY_QUERIES = [
    '(type_declaration "(" (type_spec) @t) ; a comment with ( and [\n(x "]" @y) [(a) (b)] @c\n',
    '; (#structure-in-python!) in a comment marks nothing\n(a (b) @b) @a\n(c (d) @d (#structure-in-python!)) @c\n',
    '(a (b) @b (#eq? @b "#structure-in-python!")) @a\n(c "\\"(" @q (#structure-in-python!)) @c\n',
    '(a) @a ; trailing ) ] comment\n"lone" @s\n(b (c) @c (#structure-in-python!)) @b ; (#structure-in-python!)\n',
]


def _plain_split(text: str) -> list[str]:
    """The plain computation: every token of the text read, patterns cut at depth-0 brackets."""
    patterns: list[str] = []
    depth = 0
    start: int | None = None
    for match in query_shapes._TOKEN.finditer(text):
        if match.group("open"):
            if depth == 0:
                if start is not None:
                    patterns.append(text[start : match.start()])
                start = match.start()
            depth += 1
        elif match.group("close"):
            depth -= 1
    if start is not None:
        patterns.append(text[start:])
    return patterns


def _plain_marked(pattern: str) -> bool:
    return any(m.group("predicate") == query_shapes.MARKER for m in query_shapes._TOKEN.finditer(pattern))


def _every_query_text() -> list[str]:
    texts = [languages._query_text(p.name) for p in sorted((REPO / "kopipasta" / "syntax" / "queries").glob("*.scm"))]
    return texts + TRICKY_QUERIES


@pytest.mark.parametrize("text", _every_query_text(), ids=lambda t: t[:40])
def test_patterns_are_split_and_marked_as_reading_every_token_does(text: str) -> None:
    # The shortcuts: the split reads brackets only (strings and comments skipped), and only a
    # pattern holding the marker's text is tokenized to see whether it is a predicate there.
    plain = _plain_split(text)
    assert query_shapes.split_patterns(text) == plain
    compiled, steps = query_shapes.compiled_patterns(text)
    assert sorted(steps) == [i for i, pattern in enumerate(plain) if _plain_marked(pattern)]
    assert list(compiled) == [query_shapes.shape_of(p)[1] if i in steps else p for i, p in enumerate(plain)]
