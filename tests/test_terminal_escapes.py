"""A reply cannot drive the terminal (issue 18, item 2).

Target names, paths, JSON keys, SEARCH text, diff headers and `--diff` payloads
come from the reply (or the user's files). An OSC 52 sequence printed raw
rewrites the clipboard (tmux with `set-clipboard on`, as the README suggests),
OSC 0 the window title. Every character a terminal would obey is shown as its
escape (`\\x1b`), in plain output on a pipe and in rich's on a terminal.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import kopipasta
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kopipasta.plain import json_visible, visible

ESC = "\x1b"
OSC52 = ESC + "]52;c;SGVsbG8=\x07"  # "Hello" onto the clipboard
OSC0 = ESC + "]0;TITLE\x07"  # the window title
SHOWN52 = "\\x1b]52;c;SGVsbG8=\\x07"
SHOWN0 = "\\x1b]0;TITLE\\x07"

REPLY = f"""```python
# FILE: app.py
# TARGET_NODE: function total
def total(items):
    print("{OSC52}")
    return sum(items)
```

```python
# FILE: b.py
# TARGET_NODE: function nothere{OSC0}
def nothere():
    pass
```

```python
# FILE: c{OSC52}.py
x = 1
```

```diff
--- a/d{OSC0}.py
+++ b/d{OSC0}.py
@@ -1 +1 @@
-x = 1
+x = 3
```

```json
// FILE: package.json
// TARGET_PATH: dependencies.k{OSC52}
"2"
```

```
d.py
<<<<<<< SEARCH
x = 1
z{OSC0} = 1
=======
x = 9
>>>>>>> REPLACE
```
"""


def _project(root: Path) -> Path:
    root.mkdir()
    (root / "app.py").write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    (root / "b.py").write_text("def other():\n    return 1\n", encoding="utf-8")
    (root / "d.py").write_text("x = 1\ny = 2\n", encoding="utf-8")
    (root / "package.json").write_text('{\n  "dependencies": {\n    "a": "1"\n  }\n}\n', encoding="utf-8")
    (root.parent / "reply.md").write_text(REPLY, encoding="utf-8")
    return root


def _assert_escaped(output: str) -> None:
    assert OSC52 not in output and OSC0 not in output
    assert ESC + "]" not in output, "an OSC sequence reached the terminal"
    assert "\x07" not in output
    assert SHOWN52 in output and SHOWN0 in output


def _expected_lines() -> list[str]:
    return [
        f'+    print("{SHOWN52}")',  # the --diff payload
        f"❌ `nothere{SHOWN0}` not found in b.py",  # a TARGET_NODE line
        f"❌ Refusing path 'c{SHOWN52}.py': it holds an invisible character (U+001B)",  # a FILE path
        f"❌ Refusing path 'd{SHOWN0}.py': it holds an invisible character (U+001B)",  # a diff header
        f"❌ TARGET_PATH 'dependencies.k{SHOWN52}' for package.json is malformed",  # a JSON key
        f"❌ Search/replace section 1 for d.py: its old text is not in the file — closest at line 1: "
        f"line 2 reads 'y = 2' where it expects 'z{SHOWN0} = 1'",  # SEARCH text
    ]


def test_plain_output_on_a_pipe_shows_every_escape(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    applied = kopipasta("apply", str(tmp_path / "reply.md"), "--diff", cwd=root)
    assert applied.returncode == 1
    _assert_escaped(applied.stdout)
    assert ESC not in applied.stdout
    for expected in _expected_lines():
        assert any(line.startswith(expected) for line in applied.stdout.splitlines()), (expected, applied.stdout)
    assert f"function nothere{SHOWN0}  " in applied.stdout  # the table's target cell
    # The file holds what the reply meant, byte for byte: only the display is escaped.
    assert OSC52 in (root / "app.py").read_text(encoding="utf-8")


def _run_in_terminal(args: list[str], cwd: Path) -> str:
    """The command's output on a pseudo-terminal: rich's coloured face, as a person sees it."""
    main, child = pty.openpty()
    env = {**os.environ, "COLUMNS": "250", "LINES": "50", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "kopipasta", *args], cwd=cwd, stdin=subprocess.DEVNULL, stdout=child, stderr=child, env=env
    )
    os.close(child)
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(main)
    return b"".join(chunks).decode("utf-8", "replace")


def test_rich_output_on_a_terminal_shows_every_escape(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    output = _run_in_terminal(["apply", str(tmp_path / "reply.md"), "--diff"], root)
    assert "\x1b[" in output, "not rich's coloured output"
    assert "Traceback" not in output
    _assert_escaped(output)
    for expected in _expected_lines():
        assert expected.removeprefix("❌ ").removeprefix("+") in output, (expected, output)


def test_the_rich_console_escapes_text_however_it_was_built() -> None:
    from rich.table import Table
    from rich.text import Text

    from kopipasta.plain import visible_console_class

    buffer = io.StringIO()
    console = visible_console_class()(file=buffer, force_terminal=True, width=200, highlight=False)
    table = Table()
    table.add_column("name")
    table.add_row(Text(f"cell{OSC52}", style="red"))
    console.print(table)
    console.print(f"a string{OSC0}", markup=False)
    console.print(Text(f"styled{OSC52}", style="bold"))
    output = buffer.getvalue()
    assert "\x1b[" in output  # rich's own colours are kept
    assert ESC + "]" not in output and "\x07" not in output
    # Text itself drops the BEL (rich strips BEL and CR) but keeps ESC: the console shows it.
    assert output.count("\\x1b]52;c;SGVsbG8=") == 2 and "a string\\x1b]0;TITLE" in output


def test_nodes_shows_a_json_key_escaped_on_a_pipe_and_in_json(tmp_path: Path) -> None:
    (tmp_path / "data.json").write_text(json.dumps({f"k{OSC52}": 1, "c1\u009b2J": 2}), encoding="utf-8")
    listed = kopipasta("nodes", "data.json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert ESC not in listed.stdout and "\x07" not in listed.stdout and "\u009b" not in listed.stdout
    assert '["k\\u001b]52;c;SGVsbG8=\\u0007"]' in listed.stdout  # quoted as a TARGET_PATH key
    assert "c1\\x9b2J" in listed.stdout
    as_json = kopipasta("nodes", "data.json", "--json", cwd=tmp_path)
    assert ESC not in as_json.stdout and "\u009b" not in as_json.stdout
    names = [d["name"] for d in json.loads(as_json.stdout)[0]["definitions"]]
    assert names == ['["k\\u001b]52;c;SGVsbG8=\\u0007"]', "c1\u009b2J"]  # the JSON still says what the key is


def test_the_json_report_escapes_c1_controls(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    (tmp_path / "reply.md").write_text(
        "```python\n# FILE: b.py\n# TARGET_NODE: function x\u009b2Jy\u202e\ndef f():\n    pass\n```\n", encoding="utf-8"
    )
    applied = kopipasta("apply", str(tmp_path / "reply.md"), "--json", cwd=root)
    assert "\u009b" not in applied.stdout and "\u202e" not in applied.stdout
    report = json.loads(applied.stdout)
    assert "x\u009b2Jy\u202e" in report["blocks"][0]["message"]


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\x1bb", "a\\x1bb"),
        ("bell\x07", "bell\\x07"),
        ("cr\rhidden", "cr\\rhidden".replace("\\r", "\\x0d")),
        ("csi\u009b31m", "csi\\x9b31m"),
        ("del\x7f", "del\\x7f"),
        ("rlo\u202egnp.exe", "rlo\\u202egnp.exe"),
        ("tab\tand\nnew line", "tab\tand\nnew line"),
        ("naïve — 日本", "naïve — 日本"),
    ],
)
def test_visible(raw: str, shown: str) -> None:
    assert visible(raw) == shown
    assert visible(visible(raw)) == visible(raw)


def test_json_visible_keeps_json_meaning() -> None:
    text = json.dumps({"k": "x\u009by\u2066"}, ensure_ascii=False)
    assert json.loads(json_visible(text)) == {"k": "x\u009by\u2066"}
    assert "\u009b" not in json_visible(text)


# Every character a terminal obeys: C0 but newline and tab, DEL, C1, the bidi overrides and isolates.
OBEYED = [chr(c) for c in [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]]


def _every_control_reply() -> str:
    # NUL cannot stand in a reply line that reaches a block intact everywhere; the rest can.
    chars = [c for c in OBEYED if c != "\x00"]
    blocks = ["```text\n# FILE: notes.txt\n" + "".join(f"line {ord(c):x}: <{c}>\n" for c in chars) + "```\n"]
    blocks += [f"```python\n# FILE: app.py\n# TARGET_NODE: function t{c}x\ndef f():\n    pass\n```\n" for c in chars]
    blocks += [f"```python\n# FILE: n{c}.py\nx = 1\n```\n" for c in chars]
    return "\n".join(blocks)


def test_no_character_a_terminal_obeys_is_printed_raw(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    (tmp_path / "every.md").write_text(_every_control_reply(), encoding="utf-8")
    plain = kopipasta("apply", str(tmp_path / "every.md"), "--diff", cwd=root)
    assert plain.returncode == 1, plain.stdout
    raw = [c for c in OBEYED if c in plain.stdout + plain.stderr]
    assert raw == [], [hex(ord(c)) for c in raw]
    lines = plain.stdout.splitlines()
    assert "+line 1b: <\\x1b>" in lines and "+line 9b: <\\x9b>" in lines and "+line 202e: <\\u202e>" in lines  # --diff
    assert "❌ `t\\x1bx` not found in app.py — `kopipasta nodes app.py` lists what can be targeted" in lines
    assert "❌ Refusing path 'n\\x1b.py': it holds an invisible character (U+001B) — write the path with visible characters only" in lines
    terminal = _run_in_terminal(["apply", str(tmp_path / "every.md"), "--diff"], _project(tmp_path / "again"))
    # rich's own codes are ESC [ … m and the CR of the terminal's line discipline: nothing else.
    stripped = re.sub(r"\x1b\[[0-9;]*m", "", terminal.replace("\r\n", "\n"))
    assert "line 1b: <\\x1b>" in stripped
    raw = [c for c in OBEYED if c in stripped]
    assert raw == [], [hex(ord(c)) for c in raw]


_PIECE = st.text(alphabet=st.sampled_from([*OBEYED, "a", "b", "/", ".", " ", "\\", "[", "]", "é"]), min_size=1, max_size=12)


@given(name=_PIECE, path=_PIECE, payload=_PIECE)
@settings(
    max_examples=int(os.environ.get("KOPIPASTA_ESCAPE_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_generated_names_paths_and_payloads_never_print_raw_controls(
    tmp_path_factory: pytest.TempPathFactory, name: str, path: str, payload: str
) -> None:
    root = _project(tmp_path_factory.mktemp("fuzz") / "project")
    reply = (
        f"```python\n# FILE: app.py\n# TARGET_NODE: function {name}\ndef f():\n    pass\n```\n\n"
        f"```python\n# FILE: {path}.py\nx = 1\n```\n\n"
        f"```text\n# FILE: notes.txt\n{payload}\n```\n"
    )
    (root.parent / "fuzz.md").write_text(reply, encoding="utf-8", newline="")
    applied = kopipasta("apply", str(root.parent / "fuzz.md"), "--diff", cwd=root)
    assert applied.returncode in (0, 1, 2)
    raw = [c for c in OBEYED if c in applied.stdout + applied.stderr]
    assert raw == [], ([hex(ord(c)) for c in raw], applied.stdout)
