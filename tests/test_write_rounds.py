"""Issue 26: the write's device waits overlap. The fsyncs of one step run at once
(`disk/syncs.py`): one edit still costs five fsyncs, in three rounds, not five; the
files a write made garbage (the replaced inode, entries past HISTORY) are freed after
the answer, and the journal's depth is right when the command answers.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from cli_process import kopipasta

from kopipasta.disk import beneath, journal, syncs
from kopipasta.model import FileChange
from kopipasta.startup import workers


def _written(folder: Path, name: str, data: bytes) -> syncs.Unsynced:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    return beneath.write_unsynced(fd, name, data, 0o644)


def test_one_failed_fsync_removes_its_file_only_and_is_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good, bad = _written(tmp_path, "good.tmp", b"1"), _written(tmp_path, "bad.tmp", b"2")
    real = os.fsync

    def failing(fd: int) -> None:
        if fd == bad.fd:
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError, match="Input/output error"):
        syncs.sync_together([good, bad])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.tmp"]  # the caller's to remove
    assert (tmp_path / "good.tmp").read_bytes() == b"1"
    os.close(good.dir_fd)
    os.close(bad.dir_fd)


def test_the_fsyncs_of_one_step_wait_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three fsyncs that each wait 50 ms take about 50 ms together, not 150."""
    items = [_written(tmp_path, f"{n}.tmp", b"x") for n in range(3)]
    real = os.fsync
    inside: list[int] = []
    most = [0]
    lock = threading.Lock()

    def slow(fd: int) -> None:
        with lock:
            inside.append(fd)
            most[0] = max(most[0], len(inside))
        time.sleep(0.05)
        with lock:
            inside.remove(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", slow)
    syncs.sync_together(items)
    assert most[0] == 3  # all three were waiting at once
    for item in items:
        os.close(item.dir_fd)


def test_an_interrupted_step_removes_every_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    items = [_written(tmp_path, f"{n}.tmp", b"x") for n in range(2)]

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(syncs, "_fsync_all", lambda fds: interrupted(fds[0]))
    with pytest.raises(KeyboardInterrupt):
        syncs.sync_together(items)
    assert list(tmp_path.iterdir()) == []
    for item in items:
        os.close(item.dir_fd)


def test_entries_past_history_are_gone_when_the_command_has_exited(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def a():\n    return 0\n")
    for value in range(1, journal.HISTORY + 4):
        reply = tmp_path / "reply.md"
        reply.write_text(f"```python\n# FILE: a.py\n# TARGET_NODE: function a\ndef a():\n    return {value}\n```\n")
        result = kopipasta("apply", str(reply), cwd=tmp_path)
        assert result.returncode == 0, result.stdout + result.stderr
    folder = tmp_path / ".kopipasta/journal"
    assert journal.depth(tmp_path) == journal.HISTORY
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []  # no .dropped- folder left
    assert len(list(folder.iterdir())) == journal.HISTORY


def test_the_depth_is_right_before_the_freeing_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In one process (the MCP server's case): the entry past HISTORY leaves the list at once."""
    release = threading.Event()
    real = journal.remove_flat_dir

    def held(parent_fd: int, name: str) -> None:
        if name.startswith(".dropped-"):
            release.wait(5)
        real(parent_fd, name)

    monkeypatch.setattr(journal, "remove_flat_dir", held)
    (tmp_path / "a.py").write_bytes(b"0\n")
    for value in range(journal.HISTORY + 1):
        with journal.writing(tmp_path) as project:
            journal.write_changes(project, [FileChange("a.py", f"{value}\n".encode(), f"{value + 1}\n".encode())])
    assert journal.depth(tmp_path) == journal.HISTORY  # while the dropped entry is still being removed
    release.set()
    workers.drain()  # what a command does before it leaves
    assert not [p for p in (tmp_path / ".kopipasta/journal").iterdir() if p.name.startswith(".dropped-")]


def test_kept_threads_are_started_once_and_their_work_is_waited_for() -> None:
    """The fsyncs' and the freeing's threads are kept between writes (startup/workers.py): a second
    round of work starts no thread, and `drain` returns only once every job handed over has run."""
    gate = threading.Event()
    ran: list[int] = []
    for number in range(3):
        workers.submit(lambda n=number: (gate.wait(5), ran.append(n)))
    started = {t.ident for t in threading.enumerate() if t.name == "kopipasta-worker"}
    gate.set()
    workers.drain()
    assert sorted(ran) == [0, 1, 2]
    done = [workers.submit(lambda n=number: ran.append(n)) for number in range(3, 6)]
    assert all(event.wait(5) for event in done)
    assert {t.ident for t in threading.enumerate() if t.name == "kopipasta-worker"} == started
    assert sorted(ran) == [0, 1, 2, 3, 4, 5]
    failing = workers.submit(lambda: 1 / 0)  # a job's failure is its own: the thread goes on
    assert failing.wait(5)
    assert workers.submit(lambda: ran.append(6)).wait(5) and ran[-1] == 6
