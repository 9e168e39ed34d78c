"""Issue 18, item 5: a journal or project changed behind kopipasta's back is a one-line
refusal (exit 1), never a traceback, for undo and for every later apply."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import environment

REPLY = "```python\n# FILE: sub/m.py\n# TARGET_NODE: function f\ndef f():\n    return 2\n```\n"
ORIGINAL = "def f():\n    return 1\n"


def _applied(tmp_path: Path) -> tuple[Path, Path]:
    """A project with one apply journaled, and that entry's folder."""
    root = tmp_path / "p"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "m.py").write_text(ORIGINAL)
    result = kopipasta("apply", "-", cwd=root, stdin=REPLY, env=environment())
    assert result.returncode == 0, result.stdout + result.stderr
    (entry,) = (root / ".kopipasta" / "journal").iterdir()
    return root, entry


def _tamper(entry: Path, change: str) -> None:
    manifest = entry / "manifest.json"
    text = manifest.read_text()
    if change == "nested":
        text = text[:-1] + ', "deep": ' + "[" * 100_000 + "]" * 100_000 + "}"
    else:
        data = json.loads(text)
        data["files"][0]["path"] = "sub/m\x00.py"
        text = json.dumps(data)
    manifest.write_text(text)
    (entry / "complete").unlink()  # an interrupted apply: the next command cleans up after it


@pytest.mark.parametrize(
    ("change", "why"),
    [("nested", "manifest.json is nested too deeply"), ("nul", "'sub/m\\x00.py' holds a NUL character")],
)
def test_a_tampered_incomplete_entry_is_refused_by_undo_and_ignored_by_apply(
    tmp_path: Path, change: str, why: str
) -> None:
    root, entry = _applied(tmp_path)
    _tamper(entry, change)
    for _ in range(2):  # and again: the entry stays, every later command answers
        undone = kopipasta("undo", cwd=root, env=environment())
        assert undone.returncode == 1
        assert undone.stderr.strip() == f"❌ The journal entry {entry.name} is damaged: {why} — nothing was changed"
        again = kopipasta("apply", "-", cwd=root, stdin=REPLY, env=environment())
        assert again.returncode == 0, again.stdout + again.stderr
        assert "unchanged" in again.stdout
    assert (root / "sub" / "m.py").read_text() == "def f():\n    return 2\n"


def test_undo_when_a_folder_became_a_symlink_loop_is_one_line(tmp_path: Path) -> None:
    root, entry = _applied(tmp_path)
    (root / "sub").rename(root / "real")
    os.symlink("loop", root / "sub")
    os.symlink("sub", root / "loop")
    undone = kopipasta("undo", cwd=root, env=environment())
    assert undone.returncode == 1
    assert undone.stderr.strip() == (
        "❌ Cannot undo: Refusing sub/m.py: `sub` is a symlink (a loop, or swapped in while applying) "
        "— nothing was changed"
    )
    assert (root / "real" / "m.py").read_text() == "def f():\n    return 2\n"
    assert entry.exists()
