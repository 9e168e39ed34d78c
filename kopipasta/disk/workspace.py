"""The project on disk: paths confined to the root, reading files, atomic writes.

This module, `journal` and `kopipasta.disk` are the only ones that touch the
file system. Nothing outside the root is ever read for patching or written
(PROTOCOL.md §3): a path is checked as text (`normalise`), then resolved to
its real file inside the root (`resolve_real`, so two names of one file are one
document), then read and written component by component from a descriptor of
the root without following symlinks (`kopipasta.disk.beneath`).
"""

from __future__ import annotations

import os
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from kopipasta.disk import beneath, limits
from kopipasta.errors import ConfinementError, UnsupportedFile

BOM = b"\xef\xbb\xbf"
# Folders a reply may never write into: git's internals and our own journal.
# Compared case-insensitively: on a case-insensitive disk `.GIT` is `.git`.
_FORBIDDEN_DIRS = (".git", ".kopipasta")
# Unicode categories that cannot be seen in a path: controls (NUL among them),
# format characters (zero-width, bidi marks), separators other than the space.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Zl", "Zp", "Zs"})


@dataclass(frozen=True)
class Source:
    """A file's text as the pipeline sees it, and how to put it back as bytes."""

    path: str  # relative to the root, "/"-separated, normalised (the real file, not a link)
    data: bytes  # UTF-8 text without the BOM, line endings as on disk ("\n" for a CR-only file)
    bom: bool
    newline: str  # "\r\n" when the file's first line ends so, "\r" for a CR-only file, else "\n"
    exists: bool
    readonly: bool = False  # no write permission bit set on the file

    def with_data(self, data: bytes) -> Source:
        return Source(self.path, data, self.bom, self.newline, True, self.readonly)

    def to_bytes(self) -> bytes:
        data = self.data.replace(b"\n", b"\r") if self.newline == "\r" else self.data
        return (BOM if self.bom else b"") + data


def _invisible(text: str) -> str | None:
    for char in text:
        if char != " " and unicodedata.category(char) in _INVISIBLE_CATEGORIES:
            return f"U+{ord(char):04X}"
    return None


# The longest path a reply may name, in bytes: far past any real project's, and as long as a
# directive line may be (intake reads none past 1,000 characters).
LONGEST_PATH = 1024


def normalise(relative: str) -> str:
    """The reply's path, checked and normalised, without looking at the disk."""
    raw = relative.strip().replace("\\", "/")
    if not raw:
        raise ConfinementError("Empty file path", "write the path relative to the project root")
    invisible = _invisible(raw)
    if invisible is not None:
        raise ConfinementError(
            f"Refusing path {relative!r}: it holds an invisible character ({invisible})",
            "write the path with visible characters only",
        )
    if raw.startswith("/") or raw.startswith("~") or (len(raw) > 1 and raw[1] == ":"):
        raise ConfinementError(
            f"Refusing absolute path {relative}: paths must be relative to the project root",
            "write it relative to the root, e.g. src/app.py",
        )
    parts: list[str] = []
    for part in PurePosixPath(raw).parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise ConfinementError(
                    f"Refusing path {relative}: it leaves the project root",
                    "write it relative to the root, without '..'",
                )
            parts.pop()
            continue
        parts.append(part)
    if not parts:
        raise ConfinementError(f"Refusing path {relative}: it names the project root itself")
    if any(part != part.strip() for part in parts):
        # Invisible in a listing, and `normalise` strips the whole path's ends: refuse.
        raise ConfinementError(
            f"Refusing path {relative!r}: a name in it starts or ends with a space",
            "write the path without those spaces",
        )
    first = parts[0]
    if first.startswith("~") or (len(first) > 1 and first[1] == ":"):
        # `x/../~` is `~` once collapsed: refused like the path written so, so that
        # normalising is idempotent (undo re-checks recorded paths with it).
        raise ConfinementError(
            f"Refusing absolute path {relative}: paths must be relative to the project root",
            "write it relative to the root, e.g. src/app.py",
        )
    if _forbidden(parts):
        raise ConfinementError(f"Refusing path {relative}: files under .git/ and .kopipasta/ are not patched")
    joined = "/".join(parts)
    size = len(joined.encode("utf-8", "surrogatepass"))
    if size > LONGEST_PATH:
        # Written through folder descriptors, such a path has no PATH_MAX to stop it, and a tree
        # thousands of folders deep is one that `rm -r`, git and editors then fail to walk.
        raise ConfinementError(
            f"Refusing path {joined[:60]}…: it is {size} bytes long (at most {LONGEST_PATH})",
            "write a shorter path",
        )
    return joined


def _forbidden(parts: list[str] | tuple[str, ...]) -> bool:
    return any(part.lower() in _FORBIDDEN_DIRS for part in parts)


def resolve_real(root: Path, relative: str) -> str:
    """The real path of `relative` inside the root, relative to it; refuses one that leaves it.

    Symlinks inside the root are followed here, once, so `alias.py -> app.py`
    names the document `app.py`; the write later follows none.
    """
    normal = normalise(relative)
    real_root = os.path.realpath(root)
    resolved = os.path.realpath(os.path.join(real_root, normal))
    if resolved == real_root or not resolved.startswith(real_root.rstrip("/") + "/"):
        raise ConfinementError(
            f"Refusing path {relative}: it goes through a symlink that leaves the project root"
        )
    inside = resolved[len(real_root.rstrip("/")) + 1 :]
    if _forbidden(inside.split("/")):
        raise ConfinementError(f"Refusing path {relative}: it resolves into .git/ or .kopipasta/")
    twin = None if inside.isascii() else _twin_spelling(real_root, inside)
    if twin is not None:
        raise ConfinementError(
            f"Refusing path {relative}: the project's {twin} is the same name in another Unicode form "
            f"({_form(twin)} there, {_form(inside)} here), and two names that look the same cannot be told apart",
            f"write the path as the project spells it ({_form(twin)})",
        )
    return inside


def _form(text: str) -> str:
    if unicodedata.is_normalized("NFC", text):
        return "composed, NFC"
    return "decomposed, NFD" if unicodedata.is_normalized("NFD", text) else "mixed"


def _twin_spelling(real_root: str, inside: str) -> str | None:
    """The existing path that `inside` spells with other code points (NFC vs NFD), or None.

    `café.py` written with a combining accent (NFD, as macOS writes names) is a different
    name on Linux: an apply would create a second `café.py` beside the project's, and a
    tampered journal naming the other spelling makes `undo --force` write the wrong one
    of two files that look alike (issue 28, item 10). A folder holding both spellings is
    refused whichever is named: a person reading the report cannot tell which it was.
    """
    folder = real_root
    parts = inside.split("/")
    for index, part in enumerate(parts):
        if part.isascii():  # an ASCII name has one spelling, and no other form equals it
            folder = os.path.join(folder, part)
            continue
        try:
            names = os.listdir(folder)
        except OSError:  # not a folder (yet): nothing there to look alike
            return None
        composed = unicodedata.normalize("NFC", part)
        for name in names:
            if name != part and not name.isascii() and unicodedata.normalize("NFC", name) == composed:
                return "/".join([*parts[:index], name])
        folder = os.path.join(folder, part)
    return None


def confine(root: Path, relative: str) -> Path:
    """The real path of `relative` under `root`; refuses anything that leaves it."""
    return Path(os.path.realpath(root)) / resolve_real(root, relative)


def load(root: Path, relative: str) -> Source:
    """Read a file under the root, or an empty Source for one the reply will create."""
    real = resolve_real(root, relative)
    with beneath.root_descriptor(root) as root_fd:
        try:
            found = beneath.read_file(root_fd, real)
        except OSError as error:
            if error.strerror == "not a regular file":
                raise UnsupportedFile(f"Cannot patch {relative}: it is not a regular file") from None
            raise
    if found is None:
        return Source(real, b"", False, "\n", False)
    raw, info = found
    limits.check_file(relative, len(raw))
    return source_from_bytes(real, raw, readonly=_readonly(info), shown_as=relative)


def source_from_bytes(path: str, raw: bytes, *, readonly: bool = False, shown_as: str = "") -> Source:
    """A file's bytes as the pipeline sees them: BOM off, new-line style noted, UTF-8 checked."""
    bom = raw.startswith(BOM)
    data = raw[len(BOM) :] if bom else raw
    bad = first_non_utf8(data)
    if bad is not None:
        raise UnsupportedFile(f"Cannot patch {shown_as or path}: it is not UTF-8 text (byte {bad})")
    first_newline = data.find(b"\n")
    if first_newline < 0 and b"\r" in data:
        # A CR-only file (classic Mac): the pipeline sees "\n", the disk gets "\r" back.
        return Source(path, data.replace(b"\r", b"\n"), bom, "\r", True, readonly)
    newline = "\r\n" if first_newline > 0 and data[first_newline - 1 : first_newline] == b"\r" else "\n"
    return Source(path, data, bom, newline, True, readonly)


# Stretches of this many bytes (to the next newline) are checked one at a time: most are ASCII.
_UTF8_STRETCH = 16 * 1024


def first_non_utf8(data: bytes) -> int | None:
    """The offset of the first byte that is not UTF-8 (as `data.decode` reports it), or None.

    Decoding a whole big file builds a str of up to four bytes a character (a 3 MB file
    with one emoji: 13 MB) only to throw it away. Stretches ending at a newline are
    checked instead, the pure-ASCII ones without decoding: a newline is never part of
    a multi-byte sequence, so each stretch decodes as it would within the whole.
    """
    if data.isascii():
        return None
    import codecs

    start, size = 0, len(data)
    while start < size:
        end = data.find(b"\n", start + _UTF8_STRETCH) + 1 if start + _UTF8_STRETCH < size else size
        if end == 0:
            end = size
        stretch = data[start:end]
        if not stretch.isascii():
            try:
                codecs.utf_8_decode(stretch, "strict", True)
            except UnicodeDecodeError as error:
                return start + error.start
        start = end
    return None


def _readonly(info: os.stat_result) -> bool:
    return not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)


def write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, then rename over the original.

    Kept for callers outside the apply path; the apply and undo write through
    `kopipasta.disk.transaction`, which is confined at the moment of writing.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    import tempfile  # only this helper needs it; the apply path writes through disk/transaction

    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".kopipasta")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            mode = new_file_mode()
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def new_file_mode() -> int:
    """The permission bits a new file gets under the current umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
