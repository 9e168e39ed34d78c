"""Resolving a target by its name first gives what resolving against the full listing gives.

`resolve_in` asks the Document only for the definitions its last name part can
mean (`Document.ending_in`, built on `named.definitions_named`) and lists
the whole file only when the answer needs it. Over every code file of the
fixtures, and for every definition there — its name, its qualified name, the
name relative to its container, with and without a kind, with an ordinal — and
for names that are not there, both ways must pick the same definition or fail
with the same error, message and hint.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kopipasta.code.find.definitions import MARKUP_KINDS, Definition, list_definitions
from kopipasta.code.find.document import Document, in_memory
from kopipasta.code.find.resolve import (
    Target,
    parse_target,
    resolve,
    resolve_in,
    resolve_with_payload,
    resolve_with_payload_in,
)
from kopipasta.code.read.embedded import code_view
from kopipasta.errors import PatchError
from kopipasta.syntax.languages import LanguageSpec, language_for_path, parse

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _code_files() -> list[tuple[str, LanguageSpec, bytes]]:
    """Each distinct code text of the fixtures (a Vue/Svelte file: its script), once."""
    seen: set[bytes] = set()
    found: list[tuple[str, LanguageSpec, bytes]] = []
    for path in sorted(FIXTURES.glob("*/*/**/*")):
        if not path.is_file() or path.relative_to(FIXTURES).parts[1] not in ("before", "after"):
            continue
        spec = language_for_path(path.name)
        if spec is None:
            continue
        data = path.read_bytes()
        if spec.embedding is not None:
            view = code_view(spec, data)
            if view is None:
                continue
            spec, data = view.spec, view.data
        digest = hashlib.sha256(spec.grammar.encode() + data).digest()
        if digest in seen:
            continue
        seen.add(digest)
        found.append((path.relative_to(FIXTURES).as_posix(), spec, data))
    return found


CODE_FILES = _code_files()


def _targets(spec: LanguageSpec, definitions: list[Definition]) -> Iterator[str]:
    """The ways a reply may name each definition, and near misses that name none."""
    written: set[str] = set()
    for d in definitions:
        own = ".".join((*d.scope[len(d.container) :], d.name))
        relative = ".".join((*d.scope[-1:], d.name))
        for name in dict.fromkeys((d.name, d.qualified_name, own, relative)):
            candidates = [
                name,
                f"{d.kind} {name}",
                f"{'function' if d.kind != 'function' else 'class'} {name}",  # a kind that may not fit
                f"{name}#2",
                f"{name}_missing",  # not found: "did you mean" reads every name
                f"Nowhere.{name}",  # the last part is there, the qualifier is not
            ]
            if spec.grammar == "php":
                candidates.append(f"${name}")  # a property written with its sigil
            for text in candidates:
                if text not in written:
                    written.add(text)
                    yield text


def _outcome(call: Callable[[], object]) -> object:
    try:
        return ("found", call())
    except PatchError as error:
        return (type(error).__name__, error.message, error.hint)


def _name_first(spec: LanguageSpec, data: bytes, tree: object) -> Document:
    """A document that has listed nothing yet (its tree shared, so nothing is parsed again)."""
    return Document(in_memory(spec, data).source, spec, tree=tree)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "spec", "data"), CODE_FILES, ids=[name for name, _, _ in CODE_FILES])
def test_name_first_resolves_as_the_full_listing(name: str, spec: LanguageSpec, data: bytes) -> None:
    tree = parse(spec, data)
    definitions = list_definitions(spec, tree)
    checked = 0
    for text in _targets(spec, definitions):
        try:
            target = parse_target(text, name)
        except PatchError:
            continue  # not a target a reply could write
        expected = _outcome(lambda t=target: resolve(t, definitions, name, data))
        actual = _outcome(lambda t=target: resolve_in(t, _name_first(spec, data, tree), name))
        assert actual == expected, f"{text!r} in {name}"
        checked += 1
    # With the payload that restates one of them, a shared name may be settled by its shape.
    for d in definitions:
        payload = data[d.outer_start : d.end].decode("utf-8", "replace")
        target = (
            Target(None, (*d.scope, d.name), None, markup=True)  # a selector is not split on its dots
            if d.kind in MARKUP_KINDS
            else Target(None, tuple(d.qualified_name.split(".")), None)
        )
        expected = _outcome(lambda t=target, p=payload: resolve_with_payload(t, definitions, name, data, p, overloads=spec.has_overloads))
        actual = _outcome(
            lambda t=target, p=payload: resolve_with_payload_in(
                t, _name_first(spec, data, tree), name, p, overloads=spec.has_overloads
            )
        )
        assert actual == expected, f"payload of {d.qualified_name} in {name}"
    assert checked or not definitions


def test_the_fixtures_hold_code_in_many_languages() -> None:
    grammars = {spec.grammar for _, spec, _ in CODE_FILES}
    assert len(CODE_FILES) > 300
    assert {"python", "typescript", "tsx", "go", "rust", "java", "csharp", "php", "ruby"} <= grammars


def test_a_dotted_namespace_is_found_by_its_last_part() -> None:
    """`namespace A.B` is one definition named `A.B`; a bare `B` that also names `X.B` is ambiguous."""
    from kopipasta.syntax.languages import TYPESCRIPT

    data = b"namespace A.B {\n  export const x = 1;\n}\nclass X {\n  B() {}\n}\nconst y = A.B.x;\n"
    tree = parse(TYPESCRIPT, data)
    definitions = list_definitions(TYPESCRIPT, tree)
    for text in ("B", "module B", "method B", "A.B", "X.B", "B.x"):
        target = parse_target(text, "f.ts")
        expected = _outcome(lambda t=target: resolve(t, definitions, "f.ts"))
        assert _outcome(lambda t=target: resolve_in(t, _name_first(TYPESCRIPT, data, tree), "f.ts")) == expected
    ambiguous = _outcome(lambda: resolve_in(parse_target("B", "f.ts"), _name_first(TYPESCRIPT, data, tree), "f.ts"))
    assert ambiguous == (
        "AmbiguousTarget",
        "`B` is ambiguous in f.ts: module A.B (line 1), method X.B (line 5)",
        "qualify it as 'A.B' or 'X.B'",
    )
