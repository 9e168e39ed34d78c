"""The format and verify steps do not run when the apply wrote a file they may load (issue 28, item 1).

Through the real CLI: a reply that writes a formatter's configuration (ruff's,
a real formatter from the test extras), a dotfile, a plugin-named file or a
name that reads as an option next to the file it patches gets exit 4, one
line naming the file, and the command never runs.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

PY = shlex.quote(sys.executable)
RUFF = f"{PY} -m ruff"
APP = "def f():\n    return 1\n"
PATCHED = "def f():\n    return   [1,2]\n"
# A command that leaves a mark when it runs: the tests check it never did.
MARKER = f"{PY} -c \"open('ran.txt', 'w').write('ran')\""


def kopipasta(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kopipasta", *args, "--root", str(root)],
        capture_output=True, text=True, check=False, cwd=root,
    )


def reply_writing(root: Path, extra_path: str, extra_text: str) -> str:
    reply = root.parent / "reply.md"
    reply.write_text(
        "```python\n# FILE: app.py\n# TARGET_NODE: f\ndef f():\n    return   [1,2]\n```\n\n"
        f"```text\n# FILE: {extra_path}\n{extra_text}```\n"
    )
    return str(reply)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text(APP)
    return root


def test_ruff_does_not_run_when_the_reply_wrote_its_configuration(project: Path) -> None:
    pytest.importorskip("ruff")
    reply = reply_writing(project, "ruff.toml", "indent-width = 2\n")
    result = kopipasta(project, "apply", reply, "--format-cmd", f"{RUFF} format {{files}}")
    assert result.returncode == 4, result.stdout + result.stderr
    assert (
        f"⛔ format not run: this apply wrote ruff.toml (tools read their configuration from it), which"
        f" `{RUFF} format app.py ruff.toml` may load — look at it, then run the command yourself"
    ) in result.stdout.splitlines()
    assert "▶ format" not in result.stdout
    assert (project / "app.py").read_text() == PATCHED  # as applied, not formatted
    assert (project / "ruff.toml").read_text() == "indent-width = 2\n"
    # The control: the same command run by hand does load the reply's configuration — real ruff
    # reads ruff.toml from the project, which is why the step was held.
    ran = subprocess.run([sys.executable, "-m", "ruff", "format", "app.py"], cwd=project, capture_output=True, text=True, check=False)
    assert ran.returncode == 0, ran.stderr
    assert (project / "app.py").read_text() == "def f():\n  return [1, 2]\n"


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("prettier.config.cjs", "it is a configuration file"),
        (".prettierrc.json", "a dotfile is where tools keep their configuration"),
        ("package.json", "tools read their configuration from it"),
        ("pyproject.toml", "tools read their configuration from it"),
        ("web/tsconfig.json", "it is a configuration file"),
        ("tools/prettier-plugin-x.cjs", "it is named as a plugin"),
        ("-x.cjs", "its name reads as an option"),
        ("config/.rubocop.yml", "a dotfile is where tools keep their configuration"),
        ("Makefile", "tools run it without asking"),
    ],
)
def test_no_format_command_runs_after_the_reply_wrote_what_it_may_load(project: Path, path: str, why: str) -> None:
    text = "x = 1\n" if path.endswith(".toml") else "{}\n"
    reply = reply_writing(project, path, text)
    result = kopipasta(project, "apply", reply, "--format-cmd", MARKER)
    assert result.returncode == 4, result.stdout + result.stderr
    held = [line for line in result.stdout.splitlines() if line.startswith("⛔")]
    assert held and held[0].startswith(f"⛔ format not run: this apply wrote {path} ({why}), which `"), held
    assert not (project / "ran.txt").exists()
    assert (project / path).read_text() == text


def test_the_verify_step_is_held_likewise_and_json_says_so(project: Path) -> None:
    reply = reply_writing(project, "pytest.ini", "[pytest]\naddopts = -p evil\n")
    result = kopipasta(project, "apply", reply, "--json", "--verify", MARKER)
    assert result.returncode == 4, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["exit_status"] == 4
    assert report["verify"]["held_by"] == "pytest.ini"
    assert report["verify"]["ran"] is False
    assert not (project / "ran.txt").exists()


def test_a_failed_patch_wins_over_the_held_step(project: Path) -> None:
    reply = project.parent / "reply.md"
    reply.write_text(
        "```python\n# FILE: app.py\n# TARGET_NODE: nowhere\ndef nowhere():\n    pass\n```\n\n"
        "```text\n# FILE: .editorconfig\nroot = true\n```\n"
    )
    result = kopipasta(project, "apply", str(reply), "--partial", "--format-cmd", MARKER)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "⛔ format not run: this apply wrote .editorconfig" in result.stdout
    assert not (project / "ran.txt").exists()


def test_plain_source_files_are_formatted_as_before(project: Path) -> None:
    reply = reply_writing(project, "lib/helpers.py", "X = 1\n")
    result = kopipasta(project, "apply", reply, "--format-cmd", MARKER)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (project / "ran.txt").read_text() == "ran"
