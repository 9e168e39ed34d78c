"""Files of the same name elsewhere in the project: "did you mean app/tokens.py?".

A reply that names `tokens.py` when the project has `app/tokens.py` would
otherwise create a stray file at the root, or fail with nothing to go on.
Only reading: the walk skips version control, dependencies and build output.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

_SKIPPED = frozenset({".git", ".kopipasta", "node_modules", "__pycache__", ".venv", "venv", "dist", "build", ".tox"})
_MAX_ENTRIES = 50_000  # a huge tree is not searched to the end: a hint is not worth seconds


def same_name(root: Path, relative: str) -> list[str]:
    """Existing files of the same name (`tokens.py` → `app/tokens.py`), those ending alike first."""
    wanted = PurePosixPath(relative.replace("\\", "/").lstrip("./"))
    if not wanted.name:
        return []
    found: list[str] = []
    seen = 0
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(f for f in folders if f not in _SKIPPED and not f.startswith("."))
        seen += len(files) + len(folders)
        if seen > _MAX_ENTRIES:
            break
        if wanted.name not in files:
            continue
        path = PurePosixPath(Path(folder, wanted.name).relative_to(root).as_posix())
        if path != wanted:
            found.append(path.as_posix())

    def rank(path: str) -> tuple[bool, int, str]:
        # `components/Tables.tsx` → `src/components/Tables.tsx` before any other `Tables.tsx`.
        ends_alike = PurePosixPath(path).parts[-len(wanted.parts) :] == wanted.parts
        return (not ends_alike, path.count("/"), path)

    return sorted(found, key=rank)[:5]


def close_names(root: Path, relative: str) -> list[str]:
    """Files in the named folder whose names are spelt almost alike (`app/view.py` → `app/views.py`)."""
    import difflib

    wanted = PurePosixPath(relative.replace("\\", "/").lstrip("./"))
    folder = root / wanted.parent
    try:
        names = sorted(entry.name for entry in os.scandir(folder) if entry.is_file())
    except OSError:
        return []
    close = difflib.get_close_matches(wanted.name, names, n=3, cutoff=0.8)
    return [(wanted.parent / name).as_posix() for name in close]


def suggestions(root: Path, relative: str) -> list[str]:
    """What a path that names nothing may have meant: the same name elsewhere, else a near spelling beside it."""
    return same_name(root, relative) or close_names(root, relative)


def did_you_mean(paths: list[str], relative: str = "") -> str:
    """The hint; "write the path from the project root" only when a suggestion is in another folder."""
    question = "did you mean " + " or ".join(f"`{p}`" for p in paths) + "?"
    here = PurePosixPath(relative.replace("\\", "/").lstrip("./")).parent if relative else None
    if here is not None and all(PurePosixPath(p).parent == here for p in paths):
        return question
    return question + " write the path from the project root"
