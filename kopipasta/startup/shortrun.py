"""The cyclic garbage collector's pace for a short command-line run (issue 9).

A one-block apply allocates ~17k tracked objects, nearly all of them modules,
classes and functions that live until exit; with the default gen-0 threshold
(700) the collector runs ~25 times during start-up and finds nothing to free
(~3-5 ms of a ~85 ms run). A threshold of 50,000 lets a short run finish with
no collection or one, while a long one (a 100k-line file) still collects, every
50,000 net allocations: cycles are freed late, never kept. Measured on the
100k-line bench file: the same peak memory (131 MiB) and ~3% less CPU.
The interactive session is long-running and goes back to the defaults.

A short run also leaves without tearing the interpreter down (`leave`): once
the command has finished (files written and fsynced, the report printed), the
exit status is all that is left to give, and freeing every module, class and
parse tree one by one costs ~5-15 ms of a one-block apply and ~35 ms after a
100k-line file. stdout and stderr are flushed first, and the work handed to
kept threads (startup/workers.py) is waited for; the one atexit handler
kopipasta registers (that same wait, for the ordinary exit) is not needed then.
The session keeps the ordinary exit.

For the same reason the engine hands its file versions to `keep_until_exit`:
in a short run they are not freed when the apply returns either (a 20k-line
file's trees take ~7 ms to free, for nothing, just before `leave`). In the
session, and wherever the engine runs in-process (tests), it keeps nothing.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import NoReturn

SHORT_RUN_THRESHOLD = 50_000
_DEFAULT_THRESHOLDS = gc.get_threshold()
_long_run = False
_short_run = False
_kept: list[object] = []  # what a short run holds until it leaves (keep_until_exit)


def pace_for_a_short_run() -> None:
    global _short_run
    _short_run = True
    gc.set_threshold(SHORT_RUN_THRESHOLD, *_DEFAULT_THRESHOLDS[1:])


def pace_for_a_long_run() -> None:
    global _long_run, _short_run
    _long_run = True
    _short_run = False
    _kept.clear()
    gc.set_threshold(*_DEFAULT_THRESHOLDS)


def keep_until_exit(value: object) -> None:
    """In a short run, hold `value` until the process leaves: freeing it before is wasted work."""
    if _short_run:
        _kept.append(value)


def leave(done: SystemExit) -> NoReturn:
    """End a finished short run with its status, skipping the interpreter's teardown."""
    status = done.code
    if _long_run or not (status is None or isinstance(status, int)):
        raise done  # the session, or a message as the status: the ordinary exit
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        raise done from None  # output that cannot be flushed: let the ordinary exit report it
    _join_threads()
    os._exit(status or 0)


def _join_threads() -> None:
    """Wait for work left on threads (the journal freeing what a write made garbage), as the
    ordinary exit would: the report is already out when they do."""
    workers = sys.modules.get("kopipasta.startup.workers")
    if workers is not None:
        workers.drain()  # the kept threads are daemons: their work is waited for here
    threading = sys.modules.get("threading")
    if threading is None:
        return
    current = threading.current_thread()
    for thread in threading.enumerate():
        if thread is not current and not thread.daemon:
            thread.join()
