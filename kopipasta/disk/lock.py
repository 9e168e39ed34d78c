"""One writer per root: applies and undos on one project take turns.

The lock is `flock` on the root folder's own descriptor: it needs no file
(a failed apply leaves the project as it found it) and dies with its process
(a `kill -9` leaves no stale lock). A second apply waits up to
KOPIPASTA_LOCK_WAIT seconds (default 10), then refuses with one line. It is
held from before the files are read until the journal entry is complete, so
two applies never patch the same bytes.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from kopipasta.errors import PatchError

WAIT_VARIABLE = "KOPIPASTA_LOCK_WAIT"
DEFAULT_WAIT = 10.0


class Busy(PatchError):
    """Another kopipasta holds the root's lock."""


def _wait_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get(WAIT_VARIABLE, DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


@contextmanager
def hold(root_fd: int) -> Iterator[None]:
    """Hold the root's lock for the `with` body, waiting for another holder a while."""
    # A descriptor of our own (a new open file description): closing it releases the lock.
    fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=root_fd)
    try:
        wait = _wait_seconds()
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise Busy(
                        "Not applied: another kopipasta is writing to this project",
                        f"wait for it to finish and run the command again (waited {wait:g} s; "
                        f"{WAIT_VARIABLE}=<seconds> waits longer)",
                    ) from None
                time.sleep(0.02)
        yield
    finally:
        os.close(fd)
