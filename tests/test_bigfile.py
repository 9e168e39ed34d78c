"""Big files without copies (issue 9): each shortcut gives exactly what the plain way gave.

The shortcuts: definitions read the file's bytes the caller holds instead of a
copy out of the tree; UTF-8 is checked a stretch at a time; line counts skip
equal strides; the indent unit's sample is decoded once; the commit compares
the file on disk a read at a time. Each is checked here against the plain
computation it replaces, and through the real CLI where a user sees it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from cli_process import kopipasta
from hypothesis import given, settings
from hypothesis import strategies as st
from test_definitions_named import SOURCES, _code, _label

from kopipasta.code.find import document
from kopipasta.code.find.definitions import list_definitions
from kopipasta.code.find.named import definitions_ending_in, definitions_named
from kopipasta.code.layout.indent import UNIT_SAMPLE_LINES, detect_unit
from kopipasta.code.layout.render import value_rows
from kopipasta.code.read import staleness
from kopipasta.disk import beneath, workspace
from kopipasta.startup import shared_ends
from kopipasta.syntax.languages import parse

# Pieces of text that make the edge cases likely: newlines, multi-byte characters,
# a sequence cut short, bytes that are never UTF-8.
_PIECES = [b"\n", b"a", b"  ", b"\t", "é".encode(), "€".encode(), "😀".encode(), b"\xe2\x82", b"\xff", b"\x80", b"\r\n"]
_bytes = st.lists(st.sampled_from(_PIECES), max_size=60).map(b"".join)


@settings(max_examples=400, deadline=None)
@given(data=_bytes, stretch=st.integers(1, 12))
def test_first_non_utf8_is_where_decoding_fails(data: bytes, stretch: int) -> None:
    old = workspace._UTF8_STRETCH
    workspace._UTF8_STRETCH = stretch
    try:
        found = workspace.first_non_utf8(data)
    finally:
        workspace._UTF8_STRETCH = old
    try:
        data.decode("utf-8")
        expected = None
    except UnicodeDecodeError as error:
        expected = error.start
    assert found == expected


def test_a_big_file_that_is_not_utf8_names_the_byte(tmp_path: Path) -> None:
    line = "# naïve café ☕\n".encode()
    good = b"def f():\n    return 1\n" + line * 5000  # past several stretches, none of them ASCII
    bad = good + b"x = '\xff'\n"
    (tmp_path / "big.py").write_bytes(bad)
    reply = tmp_path / "reply.md"
    reply.write_text("```python\n# FILE: big.py\n# TARGET_NODE: function f\ndef f():\n    return 2\n```\n", encoding="utf-8")
    result = kopipasta("apply", str(reply), "--root", str(tmp_path), cwd=tmp_path)
    assert result.returncode != 0
    assert f"Cannot patch big.py: it is not UTF-8 text (byte {len(good) + 5})" in result.stdout + result.stderr
    assert (tmp_path / "big.py").read_bytes() == bad


_lines = st.lists(st.sampled_from([b"a\n", b"b\n", b"def f():\n", b"    pass\n", b"\n", b"x = 1\n"]), max_size=30).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(base=_lines, inserted=_lines, cut=st.integers(0, 400), removed=st.integers(0, 40), stride=st.integers(1, 9))
def test_common_prefix_and_suffix_by_strides(base: bytes, inserted: bytes, cut: int, removed: int, stride: int) -> None:
    cut = min(cut, len(base))
    after = base[:cut] + inserted + base[cut + removed :]
    old = shared_ends._STRIDE
    shared_ends._STRIDE = stride
    try:
        prefix, suffix = shared_ends.common_prefix(base, after), shared_ends.common_suffix(base, after)
    finally:
        shared_ends._STRIDE = old
    assert prefix == len(os.path.commonprefix([base, after]))
    assert suffix == len(os.path.commonprefix([base[::-1], after[::-1]]))


def _plain_file_unit(data: bytes, spec, tree):  # type: ignore[no-untyped-def]
    """The indent unit as it was computed before: each sampled line split off and decoded alone."""
    lines = data.split(b"\n", UNIT_SAMPLE_LINES)[:UNIT_SAMPLE_LINES]
    text = [line.decode("utf-8", "replace") for line in lines]
    if spec is not None and tree is not None:
        frozen, _ = value_rows(spec, tree.root_node, rows=UNIT_SAMPLE_LINES)
        text = [line for row, line in enumerate(text) if row not in frozen]
    return detect_unit(text)


@pytest.mark.parametrize("path", SOURCES[::7] + SOURCES[-3:], ids=_label)
def test_the_indent_unit_is_the_plain_one(path: Path) -> None:
    code = _code(path)
    if code is None:
        pytest.skip("a component without a <script>")
    spec, data = code
    tree = parse(spec, data)
    assert document._file_unit(data, spec, tree) == _plain_file_unit(data, spec, tree)
    assert document._file_unit(data, None, None) == _plain_file_unit(data, None, None)


@settings(max_examples=200, deadline=None)
@given(data=_bytes, extra_lines=st.integers(0, 3))
def test_the_unit_sample_is_the_first_lines(data: bytes, extra_lines: int) -> None:
    data = b"\n" * (UNIT_SAMPLE_LINES - 2) + data + b"    y\n" * extra_lines
    assert document._file_unit(data, None, None) == _plain_file_unit(data, None, None)
    assert document._sample(data).split(b"\n") == data.split(b"\n", UNIT_SAMPLE_LINES)[:UNIT_SAMPLE_LINES]


@pytest.mark.parametrize("path", SOURCES[::5] + SOURCES[-3:], ids=_label)
def test_definitions_from_the_callers_bytes_equal_those_from_the_tree(path: Path) -> None:
    """Also for a file starting with blank lines, where the root node starts later than byte 0."""
    code = _code(path)
    if code is None:
        pytest.skip("a component without a <script>")
    spec, data = code
    for source in (data, b"\n\n" + data):
        tree = parse(spec, source)
        listing = list_definitions(spec, tree)
        assert list_definitions(spec, tree, source=source) == listing
        for name in sorted({d.name for d in listing})[:40]:
            assert definitions_named(spec, tree, name, source=source) == [d for d in listing if d.name == name]
            assert definitions_ending_in(spec, tree, name, source=source) == definitions_ending_in(spec, tree, name)


@pytest.mark.parametrize(
    ("on_disk", "expected"),
    [
        (b"", b""),
        (b"", b"x"),
        (b"x", b""),
        (b"a" * (1 << 20), b"a" * (1 << 20)),
        (b"a" * (1 << 20) + b"b", b"a" * (1 << 20) + b"b"),
        (b"a" * (1 << 20) + b"b", b"a" * (1 << 20) + b"c"),
        (b"a" * (1 << 20) + b"b", b"a" * (1 << 20)),
        (b"a" * (1 << 20), b"a" * (1 << 20) + b"b"),
        (b"a" * (3 << 20), b"a" * ((3 << 20) - 1) + b"b"),
    ],
)
def test_holds_at_is_reading_and_comparing(tmp_path: Path, on_disk: bytes, expected: bytes) -> None:
    (tmp_path / "f").write_bytes(on_disk)
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        same, info = beneath.holds_at(fd, "f", "f", expected)
        data, read_info = beneath.read_at(fd, "f", "f")
    finally:
        os.close(fd)
    assert same == (data == expected)
    assert info.st_ino == read_info.st_ino


def test_a_python_file_starting_with_blank_lines_is_patched(tmp_path: Path) -> None:
    before = b"\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n"
    (tmp_path / "m.py").write_bytes(before)
    reply = tmp_path / "reply.md"
    reply.write_text("```python\n# FILE: m.py\n# TARGET_NODE: function g\ndef g():\n    return 3\n```\n", encoding="utf-8")
    result = kopipasta("apply", str(reply), "--root", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "m.py").read_bytes() == before.replace(b"return 2", b"return 3")


_RECORDED = {
    "auth.py": "import hmac\n\n\ndef make_token(user):\n    return user\n\n\ndef verify(token):\n    return bool(token)\n",
    "crlf.py": "def a():\r\n    return 1\r\n\r\n\r\ndef b():\r\n    return 2\r\n",
    "mixed.py": "def a():\r\n    return 1\n\n\ndef b():\n    return 2\n",
    "broken.py": "def a():\n    return 1\n\n\ndef b(:\n    return 2\n\n\ndef c():\n    return 3\n",
    "web/app.ts": "export function a(): number {\n  return 1;\n}\n\nexport function b(): number {\n  return 2;\n}\n",
}

_RECORDED_REPLY = "".join(
    f"```{language}\n{comment} FILE: {path}\n{comment} TARGET_NODE: function {name}\n{body}```\n\n"
    for language, comment, path, name, body in [
        ("python", "#", "auth.py", "verify", "def verify(token):\n    return bool(token) and len(token) > 3\n"),
        ("python", "#", "auth.py", "make_token", "def make_token(user):\n    return user + ':v2'\n"),
        ("python", "#", "crlf.py", "b", "def b():\n    return 20\n"),
        ("python", "#", "mixed.py", "b", "def b():\n    return 20\n"),
        ("python", "#", "broken.py", "c", "def c():\n    return 30\n"),
        ("typescript", "//", "web/app.ts", "b", "export function b(): number {\n  return 20;\n}\n"),
    ]
)


def test_the_prompt_record_after_an_apply_is_the_one_fresh_listings_make(tmp_path: Path) -> None:
    """The record's update reuses the apply's documents; from scratch it must come out the same."""
    applied, fresh = tmp_path / "applied", tmp_path / "fresh"
    for path, text in _RECORDED.items():
        (applied / path).parent.mkdir(parents=True, exist_ok=True)
        (applied / path).write_bytes(text.encode())
    shown = kopipasta("prompt", *_RECORDED, "--stdout", "-t", "change them", "--root", str(applied), cwd=applied)
    assert shown.returncode == 0, shown.stderr
    shutil.copytree(applied, fresh)
    (tmp_path / "reply.md").write_text(_RECORDED_REPLY, encoding="utf-8")
    result = kopipasta("apply", str(tmp_path / "reply.md"), "--root", str(applied), cwd=applied)
    assert result.returncode == 0, result.stdout + result.stderr
    written = [(path, (fresh / path).read_bytes(), (applied / path).read_bytes()) for path in _RECORDED]
    assert all(before != after for _, before, after in written)
    staleness.after_write(fresh, written)  # no documents: every version parsed and listed afresh
    record = ".kopipasta/prompted.json"
    assert (applied / record).read_bytes() == (fresh / record).read_bytes()


def test_the_record_update_lists_only_what_the_apply_did_not_analyse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kopipasta.code.read import inventory
    from kopipasta.engine import apply_reply

    for path, text in _RECORDED.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(text.encode())
    shown = kopipasta("prompt", *_RECORDED, "--stdout", "-t", "change them", "--root", str(tmp_path), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    listed: list[str] = []
    real = inventory.definitions_of
    monkeypatch.setattr(inventory, "definitions_of", lambda source: listed.append(source.path) or real(source))
    report = apply_reply(_RECORDED_REPLY, tmp_path)
    assert report.written
    # broken.py's trees hold an ERROR node, and mixed.py is written with its lines' own endings:
    # those versions are listed afresh; every other version comes from the apply's documents.
    assert sorted(listed) == ["broken.py", "broken.py", "mixed.py"]
