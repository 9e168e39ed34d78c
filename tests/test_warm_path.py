"""The MCP server's warm path (issue 20): after the first call, an edit imports nothing, compiles no
query and does not parse its file again, while a file changed on disk is always read afresh.

These run the server's Workbench in-process, where the counts can be seen; test_mcp_server.py
drives the same code over stdio.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from kopipasta.agents.workbench import Workbench
from kopipasta.code.find import document as document_module
from kopipasta.code.find.document import DocumentCache
from kopipasta.disk.workspace import load
from kopipasta.syntax import languages

SOURCE = "class Cart:\n    def total(self):\n        return 1\n\n    def count(self):\n        return 2\n"


def compiled() -> int:
    """Grammars, parsers and queries made so far (every functools.cache of syntax.languages)."""
    caches = [value.cache_info() for value in vars(languages).values() if hasattr(value, "cache_info")]
    return sum(info.misses for info in caches)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every full parse a Document makes of a file's bytes."""
    seen: list[bytes] = []
    real = document_module.parse

    def counting(spec: languages.LanguageSpec, data: bytes):  # type: ignore[no-untyped-def]
        seen.append(data)
        return real(spec, data)

    monkeypatch.setattr(document_module, "parse", counting)
    return seen


def test_after_the_first_edit_nothing_is_imported_compiled_or_parsed_again(tmp_path: Path, parses: list[bytes]) -> None:
    (tmp_path / "cart.py").write_text(SOURCE)
    bench = Workbench(tmp_path)
    first = bench.replace_definition("cart.py", "Cart.total", "def total(self):\n    return 10\n")
    assert first.ok, first.text
    modules, made, parsed = set(sys.modules), compiled(), len(parses)

    for value in range(11, 14):
        result = bench.replace_definition("cart.py", "Cart.count", f"def count(self):\n    return {value}\n")
        assert result.ok, result.text
    assert (tmp_path / "cart.py").read_text() == SOURCE.replace("return 1\n", "return 10\n").replace("return 2", "return 13")
    assert set(sys.modules) - modules == set()
    assert compiled() == made
    assert len(parses) == parsed  # each edit's new tree is the checked reparse, kept with its Document


def test_a_file_changed_on_disk_is_parsed_again(tmp_path: Path, parses: list[bytes]) -> None:
    cart = tmp_path / "cart.py"
    cart.write_text(SOURCE)
    bench = Workbench(tmp_path)
    assert bench.read_definition("cart.py", "Cart.count").ok
    cart.write_text(SOURCE.replace("return 2", "return 9"))  # the same size
    parsed = len(parses)
    result = bench.replace_definition("cart.py", "Cart.total", "def total(self):\n    return 5\n")
    assert result.ok, result.text
    assert parses[parsed:] == [SOURCE.replace("return 2", "return 9").encode()]
    assert cart.read_text() == SOURCE.replace("return 2", "return 9").replace("return 1", "return 5")


def test_the_cache_hands_back_a_document_only_for_the_same_source(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    cache = DocumentCache(limit=2)
    first = cache.open(load(tmp_path, "a.py"), tmp_path)
    assert cache.open(load(tmp_path, "a.py"), tmp_path) is first
    (tmp_path / "a.py").chmod(0o444)  # the same bytes, but read-only now: the engine must see it
    assert cache.open(load(tmp_path, "a.py"), tmp_path) is not first
    for name in ("b.py", "c.py"):
        (tmp_path / name).write_text("y = 2\n")
        cache.open(load(tmp_path, name), tmp_path)
    assert len(cache) == 2  # the least recently used (a.py) went first


def test_the_unit_of_a_written_version_is_learnt_between_calls_exactly_as_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """warm_up (run by the server once an answer is out) learns each written version's indent unit
    before the next call asks: the next edit learns nothing, and what was learnt is what the file
    teaches (a 2-space file stays 2-space after a 4-space payload). It runs only when no call holds
    the turn."""
    (tmp_path / "cart.py").write_text(SOURCE.replace("    ", "  "))
    bench = Workbench(tmp_path)
    learnt: list[bytes] = []
    real = document_module._file_unit

    def learning(data, spec, tree):  # type: ignore[no-untyped-def]
        learnt.append(data)
        return real(data, spec, tree)

    monkeypatch.setattr(document_module, "_file_unit", learning)
    assert bench.replace_definition("cart.py", "Cart.total", "def total(self):\n    return 10\n").ok
    written = (tmp_path / "cart.py").read_bytes()
    assert written == SOURCE.replace("    ", "  ").replace("return 1\n", "return 10\n").encode()
    held = threading.Event()
    release = threading.Event()

    def holding() -> None:
        bench._turns.if_free(lambda: (held.set(), release.wait(10)))

    holder = threading.Thread(target=holding)
    holder.start()
    held.wait(10)
    bench.warm_up()  # a call holds the turn: nothing is learnt now
    assert written not in learnt
    release.set()
    holder.join()
    bench.warm_up()
    assert learnt[-1] == written
    warm = bench.documents.kept("cart.py")
    assert warm is not None and warm.unit == document_module._file_unit(written, warm.spec, warm.tree)
    count = len(learnt)
    assert bench.replace_definition("cart.py", "Cart.count", "def count(self):\n    return 20\n").ok
    assert len(learnt) == count  # the edit asked for the unit: it was there
    assert (tmp_path / "cart.py").read_text() == SOURCE.replace("    ", "  ").replace("return 1\n", "return 10\n").replace(
        "return 2\n", "return 20\n"
    )
