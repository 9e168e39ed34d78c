"""The engine skips staleness where `prompt_record.recorded` says there is no record (issue 9).

That is right only where staleness itself would read no record (`staleness._read` is {}):
then nothing changed since a prompt, and nothing is kept after a write. Checked on the
project states around the record's place, and with the real record `prompt` writes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from kopipasta.code.read import staleness
from kopipasta.disk.prompt_record import RECORD, STATE_DIR, recorded


def _nothing(root: Path) -> None:
    pass


def _empty_state_dir(root: Path) -> None:
    (root / STATE_DIR).mkdir()


def _state_dir_is_a_file(root: Path) -> None:
    (root / STATE_DIR).write_text("x")


def _dangling_state_link(root: Path) -> None:
    (root / STATE_DIR).symlink_to(root / "missing")


def _record_is_a_folder(root: Path) -> None:
    (root / STATE_DIR / RECORD).mkdir(parents=True)


def _dangling_record_link(root: Path) -> None:
    (root / STATE_DIR).mkdir()
    (root / STATE_DIR / RECORD).symlink_to(root / "missing.json")


def _linked_state_dir(root: Path) -> None:
    (root / "elsewhere").mkdir()
    (root / "elsewhere" / RECORD).write_text('{"version": 1, "files": {"app.py": {"sha256": ["x"]}}}')
    (root / STATE_DIR).symlink_to(root / "elsewhere")


def _record(root: Path) -> None:
    (root / STATE_DIR).mkdir()
    (root / STATE_DIR / RECORD).write_text('{"version": 1, "files": {"app.py": {"sha256": ["x"]}}}')


STATES: list[Callable[[Path], None]] = [
    _nothing, _empty_state_dir, _state_dir_is_a_file, _dangling_state_link, _record_is_a_folder,
    _dangling_record_link, _linked_state_dir, _record,
]


@pytest.mark.parametrize("state", STATES, ids=[s.__name__.strip("_") for s in STATES])
def test_no_record_said_only_where_staleness_reads_none(tmp_path: Path, state: Callable[[Path], None]) -> None:
    state(tmp_path)
    if not recorded(tmp_path):
        assert staleness._read(tmp_path) == {}


def test_the_states_reach_both_answers(tmp_path: Path) -> None:
    answers = []
    for number, state in enumerate(STATES):
        root = tmp_path / str(number)
        root.mkdir()
        state(root)
        answers.append(recorded(root))
    assert answers.count(False) >= 3 and answers[-1] is True


def test_a_prompt_makes_the_record_the_engine_looks_for(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    assert not recorded(tmp_path)
    subprocess.run(
        [sys.executable, "-m", "kopipasta", "prompt", "app.py", "-t", "x", "--stdout"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "DISPLAY": "", "WAYLAND_DISPLAY": ""},
    )
    assert recorded(tmp_path)
    assert staleness._read(tmp_path) != {}
