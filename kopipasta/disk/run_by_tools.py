"""Files that other tools run without asking: a reply may write them, the report marks them.

A reply that changes `.envrc` has a command run the next time the user enters
the folder; `conftest.py`, the next time they run pytest; a `package.json`
script, on `npm install`. kopipasta applies such a change like any other (it is
often what the user asked for) but the report says so, so that the user looks
before running anything (issue 18). One table, matched on the file's path
relative to the root, without regard to case (`.VSCODE/tasks.json` is
`.vscode/tasks.json` on macOS and Windows; `Justfile` is `justfile`); a rule
with a check looks at the bytes too. Issue 28 (item 8) widened it to the
build, CI, container, editor, hook, agent and JS tool files tools run or load.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import re
from collections.abc import Callable
from pathlib import PurePosixPath


def _scripts_changed(before: bytes | None, after: bytes) -> bool:
    """A package.json's `scripts` differ (npm runs them; `install` hooks on `npm install`)."""

    def scripts(data: bytes | None) -> object:
        if data is None:
            return None
        try:
            parsed = json.loads(data.decode("utf-8-sig"))
        except ValueError:
            return b'"scripts"' in data  # unreadable: any mention counts as a change
        return parsed.get("scripts") if isinstance(parsed, dict) else None

    return scripts(before) != scripts(after)


_CI = "CI runs it on the next push"
_JS_TOOL = "the JS tool it configures loads it as code when it runs"
_DOCKER = "docker runs it when the image or services are built"
_GRADLE = "Gradle runs it on every build"
_HOOK = "git runs it as a hook"
_AGENT = "coding agents run the commands and servers it names"
_JS_TOOLS = (
    "prettier", "eslint", "vite", "vitest", "jest", "webpack", "babel", "rollup", "next", "nuxt", "postcss",
    "tailwind", "svelte", "astro", "playwright", "stylelint", "remix", "esbuild", "tsup", "karma", "cypress",
)

# (pattern, lowercase; on the name alone when it has no "/", else on the path, in any folder;
#  who runs it and when; a check, if any)
_RULES: tuple[tuple[str, str, Callable[[bytes | None, bytes], bool] | None], ...] = (
    (".envrc", "direnv runs it when you enter its folder", None),
    (".vscode/tasks.json", "VS Code runs its tasks", None),
    (".vscode/launch.json", "VS Code runs it when you start debugging", None),
    (".vscode/settings.json", "VS Code runs the programs and interpreters it names", None),
    (".vscode/mcp.json", _AGENT, None),
    ("*.code-workspace", "VS Code runs the tasks and programs it names", None),
    (".idea/runconfigurations/*", "JetBrains IDEs run it from the run menu", None),
    (".devcontainer/*", "the dev container runs its commands when it is built", None),
    (".devcontainer.json", "the dev container runs its commands when it is built", None),
    (".claude/settings.json", "Claude Code runs its hooks", None),
    (".claude/settings.local.json", "Claude Code runs its hooks", None),
    (".mcp.json", _AGENT, None),
    (".cursor/mcp.json", _AGENT, None),
    (".github/workflows/*", "GitHub Actions runs it on the next push", None),
    (".github/actions/*", "GitHub Actions runs it on the next push", None),
    (".gitlab-ci.yml", "GitLab CI runs it on the next push", None),
    (".circleci/*", _CI, None),
    ("jenkinsfile", _CI, None),
    ("azure-pipelines.yml", _CI, None),
    ("azure-pipelines.yaml", _CI, None),
    (".travis.yml", _CI, None),
    ("bitbucket-pipelines.yml", _CI, None),
    (".drone.yml", _CI, None),
    (".buildkite/*", _CI, None),
    (".husky/*", "git runs it through husky's hooks", None),
    (".githooks/*", _HOOK, None),
    ("lefthook.yml", _HOOK, None),
    ("lefthook.yaml", _HOOK, None),
    (".lefthook.yml", _HOOK, None),
    ("lefthook-local.yml", _HOOK, None),
    (".pre-commit-config.yaml", "pre-commit runs its hooks on the next commit", None),
    ("conftest.py", "pytest runs it at the next test run", None),
    ("pytest.ini", "pytest loads the plugins and options it names", None),
    ("tox.ini", "tox runs its commands", None),
    ("noxfile.py", "nox runs it", None),
    ("setup.py", "pip runs it when the project is installed", None),
    ("setup.cfg", "pytest, flake8 and setuptools load the plugins and options it names", None),
    ("sitecustomize.py", "Python runs it at start-up when it is on the path", None),
    ("usercustomize.py", "Python runs it at start-up when it is on the path", None),
    ("*.pth", "Python runs it at start-up when it is on the path", None),
    (".pylintrc", "pylint loads the plugins it names", None),
    ("pylintrc", "pylint loads the plugins it names", None),
    ("mypy.ini", "mypy loads the plugins it names", None),
    (".mypy.ini", "mypy loads the plugins it names", None),
    ("makefile", "make runs it", None),
    ("gnumakefile", "make runs it", None),
    ("*.mk", "make runs it", None),
    ("justfile", "just runs it", None),
    (".justfile", "just runs it", None),
    ("taskfile.yml", "task runs it", None),
    ("taskfile.yaml", "task runs it", None),
    ("rakefile", "rake runs it", None),
    ("*.rake", "rake runs it", None),
    ("gemfile", "bundler runs it as Ruby", None),
    ("cmakelists.txt", "CMake runs it when the build is configured", None),
    ("*.cmake", "CMake runs it when the build is configured", None),
    ("build.gradle", _GRADLE, None),
    ("build.gradle.kts", _GRADLE, None),
    ("settings.gradle", _GRADLE, None),
    ("settings.gradle.kts", _GRADLE, None),
    ("gradlew", _GRADLE, None),
    ("gradle/wrapper/gradle-wrapper.properties", _GRADLE, None),
    ("build.rs", "cargo runs it on every build", None),
    (".cargo/config.toml", "cargo runs the programs it names", None),
    (".cargo/config", "cargo runs the programs it names", None),
    ("dockerfile", _DOCKER, None),
    ("dockerfile.*", _DOCKER, None),
    ("*.dockerfile", _DOCKER, None),
    ("compose.yml", _DOCKER, None),
    ("compose.yaml", _DOCKER, None),
    ("docker-compose*.yml", _DOCKER, None),
    ("docker-compose*.yaml", _DOCKER, None),
    ("compose.*.yml", _DOCKER, None),
    ("compose.*.yaml", _DOCKER, None),
    (".mise.toml", "mise runs its tasks and hooks when you enter its folder", None),
    ("mise.toml", "mise runs its tasks and hooks when you enter its folder", None),
    ("flake.nix", "nix runs it when the shell or build is entered", None),
    ("shell.nix", "nix runs it when the shell is entered", None),
    (".npmrc", "npm loads the scripts and programs it names", None),
    (".yarnrc", "yarn loads the programs it names", None),
    (".yarnrc.yml", "yarn loads the plugins it names", None),
    (".pnpmfile.cjs", "pnpm runs it on every install", None),
    ("package.json", "npm runs its scripts, `install` hooks on `npm install`", _scripts_changed),
    *((f"{tool}.config.*", _JS_TOOL, None) for tool in _JS_TOOLS),
    (".prettierrc*", _JS_TOOL, None),
    (".eslintrc*", _JS_TOOL, None),
    (".babelrc*", _JS_TOOL, None),
    (".stylelintrc*", _JS_TOOL, None),
    (".mocharc*", _JS_TOOL, None),
)


def run_without_asking(path: str, before: bytes | None, after: bytes | None) -> str | None:
    """Who runs `path` without asking (\"direnv runs it …\"), when this change gives it new contents; None otherwise."""
    if after is None or before == after:
        return None
    return who_runs(path, before, after)


@functools.cache
def _any_rule() -> re.Pattern[str]:
    """Every rule's pattern in one expression, matched against `name` + NUL + `path`: most files are
    named by no rule, and one match tells so where a loop over the table takes a fnmatch per rule."""
    names = "|".join(_unanchored(p) for p, _, _ in _RULES if "/" not in p)
    paths = "|".join(_unanchored(p) for p, _, _ in _RULES if "/" in p)
    return re.compile(rf"(?:{names})\x00|[^\x00]*\x00(?:.*/)?(?:{paths})\Z", re.DOTALL)


def _unanchored(pattern: str) -> str:
    """fnmatch's expression for `pattern` without its end anchor (`\\Z`; `\\z` from Python 3.14)."""
    translated = fnmatch.translate(pattern)
    return translated.removesuffix(r"\Z").removesuffix(r"\z")


def who_runs(path: str, before: bytes | None = None, after: bytes | None = None) -> str | None:
    """Who runs `path` (by name; a rule with a check also needs the bytes); None when no tool does."""
    folded = path.replace("\\", "/").lower()
    name = PurePosixPath(folded).name
    if not _any_rule().match(f"{name}\x00{folded}"):
        return None
    for pattern, who, check in _RULES:
        if "/" in pattern:
            matched = fnmatch.fnmatchcase(folded, pattern) or fnmatch.fnmatchcase(folded, "*/" + pattern)
        else:
            matched = fnmatch.fnmatchcase(name, pattern)
        if matched and (check is None or after is None or check(before, after)):
            return who
    return None
