"""Test hooks: make a write fail, or the process die, at a chosen point.

`KOPIPASTA_FAULT=<point>:<action>[:<n>]` (several separated by `,`) acts the
`n`th time (default the first) the code passes `<point>`. Actions: `kill`
(SIGKILL to ourselves: a real `kill -9`, nothing cleaned up), `enospc`,
`erofs`, `eio`, `edquot` (raise that OSError), `nomem` (MemoryError), `pause` (wait until the file named by
`KOPIPASTA_FAULT_RESUME` exists, for races driven by a second process).
Without the variable every hook is one dictionary lookup.
"""

from __future__ import annotations

import errno
import os
import time

_ERRORS = {"enospc": errno.ENOSPC, "erofs": errno.EROFS, "eio": errno.EIO, "edquot": errno.EDQUOT}
_seen: dict[str, int] = {}


def _plan() -> dict[str, tuple[str, int]]:
    spec = os.environ.get("KOPIPASTA_FAULT", "")
    plan: dict[str, tuple[str, int]] = {}
    for item in filter(None, spec.split(",")):
        point, _, rest = item.partition(":")
        action, _, count = rest.partition(":")
        plan[point] = (action or "kill", int(count) if count.isdigit() else 1)
    return plan


def hit(point: str, filename: str | None = None) -> None:
    """Act on `point` if KOPIPASTA_FAULT names it; otherwise do nothing."""
    if "KOPIPASTA_FAULT" not in os.environ:
        return
    wanted = _plan().get(point)
    if wanted is None:
        return
    _seen[point] = _seen.get(point, 0) + 1
    action, count = wanted
    if _seen[point] != count:
        return
    if action == "kill":
        import signal  # only a test's kill pays for it

        os.kill(os.getpid(), signal.SIGKILL)
    elif action == "pause":
        resume = os.environ.get("KOPIPASTA_FAULT_RESUME", "")
        if resume:
            with open(resume + ".paused", "w"):
                pass  # tells the driving test that we are waiting
        deadline = time.monotonic() + 30
        while resume and not os.path.exists(resume) and time.monotonic() < deadline:
            time.sleep(0.005)
    elif action == "nomem":
        raise MemoryError()
    elif action in _ERRORS:
        code = _ERRORS[action]
        raise OSError(code, os.strerror(code), filename)
