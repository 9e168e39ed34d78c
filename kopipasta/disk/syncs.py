"""fsyncs with no order between them, waited for together (issue 26: the write at its floor).

An apply's durability needs order between *steps* — the journal's copy and
manifest on disk before the entry is published; the entry and the new bytes
on disk before the first rename; the renames on disk before "applied" — but
none inside a step: the copy and the manifest, or the entry's folder and the
temporaries, may reach the disk in any order as long as all of them have
before the next step begins. Each fsync is mostly waiting for the device, and
the kernel releases the interpreter while it waits, so the fsyncs of one step
run on threads at once (kept ones: startup/workers.py) and the step costs about
one device round trip, not one per file. The count of fsyncs, the syscalls' order and every promise of
RELIABILITY.md are unchanged; only the waiting overlaps.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass

from kopipasta.disk import faults
from kopipasta.startup import workers

# Enough to overlap a step's device waits; a 1,000-file apply does not start 1,000 threads.
_THREADS = 8


@dataclass
class Unsynced:
    """A file written whose fsync is pending: its folder, its name, its open descriptor."""

    dir_fd: int
    name: str
    fd: int


def _fsync_all(fds: Sequence[int]) -> list[OSError | None]:
    errors: list[OSError | None] = [None] * len(fds)
    if not fds:
        return errors

    def run(first: int, step: int) -> None:
        for index in range(first, len(fds), step):
            try:
                os.fsync(fds[index])
            except OSError as error:
                errors[index] = error

    step = min(_THREADS, len(fds))
    others = [workers.submit(functools.partial(run, first, step)) for first in range(1, step)]
    run(0, step)  # this thread takes its share instead of only waiting
    for done in others:
        done.wait()
    return errors


def sync_together(files: Sequence[Unsynced], folders: Sequence[int] = ()) -> None:
    """fsync every file and folder at once, then close the files' descriptors.

    A file whose fsync fails (or whose `temporary-fsync` fault fires) is removed,
    as `beneath.write_temporary` removes its own, and the first failure is raised
    after every fsync has returned; the other files stay for the caller's cleanup.
    Interrupted (a signal, a MemoryError), every file is removed: none is known whole.
    """
    failed: list[Unsynced] = []
    first: BaseException | None = None
    try:
        for item in files:
            try:
                faults.hit("temporary-fsync", item.name)
            except OSError as error:
                failed, first = [item], error
                break
        if first is None:
            errors = _fsync_all([item.fd for item in files] + list(folders))
            failed = [item for item, error in zip(files, errors, strict=False) if error is not None]
            first = next((error for error in errors if error is not None), None)
    except BaseException:
        failed = list(files)
        raise
    finally:
        for item in files:
            os.close(item.fd)
        for item in failed:
            with suppress(OSError):
                os.unlink(item.name, dir_fd=item.dir_fd)
    if first is not None:
        raise first
