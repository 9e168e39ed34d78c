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
"""

from __future__ import annotations

import sys
from pathlib import PurePosixPath
from typing import Any

from kopipasta.errors import ConfinementError

SETTINGS_FILE = "kopipasta.toml"
PYPROJECT = "pyproject.toml"
_WHY = "kopipasta's own settings (the prompt template it renders, the files it reads) are not a reply's to write"
_HINT = "make that change yourself if you mean it"


def refuse_settings_file(*names: str) -> None:
    """Raise ConfinementError when any of the file's names (as written, as resolved) is kopipasta.toml."""
    for name in names:
        if PurePosixPath(name).name.lower() == SETTINGS_FILE:
            raise ConfinementError(f"Refusing path {names[0]}: {_WHY}", _HINT)


def refuse_settings_change(shown: str, real: str, before: bytes | None, after: bytes | None) -> None:
    """Raise ConfinementError when `real` is a pyproject.toml whose [tool.kopipasta] differs from before to after.

    None stands for a file that does not exist (created, deleted). A file that does
    not parse as TOML holds no table kopipasta reads (loop/settings.py reads none
    from it), so a reply may fix a broken pyproject.toml that has no table.
    """
    if PurePosixPath(real).name.lower() != PYPROJECT or before == after:
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
    # Imported only when a block changes a pyproject.toml (issue 9: start-up pays for what it uses).
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        parsed = tomllib.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    tool = parsed.get("tool")
    return tool.get("kopipasta") if isinstance(tool, dict) else None
