"""Definitions as JavaScript and Ruby really write them, edited through replies written the way
models write them, over real files read at test time (issue 25).

- JavaScript's CommonJS definitions by assignment (`res.attachment = function …`,
  `View.prototype.lookup = function …`, `exports.compile = …`): the fixtures' .js/.cjs files,
  and npm's own bundled packages when npm is installed (express's style is most of npm's).
  Each definition is sent back with one new first statement: as the protocol names it
  (`TARGET_NODE: res.attachment`), named by the sentence above a bare block, and as a Cursor
  block with `// ... existing code ...` around it.
- Ruby methods inside a class inside a module (a gem's nesting): the fixtures' .rb files, and
  the Ruby standard library when Ruby is installed. Each method is sent back restated inside
  its whole nesting, without placeholders and with them.

The intended bytes are the file with that one line added. A reply applied must write exactly
them; a refusal must write nothing; anything else is a wrong write, and there must be none.
"""

from __future__ import annotations

import hashlib
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from kopipasta.code.read.inventory import definitions_of, target_names
from kopipasta.disk.workspace import source_from_bytes
from kopipasta.engine import apply_reply

REPO = Path(__file__).resolve().parent.parent
PER_SHAPE = 12  # cases per shape
SEED = 25


@dataclass(frozen=True)
class Case:
    shape: str
    path: str  # in the project
    original: str
    intended: str
    reply: str


def _distinct(paths: list[Path]) -> list[Path]:
    seen: set[str] = set()
    kept = []
    for path in sorted(paths):
        digest = hashlib.sha1(path.read_bytes()).hexdigest()
        if digest not in seen:
            seen.add(digest)
            kept.append(path)
    return kept


def _npm_packages() -> list[Path]:
    npm = shutil.which("npm")
    if npm is None:
        return []
    folder = Path(npm).resolve().parent.parent / "node_modules"
    return [p for p in folder.rglob("*.js") if p.is_file() and p.stat().st_size < 60_000][:400] if folder.is_dir() else []


def _ruby_library() -> list[Path]:
    ruby = shutil.which("ruby")
    if ruby is None:
        return []
    roots = [p for p in Path("/usr/lib/ruby").glob("[0-9]*") if p.is_dir()]
    return [p for root in roots for p in root.rglob("*.rb") if p.stat().st_size < 60_000][:400]


def _files(suffixes: tuple[str, ...], extra: list[Path]) -> list[tuple[str, Path]]:
    fixtures = [p for p in REPO.glob("fixtures/*/before/**/*") if p.is_file() and p.suffix in suffixes]
    found = []
    for path in _distinct(fixtures + extra):
        parts = path.relative_to(REPO).parts if path.is_relative_to(REPO) else ()
        relative = "/".join(parts[3:]) if parts[:1] == ("fixtures",) else f"lib/{path.parent.name}/{path.name}"
        found.append((relative, path))
    return found


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _sites(relative: str, text: str, want: str) -> list[tuple[str, int, int, list[str]]]:
    """(target name, first line, last line, containers' header lines) of each editable definition, 0-based."""
    if "\r" in text or "\t" in text or text.startswith("\ufeff"):
        return []
    source = source_from_bytes(relative, text.encode())
    try:
        definitions = definitions_of(source)
    except Exception:  # noqa: BLE001 - a file the tool cannot read is no site
        return []
    lines = text.split("\n")
    names = target_names(definitions, source)
    by_name = {d.qualified_name: d for d in definitions}
    sites = []
    for definition, name in zip(definitions, names, strict=True):
        first, last = definition.line - 1, definition.end_line - 1
        if "#" in name or last - first < 2 or last >= len(lines):
            continue
        header, body = lines[first], lines[first + 1]
        if not body.strip() or len(_indent(body)) <= len(_indent(header)):
            continue
        if want == "commonjs":
            if definition.kind not in ("function", "method") or "." not in name or _indent(header):
                continue
            if not header.rstrip().endswith("{") or " = " not in header:
                continue
            sites.append((name, first, last, []))
        else:
            if definition.kind != "method" or len(definition.scope) < 2 or not header.lstrip().startswith("def "):
                continue
            heads = []
            for depth in range(1, len(definition.scope) + 1):
                container = by_name.get(".".join(definition.scope[:depth]))
                if container is None or container.kind not in ("module", "class"):
                    break
                heads.append(lines[container.line - 1])
            if len(heads) == len(definition.scope):
                sites.append((name, first, last, heads))
    return sites


def _cases(shape_family: str, per_shape: int) -> list[Case]:
    if shape_family == "commonjs":
        files = _files((".js", ".cjs"), _npm_packages())
    else:
        files = _files((".rb",), _ruby_library())
    pool = []
    for relative, path in files:
        text = path.read_text(encoding="utf-8", errors="strict") if _utf8(path) else ""
        pool += [(relative, text, site) for site in _sites(relative, text, shape_family)]
    random.Random(SEED).shuffle(pool)
    cases = []
    shapes = ("protocol", "prose", "cursor") if shape_family == "commonjs" else ("nesting", "nesting-elided")
    for index, (relative, text, (name, first, last, heads)) in enumerate(pool[: per_shape * len(shapes)]):
        shape = shapes[index % len(shapes)]
        lines = text.split("\n")
        added = _indent(lines[first + 1]) + ('debug("kopipasta generated");' if shape_family == "commonjs" else 'log("kopipasta generated")')
        intended = "\n".join([*lines[: first + 1], added, *lines[first + 1 :]])
        payload = "\n".join([lines[first], added, *lines[first + 1 : last + 1]])
        cases.append(Case(f"{shape_family}/{shape}", relative, text, intended, _reply(shape, relative, name, payload, heads)))
    return cases


def _utf8(path: Path) -> bool:
    try:
        path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _reply(shape: str, path: str, name: str, payload: str, heads: list[str]) -> str:
    if shape == "protocol":
        return f"```javascript\n// FILE: {path}\n// TARGET_NODE: {name}\n{payload}\n```\n"
    if shape == "prose":
        return f"Replace `{name}` in `{path}` with:\n\n```javascript\n{payload}\n```\n"
    if shape == "cursor":
        return f"```javascript:{path}\n// ... existing code ...\n{payload}\n// ... existing code ...\n```\n"
    # Ruby: the method inside its whole nesting, as the file indents it.
    opened = list(heads)
    closing = [f"{_indent(head)}end" for head in reversed(heads)]
    if shape == "nesting-elided":
        marker = f"{_indent(payload.split(chr(10))[0])}# ... existing code ..."
        body = [marker, payload, marker]
    else:
        body = [payload]
    block = "\n".join([*opened, *body, *closing])
    return f"In `{path}`, the method `{name}` now logs first:\n\n```ruby\n{block}\n```\n"


def judge(case: Case, root: Path) -> str:
    target = root / case.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(case.original, encoding="utf-8")
    report = apply_reply(case.reply, root)
    written = target.read_text(encoding="utf-8")
    if written == case.intended:
        return "applied"
    if written == case.original and (report.failed or report.reply_error):
        return "refused"
    return "wrong"


@pytest.mark.parametrize("family", ["commonjs", "ruby"])
def test_definitions_as_the_language_writes_them_are_never_written_wrong(family: str, tmp_path: Path) -> None:
    cases = _cases(family, PER_SHAPE)
    assert len(cases) >= 5, f"too few {family} sites in the fixtures"
    verdicts: dict[str, list[str]] = {}
    wrong = []
    for number, case in enumerate(cases):
        verdict = judge(case, tmp_path / str(number))
        verdicts.setdefault(case.shape, []).append(verdict)
        if verdict != "applied":
            wrong.append(f"{verdict}: {case.shape} {case.path}\n{case.reply}")
    assert not [w for w in wrong if w.startswith("wrong")], "\n\n".join(wrong)
    assert not wrong, "refused though certain:\n\n" + "\n\n".join(wrong)
