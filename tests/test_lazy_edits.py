"""Lazy edits as real models write them (issue 24): each applied exactly, or refused only when built uncertain.

bench/lazy_edits.py writes, per shape (`// ... existing code ...` in every
language, the file's own `# ...` / `-- ...`, column-0 placeholders inside a
body, partial heads, tails, statement runs, members without their class,
`-`/`+` runs without `@@`, comment edits, renamed functions, whole files
missing an import, a function with new nesting in another indent unit, and
snippets built to be uncertain) and per language
(Python, TypeScript/TSX, Rust, C++, Scala, Lua, Go, Java), a seeded sample of
replies over real files, each knowing the exact bytes its file must hold after
it, or that only a refusal is right. The engine applies each to a scratch
project (`engine.apply_reply`, as the CLI does, in this process for speed).

A case outside the lists below must come out as meant. The lists hold, by case
id, what today's reading does instead: KNOWN_WRONG writes something the snippet
did not mean, KNOWN_REFUSED refuses what a careful reader would apply. Both are
strict xfails: when the line-anchored merge of issue 24 lands, a case that now
comes out as meant fails as XPASS — delete its id. A known-refused case that
starts writing wrong bytes fails outright. `python bench/lazy_edits.py --table`
prints the whole table; `--case ID --list --diff` shows one case.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.lazy_edits import Case, all_cases, judge  # noqa: E402
from bench.lazy_shapes import SHAPES  # noqa: E402
from bench.lazy_sites import LANGUAGES  # noqa: E402

SAMPLE = 2  # cases per language and shape (about 200): the default seed, so the ids below are stable

KNOWN_WRONG: set[str] = set()
KNOWN_REFUSED: set[str] = set()

_CASES = list(all_cases(SAMPLE))


def _params() -> list[Any]:
    params = []
    for case in _CASES:
        marks = []
        if case.id in KNOWN_WRONG:
            marks.append(pytest.mark.xfail(strict=True, raises=AssertionError, reason="writes what it did not mean"))
        elif case.id in KNOWN_REFUSED:
            marks.append(pytest.mark.xfail(strict=True, raises=AssertionError, reason="refused, a reader would apply"))
        params.append(pytest.param(case, marks=marks, id=case.id))
    return params


@pytest.mark.parametrize("case", _params())
def test_lazy_edit_is_applied_as_meant_or_refused_by_design(case: Case, tmp_path: Path) -> None:
    verdict = judge(case, tmp_path, engine=True)
    if verdict.outcome == "wrong" and case.id not in KNOWN_WRONG:
        pytest.fail(f"{case.label}: {verdict.why}\n{verdict.diff}")  # not an xfail, whatever the lists say
    meant = "applied" if case.intended is not None else "by design"
    assert verdict.outcome == meant, f"{case.label}: {verdict.outcome}: {verdict.why}\n{verdict.diff}"


def test_the_lists_name_only_cases_of_the_sample() -> None:
    ids = {case.id for case in _CASES}
    assert sorted((KNOWN_WRONG | KNOWN_REFUSED) - ids) == []
    assert KNOWN_WRONG.isdisjoint(KNOWN_REFUSED)


def test_the_sample_covers_every_shape_in_the_eight_languages() -> None:
    for shape in SHAPES:
        languages = {case.language for case in _CASES if case.shape == shape.name}
        # Lua and Go have no classes: a member without its class line is not written in them.
        wanted = set(LANGUAGES) - ({"lua", "go"} if shape.name == "members" else set())
        # Not every language's files hold a statement line twice: the uncertain shape needs 6 of 8.
        assert len(languages) >= 6 if shape.name == "twice-anchor" else languages == wanted, shape.name


def test_each_intended_result_is_the_file_changed_and_still_parses() -> None:
    from kopipasta.syntax.languages import language_for_path, parse

    for case in _CASES:
        if case.intended is None:
            continue
        assert case.intended != case.site.text, case.id
        spec = language_for_path(case.site.path)
        assert spec is not None
        assert not parse(spec, case.intended.encode("utf-8")).root_node.has_error, case.id
