"""`apply --verify CMD [--revert-on-fail]` and `--only GLOB`, with real commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from cli_process import kopipasta

from kopipasta.disk import journal

ORIGINAL = b"def area(w, h):\n    return w * h\n"

GOOD_REPLY = """\
```python
# FILE: shapes.py
# TARGET_NODE: function area
def area(w, h):
    return abs(w * h)
```

```python
# FILE: extra.py
EXTRA = 1
```
"""

# Valid for the splicer (a module-level string literal) but the check fails on it.
FAILING = 'python -c "import sys; print(\'check output\'); sys.exit(1)"'
PASSING = "python -m py_compile shapes.py extra.py"


def project(tmp_path: Path, reply: str = GOOD_REPLY) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "shapes.py").write_bytes(ORIGINAL)
    (root / "reply.md").write_text(reply, encoding="utf-8")
    return root


def test_verify_passes(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", "--verify", PASSING, cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"▶ verify: {PASSING}" in result.stdout
    assert f"✅ verify passed: `{PASSING}` exited with status 0" in result.stdout
    assert b"abs(w * h)" in (root / "shapes.py").read_bytes()


def test_verify_runs_in_the_root_with_the_shell(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta(
        "apply", str(root / "reply.md"), "--root", str(root),
        "--verify", "test -f extra.py && echo in-root-$((40 + 2))",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "in-root-42" in result.stdout


def test_verify_failure_is_exit_3_and_keeps_the_files(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", "--verify", FAILING, cwd=root)
    assert result.returncode == 3
    assert "check output" in result.stdout, "the command's output is shown"
    assert f"❌ verify failed: `{FAILING}` exited with status 1" in result.stdout
    assert b"abs(w * h)" in (root / "shapes.py").read_bytes()
    assert (root / "extra.py").exists()
    assert journal.depth(root) == 1, "without --revert-on-fail the apply stays undoable"


def test_revert_on_fail_restores_exactly_what_this_apply_wrote(tmp_path: Path) -> None:
    root = project(tmp_path)
    # An earlier apply stays in place: the revert touches only this one.
    (root / "earlier.md").write_text("```python\n# FILE: earlier.py\nE = 0\n```\n", encoding="utf-8")
    assert kopipasta("apply", "earlier.md", cwd=root).returncode == 0

    result = kopipasta("apply", "reply.md", "--verify", FAILING, "--revert-on-fail", cwd=root)
    assert result.returncode == 3
    assert "↩ Reverted this apply: restored shapes.py; removed extra.py" in result.stdout
    assert (root / "shapes.py").read_bytes() == ORIGINAL
    assert not (root / "extra.py").exists()
    assert (root / "earlier.py").read_bytes() == b"E = 0\n"
    assert journal.depth(root) == 1


def test_revert_on_fail_with_a_real_syntax_check(tmp_path: Path) -> None:
    # The check that fails is py_compile of a file the reply does not touch.
    root = project(tmp_path)
    (root / "broken.py").write_text("def oops(:\n", encoding="utf-8")
    result = kopipasta(
        "apply", "reply.md", "--verify", "python -m py_compile shapes.py broken.py",
        "--revert-on-fail", cwd=root,
    )
    assert result.returncode == 3
    assert "SyntaxError" in result.stdout
    assert (root / "shapes.py").read_bytes() == ORIGINAL


def test_revert_refuses_when_the_verify_command_changed_a_file(tmp_path: Path) -> None:
    root = project(tmp_path)
    command = "echo '# formatted' >> shapes.py; exit 1"
    result = kopipasta("apply", "reply.md", "--verify", command, "--revert-on-fail", cwd=root)
    assert result.returncode == 3
    assert "❌ Not reverted: the verify command changed shapes.py after the apply" in result.stdout
    assert (root / "shapes.py").read_bytes().endswith(b"# formatted\n")
    forced = kopipasta("undo", "--force", cwd=root)
    assert forced.returncode == 0
    assert (root / "shapes.py").read_bytes() == ORIGINAL


def test_verify_json_goes_to_stderr_and_into_the_report(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", "--json", "--verify", FAILING, "--revert-on-fail", cwd=root)
    assert result.returncode == 3
    data = json.loads(result.stdout)
    assert "check output" in result.stderr
    assert data["exit_status"] == 3
    assert data["verify"] == {
        "command": FAILING,
        "ran": True,
        "exit_status": 1,
        "passed": False,
        "skipped": None,
        "error": None,
        "reverted": True,
        "restored": ["shapes.py"],
        "deleted": ["extra.py"],
        "revert_error": None,
        "held_by": None,
    }
    assert (root / "shapes.py").read_bytes() == ORIGINAL


def test_verify_json_passing(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", "--json", "--verify", PASSING, cwd=root)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["exit_status"] == 0
    assert data["verify"]["passed"] is True


def test_verify_is_not_run_on_a_dry_run(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", "--dry-run", "--verify", "touch ran", cwd=root)
    assert result.returncode == 0
    assert "– verify not run: --dry-run wrote nothing" in result.stdout
    assert not (root / "ran").exists()


def test_verify_runs_when_everything_is_already_in_place(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "reply.md", cwd=root).returncode == 0
    result = kopipasta("apply", "reply.md", "--verify", FAILING, "--revert-on-fail", cwd=root)
    assert result.returncode == 3
    assert "❌ Not reverted: this apply wrote nothing" in result.stdout
    assert b"abs(w * h)" in (root / "shapes.py").read_bytes()


def test_a_failed_patch_outranks_a_failed_verify(tmp_path: Path) -> None:
    reply = GOOD_REPLY + "\n```python\n# FILE: shapes.py\n# TARGET_NODE: missing\ndef missing():\n    pass\n```\n"
    root = project(tmp_path, reply)
    result = kopipasta("apply", "reply.md", "--verify", FAILING, cwd=root)
    assert result.returncode == 1
    assert "verify failed" in result.stdout  # extra.py was written, so the check ran


def test_revert_on_fail_needs_verify(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", "--revert-on-fail", cwd=root)
    assert result.returncode == 2
    assert "--revert-on-fail needs --verify" in result.stderr
    assert (root / "shapes.py").read_bytes() == ORIGINAL


def test_only_confines_the_reply(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", "--only", "shapes.py", cwd=root)
    assert result.returncode == 1
    assert "extra.py is outside the files this run may change (--only shapes.py)" in result.stdout
    assert b"abs(w * h)" in (root / "shapes.py").read_bytes()
    assert not (root / "extra.py").exists()


def test_only_is_repeatable_and_takes_globs(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", "--only", "shap*.py", "--only", "extra.*", cwd=root)
    assert result.returncode == 0, result.stdout
    assert (root / "extra.py").exists()


def test_help_documents_every_exit_status() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kopipasta", "apply", "--help"],
        capture_output=True, text=True, encoding="utf-8", timeout=120, check=True,
    )
    for line in ("  0  every patch applied", "  1  at least one patch failed", "  2  the reply", "  3  the patches were written"):
        assert line in result.stdout
    for option in ("--verify CMD", "--revert-on-fail", "--only GLOB"):
        assert option in result.stdout
