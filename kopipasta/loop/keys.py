"""Single keys from the terminal for the session's loop, and signals that end it like Ctrl-C.

Moved out of session.py (issue 21) to keep it small; the decisions are in
docs/decisions/loop.md ("The paste area", "a burst of keys is a paste").
"""

from __future__ import annotations

import os
import select
import signal
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType

# How long to keep collecting bytes after a key: an escape sequence or a paste
# arrives in one burst, a person's next key does not.
_BURST_SECONDS = 0.05


def read_key(fd: int) -> str:
    """One key press, without Enter or echo; the terminal's mode is restored before returning.

    An escape sequence or pasted text arrives as one burst and is returned
    whole, so a paste holding a `p` never applies anything. Ctrl-C raises
    KeyboardInterrupt; "" means the terminal is gone.
    """
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd, termios.TCSANOW)
        data = os.read(fd, 1024)
        while data and select.select([fd], [], [], _BURST_SECONDS)[0]:
            more = os.read(fd, 65536)
            if not more:
                break
            data += more
    except OSError:  # the terminal went away (EIO after a hang-up)
        data = b""
    finally:
        with suppress(termios.error, OSError):  # a hung-up terminal cannot be restored, nor needs it
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    return data.decode("utf-8", "replace")


@contextmanager
def signals_exit() -> Iterator[None]:
    """SIGTERM and SIGHUP end the loop through `finally` blocks, like Ctrl-C."""

    def leave(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = {}
    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None:
            with suppress(ValueError):  # not the main thread: keep the defaults
                previous[number] = signal.signal(number, leave)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
