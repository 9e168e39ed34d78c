"""`kopipasta nodes` and the prompt on data files: YAML and TOML keys and tables, JSONC keys
despite trailing commas — and every path listed resolves."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kopipasta.cli import main
from kopipasta.code.read.inventory import file_definitions
from kopipasta.engine import apply_reply
from kopipasta.loop.prompt import render_prompt
from kopipasta.model import Status

CORPUS = Path(__file__).parent / "data_corpus"

TSCONFIG = """\
{
  // Strict everywhere.
  "compilerOptions": {
    "strict": true,
    "paths": { "@/*": ["src/*"], },
  },
  "include": ["src", "tests",],
}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name in ("ci.yml", "deployment.yaml", "pyproject.toml", "Cargo.toml"):
        shutil.copy(CORPUS / name, tmp_path / name)
    (tmp_path / "tsconfig.json").write_text(TSCONFIG)
    return tmp_path


def nodes(project: Path, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["nodes", "--root", str(project), *args])


def test_tsconfig_with_trailing_commas_lists_its_keys(project: Path) -> None:
    result = nodes(project, "tsconfig.json")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["tsconfig.json", "  key  compilerOptions  3-6", "  key  include          7"]


def test_yaml_lists_top_level_keys_and_documents_by_index(project: Path) -> None:
    result = nodes(project, "ci.yml", "deployment.yaml")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "ci.yml",
        "  key  name            2",
        "  key  on              4-10",
        "  key  permissions     12-13",
        "  key  env             15-17",
        "  key  concurrency     19-21",
        "  key  jobs            23-62",
        "",
        "deployment.yaml",
        "  key  [0].apiVersion  2",
        "  key  [0].kind        3",
        "  key  [0].metadata    4-8",
        "  key  [0].spec        9-39",
        "  key  [1].apiVersion  41",
        "  key  [1].kind        42",
        "  key  [1].metadata    43-46",
        "  key  [1].spec        47-52",
    ]


def test_toml_lists_root_keys_tables_and_array_elements(project: Path) -> None:
    (project / "settings.toml").write_text('title = "x"\n\n[server]\nport = 80\n\n[[user]]\nname = "a"\n')
    result = nodes(project, "settings.toml", "Cargo.toml")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "settings.toml",
        "  key    title             1",
        "  table  server            3-4",
        "  table  user[0]           6-7",
        "",
        "Cargo.toml",
        "  table  package           1-9",
        "  table  features          11-14",
        "  table  dependencies      16-20",
        "  table  dev-dependencies  22-24",
        "  table  profile.release   26-28",
        "  table  bin[0]            30-32",
        "  table  bin[1]            34-37",
    ]


@pytest.mark.parametrize("name", ["ci.yml", "deployment.yaml", "pyproject.toml", "Cargo.toml", "tsconfig.json"])
def test_every_listed_path_resolves(project: Path, name: str) -> None:
    """Each listed path, set to a value, is found: applied, or refused for its payload only."""
    info = {"yml": "yaml", "yaml": "yaml", "toml": "toml", "json": "jsonc"}[name.rsplit(".", 1)[1]]
    comment = "//" if info == "jsonc" else "#"
    for definition in file_definitions(project, name):
        reply = f"```{info}\n{comment} FILE: {name}\n{comment} TARGET_PATH: {definition.name}\n1\n```\n"
        outcome = apply_reply(reply, project, dry_run=True).outcomes[0]
        assert outcome.status is Status.APPLIED or "not found" not in outcome.message, (definition.name, outcome)


def test_prompt_lists_data_paths_and_shows_a_yaml_and_a_toml_example(project: Path) -> None:
    prompt = render_prompt(["ci.yml", "Cargo.toml"], task="", root=project)
    assert "Paths: name, on, permissions, env, concurrency, jobs\n" in prompt
    assert "Paths: package, features, dependencies, dev-dependencies, profile.release, bin[0], bin[1]\n" in prompt
    assert "`TARGET_PATH: key.sub[0]` (JSON, YAML, TOML)" in prompt
    assert '```yaml\n# FILE: ci.yml\n# TARGET_PATH: env\nPYTHONUNBUFFERED: "1"\nFORCE_COLOR: 1\n```' in prompt
    assert "```toml\n# FILE: Cargo.toml\n# TARGET_PATH: dev-dependencies\n" in prompt
