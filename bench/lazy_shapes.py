"""Lazy edits written the way chat models write them, about one site of a real file, with their intended bytes.

Every shape takes a Site (bench/lazy_sites.py) and writes one change — most
often a new statement before one of the body's statements — as a model's
"lazy edit" snippet shows it: `// ... existing code ...` whatever the
language, the file's own `# ...` or `-- ...`, placeholders at column 0 even
inside a body, the head of a function cut at a placeholder, its tail after
one, a run of statements with no definition line, an indented method with no
class line, `-`/`+` lines without `@@`, a changed header or doc comment, a
function under a new name (the prose says which), a complete file that leaves
out one import it still uses, the function with new nesting in another indent unit; and snippets built to be uncertain (the one line
they anchor on stands twice in the file, their lines come in the other order),
which only a refusal answers. Each reply is computed from the file's own lines
and comes with the exact bytes the file must hold after it, or None.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from bench.lazy_sites import COMMENT, FENCE_INFO, STATEMENT, Site, SourceFile

SLASHES = "// ... existing code ..."
# How models spell "unchanged code here" in the file's own comment syntax.
_SPELLINGS = (" ...", " ... existing code ...", " ... rest of the file unchanged ...", " ... other methods ...", " ...existing code...")


@dataclass(frozen=True)
class Reply:
    text: str
    intended: str | None  # the file after the intended change; None: only a refusal is right


@dataclass(frozen=True)
class Shape:
    name: str
    how: str  # how the snippet is written, for the table
    write: Callable[[Site, SourceFile, random.Random], Reply | None]
    by_design_uncertain: bool = False  # every case must be refused


# --- the change ---------------------------------------------------------------------------------


def new_line(site: Site) -> str:
    return site.body_indent + STATEMENT[site.language].format(name=site.name)


def inserted(site: Site, k: int) -> list[str]:
    """The file's lines with the new statement before the site's k-th statement."""
    lines = site.lines
    row = site.statements[k].row
    return lines[:row] + [new_line(site)] + lines[row:]


def _join(lines: list[str]) -> str:
    return "\n".join(lines)


def _fence(payload: list[str]) -> str:
    longest = max((len(line) - len(line.lstrip("`")) for line in payload), default=0)
    return "`" * max(3, longest + 1)


def _named(
    site: Site, payload: list[str], rng: random.Random, intro: str, info: str | None = None, *, certain_path: bool = False
) -> str:
    """The block under the file's path, as models name it: the info string, a bold line, or a sentence.

    `certain_path`: always the info string, so that a refusal can only be about the snippet's lines."""
    fence = _fence(payload)
    body = "\n".join(payload)
    language = info or FENCE_INFO[site.suffix]
    style = rng.randrange(3) if not certain_path else 0
    if style == 0 and info is None:
        return f"{intro}\n\n{fence}{language}:{site.path}\n{body}\n{fence}\n"
    if style == 1:
        return f"{intro}\n\n**{site.path}**\n\n{fence}{language}\n{body}\n{fence}\n"
    return f"{intro}\n\nIn `{site.path}`:\n\n{fence}{language}\n{body}\n{fence}\n"


def _native(site: Site, rng: random.Random) -> str:
    return COMMENT[site.suffix] + rng.choice(_SPELLINGS)


def _what(site: Site) -> str:
    return f"`{site.name}`"


def _unique(lines: list[str], line: str) -> bool:
    return bool(line.strip()) and lines.count(line) == 1


# --- placeholders around whole definitions ----------------------------------------------------------


def slashes(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """`// ... existing code ...` at column 0 around the whole changed function, in every language."""
    k = rng.randrange(len(site.statements))
    changed = inserted(site, k)
    payload = [SLASHES, "", *changed[site.first : site.last + 2], "", SLASHES]
    return Reply(_named(site, payload, rng, f"Log when {_what(site)} runs."), _join(changed))


def native(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """The file's own comment (`# ...`, `-- ...`, `// ...`) as the placeholder, at column 0."""
    k = rng.randrange(len(site.statements))
    changed = inserted(site, k)
    payload = [_native(site, rng), *changed[site.first : site.last + 2], _native(site, rng)]
    return Reply(_named(site, payload, rng, f"Updated {_what(site)}."), _join(changed))


def members(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """An indented method between placeholders, with no class line around it."""
    if not site.container or not site.member_indent:
        return None
    k = rng.randrange(len(site.statements))
    changed = inserted(site, k)
    indent = site.member_indent if rng.random() < 0.5 else ""
    placeholder = indent + (SLASHES if rng.random() < 0.5 else _native(site, rng))
    payload = [placeholder, "", *changed[site.first : site.last + 2], "", placeholder]
    return Reply(_named(site, payload, rng, f"Change the {_what(site)} method."), _join(changed))


# --- parts of a definition ------------------------------------------------------------------------


def _closing(site: Site, changed: list[str]) -> list[str]:
    """The function's last lines as a snippet restates them after a placeholder: its closing line, or
    (Python, a braceless Scala body) its last statement."""
    end = site.last + 1  # in the changed lines
    if changed[end].strip() in ("}", "};", "end"):
        return [changed[end]]
    last = site.statements[-1]
    return changed[last.row + 1 : last.end_row + 2]


def column0_in_body(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """Head, the change, a column-0 placeholder standing for the rest of the body, the closing line."""
    k = rng.randrange(min(2, len(site.statements) - 2))
    changed = inserted(site, k)
    context = site.statements[k]
    shown = changed[site.first : context.end_row + 2]
    closing = _closing(site, changed)
    placeholder = SLASHES if rng.random() < 0.6 else _native(site, rng)
    payload = [SLASHES, "", *shown, placeholder, *closing, "", SLASHES]
    return Reply(_named(site, payload, rng, f"Add a debug line at the top of {_what(site)}."), _join(changed))


def partial_head(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """The head and first lines of a function with the change, then a placeholder for the rest."""
    k = rng.randrange(min(2, len(site.statements) - 1))
    changed = inserted(site, k)
    shown = changed[site.first : site.statements[k].end_row + 2]
    start = [SLASHES, ""] if rng.random() < 0.7 else []
    payload = [*start, *shown, SLASHES if rng.random() < 0.6 else _native(site, rng)]
    return Reply(_named(site, payload, rng, f"Start of {_what(site)}:"), _join(changed))


def tail(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """A placeholder, then the function's last statements with the change, to its end."""
    k = len(site.statements) - 1
    changed = inserted(site, k)
    before = site.statements[k - 1]
    shown = changed[before.row : site.last + 2]
    payload = [SLASHES, *shown, "", SLASHES]
    return Reply(_named(site, payload, rng, f"At the end of {_what(site)}:"), _join(changed))


def statements(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """A run of statements from inside one function, no definition line, placeholders or none."""
    k = rng.randrange(1, len(site.statements))
    changed = inserted(site, k)
    before, after = site.statements[k - 1], site.statements[k]
    shown = changed[before.row : after.end_row + 2]
    original = [line for line in shown if line != new_line(site)]
    lines = site.lines
    with_placeholders = rng.random() < 0.6
    if with_placeholders:
        if not any(_unique(lines, line) for line in original):
            return None  # no line of the run stands once in the file: built-to-be-uncertain is another shape's
        payload = [SLASHES, *shown, SLASHES]
    else:
        if not (_unique(lines, original[0]) and _unique(lines, original[-1])):
            return None
        payload = shown
    return Reply(_named(site, payload, rng, f"Inside {_what(site)}, log before the call:"), _join(changed))


# --- other forms ------------------------------------------------------------------------------------


def plus_minus(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """`-` / `+` lines with context and no `@@` header: one statement changed, one added."""
    lines = site.lines
    candidates = [j for j, s in enumerate(site.statements) if s.one_line and _unique(lines, lines[s.row])]
    if not candidates:
        return None
    j = rng.choice(candidates)
    row = site.statements[j].row
    old = lines[row]
    gap = "  " if site.suffix == ".py" else " "
    new = f"{old}{gap}{COMMENT[site.suffix]} checked"
    added = new_line(site)
    start, end = max(site.header, row - 2), min(site.last, site.statements[j].end_row + 2)
    # The new statement goes before the changed one: after it, a Rust tail expression would stop being one.
    diff = [f" {line}" for line in lines[start:row]] + [f"-{old}", f"+{added}", f"+{new}"]
    diff += [f" {line}" for line in lines[row + 1 : end + 1]]
    changed = lines[:row] + [added, new] + lines[row + 1 :]
    info = "diff" if rng.random() < 0.6 else None
    return Reply(_named(site, diff, rng, f"Mark the checked line in {_what(site)}:", info), _join(changed))


_COMMENT_START = ("#", "//", "--", "/*", "*", '"""')


def _revised(line: str) -> str:
    for closer in ("*/", '"""'):
        if line.rstrip().endswith(closer) and len(line.strip()) > len(closer) + 2:
            head = line.rstrip()[: -len(closer)].rstrip()
            return f"{head} (revised) {closer}"
    return line.rstrip() + " (revised)"


def comment_edit(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """A changed header comment (then a placeholder), or a changed comment above a function."""
    lines = site.lines
    above = site.first - 1
    has_doc = above >= 0 and lines[above].strip().startswith(_COMMENT_START[:5]) and re.search(r"[A-Za-z]{3}", lines[above])
    if has_doc and (rng.random() < 0.5 or _header_row(lines) is None):
        start = above
        while start > 0 and lines[start - 1].strip().startswith(_COMMENT_START[:5]):
            start -= 1
        changed = lines[:above] + [_revised(lines[above])] + lines[above + 1 :]
        payload = [SLASHES, "", *changed[start : site.last + 1], "", SLASHES]
        return Reply(_named(site, payload, rng, f"Reworded the comment on {_what(site)}."), _join(changed))
    row = _header_row(lines)
    if row is None:
        return None
    changed = lines[:row] + [_revised(lines[row])] + lines[row + 1 :]
    end = min(len(lines) - 1, row + 4)
    payload = [*changed[: end + 1], SLASHES]
    return Reply(_named(site, payload, rng, "Updated the file's header comment."), _join(changed))


# A C preprocessor line starts with `#` and is code, not a comment.
_DIRECTIVE = re.compile(r"#\s*(?:include|pragma|define|undef|if|ifdef|ifndef|elif|else|endif|import|error)\b")


def _header_row(lines: list[str]) -> int | None:
    """The first line of the file's leading comment that holds words, when the file starts with one."""
    for row, line in enumerate(lines[:12]):
        text = line.strip()
        if not text or text.startswith("#!"):
            continue
        if not text.startswith(_COMMENT_START) or _DIRECTIVE.match(text):
            return None
        if re.search(r"[A-Za-z]{3}", text) and len(lines[row + 1 :]) > 5:
            return row
    return None


def renamed(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """The function under a new name (and changed), the prose saying which replaces which."""
    if not site.named_once or site.kind == "constructor" or site.name.startswith("__"):
        return None
    k = rng.randrange(len(site.statements))
    changed = inserted(site, k)
    name = site.name + ("_logged" if "_" in site.name or site.suffix == ".py" else "Logged")
    if name in site.text:
        return None
    pattern = re.compile(rf"(?<![\w$]){re.escape(site.name)}(?![\w$])")
    for row in range(site.first, site.header + 1):
        if pattern.search(changed[row]):
            changed[row] = pattern.sub(name, changed[row], count=1)
            break
    else:
        return None
    payload = [SLASHES, "", *changed[site.first : site.last + 2], "", SLASHES]
    intro = f"I replaced `{site.name}` with `{name}`, which also logs:"
    return Reply(_named(site, payload, rng, intro), _join(changed))


# One import line per language, and the name it brings in (group 1).
_IMPORTS = {
    "python": r"(?:import [\w.]*?(\w+)|from [\w.]+ import (\w+)(?:, \w+)*)",
    "ts/tsx": r"import (?:type )?(?:\{ ?(\w+)[\w, ]*\}|(\w+)) from [\"'][^\"']+[\"'];?",
    "rust": r"use [\w:]*?(\w+);",
    "c++": r"#include [<\"](?:[\w/]+/)?(\w+)(?:\.\w+)?[>\"]",
    "scala": r"import [\w.]*?\.(\w+)",
    "lua": r"local (\w+) = require\(?[\"'][\w.]+[\"']\)?",
    "go": r"\t\"(?:[\w.]+/)*(\w+)\"|import \"(?:[\w.]+/)*(\w+)\"",
    "java": r"import [\w.]*?\.(\w+);",
}


def whole_missing_import(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """A "complete file" with the change that leaves out one import the rest of the file still uses."""
    lines = site.lines
    pattern = re.compile(_IMPORTS[site.language])
    for row, line in enumerate(lines):
        match = pattern.fullmatch(line)
        if match is None:
            continue
        name = next(group for group in match.groups() if group)
        rest = "\n".join(lines[:row] + lines[row + 1 :])
        if site.language == "go" and not (lines[row - 1].strip() != "import (" or lines[row + 1].strip() != ")"):
            continue  # the only import of a group: leaving it out leaves `import ()`
        if re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", rest):
            break
    else:
        return None
    k = rng.randrange(len(site.statements))
    changed = inserted(site, k)
    shift = 1 if row > site.statements[k].row else 0
    sent = changed[: row + shift] + changed[row + shift + 1 :]
    return Reply(_named(site, sent, rng, "Here is the complete file with the change:"), _join(changed))


# --- another indent unit ------------------------------------------------------------------------

# A nested statement per language: the opening line and the closing one (None: Python has none).
_NESTED = {
    "python": ("if __debug__:", None),
    "ts/tsx": ("if (debug) {", "}"),
    "rust": ("if cfg!(debug_assertions) {", "}"),
    "c++": ("if (debug) {", "}"),
    "scala": ("if (debug) {", "}"),
    "lua": ("if debug then", "end"),
    "go": ("if debug {", "}"),
    "java": ("if (debug) {", "}"),
}


def _file_unit(site: Site) -> str | None:
    from kopipasta.code.layout.indent import detect_unit

    unit = detect_unit(site.lines)
    return unit.text if unit is not None else None


def _values(site: Site, text: str) -> tuple[set[int], dict[int, int]]:
    """The rows of `text` (the site's file, changed) inside multi-line strings and comments, and the
    docstring/comment rows among them with the row they open on (they move with it)."""
    from kopipasta.code.layout.render import value_rows
    from kopipasta.syntax.languages import language_for_path, parse

    spec = language_for_path(site.path)
    if spec is None:
        return set(), {}
    return value_rows(spec, parse(spec, text.encode("utf-8")).root_node)


def reindented(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """The whole function with a new nested statement (`if …` and a line under it), between column-0
    placeholders, written in another indent unit than the file's: 2 spaces for a 4-space file, 4 for
    a 2-space one, spaces for a tab file (Go). A careful reader writes it in the file's unit."""
    unit = _file_unit(site)
    if unit is None:
        return None
    opener, closer = _NESTED[site.language]
    other = rng.choice(("  ", "    ")) if unit == "\t" else ("    " if unit == "  " else "  ")
    k = rng.randrange(len(site.statements))
    row = site.statements[k].row
    lines = site.lines
    nested = [site.body_indent + opener, site.body_indent + unit + STATEMENT[site.language].format(name=site.name)]
    nested += [site.body_indent + closer] if closer else []
    changed = lines[:row] + nested + lines[row:]
    last = site.last + len(nested)
    frozen, movers = _values(site, _join(changed))
    shown: list[str] = []
    delta: dict[int, int] = {}  # a row's indentation change, file → reply
    for r in range(site.first, last + 1):
        line = changed[r]
        lead = line[: len(line) - len(line.lstrip(" \t"))]
        if r in frozen:
            # A string's lines are its value: kept; a docstring's or block comment's move with their opener.
            opener_row = movers.get(r)
            if opener_row is None or opener_row not in delta:
                shown.append(line)
                continue
            moved = len(lead) + delta[opener_row]
            if moved < 0 or lead.strip(" "):
                return None
            shown.append(" " * moved + line[len(lead) :])
            continue
        if not line.strip():
            shown.append("")
            continue
        levels, rest = divmod(len(lead), len(unit))
        if rest or lead != unit * levels:
            return None  # aligned continuation lines: converting them is a guess either way
        shown.append(other * levels + line[len(lead) :])
        delta[r] = len(other * levels) - len(lead)
    payload = [SLASHES, "", *shown, "", SLASHES]
    return Reply(_named(site, payload, rng, f"Only debug builds log in {_what(site)}."), _join(changed))


# --- built to be uncertain: only a refusal is right ---------------------------------------------------


def twice_anchor(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """A new line before a statement whose line stands twice in the file: which one is meant is a guess."""
    lines = site.lines
    twice = [s for s in site.statements if s.one_line and lines.count(lines[s.row]) >= 2]
    if not twice:
        return None
    statement = rng.choice(twice)
    payload = [SLASHES, new_line(site), lines[statement.row], SLASHES]
    return Reply(_named(site, payload, rng, f"Log right before `{lines[statement.row].strip()}`:", certain_path=True), None)


def out_of_order(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """Two lines of the function in the other order than the file's, a new line between them."""
    lines = site.lines
    once = [s for s in site.statements if s.one_line and _unique(lines, lines[s.row])]
    if len(once) < 2:
        return None
    first, second = sorted(rng.sample(once, 2), key=lambda s: s.row)
    payload = [SLASHES, lines[second.row], new_line(site), lines[first.row], SLASHES]
    return Reply(_named(site, payload, rng, f"In {_what(site)}:", certain_path=True), None)


SHAPES: tuple[Shape, ...] = (
    Shape("slashes", "`// ... existing code ...` at column 0 around the function, any language", slashes),
    Shape("native", "the file's own `# ...` / `-- ...` / `// ...`, spelled variously", native),
    Shape("members", "an indented method between placeholders, no class line", members),
    Shape("column0-in-body", "head + change, a column-0 placeholder inside the body, closing line", column0_in_body),
    Shape("partial-head", "head + first lines changed, then a placeholder", partial_head),
    Shape("tail", "a placeholder, then the function's last statements changed, to its end", tail),
    Shape("statements", "statements from inside a function, no definition line", statements),
    Shape("plus-minus", "`-`/`+` lines with context, no `@@`", plus_minus),
    Shape("comment-edit", "a changed header comment, or a changed comment above a function", comment_edit),
    Shape("renamed", "the function under a new name, prose says what replaces what", renamed),
    Shape("whole-missing-import", "a complete file that leaves out one import it still uses", whole_missing_import),
    Shape("reindented", "the function with a new nested `if`, in another indent unit (2 ↔ 4 spaces, spaces for tabs)", reindented),
    Shape("twice-anchor", "one anchor line that stands twice in the file (refuse)", twice_anchor, by_design_uncertain=True),
    Shape("out-of-order", "two lines in the other order than the file's (refuse)", out_of_order, by_design_uncertain=True),
)
SHAPES_BY_NAME = {shape.name: shape for shape in SHAPES}
