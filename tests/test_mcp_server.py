"""`kopipasta mcp`, driven as an agent drives it: the SDK's own client, the real server over stdio.

Each test starts `python -m kopipasta mcp --root PROJECT` through the MCP SDK's
stdio transport and calls tools by name with JSON arguments, then checks what a
user would: the files' bytes on disk, the result's text and isError, and the
per-file delta (its hashes and changed lines against the files on disk). Every
session is bounded by a timeout, so a hung server fails the test instead of
hanging the suite.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

anyio = pytest.importorskip("anyio")
mcp = pytest.importorskip("mcp")

from mcp import Client, StdioServerParameters  # noqa: E402

SESSION_TIMEOUT = 120  # seconds for a whole session: a server start is ~1-3 s on a loaded machine

CART = """\
import os


class Cart:
    def total(self):
        return 1

    def count(self):
        return 2


def helper():
    return os.sep
"""

PACKAGE = """\
{
  "name": "shop",
  "dependencies": {
    "react": "^17.0.0"
  }
}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    (root / "app" / "cart.py").write_text(CART)
    (root / "package.json").write_text(PACKAGE)
    return root


def serve(root: Path, session: Callable[[Client], Awaitable[None]]) -> None:
    """Run `session` against a fresh server on `root`, within SESSION_TIMEOUT."""

    async def main() -> None:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "kopipasta", "mcp", "--root", str(root)], cwd=str(root)
        )
        with anyio.fail_after(SESSION_TIMEOUT):
            async with Client(params, read_timeout_seconds=60) as client:
                await session(client)

    anyio.run(main)


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def replay(before: str, diff: str) -> tuple[str, list[list[int]]]:
    """Apply a unified diff to `before`: the text it gives, and the runs of its `+` lines in the new text."""
    old = before.splitlines(keepends=True)
    new: list[str] = []
    added: list[int] = []
    at = 0  # old lines copied so far
    lines = diff.splitlines(keepends=True)[2:]
    previous = ""
    for line in lines:
        if line.startswith("@@"):
            head = line.split()[1][1:].split(",")
            start, length = int(head[0]), int(head[1]) if len(head) > 1 else 1
            upto = start if length == 0 else start - 1
            new += old[at:upto]
            at = upto
        elif line.startswith("\\"):
            if not previous.startswith("-"):  # the line above, in the new text, has no newline
                new[-1] = new[-1].rstrip("\n")
        elif line.startswith("+"):
            new.append(line[1:])
            added.append(len(new))
        else:
            assert old[at].rstrip("\n") == line[1:].rstrip("\n"), (old[at], line)
            if line.startswith(" "):
                new.append(old[at])
            at += 1
        previous = line
    new += old[at:]
    runs: list[list[int]] = []
    for number in added:
        if runs and runs[-1][1] == number - 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    return "".join(new), runs


def check_delta(root: Path, result: Any, path: str, before: str, change: str = "modified") -> dict[str, Any]:
    """The result's delta for `path` against the file on disk: hashes, newline style, changed lines."""
    (delta,) = [d for d in result.structured_content["files"] if d["path"] == path]
    assert delta["change"] == change
    assert delta["sha256_before"] == hashlib.sha256(before.encode()).hexdigest()
    assert delta["sha256_after"] == sha(root / path)
    assert delta["newline"] == "lf"
    assert delta["diff"].startswith(f"--- a/{path}\n+++ b/{path}\n@@ ")
    # The diff turns the old bytes into the file on disk, and its added lines are the changed lines.
    assert replay(before, delta["diff"]) == ((root / path).read_text(), delta["changed_lines"])
    return delta


def test_every_tool_over_stdio(project: Path) -> None:
    cart = project / "app" / "cart.py"

    async def session(client: Client) -> None:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert sorted(tools) == sorted([
            "list_definitions", "read_definition", "replace_definition", "insert_definition",
            "delete_definition", "set_value", "apply_reply", "undo", "edit_definition",
        ])
        for tool in tools.values():
            assert tool.description, tool.name
            for name, schema in tool.input_schema.get("properties", {}).items():
                assert schema.get("description"), f"{tool.name}.{name} has no description"
            if tool.name not in ("list_definitions", "read_definition", "undo", "apply_reply"):
                assert "dry_run" in tool.input_schema["properties"], tool.name

        listed = await client.call_tool("list_definitions", {"paths": ["app/", "package.json"]})
        assert not listed.is_error
        def version(text: str) -> str:
            return hashlib.sha256(text.encode()).hexdigest()[:12]

        total, count = "    def total(self):\n        return 1", "    def count(self):\n        return 2"
        assert text_of(listed).splitlines()[:4] == [
            f"app/cart.py  (version {sha(cart)[:12]})", f"  class Cart  lines 4-9  v{version(CART[CART.index('class'):CART.index('def helper')].rstrip())}",
            f"  method Cart.total  lines 5-6  v{version(total)}", f"  method Cart.count  lines 8-9  v{version(count)}",
        ]
        assert {"kind": "key", "name": "dependencies", "line": 3, "end_line": 5, "version": version('  "dependencies": {\n    "react": "^17.0.0"\n  }')} in listed.structured_content["files"][1]["definitions"]

        read = await client.call_tool("read_definition", {"file": "app/cart.py", "target": "Cart.count"})
        assert not read.is_error
        assert read.structured_content["text"] == "    def count(self):\n        return 2"
        assert (read.structured_content["line"], read.structured_content["end_line"]) == (8, 9)

        before = cart.read_text()
        replaced = await client.call_tool(
            "replace_definition", {"file": "app/cart.py", "target": "method Cart.total", "code": "def total(self):\n  return 42\n"}
        )
        assert not replaced.is_error, text_of(replaced)
        assert cart.read_text() == before.replace("        return 1", "        return 42")
        check_delta(project, replaced, "app/cart.py", before)
        assert replaced.structured_content["blocks"][0]["status"] == "applied"

        before = cart.read_text()
        inserted = await client.call_tool(
            "insert_definition",
            {"file": "app/cart.py", "position": "after", "anchor": "Cart.total", "code": "def empty(self):\n    return False"},
        )
        assert not inserted.is_error, text_of(inserted)
        assert "    def total(self):\n        return 42\n\n    def empty(self):\n        return False\n\n    def count" in cart.read_text()
        check_delta(project, inserted, "app/cart.py", before)

        before = cart.read_text()
        deleted = await client.call_tool("delete_definition", {"file": "app/cart.py", "target": "function helper"})
        assert not deleted.is_error, text_of(deleted)
        assert "helper" not in cart.read_text() and cart.read_text().endswith("        return 2\n")
        delta = deleted.structured_content["files"][0]
        assert delta["sha256_before"] == hashlib.sha256(before.encode()).hexdigest()
        assert delta["sha256_after"] == sha(cart) and delta["changed_lines"] == []  # a pure deletion

        package = project / "package.json"
        before = package.read_text()
        set_result = await client.call_tool("set_value", {"file": "package.json", "path": "dependencies.react", "value": "^18.2.0"})
        assert not set_result.is_error, text_of(set_result)
        assert package.read_text() == before.replace('"^17.0.0"', '"^18.2.0"')
        check_delta(project, set_result, "package.json", before)

        before_cart, before_package = cart.read_text(), package.read_text()
        reply = (
            "Two changes:\n\n```python\n# FILE: app/cart.py\n# TARGET_NODE: Cart.count\ndef count(self):\n    return 3\n```\n\n"
            "```json\n// FILE: package.json\n// TARGET_PATH: name\n\"store\"\n```\n"
        )
        applied = await client.call_tool("apply_reply", {"text": reply})
        assert not applied.is_error, text_of(applied)
        assert [b["status"] for b in applied.structured_content["blocks"]] == ["applied", "applied"]
        check_delta(project, applied, "app/cart.py", before_cart)
        check_delta(project, applied, "package.json", before_package)

        undone = await client.call_tool("undo", {})
        assert not undone.is_error, text_of(undone)
        assert (cart.read_text(), package.read_text()) == (before_cart, before_package)
        assert {d["path"]: d["sha256_after"] for d in undone.structured_content["files"]} == {
            "app/cart.py": sha(cart), "package.json": sha(package)
        }

    serve(project, session)


def test_refusals_dry_runs_and_malformed_arguments(project: Path) -> None:
    cart = project / "app" / "cart.py"
    original = cart.read_bytes()

    async def session(client: Client) -> None:
        missing = await client.call_tool(
            "replace_definition", {"file": "app/cart.py", "target": "Cart.totl", "code": "def totl(self):\n    return 0\n"}
        )
        assert missing.is_error
        assert text_of(missing) == "`Cart.totl` not found in app/cart.py — did you mean 'Cart.total'?"
        assert missing.structured_content["blocks"][0]["hint"] == "did you mean 'Cart.total'?"
        assert missing.structured_content["files"] == []

        broken = await client.call_tool(
            "replace_definition", {"file": "app/cart.py", "target": "Cart.total", "code": "def total(self):\n    return (1\n"}
        )
        assert broken.is_error
        assert "would break the syntax of app/cart.py" in text_of(broken) and "nothing was written" in text_of(broken)

        outside = await client.call_tool("delete_definition", {"file": "../elsewhere.py", "target": "f"})
        assert outside.is_error
        assert text_of(outside) == "Refusing path ../elsewhere.py: it leaves the project root — write it relative to the root, without '..'"

        unknown = await client.call_tool("read_definition", {"file": "app/cart.py", "target": "nothing_here"})
        assert unknown.is_error
        assert text_of(unknown).startswith("`nothing_here` not found in app/cart.py — ")
        assert 'list_definitions(["app/cart.py"])' in text_of(unknown)

        assert cart.read_bytes() == original

        dry = await client.call_tool(
            "replace_definition",
            {"file": "app/cart.py", "target": "Cart.total", "code": "def total(self):\n    return 7\n", "dry_run": True},
        )
        assert not dry.is_error, text_of(dry)
        assert cart.read_bytes() == original
        assert dry.structured_content["status"] == "dry_run" and dry.structured_content["written"] is False
        (delta,) = dry.structured_content["files"]
        assert delta["sha256_before"] == hashlib.sha256(original).hexdigest()
        assert "-        return 1\n+        return 7\n" in delta["diff"] and "would apply" in text_of(dry)

        real = await client.call_tool(
            "replace_definition", {"file": "app/cart.py", "target": "Cart.total", "code": "def total(self):\n    return 7\n"}
        )
        assert real.structured_content["files"][0]["sha256_after"] == delta["sha256_after"] == sha(cart)
        cart.write_bytes(original)

        bad_position = await client.call_tool(
            "insert_definition", {"file": "app/cart.py", "position": "sideways", "anchor": "Cart", "code": "x = 1"}
        )
        assert bad_position.is_error
        assert text_of(bad_position) == (
            "Invalid arguments for insert_definition: position: input should be 'after', 'before' or 'append_to' "
            "(got 'sideways') — see the tool's input schema"
        )

        no_code = await client.call_tool("replace_definition", {"file": "app/cart.py", "target": "Cart.total"})
        assert no_code.is_error
        assert text_of(no_code) == "Invalid arguments for replace_definition: code: missing — see the tool's input schema"

        wrong_type = await client.call_tool("list_definitions", {"paths": 42})
        assert wrong_type.is_error
        assert text_of(wrong_type) == (
            "Invalid arguments for list_definitions: paths: input should be a valid list (got 42) — see the tool's input schema"
        )

        assert cart.read_bytes() == original
        assert not (await client.call_tool("read_definition", {"file": "app/cart.py", "target": "Cart"})).is_error

    serve(project, session)


def test_an_edit_behind_the_servers_back_is_never_overwritten(project: Path) -> None:
    """The server keeps each file's parse between calls; an outside edit, same size and mtime, still wins."""
    cart = project / "app" / "cart.py"

    async def session(client: Client) -> None:
        warm = await client.call_tool("read_definition", {"file": "app/cart.py", "target": "Cart.count"})
        assert not warm.is_error
        first = await client.call_tool(
            "replace_definition", {"file": "app/cart.py", "target": "Cart.total", "code": "def total(self):\n    return 5\n"}
        )
        assert not first.is_error
        # The user edits the file: the same number of bytes, and the mtime put back.
        stat = cart.stat()
        outside = cart.read_text().replace("return 2", "return 9")
        assert len(outside) == stat.st_size
        cart.write_text(outside)
        os.utime(cart, ns=(stat.st_atime_ns, stat.st_mtime_ns))

        read = await client.call_tool("read_definition", {"file": "app/cart.py", "target": "Cart.count"})
        assert read.structured_content["text"] == "    def count(self):\n        return 9"
        second = await client.call_tool(
            "replace_definition", {"file": "app/cart.py", "target": "Cart.total", "code": "def total(self):\n    return 6\n"}
        )
        assert not second.is_error, text_of(second)
        assert cart.read_text() == outside.replace("return 5", "return 6")
        check_delta(project, second, "app/cart.py", outside)

    serve(project, session)


def test_two_calls_racing_on_one_file_both_land(project: Path) -> None:
    cart = project / "app" / "cart.py"
    results: dict[str, Any] = {}

    async def session(client: Client) -> None:
        async def call(target: str, code: str) -> None:
            results[target] = await client.call_tool(
                "replace_definition", {"file": "app/cart.py", "target": target, "code": code}
            )

        async with anyio.create_task_group() as group:
            group.start_soon(call, "Cart.total", "def total(self):\n    return 10\n")
            group.start_soon(call, "Cart.count", "def count(self):\n    return 20\n")

    serve(project, session)
    assert not any(r.is_error for r in results.values()), [text_of(r) for r in results.values()]
    assert cart.read_text() == CART.replace("return 1", "return 10").replace("return 2", "return 20")
    # One ran after the other: the second's bytes before are the first's bytes after.
    deltas = [r.structured_content["files"][0] for r in results.values()]
    ends = {d["sha256_before"]: d["sha256_after"] for d in deltas}
    original = hashlib.sha256(CART.encode()).hexdigest()
    assert ends[ends[original]] == sha(cart)


def test_undo_refuses_when_the_file_changed_since(project: Path) -> None:
    cart = project / "app" / "cart.py"

    async def session(client: Client) -> None:
        nothing = await client.call_tool("undo", {})
        assert nothing.is_error and text_of(nothing).startswith("Nothing to undo")
        applied = await client.call_tool(
            "replace_definition", {"file": "app/cart.py", "target": "Cart.total", "code": "def total(self):\n    return 3\n"}
        )
        assert not applied.is_error
        cart.write_text(cart.read_text() + "\nVALUE = 1\n")
        refused = await client.call_tool("undo", {})
        assert refused.is_error
        assert text_of(refused).startswith("Refusing to undo: changed since that apply: app/cart.py — ")
        assert cart.read_text().endswith("\nVALUE = 1\n")

    serve(project, session)


def test_mcp_help_reads_without_the_protocol() -> None:
    import subprocess

    shown = subprocess.run(
        [sys.executable, "-m", "kopipasta", "mcp", "--help"], capture_output=True, text=True, timeout=60
    )
    assert shown.returncode == 0
    for words in ("Model Context Protocol", "claude mcp add kopipasta -- kopipasta mcp", "claude_desktop_config.json",
                  ".cursor/mcp.json", "~/.codex/config.toml", "dry_run", "pip install -e '.[mcp]'"):
        assert words in shown.stdout, words
    assert "pip install 'kopipasta" not in shown.stdout  # the package index's kopipasta is another program


def test_without_the_sdk_mcp_says_how_to_install_it(tmp_path: Path) -> None:
    import subprocess

    fake = tmp_path / "fake" / "mcp"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError(\"No module named 'mcp'\", name='mcp')\n")
    env = {**os.environ, "PYTHONPATH": str(fake.parent)}
    done = subprocess.run(
        [sys.executable, "-m", "kopipasta", "mcp", "--root", str(tmp_path)],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    # This suite runs from the clone: the line names it, so it installs this project, not the index's kopipasta.
    clone = Path(__file__).resolve().parent.parent
    assert done.stderr == f"❌ kopipasta mcp needs the MCP SDK (mcp): pip install -e '{clone}[mcp]'\n"
