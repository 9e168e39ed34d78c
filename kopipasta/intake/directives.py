"""Directive lines: a block's header, read strictly but never swallowed (PROTOCOL.md §2).

A header line is one of four things: a directive (`# TARGET_NODE: f`), a
*near miss* — a line written as a directive whose key is not one
(`# TARGETNODE: f`, `# TARGET_FUNCTION: f`, `// TARGET_NODE = f`, a fullwidth
colon, a zero-width space in the key) — an empty comment (`#`, `//`), or
anything else. A near miss must never become payload: read as code, it would
turn a targeted block into a whole-file write that cuts the file to one
function. So the header records it and the block fails with "did you mean".

What counts as a near miss is decided on the key normalised (NFKC, so
fullwidth letters and colons read as ASCII; invisible format characters
dropped; case and separators ignored), then by nearness to a real key: a
missing separator, a known synonym (`TARGET`, `TARGET_FUNCTION`, `REPLACE`,
`REMOVE`), or a misspelling. A key that is none of these (`# Note: …`,
`# Author: …`) is prose, and for synonyms and misspellings the value must
look like a target or a path too, so `# Target: production servers` stays a
comment.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from kopipasta.code.find.resolve import KIND_ALIASES, KINDS
from kopipasta.model import DIRECTIVE_KEYS, FILE_KEY
from kopipasta.startup.lazy_pattern import lazy_compile

# The comment forms a directive line may take (applied to the stripped line). Line
# comment markers may repeat (`##`, `;;`, `///`), as they do in many code styles.
_COMMENT = lazy_compile(
    r"^(?:"
    r"(?://+|#+|--+|;+|%+)(?P<line>.*)"
    r"|\{/\*(?P<jsx>.*)\*/\}"
    r"|/\*(?P<block>.*)\*/"
    r"|<!--(?P<html>.*)-->"
    r")$",
    re.DOTALL,
)
# A key as the protocol spells it: words joined by `_`, `-` or spaces, any case.
_KEY_VALUE = lazy_compile(r"^\s*(?P<key>[A-Za-z][A-Za-z_\- ]*?)\s*:(?P<value>.*)$", re.DOTALL)
_KEY_SEPARATORS = lazy_compile(r"[-_ ]+")
# A key dressed as markdown or a decorator: `**TARGET_NODE**:`, `**TARGET_NODE:**`, `@TARGET_NODE:`,
# `` `FILE`: ``. Read as the directive it names, so its line never stays in the code (issue 18, item 9).
_DECORATED_KEY_VALUE = lazy_compile(
    r"^\s*(?:\*{1,2}|_{1,2}|`|@)(?P<key>[A-Za-z][A-Za-z_\- ]*?)(?:\*{1,2}|_{1,2}|`)?\s*:(?:\*{1,2}|_{1,2}|`)?(?P<value>.*)$",
    re.DOTALL,
)
# A key as a model may misspell it: letters, digits, separators and invisible
# characters, then `:`, `=` or a look-alike colon. Matched after NFKC, so `：` is `:`.
_LOOSE_KEY_VALUE = lazy_compile(
    r"^\s*(?P<key>[^\W\d_][\w\-. \u200b-\u200f\u2060-\u2064\ufeff]{0,40}?)\s*"
    r"(?P<sep>::|=>|->|:|=|\uff1a|\ua789|\u2236|(?<=\s)[-\u2013\u2014](?=\s))(?P<value>.*)$",
    re.DOTALL,
)
_LEADING_INVISIBLE = lazy_compile(r"^[\s\u200b-\u200f\u2060-\u2064\ufeff]+")
_QUOTES = "`\"'"
# A directive written without its comment marker: `TARGET_NODE: function helper` as a
# bare line. Only the keys' exact upper-case spelling and a `:` count: `FILE = "x"` and
# `file: x.py` are code or data, and `FILE: Path = …` has no path for a value.
_BARE_DIRECTIVE = lazy_compile(
    r"^(?P<key>FILE|TARGET_NODE|TARGET_PATH|INSERT_AFTER|INSERT_BEFORE|APPEND_TO|DELETE_NODE)"
    r"[ \t]*[:\uff1a][ \t]*(?P<value>\S.{0,300})$"
)
# `# app/tokens.py (updated)`: a short remark after the path.
_REMARK = lazy_compile(r"[ \t]+[(\[][A-Za-z]+(?:[ \-][A-Za-z]+){0,2}[)\]]$")
_EXTENSION = lazy_compile(r"\.[A-Za-z0-9_\-]*[A-Za-z][A-Za-z0-9_\-]*$")
# No directive line is this long; the cap keeps a 50,000-character comment linear.
_MAX_DIRECTIVE = 1000
# Decoration-only comment content: `# ----`, `// ====`, `/* */`.
_DECORATION = lazy_compile(r"^[\s\-=*#/~_.+<>|]*$")

# Spellings of FILE that models write (Copilot: `// filepath: src/x.ts`). Their value
# must look like a relative path: `// Path: /api/users` is a route, not a file.
_FILE_ALIASES = frozenset({"FILEPATH", "FILE_PATH", "FILENAME", "FILE_NAME", "PATH", "FILE_LOCATION"})
_PATH_VALUE = lazy_compile(r"^[\w./@+\-~\[\]()]+$")

# Keys that are not the protocol's but say what one of its keys says.
_SYNONYMS = {
    "TARGET": "TARGET_NODE",
    "NODE": "TARGET_NODE",
    "TARGETS": "TARGET_NODE",
    "REPLACE": "TARGET_NODE",
    "UPDATE": "TARGET_NODE",
    "EDIT": "TARGET_NODE",
    "MODIFY": "TARGET_NODE",
    "CHANGE": "TARGET_NODE",
    "SYMBOL": "TARGET_NODE",
    "DEFINITION": "TARGET_NODE",
    "FUNCTION": "TARGET_NODE",
    "METHOD": "TARGET_NODE",
    "CLASS": "TARGET_NODE",
    "KEY": "TARGET_PATH",
    "JSON_PATH": "TARGET_PATH",
    "JSONPATH": "TARGET_PATH",
    "KEY_PATH": "TARGET_PATH",
    "DATA_PATH": "TARGET_PATH",
    "VALUE_PATH": "TARGET_PATH",
    "INSERT": "INSERT_AFTER",
    "ADD": "INSERT_AFTER",
    "ADD_AFTER": "INSERT_AFTER",
    "ADD_BEFORE": "INSERT_BEFORE",
    "APPEND": "APPEND_TO",
    "ADD_TO": "APPEND_TO",
    "DELETE": "DELETE_NODE",
    "REMOVE": "DELETE_NODE",
    "FIEL": "FILE",
    "FILES": "FILE",
}
# The first word of a key names the family: `TARGET_FUNCTION` is a TARGET_NODE gone wrong.
_FAMILIES = {
    "TARGET": "TARGET_NODE",
    "REPLACE": "TARGET_NODE",
    "UPDATE": "TARGET_NODE",
    "INSERT": "INSERT_AFTER",
    "APPEND": "APPEND_TO",
    "DELETE": "DELETE_NODE",
    "REMOVE": "DELETE_NODE",
}
_DATA_WORDS = ("PATH", "KEY", "JSON", "YAML", "TOML", "VALUE")
_DATA_EXTENSIONS = (".json", ".jsonc", ".json5", ".yaml", ".yml", ".toml")
# Words a target may start with: the kinds of PROTOCOL.md §4 and what models write for them.
_KIND_WORDS = frozenset(w for phrase in (*KINDS, *KIND_ALIASES) for w in phrase.split())


@dataclass(frozen=True)
class Directive:
    """One header directive of a block: its key and value."""

    key: str  # one of DIRECTIVE_KEYS
    value: str


@dataclass(frozen=True)
class NearMiss:
    """A line written as a directive whose key is not one: the block must fail."""

    line: str  # the line as written, stripped
    suggestion: str  # the protocol key it most likely means
    value: str


@dataclass(frozen=True)
class EmptyComment:
    """`#`, `//`, `# ----`: a comment that says nothing, so it cannot end a header."""


@dataclass(frozen=True)
class ProseComment:
    """Any other comment line: code or explanation, never a directive."""


HeaderLine = Directive | NearMiss | EmptyComment | ProseComment | None


def comment_text(line: str) -> str | None:
    """The text inside a comment line, or None when the line is not one comment."""
    match = _COMMENT.match(line.strip())
    if match is None:
        return None
    return next(g for g in match.groups() if g is not None)


def classify(line: str, file: str | None = None) -> HeaderLine:
    """What a header line is; None for code (and blank lines).

    `file` is the block's file when known, so a data file's near miss
    suggests TARGET_PATH rather than TARGET_NODE.
    """
    inner = comment_text(line)
    if inner is None:
        bare = _BARE_DIRECTIVE.match(line.strip())
        if bare is not None and _fits(bare["key"], _unquote(bare["value"])):
            return NearMiss(line.strip(), bare["key"], _unquote(bare["value"]))
        return None
    if _DECORATION.match(inner):
        return EmptyComment()
    if len(inner) > _MAX_DIRECTIVE:
        return ProseComment()
    exact = _exact(inner)
    if exact is not None:
        return exact
    near = _near_miss(inner, file)
    if near is not None:
        return NearMiss(line.strip(), near[0], near[1])
    return ProseComment()


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in _QUOTES:
        value = value[1:-1].strip()
    return value


def _exact(inner: str) -> Directive | None:
    """A directive as the protocol spells it (any case, `_`/`-`/space between words).

    A directive with an empty value is still a directive: were it code, a bare
    `// TARGET_NODE:` would turn its block into a whole-file write; kept, a later
    stage fails it explicitly.
    """
    kv = _KEY_VALUE.match(inner) or _DECORATED_KEY_VALUE.match(inner)
    if kv is None:
        return None
    key = _KEY_SEPARATORS.sub("_", kv["key"]).upper()
    value = _unquote(kv["value"])
    if key in DIRECTIVE_KEYS:
        return Directive(key, value)
    if key in _FILE_ALIASES and looks_like_path(value):
        return Directive(FILE_KEY, value)
    return None


def looks_like_path(value: str) -> bool:
    return (
        bool(_PATH_VALUE.match(value))
        and ("/" in value or "." in value)
        and not value.startswith("/")
        and any(c.isalnum() for c in value)
        and not value.endswith(".")
    )


def _looks_like_target(value: str) -> bool:
    """`helper`, `function helper`, `method Cart.total`, `dependencies.react`, `$.a[0]`."""
    words = value.split()
    if not words or len(words) > 3:
        return False
    if not all(w.lower() in _KIND_WORDS for w in words[:-1]):
        return False
    name = words[-1]
    return bool(re.match(r"^[\w$.#\[\]\"'()<>:@/\-]+$", name)) and not name.endswith((".", ","))


def normalise_key(key: str) -> str:
    """NFKC, invisible characters out, upper case, one `_` between words."""
    text = unicodedata.normalize("NFKC", key)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return re.sub(r"[\s\-_.]+", "_", text).strip("_").upper()


def _near_miss(inner: str, file: str | None) -> tuple[str, str] | None:
    """(the key it means, the value) when `inner` is a directive gone wrong."""
    text = _LEADING_INVISIBLE.sub("", unicodedata.normalize("NFKC", inner))
    loose = _LOOSE_KEY_VALUE.match(text)
    if loose is not None:
        key, value = normalise_key(loose["key"]), _unquote(loose["value"])
        malformed = loose["sep"] != ":" or text != inner or key != _KEY_SEPARATORS.sub("_", loose["key"]).upper()
        meant = _meant_key(key, value, file, malformed=malformed)
        if meant is not None:
            # `TARGET_FUNCTION: helper` names its kind in the key: the fix is `function helper`.
            kind = key.split("_")[-1].lower()
            if meant != FILE_KEY and kind in _KIND_WORDS and len(value.split()) == 1:
                value = f"{kind} {value}"
            return meant, value
    # `# TARGET_NODE function helper`: a real key (of one or two words) and no separator.
    words = text.split()
    for count in (1, 2):
        if len(words) > count:
            key = normalise_key("_".join(words[:count]))
            value = _unquote(" ".join(words[count:]))
            if key in DIRECTIVE_KEYS and _fits(key, value):
                return key, value
    return None


def _fits(key: str, value: str) -> bool:
    if key == FILE_KEY:
        return looks_like_path(value)
    return _looks_like_target(value)


def _meant_key(key: str, value: str, file: str | None, *, malformed: bool) -> str | None:
    """The protocol key that `key` stands for, or None when it is just a comment's label."""
    compact = key.replace("_", "")
    exact = {k.replace("_", ""): k for k in (*DIRECTIVE_KEYS, *_FILE_ALIASES)}
    if compact in exact:
        meant = exact[compact]
        meant = FILE_KEY if meant in _FILE_ALIASES else meant
        # A real key written oddly (`TARGETNODE`, `TARGET_NODE =`, `TARGET_NODE：`) is
        # unmistakable, whatever its value; an alias of FILE needs a path.
        if meant == FILE_KEY and exact[compact] != FILE_KEY and not looks_like_path(value):
            return None
        if compact == key.replace("_", "") and key in (*DIRECTIVE_KEYS, *_FILE_ALIASES) and not malformed:
            return None  # spelled right: _exact handled it, or it is an alias with no path
        return meant
    guess = _SYNONYMS.get(key) or _SYNONYMS.get(compact)
    return _guessed_key(key, compact, value, file, guess, exact)


def _guessed_key(
    key: str, compact: str, value: str, file: str | None, guess: str | None, exact: dict[str, str]
) -> str | None:
    """A synonym, a misspelling or a family's key, when the value fits it."""
    meant = guess
    if meant is None:
        import difflib

        close = difflib.get_close_matches(compact, list(exact), n=1, cutoff=0.75)
        if close:
            meant = exact[close[0]]
            meant = FILE_KEY if meant in _FILE_ALIASES else meant
    if meant is None:
        family = _FAMILIES.get(key.split("_")[0])
        if family is not None:
            meant = family
            if family == "INSERT_AFTER" and "BEFORE" in key:
                meant = "INSERT_BEFORE"
    if meant is None or not _fits(meant, value):
        return None
    if meant == "TARGET_NODE" and (
        any(word in key for word in _DATA_WORDS) or (file is not None and file.lower().endswith(_DATA_EXTENSIONS))
    ):
        meant = "TARGET_PATH"
    return meant



@dataclass(frozen=True)
class Header:
    """A block's header: its directives, where its payload starts, and a near miss if any."""

    directives: tuple[tuple[str, str], ...]
    end: int  # index in body of the first line after the header
    near_miss: NearMiss | None


def read_header(
    body: list[str], file: str | None = None, *, start: int = 0, path_comment: bool = True
) -> Header:
    """The directive lines at the top of `body` (PROTOCOL.md §2).

    Blank lines and empty comments (`#`, `//`) never end a header; a prose
    comment ends it unless a target directive (or a near miss) follows, so
    `# FILE: a.py` / `# the helper, fixed` / `# TARGET_NODE: helper` is one
    header. Everything after the last directive line is payload: a `# FILE:`
    comment further down a block is code.

    With `path_comment`, a first line that is a comment holding only a path
    (`# app/tokens.py`, `// src/App.tsx`), as chat models head their blocks,
    is read as `FILE:` (not in a markdown block, where `#` is a heading).
    """
    directives: list[tuple[str, str]] = []
    near_miss: NearMiss | None = None
    end = start
    i = start
    first = True
    while i < len(body):
        if not body[i].strip():
            i += 1
            continue
        known = next((v for k, v in directives if k == FILE_KEY and v), file)
        found = classify(body[i], known)
        if first and path_comment and isinstance(found, ProseComment):
            named = path_in_comment(body[i])
            if named is not None:
                found = Directive(FILE_KEY, named)
        first = False
        if isinstance(found, (Directive, NearMiss)):
            if isinstance(found, Directive):
                directives.append((found.key, found.value))
            elif near_miss is None:
                near_miss = found
            i += 1
            end = i
            continue
        if isinstance(found, EmptyComment):
            i += 1
            continue
        if isinstance(found, ProseComment) and (directives or near_miss):
            following = _next_directive(body, i, known)
            if following is not None:
                i = following
                continue
        break
    return Header(tuple(directives), end, near_miss)


def path_in_comment(line: str) -> str | None:
    """The path a comment line holds and nothing else: `# app/tokens.py`, `// `src/a.ts`:`."""
    if line.lstrip().startswith("---"):
        return None  # a diff's `--- a/x.py` header, not a SQL comment
    inner = comment_text(line)
    if inner is None:
        return None
    value = _REMARK.sub("", inner.strip().rstrip(":").strip()).rstrip(":").strip()
    if len(value) >= 2 and value[0] == value[-1] == "`":
        value = value[1:-1].strip()
    if not looks_like_path(value) or value.startswith("~"):
        return None
    # A file name needs a `/` or an extension with a letter: `# 1.5` and `# v2.0` are remarks.
    return value if "/" in value or _EXTENSION.search(value) else None


def _next_directive(body: list[str], start: int, file: str | None) -> int | None:
    """The index of a target directive or near miss after a run of comments, if one comes next."""
    j = start
    while j < len(body):
        if body[j].strip():
            found = classify(body[j], file)
            if isinstance(found, NearMiss) or (isinstance(found, Directive) and found.key != FILE_KEY):
                return j
            if not isinstance(found, (EmptyComment, ProseComment)):
                return None
        j += 1
    return None
