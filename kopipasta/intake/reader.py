"""Reply intake: the fenced code blocks of an LLM's markdown reply (PROTOCOL.md §1, §2).

A small line-based state machine rather than a markdown library: the protocol needs
only the fences, the directive comments at the top of each block and the line just
above each fence, and it must read every reply the same way, however odd. Nothing
here decides whether a block is a patch; it reports what the reply says and leaves
the judging to later stages. The header's rules live in `directives.py`, the
file-naming forms (info strings, the line above) in `attribution.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from kopipasta.disk.limits import block_limit
from kopipasta.intake.attribution import (
    file_name,
    paths_in_paragraph,
    paths_in_prose,
    read_info_string,
)
from kopipasta.intake.directives import (
    Directive,
    NearMiss,
    classify,
    comment_text,
    looks_like_path,
    read_header,
)
from kopipasta.model import FILE_KEY, TARGET_KEYS, Block
from kopipasta.startup.lazy_pattern import lazy_compile

# An opening fence: three or more backticks or tildes, then the info string. Any
# indentation is allowed because models put fences inside list items.
_OPEN_FENCE = lazy_compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
# A closing fence candidate: a run of fence characters and nothing but whitespace.
_CLOSE_FENCE = lazy_compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*$")
# A closing fence may sit this many columns deeper than its opener (CommonMark's
# allowance); deeper than that it is content, e.g. a ``` inside an indented string.
_CLOSE_EXTRA_INDENT = 3
# Leading whitespace holding a non-breaking space, as chat web pages paste indentation.
_NBSP_INDENT = lazy_compile(r"^[ \t\u00a0]+")
# Info strings of markdown blocks, where a `# name.md` first line is a heading, not a path comment.
# Diffs too: their `--- a/x` line is a header of their own.
_NO_PATH_COMMENT = frozenset({"markdown", "md", "mdx", "rmd", "qmd", "diff", "patch"})
# The original kopipasta's marker: the model starts over, every block above is withdrawn.
RESET_MARKER = "<<<RESET>>>"


@dataclass(frozen=True)
class Reply:
    """A reply as read: its blocks, and how many a `<<<RESET>>>` line withdrew."""

    blocks: list[Block]
    withdrawn: int = 0


def parse_reply(text: str) -> list[Block]:
    """Every fenced code block of `text` still standing, in reply order, with its header taken off."""
    return read_reply(text).blocks


def read_reply(text: str) -> Reply:
    """The reply's blocks, after any `<<<RESET>>>`, and the count of blocks it withdrew."""
    text = text.removeprefix("\ufeff")
    # CommonMark counts a lone CR as a line ending too; normalising it keeps line
    # numbers the same as an editor shows them.
    lines = [_spaces_for_nbsp(line) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]

    blocks: list[Block] = []
    withdrawn = 0
    most = block_limit()
    last_reset = -1  # the line of the last <<<RESET>>>: unfenced patches above it are withdrawn
    index = 0
    # prose[i]: line i is ordinary text, neither a fence nor inside a block. Only such a
    # line may name the file of the block below it.
    prose: list[bool] = []
    last_fence_end = 0  # the line after the last block's closing fence: a block's lead starts there
    i = 0
    while i < len(lines):
        opener = _OPEN_FENCE.match(lines[i])
        # A backtick fence's info string cannot hold a backtick: "```x```" is inline code.
        if opener is None or (opener["fence"][0] == "`" and "`" in opener["info"]):
            if lines[i].strip() == RESET_MARKER:
                withdrawn += len(blocks)
                blocks.clear()
                last_reset = i
            prose.append(True)
            i += 1
            continue

        start, fence, indent = i, opener["fence"], len(opener["indent"])
        lead = "\n".join(line for line in lines[last_fence_end:start] if line.strip())
        body, end, closed = _block_body(lines, start + 1, fence, indent)
        named = _file_above(lines, prose, start)
        paragraph = _paragraph_above(lines, prose, start) if named is None else []
        prose.extend([False] * (min(end + 1, len(lines)) - start))
        i = end + 1
        last_fence_end = i

        for block in _make_blocks(index + 1, start + 2, opener["info"], body, named, paragraph):
            blocks.append(replace(block, cut_off=not closed, lead=lead))
            index = block.index
        if len(blocks) > most:
            # Past the block limit the reply is refused (engine, disk/limits.py): reading the
            # rest would only cost time (850,000 fences were all parsed first: issue 28, item 9).
            return Reply(blocks, withdrawn)
    if blocks:
        # What the prose says a reading may need (a definition it says it removed); one string for all blocks.
        said = "\n".join(line for line, is_prose in zip(lines, prose, strict=False) if is_prose and line.strip())
        blocks = [replace(b, prose=said) for b in blocks]
    # Text patches written straight into the reply, unfenced (PROTOCOL.md §8); a RESET withdraws them too.
    from kopipasta.intake.textpatch_markers import may_hold_unfenced_patches

    if not may_hold_unfenced_patches(lines, prose):
        return Reply(blocks, withdrawn)  # no marker outside the fences: the reader is not imported (issue 9)
    from kopipasta.intake.unfenced import merge_unfenced

    return Reply(merge_unfenced(blocks, lines, prose, after=last_reset, first_index=withdrawn + 1), withdrawn)


def _spaces_for_nbsp(line: str) -> str:
    """U+00A0 in a line's leading whitespace reads as a space (PROTOCOL.md §2); elsewhere it stays."""
    if "\u00a0" not in line:
        return line
    match = _NBSP_INDENT.match(line)
    if match is None:
        return line
    return match.group().replace("\u00a0", " ") + line[match.end() :]


def _block_body(lines: list[str], first: int, fence: str, indent: int) -> tuple[list[str], int, bool]:
    """The lines of a block opened at `first - 1`, and the index of its closing fence.

    Inside a block, a fence line with an info string opens a nested fence (a
    ```` ```bash ```` example in a ```` ```markdown ```` file) and the next bare
    fence closes that one, not the block (PROTOCOL.md §1). When reading it so
    leaves the block unclosed, the nesting was a stray fence line in code, and
    the block is read again without it, closing at its first bare fence.
    """
    body, end, closed = _scan(lines, first, fence, indent, nested=True)
    if not closed:
        body, end, closed = _scan(lines, first, fence, indent, nested=False)
    return body, end, closed


def _scan(lines: list[str], i: int, fence: str, indent: int, *, nested: bool) -> tuple[list[str], int, bool]:
    body: list[str] = []
    inner: tuple[str, int] | None = None  # the open nested fence and its indentation
    while i < len(lines):
        line = lines[i]
        if "`" not in line and "~" not in line:  # no fence on this line: the common case, fast
            body.append(_dedent(line, indent) if indent else line)
            i += 1
            continue
        if inner is not None:
            if _closes(line, *inner):
                inner = None
        elif _closes(line, fence, indent):
            return body, i, True
        elif nested:
            opener = _OPEN_FENCE.match(line)
            if (
                opener is not None
                and opener["info"].strip()
                and not (opener["fence"][0] == "`" and "`" in opener["info"])
            ):
                inner = (opener["fence"], len(opener["indent"]))
        body.append(_dedent(line, indent))
        i += 1
    # An unclosed block runs to the end of the reply (CommonMark) and is kept.
    return body, i, False


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


def _make_blocks(
    index: int, first_line: int, info: str, body: list[str], above: str | None, paragraph: list[str]
) -> list[Block]:
    """One block, or several when a file block holds several files (PROTOCOL.md §2).

    `first_line` is the reply line (1-based) of `body[0]`; a block's `line` is its
    opening fence, or for a file after the first, its own `FILE:` line.
    """
    read = read_info_string(info)
    # The info string names the file more precisely than a line of prose above it.
    named = read.file or above
    fence_directives = [(d.key, d.value) for d in read.directives]
    blocks: list[Block] = []
    line = first_line - 1
    section = 0  # where the current file's lines start in body
    near_miss = read.near_miss
    while True:
        header = read_header(body, named, start=section, path_comment=read.language.lower() not in _NO_PATH_COMMENT)
        directives = [*fence_directives, *header.directives]
        near_miss = near_miss or header.near_miss
        file_value = next((v for k, v in directives if k == FILE_KEY and v), None)
        # An empty FILE value names nothing, so the line above the fence may still do so.
        file = file_value or named
        split = _next_file(body, header.end) if file and not any(k in TARGET_KEYS for k, _ in directives) else None
        prose_paths: tuple[str, ...] = ()
        comment_paths: tuple[str, ...] = ()
        paragraph_paths: tuple[str, ...] = ()
        if file is None and not blocks:
            # Named, perhaps, by the sentence above or the first comment line: the engine decides.
            prose_paths = paths_in_prose(paragraph)
            paragraph_paths = paths_in_paragraph(paragraph)
            paragraph_paths = paragraph_paths if set(paragraph_paths) != set(prose_paths) else ()
            if read.language.lower() not in _NO_PATH_COMMENT:
                comment_paths = _paths_in_first_comment(body, header.end)
        blocks.append(
            Block(
                index=index + len(blocks),
                line=line,
                info=read.language,
                directives=tuple(directives),
                file=file,
                payload="\n".join(_trim_blank(body, header.end, len(body) if split is None else split)),
                malformed=(near_miss.line, near_miss.suggestion, near_miss.value) if near_miss else None,
                prose_paths=prose_paths,
                comment_paths=comment_paths,
                paragraph_paths=paragraph_paths,
            )
        )
        if split is None:
            return blocks
        # The next file starts at its FILE line, with a header of its own.
        line = first_line + split
        section, named, fence_directives, near_miss = split, None, [], None


# A line that may be a FILE directive (or a near miss of one): a comment marker, then
# somewhere early a key's letters or a non-ASCII character. A cheap filter before `classify`.
_MAYBE_FILE = lazy_compile(r"^(?:[#/;%<{]|--)[^\n]{0,80}?(?:(?i:fi|pa|na)|[^\x00-\x7f])")


def _next_file(body: list[str], start: int) -> int | None:
    """Where a file block's next file starts: a `FILE:` directive at column 0 after a blank line."""
    for k in range(start + 1, len(body)):
        line = body[k]
        if not _MAYBE_FILE.match(line) or body[k - 1].strip():
            continue
        found = classify(line)
        # A path, not any value: `# File: handling` is a section comment, not a new file;
        # and FILE by a name with "file" in it: `# Path: src/x.py` in code is a remark.
        if (
            isinstance(found, Directive)
            and found.key == FILE_KEY
            and looks_like_path(found.value)
            and "FILE" in (comment_text(line) or "").upper().split(":", 1)[0]
        ) or (
            isinstance(found, NearMiss) and found.suggestion == FILE_KEY
        ):
            return k
    return None


def _trim_blank(lines: list[str], first: int, last: int) -> list[str]:
    """lines[first:last] without the blank lines at either end."""
    while first < last and not lines[first].strip():
        first += 1
    while last > first and not lines[last - 1].strip():
        last -= 1
    return lines[first:last]


def _file_above(lines: list[str], prose: list[bool], fence: int) -> str | None:
    """The file named by the nearest non-blank line above the fence at `fence`, if any.

    At most one blank line may separate a path line from the fence; further away, the
    line belongs to some other paragraph. A line labelled `FILE:` says what it is
    wherever it stands, so blank lines between it and the fence do not matter.
    """
    j = fence - 1
    while j >= 0 and prose[j] and not lines[j].strip():
        j -= 1
    if j < 0 or not prose[j]:
        return None
    if fence - j <= 2:
        return file_name(lines[j])
    return _labelled_file(lines[j])


# `FILE: x`, `# FILE: x`, `**File:** x`, `// FILE: x`: a line that says it names the file.
_FILE_LABEL = lazy_compile(r"^(?:#{1,6}[ \t]+|//+[ \t]*|<!--[ \t]*)?(?:\*\*|__)?file(?:\*\*|__)?[ \t]*:", re.IGNORECASE)


def _labelled_file(line: str) -> str | None:
    stripped = line.strip()
    if not _FILE_LABEL.match(stripped):
        return None
    found = classify(stripped)
    if isinstance(found, Directive) and found.key == FILE_KEY and looks_like_path(found.value):
        return found.value
    return file_name(stripped.removesuffix("-->").strip().lstrip("/").strip())


# The paragraph above a block is read for a path only this far up.
_PARAGRAPH_LINES = 6


def _paragraph_above(lines: list[str], prose: list[bool], fence: int) -> list[str]:
    """The prose lines directly above the fence (at most one blank line between), top to bottom."""
    j = fence - 1
    if j >= 0 and prose[j] and not lines[j].strip():
        j -= 1
    paragraph: list[str] = []
    while j >= 0 and prose[j] and lines[j].strip() and len(paragraph) < _PARAGRAPH_LINES:
        paragraph.append(lines[j])
        j -= 1
    if len(paragraph) == 1 and paragraph[0].rstrip().endswith(":") and not paths_in_prose(paragraph):
        # "Replace the function:" under "### 2. Update `app/utils.py`": the heading over the
        # sentence names the file, with a blank line between them.
        while j >= 0 and prose[j] and not lines[j].strip():
            j -= 1
        if j >= 0 and prose[j] and _HEADING_LINE.match(lines[j]):
            paragraph.append(lines[j])
    return paragraph[::-1]


# A markdown heading or a line in bold: what a section of an answer is titled with.
_HEADING_LINE = lazy_compile(r"^\s*(?:#{1,6}\s|\*\*|__)")


# A first comment line longer than this is code's prose, not a note naming the file.
_MAX_NOTE = 200


def _paths_in_first_comment(body: list[str], start: int) -> tuple[str, ...]:
    """The paths the payload's first line names when it is a short comment: `# In app/utils.py`."""
    first = next((line for line in body[start:] if line.strip()), "")
    if first.lstrip().startswith(("---", "+++", "<<<", "***")):
        return ()  # a diff's header or a patch marker, not a comment
    inner = comment_text(first) if len(first) <= _MAX_NOTE else None
    return paths_in_prose([inner]) if inner else ()
