"""kopipasta's own settings files: a reply may not write them (issue 18, item 1).

`kopipasta.toml` and the `[tool.kopipasta]` table of `pyproject.toml` name the
prompt template the next `prompt` renders and the files it walks: a reply
that could write them could choose what runs on the user's machine and what
is sent to the model. So every block on `kopipasta.toml` is refused, as one
on `.git/` is, and a block on `pyproject.toml` is refused when the file's
`[tool.kopipasta]` table differs after it (any other part of pyproject.toml
is the project's, and patched as usual).

The names are compared case-insensitively, for the reason `.git` is: on a
case-insensitive disk `KOPIPASTA.TOML` is the settings file. Any folder's
counts, not only the root's: `--root sub` makes `sub/kopipasta.toml` the
settings file of that run.

They are protected by the file they resolve to, not only by their name
(issue 28, items 2-4): `kopipasta.toml -> config/kp.toml` makes
`config/kp.toml` the settings file, `pyproject.toml -> cfg/base.toml` makes
`cfg/base.toml` the pyproject whose table is guarded, and the prompt template
the settings name (`template = "tools/prompt.j2"`, and the file it resolves
to) is refused as the settings are: every later prompt would carry the
reply's words to the model. Nothing may be created under those names either
(`kopipasta.toml/readme.txt` would turn the settings file into a folder).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path, PurePosixPath
from typing import Any

from kopipasta.disk.regular import read_regular
from kopipasta.errors import ConfinementError

SETTINGS_FILE = "kopipasta.toml"
PYPROJECT = "pyproject.toml"
_WHY = "kopipasta's own settings (the prompt template it renders, the files it reads) are not a reply's to write"
_HINT = "make that change yourself if you mean it"


_TEMPLATE_WHY = "it is the prompt template kopipasta's settings name: every later prompt would carry the reply's words"


def refuse_settings_file(*names: str, root: Path | None = None) -> None:
    """Raise ConfinementError when the file (by any of its names: as written, as resolved) is kopipasta's own.

    That is a kopipasta.toml, a path under a folder named kopipasta.toml or
    pyproject.toml, and, given the `root`, the file the root's kopipasta.toml
    resolves to and the template the settings name.
    """
    for name in names:
        parts = [part.lower() for part in PurePosixPath(name).parts]
        if parts and parts[-1] == SETTINGS_FILE:
            raise ConfinementError(f"Refusing path {names[0]}: {_WHY}", _HINT)
        if SETTINGS_FILE in parts[:-1] or PYPROJECT in parts[:-1]:
            raise ConfinementError(
                f"Refusing path {names[0]}: it would make a settings file's name a folder ({_WHY})", _HINT
            )
    if root is None:
        return
    guarded = _guarded(root)
    for name in names:
        key = _key(name)
        if key in guarded.settings:
            raise ConfinementError(f"Refusing path {names[0]}: {_WHY} (kopipasta.toml resolves to it)", _HINT)
        if key in guarded.templates:
            raise ConfinementError(f"Refusing path {names[0]}: {_TEMPLATE_WHY}", _HINT)


def refuse_settings_change(
    shown: str, real: str, before: bytes | None, after: bytes | None, *, root: Path | None = None
) -> None:
    """Raise ConfinementError when `real` is a pyproject.toml whose [tool.kopipasta] differs from before to after.

    None stands for a file that does not exist (created, deleted). A file that does
    not parse as TOML holds no table kopipasta reads (loop/settings.py reads none
    from it), so a reply may fix a broken pyproject.toml that has no table.
    Given the `root`, the file the root's pyproject.toml resolves to counts as one.
    """
    if before == after:
        return
    is_pyproject = PurePosixPath(real).name.lower() == PYPROJECT or (
        root is not None and _key(real) in _guarded(root).pyprojects
    )
    if not is_pyproject:
        return
    if _table(before) != _table(after):
        raise ConfinementError(f"Refusing to change [tool.kopipasta] in {shown}: {_WHY}", _HINT)


def _table(data: bytes | None) -> Any:
    """The `[tool.kopipasta]` value of a pyproject.toml's bytes; None when absent or unreadable.

    Parsed, never searched for as text: a quoted key with an escape
    (`"kopip\\u0061sta"`) names the table without spelling it.
    """
    if data is None:
        return None
    parsed = _toml(data)
    if parsed is None:
        return None
    tool = parsed.get("tool")
    return tool.get("kopipasta") if isinstance(tool, dict) else None


class _Guarded:
    """The real files (relative to the real root, lowercased) that the root's settings names resolve to."""

    def __init__(self, settings: frozenset[str], pyprojects: frozenset[str], templates: frozenset[str]) -> None:
        self.settings, self.pyprojects, self.templates = settings, pyprojects, templates


_cache: dict[tuple[str, tuple[object, ...]], _Guarded] = {}


def _key(relative: str) -> str:
    return PurePosixPath(os.path.normpath(relative)).as_posix().lower()


def _inside(real_root: str, path: str) -> str | None:
    """`path`'s real file relative to the real root; None when it leaves the root or is the root."""
    real = os.path.realpath(os.path.join(real_root, path))
    prefix = real_root.rstrip(os.sep) + os.sep
    return real[len(prefix):].replace(os.sep, "/").lower() if real.startswith(prefix) else None


def _guarded(root: Path) -> _Guarded:
    """What the root's kopipasta.toml, pyproject.toml and their `template` resolve to.

    Cached on the two files' stat: a block-by-block apply asks once per block.
    """
    real_root = os.path.realpath(root)
    stamps: list[object] = []
    for name in (SETTINGS_FILE, PYPROJECT):
        try:
            found_stat = os.stat(os.path.join(real_root, name))
            stamps.append((found_stat.st_ino, found_stat.st_size, found_stat.st_mtime_ns))
        except OSError:
            stamps.append(None)
    cache_key = (real_root, tuple(stamps))
    found = _cache.get(cache_key)
    if found is not None:
        return found
    settings = {_inside(real_root, SETTINGS_FILE)} - {None}
    pyprojects = {_inside(real_root, PYPROJECT)} - {None}
    templates: set[str | None] = set()
    for name, table in ((SETTINGS_FILE, lambda parsed: parsed), (PYPROJECT, _tool_table)):
        parsed = _read_toml(os.path.join(real_root, name))
        section = table(parsed) if parsed is not None else None
        template = section.get("template") if isinstance(section, dict) else None
        if isinstance(template, str) and template.strip() and not os.path.isabs(template):
            templates.add(_key(template))
            templates.add(_inside(real_root, template))
    found = _Guarded(
        frozenset(s for s in settings if s), frozenset(p for p in pyprojects if p), frozenset(t for t in templates if t)
    )
    if len(_cache) > 64:
        _cache.clear()
    _cache[cache_key] = found
    return found


def _tool_table(parsed: dict[str, Any]) -> Any:
    tool = parsed.get("tool")
    return tool.get("kopipasta") if isinstance(tool, dict) else None


def _read_toml(path: str) -> dict[str, Any] | None:
    """A settings file's table; None when missing, unreadable or not TOML (loop/settings.py reports those)."""
    try:  # regular files only, opened without blocking: a FIFO named so must not hang
        data = read_regular(path, 1 << 20)
    except OSError:
        return None
    if b"template" not in data:
        return None  # no template named: not parsed (issue 9: start-up pays for what it uses)
    return _toml(data)


def _toml(data: bytes) -> dict | None:
    """The TOML document, or None when it does not read."""
    # Imported only when settings are read (issue 9: start-up pays for what it uses).
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        parsed = tomllib.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return parsed if isinstance(parsed, dict) else None
