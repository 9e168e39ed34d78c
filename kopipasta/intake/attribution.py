"""Which file a block names when it has no FILE line (PROTOCOL.md §2).

Two places can name it: the fence's info string, as chat tools write it
(```` ```python:src/app.py ````, ```` ```tsx title="src/A.tsx" ````,
```` ```src/app.py ````, ```` ```python # FILE: src/app.py ````), and the line
just above the fence (`### src/app.py`, `**src/app.py**`, `File: src/app.py`).
Both are read conservatively: a name counts only when, decorations off, it
looks like a relative path, so prose never names a file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kopipasta.intake.directives import Directive, NearMiss, classify
from kopipasta.startup.lazy_pattern import lazy_compile

# Decorations around a file name on the line above a fence.
_HEADING = lazy_compile(r"^#{1,6}[ \t]+")
# `File:`, `**File:**`, `**File**:`, `Filepath:` and friends, in any case.
_LABEL = lazy_compile(
    r"^(?:\*\*|__)?(?:file|filename|file ?path|path)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*", re.IGNORECASE
)
_WRAPPERS = ("**", "__", "`")
_NUMBER = lazy_compile(r"^\d{1,3}[.)][ \t]+")
_REMARK = lazy_compile(r"[ \t]+[(\[][A-Za-z]+(?:[ \-][A-Za-z]+){0,2}[)\]]:?$")
_PATH = lazy_compile(r"^[A-Za-z0-9_./@+\-~\[\]()]+$")
# No real path line is this long; the cap keeps peeling decorations cheap on
# pathological input ("****...").
_MAX_NAME_LINE = 1000

# `title="src/app.py"`, `file=src/app.py`, `filename='a.py'`, `path=…` in an info string.
_INFO_ATTRIBUTE = lazy_compile(
    r"""(?:^|[\s{,])(?:title|file|filename|filepath|path)\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s,}]+))""",
    re.IGNORECASE,
)
# `python:src/app.py`: a language word, a colon, a path (a `C:` drive letter is no language).
_LANGUAGE_COLON_PATH = lazy_compile(r"^(?P<language>[A-Za-z][\w+#\-]*):(?P<path>[^ \t]+)$")
# A fence's language word: `python`, `c++`, `objective-c`, `c#` (no dot, slash, colon or `=`).
_LANGUAGE_WORD = lazy_compile(r"^[A-Za-z][\w+#\-]*$")
# The extension of a path named by an info string alone: letters in it (`python3.11` is no file).
_EXTENSION = lazy_compile(r"\.[A-Za-z0-9_\-]*[A-Za-z][A-Za-z0-9_\-]*$")


@dataclass(frozen=True)
class InfoString:
    """What a fence's info string says: the language, and a file if it names one."""

    language: str
    file: str | None
    directives: tuple[Directive, ...]  # written on the fence line itself
    near_miss: NearMiss | None


def read_info_string(info: str) -> InfoString:
    info = info.strip(" \t")
    # Words are split at spaces and tabs only: a non-breaking space inside an info string is
    # kept as a character (PROTOCOL.md §2), so `python:x<NBSP>.py` is one word naming no
    # file, never `python:x` and a file `.py` (issue 18, item 9).
    words = [word for word in info.replace("\t", " ").split(" ") if word]
    first = words[0] if words else ""
    # A directive on the fence line: ```python # FILE: src/app.py, or ```# FILE: x.
    for rest in (info, info[len(first) :].strip()):
        found = classify(rest) if rest else None
        if isinstance(found, Directive):
            return InfoString(first if rest != info else "", None, (found,), None)
        if isinstance(found, NearMiss):
            return InfoString(first if rest != info else "", None, (), found)
    attribute = _INFO_ATTRIBUTE.search(info)
    if attribute is not None:
        value = next(g for g in (attribute["dq"], attribute["sq"], attribute["bare"]) if g is not None)
        path = _as_path(value)
        language = first if first and "=" not in first else ""
        return InfoString(language, path, (), None)
    colon = _LANGUAGE_COLON_PATH.match(first)
    if colon is not None and len(colon["language"]) > 1:
        if len(words) > 1:  # `python:x<TAB>y.py`, `python:a b.py`: the path goes on past whitespace
            return InfoString(colon["language"], None, (), None)
        path = _as_path(colon["path"])
        if path is not None:
            return InfoString(colon["language"], path, (), None)
    if len(words) == 1 and ("/" in first or _EXTENSION.search(first)):
        path = _as_path(first)
        if path is not None:
            return InfoString("", path, (), None)
    # `python src/app.py`: a language word, spaces, a path. A tab there, or a first word that is
    # no language word (`x.py<TAB>y.py`, `a.b y.py`), is a name with whitespace inside, not a
    # language and a file `y.py` (issue 28, item 10).
    if (
        len(words) == 2
        and "\t" not in info
        and _LANGUAGE_WORD.match(first)
        and ("/" in words[1] or _EXTENSION.search(words[1]))
    ):
        path = _as_path(words[1])
        if path is not None:
            return InfoString(first, path, (), None)
    return InfoString(first, None, (), None)


def _as_path(value: str) -> str | None:
    value = value.strip().strip("`")
    if (
        _PATH.fullmatch(value)
        and ("/" in value or "." in value)
        and any(c.isalnum() for c in value)
        and not value.endswith(".")
        and "//" not in value
        # An absolute or home path in an info string is a URL route or an example, not a file here.
        and not value.startswith(("/", "~"))
    ):
        return value
    return None


def file_name(line: str) -> str | None:
    """The path a line names when it holds nothing but a (decorated) path."""
    s = line.strip()
    if len(s) > _MAX_NAME_LINE:
        return None
    # Peel decorations until none is left: they combine in any order, e.g.
    # "### File: `src/app.py`" or "**File:** `src/app.py`". Each pass shortens s.
    while True:
        before = s
        heading = _HEADING.sub("", s, count=1)
        # A numbered heading (`### 2. src/app.py`) is a heading; a bare list item is not.
        s = _NUMBER.sub("", heading, count=1) if heading != s else s
        # A short remark after the name: `**src/app.py** (updated)`, `` `a.py` (new file): ``.
        s = _REMARK.sub("", s, count=1)
        if s.endswith(":"):
            s = s[:-1]
        # Unwrap before taking off a label, so "**File: x**" loses both its "**".
        for w in _WRAPPERS:
            if len(s) > 2 * len(w) and s.startswith(w) and s.endswith(w):
                s = s[len(w) : -len(w)]
                break
        s = _LABEL.sub("", s, count=1).strip()
        if s == before:
            break
    # A path has a "/" or a "." (so a bare word never counts) and something
    # alphanumeric; a trailing "." is sentence punctuation ("Done."), not a path.
    if (
        _PATH.fullmatch(s)
        and ("/" in s or "." in s)
        and any(c.isalnum() for c in s)
        and not s.endswith(".")
    ):
        return s
    return None


# --- paths named in prose (PROTOCOL.md §2) ----------------------------------------------------

# Where a sentence ends inside a paragraph: `.`, `!` or `?` and a space. A path's own dots
# (`app/utils.py`) have no space after them.
_SENTENCE_END = lazy_compile(r"(?<=[.!?])\s+")
# What surrounds a path in a sentence: quotes, brackets, bold, the sentence's punctuation.
_AROUND = "\"'()[]{}<>,;:!?*"
# `app/utils.py:42` or `:42:7`: the line (and column) an editor shows, not part of the name.
_LINE_SUFFIX = lazy_compile(r":\d+(?::\d+)?$")
# A paragraph longer than this is not "the sentence above" a block.
_MAX_PROSE = 2000


def paths_in_prose(paragraph: list[str]) -> tuple[str, ...]:
    """The relative paths the last sentence of `paragraph` names, in order, each once.

    A sentence such as "Replace the `parse_header` function in `app/utils.py` with:"
    names `app/utils.py`; so does a bold `**app/utils.py**` line. When the last sentence
    names none, the whole paragraph is read (a bold path line, then "Update it to:").
    Whether a name is a file of the project is for the engine to say; this only
    collects what looks like one (a `/` or an extension with a letter, never a URL).
    """
    text = " ".join(line.strip() for line in paragraph).strip()
    if not text or len(text) > _MAX_PROSE:
        return ()
    sentences = [s for s in _SENTENCE_END.split(text) if s.strip()]
    found = _paths_in(sentences[-1]) if sentences else ()
    return found or _paths_in(text)


def paths_in_paragraph(paragraph: list[str]) -> tuple[str, ...]:
    """Every path the whole paragraph names, in order, each once (tried after the last sentence's)."""
    text = " ".join(line.strip() for line in paragraph).strip()
    return _paths_in(text) if text and len(text) <= _MAX_PROSE else ()


def _paths_in(text: str) -> tuple[str, ...]:
    paths: list[str] = []
    # A path holds no space, so words are enough: code and bold spans come off as decorations,
    # whatever wraps them (`**Changes to `app/utils.py`:**`).
    for word in text.split():
        name = word.strip(_AROUND + "`").rstrip(".")
        if len(name) > 4 and name.startswith("__") and name.endswith("__"):
            name = name[2:-2]  # __bold__
        name = _LINE_SUFFIX.sub("", name).removeprefix("./")
        if "://" in name or name.startswith(("/", "~")) or not _PATH.fullmatch(name or "-"):
            continue
        if not ("/" in name or _EXTENSION.search(name)) or name.endswith(".") or "//" in name:
            continue
        if name not in paths:
            paths.append(name)
    return tuple(paths)
