"""Never gut a file (PROTOCOL.md §6): a fragment or an elided payload changes what it restates, nothing else.

Seeded random cases on real files — every code file of the fixtures, and
large real modules (click's core.py, rich's console.py and others from the
installed dependencies): a random subset of a file's top-level definitions,
each changed (a marker comment put inside it), is sent as a fragment (the
changed definitions only) and as an elided file block (placeholders for
everything else). The file must end up exactly the original with those
definitions changed — every other byte kept — or the block must fail with
the file untouched. Never a shorter file, never a guess.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from kopipasta.code.find.definitions import Definition, list_definitions
from kopipasta.code.find.document import Document, in_memory
from kopipasta.code.read.embedded import code_view
from kopipasta.code.read.members import members
from kopipasta.code.read.parsed import read_file
from kopipasta.engine import apply_reply
from kopipasta.model import Status
from kopipasta.syntax.languages import language_for_path, parse

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SEED = 20261126
CASES_PER_FILE = 4  # per file and per form; large files get more
CLASS_CASES = 2  # per class with two methods or more
LARGE_CASES = 12


def _large_files() -> list[Path]:
    import click
    import jinja2
    import rich

    candidates = [
        Path(click.__file__).parent / "core.py",
        Path(rich.__file__).parent / "console.py",
        Path(jinja2.__file__).parent / "environment.py",
    ]
    return [p for p in candidates if p.is_file()]


def _fixture_files() -> list[Path]:
    files = []
    for path in sorted(FIXTURES.glob("*/before/**/*")):
        if path.is_file() and language_for_path(path.name) is not None and not path.name.endswith(".d.ts"):
            files.append(path)
    return files


@dataclass(frozen=True)
class _Candidate:
    definition: Definition
    first: int  # 0-based line where the sent text starts (decorators, export)
    last: int
    header: int  # the line holding the definition's keyword: the marker goes after it


def _candidates(text: str, path: Path) -> tuple[list[str], list[_Candidate], int] | None:
    spec = language_for_path(path.name)
    assert spec is not None
    data = text.encode("utf-8")
    if spec.embedding is not None:
        # A Vue/Svelte component: its <script>, at the file's own offsets and lines (embedded.py).
        view = code_view(spec, data)
        if view is None:
            return None
        spec, data = view.spec, view.data
    tree = parse(spec, data)
    if tree.root_node.has_error:
        return None
    definitions = list_definitions(spec, tree)
    lines = text.split("\n")
    names = [d.name for d in definitions]
    found = []
    for d in definitions:
        if d.scope or names.count(d.name) != 1:
            continue  # a name defined twice fails by design; tested by the fixtures
        if data[data.rfind(b"\n", 0, d.outer_start) + 1 : d.outer_start]:
            continue  # inside an `if` or `with` at module level: not a member of the module
        first = data.count(b"\n", 0, d.outer_start)
        header = data.count(b"\n", 0, d.start)
        last = data.count(b"\n", 0, d.end)
        line_start = data.rfind(b"\n", 0, d.outer_start) + 1
        if last <= header or data[line_start : d.outer_start].strip():
            continue  # one-liners have no inside to mark; a definition after other code on its line
        if data[d.end : data.find(b"\n", d.end) if data.find(b"\n", d.end) >= 0 else len(data)].strip(b" \t;,\r"):
            continue  # code after it on its last line
        found.append(_Candidate(d, first, last, header))
    return lines, found, sum(1 for d in definitions if not d.scope)


def _marker(path: Path, number: int) -> str:
    comment = "#" if path.suffix in (".py", ".pyi") else "//"
    return f"{comment} kopipasta-marker {number}"


def _changed(lines: list[str], chosen: list[_Candidate], path: Path) -> tuple[list[str], dict[int, str]]:
    """The file with a marker line after each chosen definition's header line; the inserted lines."""
    inserted: dict[int, str] = {}
    for number, candidate in enumerate(chosen):
        following = lines[candidate.header + 1]
        indent = following[: len(following) - len(following.lstrip())]
        inserted[candidate.header] = indent + _marker(path, number)
    out: list[str] = []
    for row, line in enumerate(lines):
        out.append(line)
        if row in inserted:
            out.append(inserted[row])
    return out, inserted


def _definition_text(lines: list[str], candidate: _Candidate, inserted: dict[int, str]) -> list[str]:
    out = []
    for row in range(candidate.first, candidate.last + 1):
        out.append(lines[row])
        if row in inserted:
            out.append(inserted[row])
    return out


def _fragment(lines: list[str], chosen: list[_Candidate], inserted: dict[int, str]) -> str:
    parts = ["\n".join(_definition_text(lines, c, inserted)) for c in chosen]
    return "\n\n\n".join(parts)


def _elided(lines: list[str], chosen: list[_Candidate], inserted: dict[int, str], path: Path) -> str:
    """The file with every run of lines outside the chosen definitions replaced by one placeholder."""
    comment = "#" if path.suffix in (".py", ".pyi") else "//"
    placeholder = f"{comment} ... existing code ..."
    out: list[str] = []
    row = 0
    for candidate in sorted(chosen, key=lambda c: c.first):
        if any(line.strip() for line in lines[row : candidate.first]):
            out += [placeholder, ""]
        out += _definition_text(lines, candidate, inserted) + [""]
        row = candidate.last + 1
    if any(line.strip() for line in lines[row:]):
        out.append(placeholder)
    return "\n".join(out)


def _reply(path: str, payload: str, fence: str) -> str:
    return f"Here is the change:\n\n````{fence}\n{'#' if fence == 'python' else '//'} FILE: {path}\n{payload}\n````\n"


def _fence(path: Path) -> str:
    return {"py": "python", "pyi": "python", "ts": "ts", "tsx": "tsx", "js": "js", "jsx": "jsx"}.get(
        path.suffix.lstrip("."), "text"
    )


@dataclass
class _Tally:
    applied: int = 0
    failed: int = 0
    roots: int = 0


def _run_cases(path: Path, cases: int, rng: random.Random, tmp_path: Path, tally: _Tally) -> None:
    text = path.read_text(encoding="utf-8")
    if "\r" in text or text.startswith("\ufeff"):
        return
    read = _candidates(text, path)
    if read is None:
        return
    lines, candidates, top_level = read
    # Sending every definition of a file is the whole file (docs/decisions/code.md): not a fragment.
    most = min(3, len(candidates), top_level - 1)
    if most < 1:
        return
    name = "src/" + path.name
    for case in range(cases):
        k = rng.randint(1, most)
        chosen = sorted(rng.sample(candidates, k), key=lambda c: c.first)
        expected_lines, inserted = _changed(lines, chosen, path)
        expected = "\n".join(expected_lines)
        for form in ("fragment", "elided"):
            payload = _fragment(lines, chosen, inserted) if form == "fragment" else _elided(lines, chosen, inserted, path)
            where = f"{path} case {case} ({form}, {[c.definition.name for c in chosen]})"
            _check(tmp_path, tally, name, text, _reply(name, payload, _fence(path)), expected, where)


def _check(tmp_path: Path, tally: _Tally, name: str, text: str, reply: str, expected: str, where: str) -> None:
    """Apply the reply to a fresh copy: exactly `expected`, or a failure that wrote nothing."""
    tally.roots += 1
    root = tmp_path / str(tally.roots)
    target = root / name
    target.parent.mkdir(parents=True)
    target.write_text(text, encoding="utf-8")
    report = apply_reply(reply, root)
    after = target.read_text(encoding="utf-8")
    outcome = report.outcomes[0]
    if outcome.status is Status.FAILED:
        assert after == text, f"{where}: failed but wrote"
        assert outcome.message, where
        tally.failed += 1
        return
    assert outcome.status is Status.APPLIED, f"{where}: {outcome.status} {outcome.message}"
    assert after == expected, f"{where}: {outcome.reading} {outcome.message}\n" + _diff(expected, after)
    tally.applied += 1


def _class_cases(path: Path, cases: int, rng: random.Random, tmp_path: Path, tally: _Tally) -> None:
    """A class under TARGET_NODE, some of its methods changed and the rest elided (§6.3)."""
    text = path.read_text(encoding="utf-8")
    if "\r" in text or text.startswith("\ufeff"):
        return
    spec = language_for_path(path.name)
    assert spec is not None
    data = text.encode("utf-8")
    if spec.embedding is not None:
        view = code_view(spec, data)  # a Vue/Svelte component: its <script> (embedded.py)
        if view is None:
            return
        spec, data = view.spec, view.data
    tree = parse(spec, data)
    if tree.root_node.has_error:
        return
    parsed = read_file(Document(in_memory(spec, data).source, spec, tree=tree))
    lines = text.split("\n")
    names = [d.name for d in parsed.definitions]
    name = "src/" + path.name
    comment = "#" if spec.grammar == "python" else "//"
    for cls in parsed.definitions:
        if cls.scope or cls.kind != "class" or names.count(cls.name) != 1:
            continue
        items = members(parsed, cls) or []
        methods = [
            m
            for m in items
            if m.definition is not None
            and m.definition.kind == "method"
            and names.count(m.definition.name) == 1
            and data.count(b"\n", 0, m.definition.start) < data.count(b"\n", 0, m.definition.end)
            and not data[data.rfind(b"\n", 0, m.start) + 1 : m.start].strip()
        ]
        if len(methods) < 2 or items[0].first_row <= data.count(b"\n", 0, cls.start):
            continue
        for case in range(cases):
            chosen = sorted(rng.sample(methods, rng.randint(1, min(3, len(methods) - 1))), key=lambda m: m.first_row)
            inserted: dict[int, str] = {}
            for number, member in enumerate(chosen):
                assert member.definition is not None
                header = data.count(b"\n", 0, member.definition.start)
                following = lines[header + 1]
                inserted[header] = following[: len(following) - len(following.lstrip())] + _marker(path, number)
            expected = "\n".join(line for row, line in enumerate(lines) for line in [line, inserted.get(row)] if line is not None)
            first = data.count(b"\n", 0, cls.outer_start)
            last = data.count(b"\n", 0, cls.end)
            out = lines[first : items[0].first_row]
            row = items[0].first_row
            indent = lines[items[0].first_row][: len(lines[items[0].first_row]) - len(lines[items[0].first_row].lstrip())]
            for member in chosen:
                if any(line.strip() for line in lines[row : member.first_row]):
                    out += [indent + comment + " ... existing code ...", ""]
                for r in range(member.first_row, member.last_row + 1):
                    out.append(lines[r])
                    if r in inserted:
                        out.append(inserted[r])
                out.append("")
                row = member.last_row + 1
            if any(line.strip() for line in lines[row:last]) and row <= items[-1].last_row:
                out.append(indent + comment + " ... existing code ...")
            out += [line for line in lines[max(row, items[-1].last_row + 1) : last + 1]]
            payload = "\n".join(out)
            reply = _reply(name, payload, _fence(path)).replace(
                f"FILE: {name}\n", f"FILE: {name}\n{comment} TARGET_NODE: class {cls.name}\n"
            )
            where = f"{path} class {cls.name} case {case} ({[m.definition.name for m in chosen if m.definition]})"
            _check(tmp_path, tally, name, text, reply, expected, where)


def _diff(expected: str, actual: str) -> str:
    import difflib

    return "".join(
        list(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "expected", "actual"))[:60]
    )


TALLY = _Tally()


@pytest.mark.parametrize("group", ["fixtures", "large"])
def test_subsets_of_definitions_change_only_themselves(group: str, tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-{group}")
    tally = _Tally()
    if group == "fixtures":
        for path in _fixture_files():
            _run_cases(path, CASES_PER_FILE, rng, tmp_path, tally)
            _class_cases(path, CLASS_CASES, rng, tmp_path, tally)
    else:
        for path in _large_files():
            _run_cases(path, LARGE_CASES, rng, tmp_path, tally)
            _class_cases(path, CLASS_CASES, rng, tmp_path, tally)
    total = tally.applied + tally.failed
    print(f"{group}: {total} cases, {tally.applied} applied exactly, {tally.failed} refused")
    assert total > 0
    # Refusals are allowed only where the mapping is not certain; most cases must land.
    assert tally.applied >= total * 0.8, f"{tally.failed} of {total} refused"
