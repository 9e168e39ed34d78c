"""`kopipasta nodes`: what each file offers to TARGET_NODE / TARGET_PATH, as a user sees it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kopipasta.cli import main
from kopipasta.code.read.inventory import file_definitions, root_relative
from kopipasta.errors import TargetNotFound, UnsupportedFile
from kopipasta.syntax.languages import LANGUAGES

PYTHON = '''\
import sys

LIMIT = 10


class Cache:
    """A tiny cache."""

    size = 0

    @property
    def full(self) -> bool:
        return self.size >= LIMIT

    class Entry:
        def touch(self) -> None:
            pass


if sys.platform == "win32":
    def home() -> str:
        return "C:/"
else:
    def home() -> str:
        return "/"
'''

TSX = '''\
import React, { memo } from "react";

export interface RowProps {
  label: string;
}

type Id = string;

export const Row = memo(({ label }: RowProps) => <tr><td>{label}</td></tr>);

export default class Table extends React.Component<{ rows: RowProps[] }> {
  render() {
    return <table>{this.props.rows.map((r) => <Row key={r.label} {...r} />)}</table>;
  }
}
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "cache.py").write_text(PYTHON)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "Table.tsx").write_text(TSX)
    (tmp_path / "package.json").write_text('{\n  "name": "x",\n  "a.b": {\n    "c": 1\n  }\n}\n')
    (tmp_path / "README.md").write_text("# hi\n")
    return tmp_path


def nodes(project: Path, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["nodes", "--root", str(project), *args])


def test_python_file(project: Path) -> None:
    result = nodes(project, "app/cache.py")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "app/cache.py",
        "  variable  LIMIT              3",
        "  class     Cache              6-17",
        "  variable  Cache.size         9",
        "  method    Cache.full         12-13",
        "  class     Cache.Entry        15-17",
        "  method    Cache.Entry.touch  16-17",
        "  function  home#1             21-22",
        "  function  home#2             24-25",
    ]


def test_tsx_file(project: Path) -> None:
    result = nodes(project, "src/Table.tsx")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "src/Table.tsx",
        "  interface  RowProps      3-5",
        "  type       Id            7",
        "  function   Row           9",
        "  class      Table         11-15",
        "  method     Table.render  12-14",
    ]


def test_several_files_align_and_json_keys(project: Path) -> None:
    result = nodes(project, "src/Table.tsx", "package.json")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-4:] == [
        "",
        "package.json",
        '  key        name          2',
        '  key        ["a.b"]       3-5',
    ]


def test_json_output(project: Path) -> None:
    result = nodes(project, "--json", "app/cache.py", "package.json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [entry["file"] for entry in data] == ["app/cache.py", "package.json"]
    assert data[0]["definitions"][3] == {
        "kind": "method",
        "name": "full",
        "qualified_name": "Cache.full",
        "line": 12,
        "end_line": 13,
    }
    assert data[1]["definitions"][1]["name"] == '["a.b"]'
    assert all(set(d) == {"kind", "name", "qualified_name", "line", "end_line"} for e in data for d in e["definitions"])


# Every language's extensions, in the table's order: the list grows with the languages.
SUPPORTED = ", ".join(ext for spec in LANGUAGES for ext in spec.extensions)


def test_missing_and_unsupported_files(project: Path) -> None:
    result = nodes(project, "app/nope.py", "src/Table.tsx", "README.md")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "❌ No such file: app/nope.py — paths are relative to the project root (--root)",
        f"❌ README.md: no grammar for this file type (supported: {SUPPORTED}, .json, .yaml, .yml, .toml) — "
        "such a file can only be replaced whole",
    ]
    assert result.stdout.splitlines()[0] == "src/Table.tsx"
    as_json = json.loads(nodes(project, "--json", "app/nope.py").stdout)
    assert as_json == [
        {
            "file": "app/nope.py",
            "error": "No such file: app/nope.py — paths are relative to the project root (--root)",
            "definitions": [],
        }
    ]


def test_path_leaving_the_root_is_refused(project: Path) -> None:
    result = nodes(project, "../etc/passwd")
    assert result.exit_code == 1
    assert result.stderr.startswith("❌ Refusing path ../etc/passwd: it leaves the project root")


def test_file_definitions_is_the_resolver_data(project: Path) -> None:
    names = [d.qualified_name for d in file_definitions(project, "app/cache.py")]
    assert names == ["LIMIT", "Cache", "Cache.size", "Cache.full", "Cache.Entry", "Cache.Entry.touch", "home", "home"]
    with pytest.raises(TargetNotFound):
        file_definitions(project, "nope.py")
    with pytest.raises(UnsupportedFile):
        file_definitions(project, "README.md")
    with pytest.raises(UnsupportedFile):
        file_definitions(project, "app")


def test_json_that_is_not_an_object_lists_nothing(project: Path) -> None:
    (project / "list.json").write_text("[1, 2]\n")
    (project / "broken.json").write_text('{"a": \n')
    assert file_definitions(project, "list.json") == []
    assert file_definitions(project, "broken.json") == []


def test_paths_from_the_current_folder_are_accepted(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project.parent)
    inside = f"{project.name}/app/cache.py"
    assert root_relative(inside, project) == "app/cache.py"
    assert root_relative(str(project / "app" / "cache.py"), project) == "app/cache.py"
    assert root_relative("app/cache.py", project) == "app/cache.py"
    assert root_relative("elsewhere.py", project) == "elsewhere.py"
    result = nodes(project, inside)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "app/cache.py"
