"""Issue 21, item 5: a target changed since the prompt, met in the session (a real pseudo-terminal).

Without a clipboard (no DISPLAY) the session prints what it would copy and reads
replies from its paste area, so these run wherever pexpect does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_session import FULL_KEYS_PASTE, ORIGINAL, Terminal, clean_env, make_project

pytest.importorskip("pexpect", reason="pexpect is needed to drive the session in a pseudo-terminal")

USER_EDIT = ORIGINAL.replace(b"return 'hi'", b"return 'hi there'")
REPLY = """\
```python
# FILE: app.py
# TARGET_NODE: function greet
def greet():
    return 'hello'
```
"""


def paste(term: Terminal, key: str, text: str, marker: str) -> str:
    term.key(key, "then press Ctrl-D (Ctrl-C cancels):")
    term.mark = len(term.log.getvalue())
    term.child.send(text)
    term.child.sendeof()
    term.wait_for(marker)
    return term.step_output()


def test_a_stale_target_says_press_r_and_f_carries_the_current_code(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    term = Terminal(root, clean_env(), "session", "app.py", "-t", "Say hello")
    try:
        term.wait_for(FULL_KEYS_PASTE)
        (root / "app.py").write_bytes(USER_EDIT)  # the user edits greet after the prompt

        shown = paste(term, "p", REPLY, "f copies a correction message for the model.")
        assert (
            "❌ `greet` changed since the prompt (lines 1–2): applying would drop your edit — "
            "press r to re-copy the prompt with the current code, or f to send the model just that code"
        ) in shown
        assert "--force" not in shown
        assert "r re-copies the prompt with the current code · f copies a correction message" in shown
        assert (root / "app.py").read_bytes() == USER_EDIT

        shown = term.key("f", "⚠ Correction printed above (1 failed block)")
        assert "The user changed this code since you saw it; write your blocks on it, as it is now:" in shown
        assert "app.py, function greet:\r\n```python\r\ndef greet():\r\n    return 'hi there'\r\n```" in shown
        assert "return 'hi there'" in shown and "def other" not in shown.split("as it is now:")[1]

        # The model has seen the current greet now: its next reply on it applies.
        shown = paste(term, "p", REPLY, "u undoes this apply.")
        assert (root / "app.py").read_bytes() == ORIGINAL.replace(b"'hi'", b"'hello'")
        term.key("q", "Bye.")
        assert term.finish() == 0
    finally:
        term.close()


def test_r_after_a_stale_target_lets_the_next_reply_apply(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    term = Terminal(root, clean_env(), "session", "app.py", "-t", "Say hello")
    try:
        term.wait_for(FULL_KEYS_PASTE)
        (root / "app.py").write_bytes(USER_EDIT)
        paste(term, "p", REPLY, "r re-copies the prompt with the current code")
        shown = term.key("r", "⚠ Prompt printed above (1 file (app.py)")
        assert "return 'hi there'" in shown
        paste(term, "p", REPLY, "u undoes this apply.")
        assert (root / "app.py").read_bytes() == ORIGINAL.replace(b"'hi'", b"'hello'")
        term.key("q", "Bye.")
        assert term.finish() == 0
    finally:
        term.close()
