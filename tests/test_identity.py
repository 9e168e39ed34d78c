"""Every definition of every fixture file, replaced by its own text, must come back `unchanged`.

The strongest check of the splice and the re-indentation together: restating
a definition exactly as it stands may change no byte, whatever the language,
nesting, decorators, strings or line endings around it. Each definition is
sent twice: at its own indentation, and moved to column 0 the way a model
sends a method (its code lines, docstrings and block comments dedented; the
inside of other multi-line strings kept, since the tool keeps those as
written). Overload runs are skipped: restating the last stub alone is a
different request.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kopipasta.code.find.definitions import list_definitions
from kopipasta.code.layout.render import string_lines
from kopipasta.code.read.embedded import code_view
from kopipasta.engine import apply_reply
from kopipasta.model import Status
from kopipasta.syntax.languages import LanguageSpec, has_syntax_error, language_for_path, parse

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# Realistic multi-definition files of the languages whose fixtures share a few projects.
SAMPLES = Path(__file__).resolve().parent / "identity_samples"
# Files written to exercise each grammar's corners, beside the fixtures' realistic projects.
CORPUS = Path(__file__).resolve().parent / "identity_corpus"


def _distinct(paths: list[Path]) -> list[Path]:
    """One path per distinct file: fixtures share their projects, and a copy adds no case."""
    seen: dict[tuple[str, bytes], Path] = {}
    for path in sorted(paths):
        seen.setdefault((path.suffix, path.read_bytes()), path)
    return sorted(seen.values())


SOURCES = _distinct(
    [
        p
        for p in [*FIXTURES.glob("*/before/**/*"), *SAMPLES.iterdir(), *CORPUS.iterdir()]
        if p.is_file() and not p.is_symlink() and language_for_path(p.name) is not None
    ]
)


@pytest.mark.parametrize("source", SOURCES, ids=[str(p.relative_to(FIXTURES.parent)) for p in SOURCES])
def test_restating_each_definition_changes_nothing(source: Path, tmp_path: Path) -> None:
    spec = language_for_path(source.name)
    assert spec is not None
    data = source.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if spec.embedding is not None:
        # A Vue/Svelte component: its <script>, at the file's own offsets (embedded.py).
        view = code_view(spec, data)
        assert view is not None, "the component has a <script>"
        spec, data = view.spec, view.data
    tree = parse(spec, data)
    if has_syntax_error(spec, tree.root_node):
        pytest.skip("the fixture file is deliberately broken")
    shutil.copy(source, tmp_path / source.name)
    definitions = list_definitions(spec, tree)
    for definition in definitions:
        same = [d for d in definitions if d.qualified_name == definition.qualified_name]
        if definition.outer_start < (definition.wrapper_start or definition.outer_start):
            continue  # an overload run
        target = definition.qualified_name + (f"#{same.index(definition) + 1}" if len(same) > 1 else "")
        line_start = data.rfind(b"\n", 0, definition.start) + 1
        if b"{" in data[line_start : definition.start]:
            line_start = definition.start  # a member on its class's line: `class A { val x = 1 }`
        as_written = data[line_start : definition.end].decode("utf-8").replace("\r\n", "\n")
        for payload in (as_written, at_column_0(spec, as_written)):
            fence = "`" * max(4, max((len(run) for run in payload.split("\n") if set(run) == {"`"}), default=0) + 1)
            reply = f"{fence}\n// FILE: {source.name}\n// TARGET_NODE: {target}\n{payload}\n{fence}\n"
            (outcome,) = apply_reply(reply, tmp_path, dry_run=True).outcomes
            assert outcome.status is Status.UNCHANGED, (
                f"{target} (line {definition.line}): {outcome.status.value} {outcome.message}\n{payload}"
            )


def at_column_0(spec: LanguageSpec, payload: str) -> str:
    """The payload dedented to column 0, except the inside of its multi-line strings."""
    frozen, moving = string_lines(spec, payload)
    lines = payload.split("\n")
    margin = lines[0][: len(lines[0]) - len(lines[0].lstrip(" \t"))]
    out = []
    for row, line in enumerate(lines):
        if (row not in frozen or row in moving) and line.startswith(margin):
            line = line[len(margin) :]
        out.append(line)
    return "\n".join(out)
