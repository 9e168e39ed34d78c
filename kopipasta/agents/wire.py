"""The stdio wire: every request line gets an answer, even one the SDK cannot read.

The SDK's stdio reader drops a line its JSON parser refuses (a lone surrogate
escape, a 5,000-digit integer, 100,000-deep nesting: valid JSON all three)
and the client waits for its timeout (issue 28, item 7). Here each line is
read first: one that does not validate as a JSON-RPC message is answered with
a JSON-RPC error carrying the request's id (found by a scan that neither
recurses nor converts numbers), and is not passed on; every other line goes to
the SDK unchanged. The standard descriptors are claimed as the SDK claims
them: fd 0 reads the null device and fd 1 writes to stderr while serving, so a
child process (a formatter) neither eats requests nor writes into the wire.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager, suppress
from io import TextIOWrapper
from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
MAX_ID_SCAN = 1 << 20  # characters scanned for the id: past a megabyte of params, the id is not coming


def request_id(line: str) -> int | str | None:
    """The top-level "id" of a JSON object line, without parsing the rest (iterative, no number conversion)."""
    depth, index, end = 0, 0, min(len(line), MAX_ID_SCAN)
    expecting_key = False
    while index < end:
        char = line[index]
        if char == '"':
            close = _string_end(line, index, end)
            if close < 0:
                return None
            if depth == 1 and expecting_key and line[index + 1 : close] == "id":
                return _value_after(line, close + 1, end)
            index = close + 1
            expecting_key = False
            continue
        if char in "{[":
            depth += 1
            expecting_key = char == "{" and depth == 1
        elif char in "}]":
            depth -= 1
        elif char == "," and depth == 1:
            expecting_key = True
        index += 1
    return None


def _string_end(line: str, start: int, end: int) -> int:
    index = start + 1
    while index < end:
        if line[index] == "\\":
            index += 2
            continue
        if line[index] == '"':
            return index
        index += 1
    return -1


def _value_after(line: str, index: int, end: int) -> int | str | None:
    while index < end and line[index] in " \t\r\n:":
        index += 1
    if index < end and line[index] == '"':
        close = _string_end(line, index, end)
        raw = line[index + 1 : close] if close > 0 else ""
        return raw if close > 0 and "\\" not in raw and len(raw) <= 200 else None
    digits = index
    while digits < end and (line[digits].isdigit() or (digits == index and line[digits] == "-")):
        digits += 1
    number = line[index:digits]
    return int(number) if number.lstrip("-").isdigit() and len(number) <= 18 else None


def refusal(line: str, error: Exception) -> Any:
    """The JSON-RPC error answering a line the SDK could not read (None for a notification: no answer)."""
    import mcp_types as types

    detail = str(error).splitlines()
    reason = next((d.strip() for d in detail[1:] if d.strip()), str(error))
    reason = reason.split(" [type=", 1)[0]
    code = PARSE_ERROR if "Invalid JSON" in reason else INVALID_REQUEST
    ident = request_id(line)
    if ident is None and code == INVALID_REQUEST and '"method"' in line and '"id"' not in line:
        return None  # a notification the SDK cannot read: JSON-RPC answers notifications never
    message = f"{'Parse error' if code == PARSE_ERROR else 'Invalid request'}: {reason}"[:500]
    return types.JSONRPCError(jsonrpc="2.0", id=ident, error=types.ErrorData(code=code, message=message))


class _Lines:
    """stdin as the SDK's reader iterates it, with unreadable lines answered here and held back."""

    def __init__(self, stdin: Any) -> None:
        self.stdin = stdin
        self.write_stream: Any = None
        self.ready: Any = None

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        import mcp_types as types
        from mcp.shared.message import SessionMessage

        async for line in self.stdin:
            try:
                types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except Exception as error:  # noqa: BLE001 — whatever the SDK refuses, the client hears of it
                if not line.strip():
                    continue
                answer = refusal(line, error)
                if answer is not None:
                    await self.ready.wait()
                    try:
                        await self.write_stream.send(SessionMessage(answer))
                    except Exception:  # noqa: BLE001 — the session is closing: nobody is left to answer
                        return
                continue
            yield line


@contextmanager
def _claimed() -> Iterator[tuple[Any, Any]]:
    """The wire's stdin and stdout on private descriptors; fd 0 and 1 diverted while serving."""
    import anyio

    try:
        wire_in, wire_out = os.dup(0), os.dup(1)
    except OSError:  # no descriptors to duplicate: serve the streams in place
        yield (
            anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")),
            anyio.wrap_file(TextIOWrapper(sys.stdout.buffer, encoding="utf-8")),
        )
        return
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)
    os.close(null)
    stdin = TextIOWrapper(os.fdopen(wire_in, "rb"), encoding="utf-8", errors="replace")
    stdout = TextIOWrapper(os.fdopen(wire_out, "wb"), encoding="utf-8")
    try:
        yield anyio.wrap_file(stdin), anyio.wrap_file(stdout)
    finally:
        with suppress(OSError):
            stdout.flush()
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)


async def serve_stdio(server: Any) -> None:
    """`server.run("stdio")`, with every request line answered."""
    import anyio
    from mcp.server.stdio import stdio_server

    with _claimed() as (stdin, stdout):
        lines = _Lines(stdin)
        lines.ready = anyio.Event()
        async with stdio_server(stdin=lines, stdout=stdout) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.write_stream = write_stream
            lines.ready.set()
            lowlevel = server._lowlevel_server  # noqa: SLF001 — run_stdio_async does exactly this
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
