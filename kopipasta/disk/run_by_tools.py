"""Files that other tools run without asking: a reply may write them, the report marks them.

A reply that changes `.envrc` has a command run the next time the user enters
the folder; `conftest.py`, the next time they run pytest; a `package.json`
script, on `npm install`. kopipasta applies such a change like any other (it is
often what the user asked for) but the report says so, so that the user looks
before running anything (issue 18). One short table, matched on the file's
path relative to the root; a rule with a check looks at the bytes too.
"""

from __future__ import annotations

import fnmatch
import json
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


# (pattern on the name alone when it has no "/", else on the path, in any folder; who runs it and when; a check, if any)
_RULES: tuple[tuple[str, str, Callable[[bytes | None, bytes], bool] | None], ...] = (
    (".envrc", "direnv runs it when you enter its folder", None),
    (".vscode/tasks.json", "VS Code runs its tasks", None),
    (".vscode/launch.json", "VS Code runs it when you start debugging", None),
    (".vscode/settings.json", "VS Code runs the programs and interpreters it names", None),
    (".github/workflows/*", "GitHub Actions runs it on the next push", None),
    (".gitlab-ci.yml", "GitLab CI runs it on the next push", None),
    (".husky/*", "git runs it through husky's hooks", None),
    (".pre-commit-config.yaml", "pre-commit runs its hooks on the next commit", None),
    ("conftest.py", "pytest runs it at the next test run", None),
    ("noxfile.py", "nox runs it", None),
    ("setup.py", "pip runs it when the project is installed", None),
    ("*.pth", "Python runs it at start-up when it is on the path", None),
    ("Makefile", "make runs it", None),
    ("GNUmakefile", "make runs it", None),
    ("makefile", "make runs it", None),
    ("*.mk", "make runs it", None),
    ("justfile", "just runs it", None),
    ("package.json", "npm runs its scripts, `install` hooks on `npm install`", _scripts_changed),
)


def run_without_asking(path: str, before: bytes | None, after: bytes | None) -> str | None:
    """Who runs `path` without asking (\"direnv runs it …\"), when this change gives it new contents; None otherwise."""
    if after is None or before == after:
        return None
    name = PurePosixPath(path).name
    for pattern, who, check in _RULES:
        subject = path if "/" in pattern else name
        matched = fnmatch.fnmatchcase(subject, pattern) or (
            "/" in pattern and fnmatch.fnmatchcase(path, "*/" + pattern)
        )
        if matched and (check is None or check(before, after)):
            return who
    return None
