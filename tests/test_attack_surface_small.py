"""The smaller holes of issue 18 (item 9) that need more than a fixture folder.

`--only` is matched on the file a write lands in, not on the path as written;
`undo --force` does not follow a tampered manifest into building a tree.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_process import kopipasta


def test_only_is_matched_after_resolving_a_symlink(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "secret").mkdir()
    (root / "secret" / "keys.py").write_text("KEY = 'old'\n", encoding="utf-8")
    (root / "src" / "app.py").write_text("x = 1\n", encoding="utf-8")
    os.symlink("../secret", root / "src" / "lnk")
    reply = tmp_path / "reply.md"
    reply.write_text("```python\n# FILE: src/lnk/keys.py\nKEY = 'new'\n```\n", encoding="utf-8")
    applied = kopipasta("apply", str(reply), "--only", "src/*", cwd=root)
    assert applied.returncode == 1
    assert (
        "❌ src/lnk/keys.py (really secret/keys.py) is outside the files this run may change (--only src/*)"
        " — widen --only, or drop this block"
    ) in applied.stdout
    assert (root / "secret" / "keys.py").read_text(encoding="utf-8") == "KEY = 'old'\n"
    # A path that resolves inside the allowed files is still written.
    reply.write_text("```python\n# FILE: src/app.py\nx = 2\n```\n", encoding="utf-8")
    applied = kopipasta("apply", str(reply), "--only", "src/*", cwd=root)
    assert applied.returncode == 0, applied.stdout
    assert (root / "src" / "app.py").read_text(encoding="utf-8") == "x = 2\n"


def _newest_manifest(root: Path) -> Path:
    return sorted((root / ".kopipasta" / "journal").glob("*/manifest.json"))[-1]


def _applied_once(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n", encoding="utf-8")
    reply = tmp_path / "reply.md"
    reply.write_text("```python\n# FILE: a.py\nx = 2\n```\n", encoding="utf-8")
    assert kopipasta("apply", str(reply), cwd=root).returncode == 0
    return root


def test_undo_force_refuses_a_manifest_that_would_build_a_deep_tree(tmp_path: Path) -> None:
    root = _applied_once(tmp_path)
    manifest_path = _newest_manifest(root)
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    deep = "/".join(["d"] * 300) + "/a.py"  # 604 bytes: a path a reply may name, 300 folders to make
    manifest["files"][0]["path"] = deep
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    undone = kopipasta("undo", "--force", cwd=root)
    assert undone.returncode == 1
    assert undone.stderr.startswith(f"❌ Refusing to undo {manifest_path.parent.name}: it would create more than 64 folders")
    assert undone.stderr.count("\n") == 1
    assert not (root / "d").exists()
    assert (root / "a.py").read_text(encoding="utf-8") == "x = 2\n"


def test_undo_force_refuses_a_manifest_path_longer_than_any_reply_may_name(tmp_path: Path) -> None:
    root = _applied_once(tmp_path)
    manifest_path = _newest_manifest(root)
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["files"][0]["path"] = "/".join(["d"] * 1500) + "/a.py"  # 3,004 bytes
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    undone = kopipasta("undo", "--force", cwd=root)
    assert undone.returncode == 1
    assert undone.stderr.startswith(f"❌ The journal entry {manifest_path.parent.name} is damaged: Refusing path d/d/d/")
    assert "it is 3004 bytes long (at most 1024)" in undone.stderr
    assert undone.stderr.count("\n") == 1
    assert not (root / "d").exists()
    assert (root / "a.py").read_text(encoding="utf-8") == "x = 2\n"


def test_undo_force_refuses_a_manifest_that_would_build_a_wide_tree(tmp_path: Path) -> None:
    root = _applied_once(tmp_path)
    manifest_path = _newest_manifest(root)
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    record = manifest["files"][0]
    manifest["files"] = [{**record, "path": f"w{i}/a.py"} for i in range(500)]
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    undone = kopipasta("undo", "--force", cwd=root)
    assert undone.returncode == 1
    assert "it would create more than 64 folders" in undone.stderr
    assert not any(p.name.startswith("w") for p in root.iterdir())


def test_undo_force_still_recreates_a_folder_the_user_removed(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "sub" / "a.py").write_text("x = 1\n", encoding="utf-8")
    reply = tmp_path / "reply.md"
    reply.write_text("```python\n# FILE: pkg/sub/a.py\nx = 2\n```\n", encoding="utf-8")
    assert kopipasta("apply", str(reply), cwd=root).returncode == 0
    (root / "pkg" / "sub" / "a.py").unlink()
    (root / "pkg" / "sub").rmdir()
    (root / "pkg").rmdir()
    undone = kopipasta("undo", "--force", cwd=root)
    assert undone.returncode == 0, undone.stderr
    assert (root / "pkg" / "sub" / "a.py").read_text(encoding="utf-8") == "x = 1\n"


@pytest.mark.parametrize(
    "info", ["python x\ty.py", "python:x\ty.py", "python:x.py\ty.py", "x\ty.py", "python\ty.py", "a.b y.py", "python:a b.py"]
)
def test_an_info_string_with_whitespace_inside_its_path_names_no_file(tmp_path: Path, info: str) -> None:
    """Issue 28, item 10: ```python:x<TAB>y.py was a language and a file `y.py`; whitespace inside a
    path candidate makes it no path at all (as a non-breaking space did, issue 18)."""
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=f"```{info}\nprint(1)\n```\n")
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout.splitlines()[0] == "❌ The reply holds no patch: its one code block names no file"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".kopipasta") == []  # the log only


@pytest.mark.parametrize("info", ["python y.py", "python:y.py", "y.py", "py filename=y.py"])
def test_an_info_string_naming_a_file_still_names_it(tmp_path: Path, info: str) -> None:
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=f"```{info}\nprint(1)\n```\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "y.py").read_text() == "print(1)\n"
