"""Text patches as a reply writes them (PROTOCOL.md §8): the syntax, not the matching.

Three forms, read into one shape (files, each with hunks of ` `/`-`/`+` lines):

- a **unified diff**, with `diff --git` and/or `---`/`+++` headers, or bare `@@`
  hunks under a FILE header; `/dev/null` on one side creates or deletes;
- **search/replace** sections, `<<<<<<< SEARCH` … `=======` … `>>>>>>> REPLACE`
  (three or more marker characters, the words optional), one or more per block,
  each file named as §2 names it or on a path line just before its marker;
- the **patch envelope**, `*** Begin Patch` … `*** End Patch`.

A block whose payload is exactly `<<<DELETE>>>` deletes its file. A payload that
carries the markers of one of these forms but does not read as it fails here,
saying what it saw: it must never reach a file as its content (the rule of
issue 6). Text outside fences is read by `intake/unfenced.py`. Where the hunks land
is `kopipasta.text`'s business.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from kopipasta.errors import PayloadError
from kopipasta.intake.attribution import file_name as _file_name
from kopipasta.intake.directives import Directive, classify
from kopipasta.model import FILE_KEY, TARGET_KEYS, Block
from kopipasta.startup.lazy_pattern import lazy_compile

DIFF = "diff"
SEARCH_REPLACE = "search/replace"
ENVELOPE = "envelope"
DELETE_MARKER = "<<<DELETE>>>"

# Besides the protocol's markers: aider's older ORIGINAL/UPDATED words, and Cline's
# `------- SEARCH` / `+++++++ REPLACE` (where the words are required: a bare run of
# dashes is a markdown rule).
SR_OPEN = lazy_compile(r"^[ \t]*(?:<{3,}[ \t]*(?:SEARCH|ORIGINAL)?|-{3,}[ \t]*SEARCH)[ \t]*:?[ \t]*$", re.IGNORECASE)
_SR_DIVIDER = lazy_compile(r"^[ \t]*={3,}[ \t]*$")
SR_CLOSE = lazy_compile(r"^[ \t]*(?:>{3,}[ \t]*(?:REPLACE|UPDATED)?|\+{3,}[ \t]*REPLACE)[ \t]*:?[ \t]*$", re.IGNORECASE)
# What a sentence between two search/replace sections does not hold.
_CODE_PUNCTUATION = lazy_compile(r"[;{}=<>]|\)\s*$|^\s*(?:def|class|function|return|import|from|const|let|var|if|for)\b")
# Roo Code's line hints at the top of a section's side, and the rule under them.
_ROO_LINE = lazy_compile(r"^[ \t]*:(?:start|end)_line:[ \t]*\d+[ \t]*$")
_ROO_RULE = lazy_compile(r"^[ \t]*-{3,}[ \t]*$")
_SR_CLOSE_WORD = lazy_compile(r"^[ \t]*(?:>{3,}|\+{3,})[ \t]*(?:REPLACE|UPDATED)[ \t]*:?[ \t]*$", re.IGNORECASE)
# git's merge-conflict markers: never a file's content, and no patch either.
_CONFLICT_OPEN = lazy_compile(r"^<{7} \S")
_CONFLICT_CLOSE = lazy_compile(r"^>{7} \S")
HUNK_HEADER = lazy_compile(r"^@@(?:[ \t]*-(?P<old>\d+)(?:,(?P<count>\d+))?[ \t]+\+\d+(?:,(?P<new_count>\d+))?[ \t]*@@)?(?P<rest>.*)$")
_NUMBERED_HUNK = lazy_compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
GIT_HEADER = lazy_compile(r"^diff --git (?P<a>\S+) (?P<b>\S+)\s*$")
# Lines git writes between `diff --git` and `---`: they say nothing we need, bar renames.
GIT_META = lazy_compile(
    r"^(?:index |new file mode |deleted file mode |old mode |new mode |similarity index |"
    r"dissimilarity index |rename from |rename to |Index: |={10,}$)"
)
_ENVELOPE_FILE = lazy_compile(r"^[ \t]*\*\*\* (?P<op>Update|Add|Delete) File:[ \t]*(?P<path>.+?)[ \t]*$")
_ENVELOPE_MOVE = lazy_compile(r"^[ \t]*\*\*\* Move to:[ \t]*(?P<path>.+?)[ \t]*$")
_HEADER_TAIL = lazy_compile(r"\s+(?:\d{4}-\d\d-\d\d[ T].*|\((?:original|modified|old|new|before|after)\))$", re.IGNORECASE)
_FENCE = lazy_compile(r"^[ \t]*(`{3,}|~{3,})")
_COMMENT_WRAPPER = lazy_compile(r"^(?://+|--+|;+|/\*|<!--)\s*|\s*(?:\*/|-->)$")
_DOC_FILES = (".md", ".mdx", ".markdown", ".rst", ".txt", ".adoc")
_DIFF_FILES = (".diff", ".patch")


@dataclass(frozen=True)
class Hunk:
    """One change: its lines as (" " | "-" | "+", text), in order."""

    lines: tuple[tuple[str, str], ...]
    number: int  # 1-based among the hunks of its file, for messages
    old_start: int | None = None  # a diff's `@@ -N`: where the old text starts
    anchors: tuple[str, ...] = ()  # an envelope's `@@ class X` lines, outermost first
    at_end: bool = False  # envelope `*** End of File`: the old text ends the file
    padded: int = 0  # blank context lines put back from the header's counts (see _diff_hunks)
    replace_all: bool = False  # Claude Code's `replace_all`: every place the old text stands (text/midline.py)
    # A diff without `@@` whose context lines start with a space: those lines read as the file has
    # them (the space part of the text), where `lines` reads the space as unified diff's prefix.
    alternative: tuple[tuple[str, str], ...] | None = None

    @property
    def old(self) -> list[str]:
        return [text for op, text in self.lines if op != "+"]

    @property
    def new(self) -> list[str]:
        return [text for op, text in self.lines if op != "-"]


@dataclass(frozen=True)
class FilePatch:
    """What a text patch does to one file."""

    path: str
    action: str  # "update", "create" or "delete"
    hunks: tuple[Hunk, ...] = ()
    move_to: str | None = None  # a rename: the hunks apply, then the file moves here
    # A plain diff's `+++` name when it differs from its `---` one without git's rename lines
    # (`--- app.py` / `+++ app_fixed.py`): `patch` patches the file that exists, never renames.
    other_name: str | None = None
    final_newline: bool = True  # for "create": `\ No newline at end of file` says no


@dataclass(frozen=True)
class TextPatch:
    """A block read as a text patch: its form and each file it changes."""

    form: str  # DIFF, SEARCH_REPLACE, ENVELOPE or DELETE_MARKER
    files: tuple[FilePatch, ...]


class _Malformed(Exception):
    """A text patch that does not read as its form; the caller adds where it is. `file` is the
    file its headers name where it fails, when the block names none itself."""

    def __init__(self, message: str, file: str | None = None) -> None:
        super().__init__(message)
        self.file = file


# --- detection ---------------------------------------------------------------------------


def _marker_lines(block: Block) -> list[str]:
    """The payload lines that may hold markers: in a documentation file, not those of nested fences."""
    lines = block.payload.split("\n")
    if not (block.file or "").lower().endswith(_DOC_FILES):
        return lines
    kept: list[str] = []
    fence: str | None = None
    for line in lines:
        m = _FENCE.match(line)
        if m:
            if fence is None and line.strip() != m[1]:
                fence = m[1][0]
                continue
            if fence is not None and m[1][0] == fence and not line.strip().strip(fence):
                fence = None
                continue
        if fence is None:
            kept.append(line)
    return kept


def _first_form(lines: list[str], info: str) -> str | None:
    """Which form's markers the lines carry first, if any."""
    for i, line in enumerate(lines):
        if line.strip() == "*** Begin Patch":
            return ENVELOPE
        # The plain tests first: each says what its pattern needs, so a payload of plain code
        # never compiles the patterns (issue 9) and each line costs a few substring tests.
        if ("<<<" in line or "---" in line) and SR_OPEN.match(line):
            return SEARCH_REPLACE
        if (">>>" in line or "+++" in line) and _SR_CLOSE_WORD.match(line):
            return SEARCH_REPLACE
        if line.startswith(("diff --git ", "@@ -")) and (GIT_HEADER.match(line) or _NUMBERED_HUNK.match(line)):
            return DIFF
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            return DIFF
    code = [line for line in lines if line.strip()]
    if code and code[0].startswith("@@") and HUNK_HEADER.match(code[0]):
        return DIFF
    if info.lower() in ("diff", "patch") and code and all(line[:1] in " +-" for line in code):
        return DIFF  # a diff fence of bare +/- lines: one hunk with no header
    return None


def headerless_diff(lines: list[str]) -> bool:
    """A run of `-` and `+` lines with no `@@` header (issue 24): both kinds, nothing that is a header.

    Context may keep unified diff's leading space or stand as the file has it (a line at the
    margin). Both kinds are required: a YAML or markdown list is `-` lines alone, and code
    never starts lines with both `-` and `+` at the margin.
    """
    marked = [line for line in lines if line[:1] in "+-" and not line.startswith(("+++ ", "--- "))]
    if not any(line[:1] == "+" for line in marked) or not any(line[:1] == "-" for line in marked):
        return False
    if any(line.startswith("@@") and HUNK_HEADER.match(line) for line in lines):
        return False
    # Not a markdown rule, table or fence: `---` alone, `+--+`, and git or envelope lines are no diff body.
    return not any(line.strip() in ("---", "+++") or line.startswith(("diff --git ", "*** ", "```")) for line in lines)


def _with_alternatives(files: list[FilePatch], others: list[FilePatch]) -> list[FilePatch]:
    """Each hunk of `files` with the same hunk of `others` (the other reading of its context) beside it."""
    paired: list[FilePatch] = []
    for fp, other in zip(files, others, strict=True):
        hunks = tuple(
            replace(h, alternative=o.lines) if o.lines != h.lines else h for h, o in zip(fp.hunks, other.hunks, strict=True)
        )
        paired.append(replace(fp, hunks=hunks))
    return paired


def _as_hunk_body(lines: list[str]) -> list[str]:
    """A headerless diff with an `@@` opening each file's one hunk, context at the margin prefixed with its space."""
    out: list[str] = []
    opened = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            out.extend((line, lines[i + 1], "@@"))
            opened, i = True, i + 2
            continue
        if not opened and line.strip() and path_line(line) is not None and line[:1] not in " +-":
            out.append(line)  # a path or FILE line above the run names its file
        else:
            if not opened and line.strip():
                out.append("@@")
                opened = True
            out.append(line if line == "" or line[:1] in " +-\\" else " " + line)
        i += 1
    return out


def read_text_patch(block: Block) -> TextPatch | None:
    """The block's text patch, or None when its payload carries no text-patch markers.

    Raises PayloadError when the payload carries markers but does not read as a
    patch: such a payload is never a file's content.
    """
    file = block.file
    if block.payload.strip() == DELETE_MARKER:
        if not file:
            raise PayloadError(f"Block {block.index} (line {block.line}) is {DELETE_MARKER} but names no file", "add `FILE: path` above the marker")
        return TextPatch(DELETE_MARKER, (FilePatch(file, "delete"),))
    targeted = any(key in TARGET_KEYS for key, _ in block.directives)
    if not targeted and ('"old_string"' in block.payload or '"edits"' in block.payload):
        from kopipasta.intake.json_edit import read_json_edits

        edits = read_json_edits(block)
        if edits is not None:
            return TextPatch(SEARCH_REPLACE, tuple(
                FilePatch(path, "update", tuple(
                    Hunk(section_ops(e.old, e.new), k, replace_all=e.replace_all) for k, e in enumerate(file_edits, 1)
                )) for path, file_edits in edits
            ))
    if block.malformed is not None and (file or targeted or block.malformed[1] == FILE_KEY):
        return None  # its misspelt header line fails it first (plan.py), whatever the payload
    if file and file.lower().endswith(_DIFF_FILES) and not targeted:
        return None  # a whole .diff/.patch file is written as it stands
    lines = block.payload.split("\n")
    marker_lines = _marker_lines(block)
    form = _first_form(marker_lines, block.info)
    headerless = form is None and not targeted and not (file or "").lower().endswith(_DOC_FILES) and headerless_diff(lines)
    if headerless:
        form = DIFF
    where = f"Block {block.index} (line {block.line})" + (f" for {file}" if file else "")
    if form is None:
        if any(line.startswith("<<<<<<<") and _CONFLICT_OPEN.match(line) for line in marker_lines) and any(
            line.startswith(">>>>>>>") and _CONFLICT_CLOSE.match(line) for line in marker_lines
        ):
            raise PayloadError(
                f"{where} holds merge-conflict markers (<<<<<<< … >>>>>>>): it is neither code nor a patch",
                "nothing was written; resolve the conflict, or send a search/replace block",
            )
        return None
    try:
        if form == ENVELOPE:
            files = _parse_envelope(lines)
        elif form == SEARCH_REPLACE:
            files = _parse_search_replace(lines, file)
        else:
            code = [k for k, line in enumerate(lines) if line.strip()]
            first = lines[code[0]] if code else ""
            if headerless or headerless_diff(lines):
                # `-`/`+` lines with no `@@`: one hunk per file, its context read both ways.
                files = _with_alternatives(_parse_diff(_as_hunk_body(lines), file), _parse_diff(_as_hunk_body(
                    [" " + line if line[:1] == " " else line for line in lines]), file))
                return TextPatch(form, tuple(files))
            elif first[:1] in " +-" and not (
                first.startswith("--- ") and code[0] + 1 < len(lines) and lines[code[0] + 1].startswith("+++ ")
            ):
                lines = ["@@", *lines]  # a diff fence of bare +/- lines: one hunk without a header
            files = _parse_diff(lines, file)
    except _Malformed as error:
        if file is None and error.file is not None:
            where += f" for {error.file}"  # the file its own headers name
        failure = PayloadError(
            f"{where} holds {form} markers but is not a well-formed {form}: {error}",
            "nothing was written; resend the change as a well-formed "
            f"{form}, or as the changed definition with TARGET_NODE",
        )
        failure.file = file or error.file
        raise failure from None
    return TextPatch(form, tuple(files))


def path_line(line: str) -> str | None:
    """The file a line names on its own: `src/x.py`, `### src/x.py`, `# FILE: src/x.py`."""
    directive = classify(line)
    if isinstance(directive, Directive):
        return directive.value if directive.key == FILE_KEY and directive.value else None
    # A comment holding only a path (`// src/x.ts`, `<!-- docs/a.md -->`) names it too.
    bare = _COMMENT_WRAPPER.sub("", line.strip()).strip()
    return _file_name(bare) if bare != line.strip() else _file_name(line)


# --- search/replace ----------------------------------------------------------------------


def section_ops(search: list[str], replace_lines: list[str]) -> tuple[tuple[str, str], ...]:
    """The two sides as hunk lines: what both hold is context, kept as the file has it."""
    ops: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(None, search, replace_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.extend((" ", line) for line in search[i1:i2])
            continue
        ops.extend(("-", line) for line in search[i1:i2])
        ops.extend(("+", line) for line in replace_lines[j1:j2])
    return tuple(ops)


def _parse_search_replace(lines: list[str], file: str | None) -> list[FilePatch]:
    sections: list[tuple[str, list[str], list[str]]] = []
    current, pending = file, None
    i = 0
    while i < len(lines):
        line = lines[i]
        if SR_OPEN.match(line):
            close = next((k for k in range(i + 1, len(lines)) if SR_CLOSE.match(lines[k]) or SR_OPEN.match(lines[k])), None)
            if close is None or SR_OPEN.match(lines[close]):
                raise _Malformed(f"the section opened at its line {i + 1} ({line.strip()}) has no closing >>>>>>> REPLACE")
            dividers = [k for k in range(i + 1, close) if _SR_DIVIDER.match(lines[k])]
            if len(dividers) > 1:
                # Content may hold a line of `=`; the divider is then the one as long as the opener.
                width = len(line.strip().split()[0]) if line.strip() else 0
                same = [k for k in dividers if len(lines[k].strip()) == width]
                dividers = same if len(same) == 1 else dividers
            if len(dividers) != 1:
                what = "no =======" if not dividers else f"{len(dividers)} ======= lines"
                raise _Malformed(f"the section opened at its line {i + 1} has {what} between its markers")
            name = pending or current
            if not name:
                raise _Malformed("it names no file (put `FILE: path` or the path on the line above its first marker)")
            search, replace_lines = _roo_lines(lines[i + 1 : dividers[0]]), lines[dividers[0] + 1 : close]
            hinted = dividers[0] - len(search)  # the first search line after the hints _roo_lines took off
            stray = next((k for k in (*range(hinted, dividers[0]), *range(dividers[0] + 1, close)) if _ROO_LINE.match(lines[k])), None)
            if stray is not None:
                # Roo writes its line hint only right after SEARCH's marker; one anywhere else is
                # not content either, and dropping it would apply a section the model garbled.
                raise _Malformed(
                    f"its line {stray + 1} ({lines[stray].strip()}) is a Roo line hint inside the section "
                    "(it belongs only right after <<<<<<< SEARCH)"
                )
            sections.append((name, search, replace_lines))
            current, pending = name, None
            i = close + 1
            continue
        if _SR_DIVIDER.match(line) or SR_CLOSE.match(line):
            raise _Malformed(f"its line {i + 1} ({line.strip()}) stands outside any <<<<<<< SEARCH section")
        if line.strip():
            named = path_line(line)
            if named is None and sections and _prose_between(lines, i):
                i += 1  # "Then update the caller:" between two sections: the model talking
                continue
            if named is None:
                raise _Malformed(f"its line {i + 1} ({_short(line)}) stands outside the search/replace sections")
            pending = named
        i += 1
    if pending is not None:
        raise _Malformed(f"it names {pending} but no search/replace section follows")
    files: list[FilePatch] = []
    for name, search, replace_lines in sections:
        if files and files[-1].path == name:
            previous = files[-1]
            hunk = Hunk(section_ops(search, replace_lines), len(previous.hunks) + 1)
            files[-1] = replace(previous, hunks=(*previous.hunks, hunk))
        else:
            files.append(FilePatch(name, "update", (Hunk(section_ops(search, replace_lines), 1),)))
    return files


def _prose_between(lines: list[str], i: int) -> bool:
    """Whether line `i`, after a section, is a sentence with another section still to come.

    A sentence: words at the margin, no code punctuation. Anything else outside the
    sections may be code the reply meant to send, so it fails the block instead.
    """
    line = lines[i]
    if line[:1].isspace() or _CODE_PUNCTUATION.search(line) or len(line.split()) < 3:
        return False
    if not (line[0].isalpha() or line[0] in "*_>#"):
        return False
    return any(SR_OPEN.match(later) for later in lines[i + 1 :])


def _roo_lines(side: list[str]) -> list[str]:
    """A SEARCH side without Roo's `:start_line:N` (and `:end_line:N`) lines and the `-------` under them.

    They are markers, never content: written into the file they would be text (one
    anywhere else in a section fails it, see _parse_search_replace). The line number
    itself is not used: models' numbers are often wrong, and the
    search text must match once anyway.
    """
    k = 0
    while k < len(side) and _ROO_LINE.match(side[k]):
        k += 1
    if k and k < len(side) and _ROO_RULE.match(side[k]):
        k += 1
    return side[k:]


# --- unified diff ------------------------------------------------------------------------


def _diff_path(raw: str, prefix: str) -> str | None:
    """A header's path: the timestamp, quotes and git's a/ b/ prefix taken off; None for /dev/null."""
    path = raw.split("\t")[0].strip()
    # `x.py 2024-01-01 10:00:00 +0000` (a timestamp after spaces), `x.py (original)`.
    path = _HEADER_TAIL.sub("", path).strip().strip('"')
    if path == "/dev/null":
        return None
    if path in ("", prefix, prefix.rstrip("/")):
        # `+++ b/` names no file: never the file `b` (issue 18, item 9).
        header = f"{'---' if prefix == 'a/' else '+++'} {prefix}"
        raise _Malformed(f"its header `{header}` names no file: write the path after it, as in `{header}src/app.py`")
    return path[len(prefix) :] if path.startswith(prefix) and len(path) > len(prefix) else path


def _body_line(line: str) -> tuple[str, str] | None:
    if line == "":
        return (" ", "")  # an editor stripped the blank context line's space
    if line[0] in " -+":
        return (line[0], line[1:])
    return None


def _parse_diff(lines: list[str], file: str | None) -> list[FilePatch]:
    files: list[FilePatch] = []
    old_path: str | None = file
    new_path: str | None = file
    named = file is not None
    git_paths: tuple[str | None, str | None] | None = None
    renamed: dict[str, str] = {}
    hunks: list[Hunk] = []
    no_final_newline = False
    in_file = False

    def finish() -> None:
        nonlocal hunks, in_file, no_final_newline, git_paths, renamed
        if not in_file:
            return
        files.append(_diff_file(old_path, new_path, hunks, renamed, no_final_newline, named))
        hunks, in_file, no_final_newline, git_paths, renamed = [], False, False, None, {}

    i = 0
    while i < len(lines):
        line = lines[i]
        git = GIT_HEADER.match(line)
        if git:
            finish()
            git_paths = (_diff_path(git["a"], "a/"), _diff_path(git["b"], "b/"))
            old_path, new_path, named, in_file = git_paths[0], git_paths[1], True, True
            i += 1
            continue
        if GIT_META.match(line):
            if line.startswith("rename from "):
                renamed["from"] = line[len("rename from ") :].strip()
            elif line.startswith("rename to "):
                renamed["to"] = line[len("rename to ") :].strip()
            elif line.startswith("deleted file mode"):
                new_path = None
            elif line.startswith("new file mode"):
                old_path = None
            in_file = in_file or git_paths is not None
            i += 1
            continue
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            if git_paths is None or hunks:
                finish()
            old_path, new_path = _diff_path(line[4:], "a/"), _diff_path(lines[i + 1][4:], "b/")
            named, in_file = True, True
            i += 2
            continue
        header = HUNK_HEADER.match(line)
        if header and line.startswith("@@"):
            in_file = True
            body: list[tuple[str, str]] = []
            i += 1
            while i < len(lines):
                nxt = lines[i]
                if nxt.startswith("@@") or GIT_HEADER.match(nxt):
                    break
                if nxt.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
                    break
                if nxt.startswith("\\"):
                    no_final_newline = True
                    i += 1
                    continue
                parsed = _body_line(nxt)
                if parsed is None:
                    raise _Malformed(f"its line {i + 1} ({_short(nxt)}) starts with neither ' ', '-' nor '+'",
                                     (new_path or old_path) if named else None)
                body.append(parsed)
                i += 1
            # Blank lines after a hunk separate it from the next, unless its header counts them.
            counted = int(header["count"]) if header["count"] is not None else (1 if header["old"] else None)
            while body and body[-1] == (" ", "") and (counted is None or sum(op != "+" for op, _ in body) > counted):
                body.pop()
            padded = 0
            if i >= len(lines) and header["count"] is not None and header["new_count"] is not None:
                # The reply's trailing blank lines were trimmed with the fence: the counts put back
                # the blank context lines the last hunk ends with.
                while sum(op != "+" for op, _ in body) < int(header["count"]) and sum(op != "-" for op, _ in body) < int(
                    header["new_count"]
                ):
                    body.append((" ", ""))
                    padded += 1
            old = header["old"]
            hunks.append(Hunk(tuple(body), len(hunks) + 1, int(old) if old else None, padded=padded))
            continue
        if not line.strip():
            i += 1
            continue
        if not in_file and not files and path_line(line) is not None:
            i += 1  # a path or FILE line inside the fence above the first header
            continue
        raise _Malformed(f"its line {i + 1} ({_short(line)}) is not part of a diff",
                         (new_path or old_path) if named and in_file else None)
    finish()
    if not files:
        raise _Malformed("it has no hunk")
    return files


def _diff_file(
    old: str | None, new: str | None, hunks: list[Hunk], renamed: dict[str, str], no_final_newline: bool, named: bool
) -> FilePatch:
    if not named:
        raise _Malformed("it names no file (no ---/+++ header, no FILE line)")
    if "from" in renamed and "to" in renamed:
        old, new = renamed["from"], renamed["to"]
    if old is None and new is None:
        raise _Malformed("both sides of a header are /dev/null")
    if old is None:
        assert new is not None
        if any(op != "+" for hunk in hunks for op, _ in hunk.lines):
            raise _Malformed(f"it creates {new} from /dev/null but has lines that are not additions", new)
        return FilePatch(new, "create", tuple(hunks), final_newline=not no_final_newline)
    if new is None:
        return FilePatch(old, "delete", tuple(hunks))
    if not hunks and old == new:
        raise _Malformed(f"its header for {old} has no hunk", old)
    if "from" in renamed and "to" in renamed:
        return FilePatch(old, "update", tuple(hunks), move_to=new if new != old else None)
    return FilePatch(old, "update", tuple(hunks), other_name=new if new != old else None)


# --- the patch envelope ------------------------------------------------------------------


def _parse_envelope(lines: list[str]) -> list[FilePatch]:
    begin = next(i for i, line in enumerate(lines) if line.strip() == "*** Begin Patch")
    end = next((i for i in range(begin + 1, len(lines)) if lines[i].strip() == "*** End Patch"), None)
    if end is None:
        raise _Malformed("*** Begin Patch has no *** End Patch")
    outside = [line for line in lines[:begin] + lines[end + 1 :] if line.strip()]
    # The heredoc that OpenAI's tool call wraps it in (`apply_patch <<'EOF'` … `EOF`) may come along.
    if any(not (line.startswith("apply_patch") or re.fullmatch(r"[A-Z_]+", line.strip())) for line in outside):
        raise _Malformed(f"text stands outside *** Begin Patch … *** End Patch ({_short(outside[0])})")
    files: list[FilePatch] = []
    i = begin + 1
    while i < end:
        line = lines[i]
        op = _ENVELOPE_FILE.match(line)
        if op is None:
            if not line.strip():
                i += 1
                continue
            raise _Malformed(f"its line {i + 1} ({_short(line)}) is not *** Update/Add/Delete File")
        path = op["path"]
        i += 1
        if op["op"] == "Delete":
            files.append(FilePatch(path, "delete"))
            continue
        body_end = next((k for k in range(i, end) if _ENVELOPE_FILE.match(lines[k])), end)
        if op["op"] == "Add":
            added = [lines[k] for k in range(i, body_end)]
            while added and not added[-1].strip():
                added.pop()
            if any(not line.startswith("+") for line in added):
                bad = next(line for line in added if not line.startswith("+"))
                raise _Malformed(f"*** Add File: {path} has a line that does not start with '+' ({_short(bad)})", path)
            hunk = Hunk(tuple(("+", line[1:]) for line in added), 1)
            files.append(FilePatch(path, "create", (hunk,) if added else ()))
        else:
            move = _ENVELOPE_MOVE.match(lines[i]) if i < body_end else None
            if move:
                i += 1
            files.append(FilePatch(path, "update", _envelope_hunks(lines, i, body_end, path), move_to=move["path"] if move else None))
        i = body_end
    if not files:
        raise _Malformed("it changes no file")
    return files


def _envelope_hunks(lines: list[str], start: int, end: int, path: str) -> tuple[Hunk, ...]:
    hunks: list[Hunk] = []
    anchors: list[str] = []
    body: list[tuple[str, str]] = []
    at_end = False

    def flush() -> None:
        nonlocal body, anchors, at_end
        if body:
            hunks.append(Hunk(tuple(body), len(hunks) + 1, anchors=tuple(anchors), at_end=at_end))
        body, anchors, at_end = [], [], False

    # Empty lines ending a file's section separate it from what follows (`*** End Patch`, the
    # next file): a blank context line is written " ", with its space.
    while end > start and lines[end - 1] == "":
        end -= 1
    for k in range(start, end):
        line = lines[k]
        if line.startswith("@@"):
            if body:
                flush()
            anchor = line[2:].strip()
            if anchor:
                anchors.append(anchor)
            continue
        if line.strip() == "*** End of File":
            at_end = True
            continue
        parsed = _body_line(line)
        if parsed is None:
            raise _Malformed(f"its line {k + 1} ({_short(line)}) in *** Update File: {path} starts with neither ' ', '-' nor '+'",
                             path)
        body.append(parsed)
    flush()
    if not hunks:
        raise _Malformed(f"*** Update File: {path} has no change", path)
    return tuple(hunks)


def _short(line: str) -> str:
    text = line.strip()
    return text if len(text) <= 60 else text[:57] + "..."
