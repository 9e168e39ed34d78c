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
import threading
from collections import deque
from collections.abc import Callable

_MOST = 8  # enough to overlap one step's fsyncs; more work queues behind them

_guard = threading.Lock()
_job_ready = threading.Condition(_guard)  # a job was queued (a waiting thread takes it)
_all_done = threading.Condition(_guard)  # a job finished (drain looks again)
_jobs: deque[tuple[Callable[[], object], threading.Event]] = deque()
_threads = 0
_waiting = 0  # threads waiting for a job
_pending = 0  # jobs handed over and not yet finished


def submit(work: Callable[[], object]) -> threading.Event:
    """Run `work` on one of the kept threads; the Event is set once it has run (raised or not).

    A thread is started only when none is waiting for work (at most _MOST); with none
    to be had (a process at its limit), the work runs here, now.
    """
    global _threads, _pending
    done = threading.Event()
    with _guard:
        _pending += 1
        start = _waiting <= len(_jobs) and _threads < _MOST  # every waiting thread has a job already
        if start:
            _threads += 1
        _jobs.append((work, done))
        _job_ready.notify()
    if start:
        try:
            threading.Thread(target=_serve, name="kopipasta-worker", daemon=True).start()
        except RuntimeError:
            with _guard:
                _threads -= 1
                taken = (work, done) in _jobs
                if taken:
                    _jobs.remove((work, done))
            if taken:
                _run(work, done)
    return done


def drain() -> None:
    """Wait until every job handed over has run (a short run, before it leaves)."""
    with _all_done:
        while _pending:
            _all_done.wait()


# A long run (the session, the server) ends through the ordinary exit: its work is finished first.
# A short run leaves with os._exit, which skips this: it drains before it leaves (startup/shortrun).
atexit.register(drain)


def _serve() -> None:
    global _waiting
    while True:
        with _guard:
            while not _jobs:
                _waiting += 1
                _job_ready.wait()
                _waiting -= 1
            work, done = _jobs.popleft()
        _run(work, done)


def _run(work: Callable[[], object], done: threading.Event) -> None:
    global _pending
    try:
        work()
    except BaseException:  # noqa: BLE001, S110 — each job reports its own failures; a worker outlives them
        pass
    finally:
        done.set()
        with _all_done:
            _pending -= 1
            _all_done.notify_all()
