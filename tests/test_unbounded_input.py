"""Issue 18, item 4: every limit is checked before the work it bounds, and nothing on a
reply's path recurses without bound (a child that dies of a signal is our bug).
Timings are the bench's job (bench/bench.py, rows "alias bomb" and "600 hunks"); these
tests assert the answer a user sees.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import environment

DEEP = "a/" * 25_000 + "a"  # 50 KB: 25,000 levels of nesting in one expression


@pytest.mark.parametrize(
    ("name", "original", "payload", "fragment"),
    [
        ("m.py", "def f():\n    return 1\n", f"def f():\n    return {DEEP}/\n", "would break the syntax of m.py"),
        ("m.ts", "function f() {\n  return 1;\n}\n", f"function f() {{\n  return {DEEP}/;\n}}\n",
         "would break the syntax of m.ts"),
        ("m.ts", "function f() {\n  return 1;\n}\n", f"function f() {{\n  return {DEEP};\n}}\n", None),
    ],
)
def test_a_deeply_nested_payload_line_is_answered(tmp_path: Path, name: str, original: str, payload: str,
                                                  fragment: str | None) -> None:
    """It used to SIGSEGV (exit 139, no report): str() of the error tree recursed in C."""
    (tmp_path / name).write_text(original)
    comment = "#" if name.endswith(".py") else "//"
    reply = f"```\n{comment} FILE: {name}\n{comment} TARGET_NODE: function f\n{payload}```\n"
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply, env=environment())
    if fragment is None:
        assert result.returncode == 0, result.stdout + result.stderr
        assert DEEP in (tmp_path / name).read_text()
    else:
        assert result.returncode == 1, result.stdout + result.stderr
        assert fragment in result.stdout
        assert (tmp_path / name).read_text() == original


def test_the_s_expression_of_a_deep_tree_is_written_on_a_deep_enough_stack() -> None:
    from kopipasta.syntax import languages

    parser = languages.grammar_parser("python")
    tree = parser.parse(f"x = {DEEP}\n".encode())
    text = languages.s_expression(tree.root_node)
    assert text.count("(binary_operator") == 25_000


def test_a_tree_too_deep_for_the_largest_stack_is_refused_as_too_deep(monkeypatch: pytest.MonkeyPatch) -> None:
    from kopipasta.syntax import languages

    monkeypatch.setattr(languages, "_MAX_STACK", 20 << 20)
    parser = languages.grammar_parser("python")
    wide = parser.parse(("x = 1\n" * 10_000).encode())
    assert languages.s_expression(wide.root_node) == str(wide.root_node)  # wide, not deep: written
    deep = parser.parse(f"x = {DEEP}\n".encode())
    with pytest.raises(RecursionError):
        languages.s_expression(deep.root_node)


def test_alias_expansion_is_counted_without_building_it() -> None:
    import yaml

    from kopipasta.data.yaml_aliases import ALIAS_BUDGET, alias_excess

    def excess(text: str) -> int:
        return alias_excess(list(yaml.compose_all(text, Loader=yaml.SafeLoader)))

    assert excess("a: 1\nb: [1, 2]\n") == 0
    assert excess("base: &b {x: 1, y: 2}\none: *b\ntwo: *b\n") == 2 * 5  # each alias adds the mapping's 5 nodes
    laughs = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True))
    assert excess(laughs) > ALIAS_BUDGET
    assert excess("a: &a [*a]\n") > ALIAS_BUDGET  # a value that contains itself


def test_six_hundred_one_line_hunks_over_repeated_lines_apply(tmp_path: Path) -> None:
    """Each hunk lands once and the counts are right; how long it takes is the bench's row
    "600 hunks" (it took 26 s: SequenceMatcher over the changed region, and a scan of the
    whole file per hunk)."""
    (tmp_path / "f.py").write_text("".join(f"x = 1\ny{i} = 1\n" for i in range(600)))
    sections = "".join(f"<<<<<<< SEARCH\ny{i} = 1\n=======\ny{i} = 2\n>>>>>>> REPLACE\n" for i in range(600))
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=f"```\n# FILE: f.py\n{sections}```\n", env=environment())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "+600 -600" in result.stdout
    assert (tmp_path / "f.py").read_text() == "".join(f"x = 1\ny{i} = 2\n" for i in range(600))


def test_a_fifo_in_place_of_the_apply_log_blocks_nothing(tmp_path: Path) -> None:
    """It used to block every apply and undo forever, after their work (the log's open)."""
    import os

    (tmp_path / "m.py").write_text("def f():\n    return 1\n")
    (tmp_path / ".kopipasta").mkdir()
    os.mkfifo(tmp_path / ".kopipasta" / "log.jsonl")
    reply = "```python\n# FILE: m.py\n# TARGET_NODE: function f\ndef f():\n    return 2\n```\n"
    applied = kopipasta("apply", "-", cwd=tmp_path, stdin=reply, env=environment(), timeout=30)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert applied.stderr == "⚠ .kopipasta/log.jsonl is not a regular file: this apply was not logged\n"
    assert (tmp_path / "m.py").read_text() == "def f():\n    return 2\n"
    undone = kopipasta("undo", cwd=tmp_path, env=environment(), timeout=30)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert undone.stderr == "⚠ .kopipasta/log.jsonl is not a regular file: this undo was not logged\n"
    assert (tmp_path / "m.py").read_text() == "def f():\n    return 1\n"
    stats = kopipasta("stats", cwd=tmp_path, env=environment(), timeout=30)
    assert stats.returncode == 0
    assert stats.stdout.startswith("No apply log yet")
