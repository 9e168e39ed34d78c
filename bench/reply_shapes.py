"""Replies written the way each tool writes them, about one site of a real file, with their intended result.

Every shape takes a Site (bench/reply_sites.py) and writes the same change — a
new first statement in the function's body — the way one editor or chat model
sends it: Cursor's info-string path and `// ... existing code ...`, Copilot's
`# filepath:` and `# ...existing code...`, ChatGPT's path in a sentence above a
bare block, Claude's complete file, Gemini's bold path, aider's SEARCH/REPLACE,
codex's `*** Begin Patch` envelope, Roo's `:start_line:` markers, a unified
diff; and the replies that must never be written as sent: a whole file that
leaves out a definition it does not mention, a reply cut off inside its last
fence, two alternatives for one function. Each reply is built from the file's
own definitions (names, nesting, indentation), never written per file, and
comes with the exact bytes the file must hold after the intended change — or
None where only a refusal is right.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bench.reply_sites import COMMENT, FENCE_INFO, Site, SourceFile

# The statement each shape adds first in the function's body, per extension ({tag}, {name} filled in).
_STATEMENT = {
    ".py": 'log.debug("{tag} {name}")',
    ".ts": 'console.debug("{tag} {name}");',
    ".tsx": 'console.debug("{tag} {name}");',
    ".go": 'log.Printf("{tag} {name}")',
    ".rs": 'log::debug!("{tag} {name}");',
    ".rb": 'logger.debug("{tag} {name}")',
}


@dataclass(frozen=True)
class Reply:
    text: str
    intended: str | None  # the file after the intended change; None: only a refusal is right


@dataclass(frozen=True)
class Shape:
    name: str
    how: str  # how the tool writes it, for the accuracy table
    write: Callable[[Site, SourceFile, random.Random], Reply | None]
    members_only: bool = False  # needs a site inside a class, impl or module
    top_level_only: bool = False


def changed(site: Site, tag: str = "entering") -> list[str]:
    """The file's lines with the new statement first in the site's body."""
    lines = site.lines
    statement = site.body_indent + _STATEMENT[site.suffix].format(tag=tag, name=site.name)
    return lines[: site.body] + [statement] + lines[site.body :]


def _definition(site: Site, tag: str = "entering") -> list[str]:
    """The site's lines as changed, indented as in the file."""
    return changed(site, tag)[site.first : site.last + 2]


def _dedent(lines: list[str], indent: str) -> list[str]:
    return [line[len(indent) :] if line.startswith(indent) else line for line in lines]


def _fence(payload: str) -> str:
    longest = max((len(line) - len(line.lstrip("`")) for line in payload.split("\n")), default=0)
    return "`" * max(3, longest + 1)


def _block(info: str, lines: list[str], *, closed: bool = True) -> str:
    payload = "\n".join(lines)
    fence = _fence(payload)
    return f"{fence}{info}\n{payload}\n" + (f"{fence}\n" if closed else "")


def _file_text(lines: list[str]) -> str:
    return "\n".join(lines)


def _info(site: Site) -> str:
    return FENCE_INFO[site.suffix]


def _placeholder(site: Site, indent: str, spelling: str = " ... existing code ...") -> str:
    return f"{indent}{COMMENT[site.suffix]}{spelling}"


def _skeleton(site: Site, middle: list[str], spelling: str | None) -> list[str]:
    """The site's containers around `middle`: their headers, placeholders (unless None), closings."""
    out: list[str] = []
    for container in site.containers:
        out += list(container.head)
    if spelling is not None:
        out += [_placeholder(site, site.member_indent, spelling), ""]
    out += middle
    if spelling is not None:
        out += ["", _placeholder(site, site.member_indent, spelling)]
    for container in reversed(site.containers):
        if container.close is not None:
            out.append(container.close)
    return out


def _named_whole_file(site: Site, lines: list[str], rng: random.Random, *, closed: bool = True) -> str:
    """A whole-file block under a path the intake reads: bold or a heading above, or a first-line comment."""
    style = rng.randrange(3)
    if style == 0:
        return f"Here is the complete file:\n\n**{site.path}**\n\n" + _block(_info(site), lines, closed=closed)
    if style == 1:
        return f"Here is the complete file.\n\n### `{site.path}`\n\n" + _block(_info(site), lines, closed=closed)
    lines = [f"{COMMENT[site.suffix]} {site.path}", *lines]
    return "Here is the complete file:\n\n" + _block(_info(site), lines, closed=closed)


def _what(site: Site) -> str:
    if site.containers:
        return f"the `{site.name}` method of `{site.containers[-1].name}`"
    return f"the `{site.name}` function"


# --- editors ----------------------------------------------------------------------------------


def cursor_elided(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """Cursor: the path in the info string, the function between `... existing code ...` lines."""
    middle = _definition(site)
    payload = [_placeholder(site, ""), "", *middle, "", _placeholder(site, "")]
    text = f"Update {_what(site)}:\n\n" + _block(f"{_info(site)}:{site.path}", payload)
    return Reply(text, _file_text(changed(site)))


def cursor_member(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """Cursor: an indented method between placeholders, with no class line around it."""
    indent = site.member_indent
    payload = [_placeholder(site, indent), "", *_definition(site), "", _placeholder(site, indent)]
    text = f"Update {_what(site)}:\n\n" + _block(f"{_info(site)}:{site.path}", payload)
    return Reply(text, _file_text(changed(site)))


def cursor_class(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """Cursor: the class (and module) lines, placeholders, the method, placeholders, the closings."""
    payload = _skeleton(site, _definition(site), " ... existing code ...")
    text = f"Update {_what(site)}:\n\n" + _block(f"{_info(site)}:{site.path}", payload)
    return Reply(text, _file_text(changed(site)))


def copilot(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """Copilot Chat: `# filepath:` first, `# ...existing code...` around the change (in its class)."""
    comment = COMMENT[site.suffix]
    if site.containers:
        payload = _skeleton(site, _definition(site), "...existing code...")
    else:
        payload = [_placeholder(site, "", "...existing code..."), *_definition(site), _placeholder(site, "", "...existing code...")]
    lines = [f"{comment} filepath: {site.path}", *payload]
    return Reply(_block(_info(site), lines), _file_text(changed(site)))


# --- chat models ------------------------------------------------------------------------------


def chatgpt_prose(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """ChatGPT: "Replace the `f` function in `path` with:" directly above a bare block."""
    middle = _definition(site)
    if rng.random() < 0.5:
        middle = _dedent(middle, site.member_indent)
    text = f"Replace {_what(site)} in `{site.path}` with:\n\n" + _block(_info(site), middle)
    return Reply(text, _file_text(changed(site)))


def claude_complete(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """Claude: "Here is the complete file" with the change, the path in a comment on its first line."""
    lines = [f"{COMMENT[site.suffix]} {site.path}", *changed(site)]
    text = "Here is the complete file with the change:\n\n" + _block(_info(site), lines)
    return Reply(text, _file_text(changed(site)))


def gemini_bold(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """Gemini: the path in bold on its own line, the function (a method at column 0) below."""
    middle = _dedent(_definition(site), site.member_indent)
    text = f"I added a debug line.\n\n**{site.path}**\n\n" + _block(_info(site), middle)
    return Reply(text, _file_text(changed(site)))


def prose_first_line(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """A chat model's first comment line `# In path` (not a bare path) over the function."""
    middle = _dedent(_definition(site), site.member_indent) if site.containers else _definition(site)
    lines = [f"{COMMENT[site.suffix]} In {site.path}", *middle]
    return Reply(f"Updated {_what(site)}:\n\n" + _block(_info(site), lines), _file_text(changed(site)))


def file_line_above(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """`FILE: path` as a line of prose, a blank line, then the block with the function."""
    middle = _dedent(_definition(site), site.member_indent)
    text = f"FILE: {site.path}\n\n" + _block(_info(site), middle)
    return Reply(text, _file_text(changed(site)))


# --- text patches -----------------------------------------------------------------------------


def _window(site: Site, rng: random.Random) -> tuple[int, int]:
    """0-based rows [start, end) of the file around the insertion point, inside the definition."""
    start = max(site.first, site.body - rng.randint(1, 2))
    end = min(site.last + 1, site.body + rng.randint(1, 2))
    return start, end


def _search_replace(site: Site, rng: random.Random) -> tuple[list[str], list[str], int]:
    start, end = _window(site, rng)
    old = site.lines[start:end]
    new = changed(site)[start : end + 1]
    return old, new, start


def aider(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """aider: the path on the line above the fence, one SEARCH/REPLACE block inside."""
    old, new, _ = _search_replace(site, rng)
    lines = ["<<<<<<< SEARCH", *old, "=======", *new, ">>>>>>> REPLACE"]
    text = f"{site.path}\n" + _block(_info(site), lines)
    return Reply(text, _file_text(changed(site)))


def roo(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """Roo Code's apply_diff: `:start_line:N` and `-------` after SEARCH."""
    old, new, start = _search_replace(site, rng)
    lines = ["<<<<<<< SEARCH", f":start_line:{start + 1}", "-------", *old, "=======", *new, ">>>>>>> REPLACE"]
    text = f"{site.path}\n" + _block("", lines)
    return Reply(text, _file_text(changed(site)))


def codex(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """codex's envelope: `*** Update File:`, an `@@` anchor on the function's line, 3 lines of context."""
    lines = site.lines
    header = lines[site.header].strip()
    start = max(site.header + 1, site.body - 3)
    end = min(site.last + 1, site.body + 3)
    body = [f" {line}" for line in lines[start : site.body]]
    body.append("+" + changed(site)[site.body])
    body += [f" {line}" for line in lines[site.body : end]]
    patch = ["*** Begin Patch", f"*** Update File: {site.path}"]
    patch.append(f"@@ {header}")
    patch += [*body, "*** End Patch"]
    fenced = rng.random() < 0.5
    text = "Apply this patch:\n\n" + (_block("", patch) if fenced else "\n".join(patch) + "\n")
    return Reply(text, _file_text(changed(site)))


def unified_diff(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """A git-style unified diff with three lines of context, as chat models print one."""
    lines = site.lines
    start = max(0, site.body - 3)
    end = min(len(lines), site.body + 3)
    old = lines[start:end]
    hunk = [f" {line}" for line in lines[start : site.body]] + ["+" + changed(site)[site.body]]
    hunk += [f" {line}" for line in lines[site.body : end]]
    diff = [f"--- a/{site.path}", f"+++ b/{site.path}", f"@@ -{start + 1},{len(old)} +{start + 1},{len(old) + 1} @@", *hunk]
    return Reply(_block("diff", diff), _file_text(changed(site)))


def diff_renamed_header(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """A plain diff whose `+++` names another file (`--- a.py` / `+++ a_fixed.py`): `patch` patches `a.py`."""
    reply = unified_diff(site, source, rng)
    stem, dot, suffix = site.path.rpartition(".")
    text = reply.text.replace(f"--- a/{site.path}\n", f"--- {site.path}\n").replace(
        f"+++ b/{site.path}\n", f"+++ {stem}_fixed{dot}{suffix}\n"
    )
    return Reply(text, reply.intended)


def aider_two_space(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """aider's SEARCH/REPLACE written with 2-space indentation for a file indented by 4."""
    unit = site.body_indent[len(site.member_indent) :]
    if unit != "    ":
        return None
    old, new, _ = _search_replace(site, rng)

    def halved(line: str) -> str:
        spaces = len(line) - len(line.lstrip(" "))
        return " " * (spaces // 2) + line[spaces:]

    lines = ["<<<<<<< SEARCH", *map(halved, old), "=======", *map(halved, new), ">>>>>>> REPLACE"]
    return Reply(f"{site.path}\n" + _block(_info(site), lines), _file_text(changed(site)))


# --- replies that must not be written as sent ---------------------------------------------------


def whole_drops_definition(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """A "complete file" that also leaves out one top-level definition the reply never mentions."""
    around = {c.name for c in site.containers}
    others = [t for t in source.top_level if t[0] != site.name and t[0] not in around]
    if not others:
        return None
    _, first, last = rng.choice(others)
    lines = changed(site)
    shift = 1 if first > site.body else 0
    first, last = first + shift, last + shift
    while last + 1 < len(lines) and not lines[last + 1].strip():
        last += 1
    sent = lines[:first] + lines[last + 1 :]
    text = _named_whole_file(site, sent, rng)
    return Reply(text, _file_text(changed(site)))


def cut_off(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """A complete file whose reply stops inside the fence: the model ran out of tokens."""
    lines = changed(site)
    after = site.last + 2  # the first changed-file row after the site
    rest = [row for row in range(after, len(lines) - 1) if lines[row].strip()]
    if len(rest) < 2:
        return None
    cut = rng.choice(rest[:-1])
    text = _named_whole_file(site, lines[: cut + 1], rng, closed=False)
    return Reply(text, _file_text(changed(site)))


def alternatives(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """Two versions of one function offered as a choice: only a refusal (or a question) is right."""
    info = f"{_info(site)}:{site.path}"
    one = _dedent(_definition(site, "entering"), site.member_indent)
    two = _dedent(_definition(site, "strict"), site.member_indent)
    text = (
        f"Two ways to change {_what(site)}:\n\nOption 1 — minimal:\n\n"
        + _block(info, one)
        + "\nOption 2 — stricter:\n\n"
        + _block(info, two)
        + "\nPick whichever fits.\n"
    )
    return Reply(text, None)


def skeleton_without_markers(site: Site, source: SourceFile, rng: random.Random) -> Reply:
    """The class (and module) lines around the one changed method, no placeholders: its other members stay."""
    payload = _skeleton(site, _definition(site), None)
    text = f"Update {_what(site)}:\n\n" + _block(f"{_info(site)}:{site.path}", payload)
    return Reply(text, _file_text(changed(site)))


# A new member per extension ({name}, {unit}: the file's indentation unit), as a model writes one.
_NEW_MEMBER = {
    ".py": ["def {name}(self):", "{unit}return None"],
    ".ts": ["{name}(): void {{", "{unit}return;", "}}"],
    ".tsx": ["{name}(): void {{", "{unit}return;", "}}"],
    ".rb": ["def {name}", "{unit}nil", "end"],
    ".rs": ["pub fn {name}(&self) -> bool {{", "{unit}true", "}}"],
}


def new_member(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """Cursor: a new method after a restated one, between two placeholders: it goes right after it."""
    lines = site.lines
    template = _NEW_MEMBER.get(site.suffix)
    following = next((row for row in range(site.last + 1, len(lines)) if lines[row].strip()), None)
    if template is None or following is None or site.containers[-1].kind not in ("class", "impl"):
        return None
    if not lines[following].startswith(site.member_indent) or lines[following][len(site.member_indent)] in " \t}":
        return None  # the method is the last of its class: where a new one goes after it is the reading's choice
    if lines[following].strip() in ("end", "}"):
        return None
    name = f"{site.name.rstrip('?!')}_hook" if site.suffix in (".py", ".rb", ".rs") else f"{site.name}Hook"
    if name in site.text:
        return None
    unit = site.body_indent[len(site.member_indent) :]
    added = [site.member_indent + line.format(name=name, unit=unit) for line in template]
    gap = following - site.last - 1
    middle = lines[site.first : site.last + 1] + [""] + added
    payload = _skeleton(site, middle, " ... existing code ...")
    text = f"Add a `{name}` method after `{site.name}`:\n\n" + _block(f"{_info(site)}:{site.path}", payload)
    intended = lines[: site.last + 1] + [""] * gap + added + lines[site.last + 1 :]
    return Reply(text, _file_text(intended))


def renamed_beside_neighbour(site: Site, source: SourceFile, rng: random.Random) -> Reply | None:
    """A function renamed, sent with its unchanged neighbour: the rename in place, or a refusal; never both names."""
    lines = site.lines
    neighbours = [t for t in source.top_level if t[2] < site.first or t[1] > site.last]
    before = [t for t in neighbours if t[2] < site.first and not any(lines[r].strip() for r in range(t[2] + 1, site.first))]
    after = [t for t in neighbours if t[1] > site.last and not any(lines[r].strip() for r in range(site.last + 1, t[1]))]
    if site.containers or not (before or after):
        return None
    name = site.name + ("_v2" if site.suffix in (".py", ".rb", ".rs", ".go") else "V2")
    if name in site.text:
        return None
    renamed = list(lines)
    for row in range(site.first, site.last + 1):
        if _renamed_line(renamed[row], site.name, name) != renamed[row]:
            renamed[row] = _renamed_line(renamed[row], site.name, name)
            break
    _, first, last = (before or after)[-1 if before else 0]
    rows = sorted({*range(first, last + 1), *range(site.first, site.last + 1)})
    start, end = rows[0], rows[-1]
    payload = renamed[start : end + 1]
    text = f"I renamed `{site.name}` to `{name}`:\n\n" + _block(f"{_info(site)}:{site.path}", payload)
    return Reply(text, _file_text(renamed))


def _renamed_line(line: str, old: str, new: str) -> str:
    import re

    return re.sub(rf"(?<![\w$]){re.escape(old)}(?![\w$?!])", new, line, count=1)


SHAPES: tuple[Shape, ...] = (
    Shape("cursor-elided", "Cursor: ```` ```lang:path ````, `// ... existing code ...` around a function", cursor_elided, top_level_only=True),
    Shape("cursor-member", "Cursor: an indented method between placeholders, no class line", cursor_member, members_only=True),
    Shape("cursor-class", "Cursor: class line, placeholders, the method, closing line", cursor_class, members_only=True),
    Shape("copilot", "Copilot: `# filepath:` + `# ...existing code...`", copilot),
    Shape("chatgpt-prose", "ChatGPT: \"Replace the `f` function in `path` with:\" + bare block", chatgpt_prose),
    Shape("claude-complete", "Claude: \"Here is the complete file\", `# path` first, the whole file", claude_complete),
    Shape("prose-first-line", "a first comment line `# In path` over the function", prose_first_line),
    Shape("file-line-above", "`FILE: path` in the prose, a blank line, then the block", file_line_above),
    Shape("gemini-bold", "Gemini: `**path**` above the function", gemini_bold),
    Shape("aider", "aider: path line + SEARCH/REPLACE", aider),
    Shape("codex", "codex: `*** Begin Patch` envelope with an `@@` anchor", codex),
    Shape("roo", "Roo: SEARCH with `:start_line:N` and `-------`", roo),
    Shape("unified-diff", "unified diff, `--- a/path` / `+++ b/path`", unified_diff),
    Shape("diff-renamed-header", "a plain diff, `--- path` / `+++ path_fixed` (no rename lines)", diff_renamed_header),
    Shape("aider-two-space", "aider's SEARCH/REPLACE at 2 spaces for a 4-space file", aider_two_space),
    Shape("skeleton-no-markers", "class line + one changed method + closing, no placeholders", skeleton_without_markers, members_only=True),
    Shape("new-member", "Cursor: class line, placeholder, a method, a new method, placeholder", new_member, members_only=True),
    Shape("renamed-beside-neighbour", "a renamed function sent with its unchanged neighbour", renamed_beside_neighbour, top_level_only=True),
    Shape("whole-drops-definition", "a \"complete file\" that leaves out an unmentioned definition", whole_drops_definition),
    Shape("cut-off", "a complete file cut off inside its fence (no closing fence)", cut_off),
    Shape("alternatives", "\"Option 1\" / \"Option 2\" for one function (only a refusal is right)", alternatives),
)
SHAPES_BY_NAME = {shape.name: shape for shape in SHAPES}
