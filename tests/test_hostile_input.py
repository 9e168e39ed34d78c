"""Issue 11, items 8 and 10: inputs that used to end in a traceback, OS errors named
as such, read-only files, new-line styles, and paths that only look harmless.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import environment, leftovers, project_names, snapshot

FUNCTION_REPLY = "```python\n# FILE: {path}\n# TARGET_NODE: function f\ndef f():\n    return 2\n```\n"


def _whole(path: str, body: str = "x = 1\n") -> str:
    return f"```python\n# FILE: {path}\n{body}```\n"


@pytest.mark.parametrize("path", ["[/]x.py", "[bold]y.py", "[red]z[/red].py"])
def test_rich_markup_in_a_path_is_printed_as_written(tmp_path: Path, path: str) -> None:
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=_whole(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert path in result.stdout
    assert (tmp_path / path).read_text() == "x = 1\n"


def test_a_path_two_thousand_folders_deep_is_one_line(tmp_path: Path) -> None:
    # A directive line over 1,000 characters is not read as one (intake), so this
    # reply names no file: exit 2, nothing written, no RecursionError.
    path = "/".join(["d"] * 2000) + "/x.py"
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=_whole(path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert project_names(tmp_path) == []


def test_a_path_hundreds_of_folders_deep_is_written_and_undone(tmp_path: Path) -> None:
    path = "/".join(["d"] * 450) + "/x.py"
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=_whole(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / path).read_text() == "x = 1\n"
    undone = kopipasta("undo", cwd=tmp_path)
    assert undone.returncode == 0
    assert project_names(tmp_path) == []


def test_output_to_a_full_disk_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "r.md").write_text(_whole("a.py"))
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "kopipasta", "apply", "r.md"],
            cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, text=True, env=environment(),
        )
    assert result.returncode == 1
    assert result.stderr == "❌ Cannot write the output: No space left on device\n"


@pytest.mark.parametrize(
    ("path", "fragment"),
    [
        ("a" * 300 + ".py", "the name is too long"),
        ("bad\x00name.py", "invisible character (U+0000)"),
        ("loop/x.py", "`loop` is a symlink (a loop, or swapped in while applying)"),
        ("self.py", "`self.py` is a symlink (a loop, or swapped in while applying)"),
        ("folder", "it is not a regular file"),
    ],
)
def test_os_errors_name_the_file_and_the_cause(tmp_path: Path, path: str, fragment: str) -> None:
    os.symlink("loop", tmp_path / "loop")
    os.symlink("self.py", tmp_path / "self.py")
    (tmp_path / "folder").mkdir()
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=_whole(path))
    assert result.returncode == 1, result.stdout
    assert fragment in result.stdout
    assert "this is a bug" not in result.stdout
    assert project_names(tmp_path) == ["folder", "loop", "self.py"]


@pytest.mark.parametrize(
    ("fault", "fragment"),
    [
        ("patch:nomem", "Cannot patch app.py: not enough memory to parse it"),
        ("patch:eio", "Cannot read app.py: Input/output error"),
    ],
)
def test_resource_failures_are_not_reported_as_bugs(tmp_path: Path, fault: str, fragment: str) -> None:
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    result = kopipasta(
        "apply", "-", cwd=tmp_path, stdin=FUNCTION_REPLY.format(path="app.py"), env=environment(KOPIPASTA_FAULT=fault)
    )
    assert result.returncode == 1
    assert fragment in result.stdout
    assert (tmp_path / "app.py").read_text() == "def f():\n    return 1\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_file_says_permission_denied(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    (tmp_path / "app.py").chmod(0)
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=FUNCTION_REPLY.format(path="app.py"))
    assert result.returncode == 1
    assert "Cannot read app.py: Permission denied" in result.stdout


def test_a_read_only_file_is_refused_unless_forced(tmp_path: Path) -> None:
    app = tmp_path / "app.py"
    app.write_text("def f():\n    return 1\n")
    app.chmod(0o444)
    refused = kopipasta("apply", "-", cwd=tmp_path, stdin=FUNCTION_REPLY.format(path="app.py"))
    assert refused.returncode == 1
    assert "❌ Refusing to write app.py: it is read-only — make it writable (chmod u+w), or pass --force" in refused.stdout
    assert app.read_text() == "def f():\n    return 1\n"
    forced = kopipasta("apply", "--force", "-", cwd=tmp_path, stdin=FUNCTION_REPLY.format(path="app.py"))
    assert forced.returncode == 0
    assert app.read_text() == "def f():\n    return 2\n"
    assert stat.S_IMODE(app.stat().st_mode) == 0o444, "the file stays read-only"


MIXED = b"def f():\r\n    return 1\r\n\r\n\r\ndef g():\n    return 1\n\n\ndef h():\r\n    return 1\r\n"


def test_in_a_mixed_file_new_lines_take_the_style_of_the_lines_they_replace(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_bytes(MIXED)
    reply = (
        "```python\n# FILE: m.py\n# TARGET_NODE: function g\ndef g():\n    x = 2\n    return x\n```\n\n"
        "```python\n# FILE: m.py\n# TARGET_NODE: function h\ndef h():\n    y = 3\n    return y\n```\n"
    )
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply)
    assert result.returncode == 0, result.stdout
    assert (tmp_path / "m.py").read_bytes() == (
        b"def f():\r\n    return 1\r\n\r\n\r\n"
        b"def g():\n    x = 2\n    return x\n\n\n"
        b"def h():\r\n    y = 3\r\n    return y\r\n"
    )


def test_a_cr_only_file_keeps_cr(tmp_path: Path) -> None:
    (tmp_path / "mac.py").write_bytes(b"def f():\r    return 1\r\r\rdef g():\r    return 1\r")
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=FUNCTION_REPLY.format(path="mac.py"))
    assert result.returncode == 0, result.stdout
    assert (tmp_path / "mac.py").read_bytes() == b"def f():\r    return 2\r\r\rdef g():\r    return 1\r"
    assert kopipasta("apply", "-", cwd=tmp_path, stdin=FUNCTION_REPLY.format(path="mac.py")).returncode == 0


@pytest.mark.parametrize(
    "path",
    [".GIT/hooks/pre-commit", ".Git/config", "sub/.GiT/HEAD", ".KOPIPASTA/journal/x", "a/.Kopipasta/lock"],
)
def test_git_and_state_folders_are_refused_whatever_their_case(tmp_path: Path, path: str) -> None:
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=_whole(path))
    assert result.returncode == 1
    assert "files under .git/ and .kopipasta/ are not patched" in result.stdout
    assert project_names(tmp_path) == []


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("app\u200b.py", "U+200B"),  # zero-width space
        ("\u202eyp.exe", "U+202E"),  # right-to-left override
        ("src\u200f/app.py", "U+200F"),  # right-to-left mark
        ("a\u00a0b.py", "U+00A0"),  # no-break space
        ("x\ufeff.py", "U+FEFF"),  # zero-width no-break space
        ("tab\there.py", "U+0009"),
    ],
)
def test_invisible_characters_in_a_path_are_refused(tmp_path: Path, path: str, code: str) -> None:
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=_whole(path))
    assert result.returncode == 1, result.stdout
    assert f"it holds an invisible character ({code})" in result.stdout
    assert project_names(tmp_path) == []


def test_paths_with_visible_unicode_are_fine(tmp_path: Path) -> None:
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=_whole("données/café.py"))
    assert result.returncode == 0, result.stdout
    assert (tmp_path / "données" / "café.py").read_text() == "x = 1\n"
    assert leftovers(tmp_path) == []
    assert snapshot(tmp_path) == {"données/": "dir", "données/café.py": b"x = 1\n"}


def test_a_whole_yaml_file_of_aliases_past_the_budget_is_never_written_over_the_file(tmp_path: Path) -> None:
    """A "complete file" whose aliases expand past the budget cannot be compared with the file,
    so whether it drops keys cannot be told: it is refused, and the other service stays."""
    compose = 'services:\n  web:\n    image: nginx\n    ports:\n      - "80:80"\n  db:\n    image: postgres\n'
    (tmp_path / "compose.yaml").write_text(compose)
    bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for level in range(1, 12):
        previous, name = chr(96 + level), chr(97 + level)
        bomb.append(f"{name}: &{name} [{','.join([f'*{previous}'] * 9)}]")
    body = "services:\n  web:\n    image: nginx:1.25\n" + "\n".join(bomb) + "\n"
    reply = f"Here is the complete `compose.yaml`:\n\n```yaml\n# compose.yaml\n{body}```\n"
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply, timeout=60)
    assert result.returncode == 1
    assert "expands its aliases too far to compare its values" in result.stdout
    assert (tmp_path / "compose.yaml").read_text() == compose


@pytest.mark.parametrize("form", ["info string", "diff header"])
def test_a_path_past_the_longest_is_refused_in_one_line_wherever_it_is_written(tmp_path: Path, form: str) -> None:
    """A path is at most 1,024 bytes however the reply names it (a fence's info string and a diff's
    header are not directive lines, which intake bounds at 1,000 characters): a tree two thousand
    folders deep, written through folder descriptors, is one `rm -r` and git then fail to walk."""
    path = "/".join(["d"] * 2000) + "/x.py"
    if form == "info string":
        reply = f"```python:{path}\nx = 1\n```\n"
    else:
        reply = f"```diff\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+x = 1\n```\n"
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply)
    output = result.stdout + result.stderr
    assert result.returncode in (1, 2), output
    if result.returncode == 1:
        assert "it is 4004 bytes long (at most 1024)" in output
    assert project_names(tmp_path) == []
