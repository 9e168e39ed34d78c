"""`kopipasta session` as a user meets it: a real pseudo-terminal and a real X clipboard.

The end-to-end test starts its own Xvfb on a free display, runs the session
under pexpect against a scratch project, puts replies on the clipboard with
xclip, and asserts the files' bytes after each key. Every wait is for a marker
the session prints, with timeouts generous enough for a slow shared machine.
"""

from __future__ import annotations

import base64
import json
import os
import re
import select
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from cli_process import kopipasta

pexpect = pytest.importorskip("pexpect", reason="pexpect is needed to drive the session in a pseudo-terminal")

TIMEOUT = 120  # seconds per expected marker: a cold start parses grammars on a busy machine
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")

FULL_KEYS = "Keys: p apply the clipboard · d dry run · u undo · r re-copy the prompt · q quit"
FULL_KEYS_PASTE = "Keys: p paste a reply and apply it · d dry run · u undo · r re-copy the prompt · q quit"

ORIGINAL = b"def greet():\n    return 'hi'\n\n\ndef other():\n    return 0\n"
PATCHED = b"def greet():\n    return 'hello'\n\n\ndef other():\n    return 0\n"

REPLY = """\
Here is the change.

```python
# FILE: app.py
# TARGET_NODE: function greet
def greet():
    return 'hello'
```

```python
# FILE: lib/new.py
VALUE = 1
```
"""


# --- helpers -------------------------------------------------------------------------


def make_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir(parents=True)
    (root / "app.py").write_bytes(ORIGINAL)
    return root


class Terminal:
    """A session running in a pseudo-terminal, between two `stty -g` snapshots."""

    def __init__(self, root: Path, env: dict[str, str], *args: str) -> None:
        self.stty_before = root.parent / "stty-before.txt"
        self.stty_after = root.parent / "stty-after.txt"
        command = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "kopipasta", *args))
        # `trap : INT`: Ctrl-C reaches the whole foreground group; the shell must outlive it
        # to take the second snapshot (a trap with a command is not inherited, unlike '').
        script = (
            f"trap : INT; stty -g > {shlex.quote(str(self.stty_before))}; {command}; status=$?; "
            f"stty -g > {shlex.quote(str(self.stty_after))}; echo \"EXIT=$status\"; echo STTY-DONE"
        )
        self.log = StringIO()
        self.child = pexpect.spawn(
            "/bin/sh", ["-c", script], cwd=str(root), env=env,
            encoding="utf-8", codec_errors="replace", timeout=TIMEOUT, dimensions=(60, 220),
        )
        self.child.logfile_read = self.log
        self.mark = 0  # where in the log the current step's output starts

    def wait_for(self, text: str) -> None:
        try:
            self.child.expect_exact(text)
        except (pexpect.TIMEOUT, pexpect.EOF) as error:
            raise AssertionError(f"{text!r} never appeared; the terminal showed:\n{self.output()}") from error

    def key(self, key: str, marker: str) -> str:
        """Press a key, wait for `marker`, return what was printed meanwhile (ANSI codes removed)."""
        self.mark = len(self.log.getvalue())
        self.child.send(key)
        self.wait_for(marker)
        return self.step_output()

    def step_output(self) -> str:
        return ANSI.sub("", self.log.getvalue()[self.mark :])

    def output(self) -> str:
        return ANSI.sub("", self.log.getvalue())

    def finish(self) -> int:
        """Wait for the session to end; assert the terminal's mode is as it was; return its status."""
        self.wait_for("STTY-DONE")
        match = re.search(r"EXIT=(\d+)", self.output())
        assert match, self.output()
        self.child.wait()
        assert self.stty_after.read_text() == self.stty_before.read_text(), "terminal mode not restored"
        assert "Traceback" not in self.output(), self.output()
        return int(match.group(1))

    def close(self) -> None:
        self.child.close(force=True)


def clean_env(**extra: str) -> dict[str, str]:
    # COLUMNS/LINES: pytest-xdist's workers carry COLUMNS=80, LINES=24, which rich would take over
    # the pseudo-terminal's own size (a 90-column row wrapped, the test failing only under -n).
    dropped = ("DISPLAY", "WAYLAND_DISPLAY", "NO_COLOR", "COLUMNS", "LINES")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(TERM="xterm-256color", PYTHONIOENCODING="utf-8", LC_ALL="C.UTF-8", **extra)
    return env


# --- a real X clipboard ------------------------------------------------------------------


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private Xvfb display for the module; skipped where Xvfb or xclip is not installed."""
    missing = [tool for tool in ("Xvfb", "xclip") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (apt-get install xvfb xclip); the real-clipboard test needs them")
    read_end, write_end = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-screen", "0", "640x480x24"],
        pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write_end)
    number = b""
    deadline = time.monotonic() + TIMEOUT
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        if select.select([read_end], [], [], 1)[0]:
            chunk = os.read(read_end, 16)
            if not chunk:
                break
            number += chunk
    os.close(read_end)
    if not number.strip().isdigit():
        server.kill()
        pytest.fail(f"Xvfb did not report a display (exit {server.poll()})")
    try:
        yield f":{number.decode().strip()}"
    finally:
        server.terminate()  # the xclip processes serving selections end with their server
        server.wait(timeout=30)


def xclip(display: str, *args: str, text: str | None = None) -> str:
    result = subprocess.run(
        ["xclip", "-selection", "clipboard", *args],
        input=text, capture_output=text is None, text=True, timeout=TIMEOUT,
        env={**os.environ, "DISPLAY": display},
        # xclip -i forks an owner that keeps serving the selection: it must not hold our pipes.
        stdout=subprocess.DEVNULL if text is not None else None,
        stderr=subprocess.DEVNULL if text is not None else None,
    )
    return result.stdout if text is None else ""


def put_on_clipboard(display: str, text: str) -> None:
    xclip(display, "-i", text=text)
    deadline = time.monotonic() + TIMEOUT
    while xclip(display, "-o") != text:
        assert time.monotonic() < deadline, "xclip never held the text"
        time.sleep(0.1)


# --- the tests ---------------------------------------------------------------------


def test_session_p_report_u_q_with_a_real_clipboard(tmp_path: Path, display: str) -> None:
    root = make_project(tmp_path)
    term = Terminal(root, clean_env(DISPLAY=display), "session", "app.py", "-t", "Say hello")
    try:
        term.wait_for("📋 Prompt copied: 1 file (app.py)")
        term.wait_for("Keys: p apply")
        prompt = xclip(display, "-o")
        assert "Say hello" in prompt and "def greet():" in prompt and "app.py" in prompt

        # The prompt is still on the clipboard: p must not apply its example blocks.
        shown = term.key("p", "The clipboard still holds the prompt")
        assert (root / "app.py").read_bytes() == ORIGINAL

        put_on_clipboard(display, REPLY)
        shown = term.key("p", "u undoes this apply.")
        assert (root / "app.py").read_bytes() == PATCHED
        assert (root / "lib/new.py").read_bytes() == b"VALUE = 1\n"
        assert re.search(r"app\.py\s+function greet\s+✅ applied\s+\+1 -1", shown), shown
        assert re.search(r"lib/new\.py\s+whole file\s+✅ applied", shown), shown
        assert "-    return 'hi'" in shown and "+    return 'hello'" in shown, shown
        assert "2 applied. 2 files written." in shown

        shown = term.key("p", "＝ Already applied: all 2 patches are already in place; nothing written.")
        assert (root / "app.py").read_bytes() == PATCHED

        put_on_clipboard(display, "Sure! Just rename it.\n")
        term.key("p", "❌ No patch on the clipboard (the reply holds no code blocks)")
        put_on_clipboard(display, "  \n")
        term.key("p", "The clipboard is empty")

        shown = term.key("u", "↩ Undone: restored app.py; removed lib/new.py (nothing more to undo).")
        assert (root / "app.py").read_bytes() == ORIGINAL
        assert not (root / "lib").exists()

        term.key("x", FULL_KEYS)
        term.key("q", "Bye.")
        assert term.finish() == 0
    finally:
        term.close()


MIXED_REPLY = """\
```python
# FILE: app.py
# TARGET_NODE: function greet
def greet():
    return 'hello'
```

```python
# FILE: app.py
# TARGET_NODE: function gret_all
def gret_all():
    return 1
```
"""


def test_after_a_failure_f_copies_a_correction_and_w_keeps_what_worked(tmp_path: Path, display: str) -> None:
    root = make_project(tmp_path)
    (root / "lib").mkdir()
    (root / "lib" / "util.py").write_text("def helper():\n    return 1\n")
    (root / "lib" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    # Files and a directory straight after `kopipasta`, as the original kopipasta takes them.
    term = Terminal(root, clean_env(DISPLAY=display), "app.py", "lib/", "-t", "Say hello")
    try:
        term.wait_for("📋 Prompt copied: 2 files (app.py, lib/util.py)")
        term.wait_for(FULL_KEYS)
        prompt = xclip(display, "-o")
        assert "## lib/util.py" in prompt and "logo.png" not in prompt
        assert "No task given" not in term.output()

        put_on_clipboard(display, MIXED_REPLY)
        shown = term.key("d", "Nothing written · f copies a correction message for the model · w writes the 1 block that succeeded.")
        assert "✅ would apply" not in shown  # held back by the failure: skipped, not "would apply"

        shown = term.key("p", "w writes the 1 block that succeeded.")
        assert "❌ `gret_all` not found in app.py" in shown
        assert "1 skipped, 1 failed. nothing written." in shown
        assert (root / "app.py").read_bytes() == ORIGINAL

        shown = term.key("f", "📋 Correction copied (1 failed block)")
        correction = xclip(display, "-o")
        assert "- block 2 (FILE: app.py, TARGET_NODE: function gret_all): `gret_all` not found" in correction
        assert "- block 1 (FILE: app.py, TARGET_NODE: function greet)" in correction
        assert "- app.py: function greet, function other" in correction
        assert "Resend only these blocks" in correction
        # p before the model answered: the correction is still on the clipboard, nothing is applied.
        term.key("p", "The clipboard still holds the correction message")

        shown = term.key("w", "u undoes this apply. f copies a correction for the blocks that failed.")
        assert "✅ applied  +1 -1  written without failed block 2 (--partial)" in shown
        assert "1 applied, 1 failed. 1 file written." in shown
        assert (root / "app.py").read_bytes() == PATCHED
        term.key("w", "Nothing held back")

        term.key("u", "↩ Undone: restored app.py")
        assert (root / "app.py").read_bytes() == ORIGINAL
        term.key("q", "Bye.")
        assert term.finish() == 0
        log = [json.loads(line) for line in (root / ".kopipasta" / "log.jsonl").read_text().splitlines()]
        assert [(e["event"], e.get("partial")) for e in log] == [("apply", False), ("apply", True), ("undo", None)]
    finally:
        term.close()


def test_session_d_dry_run_and_r_recopy(tmp_path: Path, display: str) -> None:
    root = make_project(tmp_path)
    term = Terminal(root, clean_env(DISPLAY=display), "session", "app.py")
    try:
        term.wait_for("Keys: p apply")
        put_on_clipboard(display, REPLY)
        shown = term.key("d", "Nothing written. p applies this reply (it is still on the clipboard).")
        assert "dry run: 2 files would change, nothing written." in shown
        assert re.search(r"app\.py\s+function greet\s+✅ would apply\s+\+1 -1", shown), shown
        assert "+    return 'hello'" in shown
        assert (root / "app.py").read_bytes() == ORIGINAL
        assert not (root / "lib").exists()

        (root / "app.py").write_bytes(ORIGINAL.replace(b"'hi'", b"'edited meanwhile'"))
        term.key("r", "📋 Prompt re-copied: 1 file (app.py)")
        assert "'edited meanwhile'" in xclip(display, "-o")
        term.key("q", "Bye.")
        assert term.finish() == 0
    finally:
        term.close()


def test_paste_area_without_a_clipboard(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    term = Terminal(root, clean_env(), "session", "app.py")
    try:
        term.wait_for("⚠ Prompt printed above (1 file (app.py), ≈")
        assert "def greet():" in term.output(), "the prompt is printed where it cannot be copied"
        assert "no graphical session" in term.output()
        # Over SSH the terminal may still take the prompt: the OSC 52 sequence carries it, base64.
        prompt = term.output().split("\x1b]52;c;")[0]
        encoded = base64.b64encode(prompt[prompt.index("You will change"):].replace("\r\n", "\n").encode()).decode()
        assert f"\x1b]52;c;{encoded}\x07" in term.log.getvalue()
        assert "also sent as OSC 52, which many terminals copy" in term.output()
        # No -t: said once, before the keys, which do not offer a clipboard there is not.
        term.wait_for(FULL_KEYS_PASTE)
        assert term.output().count("No task given (-t): the prompt ends with an empty task") == 1

        shown = term.key("p", "then press Ctrl-D (Ctrl-C cancels):")
        assert "⚠ No clipboard (as above): paste replies here instead." in shown
        assert "▶ p: applying the reply pasted here" in shown
        assert "on the clipboard" not in shown
        term.mark = len(term.log.getvalue())
        # The reply's last line has no newline: one Ctrl-D must end it all the same.
        term.child.send(REPLY.rstrip("\n"))
        term.child.sendeof()
        term.wait_for("u undoes this apply.")
        assert "2 applied. 2 files written." in term.step_output()
        assert (root / "app.py").read_bytes() == PATCHED

        # Said once: the second paste only asks for the text.
        shown = term.key("d", "then press Ctrl-D (Ctrl-C cancels):")
        assert "No clipboard" not in shown
        term.child.sendeof()
        term.wait_for("Nothing was pasted. " + FULL_KEYS_PASTE)

        term.key("u", "↩ Undone")
        assert (root / "app.py").read_bytes() == ORIGINAL
        assert "No task given" not in term.key("x", FULL_KEYS_PASTE)
        term.key("q", "Bye.")
        assert term.finish() == 0
    finally:
        term.close()


def test_without_a_clipboard_a_reply_pasted_before_p_is_the_one_p_applies(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    term = Terminal(root, clean_env(), "session", "app.py", "-t", "task")
    try:
        term.wait_for(FULL_KEYS_PASTE)
        shown = term.key(REPLY, "p applies it, d dry-runs it.")
        assert f"📋 Pasted text kept ({REPLY.count(chr(10))} lines)" in shown
        assert "That was pasted text" not in shown
        shown = term.key("d", "Nothing written. p applies this reply (it is kept here).")
        assert "▶ d: dry run of the reply pasted here" in shown
        shown = term.key("p", "u undoes this apply.")
        assert "▶ p: applying the reply pasted here" in shown
        assert "on the clipboard" not in term.output()
        assert "Paste the model's reply" not in shown  # the paste was used, not asked for again
        assert "2 applied. 2 files written." in shown
        assert (root / "app.py").read_bytes() == PATCHED
        # Applied: the next p asks for the next reply.
        term.key("p", "then press Ctrl-D (Ctrl-C cancels):")
        term.child.sendintr()
        term.wait_for("Paste cancelled.")
        term.key("q", "Bye.")
        assert term.finish() == 0
    finally:
        term.close()


def test_ctrl_c_quits_and_restores_the_terminal(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    term = Terminal(root, clean_env(), "session", "app.py", "-t", "task")
    try:
        # The whole key line, not its start: the session is done printing and about to read a key.
        term.wait_for(FULL_KEYS_PASTE)
        term.mark = len(term.log.getvalue())
        term.child.sendintr()
        term.wait_for("Bye.")
        assert term.finish() == 0
        assert "Traceback" not in term.output()
    finally:
        term.close()


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    term = Terminal(root, clean_env(), "session", "nope.py")
    try:
        term.wait_for("❌ Cannot render the prompt:")
        assert term.finish() == 1
    finally:
        term.close()


# --- without a terminal: stdin once, like apply ----------------------------------------------


def run(args: list[str], root: Path, stdin: str) -> subprocess.CompletedProcess[str]:
    return kopipasta(*args, cwd=root, stdin=stdin, env=clean_env(), timeout=TIMEOUT)


@pytest.mark.parametrize("args", [["session", "app.py"], []], ids=["session", "bare"])
def test_without_a_terminal_stdin_is_applied_once(tmp_path: Path, args: list[str]) -> None:
    root = make_project(tmp_path)
    result = run(args, root, REPLY)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 applied. 2 files written." in result.stdout
    assert (root / "app.py").read_bytes() == PATCHED
    assert (root / "lib/new.py").read_bytes() == b"VALUE = 1\n"


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        ("no code here\n", 2),
        ("```python\n# FILE: app.py\n# TARGET_NODE: missing\ndef missing():\n    pass\n```\n", 1),
        (REPLY, 0),
    ],
    ids=["no-patch", "failed", "ok"],
)
def test_without_a_terminal_the_exit_status_is_applys(tmp_path: Path, reply: str, status: int) -> None:
    session_root = make_project(tmp_path / "a")
    apply_root = make_project(tmp_path / "b")
    via_session = run(["session", "app.py"], session_root, reply)
    via_apply = run(["apply"], apply_root, reply)
    assert via_session.returncode == via_apply.returncode == status
    assert (session_root / "app.py").read_bytes() == (apply_root / "app.py").read_bytes()


ALTERNATIVES = """\
Two ways to do it.

**Option 1 — friendly:**

```python
# FILE: app.py
def greet():
    return 'hello'
```

**Option 2 — formal:**

```python
# FILE: app.py
def greet():
    return 'good day'
```
"""


def test_alternatives_are_refused_then_offered_as_a_choice(tmp_path: Path) -> None:
    # Issue 19: both options of one function are never both written; the session lets the user pick.
    root = make_project(tmp_path)
    term = Terminal(root, clean_env(), "session", "app.py")
    try:
        term.wait_for(FULL_KEYS_PASTE)
        term.key("p", "then press Ctrl-D (Ctrl-C cancels):")
        term.mark = len(term.log.getvalue())
        term.child.send(ALTERNATIVES)
        term.child.sendeof()
        term.wait_for("1 applies block 1, 2 applies block 2 (the other left out)")
        shown = term.step_output()
        # Said once for both blocks, under the definition's name, with the session's answer: a key.
        assert shown.count("❌ app.py: the reply offers alternatives for greet: block 1 or block 2, and which one it "
                           "means is not certain — press 1 or 2 to apply the one you want") == 1
        assert "delete the others from the reply" not in shown
        assert re.search(r"^1 +app\.py +greet +❌ failed", shown, flags=re.MULTILINE), shown
        assert (root / "app.py").read_bytes() == ORIGINAL

        shown = term.key("2", "u undoes this apply.")
        assert "▶ 2: applying block 2, leaving out block 1" in shown
        assert (root / "app.py").read_bytes() == ORIGINAL.replace(b"'hi'", b"'good day'")
        term.key("q", "Bye.")
        assert term.finish() == 0
    finally:
        term.close()
