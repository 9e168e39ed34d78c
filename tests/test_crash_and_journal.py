"""Issue 11, items 5–6: --strict is all or nothing once writing starts, a crash (a real
kill -9 at chosen points) is recovered by the next command and `undo`, and undo
trusts nothing in a journal tampered with on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import environment, leftovers, project_names, snapshot

from kopipasta.disk import journal

ORIGINAL = {
    "a.py": b"def a():\r\n    return 0\r\n",  # CRLF
    "b.py": b"\xef\xbb\xbfB = 0",  # a BOM, no final newline
    "pkg/c.py": b"C = 0\n",
}
REPLY = (
    "```python\n# FILE: a.py\n# TARGET_NODE: function a\ndef a():\n    return 1\n```\n\n"
    "```python\n# FILE: b.py\nB = 1\n```\n\n"
    "```python\n# FILE: pkg/c.py\nC = 1\n```\n\n"
    "```python\n# FILE: new/deep/d.py\nD = 1\n```\n"
)


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    for name, data in ORIGINAL.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    (tmp_path / "reply.md").write_text(REPLY)
    return root


def _apply(root: Path, *args: str, **env: str):  # type: ignore[no-untyped-def]
    return kopipasta("apply", str(root.parent / "reply.md"), "--root", str(root), *args, cwd=root, env=environment(**env))


# Points in the order a commit passes them; each is a real SIGKILL of the apply.
KILL_POINTS = [
    "journal-blob:kill:1",
    "journal-blob:kill:3",
    "journal-staged:kill",
    "before-prepare:kill",
    "write:kill:1",
    "write:kill:4",
    "prepared:kill",
    "rename:kill:1",
    "rename:kill:2",
    "rename:kill:4",
    "before-complete:kill",
]


# Every pass of every point for this four-file reply (three overwritten, one created).
EVERY_KILL_POINT = [
    *(f"journal-blob:kill:{n}" for n in (1, 2, 3)),
    "journal-staged:kill",
    "before-prepare:kill",
    *(f"prepare:kill:{n}" for n in (1, 2, 3, 4)),
    *(f"write:kill:{n}" for n in (1, 2, 3, 4)),
    "prepared:kill",
    *(f"rename:kill:{n}" for n in (1, 2, 3, 4)),
    "before-complete:kill",
]


@pytest.mark.parametrize("fault", KILL_POINTS)
def test_a_kill_at_any_point_is_recovered_exactly(tmp_path: Path, fault: str) -> None:
    _kill_and_recover(tmp_path, fault)


@pytest.mark.slow
@pytest.mark.parametrize("fault", [p for p in EVERY_KILL_POINT if p not in KILL_POINTS])
def test_a_kill_at_every_pass_of_every_point_is_recovered_exactly(tmp_path: Path, fault: str) -> None:
    _kill_and_recover(tmp_path, fault)


def _kill_and_recover(tmp_path: Path, fault: str) -> None:
    root = _project(tmp_path)
    before = snapshot(root)
    killed = _apply(root, "--strict", KOPIPASTA_FAULT=fault)
    assert killed.returncode == -9, killed.stdout + killed.stderr
    # The next command cleans up what the crash left, says so, and undo restores everything.
    undone = kopipasta("undo", "--root", str(root), cwd=root, env=environment())
    assert leftovers(root) == [], "temporaries and staging folders are removed by the next run"
    if undone.returncode == 1:
        assert "Nothing to undo" in undone.stderr, undone.stderr
    else:
        assert undone.returncode == 0, undone.stderr
    assert snapshot(root) == before, "every file is back exactly, created ones removed"
    again = _apply(root)
    assert again.returncode == 0, again.stdout
    assert (root / "new/deep/d.py").read_bytes() == b"D = 1\n"


def test_the_next_apply_says_an_interrupted_one_can_be_undone(tmp_path: Path) -> None:
    root = _project(tmp_path)
    assert _apply(root, KOPIPASTA_FAULT="rename:kill:3").returncode == -9
    (tmp_path / "other.md").write_text("```python\n# FILE: z.py\nZ = 1\n```\n")
    following = kopipasta("apply", str(tmp_path / "other.md"), "--root", str(root), cwd=root, env=environment())
    assert following.returncode == 0
    assert following.stdout.startswith("ℹ The apply recorded as 000001-")
    assert "was interrupted while writing its files" in following.stdout
    assert "`kopipasta undo` puts every file of it back" in following.stdout
    assert leftovers(root) == []


@pytest.mark.parametrize("fault", ["write:enospc:2", "write:erofs:3", "rename:enospc:3", "rename:eio:2", "prepare:erofs:1"])
def test_strict_is_all_or_nothing_when_the_disk_fails(tmp_path: Path, fault: str) -> None:
    root = _project(tmp_path)
    before = snapshot(root)
    result = _apply(root, "--strict", "--json", KOPIPASTA_FAULT=fault)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["written"] is False and report["files_changed"] == []
    failed = [b for b in report["blocks"] if b["status"] == "failed"]
    assert len(failed) == 1 and failed[0]["message"].startswith("Cannot write ")
    assert all(b["status"] == "skipped" for b in report["blocks"] if b["status"] != "failed")
    assert snapshot(root) == before, "no file written, no folder left"
    assert leftovers(root) == []
    assert journal.depth(root) == 0


def test_without_strict_the_file_that_cannot_be_written_is_dropped_and_the_rest_written(tmp_path: Path) -> None:
    root = _project(tmp_path)
    result = _apply(root, "--json", KOPIPASTA_FAULT="write:enospc:2")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["written"] is True
    assert report["files_changed"] == ["a.py", "pkg/c.py", "new/deep/d.py"]
    assert (root / "b.py").read_bytes() == ORIGINAL["b.py"]
    assert (root / "pkg/c.py").read_bytes() == b"C = 1\n"
    assert kopipasta("undo", "--root", str(root), cwd=root).returncode == 0
    assert {k: v for k, v in snapshot(root).items()} == {**{k: v for k, v in ORIGINAL.items()}, "pkg/": "dir"}


def test_a_file_in_place_of_a_folder_fails_without_writing_under_strict(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("X = 0\n")
    reply = "```python\n# FILE: b.py\nB = 1\n```\n\n```python\n# FILE: app.py/x.py\nX = 1\n```\n"
    result = kopipasta("apply", "--strict", "--json", "-", cwd=tmp_path, stdin=reply)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert [b["status"] for b in report["blocks"]] == ["skipped", "failed"]
    assert "app.py is a file, not a folder" in report["blocks"][1]["message"]
    assert project_names(tmp_path) == ["app.py"]


# -- a journal tampered with on disk -----------------------------------------------------


def _applied(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes | str]]:
    root = _project(tmp_path)
    assert _apply(root).returncode == 0
    entry = root / ".kopipasta/journal" / str(journal.newest(root))
    return root, entry, snapshot(tmp_path)


def _edit_manifest(entry: Path, change) -> None:  # type: ignore[no-untyped-def]
    manifest = json.loads((entry / "manifest.json").read_text())
    change(manifest)
    (entry / "manifest.json").write_text(json.dumps(manifest))


def _refused(tmp_path: Path, root: Path, before: dict[str, bytes | str], fragment: str) -> None:
    result = kopipasta("undo", "--root", str(root), cwd=root, env=environment())
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert fragment in result.stderr, result.stderr
    assert snapshot(tmp_path) == before, "a refused undo changes nothing"


def _item(manifest: dict, path: str) -> dict:  # type: ignore[type-arg]
    return next(i for i in manifest["files"] if i["path"] == path)


def test_a_truncated_blob_is_refused(tmp_path: Path) -> None:
    root, entry, before = _applied(tmp_path)
    blob = entry / "0.before"
    blob.write_bytes(blob.read_bytes()[:5])
    before = snapshot(tmp_path)
    _refused(tmp_path, root, before, "the copy of a.py does not match its sha256")


def test_a_blob_that_is_a_symlink_is_refused(tmp_path: Path) -> None:
    root, entry, _ = _applied(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_bytes(ORIGINAL["a.py"])
    (entry / "0.before").unlink()
    os.symlink(secret, entry / "0.before")
    _refused(tmp_path, root, snapshot(tmp_path), "the copy of a.py is a symlink")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda m: _item(m, "a.py").update(path="/etc/passwd"), "Refusing absolute path /etc/passwd"),
        (lambda m: _item(m, "a.py").update(path="../outside.py"), "leaves the project root"),
        (lambda m: _item(m, "a.py").update(path=".git/config"), ".git/"),
        (lambda m: _item(m, "a.py").update(created=True), "recorded as created, yet with previous bytes"),
        (lambda m: _item(m, "new/deep/d.py").update(created_dirs=["../outside/x"]), "does not hold it"),
        (lambda m: _item(m, "new/deep/d.py").update(created_dirs=5), "'created_dirs' is not a list"),
        (lambda m: _item(m, "a.py").update(before="../../x"), "bad blob name"),
        (lambda m: _item(m, "a.py").update(before_sha256=None), "no sha256"),
        (lambda m: _item(m, "a.py").update(after=7), "bad 'after' hash"),
        (lambda m: m.update(files={"a": 1}), "no file records"),
        (lambda m: m.update(version=99), "unknown manifest version"),
        (lambda m: m["files"].append(dict(m["files"][0])), "recorded twice"),
    ],
)
def test_a_tampered_manifest_is_refused_in_one_line(tmp_path: Path, change, fragment: str) -> None:  # type: ignore[no-untyped-def]
    root, entry, _ = _applied(tmp_path)
    (tmp_path / "outside" / "x").mkdir(parents=True)
    _edit_manifest(entry, change)
    _refused(tmp_path, root, snapshot(tmp_path), fragment)


def test_a_symlinked_state_folder_is_refused_and_nothing_goes_outside(tmp_path: Path) -> None:
    root = _project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, root / ".kopipasta")
    result = _apply(root)
    assert result.returncode == 1
    assert "Refusing the journal: .kopipasta/ or a folder in it is a symlink" in result.stderr
    assert list(elsewhere.iterdir()) == [], "no copy of a project file goes outside"
    assert (root / "a.py").read_bytes() == ORIGINAL["a.py"]
    undo = kopipasta("undo", "--root", str(root), cwd=root)
    assert undo.returncode == 1 and "Refusing the journal" in undo.stderr


def test_odd_names_in_the_journal_folder_are_ignored(tmp_path: Path) -> None:
    root, entry, _ = _applied(tmp_path)
    (entry.parent / "9x").mkdir()
    (entry.parent / "0000001").write_text("not an entry")
    assert _apply(root).returncode == 0
    assert kopipasta("undo", "--root", str(root), cwd=root).returncode == 0
    assert (root / "a.py").read_bytes() == ORIGINAL["a.py"]


def test_a_verified_undo_restores_exact_bytes(tmp_path: Path) -> None:
    root, entry, _ = _applied(tmp_path)
    manifest = json.loads((entry / "manifest.json").read_text())
    for item in manifest["files"]:
        if not item["created"]:
            data = (entry / item["before"]).read_bytes()
            assert hashlib.sha256(data).hexdigest() == item["before_sha256"]
    assert kopipasta("undo", "--root", str(root), cwd=root).returncode == 0
    assert snapshot(root) == {**ORIGINAL, "pkg/": "dir"}


@pytest.mark.parametrize("size", [1_000, 600_000], ids=["small", "past-the-built-in-hash-limit"])
def test_the_journal_records_the_standard_sha256_and_undo_checks_it(tmp_path: Path, size: int) -> None:
    # Small files are hashed without OpenSSL (kopipasta/disk/digest.py), big ones with hashlib:
    # either way the manifest holds the standard SHA-256, and undo verifies the bytes against it.
    root = tmp_path / "root"
    root.mkdir()
    body = "".join(f"X_{i} = {i}\n" for i in range(size // 12))
    original = f"def a():\n    return 0\n\n\n{body}".encode()
    (root / "a.py").write_bytes(original)
    (tmp_path / "reply.md").write_text("```python\n# FILE: a.py\n# TARGET_NODE: function a\ndef a():\n    return 1\n```\n")
    assert _apply(root).returncode == 0
    (entry,) = [p for p in (root / ".kopipasta" / "journal").iterdir() if p.is_dir()]
    (item,) = json.loads((entry / "manifest.json").read_text())["files"]
    assert item["before_sha256"] == hashlib.sha256(original).hexdigest()
    copy = entry / item["before"]
    copy.write_bytes(copy.read_bytes()[:-1] + b"#")  # one byte changed: the copy no longer matches
    undo = kopipasta("undo", "--root", str(root), cwd=root)
    assert undo.returncode == 1 and "the copy of a.py does not match its sha256" in undo.stderr
    copy.write_bytes(original)
    assert kopipasta("undo", "--root", str(root), cwd=root).returncode == 0
    assert (root / "a.py").read_bytes() == original
