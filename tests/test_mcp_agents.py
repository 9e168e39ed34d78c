"""Issue 26 over the real server: read-before-write, edit_definition, warnings, set_value types,
folder listings, renames and inserts named; issue 28 item 7: every request line is answered.

Sessions use the MCP SDK's own client over stdio (tests/test_mcp_server.py's `serve`);
the wire test writes raw lines, as no SDK client can send them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402

from tests.test_mcp_server import CART, PACKAGE, serve, text_of  # noqa: E402


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    (root / "app" / "cart.py").write_text(CART)
    (root / "package.json").write_text(PACKAGE)
    return root

EDIT_TOTAL = {"file": "app/cart.py", "target": "Cart.total"}


def test_an_edit_over_a_change_the_agent_did_not_read_is_refused_naming_it(project: Path) -> None:
    cart = project / "app" / "cart.py"

    async def session(client: Client) -> None:
        read = await client.call_tool("read_definition", EDIT_TOTAL)
        version = read.structured_content["version"]
        assert f"version {version}" in text_of(read).splitlines()[0]
        # The user edits the method the agent read, in the editor.
        cart.write_text(CART.replace("return 1", "return 100"))
        refused = await client.call_tool("replace_definition", {**EDIT_TOTAL, "code": "def total(self):\n    return 5\n"})
        assert refused.is_error
        assert text_of(refused).startswith(
            "app/cart.py: method Cart.total changed since you last read it: line 6 was 'return 1' and is now 'return 100'"
        )
        assert cart.read_text() == CART.replace("return 1", "return 100")  # the user's line is kept
        # An old version passed explicitly is refused the same way, by any edit tool.
        stale = await client.call_tool(
            "edit_definition", {**EDIT_TOTAL, "old": "return 100", "new": "return 7", "expected_version": version}
        )
        assert stale.is_error and f"changed since version {version}" in text_of(stale)
        # Read again: the edit goes through.
        again = await client.call_tool("read_definition", EDIT_TOTAL)
        applied = await client.call_tool(
            "edit_definition",
            {**EDIT_TOTAL, "old": "100", "new": "101", "expected_version": again.structured_content["version"]},
        )
        assert not applied.is_error, text_of(applied)
        assert cart.read_text() == CART.replace("return 1", "return 101")
        # A change elsewhere in the file (outside the target) is not a reason to refuse.
        cart.write_text(cart.read_text().replace("return 2", "return 22"))
        outside = await client.call_tool("edit_definition", {**EDIT_TOTAL, "old": "101", "new": "102"})
        assert not outside.is_error, text_of(outside)
        assert cart.read_text() == CART.replace("return 1", "return 102").replace("return 2", "return 22")

    serve(project, session)


def test_first_contact_is_applied_and_said(project: Path) -> None:
    async def session(client: Client) -> None:
        done = await client.call_tool("replace_definition", {**EDIT_TOTAL, "code": "def total(self):\n    return 5\n"})
        assert not done.is_error
        assert "first contact: method Cart.total was not read in this session" in text_of(done)
        assert any("first contact" in w for w in done.structured_content["warnings"])

    serve(project, session)


def test_edit_definition_replaces_exactly_once_inside_the_target(project: Path) -> None:
    cart = project / "app" / "cart.py"

    async def session(client: Client) -> None:
        # `return` occurs in every method: inside Cart.count once, so the edit is scoped and exact.
        mid = await client.call_tool("edit_definition", {"file": "app/cart.py", "target": "Cart.count", "old": "rn 2", "new": "rn 2 + 1"})
        assert not mid.is_error, text_of(mid)
        assert cart.read_text() == CART.replace("return 2", "return 2 + 1")
        twice = await client.call_tool("edit_definition", {"file": "app/cart.py", "target": "Cart", "old": "return", "new": "yield"})
        assert twice.is_error
        assert text_of(twice) == (
            "app/cart.py: class Cart: `old` occurs 2 times in it (lines 6, 9) — "
            "include more of the surrounding text in old and new so that it occurs once"
        )
        missing = await client.call_tool("edit_definition", {**EDIT_TOTAL, "old": "return 9", "new": "return 8"})
        assert missing.is_error and text_of(missing).startswith("app/cart.py: method Cart.total (lines 5-6) does not contain `old`")
        broken = await client.call_tool("edit_definition", {**EDIT_TOTAL, "old": "return 1", "new": "return (1"})
        assert broken.is_error and "would break the syntax of app/cart.py" in text_of(broken)
        dry = await client.call_tool("edit_definition", {**EDIT_TOTAL, "old": "1", "new": "11", "dry_run": True})
        assert not dry.is_error and "+        return 11" in text_of(dry)
        assert cart.read_text() == CART.replace("return 2", "return 2 + 1")
        undone = await client.call_tool("undo", {})
        assert not undone.is_error
        assert text_of(undone).splitlines()[0].endswith("put back 1 file(s) as they were before that apply; nothing earlier is left to undo")
        assert cart.read_text() == CART

    serve(project, session)


def test_results_carry_applys_warnings(project: Path) -> None:
    (project / "conftest.py").write_text("def pytest_configure(config):\n    pass\n")

    async def session(client: Client) -> None:
        script = await client.call_tool("set_value", {"file": "package.json", "path": "scripts", "value": {"lint": "curl x | sh"}})
        assert not script.is_error, text_of(script)
        assert "⚠ Look before running anything: this reply changed package.json, which runs without asking" in text_of(script)
        assert script.structured_content["runs_without_asking"][0]["file"] == "package.json"
        hook = await client.call_tool(
            "replace_definition", {"file": "conftest.py", "target": "pytest_configure", "code": "def pytest_configure(config):\n    import os\n"}
        )
        assert "conftest.py, which runs without asking" in text_of(hook)
        assert hook.structured_content["blocks"][0]["runs_without_asking"] is True
        renamed = await client.call_tool("replace_definition", {"file": "app/cart.py", "target": "helper", "code": "def sep():\n    return os.sep\n"})
        assert not renamed.is_error
        assert "⚠ Renamed helper to sep in app/cart.py: nothing else uses the old name" in text_of(renamed)
        (project / "app" / "use.py").write_text("from app.cart import Cart\n\nCart().total()\n")
        method = await client.call_tool("replace_definition", {**EDIT_TOTAL, "code": "def sum_all(self):\n    return 1\n"})
        assert "⚠ Renamed Cart.total to Cart.sum_all in app/cart.py: 1 place(s) still use the old name: app/use.py:3" in text_of(method)
        assert method.structured_content["renamed"] == [
            {"file": "app/cart.py", "from": "Cart.total", "to": "Cart.sum_all", "still_using": ["app/use.py:3"], "more": 0}
        ]

    serve(project, session)


def test_set_value_is_typed_and_folder_listings_skip_what_has_no_grammar(project: Path) -> None:
    package = project / "package.json"
    (project / "app" / "notes.xyz").write_text("free text\n")

    async def session(client: Client) -> None:
        for value, written in (("^3.6.2", '"^3.6.2"'), ("true", '"true"'), (True, "true"), ({"a": [1]}, '{\n      "a": [\n        1\n      ]\n    }')):
            done = await client.call_tool("set_value", {"file": "package.json", "path": "dependencies.react", "value": value})
            assert not done.is_error, text_of(done)
            assert json.loads(package.read_text())["dependencies"]["react"] == value
            assert f'"react": {written}' in package.read_text()
        listed = await client.call_tool("list_definitions", {"paths": ["app"]})
        assert not listed.is_error, text_of(listed)
        assert text_of(listed).splitlines()[-1] == "skipped 1 file(s) kopipasta has no grammar for: app/notes.xyz"
        assert listed.structured_content["skipped"] == ["app/notes.xyz"]
        named = await client.call_tool("list_definitions", {"paths": ["app/notes.xyz"]})
        assert named.is_error

    serve(project, session)


def test_an_insert_names_what_it_inserted(project: Path) -> None:
    async def session(client: Client) -> None:
        done = await client.call_tool(
            "insert_definition", {"file": "app/cart.py", "position": "after", "anchor": "Cart.total", "code": "def empty(self):\n    return False\n"}
        )
        assert text_of(done).splitlines()[0] == "inserted method Cart.empty (lines 8-9)"
        assert [(d["kind"], d["name"]) for d in done.structured_content["inserted"]] == [("method", "Cart.empty")]
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert tools["undo"].annotations.idempotent_hint is False
        assert all("\n    " not in tool.description for tool in tools.values())
        assert "Python" in tools["list_definitions"].description and "DELETE_NODE" in tools["apply_reply"].description

    serve(project, session)


def test_every_request_line_is_answered_even_one_the_sdk_cannot_read(project: Path) -> None:
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    call = '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_definition","arguments":{"file":"app/cart.py","target":%s}}}'
    lines = [
        json.dumps(initialize),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        call % (2, '"\\ud800"'),
        call % (3, "1" * 5000),
        call % (4, "[" * 100_000 + "]" * 100_000),
        json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/list"}),
    ]
    # Lines are written, then answers read until the last request's arrives: stdin stays open meanwhile,
    # as a client's does (at EOF the server stops, whatever is still in flight).
    server = subprocess.Popen(
        [sys.executable, "-m", "kopipasta", "mcp", "--root", str(project)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    answers: dict[int, dict] = {}
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write("\n".join(lines) + "\n")
        server.stdin.flush()
        timer = threading.Timer(120, server.kill)  # a wedged server fails the test instead of hanging it
        timer.start()
        for line in server.stdout:
            answer = json.loads(line)
            answers[answer["id"]] = answer
            if answer["id"] == 5:
                break
        timer.cancel()
    finally:
        server.kill()
        server.wait(timeout=60)
    assert sorted(answers) == [1, 2, 3, 4, 5]
    assert answers[2]["error"]["code"] == -32700 and "hex escape" in answers[2]["error"]["message"]
    assert answers[3]["error"]["message"].startswith("Parse error: Invalid JSON: number out of range")
    assert answers[4]["error"]["message"].startswith("Parse error: Invalid JSON: recursion limit exceeded")
    assert "tools" in answers[5]["result"]  # not wedged
