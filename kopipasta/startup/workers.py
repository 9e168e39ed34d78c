"""A few threads kept for the process's life, for work that waits on the disk (issue 26).

The journal's fsyncs of one step run at once (disk/syncs.py) and what a write
made garbage is freed after the answer (journal._afterwards); a thread started
for each costs more than the work on a busy or idle machine (the start waits
until the new thread runs: 0.1-0.3 ms, twice or three times an edit). These
threads are started once, on first use, and handed work through a queue: the
hand-over does not wait for them. They are daemons, so a process never waits for
idle ones; a short run waits for the work handed to them (`drain`) before it
leaves, as it waited for the threads it started.
"""

from __future__ import annotations

import atexit
import queue
import threading
from collections.abc import Callable

_MOST = 8  # enough to overlap one step's fsyncs; more work queues behind them

_jobs: queue.SimpleQueue[tuple[Callable[[], object], threading.Event]] = queue.SimpleQueue()
_guard = threading.Lock()
_idle = threading.Condition(_guard)
_threads = 0
_waiting = 0  # threads blocked on the queue
_queued = 0  # jobs on the queue no thread has taken yet
_pending = 0  # jobs handed over and not yet finished


def submit(work: Callable[[], object]) -> threading.Event:
    """Run `work` on one of the kept threads; the Event is set once it has run (raised or not).

    A thread is started only when none is free (at most _MOST); with none to be had
    (a process at its limit), the work runs here, now.
    """
    global _threads, _pending, _queued
    done = threading.Event()
    with _guard:
        _pending += 1
        start = _waiting <= _queued and _threads < _MOST  # no thread free for it: one more
        if start:
            _threads += 1
        _queued += 1
    if start:
        try:
            threading.Thread(target=_serve, name="kopipasta-worker", daemon=True).start()
        except RuntimeError:
            with _guard:
                _threads -= 1
                _queued -= 1
            _run(work, done)
            return done
    _jobs.put((work, done))
    return done


def drain() -> None:
    """Wait until every job handed over has run (a short run, before it leaves)."""
    with _idle:
        while _pending:
            _idle.wait()


# A long run (the session, the server) ends through the ordinary exit: its work is finished first.
# A short run leaves with os._exit, which skips this: it drains before it leaves (startup/shortrun).
atexit.register(drain)


def _serve() -> None:
    global _waiting, _queued
    while True:
        with _guard:
            _waiting += 1
        work, done = _jobs.get()
        with _guard:
            _waiting -= 1
            _queued -= 1
        _run(work, done)


def _run(work: Callable[[], object], done: threading.Event) -> None:
    global _pending
    try:
        work()
    except BaseException:  # noqa: BLE001, S110 — each job reports its own failures; a worker outlives them
        pass
    finally:
        done.set()
        with _idle:
            _pending -= 1
            _idle.notify_all()
