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

When the wire is a pipe or a socket (as every agent starts a server), it is
read and written on the event loop itself (`_LoopLines`, `_LoopWriter`): the
SDK's own streams hand every line read, every write and every flush to a worker
thread, three thread hand-overs per call that an agent waits for (issue 26). A
terminal is read on the loop too (so Ctrl-C stops the server at once), without
ever being made non-blocking; a file is served as the SDK serves it.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import AsyncIterator, Callable, Iterator
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
    detail = str(error).splitlines()
    reason = next((d.strip() for d in detail[1:] if d.strip()), str(error))
    reason = reason.split(" [type=", 1)[0]
    return answer(line, reason, PARSE_ERROR if "Invalid JSON" in reason else INVALID_REQUEST)


def answer(line: str, reason: str, code: int) -> Any:
    """The JSON-RPC error `code` for `line`, carrying its id (None for a notification: no answer)."""
    import mcp_types as types

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
            if isinstance(line, _TooLong):
                error = answer(line, line.reason, INVALID_REQUEST)
            else:
                try:
                    types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                except Exception as refused:  # noqa: BLE001 — whatever the SDK refuses, the client hears of it
                    if not line.strip():
                        continue
                    error = refusal(line, refused)
                else:
                    yield line
                    continue
            if error is not None:
                await self.ready.wait()
                try:
                    await self.write_stream.send(SessionMessage(error))
                except Exception:  # noqa: BLE001 — the session is closing: nobody is left to answer
                    return


class _TooLong(str):
    """The head of a request line longer than the wire takes (its id is found in it), and why."""

    reason = ""


def _longest_line() -> int:
    """The longest request line read: eight times the reply limit (a reply sent to apply_reply, every
    character escaped in its JSON), never less than 64 MiB."""
    from kopipasta.disk.limits import reply_limit

    return max(8 * reply_limit(), 64 << 20)


class _LoopLines:
    """Lines of a pipe, socket or terminal as the SDK iterates its stdin, read on the event loop.

    Each read waits on the loop until the descriptor is readable, then reads what
    is there: the descriptor is never made non-blocking (a terminal's mode would
    outlive the server, in the shell), and Ctrl-C on a terminal reaches the loop
    at once instead of a worker thread stuck in a read. Lines decode as the SDK's
    text stream decodes them (UTF-8, errors replaced): a newline never belongs to
    a multi-byte sequence, so each line decodes as it would in the stream.
    """

    _CHUNK = 1 << 16

    def __init__(self, fd: int, longest: int | None = None) -> None:
        self.fd = fd
        self.longest = longest if longest is not None else _longest_line()
        self._pending = bytearray()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        import anyio

        searched = 0  # the pending bytes before this hold no newline: a long line is not searched again
        skipping = False  # the rest of a line past `longest`, read and dropped up to its newline
        while True:
            newline = self._pending.find(b"\n", searched)
            if newline >= 0:
                line = bytes(self._pending[: newline + 1])
                del self._pending[: newline + 1]
                searched = 0
                if skipping:
                    skipping = False
                    continue
                yield line.decode("utf-8", "replace")
                continue
            if skipping:
                self._pending.clear()
            elif len(self._pending) > self.longest:
                # Answered now from its head (which holds its id), the rest dropped as it comes.
                head = _TooLong(bytes(self._pending[:MAX_ID_SCAN]).decode("utf-8", "replace"))
                size = f"{self.longest >> 20} MiB" if self.longest >= 1 << 20 else f"{self.longest} bytes"
                head.reason = (
                    f"the request line is longer than {size} (8 times KOPIPASTA_MAX_REPLY_MB); nothing of it was read"
                )
                self._pending.clear()
                skipping = True
                yield head
            searched = len(self._pending)
            await anyio.wait_readable(self.fd)
            try:
                chunk = os.read(self.fd, self._CHUNK)
            except (BlockingIOError, InterruptedError):
                continue  # readable, then taken by no one else: a spurious wake-up
            if not chunk:
                if self._pending:
                    yield bytes(self._pending).decode("utf-8", "replace")
                return
            self._pending += chunk


class _LoopWriter:
    """A pipe or socket as the SDK writes its stdout, written on the event loop (made non-blocking
    while served): what the pipe cannot take at once waits on the loop for it to be writable."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    async def write(self, text: str) -> None:
        import anyio

        data = memoryview(text.encode("utf-8"))
        while data:
            try:
                written = os.write(self.fd, data)
            except (BlockingIOError, InterruptedError):
                await anyio.wait_writable(self.fd)
                continue
            data = data[written:]

    async def flush(self) -> None:
        """Every write went to the pipe whole: nothing is held here."""


def _kind(fd: int) -> str:
    """"pipe" (a pipe or socket), "terminal", or "" (a file, or what this anyio cannot wait on)."""
    import anyio

    if not hasattr(anyio, "wait_readable") or not hasattr(anyio, "wait_writable"):
        return ""  # anyio before 4.7: the SDK's threaded streams
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return ""
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return "pipe"
    return "terminal" if stat.S_ISCHR(mode) and os.isatty(fd) else ""


def _same_file(one: int, other: int) -> bool:
    """Whether two descriptors are one pipe (stdout and stderr merged: stderr's writes must not
    meet a non-blocking descriptor)."""
    try:
        first, second = os.fstat(one), os.fstat(other)
    except OSError:
        return True
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


@contextmanager
def _served(wire_in: int, wire_out: int) -> Iterator[tuple[Any, Any]]:
    """The wire's two descriptors as the SDK's streams: read on the loop from a pipe or a terminal,
    written on the loop to a pipe of its own; a file (or a terminal's output) as the SDK serves it."""
    import anyio

    if _kind(wire_in):
        reader: Any = _LoopLines(wire_in)
    else:
        reader = anyio.wrap_file(TextIOWrapper(os.fdopen(wire_in, "rb", closefd=False), encoding="utf-8", errors="replace"))
    if _kind(wire_out) == "pipe" and not _same_file(wire_out, 2):
        blocking = os.get_blocking(wire_out)
        os.set_blocking(wire_out, False)
        try:
            yield reader, _LoopWriter(wire_out)
        finally:
            with suppress(OSError):
                os.set_blocking(wire_out, blocking)
        return
    stdout = TextIOWrapper(os.fdopen(wire_out, "wb", closefd=False), encoding="utf-8")
    try:
        yield reader, anyio.wrap_file(stdout)
    finally:
        with suppress(OSError, ValueError):
            stdout.flush()


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
    try:
        with _served(wire_in, wire_out) as streams:
            yield streams
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)


def peer_gone(error: BaseException) -> bool:
    """Whether `error` (an exception group of the server's tasks, perhaps) says only that the client
    closed its end of the wire: a broken pipe or a reset connection, nothing else."""
    if isinstance(error, (BrokenPipeError, ConnectionResetError)):
        return True
    inner = getattr(error, "exceptions", None)
    return isinstance(inner, tuple) and bool(inner) and all(peer_gone(each) for each in inner)


class _Answered:
    """stdout as the SDK writes it, with `after` run once each answer is out (on the loop, between calls)."""

    def __init__(self, stdout: Any, after: Callable[[], None]) -> None:
        self.stdout = stdout
        self.after = after

    async def write(self, text: str) -> None:
        await self.stdout.write(text)

    async def flush(self) -> None:
        await self.stdout.flush()
        self.after()


async def serve_stdio(server: Any, after_answer: Callable[[], None] | None = None) -> None:
    """`server.run("stdio")`, with every request line answered; `after_answer`, when given, runs after
    each answer is written (work the next call would otherwise wait for, done while the agent reads)."""
    import anyio
    from mcp.server.stdio import stdio_server

    with _claimed() as (stdin, stdout):
        if after_answer is not None:
            stdout = _Answered(stdout, after_answer)
        lines = _Lines(stdin)
        lines.ready = anyio.Event()
        async with stdio_server(stdin=lines, stdout=stdout) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.write_stream = write_stream
            lines.ready.set()
            lowlevel = server._lowlevel_server  # noqa: SLF001 — run_stdio_async does exactly this
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
