"""`kopipasta prompt`: the rendered prompt, its examples, the clipboard and its fallback.

The snapshot of the rendered prompt lives in tests/snapshots/prompt.md, rendered
from the sample project tests/snapshots/prompt_project/. After an intended change
to the template or to what the prompt shows, rewrite it with

    KOPIPASTA_UPDATE_SNAPSHOTS=1 pytest tests/test_prompt.py

and read the diff of the snapshot before committing it.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyperclip
import pytest
from cli_process import kopipasta
from click.testing import CliRunner

from kopipasta.cli import main
from kopipasta.intake.reader import parse_reply
from kopipasta.loop.fences import fence_for
from kopipasta.loop.prompt import render_prompt

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
SAMPLE = SNAPSHOTS / "prompt_project"
SAMPLE_FILES = ["app/cart.py", "src/CartView.tsx", "package.json"]
SAMPLE_TASK = "Give the cart a 10% discount for orders over $100, and show it in the view."
UPDATE = os.environ.get("KOPIPASTA_UPDATE_SNAPSHOTS") == "1"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(SAMPLE, root)
    return root


def files_of(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_prompt_snapshot(project: Path) -> None:
    text = render_prompt(SAMPLE_FILES, task=SAMPLE_TASK, root=project)
    expected_path = SNAPSHOTS / "prompt.md"
    if UPDATE or not expected_path.exists():
        expected_path.write_text(text, encoding="utf-8")
    expected = expected_path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True), text.splitlines(keepends=True), "snapshot", "rendered"
            )
        )
        pytest.fail(f"the rendered prompt differs from {expected_path}:\n{diff}\n"
                    "(KOPIPASTA_UPDATE_SNAPSHOTS=1 rewrites the snapshot)")


def example_blocks(prompt: str) -> list[str]:
    """Each example of the prompt as a reply of its own: the blocks that carry a target."""
    lines = prompt.split("\n")
    blocks = [b for b in parse_reply(prompt) if any(b.directive(d) for d in ("TARGET_NODE", "TARGET_PATH", "INSERT_AFTER"))]
    replies = []
    for block in blocks:
        opening = lines[block.line - 1]
        fence = opening[: len(opening) - len(opening.lstrip("`"))]
        end = next(i for i in range(block.line, len(lines)) if lines[i] == fence)
        replies.append("\n".join(lines[block.line - 1 : end + 1]) + "\n")
    return replies


def apply_cli(root: Path, reply: str) -> tuple[int, dict[str, object]]:
    reply_file = root.parent / "reply.md"
    reply_file.write_text(reply, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "kopipasta", "apply", str(reply_file), "--root", str(root), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    return result.returncode, json.loads(result.stdout)


TRICKY = {
    # A decorated method holding a multi-line string whose lines are values: moving the
    # example to the left margin would change them, so it is shown as written.
    "lib/report.py": (
        "import functools\n\n\nclass Report:\n"
        "    @functools.cache\n"
        "    def header(self) -> str:\n"
        '        return """Title\n'
        "        indented inside the string\n"
        '"""\n'
    ),
    "web/util.js": "export const double = (n) => {\n  return n * 2;\n};\n",
    # CRLF line endings, tabs.
    "web/Button.tsx": "export function Button() {\r\n\treturn <button>ok</button>;\r\n}\r\n",
    "config.json": '{\n\t"port": 8080,\n\t"hosts": [\n\t\t"a",\n\t\t"b"\n\t]\n}\n',
}


@pytest.mark.parametrize("case", ["sample", "tricky"])
def test_every_example_in_the_prompt_is_a_valid_patch(case: str, project: Path, tmp_path: Path) -> None:
    if case == "sample":
        root, files, languages = project, SAMPLE_FILES, 3
    else:
        root = tmp_path / "tricky"
        for name, text in TRICKY.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(text.encode())
        files, languages = list(TRICKY), 4
    before = files_of(root)
    prompt = render_prompt(files, task="anything", root=root)
    replies = example_blocks(prompt)
    assert len(replies) == languages, prompt
    if case == "tricky":
        assert "# TARGET_NODE: method Report.header\n    def header(self) -> str:\n" in replies[0]
    for reply in replies:
        assert "(An illustration" not in prompt
        status, report = apply_cli(root, reply)
        assert status == 0, (reply, report)
        blocks = report["blocks"]
        assert isinstance(blocks, list) and len(blocks) == 1
        assert blocks[0]["status"] in ("applied", "unchanged"), (reply, report)
    # Each example restates its definition as it is, so the project is untouched.
    after = {k: v for k, v in files_of(root).items() if not k.startswith(".kopipasta/")}
    assert after == before


def test_example_at_the_left_margin_when_that_is_exact(project: Path) -> None:
    prompt = render_prompt(["app/cart.py"], task="", root=project)
    example = example_blocks(prompt)[0]
    assert example.splitlines()[1:3] == ["# FILE: app/cart.py", "# TARGET_NODE: method Cart.__init__"]
    assert example.splitlines()[3] == "def __init__(self) -> None:"


def test_generic_example_when_no_definition_fits(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text("print('hello')\n")
    prompt = render_prompt(["main.py"], task="", root=tmp_path)
    assert "Targets: none (send the whole file to change it)" in prompt
    assert "(An illustration: app/models.py is not one of your files.)" in prompt
    assert "# TARGET_NODE: method User.display_name" in prompt
    assert "TARGET_PATH" not in prompt  # no JSON file, so no JSON rule or example


def test_only_the_languages_present_get_examples(project: Path) -> None:
    prompt = render_prompt(["package.json"], task="", root=project)
    assert "// TARGET_PATH: " in prompt
    assert "TARGET_NODE: " not in prompt.split("# Reply format", 1)[1].split("Rules:", 1)[1]


def test_fence_is_longer_than_any_backtick_run() -> None:
    assert fence_for("plain") == "```"
    assert fence_for("a ``` b") == "````"
    assert fence_for("``````") == "```````"


def test_sample_file_with_backticks_gets_a_longer_fence(project: Path) -> None:
    prompt = render_prompt(["app/cart.py"], task="", root=project)
    assert "\n````python\n" in prompt


def test_prompt_stdout_prints_the_prompt_only(project: Path, tmp_path: Path) -> None:
    task_file = tmp_path / "task.md"
    task_file.write_text("Rename Cart to Basket.\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "kopipasta", "prompt", *SAMPLE_FILES, "--root", str(project),
         "-t", f"@{task_file}", "--stdout"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == render_prompt(SAMPLE_FILES, task="Rename Cart to Basket.", root=project)
    assert result.stdout.endswith("# Task\n\nRename Cart to Basket.\n")
    assert "## src/CartView.tsx\nTargets: interface Props, function CartRow, function CartView\n```tsx\n" in result.stdout


def test_prompt_without_task_ends_ready_for_one(project: Path) -> None:
    assert render_prompt(["package.json"], task="", root=project).endswith("# Task\n\n")


def test_prompt_missing_file_is_one_line(project: Path) -> None:
    result = CliRunner().invoke(main, ["prompt", "app/nope.py", "--root", str(project), "--stdout"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == "❌ No such file: app/nope.py — paths are relative to the project root (--root)\n"


def test_prompt_unreadable_task_file(project: Path) -> None:
    result = CliRunner().invoke(main, ["prompt", "package.json", "--root", str(project), "-t", "@missing.md"])
    assert result.exit_code == 1
    assert result.stderr == "❌ Cannot read the task from missing.md: No such file or directory\n"


def test_project_template_and_template_option(project: Path, tmp_path: Path) -> None:
    (project / ".kopipasta").mkdir()
    (project / ".kopipasta" / "prompt.j2").write_text("project: {{ files | map(attribute='path') | join(',') }}\n")
    assert render_prompt(SAMPLE_FILES, task="", root=project) == "project: app/cart.py,src/CartView.tsx,package.json\n"
    mine = tmp_path / "mine.j2"
    mine.write_text("{{ task }} / {{ examples | map(attribute='target') | join(' | ') }}")
    assert render_prompt(SAMPLE_FILES, task="t", root=project, template=mine) == (
        "t / method Cart.__init__ | function CartRow | dependencies\n"
    )


def test_broken_template_is_one_line(project: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.j2"
    broken.write_text("line one\n{% for x in %}\n")
    result = CliRunner().invoke(
        main, ["prompt", "package.json", "--root", str(project), "--template", str(broken), "--stdout"]
    )
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"❌ Template {broken}, line 2: ")


def test_prompt_copies_and_says_so(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clipboard: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", clipboard.append)
    monkeypatch.setattr(pyperclip, "paste", lambda: clipboard[-1])
    result = CliRunner().invoke(main, ["prompt", *SAMPLE_FILES, "--root", str(project), "-t", "Do it."])
    assert result.exit_code == 0, result.output
    assert clipboard == [render_prompt(SAMPLE_FILES, task="Do it.", root=project)]
    from kopipasta.loop.tokens import count_tokens

    assert result.stdout == f"📋 Copied the prompt to the clipboard: 3 files, {count_tokens(clipboard[0]).label()}.\n"
    assert result.stderr == ""


def test_no_clipboard_prints_the_prompt_and_says_why_once(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_clipboard(text: str) -> None:
        raise pyperclip.PyperclipException("Pyperclip could not find a copy/paste mechanism for your system.")

    monkeypatch.setattr(pyperclip, "copy", no_clipboard)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    result = CliRunner().invoke(main, ["prompt", *SAMPLE_FILES, "--root", str(project)])
    assert result.exit_code == 0
    assert result.stdout == render_prompt(SAMPLE_FILES, task="", root=project)
    assert result.stderr == (
        "⚠ Prompt printed, not copied: no clipboard (no graphical session: DISPLAY and WAYLAND_DISPLAY "
        "are unset, e.g. over SSH); on a desktop, install xclip or xsel (X11) or wl-clipboard (Wayland)\n"
    )


def test_clipboard_that_drops_the_text_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from kopipasta.loop.clipboard import copy_text

    monkeypatch.setattr(pyperclip, "copy", lambda text: None)
    monkeypatch.setattr(pyperclip, "paste", lambda: "")
    monkeypatch.setattr(time, "sleep", lambda seconds: None)  # asked again a few times, then told
    reason = copy_text("hello")
    assert reason is not None and "did not keep the text" in reason and "xclip" in reason


def test_clipboard_that_keeps_the_text_a_moment_late_is_a_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    # xclip's forked child claims the selection after `copy` returns; on a loaded machine the
    # first read-back still sees the old text. That is no failure.
    import time

    from kopipasta.loop.clipboard import copy_text

    answers = iter(["old text", "old text", "hello"])
    slept: list[float] = []
    monkeypatch.setattr(pyperclip, "copy", lambda text: None)
    monkeypatch.setattr(pyperclip, "paste", lambda: next(answers))
    monkeypatch.setattr(time, "sleep", slept.append)
    assert copy_text("hello") is None
    assert len(slept) == 2


def test_paste_text_raises_clipboard_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    from kopipasta.loop.clipboard import ClipboardUnavailable, paste_text

    def no_clipboard() -> str:
        raise pyperclip.PyperclipException("nothing")

    monkeypatch.setattr(pyperclip, "paste", no_clipboard)
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("DISPLAY", ":0")
    with pytest.raises(ClipboardUnavailable) as raised:
        paste_text()
    assert raised.value.reason == "no clipboard tool found; install xclip or xsel (X11) or wl-clipboard (Wayland)"
    monkeypatch.setattr(pyperclip, "paste", lambda: "reply")
    assert paste_text() == "reply"


def test_prompt_help_describes_every_option() -> None:
    for command in ("prompt", "nodes"):
        result = CliRunner().invoke(main, [command, "--help"])
        assert result.exit_code == 0
        for option in main.commands[command].params:
            assert option.name == "files" or getattr(option, "help", None), (command, option.name)


# --- issue 10, item 11: the example and the reply format's size --------------------------


def test_the_example_never_restates_what_the_task_names(tmp_path: Path) -> None:
    (tmp_path / "Table.tsx").write_text(
        "export function TableBody({ rows }: { rows: string[] }) {\n  return <tbody>{rows}</tbody>;\n}\n\n"
        "export function TableHead({ columns }: { columns: string[] }) {\n"
        "  return (\n    <thead>\n      <tr>{columns.map((c) => <th key={c}>{c}</th>)}</tr>\n    </thead>\n  );\n}\n"
    )
    # TableBody is the shortest function, so it is the example unless the task names it.
    untold = example_blocks(render_prompt(["Table.tsx"], task="Add a footer", root=tmp_path))[0]
    assert "// TARGET_NODE: function TableBody" in untold
    told = example_blocks(render_prompt(["Table.tsx"], task="Make TableBody sortable", root=tmp_path))[0]
    assert "// TARGET_NODE: function TableHead" in told
    # Restated as the file has it: with its `export`.
    assert told.splitlines()[3] == "export function TableHead({ columns }: { columns: string[] }) {"


def test_a_method_of_a_class_the_task_names_is_not_the_example(project: Path) -> None:
    prompt = render_prompt(["app/cart.py"], task="Change Cart so totals round", root=project)
    assert "TARGET_NODE: method Cart." not in prompt.split("# Reply format", 1)[1]


@pytest.mark.parametrize("task", ["Add a method that counts the items", "Create a new helper function for totals"])
def test_a_task_that_adds_a_definition_gets_an_insert_example_that_applies(project: Path, task: str) -> None:
    prompt = render_prompt(["app/cart.py"], task=task, root=project)
    block = example_blocks(prompt)[0]
    lines = block.splitlines()
    assert lines[1] == "# FILE: app/cart.py" and lines[2].startswith("# INSERT_AFTER: method Cart.")
    assert "(Adding: the block holds only the new definition; this one already follows method Cart." in prompt
    # Restating what already follows its anchor: applied, it changes nothing.
    result = kopipasta("apply", "-", cwd=project, stdin=block + "\n")
    assert result.returncode == 0 and "1 unchanged" in result.stdout, result.stdout


def test_a_task_that_changes_a_definition_keeps_a_target_node_example(project: Path) -> None:
    block = example_blocks(render_prompt(["app/cart.py"], task="Round the totals", root=project))[0]
    assert block.splitlines()[2].startswith("# TARGET_NODE: ")


def python_file(functions: int, lines: int) -> str:
    body = "".join(f"    value_{j} = compute_something_long(argument_{j}, other_{j})\n" for j in range(lines))
    return "".join(f"def handler_{i}(request, settings):\n{body}    return value_0\n\n\n" for i in range(functions))


def test_the_reply_format_stays_under_500_tokens(tmp_path: Path, project: Path) -> None:
    from kopipasta.loop.prompt import PROTOCOL_TOKEN_LIMIT, estimate_tokens, protocol_part

    sample = protocol_part(render_prompt(SAMPLE_FILES, task=SAMPLE_TASK, root=project))
    assert sample.startswith("# Reply format") and "```json" in sample
    assert estimate_tokens(sample) < PROTOCOL_TOKEN_LIMIT
    # Three languages whose every definition is long (20 lines): the examples still fit.
    (tmp_path / "a.py").write_text(python_file(3, 18))
    (tmp_path / "b.ts").write_text(
        "".join(
            f"export function build{i}(input: string): string {{\n"
            + "".join(f"  const part{j} = input.slice({j}, {j + 1}).toUpperCase();\n" for j in range(18))
            + "  return input;\n}\n\n"
            for i in range(3)
        )
    )
    (tmp_path / "c.json").write_text(json.dumps({"scripts": {f"task{i}": f"run something {i}" for i in range(20)}}, indent=2))
    heavy = protocol_part(render_prompt(["a.py", "b.ts", "c.json"], task="", root=tmp_path))
    assert estimate_tokens(heavy) < PROTOCOL_TOKEN_LIMIT, heavy
