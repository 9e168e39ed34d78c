"""One call at a time, and every call answered within a time bound (issue 28, item 6).

The workbench's calls take turns (its memory and document cache are one
session's), so a call that never ends would leave every later one waiting: the
agent sees its tool hang, then its timeout, call after call. Each call runs on a
thread of its own and is waited for at most `KOPIPASTA_MCP_CALL_SECONDS` (60 by
default): past that the agent is answered — the call goes on in the background,
and says so, since an edit may still be written when it ends — and a later call
that cannot have its turn within the bound is answered "busy" rather than made
to wait. Nothing is interrupted half-way: a write is all or nothing either way.
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

    def run(self, work: Callable[[], T], *, late: Callable[[float], T], busy: Callable[[float], T]) -> T:
        if not self._lock.acquire(timeout=self.seconds):
            return busy(self.seconds)
        answer: list[T] = []

        def turn() -> None:
            try:
                answer.append(work())
            finally:
                self._lock.release()

        thread = threading.Thread(target=turn, name="kopipasta-call", daemon=True)
        thread.start()
        thread.join(self.seconds)
        return answer[0] if answer else late(self.seconds)
