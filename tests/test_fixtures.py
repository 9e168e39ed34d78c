"""The regression suite: every folder in fixtures/ run through the real CLI.

A case is `before/` (the project), `reply.md` (the model's reply), and either
`after/` (the project as it must end up) or `expected_error.txt` (a fragment
of the failure line; the project must then be unchanged). Optional:
`args.txt` (extra `kopipasta apply` options, one per line) and
`expected_exit.txt` (the exit status, when it is not 0 for `after/` or 1 for
an error). Adding a case is adding a folder.
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and (p / "reply.md").is_file())
# What apply keeps for itself in a project, not part of a case's expected tree.
STATE_DIR = ".kopipasta"


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under root (symlinks as their target text), by relative path."""
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if relative.parts[0] == STATE_DIR:
            continue
        if path.is_symlink():
            files[relative.as_posix()] = b"-> " + str(path.readlink()).encode()
        elif path.is_file():
            files[relative.as_posix()] = path.read_bytes()
    return files


def tree_diff(expected: dict[str, bytes], actual: dict[str, bytes]) -> str:
    out: list[str] = []
    for name in sorted(set(expected) | set(actual)):
        want, got = expected.get(name), actual.get(name)
        if want == got:
            continue
        if want is None or got is None:
            out.append(f"{name}: {'unexpected file' if want is None else 'missing file'}")
            continue
        out.extend(
            difflib.unified_diff(
                want.decode("utf-8", "replace").splitlines(keepends=True),
                got.decode("utf-8", "replace").splitlines(keepends=True),
                f"expected/{name}",
                f"actual/{name}",
            )
        )
        if want.replace(b"\r\n", b"\n") == got.replace(b"\r\n", b"\n"):
            out.append(f"{name}: line endings differ\n")
        elif want.strip() == got.strip():
            out.append(f"{name}: leading/trailing whitespace differs\n")
    return "".join(out)


def run_apply(case: Path, project: Path) -> subprocess.CompletedProcess[str]:
    args_file = case / "args.txt"
    extra = args_file.read_text(encoding="utf-8").split() if args_file.exists() else []
    return subprocess.run(
        [sys.executable, "-m", "kopipasta", "apply", str(case / "reply.md"), "--root", str(project), *extra],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def prepare(case: Path, tmp_path: Path) -> Path:
    project = tmp_path / "project"
    if (case / "before").is_dir():
        shutil.copytree(case / "before", project, symlinks=True)
    else:
        project.mkdir()  # git keeps no empty folders: a case that creates files may have no before/
    return project


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_fixture(case: Path, tmp_path: Path) -> None:
    project = prepare(case, tmp_path)
    before = snapshot(project)
    result = run_apply(case, project)
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    exit_file = case / "expected_exit.txt"

    if (case / "after").is_dir():
        expected_exit = int(exit_file.read_text()) if exit_file.exists() else 0
        assert result.returncode == expected_exit, output
        expected = snapshot(case / "after")
        actual = snapshot(project)
        assert actual == expected, "\n" + tree_diff(expected, actual) + "\n" + output

        # Idempotence: the same reply on the result changes nothing, or fails cleanly.
        again = run_apply(case, project)
        assert "Traceback" not in again.stdout + again.stderr
        assert again.returncode in (0, 1), again.stdout + again.stderr
        assert snapshot(project) == expected, "\n" + tree_diff(expected, snapshot(project))
    else:
        fragment = (case / "expected_error.txt").read_text(encoding="utf-8").strip()
        expected_exit = int(exit_file.read_text()) if exit_file.exists() else 1
        assert result.returncode == expected_exit, output
        assert fragment in output, f"expected {fragment!r} in:\n{output}"
        assert snapshot(project) == before, "\n" + tree_diff(before, snapshot(project))
