"""An absolute path in a text patch, as Claude Code's edits write it, read as the project file it names.

`/home/me/app/src/x.py` applied in `/work/app` is `src/x.py` when that file exists:
the path inside the root when it lies there, else its longest tail that is a file of
the project. A path that names none stays as written, and the workspace refuses it
(paths must be relative), so nothing is ever written outside the root.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path, PurePosixPath, PureWindowsPath

from kopipasta.intake.textpatch_syntax import FilePatch, TextPatch


def _absolute(path: str) -> bool:
    return path.startswith(("/", "\\")) or (len(path) > 2 and path[1] == ":" and path[2] in "/\\")


def _in_project(path: str, root: Path) -> str | None:
    parts = (PureWindowsPath(path) if "\\" in path or path[1:2] == ":" else PurePosixPath(path)).parts[1:]
    if ".." in parts:
        return None
    try:
        inside = Path(path).relative_to(root.resolve())
        if inside.parts and (root / inside).is_file():
            return inside.as_posix()
    except ValueError:
        pass
    for k in range(len(parts)):  # the longest tail first: it says the most
        tail = PurePosixPath(*parts[k:])
        if (root / tail).is_file() and not (root / tail).is_symlink():
            return tail.as_posix()
    return None


def rooted(patch: TextPatch, root: Path) -> TextPatch:
    """The patch with each absolute path of a file it updates read as the project file it names."""
    if not any(_absolute(fp.path) for fp in patch.files):
        return patch
    files: list[FilePatch] = []
    for fp in patch.files:
        found = _in_project(fp.path, root) if fp.action == "update" and _absolute(fp.path) else None
        files.append(replace(fp, path=found) if found else fp)
    return replace(patch, files=tuple(files))
