"""Patterns matched in Python below their root give exactly the definitions the native query gives.

Query files mark their dear patterns `(#structure-in-python!)` (query_shapes.py):
compiled as the root node alone, the rest matched in Python. The plain
computation is the query as it stood before (tests/query_baseline/<lang>.scm,
the files as main had them) compiled whole by Tree-sitter. For every code file
of the fixtures, the identity corpora and this test's own edge cases, in every
language, both must give the same listing (names, kinds, scopes, byte ranges,
overload marks, in the same order) and the same `definitions_named` answer
for every name the listing holds (a range query per occurrence of the name).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kopipasta import embedded, languages, query_shapes
from kopipasta.definitions import Definition, definitions_named, list_definitions
from kopipasta.languages import LanguageSpec, language_for_path, parse

REPO = Path(__file__).resolve().parent.parent
BASELINE = Path(__file__).resolve().parent / "query_baseline"
EDGE_CASES = Path(__file__).resolve().parent / "query_shapes_corpus"


def _sources() -> list[Path]:
    found = sorted(p for side in ("before", "after") for p in REPO.glob(f"fixtures/*/{side}/**/*") if p.is_file())
    for folder in ("identity_corpus", "identity_samples", "query_shapes_corpus"):
        found += sorted(p for p in (REPO / "tests" / folder).rglob("*") if p.is_file())
    return [p for p in found if language_for_path(p.name) is not None]


SOURCES = _sources()


def _code(path: Path) -> tuple[LanguageSpec, bytes] | None:
    host = language_for_path(path.name)
    assert host is not None
    data = path.read_bytes()
    if host.embedding is None:
        return host, data
    view = embedded.code_view(host, data)
    return None if view is None else (view.spec, view.data)


def _native_query(grammar: str, query_file: str, extra_queries: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    """The plain computation: the query as main had it, every pattern compiled whole by Tree-sitter."""
    texts = []
    for name in (query_file, *extra_queries):
        baseline = BASELINE / name
        texts.append(baseline.read_text(encoding="utf-8") if baseline.exists() else languages._query_text(name))
    return languages.compile_definitions_query(grammar, "\n".join(texts), native=True)


def _answers(spec: LanguageSpec, data: bytes) -> tuple[list[Definition], dict[str, list[Definition]]]:
    tree = parse(spec, data)
    listing = list_definitions(spec, tree, source=data)
    names = sorted({d.name for d in listing} | {d.name.rpartition(".")[2] for d in listing})
    return listing, {name: definitions_named(spec, tree, name, source=data) for name in names}


def test_the_queries_mark_patterns() -> None:
    marked = {
        spec.query_file
        for spec in languages.LANGUAGES
        if spec.query_file and languages._query(spec.grammar, spec.query_file, spec.extra_queries)[1]
    }
    assert {"cpp.scm", "typescript.scm", "rust.scm"} <= marked


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_python_matched_patterns_list_what_the_native_query_lists(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = _code(path)
    if code is None:
        return
    spec, data = code
    shaped = _answers(spec, data)
    monkeypatch.setattr(languages, "_query", _native_query)
    native = _answers(spec, data)
    assert shaped[0] == native[0]
    assert shaped[1] == native[1]


def test_the_edge_cases_cover_the_marked_languages() -> None:
    grammars = {language_for_path(p.name).grammar for p in EDGE_CASES.iterdir()}  # type: ignore[union-attr]
    assert {"cpp", "typescript", "tsx", "rust"} <= grammars


def test_a_marked_pattern_is_compiled_as_its_root_alone() -> None:
    text = '(class_declaration name: (type_identifier) @name (#structure-in-python!)) @definition.class\n'
    query, shaped = languages.compile_definitions_query("typescript", text)
    assert list(shaped) == [0] and query.pattern_count == 1
    assert query.capture_name(0) == query_shapes.ROOT_CAPTURE


def test_a_marked_pattern_refuses_what_the_matcher_does_not_take() -> None:
    with pytest.raises(query_shapes.ShapeError):
        query_shapes.shape_of('(lexical_declaration . (variable_declarator) @x (#structure-in-python!)) @d')
    with pytest.raises(query_shapes.ShapeError):
        query_shapes.shape_of('(function_declaration name: (identifier) @name (#eq? @name "f") (#structure-in-python!))')
