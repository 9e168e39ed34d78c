"""A short run keeps its file versions until it leaves; nothing else keeps them (shortrun.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kopipasta.engine import apply_reply
from kopipasta.model import Status
from kopipasta.startup import shortrun

REPLY = """```python
# FILE: app.py
# TARGET_NODE: function greet
def greet(name):
    return f"Hello, {name}!"
```
"""


def _project(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text('def greet(name):\n    return "hi " + name\n\n\ndef other():\n    pass\n')
    return tmp_path


@pytest.fixture
def short_run(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """shortrun's state as `kopipasta`'s own start leaves it, restored after the test."""
    kept: list[object] = []
    monkeypatch.setattr(shortrun, "_short_run", True)
    monkeypatch.setattr(shortrun, "_long_run", False)
    monkeypatch.setattr(shortrun, "_kept", kept)
    return kept


def test_a_short_run_keeps_the_applied_files_versions_until_it_leaves(tmp_path: Path, short_run: list[object]) -> None:
    root = _project(tmp_path)
    report = apply_reply(REPLY, root)
    assert [o.status for o in report.outcomes] == [Status.APPLIED]
    assert (root / "app.py").read_text().startswith('def greet(name):\n    return f"Hello, {name}!"\n')
    (files,) = short_run
    assert isinstance(files, dict)
    (state,) = files.values()
    assert state.document.source.data == (root / "app.py").read_bytes()


def test_in_process_nothing_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kept: list[object] = []
    monkeypatch.setattr(shortrun, "_short_run", False)
    monkeypatch.setattr(shortrun, "_kept", kept)
    report = apply_reply(REPLY, _project(tmp_path))
    assert [o.status for o in report.outcomes] == [Status.APPLIED]
    assert kept == []


def test_the_session_drops_what_the_short_start_kept_and_keeps_nothing_more(
    tmp_path: Path, short_run: list[object], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    monkeypatch.setattr(gc, "set_threshold", lambda *thresholds: None)  # the test process keeps its own pace
    shortrun.keep_until_exit(object())
    shortrun.pace_for_a_long_run()
    assert short_run == []
    apply_reply(REPLY, _project(tmp_path))
    assert short_run == []
