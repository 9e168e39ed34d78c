"""`apply --format-cmd` and the `format` setting, with a real formatter (ruff, from the test extras).

The formatter runs after the write and before --verify, on exactly the files
the apply wrote; its failure is reported but is not the exit status; undo
right after it puts back the bytes from before the apply (issue 21, item 4).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ruff")

RUFF = f"{shlex.quote(sys.executable)} -m ruff"
APP = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
UNTOUCHED = "x  =  1\n"  # badly formatted, but not the apply's: the formatter must not see it
REPLY = "```python\n# FILE: app.py\n# TARGET_NODE: f\ndef f( ):\n    return   [1,2]\n```\n"
FORMATTED = "def f():\n    return [1, 2]\n\n\ndef g():\n    return 2\n"
AS_APPLIED = "def f( ):\n    return   [1,2]\n\n\ndef g():\n    return 2\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text(APP)
    (root / "other.py").write_text(UNTOUCHED)
    (tmp_path / "reply.md").write_text(REPLY)
    return root


def kopipasta(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kopipasta", *args, "--root", str(root)],
        capture_output=True, text=True, check=False, cwd=root,
    )


def test_the_formatter_runs_on_the_written_files_and_undo_restores_the_bytes_before_the_apply(project: Path) -> None:
    reply = str(project.parent / "reply.md")
    result = kopipasta(project, "apply", reply, "--format-cmd", f"{RUFF} format {{files}}",
                       "--verify", f"{shlex.quote(sys.executable)} -c 'import app; assert app.f() == [1, 2]'")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert f"▶ format: {RUFF} format app.py" in lines
    assert f"✅ format: `{RUFF} format app.py` exited with status 0, reformatted app.py" in lines
    # Format before verify: the verify line comes after the format line.
    assert lines.index(f"✅ format: `{RUFF} format app.py` exited with status 0, reformatted app.py") < next(
        i for i, line in enumerate(lines) if line.startswith("✅ verify passed"))
    assert (project / "app.py").read_text() == FORMATTED
    assert (project / "other.py").read_text() == UNTOUCHED

    undone = kopipasta(project, "undo")
    assert undone.returncode == 0, undone.stderr
    assert undone.stdout == "↩ Undone: restored app.py (nothing more to undo).\n"
    assert (project / "app.py").read_text() == APP


def test_a_failing_formatter_is_reported_not_the_verdict(project: Path) -> None:
    # ruff's --check exits 1 when it would reformat: a real formatter failing.
    (project / "kopipasta.toml").write_text(f'format = "{RUFF} format --check {{files}}"\n'.replace("\\", "\\\\"))
    result = kopipasta(project, "apply", str(project.parent / "reply.md"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert (
        f"⚠ format failed: `{RUFF} format --check app.py` exited with status 1, no file changed (not the verdict)"
        in result.stdout.splitlines()
    )
    assert (project / "app.py").read_text() == AS_APPLIED
    assert kopipasta(project, "undo").returncode == 0
    assert (project / "app.py").read_text() == APP


def test_revert_on_fail_after_a_format_puts_back_the_bytes_before_the_apply(project: Path) -> None:
    result = kopipasta(project, "apply", str(project.parent / "reply.md"), "--json",
                       "--format-cmd", f"{RUFF} format {{files}}", "--verify", "false", "--revert-on-fail")
    assert result.returncode == 3
    report = json.loads(result.stdout)
    assert report["format"]["reformatted"] == ["app.py"]
    assert report["format"]["passed"] is True
    assert report["verify"]["reverted"] is True and report["verify"]["restored"] == ["app.py"]
    assert (project / "app.py").read_text() == APP


def test_the_setting_is_off_for_one_run_with_an_empty_format_cmd_and_never_runs_on_a_dry_run(project: Path) -> None:
    (project / "kopipasta.toml").write_text(f'format = "{RUFF} format {{files}}"\n'.replace("\\", "\\\\"))
    dry = kopipasta(project, "apply", str(project.parent / "reply.md"), "--dry-run")
    assert "– format not run: --dry-run wrote nothing" in dry.stdout.splitlines()
    off = kopipasta(project, "apply", str(project.parent / "reply.md"), "--format-cmd", "")
    assert off.returncode == 0 and "format" not in off.stdout
    assert (project / "app.py").read_text() == AS_APPLIED


def test_a_format_setting_that_is_not_a_command_fails_before_anything_is_written(project: Path) -> None:
    (project / "kopipasta.toml").write_text("format = 3\n")
    result = kopipasta(project, "apply", str(project.parent / "reply.md"))
    assert result.returncode == 2
    assert result.stderr == (
        "❌ Setting 'format' in kopipasta.toml must be a command (a string)"
        ' — e.g. format = "ruff format {files}"\n'
    )
    assert (project / "app.py").read_text() == APP
    as_json = kopipasta(project, "apply", str(project.parent / "reply.md"), "--json")
    assert as_json.returncode == 2
    assert json.loads(as_json.stdout)["error"].startswith("Setting 'format' in kopipasta.toml must be a command")


def test_paths_are_quoted_for_the_shell(tmp_path: Path) -> None:
    from kopipasta.loop.formatter import command_for

    assert command_for("black -q {files}", ["a.py", "my dir/b.py"]) == "black -q a.py 'my dir/b.py'"
    assert command_for("black -q", ["a.py"]) == "black -q a.py"
