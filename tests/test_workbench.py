"""The MCP tools' behaviour in-process (kopipasta/agents/workbench.py), for the cases test_mcp_server.py
does not send over stdio: decorators and comments read with a definition, data files, idempotence,
replies that hold no patch, absolute paths. Each checks the bytes on disk and the exact text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kopipasta.agents.memory import version_of
from kopipasta.agents.workbench import Workbench

SHOP = "import functools\n\n\n# Cached: the price never changes.\n@functools.cache\ndef price(item):\n    return item.price\n"


def test_read_definition_returns_its_comment_and_decorators(tmp_path: Path) -> None:
    (tmp_path / "shop.py").write_text(SHOP)
    read = Workbench(tmp_path).read_definition("shop.py", "function price")
    assert read.ok
    assert read.data["text"] == "# Cached: the price never changes.\n@functools.cache\ndef price(item):\n    return item.price"
    assert (read.data["line"], read.data["end_line"]) == (4, 7)


def test_set_value_in_yaml_and_toml_keeps_every_other_byte(tmp_path: Path) -> None:
    (tmp_path / "compose.yaml").write_text('services:\n  web:\n    ports:\n      - "80:80"  # public\n')
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\n# house style\nline-length = 88\n")
    bench = Workbench(tmp_path)
    assert bench.set_value("compose.yaml", "services.web.ports[0]", "8080:80").ok
    assert bench.set_value("pyproject.toml", "tool.ruff.line-length", 100).ok
    assert (tmp_path / "compose.yaml").read_text() == 'services:\n  web:\n    ports:\n      - "8080:80"  # public\n'
    assert (tmp_path / "pyproject.toml").read_text() == "[tool.ruff]\n# house style\nline-length = 100\n"
    missing = bench.set_value("pyproject.toml", "tool.black.line-length", 100)
    assert not missing.ok and "tool.black" in missing.text


def test_an_insert_sent_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    (tmp_path / "shop.py").write_text(SHOP)
    bench = Workbench(tmp_path)
    first = bench.insert_definition("shop.py", "append_to", "file", "def tax(item):\n    return 0\n")
    assert first.ok and first.data["status"] == "applied"
    assert (tmp_path / "shop.py").read_text() == SHOP + "\n\ndef tax(item):\n    return 0\n"
    again = bench.insert_definition("shop.py", "append_to", "file", "def tax(item):\n    return 0\n")
    assert again.ok and again.data["status"] == "unchanged" and again.data["files"] == []


def test_replies_without_a_patch_and_conflicting_options_are_refused(tmp_path: Path) -> None:
    bench = Workbench(tmp_path)
    empty = bench.apply_reply("Sure, here is how I would do it.")
    assert (empty.ok, empty.text) == (False, "The reply holds no code blocks")
    both = bench.apply_reply("x", strict=True, partial=True)
    assert not both.ok
    assert both.text == (
        "apply_reply: strict writes nothing if anything failed, partial writes what succeeded — choose one of strict and partial"
    )
    nothing = bench.list_definitions(["src/*.zz"])
    assert (nothing.ok, nothing.text) == (False, "src/*.zz: matched no text file")


def test_an_absolute_path_inside_the_root_is_the_file_under_it(tmp_path: Path) -> None:
    (tmp_path / "shop.py").write_text(SHOP)
    bench = Workbench(tmp_path)
    replaced = bench.replace_definition(str(tmp_path / "shop.py"), "price", "def price(item):\n    return item.cost\n")
    assert replaced.ok, replaced.text
    assert replaced.data["files"][0]["path"] == "shop.py"
    assert (tmp_path / "shop.py").read_text() == SHOP.replace("item.price", "item.cost")


def test_list_definitions_walks_nothing_outside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "shop.py").write_text(SHOP)
    (tmp_path / "secret.py").write_text("def secret():\n    pass\n")
    listed = Workbench(root).list_definitions(["../", str(tmp_path), "."])
    assert not listed.ok
    assert listed.text.splitlines() == [
        "../: Refusing path ../: it leaves the project root — write it relative to the root, without '..'",
        f"{tmp_path}: Refusing absolute path {tmp_path}: paths must be relative to the project root — "
        "write it relative to the root, e.g. src/app.py",
        f"shop.py  (version {version_of(SHOP.encode())})",
        f"  function price  lines 6-7  v{version_of(SHOP[SHOP.index('# Cached'):].rstrip().encode())}",
    ]


def test_a_single_edit_names_the_definition_as_it_is_now_not_as_a_prompt_showed_it(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "shop.py").write_text(SHOP)
    subprocess.run(
        [sys.executable, "-m", "kopipasta", "prompt", "shop.py", "--stdout", "--root", str(tmp_path)],
        check=True, capture_output=True, timeout=120,
    )
    (tmp_path / "shop.py").write_text(SHOP.replace("item.price", "item.price or 0"))  # the user's edit since
    bench = Workbench(tmp_path)
    reply = "```python\n# FILE: shop.py\n# TARGET_NODE: price\ndef price(item):\n    return 1\n```\n"
    stale = bench.apply_reply(reply)  # a chat reply to that prompt: the user's edit is protected
    assert not stale.ok and "changed since the prompt" in stale.text
    agent = bench.replace_definition("shop.py", "price", "def price(item):\n    return item.price or 1\n")
    assert agent.ok, agent.text
    assert (tmp_path / "shop.py").read_text() == SHOP.replace("item.price", "item.price or 1")


def test_code_above_the_size_limit_is_refused(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("KOPIPASTA_MAX_REPLY_MB", "1")
    (tmp_path / "shop.py").write_text(SHOP)
    big = "def price(item):\n" + "    x = 1\n" * 200_000
    refused = Workbench(tmp_path).replace_definition("shop.py", "price", big)
    assert not refused.ok and refused.text.startswith("The code is ")
    assert (tmp_path / "shop.py").read_text() == SHOP


CART = "class Cart:\n    def total(self):\n        return 1\n\n    def count(self):\n        return 2\n"


@pytest.mark.parametrize("warm", [False, True], ids=["settled-at-the-next-call", "settled-after-the-answer"])
def test_what_the_agent_wrote_is_what_it_knows_whenever_the_memory_is_told(tmp_path: Path, warm: bool) -> None:
    """The session learns the versions its own write left (the edited definition, under its new name
    when the code renamed it, and the others it had read) from the bytes it wrote, after the answer
    (the server's warm_up) or at the next call: a person's edit that lands in between is still a
    change the agent never saw, and is refused, never overwritten."""
    cart = tmp_path / "cart.py"
    cart.write_text(CART)
    bench = Workbench(tmp_path)
    assert bench.read_definition("cart.py", "Cart.count").ok
    renamed = bench.replace_definition("cart.py", "Cart.total", "def sum_total(self):\n    return 10\n")
    assert renamed.ok, renamed.text
    if warm:
        bench.warm_up()
    # The person edits both methods in the editor before the agent's next call.
    cart.write_text(cart.read_text().replace("return 10", "return 11").replace("return 2", "return 3"))
    for target in ("Cart.sum_total", "Cart.count"):
        refused = bench.replace_definition("cart.py", target, "def x(self):\n    return 0\n".replace("x", target.split(".")[1]))
        assert not refused.ok and "changed since you last read it" in refused.text, refused.text
    assert "return 11" in cart.read_text() and "return 3" in cart.read_text()
    # Read again, the agent's edits land.
    assert bench.read_definition("cart.py", "Cart.sum_total").ok
    assert bench.replace_definition("cart.py", "Cart.sum_total", "def sum_total(self):\n    return 12\n").ok
    assert cart.read_text() == "class Cart:\n    def sum_total(self):\n        return 12\n\n    def count(self):\n        return 3\n"


@pytest.mark.parametrize("tool", ["replace_definition", "edit_definition"])
def test_a_write_landing_between_the_stale_check_and_the_lock_is_never_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tool: str
) -> None:
    """The target is checked again under the project's lock, in the bytes the engine is about to
    overwrite: a person's edit of the target that lands after the check and before the lock is refused
    (the file keeps it); one elsewhere in the file leaves the target as read, and the edit lands beside it."""
    from contextlib import contextmanager

    from kopipasta.disk import journal

    cart = tmp_path / "cart.py"
    real = journal.writing
    landing: list[tuple[str, str]] = []

    @contextmanager
    def racing(root: Path):  # type: ignore[no-untyped-def]
        for old, new in landing:
            cart.write_text(cart.read_text().replace(old, new))
        landing.clear()
        with real(root) as project:
            yield project

    monkeypatch.setattr(journal, "writing", racing)

    def edit(bench: Workbench, code: str) -> Any:
        if tool == "replace_definition":
            return bench.replace_definition("cart.py", "Cart.total", code)
        return bench.edit_definition("cart.py", "Cart.total", "return 1", code.rsplit("\n", 2)[-2].strip())

    cart.write_text(CART)
    bench = Workbench(tmp_path)
    assert bench.read_definition("cart.py", "Cart.total").ok
    landing.append(("return 1", "return 100"))  # the target itself, in the window
    refused = edit(bench, "def total(self):\n    return 5\n")
    assert not refused.ok and "changed while the edit was being made" in refused.text, refused.text
    assert cart.read_text() == CART.replace("return 1", "return 100")

    cart.write_text(CART)
    bench = Workbench(tmp_path)
    assert bench.read_definition("cart.py", "Cart.total").ok
    landing.append(("return 2", "return 200"))  # another method, in the window
    applied = edit(bench, "def total(self):\n    return 5\n")
    assert applied.ok, applied.text
    assert cart.read_text() == CART.replace("return 1", "return 5").replace("return 2", "return 200")
