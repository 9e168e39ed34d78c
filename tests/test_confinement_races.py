"""Issue 11, items 2–4: confinement at the moment of writing, one file under two names,
changes made by others during an apply, and the lock that makes applies take turns.

Races are run with a real second process: the apply pauses at a chosen point
(the KOPIPASTA_FAULT hook) while the test changes the disk under it, or a
swapper process exchanges a folder and a symlink in a loop while applies run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import Paused, environment, leftovers, snapshot

TARGET = "def target():\n    return 'inside'\n"
REPLY_NODE = "```python\n# FILE: sub/target.py\n# TARGET_NODE: function target\ndef target():\n    return 'patched'\n```\n"
REPLY_WHOLE = "```python\n# FILE: sub/target.py\ndef target():\n    return 'whole'\n```\n"


def _sandbox(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "target.py").write_text(TARGET)
    canary = tmp_path / "canary"
    canary.mkdir()
    (canary / "target.py").write_text(TARGET)
    (root / "node.md").write_text(REPLY_NODE)
    (root / "whole.md").write_text(REPLY_WHOLE)
    return root, canary


def _swap_in_symlink(root: Path) -> None:
    os.rename(root / "sub", root / "sub_real")
    os.symlink("../canary", root / "sub")


@pytest.mark.parametrize("reply", ["node.md", "whole.md"])
@pytest.mark.parametrize("point", ["journal-staged", "before-prepare"])
def test_a_folder_swapped_for_a_symlink_mid_apply_is_not_written_through(
    tmp_path: Path, reply: str, point: str
) -> None:
    root, canary = _sandbox(tmp_path)
    outside = snapshot(tmp_path / "canary")
    paused = Paused(root, point, "apply", reply)
    assert paused.wait_paused()
    _swap_in_symlink(root)
    result = paused.resume()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "`sub` is a symlink" in result.stdout
    assert snapshot(canary) == outside, "nothing outside the root is written"
    assert (root / "sub_real" / "target.py").read_text() == TARGET
    assert leftovers(tmp_path) == []
    assert not list((root / ".kopipasta" / "journal").iterdir()), "the refused apply leaves no entry"


def test_undo_does_not_follow_a_folder_swapped_for_a_symlink(tmp_path: Path) -> None:
    root, canary = _sandbox(tmp_path)
    assert kopipasta("apply", "node.md", cwd=root).returncode == 0
    patched = (root / "sub" / "target.py").read_text()
    (canary / "target.py").write_text(patched)  # the outside file looks like the apply's result
    outside = snapshot(canary)
    paused = Paused(root, "before-prepare", "undo")
    assert paused.wait_paused()
    _swap_in_symlink(root)
    result = paused.resume()
    assert result.returncode == 1
    assert "symlink" in result.stderr
    assert snapshot(canary) == outside
    assert leftovers(tmp_path) == []


SWAPPER = textwrap.dedent(
    """
    import os, sys, time
    root, stop = sys.argv[1], sys.argv[2]
    while not os.path.exists(stop):
        try:
            os.rename(os.path.join(root, "sub"), os.path.join(root, "sub_real"))
            os.symlink("../canary", os.path.join(root, "sub"))
            time.sleep(0.0005)
            os.unlink(os.path.join(root, "sub"))
            os.rename(os.path.join(root, "sub_real"), os.path.join(root, "sub"))
        except OSError:
            pass
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("reply", ["node.md", "whole.md"])
def test_applies_racing_a_symlink_swapper_never_write_outside(tmp_path: Path, reply: str) -> None:
    root, canary = _sandbox(tmp_path)
    stop = tmp_path / "stop"
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(root), str(stop)])
    statuses: list[int] = []
    try:
        for _ in range(int(os.environ.get("KOPIPASTA_RACE_RUNS", "8"))):
            (canary / "target.py").write_text(TARGET)
            result = subprocess.run(
                [sys.executable, "-m", "kopipasta", "apply", str(root / reply), "--root", str(root)],
                capture_output=True, text=True, env=environment(), timeout=120,
            )
            assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
            statuses.append(result.returncode)
            assert (canary / "target.py").read_text() == TARGET, "a write went through the symlink"
            assert [p.name for p in canary.iterdir()] == ["target.py"], "a temporary was left outside"
    finally:
        stop.touch()
        swapper.wait(timeout=30)
    assert set(statuses) <= {0, 1, 2}
    for leftover in leftovers(root):
        raise AssertionError(f"left behind: {leftover}")


def test_two_names_of_one_file_are_one_document(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return 1\n")
    os.symlink("app.py", tmp_path / "alias.py")
    reply = (
        "```python\n# FILE: alias.py\n# TARGET_NODE: function f\ndef f():\n    return 2\n```\n\n"
        "```python\n# FILE: app.py\n# TARGET_NODE: function g\ndef g():\n    return 3\n```\n"
    )
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "app.py").read_text() == "def f():\n    return 2\n\n\ndef g():\n    return 3\n"
    assert (tmp_path / "alias.py").is_symlink()
    undone = kopipasta("undo", cwd=tmp_path)
    assert undone.returncode == 0
    assert (tmp_path / "app.py").read_text() == "def f():\n    return 1\n\n\ndef g():\n    return 1\n"


def test_a_folder_alias_is_the_same_document_too(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text("A = 1\nB = 1\n")
    os.symlink("src", tmp_path / "lib")
    reply = (
        "```python\n# FILE: lib/m.py\n# TARGET_NODE: variable A\nA = 2\n```\n\n"
        "```python\n# FILE: ./src/m.py\n# TARGET_NODE: variable B\nB = 2\n```\n"
    )
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply, env=environment())
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "src" / "m.py").read_text() == "A = 2\nB = 2\n"


BIG = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(2000))
EDIT_REPLY = "```python\n# FILE: big.py\n# TARGET_NODE: function f7\ndef f7():\n    return 'model'\n```\n"


@pytest.mark.parametrize("point", ["journal-staged", "rename"])
def test_an_editor_saving_during_the_apply_keeps_its_change(tmp_path: Path, point: str) -> None:
    (tmp_path / "big.py").write_text(BIG)
    (tmp_path / "r.md").write_text(EDIT_REPLY)
    paused = Paused(tmp_path, point, "apply", "r.md")
    assert paused.wait_paused()
    with (tmp_path / "big.py").open("a") as editor:
        editor.write("# the user's line\n")
    result = paused.resume()
    assert result.returncode == 1, result.stdout
    assert "big.py changed on disk during the apply" in result.stdout
    assert (tmp_path / "big.py").read_text() == BIG + "# the user's line\n"
    assert leftovers(tmp_path) == []
    again = kopipasta("apply", "r.md", cwd=tmp_path)
    assert again.returncode == 0
    assert "return 'model'" in (tmp_path / "big.py").read_text()
    assert (tmp_path / "big.py").read_text().endswith("# the user's line\n")


def _two_function_project(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def a():\n    return 0\n\n\ndef b():\n    return 0\n")
    (tmp_path / "a.md").write_text("```python\n# FILE: app.py\n# TARGET_NODE: function a\ndef a():\n    return 'A'\n```\n")
    (tmp_path / "b.md").write_text("```python\n# FILE: app.py\n# TARGET_NODE: function b\ndef b():\n    return 'B'\n```\n")


def test_a_second_apply_waits_for_the_first_and_both_changes_land(tmp_path: Path) -> None:
    _two_function_project(tmp_path)
    first = Paused(tmp_path, "journal-staged", "apply", "a.md")
    assert first.wait_paused()
    second = subprocess.Popen(
        [sys.executable, "-m", "kopipasta", "apply", "b.md"], cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment(),
    )
    time.sleep(0.5)
    assert second.poll() is None, "the second apply waits for the lock"
    assert first.resume().returncode == 0
    out, err = second.communicate(timeout=60)
    assert second.returncode == 0, out + err
    assert (tmp_path / "app.py").read_text() == "def a():\n    return 'A'\n\n\ndef b():\n    return 'B'\n"


def test_a_second_apply_that_cannot_wait_refuses_in_one_line(tmp_path: Path) -> None:
    _two_function_project(tmp_path)
    first = Paused(tmp_path, "journal-staged", "apply", "a.md")
    assert first.wait_paused()
    refused = kopipasta("apply", "b.md", cwd=tmp_path, env=environment(KOPIPASTA_LOCK_WAIT="0.2"))
    undo = kopipasta("undo", cwd=tmp_path, env=environment(KOPIPASTA_LOCK_WAIT="0.2"))
    assert first.resume().returncode == 0
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        "❌ Not applied: another kopipasta is writing to this project — wait for it to finish and "
        "run the command again (waited 0.2 s; KOPIPASTA_LOCK_WAIT=<seconds> waits longer)"
    ]
    assert undo.returncode == 1 and "Not undone: another kopipasta" in undo.stderr
    assert (tmp_path / "app.py").read_text() == "def a():\n    return 'A'\n\n\ndef b():\n    return 0\n"
