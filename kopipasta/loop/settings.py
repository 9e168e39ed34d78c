"""Project settings that can be committed: `kopipasta.toml`, or `[tool.kopipasta]` in pyproject.toml.

`.kopipasta/` is kopipasta's private state (the undo journal, the apply log)
and ignores itself in git, so what a team shares lives at the root instead.
`kopipasta.toml` holds the keys at its top level; pyproject.toml holds them
under `[tool.kopipasta]`. When both exist, `kopipasta.toml` wins, key by key.

Keys:
  template   the prompt template, a path relative to the root, inside it
             (`--template` on the command line wins over it); an absolute
             path, or one that leaves the root by `..` or a symlink, is
             refused: a committed setting may not send the model a file from
             outside the project (issue 18)
  exclude    a list of gitignore-style patterns skipped when a directory or
             glob is walked for the prompt (on top of .gitignore)
  token_warning
             warn before copying a prompt estimated above this many tokens
             (default 30000; 0 never warns)
  outline    a list of gitignore-style patterns: files matching one are sent
             as their list of definitions, not their text (`--outline` adds more)
  format     the formatter `apply` runs on the files it wrote, before
             `--verify`: a shell command with `{files}` where the paths go
             (`--format-cmd` wins over it; `--format-cmd ''` turns it off)
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kopipasta.disk.own_settings import PYPROJECT, SETTINGS_FILE
from kopipasta.disk.regular import read_regular
from kopipasta.errors import PatchError

KNOWN_KEYS = ("template", "exclude", "token_warning", "outline", "format")
DEFAULT_TOKEN_WARNING = 30_000  # loop/tokens.py says why a warning; a chat model's budget says how much


class SettingsProblem(PatchError):
    """The settings file cannot be read, or holds a value of the wrong type."""


@dataclass(frozen=True)
class Settings:
    template: Path | None = None  # absolute (root / the configured path)
    exclude: tuple[str, ...] = ()
    format: str = ""  # the formatter command, "" for none
    source: str = ""  # where they were read, for messages
    token_warning: int = DEFAULT_TOKEN_WARNING  # 0: never warn
    outline: tuple[str, ...] = ()  # patterns of files sent as their definitions


def load_settings(root: Path) -> Settings:
    """The project's settings; defaults when neither file has any. Raises SettingsProblem."""
    merged: dict[str, Any] = {}
    sources: list[str] = []
    pyproject = _read(root / PYPROJECT)
    tool = pyproject.get("tool", {}) if pyproject else {}
    section = tool.get("kopipasta") if isinstance(tool, Mapping) else None
    if isinstance(section, Mapping):
        merged.update(section)
        sources.append(f"{PYPROJECT} [tool.kopipasta]")
    own = _read(root / SETTINGS_FILE)
    if own is not None:
        merged.update(own)
        sources.append(SETTINGS_FILE)
    where = " and ".join(sources)
    unknown = sorted(set(merged) - set(KNOWN_KEYS))
    if unknown:
        raise SettingsProblem(
            f"Unknown setting {', '.join(repr(k) for k in unknown)} in {where}",
            f"the settings are: {', '.join(KNOWN_KEYS)}",
        )
    template = merged.get("template")
    if template is not None and not (isinstance(template, str) and template.strip()):
        raise SettingsProblem(f"Setting 'template' in {where} must be a path (a string)", "e.g. template = \"prompts/kopipasta.j2\"")
    if template:
        _confine_template(root, template, where)
    exclude = merged.get("exclude", [])
    if not (isinstance(exclude, list) and all(isinstance(item, str) for item in exclude)):
        raise SettingsProblem(f"Setting 'exclude' in {where} must be a list of strings", "e.g. exclude = [\"*.lock\", \"dist/\"]")
    token_warning = merged.get("token_warning", DEFAULT_TOKEN_WARNING)
    if isinstance(token_warning, bool) or not isinstance(token_warning, int) or token_warning < 0:
        raise SettingsProblem(
            f"Setting 'token_warning' in {where} must be a whole number of tokens (0 never warns)",
            "e.g. token_warning = 30000",
        )
    outline = merged.get("outline", [])
    if not (isinstance(outline, list) and all(isinstance(item, str) for item in outline)):
        raise SettingsProblem(f"Setting 'outline' in {where} must be a list of strings", "e.g. outline = [\"src/generated/*.ts\"]")
    formatter = merged.get("format", "")
    if not isinstance(formatter, str):
        raise SettingsProblem(f"Setting 'format' in {where} must be a command (a string)", "e.g. format = \"ruff format {files}\"")
    return Settings(
        template=root / template if template else None,
        exclude=tuple(exclude),
        format=formatter.strip(),
        source=where,
        token_warning=token_warning,
        outline=tuple(outline),
    )


def _confine_template(root: Path, template: str, where: str) -> None:
    """Refuse a `template` setting that names a file outside the root (absolute, `..`, a symlink out)."""
    hint = "put the template inside the project and name it relative to the root (or pass --template)"
    if os.path.isabs(template) or template.startswith("~"):
        raise SettingsProblem(f"Setting 'template' in {where} is an absolute path ({template}): it must be inside the project", hint)
    real_root = os.path.realpath(root)
    real = os.path.realpath(os.path.join(real_root, template))
    if not real.startswith(real_root.rstrip(os.sep) + os.sep):
        raise SettingsProblem(f"Setting 'template' in {where} ({template}) leads outside the project root", hint)


def _read(path: Path) -> dict[str, Any] | None:
    """The TOML file's table; None when missing. A broken pyproject.toml matters only if it is ours."""
    try:  # never blocks on a FIFO named so (disk/regular.py)
        data = read_regular(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise SettingsProblem(f"Cannot read {path.name}: {error.strerror or error}") from None
    if path.name == PYPROJECT and b"kopipasta" not in data:
        return None  # no [tool.kopipasta]: not parsed, so an apply in any Python project skips tomllib (issue 9)
    # Imported once there is TOML to read: a project without settings files never pays for it (issue 9).
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        if path.name == PYPROJECT and b"kopipasta" not in data:
            return None
        raise SettingsProblem(f"Cannot read settings from {path.name}: {error}", "fix the TOML, or remove the file") from None
