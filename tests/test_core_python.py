"""Python core behaviours that the fixtures exercise but do not pin on their own."""

from __future__ import annotations

from pathlib import Path

from kopipasta.code.layout.render import render_lines, string_lines
from kopipasta.code.read.wholefile import find_placeholder
from kopipasta.engine import apply_reply
from kopipasta.model import Status
from kopipasta.syntax.languages import PYTHON


def reply(file: str, target: str, payload: str) -> str:
    return f"```python\n# FILE: {file}\n# TARGET_NODE: {target}\n{payload}```\n"


def apply_one(tmp_path: Path, source: str, target: str, payload: str) -> tuple[Status, str, str]:
    (tmp_path / "m.py").write_text(source, encoding="utf-8")
    report = apply_reply(reply("m.py", target, payload), tmp_path)
    (outcome,) = report.outcomes
    return outcome.status, outcome.message, (tmp_path / "m.py").read_text(encoding="utf-8")


# --- re-indentation -------------------------------------------------------------


def test_concatenated_string_parts_are_layout_not_values() -> None:
    payload = 'def f():\n  sql = ("SELECT 1 "\n         "FROM t")\n  return sql\n'
    frozen, _ = string_lines(PYTHON, payload)
    assert frozen == set()  # the line between two parts is not inside a string
    lines = render_lines(PYTHON, payload, base="    ", file_unit=None)
    assert lines[2].startswith("    " + " " * 9 + '"FROM t"')


def test_triple_quoted_string_lines_stay_put() -> None:
    payload = 'def f():\n    q = """\nSELECT 1\n  FROM t\n"""\n    return q\n'
    lines = render_lines(PYTHON, payload, base="    ", file_unit=None)
    assert lines[2:5] == ["SELECT 1", "  FROM t", '"""']


# --- whole-file placeholders ------------------------------------------------------


def test_stub_body_after_docstring_is_not_a_placeholder() -> None:
    payload = (
        "class Store(Protocol):\n"
        "    def load(self, key: str) -> bytes:\n"
        '        """The stored bytes.\n\n        KeyError when missing.\n        """\n'
        "        ...\n"
    )
    assert find_placeholder(payload, python=True) is None


def test_ellipsis_among_statements_is_a_placeholder() -> None:
    payload = "class A:\n    def a(self):\n        return 1\n\n    ...\n\n    def c(self):\n        return 3\n"
    assert find_placeholder(payload, python=True) == (5, "...")


def test_docstring_then_ellipsis_in_other_languages_is_a_placeholder() -> None:
    assert find_placeholder('x = 1\n"""doc"""\n...\n', python=False) == (3, "...")


# --- check before write -------------------------------------------------------------


def test_syntax_error_names_the_interpreters_line(tmp_path: Path) -> None:
    source = '"""Doc."""\n\n\ndef f(a):\n    return a\n\n\ndef g():\n    return 2\n'
    status, message, after = apply_one(tmp_path, source, "function f", "def f(a):\n    x = len(a\n    return x\n")
    assert status is Status.FAILED
    assert "would break the syntax of m.py at line 5, column 12: '(' was never closed" in message
    assert after == source


# --- payloads that would delete code ------------------------------------------------


CLASS = "class Repo:\n    def __init__(self):\n        self.items = {}\n\n    def get(self, key):\n        return self.items[key]\n"


def test_class_payload_with_placeholder_merges_and_keeps_the_rest(tmp_path: Path) -> None:
    # PROTOCOL.md §6.3: the elided class is merged member by member; `get` stays as it was.
    payload = "class Repo:\n    def __init__(self):\n        self.items = {}\n        self.log = []\n\n    # ... rest of the class ...\n"
    status, _, after = apply_one(tmp_path, CLASS, "class Repo", payload)
    assert status is Status.APPLIED
    assert after == CLASS.replace("self.items = {}\n", "self.items = {}\n        self.log = []\n")


def test_placeholder_like_comment_the_definition_already_has_is_kept(tmp_path: Path) -> None:
    source = "def f():\n    # ... more checks go here ...\n    return 1\n"
    payload = "def f():\n    # ... more checks go here ...\n    return 2\n"
    status, _, after = apply_one(tmp_path, source, "function f", payload)
    assert status is Status.APPLIED
    assert after == payload


def test_method_sent_inside_its_class_replaces_only_the_method(tmp_path: Path) -> None:
    # The class around the method restates more than the target: read by definition (§4 + §6).
    payload = "class Repo:\n    def get(self, key):\n        return self.items.get(key)\n"
    status, _, after = apply_one(tmp_path, CLASS, "method Repo.get", payload)
    assert status is Status.APPLIED
    assert after == CLASS.replace("return self.items[key]", "return self.items.get(key)")


def test_method_renamed_is_applied_with_a_note(tmp_path: Path) -> None:
    payload = "def fetch(self, key):\n    return self.items.get(key)\n"
    status, message, after = apply_one(tmp_path, CLASS, "method Repo.get", payload)
    assert status is Status.APPLIED
    assert message == "renamed 'Repo.get' to 'Repo.fetch'"
    assert "    def fetch(self, key):\n        return self.items.get(key)\n" in after
