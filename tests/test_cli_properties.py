"""Issue 11: property tests over the whole CLI, for fuzzed replies and hostile paths.

Whatever the reply: the exit status is 0, 1 or 2 and no exception escapes;
nothing outside the root changes; no temporary is left; with --strict a
failure leaves the root exactly as it was; and `undo` after a writing apply
puts the root back byte for byte. Each example runs `kopipasta apply` and
`undo` in-process through click's runner, in a fresh sandbox holding a
symlink out of the root, an alias inside it, a loop and a read-only file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from reliability import leftovers, snapshot

from kopipasta.cli import main

APP = "import os\n\n\ndef f(x):\n    return x\n\n\nclass C:\n    def m(self):\n        return 1\n"
DATA = '{\n  "name": "demo",\n  "scripts": {"test": "pytest"}\n}\n'

PATH_PARTS = [
    "app.py", "alias.py", "data.json", "src", "new", "x.py", "..", ".", "~", "", " ",
    "out", "loop", ".git", ".GIT", ".kopipasta", "ro.py", "a\u200bb.py", "[b]", "%2e%2e",
    "C:", "\\..\\", "app.py/x.py", "\x00", "é.py",
]
paths = st.one_of(
    st.sampled_from(["app.py", "alias.py", "src/app.py", "data.json", "new/deep/x.py", "out/x.py", "ro.py", "./src/../app.py"]),
    st.sampled_from(["app.py", "alias.py", "src/app.py", "data.json", "new/x.py"]),
    st.lists(st.sampled_from(PATH_PARTS), min_size=1, max_size=4).map("/".join),
    st.text(max_size=24),
)
targets = st.one_of(
    st.sampled_from(["function f", "f", "class C", "method C.m", "C.m", "f#2", "scripts", "scripts.test", "name", "nope"]),
    st.text(max_size=16),
)
keys = st.sampled_from(["TARGET_NODE", "TARGET_PATH", "INSERT_AFTER", "INSERT_BEFORE", "APPEND_TO", "DELETE_NODE", "TARGET", "TARGETNODE"])
payloads = st.one_of(
    st.sampled_from([
        "def f(x):\n    return x + 1\n",
        "def m(self):\n    return 2\n",
        "class C:\n    pass\n",
        '"pytest -q"\n',
        "{\"a\": 1}\n",
        "# ... existing code ...\n",
        "",
        "x = [\n",
        "def g():\r\n    return 3\r\n",
    ]),
    st.text(max_size=80),
)
comment = st.sampled_from(["# ", "// ", "", "#"])
info = st.sampled_from(["python", "", "json", "js", "diff", "text"])


@st.composite
def blocks(draw: st.DrawFn) -> str:
    lead = draw(comment)
    header = []
    header.append(f"{lead}FILE: {draw(paths)}")
    if draw(st.booleans()):
        header.append(f"{lead}{draw(keys)}: {draw(targets)}")
    fence = draw(st.sampled_from(["```", "~~~", "````"]))
    body = "\n".join(header) + "\n" + draw(payloads)
    if not body.endswith("\n"):
        body += "\n"
    return f"{draw(st.text(max_size=20))}\n{fence}{draw(info)}\n{body}{fence}\n"


replies = st.one_of(st.lists(blocks(), min_size=1, max_size=4).map("\n".join), st.text(max_size=200))


def _sandbox(base: Path) -> tuple[Path, Path]:
    outside = base / "outside"
    outside.mkdir()
    (outside / "app.py").write_text(APP)
    (outside / "x.py").write_text("secret = 1\n")
    root = base / "root"
    (root / "src").mkdir(parents=True)
    (root / "app.py").write_text(APP)
    (root / "src" / "app.py").write_text(APP)
    (root / "data.json").write_text(DATA)
    (root / "ro.py").write_text(APP)
    (root / "ro.py").chmod(0o444)
    os.symlink("app.py", root / "alias.py")
    os.symlink("../outside", root / "out")
    os.symlink("loop", root / "loop")
    return root, outside


def _check_reply(reply: str, strict: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        root, outside = _sandbox(base)
        outside_before, root_before = snapshot(outside), snapshot(root)
        runner = CliRunner()
        args = ["apply", "-", "--root", str(root), "--json", *(["--strict"] if strict else [])]
        applied = runner.invoke(main, args, input=reply.encode("utf-8", "surrogatepass"))
        assert applied.exception is None or isinstance(applied.exception, SystemExit), repr(applied.exception)
        assert applied.exit_code in (0, 1, 2), applied.output
        assert snapshot(outside) == outside_before, "written outside the root"
        assert leftovers(base) == []
        journal_dir = root / ".kopipasta" / "journal"
        wrote = journal_dir.is_dir() and any(journal_dir.iterdir())
        event(f"exit {applied.exit_code}{', wrote' if wrote else ''}{', strict' if strict else ''}")
        if strict and applied.exit_code != 0:
            assert not wrote and snapshot(root) == root_before, "--strict failed yet wrote"
        if wrote:
            undone = runner.invoke(main, ["undo", "--root", str(root)])
            assert undone.exit_code == 0, undone.output
            assert snapshot(root) == root_before, "undo did not put the root back exactly"
        else:
            assert snapshot(root) == root_before, "nothing journaled, yet the root changed"


FAST = settings(max_examples=int(os.environ.get("KOPIPASTA_PROPERTY_EXAMPLES", "120")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FAST
@given(reply=replies, strict=st.booleans())
def test_any_reply_any_path_keeps_every_promise(reply: str, strict: bool) -> None:
    _check_reply(reply, strict)


@pytest.mark.slow
@settings(max_examples=int(os.environ.get("KOPIPASTA_PROPERTY_EXAMPLES_SLOW", "600")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(reply=replies, strict=st.booleans())
def test_any_reply_any_path_keeps_every_promise_at_length(reply: str, strict: bool) -> None:
    _check_reply(reply, strict)


@settings(max_examples=2000, deadline=None)
@given(path=paths)
def test_a_normal_path_normalises_to_itself(path: str) -> None:
    """Undo re-checks recorded paths with `normalise`: what it accepted once, it accepts again."""
    from kopipasta.disk.workspace import normalise
    from kopipasta.errors import ConfinementError

    try:
        normal = normalise(path)
    except ConfinementError:
        return
    assert normalise(normal) == normal


JOURNAL_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 10**12), st.text(max_size=12),
    st.sampled_from(["/etc/passwd", "../outside/app.py", "out/x.py", "app.py", "alias.py", ".git/config",
                     "0.before", "../../x", "1.before", "0" * 64, "new", "new/x.py", "src"]),
    st.lists(st.sampled_from(["new", "src", "../outside", "out", "/tmp", "", "."]), max_size=3),
)


@settings(max_examples=int(os.environ.get("KOPIPASTA_JOURNAL_EXAMPLES", "80")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(
    record=st.integers(0, 3),
    key=st.sampled_from(["path", "after", "created", "before", "before_sha256", "created_dirs", "extra"]),
    value=JOURNAL_VALUES,
    blob=st.one_of(st.none(), st.binary(max_size=40)),
)
def test_any_tampered_journal_keeps_every_promise(record: int, key: str, value: object, blob: bytes | None) -> None:
    """Undo of a journal changed on disk: refused in one line, or the original bytes back; never outside."""
    import json

    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        root, outside = _sandbox(base)
        outside_before, root_before = snapshot(outside), snapshot(root)
        runner = CliRunner()
        reply = (
            "```python\n# FILE: app.py\n# TARGET_NODE: function f\ndef f(x):\n    return x + 1\n```\n\n"
            "```python\n# FILE: src/app.py\n# TARGET_NODE: function f\ndef f(x):\n    return 2\n```\n\n"
            "```python\n# FILE: new/x.py\nX = 1\n```\n\n"
            '```json\n// FILE: data.json\n// TARGET_PATH: name\n"other"\n```\n'
        )
        applied = runner.invoke(main, ["apply", "-", "--root", str(root)], input=reply)
        assert applied.exit_code == 0, applied.output
        entry = next((root / ".kopipasta" / "journal").iterdir())
        manifest = json.loads((entry / "manifest.json").read_text())
        manifest["files"][record % len(manifest["files"])][key] = value
        (entry / "manifest.json").write_text(json.dumps(manifest))
        if blob is not None:
            (entry / "0.before").write_bytes(blob)
        undone = runner.invoke(main, ["undo", "--root", str(root)])
        assert undone.exception is None or isinstance(undone.exception, SystemExit), repr(undone.exception)
        assert undone.exit_code in (0, 1), undone.output
        assert snapshot(outside) == outside_before, "undo wrote outside the root"
        assert leftovers(base) == []
        event(f"undo exit {undone.exit_code}")
        if undone.exit_code == 0:
            after = snapshot(root)
            for name, data in root_before.items():
                assert after.get(name) == data, f"{name} not restored"
            assert set(after) - set(root_before) <= {"new/"}, "undo left a file behind"
