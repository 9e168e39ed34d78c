"""The MCP server's wire and turns, in process: a pipe read and written on the event loop (issue 26)
reads exactly the lines the SDK's own text stream would, writes every byte whatever the pipe takes at
once, leaves the descriptors as it found them; a call's turn is answered late or busy within its bound.

The real server over stdio (tests/test_mcp_server.py, test_mcp_agents.py, test_mcp_hostile.py) runs
these same paths end to end; here each case is one a client cannot easily provoke.
"""

from __future__ import annotations

import io
import os
import random
import threading
import time
from pathlib import Path

import pytest

anyio = pytest.importorskip("anyio")
pytest.importorskip("mcp")

from kopipasta.agents import wire  # noqa: E402
from kopipasta.agents.turns import Turns  # noqa: E402


def _read_lines(data: bytes, *, pieces: list[int]) -> list[str]:
    """The lines `wire._LoopLines` reads from a pipe fed `data` in pieces of the given sizes."""
    read_end, write_end = os.pipe()

    def feed() -> None:
        at = 0
        for size in pieces:
            os.write(write_end, data[at : at + size])
            at += size
            time.sleep(0.001)  # the reader meets an empty pipe between pieces
        os.write(write_end, data[at:])
        os.close(write_end)

    async def main() -> list[str]:
        return [line async for line in wire._LoopLines(read_end)]

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        return anyio.run(main)
    finally:
        feeder.join()
        os.close(read_end)


def _as_text_stream(data: bytes) -> list[str]:
    """What the SDK's own stdin stream (UTF-8, errors replaced) yields for the same bytes."""
    return list(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace"))


@pytest.mark.parametrize("seed", range(6))
def test_a_pipe_read_on_the_loop_yields_the_lines_the_text_stream_would(seed: int) -> None:
    rng = random.Random(seed)
    parts = [
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
        b'{"text":"' + "é€😀".encode() * rng.randint(1, 40_000) + b'"}\n',  # past one read's 64 KiB
        b"\xff\xfe not UTF-8 \xc3\n",
        b"\n",
        b'{"unterminated": "' + b"x" * rng.randint(0, 5) + b'"}',  # the last line, without its newline
    ]
    data = b"".join(rng.sample(parts[:-1], len(parts) - 1)) + parts[-1]
    cuts = [rng.randint(1, 70_000) for _ in range(rng.randint(1, 8))]
    assert _read_lines(data, pieces=cuts) == _as_text_stream(data)


def test_a_pipe_written_on_the_loop_delivers_every_byte_when_the_reader_is_slow() -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    texts = [f"{n:06d} " + "é" * 50_000 + "\n" for n in range(12)]  # far more than a pipe holds
    received = bytearray()

    def drain() -> None:
        while chunk := os.read(read_end, 7_000):
            received.extend(chunk)
            time.sleep(0.0005)

    async def main() -> None:
        pipe = wire._LoopWriter(write_end)
        for text in texts:
            await pipe.write(text)
            await pipe.flush()

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        anyio.run(main)
    finally:
        os.close(write_end)
        reader.join()
        os.close(read_end)
    assert received.decode() == "".join(texts)


def test_the_wire_is_served_on_the_loop_only_for_pipes_and_terminals_and_left_as_it_was(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    other_read, other_write = os.pipe()
    try:
        with wire._served(read_end, other_write) as (stdin, stdout):
            assert isinstance(stdin, wire._LoopLines) and isinstance(stdout, wire._LoopWriter)
            assert os.get_blocking(read_end)  # read after a wait for readability: never made non-blocking
            assert not os.get_blocking(other_write)
        assert os.get_blocking(other_write)  # as the server found it
        # A file is served as the SDK serves it, its descriptor never made non-blocking.
        requests = tmp_path / "requests.jsonl"
        requests.write_text('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        with open(requests, "rb") as handle, wire._served(handle.fileno(), other_write) as (stdin, stdout):
            assert not isinstance(stdin, wire._LoopLines) and isinstance(stdout, wire._LoopWriter)
            assert os.get_blocking(handle.fileno())
        # stdout merged into stderr (one pipe): stderr's writes must never meet a non-blocking pipe.
        saved = os.dup(2)
        try:
            os.dup2(other_write, 2)
            with wire._served(read_end, other_write) as (stdin, stdout):
                assert not isinstance(stdout, wire._LoopWriter)
                assert os.get_blocking(other_write)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
    finally:
        for fd in (read_end, write_end, other_read, other_write):
            os.close(fd)


def test_a_terminal_is_read_on_the_loop_and_left_blocking() -> None:
    """A person running `kopipasta mcp` in a terminal: lines typed are read on the loop (Ctrl-C
    reaches it at once), and the terminal's mode is never touched; its output is the SDK's."""
    import pty

    controller, terminal = pty.openpty()
    try:
        with wire._served(terminal, terminal) as (stdin, stdout):
            assert isinstance(stdin, wire._LoopLines) and not isinstance(stdout, wire._LoopWriter)
            os.write(controller, b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')

            async def first() -> str:
                async for line in stdin:
                    return line
                return ""

            assert anyio.run(first) == '{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
            assert os.get_blocking(terminal)
    finally:
        os.close(controller)
        os.close(terminal)


def _late(seconds: float) -> str:
    return f"late {seconds:g}"


def _busy(seconds: float) -> str:
    return f"busy {seconds:g}"


def test_a_turn_awaited_on_the_loop_is_answered_late_then_busy_then_given_back() -> None:
    turns = Turns(seconds=0.2)
    release = threading.Event()
    ran: list[str] = []

    def slow() -> str:
        release.wait(10)
        ran.append("slow")
        return "slow done"

    async def main() -> list[str]:
        answers = [await turns.run_async(slow, late=_late, busy=_busy)]  # past the bound: answered, still running
        answers.append(await turns.run_async(lambda: "second", late=_late, busy=_busy))  # cannot have its turn
        release.set()
        with anyio.fail_after(10):
            while not ran:
                await anyio.sleep(0.01)
        answers.append(await turns.run_async(lambda: "third", late=_late, busy=_busy))  # the turn is back
        # A tool called inside a turn (the server's tools are the workbench's) runs in place.
        answers.append(await turns.run_async(lambda: turns.run(lambda: "nested", late=_late, busy=_busy),
                                             late=_late, busy=_busy))
        return answers

    assert anyio.run(main) == ["late 0.2", "busy 0.2", "third", "nested"]
    assert ran == ["slow"]


def test_a_request_line_past_the_bound_is_answered_from_its_head_and_the_rest_dropped() -> None:
    """A line longer than the wire takes (8 times the reply limit, at least 64 MiB; 1,000 bytes here)
    is not held whole: its head is answered with an error carrying its id, the rest of it is read and
    dropped up to its newline, and the next line is read as usual."""
    huge = '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"apply_reply","arguments":{"text":"' + "x" * 300_000 + '"}}}\n'
    ping = '{"jsonrpc":"2.0","id":10,"method":"ping"}\n'
    read_end, write_end = os.pipe()

    def feed() -> None:
        for piece in (huge[:70_000], huge[70_000:], ping):
            os.write(write_end, piece.encode())
            time.sleep(0.001)
        os.close(write_end)

    async def main() -> list[str]:
        return [line async for line in wire._LoopLines(read_end, longest=1000)]

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        lines = anyio.run(main)
    finally:
        feeder.join()
        os.close(read_end)
    assert len(lines) == 2 and lines[1] == ping
    head = lines[0]
    assert isinstance(head, wire._TooLong) and huge.startswith(head)
    answer = wire.answer(head, head.reason, wire.INVALID_REQUEST)  # as _Lines answers it
    assert answer.id == 9 and answer.error.code == wire.INVALID_REQUEST
    assert answer.error.message == "Invalid request: " + head.reason
    assert head.reason.startswith("the request line is longer than 1000 bytes")
