"""Adding and removing definitions (PROTOCOL.md §4a): separators, idempotence, edge cases."""

from __future__ import annotations

import pytest

from kopipasta.code.edit.insert import delete, insert
from kopipasta.code.find.document import in_memory
from kopipasta.errors import PatchError
from kopipasta.model import Operation
from kopipasta.syntax.languages import PYTHON, TYPESCRIPT, LanguageSpec

INSERT_AFTER, INSERT_BEFORE, APPEND_TO = (
    Operation.INSERT_AFTER,
    Operation.INSERT_BEFORE,
    Operation.APPEND_TO,
)


def run(
    spec: LanguageSpec,
    operation: Operation,
    target: str,
    payload: str,
    source: str,
    newline: str = "\n",
) -> str:
    data = source.encode("utf-8")
    result = insert(in_memory(spec, data, newline), operation, target, payload, file="f")
    return result.data.decode("utf-8")


def remove(spec: LanguageSpec, target: str, source: str) -> str:
    data = source.encode("utf-8")
    return delete(in_memory(spec, data), target, file="f").data.decode("utf-8")


def twice(spec: LanguageSpec, operation: Operation, target: str, payload: str, source: str) -> str:
    """The result, after checking that applying the same block again changes nothing."""
    once = run(spec, operation, target, payload, source)
    assert run(spec, operation, target, payload, once) == once
    return once


# --- separators ----------------------------------------------------------------------

MODULE = "import os\n\n\ndef a():\n    pass\n\n\ndef b():\n    pass\n"


def test_python_module_level_learns_two_blank_lines() -> None:
    out = twice(PYTHON, INSERT_AFTER, "a", "def new():\n    pass", MODULE)
    assert (
        out
        == "import os\n\n\ndef a():\n    pass\n\n\ndef new():\n    pass\n\n\ndef b():\n    pass\n"
    )


def test_separator_follows_the_file_not_pep8() -> None:
    source = "def a():\n    pass\n\ndef b():\n    pass\n"
    out = twice(PYTHON, INSERT_AFTER, "a", "def new():\n    pass", source)
    assert out == "def a():\n    pass\n\ndef new():\n    pass\n\ndef b():\n    pass\n"


def test_last_definition_learns_from_the_previous_one() -> None:
    source = "def a():\n    pass\n\ndef b():\n    pass\n"
    out = twice(PYTHON, INSERT_AFTER, "b", "def new():\n    pass", source)
    assert out.endswith("def b():\n    pass\n\ndef new():\n    pass\n")


def test_lone_definition_gets_the_default() -> None:
    assert twice(PYTHON, INSERT_AFTER, "a", "def b():\n    pass", "def a():\n    pass\n") == (
        "def a():\n    pass\n\n\ndef b():\n    pass\n"
    )
    ts = twice(TYPESCRIPT, INSERT_AFTER, "a", "function b() {}", "function a() {}\n")
    assert ts == "function a() {}\n\nfunction b() {}\n"


def test_one_liners_among_one_liners_and_functions_among_functions() -> None:
    source = "A = 1\nB = 2\n\n\ndef f():\n    pass\n"
    assert twice(PYTHON, INSERT_AFTER, "A", "C = 3", source).startswith("A = 1\nC = 3\nB = 2\n")
    # A function after a constant whose neighbours are constants: the default, not their 0.
    out = twice(PYTHON, INSERT_AFTER, "A", "def g():\n    pass", source)
    assert out.startswith("A = 1\n\n\ndef g():\n    pass\nB = 2\n")


def test_insert_before_keeps_the_gap_above() -> None:
    out = twice(PYTHON, INSERT_BEFORE, "b", "def new():\n    pass", MODULE)
    assert (
        out
        == "import os\n\n\ndef a():\n    pass\n\n\ndef new():\n    pass\n\n\ndef b():\n    pass\n"
    )


def test_insert_before_goes_above_comment_decorators_and_overloads() -> None:
    source = (
        "from typing import overload\n\n\n"
        "# Parses.\n@overload\ndef p(x: int) -> int: ...\n@overload\ndef p(x: str) -> str: ...\n"
        "@cache\ndef p(x):\n    return x\n"
    )
    out = twice(PYTHON, INSERT_BEFORE, "p", "def q():\n    pass", source)
    assert "\n\n\ndef q():\n    pass\n\n\n# Parses.\n@overload\n" in out


def test_method_is_indented_in_the_file_unit() -> None:
    source = "class A:\n    def f(self):\n        pass\n"
    out = twice(PYTHON, INSERT_AFTER, "A.f", "def g(self):\n  if self:\n    return 1", source)
    assert (
        out
        == "class A:\n    def f(self):\n        pass\n\n    def g(self):\n        if self:\n            return 1\n"
    )


def test_crlf_and_missing_final_newline_are_kept() -> None:
    source = "def a():\r\n    pass"
    data = source.encode()
    result = insert(in_memory(PYTHON, data, "\r\n"), INSERT_AFTER, "a", "def b():\n    pass", file="f")
    assert result.data == b"def a():\r\n    pass\r\n\r\n\r\ndef b():\r\n    pass"


def test_string_literals_are_not_reindented() -> None:
    payload = 'def g(self):\n  return """a\n  b"""'
    out = run(PYTHON, INSERT_AFTER, "A.f", payload, "class A:\n    def f(self):\n        pass\n")
    assert out.endswith('    def g(self):\n        return """a\n  b"""\n')


# --- APPEND_TO -----------------------------------------------------------------------


def test_append_to_class_with_fields_then_methods() -> None:
    source = "class A:\n    x: int\n    y: int\n\n    def f(self):\n        pass\n\n\nz = 1\n"
    out = twice(PYTHON, APPEND_TO, "class A", "def g(self):\n    pass", source)
    assert (
        out
        == "class A:\n    x: int\n    y: int\n\n    def f(self):\n        pass\n\n    def g(self):\n        pass\n\n\nz = 1\n"
    )


def test_append_to_python_class_replaces_a_lone_pass() -> None:
    source = 'class A:\n    """Doc."""\n\n    pass\n'
    out = twice(PYTHON, APPEND_TO, "A", "def f(self):\n    return 1", source)
    assert out == 'class A:\n    """Doc."""\n\n    def f(self):\n        return 1\n'


def test_append_replacing_pass_keeps_the_comment_above_it() -> None:
    source = "class A:\n    # TODO: methods\n    pass\n"
    out = twice(PYTHON, APPEND_TO, "A", "def f(self):\n    return 1", source)
    assert out == "class A:\n    # TODO: methods\n    def f(self):\n        return 1\n"


def test_append_to_empty_ts_class_and_enum_commas() -> None:
    assert twice(TYPESCRIPT, APPEND_TO, "A", "x = 1;", "class A {}\n") == "class A {\n  x = 1;\n}\n"
    source = "enum E {\n  A = 1,\n  B = 2\n}\n"
    assert (
        twice(TYPESCRIPT, APPEND_TO, "E", "C = 3,", source)
        == "enum E {\n  A = 1,\n  B = 2,\n  C = 3\n}\n"
    )
    trailing = "enum E {\n  A = 1,\n}\n"
    assert (
        twice(TYPESCRIPT, APPEND_TO, "E", "B = 2", trailing) == "enum E {\n  A = 1,\n  B = 2,\n}\n"
    )


def test_append_to_file_keeps_the_final_newline_habit() -> None:
    assert twice(PYTHON, APPEND_TO, "file", "def b():\n    pass", "def a():\n    pass") == (
        "def a():\n    pass\n\n\ndef b():\n    pass"
    )
    assert twice(
        TYPESCRIPT, APPEND_TO, "file", "export const b = 2;", "export const a = 1;\n\n\n"
    ) == ("export const a = 1;\n\nexport const b = 2;\n\n\n")


def test_append_to_a_function_or_a_one_line_class_fails() -> None:
    with pytest.raises(PatchError, match="has no body to append members to"):
        run(PYTHON, APPEND_TO, "function a", "x = 1", "def a():\n    pass\n")
    with pytest.raises(PatchError, match="written on one line"):
        run(PYTHON, APPEND_TO, "A", "x = 1", "class A: pass\n")


def test_payload_wrapped_in_its_class_fails() -> None:
    source = "class A:\n    def f(self):\n        pass\n"
    with pytest.raises(PatchError, match="nest a second A"):
        run(PYTHON, APPEND_TO, "A", "class A:\n    def g(self):\n        pass", source)


def test_placeholder_in_the_payload_fails() -> None:
    with pytest.raises(PatchError, match="placeholder"):
        run(
            PYTHON,
            APPEND_TO,
            "A",
            "# ... existing methods ...\n\ndef g(self):\n    pass",
            "class A:\n    x = 1\n",
        )


def test_imports_of_the_payload_are_merged_once() -> None:
    payload = "import re\n\ndef b():\n    return re"
    out = twice(PYTHON, INSERT_AFTER, "a", payload, "import os\n\n\ndef a():\n    pass\n")
    assert out == "import os\nimport re\n\n\ndef a():\n    pass\n\n\ndef b():\n    return re\n"


# --- DELETE_NODE ---------------------------------------------------------------------


def test_delete_leaves_the_neighbours_gap() -> None:
    assert remove(PYTHON, "a", MODULE) == "import os\n\n\ndef b():\n    pass\n"
    assert remove(PYTHON, "b", MODULE) == "import os\n\n\ndef a():\n    pass\n"


def test_delete_first_member_keeps_the_body_opening() -> None:
    source = "class A:\n    def f(self):\n        pass\n\n    def g(self):\n        pass\n"
    assert remove(PYTHON, "A.f", source) == "class A:\n    def g(self):\n        pass\n"


def test_delete_takes_comment_and_decorators_not_a_detached_comment() -> None:
    source = "# Module note.\n\n# About f.\n@dec\ndef f():\n    pass\n\n\ndef g():\n    pass\n"
    # The gap that separated f from g is what stays.
    assert remove(PYTHON, "f", source) == "# Module note.\n\n\ndef g():\n    pass\n"


def test_delete_the_last_line_keeps_no_final_newline() -> None:
    assert remove(PYTHON, "b", "def a():\n    pass\n\n\ndef b():\n    pass") == "def a():\n    pass"


def test_delete_only_member_of_a_python_class_fails() -> None:
    with pytest.raises(PatchError, match="would leave class A empty"):
        remove(PYTHON, "A.f", "class A:\n    def f(self):\n        pass\n")
    # A docstring keeps the body valid.
    assert remove(
        PYTHON, "A.f", 'class A:\n    """Doc."""\n\n    def f(self):\n        pass\n'
    ) == ('class A:\n    """Doc."""\n')


def test_delete_ts_member_with_decorator_and_jsdoc() -> None:
    source = "class A {\n  x = 1;\n\n  /** Doc. */\n  @Get()\n  find() {}\n}\n"
    assert remove(TYPESCRIPT, "A.find", source) == "class A {\n  x = 1;\n}\n"


def test_target_sharing_its_line_fails() -> None:
    with pytest.raises(PatchError, match="shares its line"):
        remove(TYPESCRIPT, "b", "function a() {} function b() {}\n")
