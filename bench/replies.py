"""The accuracy of `kopipasta apply` on replies written the way editors and chat models write them.

For each shape of bench/reply_shapes.py, a seeded sample of sites of real files
(bench/reply_sites.py) is turned into replies; each is applied by the real CLI
(`python -m kopipasta apply --json reply.md --root project`) to a scratch copy
of its project and judged:

- **applied**: every file holds exactly the intended bytes;
- **refused**: the exit status is non-zero and every file is unchanged;
- **wrong**: anything else — a write that differs from the intended bytes, a
  file the reply did not mean changed or created, exit 0 with nothing written
  (the user was told it worked), or a traceback.

    python bench/replies.py --table              # the accuracy table (Markdown), as in docs/accuracy.md
    python bench/replies.py --table --cases 40   # a bigger sample per shape
    python bench/replies.py --shape cut-off --wrong      # each wrong case of one shape, and why
    python bench/replies.py --shape aider --keep /tmp/x  # keep each case's reply and project

Nothing here is timed: speed is bench/bench.py's.
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

from bench.reply_shapes import SHAPES, SHAPES_BY_NAME, Shape
from bench.reply_sites import Site, SourceFile, corpus_files, python_files, read_source

SEED = 20261127
CASES_PER_SHAPE = 7  # the default sample: 21 shapes x 7 = 147 cases
# Which language each case of a shape is drawn from, in turn: real Python (click, rich, jinja2)
# most often, then TypeScript/TSX, Go, Ruby and Rust files of the fixtures and corpora.
_LANGUAGE_TURNS = ((".py",), (".ts", ".tsx"), (".py",), (".go",), (".py",), (".rb",), (".rs",))


@dataclass(frozen=True)
class Case:
    shape: str
    site: Site
    reply: str
    intended: str | None

    @property
    def label(self) -> str:
        return f"{self.shape}: {self.site.path} {self.site.kind} {self.site.name}"


@dataclass(frozen=True)
class Verdict:
    case: Case
    outcome: str  # applied, refused or wrong
    why: str  # for a wrong outcome: what happened; else the report's first message
    diff: str = ""  # for bytes other than the intended ones: intended → written, cut short


def _files_by_suffix() -> dict[str, list[tuple[str, Path]]]:
    found: dict[str, list[tuple[str, Path]]] = {}
    for relative, path in python_files() + corpus_files():
        found.setdefault(path.suffix, []).append((relative, path))
    return found


def _fits(shape: Shape, site: Site) -> bool:
    if shape.members_only and not site.containers:
        return False
    return not (shape.top_level_only and site.containers)


def cases_for(shape: Shape, count: int, seed: int = SEED) -> list[Case]:
    """`count` cases of one shape, each on a seeded pick of file and site, languages in turn."""
    rng = random.Random(f"{seed}-{shape.name}")
    files = _files_by_suffix()
    found: list[Case] = []
    turn = 0
    dead: set[tuple[str, ...]] = set()
    while len(found) < count and len(dead) < len(_LANGUAGE_TURNS):
        suffixes = _LANGUAGE_TURNS[turn % len(_LANGUAGE_TURNS)]
        turn += 1
        if suffixes in dead:
            continue
        pool = [item for suffix in suffixes for item in files.get(suffix, [])]
        case = _one_case(shape, pool, rng)
        if case is None:
            dead.add(suffixes)
        else:
            found.append(case)
    return found


def _one_case(shape: Shape, pool: list[tuple[str, Path]], rng: random.Random) -> Case | None:
    # Every file of the pool in a seeded order, not a few random picks: a language is dropped
    # from the turns only when none of its files has a site the shape fits, so adding files
    # elsewhere (a fixture) cannot silently take a language out of a shape's sample.
    order = list(pool)
    rng.shuffle(order)
    for item in order:
        source: SourceFile | None = read_source(*item)
        if source is None:
            continue
        sites = [site for site in source.sites if _fits(shape, site)]
        if not sites:
            continue
        site = rng.choice(sites)
        reply = shape.write(site, source, rng)
        if reply is not None:
            return Case(shape.name, site, reply.text, reply.intended)
    return None


def all_cases(count: int = CASES_PER_SHAPE, seed: int = SEED, shapes: list[str] | None = None) -> Iterator[Case]:
    for shape in SHAPES:
        if shapes is None or shape.name in shapes:
            yield from cases_for(shape, count, seed)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and ".kopipasta" not in path.relative_to(root).parts
    }


def judge(case: Case, scratch: Path) -> Verdict:
    """Apply the case's reply with the real CLI to a fresh project under `scratch`, and classify it."""
    project = scratch / "project"
    target = project / case.site.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(case.site.text.encode("utf-8"))
    (project / "README.md").write_text("# project\n", encoding="utf-8")
    reply = scratch / "reply.md"
    reply.write_text(case.reply, encoding="utf-8")
    before = _snapshot(project)
    run = subprocess.run(
        [sys.executable, "-m", "kopipasta", "apply", "--json", str(reply), "--root", str(project)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    after = _snapshot(project)
    said = _first_message(run.stdout)
    if "Traceback (most recent call last)" in run.stderr:
        return Verdict(case, "wrong", "a traceback reached the user: " + run.stderr.strip().splitlines()[-1])
    if said is None:
        return Verdict(case, "wrong", f"no JSON report on stdout, exit {run.returncode}: {run.stdout.strip()[:200]}")
    if case.intended is not None:
        intended = dict(before, **{case.site.path: case.intended.encode("utf-8")})
        if after == intended:
            return Verdict(case, "applied", said)
    if after == before:
        if run.returncode != 0:
            return Verdict(case, "refused", said)
        return Verdict(case, "wrong", f"exit 0 with nothing written ({said})")
    changed = sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))
    meant = [case.site.path] if case.intended is not None else []
    others = [name for name in changed if name not in meant]
    if others:
        return Verdict(case, "wrong", f"changed what the reply did not mean: {', '.join(others)} ({said})")
    written = after.get(case.site.path, b"").decode("utf-8", "replace")
    return Verdict(
        case,
        "wrong",
        f"wrote bytes other than the intended ones, exit {run.returncode} ({said})",
        _diff(case.intended or case.site.text, written),
    )


def _diff(intended: str, written: str) -> str:
    lines = difflib.unified_diff(intended.splitlines(True), written.splitlines(True), "intended", "written", n=1)
    return "".join(list(lines)[:40])


def _first_message(stdout: str) -> str | None:
    """The report's status and message of its first block, for the record; None if it is not JSON."""
    try:
        report = json.loads(stdout)
    except ValueError:
        return None
    blocks = report.get("blocks") or []
    if not blocks:
        return str(report.get("error") or "no blocks")[:200]
    first = blocks[0]
    return f"{first.get('status')}: {first.get('message') or ''}"[:300]


def run_cases(cases: list[Case], keep: Path | None = None) -> list[Verdict]:
    verdicts = []
    with tempfile.TemporaryDirectory(prefix="replies-") as temporary:
        base = keep or Path(temporary)
        for number, case in enumerate(cases):
            scratch = base / f"{number:03d}-{case.shape}"
            scratch.mkdir(parents=True)
            verdicts.append(judge(case, scratch))
    return verdicts


def table(verdicts: list[Verdict]) -> str:
    """The accuracy table: per shape, how many replies were applied, refused, written wrong."""
    rows = ["| shape | how it is written | cases | applied | refused | wrong |", "|---|---|---|---|---|---|"]
    totals = {"applied": 0, "refused": 0, "wrong": 0}
    for shape in SHAPES:
        mine = [v for v in verdicts if v.case.shape == shape.name]
        if not mine:
            continue
        counts = {outcome: sum(1 for v in mine if v.outcome == outcome) for outcome in totals}
        for outcome, count in counts.items():
            totals[outcome] += count
        languages = sorted({v.case.site.suffix.lstrip(".") for v in mine})
        rows.append(
            f"| {shape.name} ({', '.join(languages)}) | {shape.how} | {len(mine)} | {counts['applied']} "
            f"| {counts['refused']} | {counts['wrong']} |"
        )
    rows.append(f"| all | | {len(verdicts)} | {totals['applied']} | {totals['refused']} | {totals['wrong']} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", action="store_true", help="print the accuracy table as Markdown")
    parser.add_argument("--cases", type=int, default=CASES_PER_SHAPE, help="cases per shape")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES_BY_NAME), help="only this shape (repeatable)")
    parser.add_argument("--wrong", action="store_true", help="list each wrong case and what happened")
    parser.add_argument("--diff", action="store_true", help="with --wrong: the intended bytes → the written ones")
    parser.add_argument("--keep", type=Path, help="keep each case's reply.md and project under this folder")
    options = parser.parse_args(argv)
    cases = list(all_cases(options.cases, options.seed, options.shape))
    verdicts = run_cases(cases, options.keep)
    if options.table or not options.wrong:
        print(table(verdicts))
    if options.wrong:
        for verdict in verdicts:
            if verdict.outcome == "wrong":
                print(f"- {verdict.case.label}: {verdict.why}")
                if options.diff and verdict.diff:
                    print("  " + verdict.diff.replace("\n", "\n  ").rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
