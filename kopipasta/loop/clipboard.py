"""The system clipboard, through pyperclip, with one-line reasons when there is none.

Over SSH, or on a headless Linux box without xclip, xsel or wl-clipboard,
pyperclip has no mechanism and raises. Callers fall back (print the prompt,
read a pasted reply) and tell the user once why, in the reason given here.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import IO

_INSTALL = "install xclip or xsel (X11) or wl-clipboard (Wayland)"


class ClipboardUnavailable(Exception):
    """No usable clipboard; `reason` is one line saying why and what to install."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def copy_text(text: str) -> str | None:
    """Put `text` on the clipboard: None when it is there, else the one-line reason."""
    import pyperclip

    try:
        with _detached_output():
            pyperclip.copy(text)
    except pyperclip.PyperclipException as error:
        return _reason(error)
    except Exception as error:  # noqa: BLE001 — a failing clipboard tool must never be a traceback
        return f"the clipboard tool failed ({type(error).__name__}: {error})"
    # xclip and xsel exit quietly when the display is unreachable: read the text back. Their
    # forked child claims the selection a moment after the copy returns, later on a loaded
    # machine: a read-back that comes first sees the old text, so it is asked again, briefly.
    import time

    for delay in _READ_BACK_DELAYS:
        try:
            held = pyperclip.paste()
        except Exception:  # noqa: BLE001 — copying worked as far as we can tell
            return None
        if _normal(held) == _normal(text):
            return None
        time.sleep(delay)
    return f"the clipboard did not keep the text (is the display reachable?); {_INSTALL} if missing"


# Pauses between read-backs of a copy (seconds, about 1.5 in all): a display that is not
# reachable costs this once, when the prompt is copied.
_READ_BACK_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.75, 0)


def paste_text() -> str:
    """The clipboard's text ("" when empty); raises ClipboardUnavailable when there is none."""
    import pyperclip

    try:
        text = pyperclip.paste()
    except pyperclip.PyperclipException as error:
        raise ClipboardUnavailable(_reason(error)) from None
    except Exception as error:  # noqa: BLE001 — a failing clipboard tool must never be a traceback
        raise ClipboardUnavailable(f"the clipboard tool failed ({type(error).__name__}: {error})") from None
    return text if isinstance(text, str) else ""


@contextlib.contextmanager
def _detached_output() -> Iterator[None]:
    """Run with stdout and stderr on /dev/null at the file-descriptor level.

    xclip, xsel and wl-copy fork a child that keeps serving the clipboard and
    inherits our stdout and stderr: `kopipasta prompt | cat`, or any caller
    reading our output to the end, would wait until something else is copied.
    Their own error lines are noise too, since the read-back says what failed.
    """
    if os.name != "posix" or sys.platform == "darwin":
        yield
        return
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    saved: list[int] = []
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        yield
        return
    try:
        for fd in (1, 2):
            try:
                saved.append(os.dup(fd))
            except OSError:
                saved.append(-1)
                continue
            os.dup2(devnull, fd)
        yield
    finally:
        for fd, copy in zip((1, 2), saved, strict=False):  # shorter if dup failed midway
            if copy >= 0:
                os.dup2(copy, fd)
                os.close(copy)
        os.close(devnull)


def _normal(text: str) -> str:
    # Some tools add a final newline or turn line endings into the platform's.
    return text.replace("\r\n", "\n").strip()


def _reason(error: Exception) -> str:
    if sys.platform.startswith("linux"):
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            return (
                "no clipboard (no graphical session: DISPLAY and WAYLAND_DISPLAY are unset, "
                f"e.g. over SSH); on a desktop, {_INSTALL}"
            )
        return f"no clipboard tool found; {_INSTALL}"
    first = str(error).split("\n", 1)[0].split(". ", 1)[0]
    return f"no clipboard ({first})" if first else "no clipboard mechanism found"


# --- OSC 52: the terminal's own clipboard ---------------------------------------------

# Terminals cap the sequence (xterm ~100 kB by default); a larger prompt is printed instead.
OSC52_LIMIT = 100_000


def copy_osc52(text: str, stream: IO[str]) -> bool:
    """Ask the terminal on `stream` to put `text` on the clipboard (OSC 52); False when it cannot be tried.

    Over SSH there is no clipboard tool, but the terminal in front of the user
    (and tmux with `set-clipboard on`) takes this escape sequence. Nothing
    confirms it arrived, so callers say what they did and how to print instead.
    """
    import base64

    try:
        if not stream.isatty():
            return False
    except (ValueError, AttributeError):
        return False
    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
    if len(encoded) > OSC52_LIMIT:
        return False
    stream.write(f"\x1b]52;c;{encoded}\x07")
    stream.flush()
    return True


def osc52_note() -> str:
    """What to tell the user after an OSC 52 copy."""
    where = " (in tmux: set -g set-clipboard on)" if os.environ.get("TMUX") else ""
    return f"also sent as OSC 52, which many terminals copy{where}"
