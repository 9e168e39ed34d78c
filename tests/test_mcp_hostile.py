"""The MCP server, driven by the SDK's client, against what a hostile project or a race does (issue 28, item 10).

(a) a folder symlinked out of the root lists nothing of what is outside: no name, no
per-file refusal; (b) a root removed or replaced while the server runs is refused in one
line that names "the project root", never the machine's absolute path.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from test_mcp_server import serve, text_of  # noqa: E402

CART = "def total():\n    return 1\n"


def _everything(result: Any) -> str:
    return text_of(result) + json.dumps(result.structured_content, ensure_ascii=False)


def test_a_folder_symlinked_out_of_the_root_lists_nothing_of_it(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "m.py").write_text(CART)
    outside = tmp_path / "outside"
    outside.mkdir()
    for index in range(3):
        (outside / f"secret{index}.py").write_text(f"TOKEN{index} = 'x'\n")
    (root / "src" / "linked").symlink_to(outside, target_is_directory=True)
    (root / "linked_top").symlink_to(outside, target_is_directory=True)
    (root / "src" / "one.py").symlink_to(outside / "secret0.py")
    seen: dict[str, Any] = {}

    async def session(client: Any) -> None:
        for paths in (["src"], ["."], ["src/*"], ["**/*.py"]):
            seen[",".join(paths)] = await client.call_tool("list_definitions", {"paths": paths})
        seen["linked"] = await client.call_tool("list_definitions", {"paths": ["linked_top"]})

    serve(root, session)
    for key in ("src", ".", "src/*", "**/*.py"):
        result = seen[key]
        assert not result.is_error, text_of(result)
        assert [f["file"] for f in result.structured_content["files"]] == ["src/m.py"], key
        assert "secret" not in _everything(result) and "TOKEN" not in _everything(result)
    # The link named alone: one line, as for an empty folder; nothing of what is behind it.
    assert text_of(seen["linked"]) == "linked_top: matched no text file"
    assert "secret" not in _everything(seen["linked"])


@pytest.mark.parametrize("gone", ["moved", "removed", "a file"])
def test_a_root_gone_while_serving_is_refused_without_the_machines_path(tmp_path: Path, gone: str) -> None:
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    (root / "app" / "cart.py").write_text(CART)
    (root / "p.json").write_text('{"a": 0}\n')
    results: list[Any] = []

    async def session(client: Any) -> None:
        first = await client.call_tool("replace_definition", {"file": "app/cart.py", "target": "total", "code": "def total():\n    return 2\n"})
        assert not first.is_error, text_of(first)
        os.rename(root, tmp_path / "elsewhere")
        if gone == "removed":
            shutil.rmtree(tmp_path / "elsewhere")
        elif gone == "a file":
            root.write_text("not a folder\n")
        calls = [
            ("list_definitions", {"paths": ["app"]}),
            ("read_definition", {"file": "app/cart.py", "target": "total"}),
            ("replace_definition", {"file": "app/cart.py", "target": "total", "code": "def total():\n    return 3\n"}),
            ("set_value", {"file": "p.json", "path": "a", "value": 1}),
            ("undo", {}),
        ]
        for name, arguments in calls:
            results.append(await client.call_tool(name, arguments))

    serve(root, session)
    reason = "Not a directory" if gone == "a file" else "No such file or directory"
    for result in results[:4]:
        assert result.is_error
        assert text_of(result) == f"Cannot complete the call: the project root: {reason} — check the path and its permissions"
    assert text_of(results[4]) == f"Cannot undo: the project root: {reason}"
    for result in results:
        assert str(tmp_path) not in _everything(result)


def test_a_fifo_in_a_listed_folder_neither_hangs_the_call_nor_wedges_the_next(tmp_path: Path) -> None:
    """Issue 28, item 6: list_definitions over a folder holding a FIFO used to block in open(),
    and every later call of the server waited behind it. Through the real server: both answer."""
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "m.py").write_text(CART)
    os.mkfifo(root / "src" / "pipe.py")
    seen: dict[str, Any] = {}

    async def session(client: Any) -> None:
        seen["list"] = await client.call_tool("list_definitions", {"paths": ["src"]})
        seen["read"] = await client.call_tool("read_definition", {"file": "src/m.py", "target": "total"})

    serve(root, session)
    assert not seen["list"].is_error, text_of(seen["list"])
    assert [f["file"] for f in seen["list"].structured_content["files"]] == ["src/m.py"]
    assert not seen["read"].is_error and "return 1" in text_of(seen["read"])


def test_a_call_past_the_time_bound_is_answered_and_the_next_is_not_made_to_wait(tmp_path: Path) -> None:
    """Issue 28, item 6: one call that runs long never wedges the server. With the bound at a
    fraction of a second, listing a large folder is answered past it ("still running"), and a
    call sent meanwhile is answered too (busy, or its result once the first has finished)."""
    import sys
    import time

    import anyio
    from mcp import Client, StdioServerParameters

    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    body = "".join(f"    def method_{i}(self):\n        return {i}\n\n" for i in range(400))
    for index in range(60):
        (root / "src" / f"m{index}.py").write_text(f"class C{index}:\n{body}")
    seen: dict[str, Any] = {}

    async def main() -> None:
        env = {**os.environ, "KOPIPASTA_MCP_CALL_SECONDS": "0.2"}
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "kopipasta", "mcp", "--root", str(root)], cwd=str(root), env=env
        )
        with anyio.fail_after(120):
            async with Client(params, read_timeout_seconds=60) as client:
                start = time.monotonic()
                seen["list"] = await client.call_tool("list_definitions", {"paths": ["src"]})
                seen["list_seconds"] = time.monotonic() - start
                seen["read"] = await client.call_tool("read_definition", {"file": "src/m0.py", "target": "C0.method_1"})
                await anyio.sleep(0)

    anyio.run(main)
    assert seen["list"].is_error
    assert text_of(seen["list"]).startswith("The call is still running after 0.2 s")
    assert seen["list_seconds"] < 10
    read = text_of(seen["read"])
    assert read.startswith("The server is still busy") or "return 1" in read, read


def test_a_client_that_stops_reading_ends_the_server_in_one_line(tmp_path: Path) -> None:
    """The client closes its end of the server's stdout and sends one more request: the answer has
    nowhere to go. The server stops with one line on stderr (no traceback) and status 0, and does
    not hang."""
    import subprocess
    import sys

    (tmp_path / "cart.py").write_text(CART)
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "kopipasta", "mcp", "--root", str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        assert server.stdin is not None and server.stdout is not None and server.stderr is not None
        server.stdin.write((json.dumps(initialize) + "\n").encode())
        server.stdin.flush()
        assert b'"id":1' in server.stdout.readline()
        server.stdout.close()  # the client stops reading
        for line in ({"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}):
            server.stdin.write((json.dumps(line) + "\n").encode())
        server.stdin.flush()
        status = server.wait(timeout=60)
        errors = server.stderr.read().decode()
    finally:
        server.kill()
        server.wait(timeout=60)
    assert status == 0, errors
    assert "Traceback" not in errors
    assert errors.strip().splitlines()[-1] == "kopipasta mcp: the client stopped reading the answers; stopped"
