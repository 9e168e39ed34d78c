"""The rooms' arrows (docs/ARCHITECTURE.md), as import-linter's contracts in pyproject.toml say them.

A change that imports sideways or upwards, or closes a cycle, fails here with
the contract's name and the offending import, e.g.

    kopipasta.code is not allowed to import kopipasta.loop:
    - kopipasta.code.edit.merge -> kopipasta.loop.session (l.597)
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_are_kept() -> None:
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    if lint is None:
        pytest.fail("lint-imports is not installed: pip install -e '.[test]'")
    result = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_top_level_holds_only_the_ties_and_the_rooms() -> None:
    package = ROOT / "kopipasta"
    modules = sorted(p.name for p in package.glob("*.py"))
    rooms = sorted(p.name for p in package.iterdir() if p.is_dir() and (p / "__init__.py").exists())
    assert modules == ["__init__.py", "__main__.py", "engine.py", "errors.py", "model.py", "plain.py", "report.py"]
    assert rooms == ["agents", "cli", "code", "data", "disk", "intake", "loop", "startup", "syntax", "text"]
    for room in rooms:
        init = (package / room / "__init__.py").read_text(encoding="utf-8")
        assert init.startswith('"""'), f"kopipasta/{room}/__init__.py says what the room is in its docstring"


def test_every_package_ships() -> None:
    """`pip install .` installs exactly the packages pyproject.toml names: a room left out of that list
    works from a clone and is missing from an installed copy."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: the backport the package depends on there
        import tomli as tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    package = ROOT / "kopipasta"
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in package.rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found - listed == set(), "add them to [tool.setuptools] packages"
