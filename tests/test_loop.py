"""Issue 10, "the loop closes", as a user meets it on the command line (the session keys are in test_session.py).

Every test drives the real `kopipasta` in a child process with stdout on a pipe,
as a script, an agent or `| less` sees it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import kopipasta

APP = b"def greet():\n    return 'hi'\n\n\ndef other():\n    return 0\n"
PACKAGE = b'{\n  "name": "shop",\n  "scripts": {\n    "test": "vitest"\n  },\n  "dependencies": {}\n}\n'

# Block 1 is right, block 2 names a function that does not exist, block 3 uses TARGET_NODE on JSON.
MIXED_REPLY = """\
Here you go.

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

```json
// FILE: package.json
// TARGET_NODE: scripts
{ "test": "vitest run" }
```
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "shop"
    project.mkdir()
    (project / "app.py").write_bytes(APP)
    (project / "package.json").write_bytes(PACKAGE)
    (project / "reply.md").write_text(MIXED_REPLY, encoding="utf-8")
    return project


def log_lines(root: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (root / ".kopipasta" / "log.jsonl").read_text().splitlines()]


# --- 1. feedback -------------------------------------------------------------------------


def test_feedback_on_a_pipe_is_the_correction_message_alone(root: Path) -> None:
    result = kopipasta("apply", "reply.md", "--feedback", cwd=root)
    assert result.returncode == 1
    message = result.stdout
    assert message.startswith("kopipasta could not apply 2 blocks of the 3 patch blocks in your last reply.")
    # Each failed block: its header, its one-line reason and hint.
    assert "- block 2 (FILE: app.py, TARGET_NODE: function gret_all): `gret_all` not found in app.py" in message
    assert "- block 3 (FILE: package.json, TARGET_NODE: scripts): TARGET_NODE scripts in package.json: a JSON file has keys" in message
    # The held-back block must come again, or the next apply loses it.
    assert "- block 1 (FILE: app.py, TARGET_NODE: function greet)" in message.split("send them again, unchanged):")[1]
    # The real definitions, as `nodes` lists them.
    assert "- app.py: function greet, function other\n" in message
    assert "- package.json (TARGET_PATH keys): name, scripts, dependencies\n" in message
    assert "Resend only these blocks" in message
    # The model meant to add a function: say how, once.
    assert message.count("to add a new one, use `INSERT_AFTER: kind name` of an existing one") == 1
    assert "kopipasta nodes" not in message, "hints for the user, not the model, are left out"
    # The report went to stderr, and nothing was written.
    assert "2 failed" in result.stderr
    assert (root / "app.py").read_bytes() == APP


def test_feedback_in_json_and_none_when_nothing_failed(root: Path) -> None:
    result = kopipasta("apply", "reply.md", "--feedback", "--json", "--dry-run", cwd=root)
    data = json.loads(result.stdout)
    assert "Resend only these blocks" in data["feedback"]
    good = "```python\n# FILE: app.py\n# TARGET_NODE: function other\ndef other():\n    return 1\n```\n"
    result = kopipasta("apply", "-", "--feedback", "--json", cwd=root, stdin=good)
    assert json.loads(result.stdout)["feedback"] is None
    result = kopipasta("apply", "-", "--feedback", cwd=root, stdin=good.replace("return 1", "return 2"))
    assert result.returncode == 0 and result.stdout == ""


def test_feedback_for_a_reply_without_patches_teaches_the_format(root: Path) -> None:
    result = kopipasta("apply", "-", "--feedback", cwd=root, stdin="Just rename greet to hello.\n")
    assert result.returncode == 2
    assert result.stdout.startswith("kopipasta found no patch in your last reply (The reply holds no code blocks)")
    assert "`FILE: path`, then `TARGET_NODE: kind name`" in result.stdout


# --- 2. partial --------------------------------------------------------------------------


def test_partial_writes_each_block_that_succeeded_and_says_so(root: Path) -> None:
    result = kopipasta("apply", "reply.md", "--partial", cwd=root)
    assert result.returncode == 1  # blocks still failed
    assert (root / "app.py").read_bytes() == APP.replace(b"'hi'", b"'hello'")
    assert (root / "package.json").read_bytes() == PACKAGE
    assert "✅ applied  +1 -1  written without failed block 2 (--partial)" in result.stdout
    assert result.stdout.rstrip().endswith("1 applied, 2 failed. 1 file written.")
    undone = kopipasta("undo", cwd=root)
    assert undone.returncode == 0 and (root / "app.py").read_bytes() == APP


def test_without_partial_a_failure_holds_back_its_file(root: Path) -> None:
    result = kopipasta("apply", "reply.md", cwd=root)
    assert "not written: block 2 on this file failed" in result.stdout
    assert (root / "app.py").read_bytes() == APP


def test_partial_and_strict_exclude_each_other(root: Path) -> None:
    result = kopipasta("apply", "reply.md", "--partial", "--strict", cwd=root)
    assert result.returncode == 2 and "choose one" in result.stderr
    assert (root / "app.py").read_bytes() == APP


# --- 3. log and stats --------------------------------------------------------------------


def test_log_has_one_line_per_real_apply_and_no_code(root: Path) -> None:
    kopipasta("apply", "reply.md", "--dry-run", cwd=root)
    assert not (root / ".kopipasta" / "log.jsonl").exists(), "a dry run is not logged"
    kopipasta("apply", "reply.md", "--partial", cwd=root)
    kopipasta("apply", "-", cwd=root, stdin="### app.py\n```python\ndef greet():\n    return 'hey'\n```\n")
    kopipasta("undo", cwd=root)
    lines = log_lines(root)
    assert [line["event"] for line in lines] == ["apply", "apply", "undo"]
    first = lines[0]
    assert first["exit_status"] == 1 and first["partial"] is True and first["written"] is True
    assert first["blocks"] == [
        {"form": "directive", "named_by": "directive", "operation": "replace_node", "language": "python", "status": "applied", "failure": None},
        {"form": "directive", "named_by": "directive", "operation": "replace_node", "language": "python", "status": "failed", "failure": "TargetNotFound"},
        {"form": "directive", "named_by": "directive", "operation": "replace_node", "language": "json", "status": "failed", "failure": "UnsupportedFile"},
    ]
    # One function for a two-function file is a fragment (issue 6): `other` is kept.
    assert lines[1]["blocks"][0]["form"] == "inferred fragment" and lines[1]["blocks"][0]["named_by"] == "context"
    raw = (root / ".kopipasta" / "log.jsonl").read_text()
    assert "greet" not in raw and "app.py" not in raw and "hello" not in raw, "the log holds no code, path or name"


def test_stats_counts_protocol_failures_and_undos(root: Path) -> None:
    assert "No apply log yet" in kopipasta("stats", cwd=root).stdout
    kopipasta("apply", "reply.md", "--partial", cwd=root)
    kopipasta("apply", "-", cwd=root, stdin="### app.py\n```python\ndef greet():\n    return 'hey'\n```\n")
    kopipasta("apply", "-", cwd=root, stdin="no code at all\n")
    kopipasta("undo", cwd=root)
    result = kopipasta("stats", cwd=root)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("3 applies logged in .kopipasta/log.jsonl")
    assert "Replies that followed the protocol: 1 of 3 (33%); 1 held no patch at all" in lines
    assert "Blocks: 4 (2 applied, 2 failed); 50% failed" in lines
    assert "  how they were written: directive 3 (2 failed), inferred fragment 1" in lines
    assert "Why blocks failed: target not found 1, unsupported file 1" in lines
    assert "Undo rate: 1 undo for 2 applies that wrote files (50%)" in lines
    data = json.loads(kopipasta("stats", "--json", cwd=root).stdout)
    assert data["applies"] == 3 and data["undos"] == 1 and data["failures"] == {"TargetNotFound": 1, "UnsupportedFile": 1}


# --- 4. files, directories, globs --------------------------------------------------------


def make_tree(root: Path) -> None:
    (root / "src" / "lib").mkdir(parents=True)
    (root / "src" / "a.py").write_text("def a():\n    return 1\n")
    (root / "src" / "lib" / "b.ts").write_text("export function b(): number {\n  return 2;\n}\n")
    (root / "src" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (root / "src" / "build").mkdir()
    (root / "src" / "build" / "out.py").write_text("X = 1\n")
    (root / ".gitignore").write_text("build/\n*.log\n")
    (root / "src" / "debug.log").write_text("noise\n")
    (root / ".kopipasta").mkdir(exist_ok=True)
    (root / ".kopipasta" / "prompt.txt").write_text("state\n")


def test_prompt_takes_files_directories_and_globs(root: Path) -> None:
    make_tree(root)
    result = kopipasta("prompt", "app.py", "src", "--stdout", "-t", "Add b", cwd=root)
    assert result.returncode == 0, result.stderr
    headings = [line[3:] for line in result.stdout.splitlines() if line.startswith("## ")]
    assert headings == ["app.py", "src/a.py", "src/lib/b.ts"]
    assert "⚠ Skipped 1 file that is not text" in result.stderr
    result = kopipasta("prompt", "src/**/*.ts", "*.json", "--stdout", cwd=root)
    headings = [line[3:] for line in result.stdout.splitlines() if line.startswith("## ")]
    assert headings == ["src/lib/b.ts", "package.json"]


def test_bare_kopipasta_with_files_is_a_session(root: Path) -> None:
    # Without a terminal the session applies stdin once; with files named first it is still a session.
    reply = "```python\n# FILE: app.py\n# TARGET_NODE: function other\ndef other():\n    return 5\n```\n"
    result = kopipasta("app.py", "src/", "-t", "task", cwd=root, stdin=reply)
    assert "No such command" not in result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
    assert b"return 5" in (root / "app.py").read_bytes()
    typo = kopipasta("aply", cwd=root)
    assert typo.returncode == 2 and "No such command 'aply'" in typo.stderr


def test_a_glob_that_matches_nothing_is_said(root: Path) -> None:
    result = kopipasta("prompt", "app.py", "nothing/*.py", "--stdout", cwd=root)
    assert result.returncode == 0
    assert "⚠ nothing/*.py matched no text file" in result.stderr


# --- 5. settings -------------------------------------------------------------------------


def test_template_from_pyproject_and_kopipasta_toml(root: Path) -> None:
    (root / "prompts").mkdir()
    (root / "prompts" / "team.j2").write_text("TEAM {{ task }} {% for f in files %}[{{ f.path }}]{% endfor %}\n")
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\n\n[tool.kopipasta]\ntemplate = "prompts/team.j2"\n')
    result = kopipasta("prompt", "app.py", "--stdout", "-t", "go", cwd=root)
    assert result.stdout == "TEAM go [app.py]\n"
    (root / "own.j2").write_text("OWN {{ examples | length }}\n")
    (root / "kopipasta.toml").write_text('template = "own.j2"\nexclude = ["*.json"]\n')
    assert kopipasta("prompt", "app.py", "--stdout", cwd=root).stdout == "OWN 1\n"
    # --template still wins, and `exclude` applies to directories walked.
    (root / "cli.j2").write_text("{% for f in files %}{{ f.path }} {% endfor %}\n")
    result = kopipasta("prompt", ".", "--stdout", "--template", "cli.j2", cwd=root)
    assert result.stdout.split() == ["app.py", "cli.j2", "kopipasta.toml", "own.j2", "pyproject.toml", "reply.md", "prompts/team.j2"]


def test_a_bad_setting_is_one_line(root: Path) -> None:
    (root / "kopipasta.toml").write_text('templat = "x.j2"\n')
    result = kopipasta("prompt", "app.py", "--stdout", cwd=root)
    assert result.returncode == 1
    assert result.stderr == "❌ Unknown setting 'templat' in kopipasta.toml — the settings are: template, exclude, token_warning, outline, format\n"
    (root / "kopipasta.toml").write_text("template = \n")
    result = kopipasta("prompt", "app.py", "--stdout", cwd=root)
    assert result.returncode == 1 and result.stderr.startswith("❌ Cannot read settings from kopipasta.toml:")


# --- 6. words ------------------------------------------------------------------------------


def test_report_uses_the_protocols_words_and_a_dry_run_would_apply(root: Path) -> None:
    reply = (
        "```json\n// FILE: package.json\n// TARGET_PATH: scripts.lint\n\"eslint .\"\n```\n\n"
        "```python\n# FILE: app.py\n# INSERT_AFTER: function greet\ndef wave():\n    return 'o/'\n```\n"
    )
    result = kopipasta("apply", "-", "--dry-run", cwd=root, stdin=reply)
    assert result.returncode == 0, result.stdout
    assert "TARGET_PATH scripts.lint" in result.stdout and "INSERT_AFTER function greet" in result.stdout
    assert "SET_PATH" not in result.stdout and "REPLACE_NODE" not in result.stdout
    assert result.stdout.count("✅ would apply") == 2 and "✅ applied" not in result.stdout
    result = kopipasta("apply", "-", cwd=root, stdin=reply)
    assert result.stdout.count("✅ applied") == 2


# --- 7. hints ------------------------------------------------------------------------------


def test_target_node_on_json_says_target_path_and_lists_the_keys(root: Path) -> None:
    result = kopipasta("apply", "reply.md", cwd=root)
    assert (
        "❌ TARGET_NODE scripts in package.json: a JSON file has keys, not definitions — "
        "use TARGET_PATH: scripts (its top-level keys: name, scripts, dependencies)"
    ) in result.stdout


def test_a_partial_json_file_suggests_target_path(root: Path) -> None:
    reply = '```json\n// FILE: package.json\n{\n  "name": "shop",\n  ...\n}\n```\n'
    result = kopipasta("apply", "-", cwd=root, stdin=reply)
    assert result.returncode == 1
    assert "send the complete file, or a TARGET_PATH block for just the value that changes" in result.stdout
    assert "TARGET_NODE" not in result.stdout


# --- 8. output -----------------------------------------------------------------------------


def test_piped_output_is_never_wrapped(root: Path) -> None:
    deep = "src/components/tables/with/a/long/path/DataTableWithManyColumns.py"
    (root / deep).parent.mkdir(parents=True)
    (root / deep).write_text("def render_every_column_of_the_table():\n    return 1\n")
    reply = (
        f"```python\n# FILE: {deep}\n# TARGET_NODE: function render_every_column_of_the_table\n"
        "def render_every_column_of_the_table():\n    return 2\n```\n"
    )
    result = kopipasta("apply", "-", cwd=root, stdin=reply)
    row = next(line for line in result.stdout.splitlines() if line.startswith("1 "))
    assert len(row) > 80
    assert f"{deep}  function render_every_column_of_the_table  ✅ applied  +1 -1" in row
    assert "\x1b[" not in result.stdout, "no colour codes on a pipe"


def test_json_with_diff_has_each_files_diff(root: Path) -> None:
    result = kopipasta("apply", "reply.md", "--json", "--diff", "--partial", "--dry-run", cwd=root)
    data = json.loads(result.stdout)
    assert data["diffs"] == [
        {
            "file": "app.py",
            "diff": "--- a/app.py\n+++ b/app.py\n@@ -1,5 +1,5 @@\n def greet():\n-    return 'hi'\n+    return 'hello'\n \n \n def other():\n",
        }
    ]
    assert "diffs" not in json.loads(kopipasta("apply", "reply.md", "--json", "--dry-run", cwd=root).stdout)


def test_a_missing_reply_file_under_json_is_a_json_error(root: Path) -> None:
    result = kopipasta("apply", "nope.md", "--json", cwd=root)
    assert result.returncode == 2
    data = json.loads(result.stdout)
    assert data["exit_status"] == 2 and data["error"].startswith("Cannot read reply nope.md:") and data["blocks"] == []
    assert result.stderr.startswith("❌ Cannot read reply nope.md:")


# --- 10. the empty task, said once -------------------------------------------------------------


def test_prompt_without_a_task_says_it_ends_with_an_empty_task(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pyperclip
    from click.testing import CliRunner

    from kopipasta.cli import main

    clipboard: list[str] = []
    monkeypatch.setattr(pyperclip, "copy", clipboard.append)
    monkeypatch.setattr(pyperclip, "paste", lambda: clipboard[-1])
    result = CliRunner().invoke(main, ["prompt", "app.py", "--root", str(root)])
    assert result.exit_code == 0
    assert result.stdout.count("It ends with an empty task: write yours below it in the chat.") == 1
    result = CliRunner().invoke(main, ["prompt", "app.py", "--root", str(root), "-t", "go"])
    assert "empty task" not in result.stdout
