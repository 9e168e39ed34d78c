"""One call at a time, and every call answered within a time bound (issue 28, item 6).

The workbench's calls take turns (its memory and document cache are one
session's), so a call that never ends would leave every later one waiting: the
agent sees its tool hang, then its timeout, call after call. Each call runs on a
thread of its own and is waited for at most `KOPIPASTA_MCP_CALL_SECONDS` (60 by
default): past that the agent is answered — the call goes on in the background,
and says so, since an edit may still be written when it ends — and a later call
that cannot have its turn within the bound is answered "busy" rather than made
to wait. Nothing is interrupted half-way: a write is all or nothing either way.

The server awaits a turn (`run_async`) on a worker thread of the event loop's
own pool, where the SDK would run a plain tool: one hand-over per call, not a
thread started inside another (issue 26: an agent's edit costs its thread hops).
A turn's work that asks for a turn again (a tool called inside `run_async`)
runs in place: the turn is already its own.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TypeVar

CALL_SECONDS_VARIABLE = "KOPIPASTA_MCP_CALL_SECONDS"
_DEFAULT_SECONDS = 60.0

T = TypeVar("T")


def call_seconds() -> float:
    try:
        seconds = float(os.environ.get(CALL_SECONDS_VARIABLE, ""))
    except ValueError:
        return _DEFAULT_SECONDS
    return seconds if seconds > 0 else _DEFAULT_SECONDS


class Turns:
    """Calls one at a time, each waited for at most `seconds`."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds if seconds is not None else call_seconds()
        self._lock = threading.Lock()
        self._holder = threading.local()  # set on the thread running a turn's work

    def run(self, work: Callable[[], T], *, late: Callable[[float], T], busy: Callable[[float], T]) -> T:
        if getattr(self._holder, "inside", False):
            return work()
        if not self._lock.acquire(timeout=self.seconds):
            return busy(self.seconds)
        answer: list[T] = []

        def turn() -> None:
            answer.append(self._hold(work))

        thread = threading.Thread(target=turn, name="kopipasta-call", daemon=True)
        thread.start()
        thread.join(self.seconds)
        return answer[0] if answer else late(self.seconds)

    async def run_async(self, work: Callable[[], T], *, late: Callable[[float], T], busy: Callable[[float], T]) -> T:
        """`run` for an event loop: the loop is never blocked, the work runs on one of its worker threads."""
        import anyio.to_thread

        # The common case, no call running, takes the turn here; waiting for one does not block the loop.
        if not self._lock.acquire(blocking=False) and not await anyio.to_thread.run_sync(
            self._lock.acquire, True, self.seconds
        ):
            return busy(self.seconds)
        start = _Start()
        with anyio.move_on_after(self.seconds):
            # Abandoned past the bound: the work goes on, and gives the turn back when it ends.
            return await anyio.to_thread.run_sync(self._hold, work, start, abandon_on_cancel=True)
        if start.abandon():  # cancelled before a worker took it: the work never runs, the turn is free
            self._lock.release()
        return late(self.seconds)

    def if_free(self, work: Callable[[], object]) -> None:
        """Run `work` here and now if no call holds the turn; else not at all (it was optional)."""
        if self._lock.acquire(blocking=False):
            self._hold(work)

    def _hold(self, work: Callable[[], T], start: _Start | None = None) -> T:
        """Run `work` as the turn's holder (the lock is taken), and give the turn back after."""
        if start is not None and not start.begin():
            return None  # type: ignore[return-value]  # abandoned unstarted: nobody waits for this answer
        self._holder.inside = True
        try:
            return work()
        finally:
            self._holder.inside = False
            self._lock.release()


class _Start:
    """Whether a turn's work began on its worker or was abandoned first: exactly one of the two wins."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._state = ""

    def begin(self) -> bool:
        with self._guard:
            if not self._state:
                self._state = "begun"
            return self._state == "begun"

    def abandon(self) -> bool:
        with self._guard:
            if not self._state:
                self._state = "abandoned"
            return self._state == "abandoned"
