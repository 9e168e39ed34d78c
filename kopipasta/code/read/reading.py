"""How a file block for an existing file is read: the whole file, a fragment, or elided (§6).

The rule above all: a fragment is never taken for the whole file. A payload
is the whole file only when it restates the file's frame and its
definitions; anything less is merged as a fragment (code files), or refused
(files whose parts kopipasta cannot merge).

Code files (a grammar and a definitions query):
- a placeholder line (`# ... existing code ...`) makes it elided, merged member by member;
- it is whole when (1) it restates the file's frame: it has imports if the
  file has, and other top-level code (a module docstring, `if __name__ ...`,
  `export default App;`) if the file has; (2) it restates at least one of
  the file's top-level definitions and leaves out at most one in four of
  them (a rewrite may drop a definition on purpose); and (3) every class it
  restates keeps all its members (a class with only the changed method is a
  fragment of it). A file that is only definitions has no frame to restate:
  there the payload must restate every definition and start with the file's
  first line;
- otherwise it is a fragment; and a PHP payload without the `<?php` its file
  opens with is never the whole file (written over it, the code would be text).

Other files have no definitions to merge, so a payload that is not clearly
the whole file is refused with a hint. Their parts are top-level keys (JSON,
YAML, TOML), top-level rules (CSS and its dialects), headings (Markdown);
the payload is whole when it restates at least one of them and leaves out at
most one in four, or has as many as the file and restates half of them (a
rewrite that renames). A file with no such parts is judged by lines: whole
when the payload starts with the file's first line and restates half its
lines (or is as long as the file).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import Definition
from kopipasta.code.read.members import CONTAINER_KINDS, members, statements_left_out
from kopipasta.code.read.parsed import Parsed, placeholder_rows, read_file, read_payload, structural
from kopipasta.errors import PatchError, counted
from kopipasta.syntax import opening_tag

if TYPE_CHECKING:
    from kopipasta.code.find.document import Document

WHOLE = "whole"
FRAGMENT = "fragment"
ELIDED = "elided"


@dataclass(frozen=True)
class Reading:
    kind: str  # WHOLE, FRAGMENT, ELIDED
    dropped: tuple[str, ...] = ()  # a whole file: the file's definitions it leaves out


def read_code_block(document: Document, payload: str) -> Reading:
    spec, data = document.code_spec, document.data
    if placeholder_rows(spec, payload, data):
        return Reading(ELIDED)
    if not data.strip():
        return Reading(WHOLE)
    if opening_tag.opens_file(spec, document.tree.root_node) and not opening_tag.has_own_tag(spec, payload):
        # The file opens with `<?php` and the payload does not: written over the file it would
        # turn the code into HTML text. Whatever else it restates, it is a part.
        return Reading(FRAGMENT)
    original = read_file(document)
    file_definitions = structural(original.definitions)
    top = [d for d in file_definitions if not d.container]  # where it stands: a Go method is top-level
    if not top:
        whole, _ = lines_whole(data.decode("utf-8", "replace"), payload)
        return Reading(WHOLE if whole else FRAGMENT)
    parsed = read_payload(spec, payload)
    sent = {d.qualified_name for d in structural(parsed.definitions)}
    missing = [d for d in file_definitions if d.qualified_name not in sent]
    missing_top = [d for d in missing if not d.container]
    partial_container = (
        any(d.container and ".".join(d.container) in sent for d in missing)
        or _fields_missing(original, parsed, file_definitions)
        or _statements_missing(original, parsed, file_definitions)
    )
    restated_top = len(top) - len(missing_top)
    if restated_top < 1 or partial_container:
        return Reading(FRAGMENT)
    frame = {m.kind for m in members(original, None) or [] if m.kind in ("import", "statement")}
    sent_frame = {m.kind for m in members(parsed, None) or [] if m.kind in ("import", "statement")}
    if not frame:
        # Nothing but definitions: only restating all of them, from the file's first line on,
        # shows the whole file; dropping one cannot be told from a fragment.
        if missing_top or _first_line(payload) != _first_line(data.decode("utf-8", "replace")):
            return Reading(FRAGMENT)
        return Reading(WHOLE)
    if not frame <= sent_frame or len(missing_top) > len(top) // 4:
        return Reading(FRAGMENT)
    return Reading(WHOLE, tuple(d.qualified_name for d in missing_top))


def inside_one_definition(document: Document, payload: str) -> bool:
    """Whether the payload is a run of statements from inside one definition of the file.

    "Inside `summarize`, log before the call:" over a few lines of its body: no definition
    restated, and the lines of it that stand once in the file (one at least) all stand inside
    the body of the same function. A reader places it by those lines; the line-anchored reading
    does, strictly (PROTOCOL.md §6, item 3), and refuses edges it cannot place. Anything else
    stays a fragment.
    """
    shown = [line.strip() for line in payload.splitlines() if line.strip()]
    if len(shown) < 2:
        return False
    keys = [line.strip() for line in document.data.decode("utf-8", "replace").split("\n")]
    counts: dict[str, int] = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    rows = [keys.index(line) for line in shown if counts.get(line) == 1]
    if not rows:
        return False
    file_definitions = structural(document.definitions)
    try:
        parsed = read_payload(document.code_spec, payload)
    except PatchError:
        parsed = None  # statements cut from a body may not parse alone (`for (…) {` … `}` in C++)
    if parsed is not None:
        sent = structural(parsed.definitions)
        if {d.name for d in sent} & {d.name for d in file_definitions}:
            return False
        # Read alone, a body's `const mean = …` is a one-line "definition"; a definition over
        # several lines is a new function or class: a fragment, inserted as one.
        if any(b"\n" in parsed.data[d.start : d.end].rstrip() for d in sent):
            return False
    data = document.data
    first, last = min(rows), max(rows)
    holders = [
        d for d in file_definitions
        if data.count(b"\n", 0, d.start) < first and last <= data.count(b"\n", 0, max(d.end - 1, d.start))
    ]
    if not holders:
        return False
    innermost = max(holders, key=lambda d: d.start)
    return innermost.kind not in CONTAINER_KINDS  # a function's body, not a class's members


# A sentence of the prose that says a definition goes: "Removed the unused `helper`", "I deleted parse_v1",
# "renamed `parse_config` to `load_config`" (in a whole file the new name is there, the old one gone).
REMOVAL_WORDS = re.compile(r"(?i)\b(remov|delet|drop|renam|get(?:ting)? rid|eliminat|no longer (?:need|use))\w*")


def kept_unless_removed(read: Reading, prose: str) -> tuple[str, ...]:
    """The definitions a whole file leaves out that the reply does not say it removes.

    A model that sends "the complete file" without a function it was never asked about
    has dropped it by accident far more often than on purpose; only the prose saying so
    ("I removed the unused `helper`") makes the deletion certain. Those left out
    otherwise are kept: the payload is read as a fragment (issue 19).
    """
    if read.kind != WHOLE or not read.dropped:
        return ()
    return not_said_removed(read.dropped, prose)


def not_said_removed(names: tuple[str, ...] | list[str], prose: str) -> tuple[str, ...]:
    """The names (`Parser.feed`, `dependencies.lodash`) no sentence of the prose says are removed."""
    said = said_removed(names, prose)
    return tuple(name for name in names if name not in said)


def said_removed(names: tuple[str, ...] | list[str], prose: str, words: re.Pattern[str] = REMOVAL_WORDS) -> frozenset[str]:
    """The names a sentence of the prose that holds one of `words` spells (its last part, whole)."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n", prose) if words.search(s)]
    if not sentences:
        return frozenset()
    said_text = "\n".join(sentences)
    said = set()
    for name in set(names):
        own = name.rsplit(".", 1)[-1]
        # A pattern per name only for the names the sentences hold at all: a file's hundreds of
        # definitions would otherwise each compile one.
        if own in said_text and any(re.search(rf"(?<![\w.]){re.escape(own)}(?!\w)", s) for s in sentences):
            said.add(name)
    return frozenset(said)


def frame_left_out(document: Document, payload: str) -> tuple[str, ...]:
    """The file's top-level imports a whole-file payload does not restate (their lines: each line
    of an import group, Go's `import ( … )`, is an import of its own)."""
    sent = {line.strip() for line in payload.splitlines()}
    left: list[str] = []
    lines = document.data.decode("utf-8", "replace").split("\n")
    for member in members(read_file(document), None) or []:
        if member.kind == "import":  # a statement changes often; an import left out is lost
            first = document.data.count(b"\n", 0, member.start)
            last = document.data.count(b"\n", 0, max(member.end - 1, member.start))
            for row in range(first, last + 1):
                line = lines[row].strip()
                if line and line not in ("(", ")") and line not in sent and (row == first or row < last):
                    left.append(line)
    return tuple(left)


def _fields_missing(original: Parsed, parsed: Parsed, file_definitions: list[Definition]) -> bool:
    """Whether a restated interface or enum leaves out some of its properties or members."""
    sent = {d.qualified_name: d for d in structural(parsed.definitions)}
    for definition in file_definitions:
        restated = sent.get(definition.qualified_name)
        if restated is None or definition.kind not in CONTAINER_KINDS:
            continue
        have = {m.key for m in members(original, definition) or [] if m.kind == "field"}
        if have and not have <= {m.key for m in members(parsed, restated) or [] if m.kind == "field"}:
            return True
    return False


def _statements_missing(original: Parsed, parsed: Parsed, file_definitions: list[Definition]) -> bool:
    """Whether a restated container leaves out statements it holds (`belongs_to`, `validates`)."""
    sent = {d.qualified_name: d for d in structural(parsed.definitions)}
    return any(
        statements_left_out(original, definition, parsed, sent[definition.qualified_name])
        for definition in file_definitions
        if definition.qualified_name in sent and definition.kind in CONTAINER_KINDS
    )


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


# --- files without definitions ------------------------------------------------------------

_DATA_HINT = "change one value with `TARGET_PATH: key.path`, or send the whole file"
_YAML_KEY = re.compile(r"^(?!-|#|\s)(['\"]?[^\s:#'\"][^:#]*?['\"]?)\s*:(?:\s|$)")
_TOML_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?")
_TOML_KEY = re.compile(r"^([A-Za-z0-9_.\"'-]+)\s*=")
_MD_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# A file of at most this many lines is judged whole by length alone (lines_whole).
_TINY_FILE = 3
_CSS_SUFFIXES = (".css", ".scss", ".sass", ".less", ".pcss")


@dataclass(frozen=True)
class OpaqueVerdict:
    whole: bool
    detail: str = ""  # why not, for the message
    hint: str = "send the whole file"


def opaque_whole(path: str, old: str, payload: str, prose: str = "") -> OpaqueVerdict:
    """Whether a file block for a file kopipasta cannot merge is the whole file."""
    if not old.strip():
        return OpaqueVerdict(True)
    suffix = PurePosixPath(path).suffix.lower()
    name = PurePosixPath(path).name.lower()
    data_file = suffix in (".json", ".jsonc", ".yml", ".yaml", ".toml") or name.endswith(".json5")
    hint = _DATA_HINT if data_file else "send the whole file"
    if data_file:
        verdict = _data_whole(path, old, payload, prose)
        if verdict is not None:
            return verdict
    if suffix in (".json", ".jsonc"):
        return _json_whole(old, payload, hint)
    parts: tuple[list[str], list[str]] | None = None
    what = "parts"
    if suffix in (".yml", ".yaml"):
        parts, what = (_yaml_keys(old), _yaml_keys(payload)), "top-level keys"
    elif suffix == ".toml":
        parts, what = (_toml_keys(old), _toml_keys(payload)), "tables and top-level keys"
    elif suffix in _CSS_SUFFIXES:
        parts, what = (_css_rules(old), _css_rules(payload)), "top-level rules"
    elif suffix in (".md", ".markdown", ".mdx", ".rst") and suffix != ".rst":
        parts, what = (_md_headings(old), _md_headings(payload)), "headings"
    if parts is not None and parts[0]:
        return _parts_whole(parts[0], parts[1], what, hint)
    whole, detail = lines_whole(old, payload)
    return OpaqueVerdict(whole, detail, hint)


def _data_whole(path: str, old: str, payload: str, prose: str) -> OpaqueVerdict | None:
    """A data block is the whole file only when it leaves out no key the file has in the
    mappings it restates, or the prose says each one it leaves out is removed; None when
    either side does not load as one mapping (then it is judged by its keys' lines)."""
    from kopipasta import data as data_formats
    from kopipasta.data.fragment import AliasesTooFar, left_out

    kind = data_formats.format_of(path)
    try:
        missing = left_out(kind, old, payload, file=path) if kind is not None else None
    except AliasesTooFar as too_far:  # whether it drops keys cannot be told: never the whole file
        return OpaqueVerdict(False, too_far.reason, _DATA_HINT)
    if missing is None:
        return None
    missing = list(not_said_removed(missing, prose))
    if not missing:
        return OpaqueVerdict(True)
    shown = ", ".join(f"'{p}'" for p in missing[:3]) + (", …" if len(missing) > 3 else "")
    return OpaqueVerdict(False, f"it leaves out {shown}", _DATA_HINT)


def _parts_whole(have: list[str], sent: list[str], what: str, hint: str) -> OpaqueVerdict:
    restated = [p for p in dict.fromkeys(have) if p in sent]
    missing = [p for p in dict.fromkeys(have) if p not in sent]
    unique = len(dict.fromkeys(have))
    if restated and len(missing) <= unique // 4:
        return OpaqueVerdict(True)
    if len(dict.fromkeys(sent)) >= unique and len(restated) * 2 >= unique:
        return OpaqueVerdict(True)  # a rewrite that renames some
    shown = ", ".join(f"'{p}'" for p in missing[:3]) + (", …" if len(missing) > 3 else "")
    return OpaqueVerdict(False, f"it restates {len(restated)} of the file's {unique} {what}, leaving out {shown}", hint)


def lines_whole(old: str, payload: str) -> tuple[bool, str]:
    """Judged by lines: the payload starts as the file does and holds half of it (or is as long)."""
    have = [line.strip() for line in old.splitlines() if line.strip()]
    sent = [line.strip() for line in payload.splitlines() if line.strip()]
    if not have:
        return True, ""
    if not sent:
        return False, "it is empty"
    if len(have) <= _TINY_FILE and len(sent) >= len(have):
        # One to three lines have no part to send alone: a block as long as the file is all of it.
        return True, ""
    pool: dict[str, int] = {}
    for line in sent:
        pool[line] = pool.get(line, 0) + 1
    kept = 0
    for line in have:
        if pool.get(line, 0) > 0:
            pool[line] -= 1
            kept += 1
    share = kept / len(have)
    if sent[0] == have[0] and (share >= 0.5 or len(sent) >= len(have)):
        return True, ""
    if share >= 0.8:
        return True, ""  # nearly every line restated: a new first line does not make it a part
    start = "starts as the file does" if sent[0] == have[0] else "does not start as the file does"
    return False, f"it {start} and holds {kept} of its {counted(len(have), 'line')}"


def _json_whole(old: str, payload: str, hint: str) -> OpaqueVerdict:
    try:
        have = json.loads(old)
    except ValueError:
        whole, detail = lines_whole(old, payload)
        return OpaqueVerdict(whole, detail, hint)
    try:
        sent = json.loads(payload)
    except ValueError as error:
        return OpaqueVerdict(False, f"it is not a complete JSON document ({error})", hint)
    if _json_kind(have) != _json_kind(sent):
        # A value whose directive line was lost (`// FILE: package.json` then `"^9.190.0"`): written,
        # the file would be that one value (issue 18, item 3). YAML and TOML refuse it by their keys.
        return OpaqueVerdict(False, f"it is {_json_kind(sent)}, and the file holds {_json_kind(have)}", hint)
    if isinstance(have, dict) and isinstance(sent, dict) and have:
        verdict = _parts_whole(list(have), list(sent), "top-level keys", hint)
        if not verdict.whole:
            return verdict
        return _json_nested_whole(have, sent, "", hint)
    return OpaqueVerdict(True)


def _json_kind(value: object) -> str:
    """What a JSON document's top level is, as a message says it."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "one string"
    if value is None:
        return "null"
    return "one boolean" if isinstance(value, bool) else "one number"


def _json_nested_whole(have: dict[str, object], sent: dict[str, object], where: str, hint: str) -> OpaqueVerdict:
    """An object restated with most of its keys missing is a part of it (`"dependencies": {"vite": …}`).

    One key of an object may go (a dependency removed on purpose), or one in four of a larger one.
    """
    for key, value in have.items():
        other = sent.get(key)
        if not (isinstance(value, dict) and isinstance(other, dict)) or len(value) < 2:
            continue
        path = f"{where}.{key}" if where else key
        missing = [k for k in value if k not in other]
        if len(missing) > max(1, len(value) // 4):
            shown = ", ".join(f"'{k}'" for k in missing[:3]) + (", …" if len(missing) > 3 else "")
            return OpaqueVerdict(False, f"its '{path}' leaves out {len(missing)} of {len(value)} keys: {shown}", hint)
        verdict = _json_nested_whole(value, other, path, hint)
        if not verdict.whole:
            return verdict
    return OpaqueVerdict(True)


def _yaml_keys(text: str) -> list[str]:
    keys: list[str] = []
    for line in text.splitlines():
        if line.startswith("---"):
            continue
        match = _YAML_KEY.match(line)
        if match:
            keys.append(match.group(1).strip("'\""))
    return keys


def _toml_keys(text: str) -> list[str]:
    keys: list[str] = []
    in_table = False
    multiline = False
    for line in text.splitlines():
        if line.count('"""') % 2 or line.count("'''") % 2:
            multiline = not multiline
        if multiline:
            continue
        table = _TOML_TABLE.match(line)
        if table:
            in_table = True
            keys.append("[" + table.group(1) + "]")
            continue
        key = _TOML_KEY.match(line)
        if key and not in_table:
            keys.append(key.group(1))
    return keys


def _css_rules(text: str) -> list[str]:
    """The prelude of every rule at depth 0: selectors, `@media …`; comments and strings skipped."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    rules: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                rules.append(" ".join(text[start:i].split()))
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                start = i + 1
        elif ch == ";" and depth == 0:
            statement = " ".join(text[start:i].split())
            if statement:
                rules.append(statement)  # `@import …;`, a SCSS variable
            start = i + 1
    return [r for r in rules if r]


def _md_headings(text: str) -> list[str]:
    headings: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        opened = _MD_FENCE.match(line)
        if opened:
            marker = opened.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
            continue
        if fence is None:
            heading = _MD_HEADING.match(line)
            if heading:
                headings.append(heading.group(2))
    return headings
