"""Reply intake: the fenced code blocks of an LLM's markdown reply (PROTOCOL.md §1, §2).

A small line-based state machine rather than a markdown library: the protocol needs
only the fences, the directive comments at the top of each block and the line just
above each fence, and it must read every reply the same way, however odd. Nothing
here decides whether a block is a patch; it reports what the reply says and leaves
the judging to later stages.
"""

from __future__ import annotations

import re

from kopipasta.model import DIRECTIVE_KEYS, FILE_KEY, Block

# An opening fence: three or more backticks or tildes, then the info string. Any
# indentation is allowed because models put fences inside list items.
_OPEN_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# A closing fence candidate: a run of fence characters and nothing but whitespace.
_CLOSE_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*$")
# A closing fence may sit this many columns deeper than its opener (CommonMark's
# allowance); deeper than that it is content, e.g. a ``` inside an indented string.
_CLOSE_EXTRA_INDENT = 3

# The comment forms a directive line may take (applied to the stripped line). Line
# comment markers may repeat (`##`, `;;`, `///`), as they do in many code styles.
_COMMENT = re.compile(
    r"^(?:"
    r"(?://+|#+|--+|;+|%+)(?P<line>.*)"
    r"|\{/\*(?P<jsx>.*)\*/\}"
    r"|/\*(?P<block>.*)\*/"
    r"|<!--(?P<html>.*)-->"
    r")$"
)
_KEY_VALUE = re.compile(r"^\s*(?P<key>[A-Za-z][A-Za-z_\- ]*?)\s*:(?P<value>.*)$")
_KEY_SEPARATORS = re.compile(r"[-_ ]+")
_QUOTES = "`\"'"

# Decorations around a file name on the line above a fence.
_HEADING = re.compile(r"^#{1,6}[ \t]+")
# `File:`, `**File:**`, `**File**:` and friends, in any case.
_LABEL = re.compile(
    r"^(?:\*\*|__)?(?:file|filename|path)(?:\*\*|__)?[ \t]*:(?:\*\*|__)?[ \t]*", re.IGNORECASE
)
_WRAPPERS = ("**", "__", "`")
_PATH = re.compile(r"^[A-Za-z0-9_./@+\-~\[\]()]+$")
# No real path line is this long; the cap keeps peeling decorations cheap on
# pathological input ("****...").
_MAX_NAME_LINE = 1000


def parse_reply(text: str) -> list[Block]:
    """Every fenced code block of `text`, in reply order, with its header taken off."""
    text = text.removeprefix("\ufeff")
    # CommonMark counts a lone CR as a line ending too; normalising it keeps line
    # numbers the same as an editor shows them.
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    blocks: list[Block] = []
    # prose[i]: line i is ordinary text, neither a fence nor inside a block. Only such a
    # line may name the file of the block below it.
    prose: list[bool] = []
    i = 0
    while i < len(lines):
        opener = _OPEN_FENCE.match(lines[i])
        # A backtick fence's info string cannot hold a backtick: "```x```" is inline code.
        if opener is None or (opener["fence"][0] == "`" and "`" in opener["info"]):
            prose.append(True)
            i += 1
            continue

        start, fence, indent = i, opener["fence"], len(opener["indent"])
        body: list[str] = []
        i += 1
        while i < len(lines) and not _closes(lines[i], fence, indent):
            body.append(_dedent(lines[i], indent))
            i += 1
        # An unclosed block runs to the end of the reply (CommonMark) and is kept.
        named = _file_above(lines, prose, start)
        prose.extend([False] * (min(i + 1, len(lines)) - start))
        i += 1

        info = opener["info"].split()[:1]
        blocks.append(_make_block(len(blocks) + 1, start + 1, "".join(info), body, named))
    # Text patches written straight into the reply, unfenced (PROTOCOL.md §8).
    from kopipasta.textpatch_syntax import merge_unfenced

    return merge_unfenced(blocks, lines, prose)


def _closes(line: str, fence: str, indent: int) -> bool:
    """Whether `line` closes a block opened by `fence` at `indent` characters."""
    m = _CLOSE_FENCE.match(line)
    return (
        m is not None
        and m["fence"][0] == fence[0]
        and len(m["fence"]) >= len(fence)
        and len(m["indent"]) <= indent + _CLOSE_EXTRA_INDENT
    )


def _dedent(line: str, indent: int) -> str:
    """Strip up to `indent` leading whitespace characters (the opener's indentation)."""
    k = 0
    while k < indent and k < len(line) and line[k] in " \t":
        k += 1
    return line[k:]


def _make_block(index: int, line: int, info: str, body: list[str], named: str | None) -> Block:
    directives: list[tuple[str, str]] = []
    pos = 0
    # The header: directive lines, possibly with blank lines between them. The first
    # other line ends it, so a directive-looking comment further down stays code.
    while pos < len(body):
        if body[pos].strip():
            directive = _directive(body[pos])
            if directive is None:
                break
            directives.append(directive)
        pos += 1

    payload = body[pos:]
    while payload and not payload[0].strip():
        payload.pop(0)
    while payload and not payload[-1].strip():
        payload.pop()

    # An empty FILE value names nothing, so the line above the fence may still do so.
    file_value = next((v for k, v in directives if k == FILE_KEY), "")
    return Block(
        index=index,
        line=line,
        info=info,
        directives=tuple(directives),
        file=file_value or named,
        payload="\n".join(payload),
    )


def _directive(line: str) -> tuple[str, str] | None:
    """(KEY, value) if `line` is a directive comment, else None.

    A directive with an empty value is still a directive: were it code, a bare
    `// TARGET_NODE:` would turn its block into a whole-file write; kept, a later
    stage can fail it explicitly.
    """
    comment = _COMMENT.match(line.strip())
    if comment is None:
        return None
    inner = next(g for g in comment.groups() if g is not None)
    kv = _KEY_VALUE.match(inner)
    if kv is None:
        return None
    key = _KEY_SEPARATORS.sub("_", kv["key"]).upper()
    if key not in DIRECTIVE_KEYS:
        return None
    value = kv["value"].strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in _QUOTES:
        value = value[1:-1].strip()
    return key, value


def _file_above(lines: list[str], prose: list[bool], fence: int) -> str | None:
    """The file named by the nearest non-blank line above the fence at `fence`, if any.

    At most one blank line may separate it from the fence; further away, the line
    belongs to some other paragraph.
    """
    for j in (fence - 1, fence - 2):
        if j < 0 or not prose[j]:
            return None
        if lines[j].strip():
            return _file_name(lines[j])
    return None


def _file_name(line: str) -> str | None:
    """The path a line names when it holds nothing but a (decorated) path."""
    s = line.strip()
    if len(s) > _MAX_NAME_LINE:
        return None
    # Peel decorations until none is left: they combine in any order, e.g.
    # "### File: `src/app.py`" or "**File:** `src/app.py`". Each pass shortens s.
    while True:
        before = s
        s = _HEADING.sub("", s, count=1)
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
