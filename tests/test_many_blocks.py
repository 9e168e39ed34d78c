"""Many blocks, round 2 (issue 9): the per-version work is cheaper, and gives the same answers.

Two shortcuts, each checked here against the plain computation it replaced:
- `render.multiline_nodes` walks only nodes that span rows, where value_rows ran the
  strings-and-comments query (`languages.nodes_of_types`, compiled once per grammar);
- `indent.indent_steps` settles a line as indented as the one above with one test.
Both feed the file's indent unit (every file version a reply edits) and the payload's
string rows (every rendered payload); a user sees them in the bytes written.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from cli_process import kopipasta
from hypothesis import given, settings
from hypothesis import strategies as st
from test_definitions_named import REPO, SOURCES, _code, _label

from kopipasta.code.find import document
from kopipasta.code.imports.imports import split_imports
from kopipasta.code.layout import render
from kopipasta.code.layout.indent import UNIT_SAMPLE_LINES, Unit, detect_unit, indent_steps
from kopipasta.code.layout.render import (
    _is_docstring,
    _is_squiggly_heredoc,
    multiline_nodes,
    parse_payload,
    payload_tree,
    value_rows,
)
from kopipasta.syntax.languages import (
    LANGUAGES,
    LanguageSpec,
    language_for_path,
    nodes_of_types,
    parse,
)

if TYPE_CHECKING:
    from tree_sitter import Node, Tree


# -- the plain computations the shortcuts replaced ------------------------------------------


def _plain_value_rows(
    spec: LanguageSpec, root: Node, offset: int = 0, rows: int | None = None, *, docstrings: bool = True
) -> tuple[set[int], dict[int, int]]:
    """value_rows as it was: every string and comment the query finds, one-row ones skipped."""
    frozen: set[int] = set()
    docstring: dict[int, int] = {}
    for node in nodes_of_types(spec, root, (*spec.string_types, *spec.comment_types), rows):
        first, last = node.start_point[0], node.end_point[0]
        if node.end_point[1] == 0 and last > first:
            last -= 1  # ends with its newline (Rust's line comments): not on the next row
        if last == first:
            continue
        if not docstrings:
            frozen.update(range(first + 1 - offset, last + 1 - offset))
            continue
        moves_with_opener = node.type in spec.comment_types or _is_docstring(node) or _is_squiggly_heredoc(node)
        for row in range(first + 1, last + 1):
            frozen.add(row - offset)
            if moves_with_opener:
                docstring[row - offset] = first - offset
    return frozen, docstring


def _plain_indent_steps(lines: Iterable[str]) -> Counter[str]:
    """indent_steps as it was, line by line."""
    steps: Counter[str] = Counter()
    stack: list[str] = []
    for count, line in enumerate(lines):
        if count >= UNIT_SAMPLE_LINES:
            break
        if not line.strip():
            continue
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if not stack:
            stack.append(indent)
            continue
        while len(stack) > 1 and not (len(indent) > len(stack[-1]) and indent.startswith(stack[-1])):
            if indent == stack[-1]:
                break
            stack.pop()
        if indent == stack[-1]:
            continue
        if len(indent) > len(stack[-1]) and indent.startswith(stack[-1]):
            step = indent[len(stack[-1]) :]
            if step.strip("\t") == "":
                steps["\t"] += 1
            elif step.strip(" ") == "" and len(step) <= 8:
                steps[step] += 1
            stack.append(indent)
        elif len(stack) == 1:
            stack[0] = indent
    return steps


def _spans(nodes: Iterable[Node]) -> list[tuple[int, int, str]]:
    return [(n.start_byte, n.end_byte, n.type) for n in nodes]


def _assert_same_rows(spec: LanguageSpec, data: bytes, label: str) -> None:
    root = parse(spec, data).root_node
    types = (*spec.string_types, *spec.comment_types)
    last_row = root.end_point[0]
    for rows in (None, UNIT_SAMPLE_LINES, 1, 3, last_row // 2 + 1, last_row, last_row + 1):
        queried = [n for n in nodes_of_types(spec, root, types, rows) if n.end_point[0] != n.start_point[0]]
        # The same nodes (the query's captures come grouped, not in file order; the walk's do).
        walked = _spans(multiline_nodes(root, frozenset(types), rows))
        assert walked == sorted(walked, key=lambda span: (span[0], -span[1]))
        assert sorted(walked) == sorted(_spans(queried)), (label, rows)
        for docstrings in (True, False):
            got = value_rows(spec, root, 0, rows, docstrings=docstrings)
            assert got == _plain_value_rows(spec, root, 0, rows, docstrings=docstrings), (label, rows, docstrings)


# -- the strings and comments: the walk finds what the query found --------------------------


@pytest.mark.parametrize("path", SOURCES, ids=_label)
def test_multiline_nodes_are_what_the_query_finds(path: Path) -> None:
    code = _code(path)
    if code is None:
        pytest.skip("a component without a <script>")
    spec, data = code
    _assert_same_rows(spec, data, _label(path))
    if spec.embedding is None:
        tree = parse(spec, data)
        assert document._file_unit(data, spec, tree) == _plain_file_unit(data, spec, tree)


def _plain_file_unit(data: bytes, spec: LanguageSpec, tree: Tree) -> Unit | None:
    text = document._sample(data).decode("utf-8", "replace").split("\n")
    frozen, _ = _plain_value_rows(spec, tree.root_node, rows=UNIT_SAMPLE_LINES, docstrings=False)
    return detect_unit(line for row, line in enumerate(text) if row not in frozen)


# Multi-line strings and comments, nested ones too, for the languages whose corpus files have few.
_SNIPPETS = {
    "a.cs": 'class A {\n  /* one\n     two */\n  string s = @"a\n  b";\n  string t = """\n    raw\n    """;\n'
    '  string u = $"x {(\n  1)} y";\n}\n',
    "a.go": "package a\n\n/* one\n   two */\nvar s = `a\n  b`\n\nfunc f() {\n\tx := `c\n\td`\n}\n",
    "a.scala": 'object A {\n  /** doc\n    * more */\n  val s = """a\n    b"""\n  val t = s"""x ${\n  1} y"""\n}\n',
    "a.swift": 'let s = """\n  a\n    b\n  """\n/* one\n   /* nested */\n   two */\nfunc f() {}\n',
    "a.ts": "const s = `a ${/* one\n   two */ 1} b\n  c`;\nconst t = `x ${`inner\n  y`} z`;\n",
    "a.css": '/* one\n   two */\n.a::after {\n  content: "a\\\n  b";\n}\n',
    "a.py": 'def f():\n    """Doc\n    more."""\n    return f"""{\n  \'\'\'in\n  ner\'\'\'} x\n"""\n',
}


@pytest.mark.parametrize("name", sorted(_SNIPPETS))
def test_multiline_nodes_in_snippets(name: str) -> None:
    spec = language_for_path(name)
    assert spec is not None
    data = _SNIPPETS[name].encode()
    assert multiline_nodes(parse(spec, data).root_node, frozenset((*spec.string_types, *spec.comment_types)))
    _assert_same_rows(spec, data, name)


def test_the_comparison_covers_every_language() -> None:
    """The comparisons are only worth something where there are such nodes to find."""
    seen = {language_for_path(name).name for name in _SNIPPETS}  # type: ignore[union-attr]
    for path in SOURCES:
        code = _code(path)
        if code is None:
            continue
        spec, data = code
        if multiline_nodes(parse(spec, data).root_node, frozenset((*spec.string_types, *spec.comment_types))):
            seen.add(spec.name)
    code_languages = {spec.name for spec in LANGUAGES if spec.embedding is None}
    assert code_languages <= seen, sorted(code_languages - seen)


# Pieces that open, close or break strings and comments, or move rows: random edits of the
# corpus with them make broken trees (ERROR nodes, unclosed strings swallowing the file).
_PIECES = ['"""', "'''", '"', "'", "`", "/*", "*/", "//", "#", "\n", "\\\n", "{", "}", "(", ")", "${", "x", "  "]
_EDITABLE = [p for p in SOURCES if p.stat().st_size < 40_000]


@settings(max_examples=250, deadline=None)
@given(
    which=st.integers(0, len(_EDITABLE) - 1),
    edits=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 30), st.sampled_from(_PIECES)), min_size=1, max_size=4),
)
def test_multiline_nodes_after_random_edits(which: int, edits: list[tuple[float, int, str]]) -> None:
    path = _EDITABLE[which]
    code = _code(path)
    if code is None:
        return
    spec, data = code
    for where, removed, piece in edits:
        at = int(where * len(data))
        data = data[:at] + piece.encode() + data[at + removed :]
    _assert_same_rows(spec, data, _label(path))


def _fixture_payloads() -> list[tuple[LanguageSpec, str, str]]:
    found: list[tuple[LanguageSpec, str, str]] = []
    fence = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
    path_line = re.compile(r"FILE:\s*(\S+)")
    for reply in sorted(REPO.glob("fixtures/*/reply.md")):
        for number, match in enumerate(fence.finditer(reply.read_text(encoding="utf-8", errors="replace"))):
            named = path_line.search(match.group(1))
            spec = language_for_path(named.group(1)) if named else None
            if spec is not None and spec.embedding is None:
                found.append((spec, match.group(1), f"{reply.parent.name}#{number}"))
    return found


def test_payload_string_rows_are_what_the_query_finds() -> None:
    payloads = _fixture_payloads()
    assert len(payloads) > 300
    with_rows = 0
    for spec, payload, label in payloads:
        tree, offset = payload_tree(spec, payload)
        got = value_rows(spec, tree.root_node, offset)
        assert got == _plain_value_rows(spec, tree.root_node, offset), label
        with_rows += bool(got[1])
    assert with_rows >= 10  # docstrings and block comments that move with their opener


# -- one parse of a payload's bytes -------------------------------------------------------------


def _shape(tree: object) -> tuple[str, bytes]:
    root = tree.root_node  # type: ignore[attr-defined]
    return str(root), root.text


def test_a_payload_parse_is_a_fresh_parse_of_those_bytes() -> None:
    """parse_payload gives back the last tree only for the same grammar and bytes."""
    payloads = _fixture_payloads()
    previous: tuple[LanguageSpec, bytes] | None = None
    for spec, payload, label in payloads:
        data = payload.encode()
        for asked_spec, asked in ((spec, data), (spec, data + b"\n"), (spec, data)):
            assert _shape(parse_payload(asked_spec, asked)) == _shape(parse(asked_spec, asked)), label
        if previous is not None:  # the previous payload's bytes in this one's grammar, and back
            for asked_spec, asked in ((spec, previous[1]), (previous[0], previous[1]), (previous[0], data)):
                assert _shape(parse_payload(asked_spec, asked)) == _shape(parse(asked_spec, asked)), label
        previous = spec, data
    same = b"const x = 1;\n"
    python, typescript = language_for_path("a.py"), language_for_path("a.ts")
    assert python is not None and typescript is not None
    assert parse_payload(python, same) is parse_payload(python, same)
    assert _shape(parse_payload(typescript, same)) == _shape(parse(typescript, same))


def test_splitting_and_rendering_share_the_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """A payload at column 0 without imports is parsed once for both, and read the same."""
    python = language_for_path("a.py")
    assert python is not None
    payload = 'def f(x):\n    """Doc\n    more."""\n    return x\n'
    parses: list[bytes] = []
    real_parse = render.parse

    def counted(spec: LanguageSpec, data: bytes) -> object:
        parses.append(data)
        return real_parse(spec, data)

    monkeypatch.setattr(render, "parse", counted)
    monkeypatch.setattr(render, "_last_payload", None)
    assert split_imports(python, payload) == ([], payload)
    assert value_rows(python, payload_tree(python, payload)[0].root_node) == ({2}, {2: 1})
    assert parses == [payload.encode()]


# -- the indent steps ------------------------------------------------------------------------

_INDENTS = ["", " ", "  ", "    ", "\t", "\t ", " \t", "        ", "\t\t", "           "]
_BODIES = ["x", "", " ", "\r", "\x0c", "\u00a0y", "\u3000", "# c", "\t"]
_line = st.builds(lambda indent, body: indent + body, st.sampled_from(_INDENTS), st.sampled_from(_BODIES))


@settings(max_examples=1500, deadline=None)
@given(lines=st.lists(_line, max_size=60))
def test_indent_steps_are_the_plain_ones(lines: list[str]) -> None:
    assert indent_steps(lines) == _plain_indent_steps(lines)
    assert indent_steps(iter(lines)) == _plain_indent_steps(iter(lines))


def test_indent_steps_stop_at_the_sample() -> None:
    lines = ["def f():", "    x"] * (UNIT_SAMPLE_LINES // 2) + ["\tdeeper"] * 50 + ["  two"] * 3000
    assert indent_steps(lines) == _plain_indent_steps(lines) == Counter({"    ": UNIT_SAMPLE_LINES // 2})


@pytest.mark.parametrize("path", SOURCES, ids=_label)
def test_indent_steps_on_the_corpus(path: Path) -> None:
    lines = path.read_bytes().decode("utf-8", "replace").split("\n")
    assert indent_steps(lines) == _plain_indent_steps(lines)


# -- through the CLI ---------------------------------------------------------------------------

_KOTLIN = '''package shop

/**
 * Prices.
 */
class Prices {
  /**
   * A banner.
   */
  val banner = """
      Welcome
      to the shop
  """

  /**
   * The total.
   */
  fun total(a: Int, b: Int): Int {
    return a + b
  }

  /**
   * The tax.
   */
  fun tax(a: Int): Int {
    return a / 10
  }

  /**
   * Nothing.
   */
  fun none(): Int {
    return 0
  }
}
'''


def test_blocks_on_one_file_render_in_its_unit(tmp_path: Path) -> None:
    """Two versions of one file, each rendered in the unit its layout lines give (2 spaces).

    Counted with the inner lines of its KDoc comments (a 1-space step each) and of its
    multi-line string, the file's unit would be 1 space; the payloads come in 4 spaces.
    """
    (tmp_path / "Prices.kt").write_text(_KOTLIN, encoding="utf-8")
    reply = tmp_path / "reply.md"
    reply.write_text(
        "```kotlin\n// FILE: Prices.kt\n// TARGET_NODE: method Prices.total\n"
        "fun total(a: Int, b: Int): Int {\n    val sum = a + b\n    return sum\n}\n```\n\n"
        "```kotlin\n// FILE: Prices.kt\n// TARGET_NODE: method Prices.tax\n"
        "fun tax(a: Int): Int {\n    if (a > 0) {\n        return a / 10\n    }\n    return 0\n}\n```\n",
        encoding="utf-8",
    )
    result = kopipasta("apply", str(reply), "--root", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    expected = _KOTLIN.replace(
        "  fun total(a: Int, b: Int): Int {\n    return a + b\n  }",
        "  fun total(a: Int, b: Int): Int {\n    val sum = a + b\n    return sum\n  }",
    ).replace(
        "  fun tax(a: Int): Int {\n    return a / 10\n  }",
        "  fun tax(a: Int): Int {\n    if (a > 0) {\n      return a / 10\n    }\n    return 0\n  }",
    )
    assert (tmp_path / "Prices.kt").read_text(encoding="utf-8") == expected
