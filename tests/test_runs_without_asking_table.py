"""The table of files other tools run without asking covers the common ones, case-insensitively (issue 28, item 8).

Through the real CLI: a file block creating each of them is applied and
`--json` lists it under `runs_without_asking` with who runs it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import kopipasta

CASES = [
    ("Justfile", "just runs it"),
    (".justfile", "just runs it"),
    ("tox.ini", "tox runs its commands"),
    (".npmrc", "npm loads the scripts and programs it names"),
    (".yarnrc.yml", "yarn loads the plugins it names"),
    (".pnpmfile.cjs", "pnpm runs it on every install"),
    ("build.rs", "cargo runs it on every build"),
    (".cargo/config.toml", "cargo runs the programs it names"),
    ("Dockerfile", "docker runs it when the image or services are built"),
    ("docker-compose.yml", "docker runs it when the image or services are built"),
    ("compose.yaml", "docker runs it when the image or services are built"),
    (".devcontainer/devcontainer.json", "the dev container runs its commands when it is built"),
    (".devcontainer.json", "the dev container runs its commands when it is built"),
    (".idea/runConfigurations/Main.xml", "JetBrains IDEs run it from the run menu"),
    ("app.code-workspace", "VS Code runs the tasks and programs it names"),
    (".githooks/pre-commit", "git runs it as a hook"),
    ("lefthook.yml", "git runs it as a hook"),
    (".circleci/config.yml", "CI runs it on the next push"),
    ("Jenkinsfile", "CI runs it on the next push"),
    ("azure-pipelines.yml", "CI runs it on the next push"),
    (".travis.yml", "CI runs it on the next push"),
    ("Taskfile.yml", "task runs it"),
    ("Rakefile", "rake runs it"),
    ("Gemfile", "bundler runs it as Ruby"),
    ("sitecustomize.py", "Python runs it at start-up when it is on the path"),
    ("pytest.ini", "pytest loads the plugins and options it names"),
    (".pylintrc", "pylint loads the plugins it names"),
    ("mypy.ini", "mypy loads the plugins it names"),
    ("prettier.config.cjs", "the JS tool it configures loads it as code when it runs"),
    (".eslintrc.js", "the JS tool it configures loads it as code when it runs"),
    ("web/vite.config.ts", "the JS tool it configures loads it as code when it runs"),
    ("jest.config.js", "the JS tool it configures loads it as code when it runs"),
    ("webpack.config.js", "the JS tool it configures loads it as code when it runs"),
    ("babel.config.json", "the JS tool it configures loads it as code when it runs"),
    (".mise.toml", "mise runs its tasks and hooks when you enter its folder"),
    ("flake.nix", "nix runs it when the shell or build is entered"),
    ("CMakeLists.txt", "CMake runs it when the build is configured"),
    ("build.gradle.kts", "Gradle runs it on every build"),
    (".claude/settings.json", "Claude Code runs its hooks"),
    (".mcp.json", "coding agents run the commands and servers it names"),
    (".cursor/mcp.json", "coding agents run the commands and servers it names"),
    (".VSCODE/tasks.json", "VS Code runs its tasks"),
    ("CONFTEST.PY", "pytest runs it at the next test run"),
]


CONTENT = {
    ".rs": "fn main() {}\n", ".py": "run = 1\n", ".json": "{}\n", ".ts": "export default {};\n",
    ".js": "module.exports = {};\n", ".cjs": "module.exports = {};\n", ".yml": "run: 1\n", ".yaml": "run: 1\n",
    ".xml": "<run/>\n", ".toml": "run = 1\n", ".kts": "val run = 1\n", ".nix": "{ }\n",
}


def _content(path: str) -> str:
    return CONTENT.get(Path(path.lower()).suffix, "run = 1\n")


@pytest.mark.parametrize(("path", "why"), CASES, ids=[case[0] for case in CASES])
def test_each_is_applied_and_marked(tmp_path: Path, path: str, why: str) -> None:
    root = tmp_path / "project"
    root.mkdir()
    reply = tmp_path / "reply.md"
    reply.write_text(f"```text\n# FILE: {path}\n{_content(path)}```\n", encoding="utf-8")
    applied = kopipasta("apply", str(reply), "--json", cwd=root)
    assert applied.returncode == 0, applied.stdout
    report = json.loads(applied.stdout)
    assert report["runs_without_asking"] == [{"file": path, "why": why}]
    assert (root / path).read_text(encoding="utf-8") == _content(path)


@pytest.mark.parametrize("path", ["src/justfile_parser.py", "docs/dockerfiles.md", "app/config.py", "lib/build.rs.txt"])
def test_names_only_alike_are_not_marked(tmp_path: Path, path: str) -> None:
    root = tmp_path / "project"
    root.mkdir()
    reply = tmp_path / "reply.md"
    reply.write_text(f"```text\n# FILE: {path}\nrun = 1\n```\n", encoding="utf-8")
    applied = kopipasta("apply", str(reply), "--json", cwd=root)
    assert applied.returncode == 0, applied.stdout
    assert json.loads(applied.stdout)["runs_without_asking"] == []


def _named_by_rule(path: str) -> str | None:
    """The table read rule by rule with fnmatch, as `who_runs` reads it past its one-expression filter."""
    import fnmatch
    from pathlib import PurePosixPath

    from kopipasta.disk.run_by_tools import _RULES

    folded = path.replace("\\", "/").lower()
    name = PurePosixPath(folded).name
    for pattern, who, _ in _RULES:
        if "/" in pattern:
            if fnmatch.fnmatchcase(folded, pattern) or fnmatch.fnmatchcase(folded, "*/" + pattern):
                return who
        elif fnmatch.fnmatchcase(name, pattern):
            return who
    return None


def test_the_one_expression_filter_lets_every_rule_s_files_through() -> None:
    """`who_runs` asks one expression first (most files are named by no rule): it must never turn
    away a file a rule names. Each pattern's wildcards are filled several ways, in folders, in capitals."""
    from kopipasta.disk.run_by_tools import _RULES, who_runs

    paths = ["src/app.py", "README.md", "docs/index.html", "a/b/c.toml"]
    for pattern, _, _ in _RULES:
        for fill in ("", "x", "a.b", "dev/x"):
            concrete = pattern.replace("*", fill).replace("?", "z")
            paths += [concrete, f"sub/{concrete}", f"a/b/{concrete}", concrete.upper(), f"Sub\\{concrete}"]
    for path in paths:
        assert who_runs(path) == _named_by_rule(path), path
