"""Issue 21, item 1: `kopipasta` with no FILES opens a file picker on a terminal.

The picker's screen is driven two ways: in-process through prompt_toolkit's pipe
input (the keys a person presses, the application itself), and end to end in a
real pseudo-terminal (pexpect), as tests/test_session.py drives the session.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from cli_process import kopipasta
from test_session import Terminal, clean_env

from kopipasta.loop.picked import Picked, recall, remember
from kopipasta.loop.picker import PickerState, pick
from kopipasta.loop.tokens import count_tokens

DOWN = "\x1b[B"
CTRL_O = "\x0f"
MAIN = "def greet():\n    return 'hi'\n"
UTIL = "def helper():\n    return 1\n"


def make_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    (root / "lib").mkdir()
    (root / "app" / "main.py").write_text(MAIN)
    (root / "lib" / "util.py").write_text(UTIL)
    (root / "README.md").write_text("# Readme\n")
    (root / "ignored.py").write_text("x = 1\n")
    (root / ".gitignore").write_text("ignored.py\n")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    return root


def state_of(root: Path, picked: Picked | None = None, token_warning: int = 0) -> PickerState:
    from kopipasta.loop.selection import select_files

    return PickerState(select_files(["."], root).files, root, picked, token_warning)


def labels(state: PickerState) -> list[str]:
    return [f"{state.mark(row)} {'  ' * row.depth}{row.name}" for row in state.visible()]


# --- the picker without a screen -------------------------------------------------------------


def test_the_tree_lists_text_files_the_way_selection_takes_them(tmp_path: Path) -> None:
    state = state_of(make_project(tmp_path))
    assert labels(state) == [
        "[ ] app/", "[ ]   main.py", "[ ] lib/", "[ ]   util.py", "[ ] .gitignore", "[ ] README.md",
    ]
    assert state.status() == "0 files · ≈0 tokens (chars/4) of file text"


def test_space_ticks_a_folder_or_a_file_and_the_count_follows(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    state = state_of(root)
    state.toggle()  # app/
    state.move(3)  # util.py
    state.toggle()
    assert labels(state)[:4] == ["[x] app/", "[x]   main.py", "[x] lib/", "[x]   util.py"]
    tokens = count_tokens(MAIN).count + count_tokens(UTIL).count
    assert state.status() == f"2 files · ≈{tokens} tokens (chars/4) of file text"
    state.move(-3)
    state.toggle()  # app/ again: unticks what it holds
    assert state.chosen() == Picked(("lib/util.py",))


def test_typing_filters_fuzzily_and_ctrl_o_outlines_a_file(tmp_path: Path) -> None:
    state = state_of(make_project(tmp_path), token_warning=5)
    state.type("lbu")
    assert labels(state) == ["[ ] util.py"] and [r.path for r in state.visible()] == ["lib/util.py"]
    state.toggle_outline()
    assert state.chosen() == Picked(("lib/util.py",), ("lib/util.py",))
    outline = count_tokens("function  helper  1-2").count
    assert state.status() == (
        f"1 file (1 as outline) · ≈{outline} tokens (chars/4) of file text"
        " · ⚠ over the 5 of `token_warning`: untick files or ctrl-o big ones"
    )
    state.type("zzz")
    assert state.visible() == []


def test_a_big_file_is_offered_as_its_outline(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "app" / "main.py").write_text(MAIN + "".join(f"def f{i}():\n    return {i}\n" for i in range(3000)))
    state = state_of(root)
    state.move(1)
    count = state.tokens("app/main.py", outline=False)
    assert state.hint() == f"app/main.py is big ({count.label()}): ctrl-o sends its definitions instead of its text"


def test_the_last_selection_comes_back_where_its_files_still_exist(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    remember(root, Picked(("app/main.py", "gone.py"), ("app/main.py",), "Say hello"))
    assert json.loads((root / ".kopipasta" / "picked.json").read_text())["task"] == "Say hello"
    state = state_of(root, recall(root))
    assert labels(state)[:2] == ["[x] app/", "[o]   main.py"]
    assert state.chosen() == Picked(("app/main.py",), ("app/main.py",))


# --- the application, keys through a pipe ------------------------------------------------------


def run_keys(state: PickerState, keys: str, task: str | None) -> Picked | None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        return pick(state, task=task, input=pipe, output=DummyOutput())


def test_the_application_ticks_outlines_and_asks_for_the_task(tmp_path: Path) -> None:
    state = state_of(make_project(tmp_path))
    chosen = run_keys(state, " " + DOWN * 3 + CTRL_O + "\r" + "Say hello\r", task="")
    assert chosen == Picked(("app/main.py", "lib/util.py"), ("lib/util.py",), "Say hello")


def test_enter_with_nothing_ticked_asks_for_a_file_and_ctrl_c_leaves(tmp_path: Path) -> None:
    state = state_of(make_project(tmp_path))
    assert run_keys(state, "\r\x03", task="") is None
    assert state.notice == "Tick at least one file with space, then press Enter"


def test_with_a_task_given_enter_starts_at_once_and_the_last_task_is_offered(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    assert run_keys(state_of(root), DOWN + " \r", task=None) == Picked(("app/main.py",))
    offered = state_of(root, Picked(("lib/util.py",), (), "Last task"))
    assert run_keys(offered, "\r, again\r", task="Last task") == Picked(("lib/util.py",), (), "Last task, again")


# --- in a real terminal ------------------------------------------------------------------------


def test_bare_kopipasta_picks_then_runs_the_session_and_remembers(tmp_path: Path) -> None:
    pytest.importorskip("pexpect")
    root = make_project(tmp_path)
    term = Terminal(root, clean_env())
    try:
        term.wait_for("Pick files for the prompt")
        term.wait_for("README.md")
        assert "ignored.py" not in term.output() and "logo.png" not in term.output()
        term.child.send(" " + DOWN * 3 + " \r")  # app/, then lib/util.py, then on to the task
        term.wait_for("Task:")
        term.child.send("Say hello\r")
        term.wait_for("⚠ Prompt printed above (2 files (app/main.py, lib/util.py), ≈")
        term.wait_for("Keys: p ")
        assert "# Task\r\n\r\nSay hello" in term.output()
        term.key("q", "Bye.")
        assert term.finish() == 0
    finally:
        term.close()
    assert json.loads((root / ".kopipasta" / "picked.json").read_text()) == {
        "version": 1, "files": ["app/main.py", "lib/util.py"], "outline": [], "task": "Say hello",
    }
    # Next time the same files are ticked and the task offered: Enter, Enter.
    again = Terminal(root, clean_env())
    try:
        again.wait_for("2 files · ≈")
        again.child.send("\r")
        again.wait_for("Task:")
        again.child.send("\r")
        again.wait_for("⚠ Prompt printed above (2 files (app/main.py, lib/util.py), ≈")
        again.wait_for("Keys: p ")
        again.key("q", "Bye.")
        assert again.finish() == 0
    finally:
        again.close()


def test_leaving_the_picker_copies_nothing(tmp_path: Path) -> None:
    pytest.importorskip("pexpect")
    root = make_project(tmp_path)
    term = Terminal(root, clean_env())
    try:
        term.wait_for("README.md")
        term.child.send("\x03")
        term.wait_for("Left the picker with no file ticked: no prompt copied. Bye.")
        assert term.finish() == 0
        assert "Prompt" not in term.output().split("Left the picker")[0].split("Pick files")[-1]
    finally:
        term.close()


def test_without_a_terminal_on_stdout_no_files_is_an_error_that_says_what_to_pass(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    root = make_project(tmp_path)
    command = f"{shlex.quote(sys.executable)} -m kopipasta > out.txt; echo EXIT=$?"
    child = pexpect.spawn("/bin/sh", ["-c", command], cwd=str(root), env=clean_env(), encoding="utf-8", timeout=120)
    try:
        child.expect_exact("EXIT=2")
        assert (
            "❌ No files given: name the files for the prompt, e.g. `kopipasta app/ 'src/**/*.ts' -t TASK` "
            "(the file picker needs a terminal on stdin and stdout)"
        ) in child.before
    finally:
        child.close(force=True)
    assert (root / "out.txt").read_text() == ""


def test_without_a_terminal_and_nothing_on_stdin_bare_kopipasta_says_what_to_pass(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    result = kopipasta(cwd=root)  # stdin is /dev/null
    assert result.returncode == 2
    assert result.stdout == (
        "❌ No files given and no reply on stdin: name the files for the prompt (`kopipasta app/ -t TASK`, "
        "in a terminal), or pipe a reply to apply (`kopipasta apply reply.md`)\n"
    )
    assert not (root / ".kopipasta").exists()


def test_the_filter_puts_the_closest_matches_first(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    (root / "lib" / "definitions.py").write_text("X = 1\n")
    (root / "app" / "code" / "find").mkdir(parents=True)
    (root / "app" / "code" / "find" / "init.py").write_text("Y = 1\n")
    state = state_of(root)
    state.type("defin")  # in order in both; whole in one name
    assert [row.path for row in state.visible()] == ["lib/definitions.py", "app/code/find/init.py"]


def test_the_session_warns_before_copying_a_prompt_over_token_warning(tmp_path: Path) -> None:
    pytest.importorskip("pexpect")
    root = make_project(tmp_path)
    (root / "kopipasta.toml").write_text("token_warning = 10\n")
    term = Terminal(root, clean_env(), "session", "app/main.py", "-t", "Say hello")
    try:
        term.wait_for("Keys: p ")
        shown = term.output()
        warning = "over the 10 of the `token_warning` setting: a chat model may cut it or lose track"
        assert "⚠ This prompt is ≈" in shown and warning in shown
        assert shown.index(warning) < shown.index("You will change the files below")  # before the copy
        assert "⚠ Prompt printed above (1 file (app/main.py), ≈" in shown
        term.key("q", "Bye.")
        assert term.finish() == 0
    finally:
        term.close()


# --- on an 80-column screen (tmux: what the person sees, not the bytes sent) ----------------------


class Screen:
    """`kopipasta` in a detached tmux window of 80×24 on a private server; `text()` is the screen."""

    def __init__(self, root: Path, *args: str) -> None:
        import shutil
        import subprocess
        import uuid

        if shutil.which("tmux") is None:
            pytest.skip("tmux is not installed (apt-get install tmux)")
        self.run = subprocess.run
        self.server = f"kopipasta-test-{uuid.uuid4().hex[:12]}"
        command = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "kopipasta", *args))
        self.tmux("new-session", "-d", "-x", "80", "-y", "24", "-c", str(root),
                  f"{command}; echo EXIT=$?; sleep 600")

    def tmux(self, *args: str) -> str:
        env = {**clean_env(), "TMUX": ""}
        return self.run(["tmux", "-L", self.server, *args], capture_output=True, text=True, env=env, check=True).stdout

    def text(self) -> str:
        return self.tmux("capture-pane", "-p")

    def wait_for(self, text: str) -> str:
        import time

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            screen = self.text()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen showed:\n{self.text()}")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    def close(self) -> None:
        import subprocess

        subprocess.run(["tmux", "-L", self.server, "kill-server"], capture_output=True)


def test_at_80_columns_the_key_line_is_whole_and_lines_break_between_words(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    screen = Screen(root)
    try:
        shown = screen.wait_for("README.md")
        lines = shown.splitlines()
        assert all(len(line) <= 80 for line in lines)
        keys = " ".join(line.strip() for line in lines[:2])
        assert "enter continue · esc quit" in keys and "↑↓ move · space tick" in keys
        assert "Filter: (type to filter)" in shown
        # Each file's size says its unit.
        assert any(line.startswith("[ ]   main.py") and line.rstrip().endswith(" tokens") for line in lines)
    finally:
        screen.close()
    # A status line too long for one line (with the token warning) breaks between its items.
    (root / "kopipasta.toml").write_text("token_warning = 5\n")
    screen = Screen(root)
    try:
        screen.wait_for("README.md")
        screen.keys("Space")
        shown = screen.wait_for("untick files")
        assert all(len(line) <= 80 for line in shown.splitlines())
        status = [line.strip() for line in shown.splitlines() if line.strip()][-2:]
        assert status == ["1 file · ≈8 tokens (chars/4) of file text",
                          "⚠ over the 5 of `token_warning`: untick files or ctrl-o big ones"]
    finally:
        screen.close()


def test_esc_after_ticking_files_says_they_are_kept_and_they_come_back(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    screen = Screen(root)
    try:
        screen.wait_for("README.md")
        screen.keys("Space")  # app/: main.py
        screen.wait_for("1 file · ≈")
        screen.keys("Escape")
        shown = screen.wait_for("EXIT=")
        assert "Left the picker: 1 file ticked, kept for next time; no prompt copied. Bye." in shown
        assert "EXIT=0" in shown and "No files picked" not in shown
    finally:
        screen.close()
    assert recall(root).files == ("app/main.py",)


def test_a_long_prefilled_task_keeps_its_label(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    task = "Make the greeting configurable per user, with a default, and " + "keep every caller working " * 3
    remember(root, Picked(("app/main.py",), (), task.strip()))
    screen = Screen(root)
    try:
        screen.wait_for("1 file · ≈")
        screen.keys("Enter")
        shown = screen.wait_for("Task: ")
        assert any(line.startswith("Task: ") and "working" in line for line in shown.splitlines())
    finally:
        screen.close()
