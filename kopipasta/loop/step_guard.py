"""The format and verify steps do not run when this apply wrote what they would load (issue 28, item 1).

A formatter reads its configuration from the project (`prettier.config.cjs`,
`.prettierrc.json` naming a plugin, `pyproject.toml`'s `[tool.ruff]`,
`.rubocop.yml`, `.php-cs-fixer.php`, ...) and many of those load code. A reply
that writes one of them next to the file it patches would have its code run
by the same `kopipasta apply` that runs `format = "prettier --write {files}"`.
Which files a given command loads cannot be known from outside it, so the
rule is general, not a list of formatters: the step runs only when no file
this apply wrote is a configuration file, a dotfile (or under a dot-folder),
a file named like a plugin, a file other tools run without asking
(disk/run_by_tools.py), or a name a command could read as an option (`-x`).
Anywhere in the project, not only beside the formatted files: a config in
any folder above a formatted file is on its lookup path, and a folder below
is one the next apply may format.

The verify step obeys the same rule: it exists to run the code the reply
wrote, but a reply must not choose how it is run (`pytest.ini`'s `addopts`,
`tox.ini`, a Makefile, a conftest's plugins).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath

from kopipasta.disk.run_by_tools import who_runs

# Exact names (lowercased) that configure a formatter, linter or build tool without being dotfiles.
_CONFIG_NAMES = frozenset({
    "package.json", "pyproject.toml", "setup.cfg", "tox.ini", "composer.json", "mix.exs", "gemfile",
    "rakefile", "biome.json", "biome.jsonc", "deno.json", "deno.jsonc", "dprint.json", "rustfmt.toml",
    "ruff.toml", "stylua.toml", "taplo.toml", "treefmt.toml", "cargo.toml", "go.mod", "build.gradle",
    "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "pom.xml", "phpcs.xml", "phpcs.xml.dist",
    "phpstan.neon", "psalm.xml", "gulpfile.js", "gruntfile.js", "dune-project", "stack.yaml",
})
# Extensions that are configuration formats and nothing else (data files use .json, .yaml).
_CONFIG_EXTENSIONS = frozenset({".toml", ".ini", ".cfg", ".conf", ".neon", ".editorconfig", ".properties"})
# A stem ending so, with one of these extensions, is a tool's config (tsconfig.json, jsconfig.json, config.yaml).
_DATA_EXTENSIONS = frozenset({".json", ".jsonc", ".json5", ".yaml", ".yml", ".xml"})
# `npmrc`, `eslintrc.json`: an "rc" stem is a config in these forms (not `arc.py`).
_RC_EXTENSIONS = frozenset({"", ".js", ".cjs", ".mjs", ".json", ".jsonc", ".yaml", ".yml"})


def why_loaded(path: str) -> str | None:
    """Why a command may load `path` as configuration or code (a short phrase); None when it is plain source."""
    parts = PurePosixPath(path).parts
    name = parts[-1].lower()
    if name.startswith("-"):
        return "its name reads as an option"
    if any(part.startswith(".") for part in parts):
        return "a dotfile is where tools keep their configuration"
    if name in _CONFIG_NAMES:
        return "tools read their configuration from it"
    suffix = PurePosixPath(name).suffix
    stem = name[: -len(suffix)] if suffix else name
    if suffix in _CONFIG_EXTENSIONS or ".config." in name or stem.endswith(".config"):
        return "it is a configuration file"
    if stem.endswith("rc") and suffix in _RC_EXTENSIONS:
        return "it is a configuration file"
    if suffix in _DATA_EXTENSIONS and stem.endswith("config"):
        return "it is a configuration file"
    if "plugin" in name:
        return "it is named as a plugin"
    if who_runs(path) is not None:
        return "tools run it without asking"
    return None


def held_by(paths: Iterable[str]) -> tuple[str, str] | None:
    """The first written file a command may load and why; None when the step may run."""
    for path in paths:
        why = why_loaded(path)
        if why is not None:
            return path, why
    return None


def held_line(step: str, command: str, path: str, why: str) -> str:
    """One line: the step did not run, which file held it, what to do."""
    return (
        f"⛔ {step} not run: this apply wrote {path} ({why}), which `{command}` may load"
        f" — look at it, then run the command yourself"
    )
