"""The accuracy of `kopipasta apply` on lazy edits, the snippets with placeholders real models write (issue 24).

For each shape of bench/lazy_shapes.py and each of eight languages (Python,
TypeScript/TSX, Rust, C++, Scala, Lua, Go, Java), a seeded sample of sites of
real files (bench/lazy_sites.py) is turned into replies; each is applied to a
scratch copy of its project by the real CLI (`python -m kopipasta apply --json
reply.md --root project`; `--engine` calls engine.apply_reply in this process,
as the test does) and judged:

- **applied**: the file holds exactly the intended bytes;
- **refused**: a non-zero exit, every file unchanged, for a case with intended
  bytes (a careful reader would have applied it);
- **by design**: the same, for a case built to be uncertain (only a refusal is right);
- **wrong**: anything else — other bytes, a write for a case that must be
  refused, another file changed, exit 0 with nothing written, a traceback.

    python bench/lazy_edits.py --table                 # language × shape table (Markdown), as in docs/accuracy.md
    python bench/lazy_edits.py --table --cases 5       # 5 cases per language and shape
    python bench/lazy_edits.py --shape tail --list     # each case: id, outcome, what the report said
    python bench/lazy_edits.py --case tail-go-1 --keep /tmp/x   # keep one case's reply and project

Nothing here is timed: speed is bench/bench.py's (row `lazy`).
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.lazy_shapes import SHAPES, SHAPES_BY_NAME, Shape
from bench.lazy_sites import LANGUAGES, Site, files_by_language, read_source

SEED = 20261129
CASES = 3  # per language and shape: 13 shapes x 8 languages x 3 = 312 cases at most
OUTCOMES = ("applied", "refused", "by design", "wrong")


@dataclass(frozen=True)
class Case:
    id: str  # shape-language-number, stable for a seed: the test's xfail lists name cases by it
    shape: str
    language: str
    site: Site
    reply: str
    intended: str | None

    @property
    def label(self) -> str:
        return f"{self.id}: {self.site.path} {self.site.kind} {self.site.name}"


@dataclass(frozen=True)
class Verdict:
    case: Case
    outcome: str  # one of OUTCOMES
    why: str  # the report's first message, or for a wrong outcome what happened
    diff: str = ""


def cases_for(shape: Shape, language: str, count: int, seed: int = SEED) -> list[Case]:
    """Up to `count` cases of one shape in one language, each on a seeded pick of file and site."""
    rng = random.Random(f"{seed}-{shape.name}-{language}")
    pool = list(files_by_language()[language])
    rng.shuffle(pool)
    sources = [source for source in (read_source(*item) for item in pool) if source is not None]
    found: list[Case] = []
    used: set[tuple[str, str]] = set()
    # Round-robin over the files so a sample spreads over several; a site is used once per shape.
    for _ in range(4):
        for source in sources:
            if len(found) == count:
                return found
            sites = [site for site in source.sites if (site.path, site.name) not in used]
            rng.shuffle(sites)
            for site in sites:
                reply = shape.write(site, source, rng)
                if reply is not None:
                    used.add((site.path, site.name))
                    number = len(found) + 1
                    found.append(Case(f"{shape.name}-{_slug(language)}-{number}", shape.name, language, site, reply.text, reply.intended))
                    break
    return found


def _slug(language: str) -> str:
    return {"ts/tsx": "ts", "c++": "cpp"}.get(language, language)


def all_cases(count: int = CASES, seed: int = SEED, shapes: list[str] | None = None) -> Iterator[Case]:
    for shape in SHAPES:
        if shapes is None or shape.name in shapes:
            for language in LANGUAGES:
                yield from cases_for(shape, language, count, seed)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".kopipasta" not in path.relative_to(root).parts
    }


def _run_cli(reply: Path, project: Path) -> tuple[int, str, str]:
    run = subprocess.run(
        [sys.executable, "-m", "kopipasta", "apply", "--json", str(reply), "--root", str(project)],
        capture_output=True, text=True, encoding="utf-8", stdin=subprocess.DEVNULL, timeout=120,
    )
    if "Traceback (most recent call last)" in run.stderr:
        return run.returncode, "", "a traceback reached the user: " + run.stderr.strip().splitlines()[-1]
    try:
        report = json.loads(run.stdout)
    except ValueError:
        return run.returncode, "", f"no JSON report on stdout, exit {run.returncode}: {run.stdout.strip()[:200]}"
    blocks = report.get("blocks") or []
    said = f"{blocks[0].get('status')}: {blocks[0].get('message') or ''}" if blocks else str(report.get("error") or "no blocks")
    return run.returncode, said[:300], ""


def _run_engine(reply: Path, project: Path) -> tuple[int, str, str]:
    from kopipasta.engine import apply_reply
    from kopipasta.report import exit_status

    try:
        report = apply_reply(reply.read_text(encoding="utf-8"), project)
    except Exception as error:  # a crash is a finding, reported as the case's wrong outcome
        return 1, "", f"the engine raised {type(error).__name__}: {error}"
    first = report.outcomes[0] if report.outcomes else None
    said = f"{first.status.value}: {first.message}" if first else report.reply_error or "no blocks"
    return exit_status(report), said[:300], ""


def judge(case: Case, scratch: Path, engine: bool = False) -> Verdict:
    """Apply the case's reply to a fresh project under `scratch`, and classify the outcome."""
    project = scratch / "project"
    target = project / case.site.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(case.site.text.encode("utf-8"))
    (project / "README.md").write_text("# project\n", encoding="utf-8")
    reply = scratch / "reply.md"
    reply.write_text(case.reply, encoding="utf-8")
    before = _snapshot(project)
    status, said, crash = (_run_engine if engine else _run_cli)(reply, project)
    after = _snapshot(project)
    if crash:
        return Verdict(case, "wrong", crash)
    if case.intended is not None and after == dict(before, **{case.site.path: case.intended.encode("utf-8")}):
        return Verdict(case, "applied", said)
    if after == before:
        if status == 0:
            return Verdict(case, "wrong", f"exit 0 with nothing written ({said})")
        return Verdict(case, "refused" if case.intended is not None else "by design", said)
    others = sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name) and name != case.site.path)
    if others:
        return Verdict(case, "wrong", f"changed what the reply did not mean: {', '.join(others)} ({said})")
    written = after.get(case.site.path, b"").decode("utf-8", "replace")
    what = "wrote a file the case must leave alone" if case.intended is None else "wrote bytes other than the intended ones"
    return Verdict(case, "wrong", f"{what}, exit {status} ({said})", _diff(case.intended or case.site.text, written))


def _diff(intended: str, written: str) -> str:
    lines = difflib.unified_diff(intended.splitlines(True), written.splitlines(True), "intended", "written", n=1)
    return "".join(list(lines)[:40])


def run_cases(cases: list[Case], keep: Path | None = None, engine: bool = False) -> list[Verdict]:
    verdicts = []
    with tempfile.TemporaryDirectory(prefix="lazy-") as temporary:
        base = keep or Path(temporary)
        for case in cases:
            scratch = base / case.id
            scratch.mkdir(parents=True)
            verdicts.append(judge(case, scratch, engine))
    return verdicts


def _cell(verdicts: list[Verdict]) -> str:
    """applied/cases, then what else happened: `2/3 r1`, `0/2 d2`, `1/3 r1 W1`; `—` for no case."""
    if not verdicts:
        return "—"
    counts = {outcome: sum(1 for v in verdicts if v.outcome == outcome) for outcome in OUTCOMES}
    cell = f"{counts['applied']}/{len(verdicts)}"
    for outcome, mark in (("refused", "r"), ("by design", "d"), ("wrong", "**W")):
        if counts[outcome]:
            cell += f" {mark}{counts[outcome]}" + ("**" if outcome == "wrong" else "")
    return cell


def table(verdicts: list[Verdict]) -> str:
    """Per shape (rows) and language (columns): applied/cases, r refused, d refused by design, W wrong."""
    languages = [language for language in LANGUAGES if any(v.case.language == language for v in verdicts)]
    rows = [
        "| shape | " + " | ".join(languages) + " | applied | refused | by design | wrong |",
        "|---|" + "---|" * (len(languages) + 4),
    ]
    totals = dict.fromkeys(OUTCOMES, 0)
    for shape in SHAPES:
        mine = [v for v in verdicts if v.case.shape == shape.name]
        if not mine:
            continue
        cells = [_cell([v for v in mine if v.case.language == language]) for language in languages]
        counts = [sum(1 for v in mine if v.outcome == outcome) for outcome in OUTCOMES]
        for outcome, count in zip(OUTCOMES, counts, strict=True):
            totals[outcome] += count
        rows.append(f"| {shape.name} | " + " | ".join(cells) + " | " + " | ".join(map(str, counts)) + " |")
    by_language = [_cell([v for v in verdicts if v.case.language == language]) for language in languages]
    rows.append("| all | " + " | ".join(by_language) + " | " + " | ".join(str(totals[o]) for o in OUTCOMES) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", action="store_true", help="print the language × shape table as Markdown")
    parser.add_argument("--cases", type=int, default=CASES, help="cases per language and shape")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES_BY_NAME), help="only this shape (repeatable)")
    parser.add_argument("--case", action="append", help="only the case with this id (repeatable)")
    parser.add_argument("--list", action="store_true", help="each case: id, outcome, what the report said")
    parser.add_argument("--diff", action="store_true", help="with --list: intended → written for each wrong case")
    parser.add_argument("--engine", action="store_true", help="apply through engine.apply_reply in this process, not the CLI")
    parser.add_argument("--keep", type=Path, help="keep each case's reply.md and project under this folder")
    options = parser.parse_args(argv)
    cases = list(all_cases(options.cases, options.seed, options.shape))
    if options.case:
        cases = [case for case in cases if case.id in options.case]
    verdicts = run_cases(cases, options.keep, options.engine)
    if options.list:
        for verdict in verdicts:
            print(f"{verdict.case.label} -> {verdict.outcome}: {verdict.why}")
            if options.diff and verdict.diff:
                print("  " + verdict.diff.replace("\n", "\n  ").rstrip())
    if options.table or not options.list:
        print(table(verdicts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
