"""A FIFO in the project never blocks the folder walk (issue 28, item 6).

`kopipasta prompt DIR` and the MCP server's `list_definitions` walk the
project; a FIFO (or a device) there used to block the walk until a writer
came. Now only regular files are read, opened without blocking. A hang fails
the test through its timeout (subprocess) or the thread join.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from cli_process import kopipasta

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def _project(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    os.mkfifo(root / "src" / "pipe")
    os.mkfifo(root / ".gitignore")  # read on every walk
    return root


def test_prompt_of_a_folder_with_a_fifo_lists_the_text_files(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    result = kopipasta("prompt", "src", "-t", "task", "--stdout", cwd=root, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "def total(items):" in result.stdout
    assert "src/pipe" not in result.stdout


def test_a_fifo_named_kopipasta_toml_is_one_line_not_a_hang(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    os.mkfifo(root / "kopipasta.toml")
    result = kopipasta("prompt", "src", "-t", "task", "--stdout", cwd=root, timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr == "❌ Cannot read kopipasta.toml: not a regular file\n"


def test_list_definitions_over_a_folder_with_a_fifo_answers(tmp_path: Path) -> None:
    from kopipasta.agents.workbench import Workbench

    root = _project(tmp_path / "project")
    answers: list[object] = []
    worker = threading.Thread(target=lambda: answers.append(Workbench(root).list_definitions(["src"])), daemon=True)
    worker.start()
    worker.join(60)
    assert answers, "list_definitions hung on a FIFO"
    assert "total" in str(answers[0])


def test_a_symlinked_folder_that_leaves_the_root_lists_nothing_of_it(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "src" / "app.py").write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("TOKEN = 'x'\n", encoding="utf-8")
    (root / "src" / "linked").symlink_to(outside, target_is_directory=True)
    (root / "src" / "one.py").symlink_to(outside / "secret.py")
    result = kopipasta("prompt", "src/*", "-t", "task", "--stdout", cwd=root, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "def total(items):" in result.stdout
    assert "secret" not in result.stdout + result.stderr
    assert "TOKEN" not in result.stdout
