"""Which files a prompt holds: files, directories and globs as the user names them.

`kopipasta app/tokens.py src/ 'tests/**/*.py' -t "task"`, like the original
kopipasta: a file is taken as named (a missing one fails later, in one line);
a directory is walked; a glob is matched under the root. Walking and globbing
honour every `.gitignore` on the way down (and `exclude` from the project
settings), skip `.git/` and kopipasta's own `.kopipasta/`, and skip files that
are not text (a NUL byte, or not UTF-8, in their first 8 KiB): a prompt is
for text a model can read. Only regular files are read, without blocking:
a FIFO or a device in the project is skipped, never waited on; a file that
resolves outside the root (through a symlink) is not listed.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kopipasta.code.read.inventory import root_relative
from kopipasta.disk.regular import read_regular

_NEVER = frozenset({".git", ".kopipasta"})
_GLOB_CHARS = frozenset("*?[")
_SNIFF = 8192


@dataclass(frozen=True)
class Selection:
    files: tuple[str, ...]  # root-relative, "/"-separated, in the order named, each once
    skipped_binary: int = 0  # files a directory or glob matched that are not text
    empty: tuple[str, ...] = ()  # directories and globs that matched no file


def is_glob(argument: str) -> bool:
    return any(char in _GLOB_CHARS for char in argument)


def select_files(arguments: Sequence[str], root: Path, *, exclude: Sequence[str] = ()) -> Selection:
    """The files FILES arguments name, relative to the root."""
    files: list[str] = []
    skipped = 0
    empty: list[str] = []
    ignore = _Ignore(root, exclude)
    for argument in arguments:
        relative = root_relative(argument, root)
        path = root / relative
        if path.is_dir():
            found, binary = _text_files(root, _walk(root, path, ignore))
        elif not path.exists() and is_glob(argument):
            found, binary = _text_files(root, _glob(root, relative, ignore))
        else:
            files.append(Path(relative).as_posix())
            continue
        skipped += binary
        if not found:
            empty.append(argument)
        files.extend(found)
    return Selection(tuple(dict.fromkeys(_clean(f) for f in files)), skipped, tuple(empty))


def _clean(relative: str) -> str:
    parts = [p for p in relative.split("/") if p not in ("", ".")]
    return "/".join(parts) if parts else relative


def _walk(root: Path, folder: Path, ignore: _Ignore) -> Iterable[str]:
    for current, dirs, names in os.walk(folder):
        here = Path(current)
        dirs[:] = sorted(d for d in dirs if d not in _NEVER and not ignore.ignored(here / d, directory=True))
        for name in sorted(names):
            if not ignore.ignored(here / name, directory=False):
                yield (here / name).relative_to(root).as_posix()


def _glob(root: Path, pattern: str, ignore: _Ignore) -> Iterable[str]:
    matches = sorted(glob.glob(pattern, root_dir=root, recursive=True))
    for match in matches:
        path = root / match
        parts = Path(match).parts
        if any(part in _NEVER for part in parts) or ignore.ignored_anywhere(path):
            continue
        if path.is_dir():
            yield from _walk(root, path, ignore)
        elif path.is_file():
            yield Path(match).as_posix()


def _text_files(root: Path, candidates: Iterable[str]) -> tuple[list[str], int]:
    texts: list[str] = []
    binary = 0
    inside = os.path.realpath(root).rstrip(os.sep) + os.sep
    for relative in candidates:
        # A symlink (or a folder reached through one) that leaves the root is not the project's:
        # its name is not listed, nor refused once per file later (issue 28, item 10).
        if not os.path.realpath(root / relative).startswith(inside):
            continue
        if _is_text(root / relative):
            texts.append(relative)
        else:
            binary += 1
    return texts, binary


def _is_text(path: Path) -> bool:
    try:  # a FIFO or device is not text, and opening it must not block the walk (disk/regular.py)
        head = read_regular(path, _SNIFF)
    except OSError:
        return False
    if b"\0" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        # A multi-byte character cut by the 8 KiB window is still text.
        return len(head) == _SNIFF and error.start >= len(head) - 3
    return True


class _Ignore:
    """`.gitignore` files from the root down, plus the settings' `exclude` globs."""

    def __init__(self, root: Path, exclude: Sequence[str]) -> None:
        self.root = root
        self._specs: dict[Path, object | None] = {}
        self._exclude = None
        if exclude:  # pathspec (~5 ms of imports) only when a pattern or a walk needs it: named files do not
            import pathspec

            self._exclude = pathspec.PathSpec.from_lines("gitwildmatch", exclude)

    def _spec(self, folder: Path) -> object | None:
        import pathspec

        if folder not in self._specs:
            try:
                lines = read_regular(folder / ".gitignore").decode("utf-8", "replace").splitlines()
            except OSError:
                lines = []
            self._specs[folder] = pathspec.PathSpec.from_lines("gitwildmatch", lines) if lines else None
        return self._specs[folder]

    def ignored(self, path: Path, *, directory: bool) -> bool:
        """Whether the .gitignore files of the folders above `path` (up to the root) ignore it."""
        relative = path.relative_to(self.root)
        suffix = "/" if directory else ""
        if self._exclude is not None and self._exclude.match_file(relative.as_posix() + suffix):
            return True
        verdict = False
        # Deeper .gitignore files decide last, as git does (a negation below can re-include).
        folders = [self.root, *(self.root / Path(*relative.parts[:i]) for i in range(1, len(relative.parts)))]
        for folder in folders:
            spec = self._spec(folder)
            if spec is None:
                continue
            inner = path.relative_to(folder).as_posix() + suffix
            result = spec.check_file(inner).include  # type: ignore[attr-defined]
            if result is not None:
                verdict = result
        return verdict

    def ignored_anywhere(self, path: Path) -> bool:
        """Whether `path` or a folder above it is ignored (a glob match skips no level)."""
        relative = path.relative_to(self.root)
        for depth in range(1, len(relative.parts) + 1):
            part = self.root / Path(*relative.parts[:depth])
            is_last = depth == len(relative.parts)
            if self.ignored(part, directory=not is_last or part.is_dir()):
                return True
        return False


def matching(files: Iterable[str], patterns: Sequence[str]) -> set[str]:
    """The files (root-relative) that one of the gitignore-style `patterns` matches."""
    if not patterns:
        return set()
    import pathspec

    spec = pathspec.PathSpec.from_lines("gitwildmatch", patterns)
    return {file for file in files if spec.match_file(file)}
