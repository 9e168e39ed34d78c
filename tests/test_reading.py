"""How a file block for an existing file is read (docs/decisions/code.md, "File blocks").

Whole file, fragment or elided for code; whole or refused for files kopipasta
cannot merge. Each case is a payload a model really sends.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kopipasta.code.find.document import in_memory
from kopipasta.code.find.samename import same_name
from kopipasta.code.read.reading import ELIDED, FRAGMENT, WHOLE, opaque_whole, read_code_block
from kopipasta.syntax.languages import PYTHON, TYPESCRIPT

TOKENS = '''"""Tokens."""

import hmac


def parse_header(value):
    return value.partition(" ")[2]


def sign(payload):
    return hmac.new(b"k", payload.encode(), "sha256").hexdigest()


def verify(payload, signature):
    return hmac.compare_digest(sign(payload), signature)


class Store:
    def get(self, key):
        return key

    def put(self, key, value):
        pass
'''

FORMAT_TS = """export function a(x: number): number {
  return x;
}

export function b(x: number): number {
  return x * 2;
}
"""


def _read(spec, source: str, payload: str) -> str:  # type: ignore[no-untyped-def]
    data = source.encode()
    return read_code_block(in_memory(spec, data), payload).kind


def _without(source: str, start: str, end: str) -> str:
    before, rest = source.split(start, 1)
    return before + end + rest.split(end, 1)[1]


def test_one_function_is_a_fragment() -> None:
    assert _read(PYTHON, TOKENS, "def sign(payload):\n    return 'x'\n") == FRAGMENT


def test_one_function_with_its_imports_is_a_fragment() -> None:
    assert _read(PYTHON, TOKENS, "import hmac\n\n\ndef sign(payload):\n    return 'x'\n") == FRAGMENT


def test_the_file_without_its_docstring_and_with_two_functions_is_a_fragment() -> None:
    payload = TOKENS.split('"""Tokens."""\n', 1)[1]
    payload = _without(payload, "def sign", "def verify")
    payload = _without(payload, "def verify", "class Store")
    assert _read(PYTHON, TOKENS, payload) == FRAGMENT


def test_whole_file_dropping_one_definition_is_whole() -> None:
    payload = _without(TOKENS, "def verify", "class Store")
    data = TOKENS.encode()
    read = read_code_block(in_memory(PYTHON, data), payload)
    assert read.kind == WHOLE
    assert read.dropped == ("verify",)


def test_whole_file_with_a_class_cut_to_one_method_is_a_fragment() -> None:
    payload = TOKENS.replace("    def put(self, key, value):\n        pass\n", "")
    assert _read(PYTHON, TOKENS, payload) == FRAGMENT


def test_placeholder_makes_it_elided() -> None:
    assert _read(PYTHON, TOKENS, TOKENS.replace("def verify", "# ... existing code ...\n\ndef verify")) == ELIDED


def test_definitions_only_file_needs_every_definition_for_whole() -> None:
    assert _read(TYPESCRIPT, FORMAT_TS, FORMAT_TS.replace("x * 2", "x * 3")) == WHOLE
    only_a = FORMAT_TS.split("export function b", 1)[0]
    assert _read(TYPESCRIPT, FORMAT_TS, only_a) == FRAGMENT


@pytest.mark.parametrize(
    ("path", "old", "payload", "whole"),
    [
        ("a.json", '{"a": 1, "b": 2, "c": 3}', '{"b": 5}', False),
        ("a.json", '{"a": 1, "b": 2, "c": 3}', '{"a": 1, "b": 5, "c": 3}', True),
        ("a.json", '{"a": 1, "b": 2}', '"b": 5', False),
        ("package.json", '{"name": "x", "deps": {"a": "1", "b": "1", "c": "1"}}', '{"name": "x", "deps": {"a": "2"}}', False),
        # A key left out that the reply never says it removes is kept: the block is a fragment.
        ("package.json", '{"name": "x", "deps": {"a": "1", "b": "1", "c": "1"}}', '{"name": "x", "deps": {"a": "1", "b": "1"}}', False),
        ("c.yaml", "a:\n  x: 1\nb: 2\nc: 3\n", "a:\n  x: 2\n", False),
        ("s.css", "a { color: red; }\nb { color: blue; }\n", "b { color: green; }\n", False),
        ("s.css", "a { color: red; }\nb { color: blue; }\n", "a { color: red; }\nb { color: green; }\n", True),
        ("R.md", "# T\n\n## A\n\ntext\n\n## B\n\nmore\n", "## B\n\nnew\n", False),
        ("R.md", "# T\n\n## A\n\ntext\n\n## B\n\nmore\n", "# T\n\n## A\n\ntext\n\n## B\n\nnew\n", True),
        ("main.go", "package main\n\nfunc a() {}\n\nfunc b() {}\n", "func b() { x() }\n", False),
        ("main.go", "package main\n\nfunc a() {}\n\nfunc b() {}\n", "package main\n\nfunc a() {}\n\nfunc b() { x() }\n", True),
        ("requirements.txt", "b\nc\nd\ne\nf\n", "a\nb\nc\nd\ne\nf\n", True),
    ],
)
def test_files_without_definitions(path: str, old: str, payload: str, whole: bool) -> None:
    assert opaque_whole(path, old, payload).whole is whole


def test_data_key_left_out_is_removed_only_when_the_prose_says_so() -> None:
    old, payload = '{"name": "x", "deps": {"a": "1", "c": "1"}}', '{"name": "x", "deps": {"a": "1"}}'
    assert opaque_whole("package.json", old, payload, "I removed `c`, which nothing uses.").whole
    verdict = opaque_whole("package.json", old, payload, "I bumped `a`.")
    assert (verdict.whole, verdict.detail) == (False, "it leaves out 'deps.c'")


def test_same_name_finds_files_whose_path_ends_with_the_one_written(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "tokens.py").write_text("x = 1\n")
    (tmp_path / "node_modules" / "app").mkdir(parents=True)
    (tmp_path / "node_modules" / "app" / "tokens.py").write_text("x = 1\n")
    (tmp_path / "lib" / "app").mkdir(parents=True)
    (tmp_path / "lib" / "app" / "tokens.py").write_text("x = 1\n")
    assert same_name(tmp_path, "tokens.py") == ["app/tokens.py", "lib/app/tokens.py"]
    assert same_name(tmp_path, "src/app/tokens.py") == ["app/tokens.py", "lib/app/tokens.py"]
    assert same_name(tmp_path, "lib/tokens.py") == ["app/tokens.py", "lib/app/tokens.py"]
    assert same_name(tmp_path, "other.py") == []
