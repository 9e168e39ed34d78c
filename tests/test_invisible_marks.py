"""What shows as nothing never prints as nothing; `--feedback` on a pipe drives no terminal (issue 28, item 10).

A zero-width space, a right-to-left mark or override in a path, a JSON key, a
target name or the apply log shows in a terminal as nothing (or reorders the
line): `a\u200bb` reads as `ab`. Every output shows them as their escapes, on a
pipe and on a pseudo-terminal. The correction message `--feedback` prints on a
pipe quotes the reply; it is made visible like every other line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_process import kopipasta
from test_terminal_escapes import _run_in_terminal

from kopipasta.plain import visible

# The marks that show as nothing (or reorder what follows), beyond issue 18's controls.
MARKS = ["\u00ad", "\u061c", "\u180e", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2028", "\u2029",
         "\u2060", "\u2063", "\ufeff", "\u202e", "\u2067"]


@pytest.mark.parametrize("mark", MARKS)
def test_visible_shows_each_mark_as_its_escape(mark: str) -> None:
    code = ord(mark)
    assert visible(f"a{mark}b") == (f"a\\x{code:02x}b" if code < 0x100 else f"a\\u{code:04x}b")


def test_the_feedback_printed_on_a_pipe_is_made_visible(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def total():\n    return 1\n", encoding="utf-8")
    osc52 = "\x1b]52;c;aGk=\x07"
    (tmp_path / "reply.md").write_text(
        f"```python\n# FILE: app.py\n# TARGET_NODE: function tot{osc52}al\ndef total():\n    return 2\n```\n\n"
        "```python\n# FILE: b\x1b]0;T\x07.py\n# TARGET_NODE: function x\ndef x():\n    return 2\n```\n",
        encoding="utf-8",
    )
    result = kopipasta("apply", "--feedback", "reply.md", cwd=tmp_path)
    assert result.returncode == 1
    assert "\x1b" not in result.stdout + result.stderr and "\x07" not in result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "kopipasta could not apply 2 blocks of the 2 patch blocks in your last reply. Please correct them."
    assert "- block 1 (FILE: app.py, TARGET_NODE: function tot\\x1b]52;c;aGk=\\x07al): `tot\\x1b]52;c;aGk=\\x07al` not found in app.py" in lines
    assert (tmp_path / "app.py").read_text(encoding="utf-8") == "def total():\n    return 1\n"
    as_json = kopipasta("apply", "--feedback", "--json", "reply.md", cwd=tmp_path)
    assert "\x1b" not in as_json.stdout
    assert f"function tot{osc52}al" in json.loads(as_json.stdout)["feedback"]  # the JSON still says what was sent


def _project(root: Path) -> Path:
    root.mkdir()
    (root / "d.json").write_text('{"k\u200bey": 1, "r\u202etl": 2, "plain": 3}\n', encoding="utf-8")
    (root / "app.py").write_text("def total():\n    return 1\n", encoding="utf-8")
    return root


def test_marks_in_keys_paths_targets_and_stats_are_shown(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    listed = kopipasta("nodes", "d.json", cwd=root)
    assert listed.stdout.splitlines() == ["d.json", "  key  k\\u200bey  1", "  key  r\\u202etl  1", "  key  plain      1"]
    reply = (
        "```json\n# FILE: d.json\n# TARGET_PATH: k\u200bey\n5\n```\n\n"
        "```python\n# FILE: app.py\n# TARGET_NODE: function to\u200dtal\ndef total():\n    return 2\n```\n\n"
        "```python\n# FILE: n\u200f.py\nx = 1\n```\n"
    )
    applied = kopipasta("apply", "-", cwd=root, stdin=reply)
    assert applied.returncode == 1
    lines = applied.stdout.splitlines()
    assert "1  d.json      TARGET_PATH k\\u200bey  ✅ applied  +1 -1" in lines
    assert "❌ `to\\u200dtal` not found in app.py — did you mean 'total'?" in lines
    assert "❌ Refusing path 'n\\u200f.py': it holds an invisible character (U+200F) — write the path with visible characters only" in lines
    assert json.loads((root / "d.json").read_text(encoding="utf-8"))["k\u200bey"] == 5  # only the display is escaped
    # A log line another program wrote (the log is the project's: anyone may append to it).
    with (root / ".kopipasta" / "log.jsonl").open("a", encoding="utf-8") as log:
        block = {"form": "dir\u200bective", "named_by": "directive", "operation": "set_path", "language": "js\u202eon",
                 "status": "failed", "failure": "x"}
        log.write(json.dumps({"time": "t", "event": "apply", "exit_status": 1, "written": False, "files_written": 0,
                              "no_patch": False, "partial": False, "strict": False, "blocks": [block]}) + "\n")
    stats = kopipasta("stats", cwd=root)
    assert "js\\u202eon 1" in stats.stdout and "dir\\u200bective 1" in stats.stdout
    for output in (listed.stdout, applied.stdout + applied.stderr, stats.stdout):
        assert not [m for m in MARKS if m in output], output


def test_marks_are_shown_on_a_terminal_too(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    output = _run_in_terminal(["nodes", "d.json"], root)
    stripped = re.sub(r"\x1b\[[0-9;]*m", "", output.replace("\r\n", "\n"))
    assert "k\\u200bey" in stripped and "r\\u202etl" in stripped
    assert not [m for m in MARKS if m in stripped]
