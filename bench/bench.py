"""Whole-process timings of kopipasta, as ratios to tools timed in the same rounds.

    python bench/bench.py                      # every row, --repeat 5
    python bench/bench.py --repeat 9           # more rounds, steadier medians
    python bench/bench.py --only a py100k mem  # some rows (a key, or text in the label)
    python bench/bench.py --original /tmp/orig/bin/python   # also pair the original kopipasta
    python bench/bench.py --checkout ../base   # time another checkout (a git worktree) with this bench
    python bench/bench.py --in-place -k a      # time this interpreter's kopipasta (see below)

What is timed: the checkout installed as people install it (`pip install .`, not
editable) into a venv the bench makes for the run (bench/install.py); every tool
but ast-grep and the original runs on that venv's interpreter. `--in-place` times
the running interpreter's kopipasta instead: quicker to start, but in an editable
install `site` runs the editable finder in every process, which raises the import
floors and flatters every ratio (a one-block apply: 3.1× instead of 3.9×).

What is measured: each command's CPU time (user + system, from `wait4`, so a
child's own children count) and wall time, over whole processes. Shared
machines are noisy, so every row runs in rounds: each round runs our command
and every comparator once, one after another, and each ratio is taken within
its round; the row reports the median ratio (and each tool's median CPU time
in brackets). Ratios hold when the machine's load drifts; absolute times do
not. Each tool works in its own copy of the scratch project, restored before
every run (untimed), and is checked after every run: ours must leave exactly
the bytes the row's edits compute, the comparators the same bytes, `nodes` and
`prompt` must print the names and files asked for. A tool that does not do the
work stops the bench with the reason. Runs use Python's bytecode cache, after
one untimed warm-up run of each tool.

Comparators (see bench/tools.py):
  import ts  `python -c "import tree_sitter"`, the floor any Tree-sitter tool in Python pays
  click+ts   `python -c "import click, tree_sitter"`, the floor a click CLI on Tree-sitter pays:
             the stack's own start-up, so ours ÷ it is what our code adds (issue 9's
             goals are against `import ts`; this column says how much of a gap is click's)
  no CLI     bench/without_cli.py: the same apply through the engine, the report printed,
             without click (an apply row's own command-line cost; not a goal)
  bare       bench/bare_splice.py: import, parse, find the definition at a known offset,
             splice, tree.edit + incremental reparse, syntax check, atomic write
  ast-grep   `ast-grep scan --rule R --update-all FILE…` (Rust), when installed:
             `pip install ast-grep-cli` (the `bench` extra); Debian's `sg` is not it
  original   the original kopipasta 0.70.0 with `--original PYTHON`: its non-interactive
             `kopipasta apply REPLY --json --dirty-ok`, given the same edits as
             search/replace blocks (or the same diff)
  orig patcher  the same reply through its patch functions only (`parse_llm_output` +
             `apply_patches` in a `python -c` script): the original without its CLI's
             imports. It has its own venv, since it shares our package name:
                 python -m venv /tmp/orig && /tmp/orig/bin/pip install kopipasta==0.70.0
                 python bench/bench.py --original /tmp/orig/bin/python
  parse      bench/bare_parse.py: import, parse, exit (the peak-memory floor)
  TARGET_NODE  ours on a `TARGET_NODE` block for one of the same functions on the same file
             (row `lazy`, issue 24: a lazy snippet's merge against the plainest reply)

Rows a–e are the scenarios the README's history quotes (issue 2); the others
are issue 9's: real code (click's formatting.py, a React layout), the scaling
rows on real Python (click + rich concatenated), a row per kind of input, the
read-only commands, and peak memory on 100k lines. Each goal of issue 9 is
printed beside its row, met or not met.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as `python bench/bench.py`: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scenarios as sc  # noqa: E402
from bench import tools  # noqa: E402
from bench.install import CHECKOUT, installed_python  # noqa: E402
from bench.timing import Run, Tool, measure_paired, median_ratio  # noqa: E402

IMPORT, STACK, NO_CLI, BARE, AST_GREP, ORIGINAL, PATCHER, PARSE, TARGET_NODE = (
    "import", "stack", "no-cli", "bare", "ast-grep", "original", "patcher", "parse", "target-node"
)
# Goals that are bounds, not ratios (issue 28): our median CPU seconds, our median peak MiB.
SECONDS, PEAK_MIB = "seconds", "peak-mib"
COLUMNS = (IMPORT, STACK, NO_CLI, BARE, AST_GREP, ORIGINAL, PATCHER)
HEADINGS = {
    IMPORT: "÷ import ts", STACK: "÷ click+ts", NO_CLI: "÷ no CLI", BARE: "÷ bare", AST_GREP: "÷ ast-grep", ORIGINAL: "÷ original",
    PATCHER: "÷ orig patcher", PARSE: "÷ bare parse", TARGET_NODE: "÷ TARGET_NODE",
    SECONDS: "s CPU", PEAK_MIB: "MiB peak",
}


def cpu(run: Run) -> float:
    return run.cpu


def rss(run: Run) -> float:
    return float(run.max_rss_kib)


@dataclass(frozen=True)
class Goal:
    """Ours ÷ `versus` at most `limit` (CPU time; peak memory in a memory row); with `versus`
    SECONDS or PEAK_MIB, our own median CPU seconds or peak MiB at most `limit`."""

    versus: str
    limit: float


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    build: Callable[[], sc.Scenario]
    comparators: tuple[str, ...] = ()
    goals: tuple[Goal, ...] = ()
    memory: bool = False  # report peak memory against `parse` instead of time


SMALL = (Goal(IMPORT, 2.5),)
BIG = (Goal(AST_GREP, 1.0), Goal(BARE, 1.3))
READ_ONLY = (Goal(IMPORT, 3.0),)

ROWS = (
    Row("a", "1 block, 300-line .py (generated)", sc.scenario_a, (BARE, AST_GREP, ORIGINAL, PATCHER)),
    Row("b", "50 blocks over 20 files (.py, .ts)", sc.scenario_b, (AST_GREP, ORIGINAL, PATCHER), (Goal(ORIGINAL, 1.0), Goal(PATCHER, 1.0), Goal(IMPORT, 4.0))),
    Row("c", "1 block, 20k-line .py (generated)", sc.scenario_c, (BARE, AST_GREP, ORIGINAL, PATCHER)),
    Row("d", "1 block, 300-line .go (generated)", sc.scenario_d, (BARE, AST_GREP, ORIGINAL, PATCHER)),
    Row("e", "1 block, 20k-line .go (generated)", sc.scenario_e, (BARE, AST_GREP, ORIGINAL, PATCHER)),
    Row("py320", "1 block, click formatting.py (320 lines)", sc.click_function, (BARE, AST_GREP, ORIGINAL, PATCHER), SMALL),
    Row("tsx", "1 block, React layout .tsx (258 lines)", sc.react_component, (BARE, AST_GREP, ORIGINAL, PATCHER), SMALL),
    Row("py1k", "1 block, 1k-line .py (click + rich)", sc.big_python(1_000), (BARE, AST_GREP, ORIGINAL, PATCHER)),
    Row("py5k", "1 block, 5k-line .py (click + rich)", sc.big_python(5_000), (BARE, AST_GREP, ORIGINAL, PATCHER)),
    Row("py20k", "1 block, 20k-line .py (click + rich)", sc.big_python(20_000), (BARE, AST_GREP, ORIGINAL, PATCHER), BIG),
    Row("py100k", "1 block, 100k-line .py (click + rich)", sc.big_python(100_000), (BARE, AST_GREP, ORIGINAL, PATCHER), BIG),
    Row("ins20k", "INSERT_AFTER a method, 20k-line .py", sc.big_python_insert(20_000), (BARE, ORIGINAL, PATCHER), (Goal(BARE, 1.3),)),
    Row("diff", "unified diff, formatting.py", sc.unified_diff, (ORIGINAL, PATCHER)),
    Row("sr", "search/replace, formatting.py", sc.search_replace, (ORIGINAL, PATCHER)),
    Row("fragment", "fragment (no target), formatting.py", sc.fragment, (ORIGINAL, PATCHER)),
    Row("rust", "1 block, 300-line .rs (generated)", sc.rust_method, (BARE, AST_GREP, ORIGINAL, PATCHER)),
    Row("nodes", "nodes on 5 files", sc.nodes_five, (), READ_ONLY),
    Row("prompt", "prompt --stdout on 5 files", sc.prompt_five, (), READ_ONLY),
    Row("alias", "YAML alias bomb, TARGET_PATH (refused)", sc.alias_bomb, (), (Goal(IMPORT, 6.0),)),
    Row("hunks600", "600 one-line hunks, repeated lines", sc.six_hundred_hunks, (), (Goal(IMPORT, 8.0),)),
    Row("list20k", "YAML fragment restating a 20k-item list", sc.restated_yaml_list, (), (Goal(SECONDS, 1.0),)),
    Row("json20k", "JSON fragment restating a 20k-item list", sc.restated_json_list, (), (Goal(SECONDS, 1.0),)),
    Row("nearmiss", "near-miss SEARCH, 5k lines on 50k (refused)", sc.near_miss_search, (), (Goal(SECONDS, 2.0),)),
    Row("lazy", "lazy snippet: 200 lines, 6 runs, 2k .py", sc.lazy_six_runs, (TARGET_NODE,), (Goal(TARGET_NODE, 1.5),)),
    Row("mem100k", "peak memory, 100k-line .py (MiB)", sc.big_python(100_000), (PARSE, AST_GREP), (Goal(PARSE, 1.2),), memory=True),
    Row("mem7mb", "peak memory, 7 MB TARGET_NODE payload (refused)", sc.seven_mb_payload, (), (Goal(PEAK_MIB, 400),), memory=True),
)


def protocol_tokens_row() -> str:
    """The prompt's reply-format part for the demo's three files (Python, TSX, JSON), in tokens (~4 chars each)."""
    from kopipasta.loop.prompt import (
        PROTOCOL_TOKEN_LIMIT,
        estimate_tokens,
        protocol_part,
        render_prompt,
    )

    demo = Path(__file__).resolve().parent.parent / "kopipasta" / "loop" / "demo" / "project"
    files = ["app/cart.py", "src/components/DataTable.tsx", "package.json"]
    text = render_prompt(files, task="Make TableBody sortable by column", root=demo)
    tokens = estimate_tokens(protocol_part(text))
    return f"prompt reply-format part, 3 files (demo): {tokens} tokens (limit {PROTOCOL_TOKEN_LIMIT})"


@dataclass(frozen=True)
class Options:
    repeat: int
    ast_grep: str | None
    original: str | None
    json_report: bool
    python: str  # the interpreter every tool but ast-grep and the original runs on


def comparator(name: str, scenario: sc.Scenario, scratch: Path, options: Options) -> Tool | None:
    if name == BARE:
        return tools.bare_splice(scenario, scratch, options.python)
    if name == AST_GREP:
        return tools.ast_grep(scenario, scratch, options.ast_grep)
    if name == ORIGINAL:
        return tools.original(scenario, scratch, options.original)
    if name == PATCHER:
        return tools.original_patcher(scenario, scratch, options.original)
    if name == PARSE:
        return tools.bare_parse(scenario, scratch, options.python)
    if name == TARGET_NODE:
        return tools.target_node(scenario, scratch, options.python, options.json_report)
    raise ValueError(name)


def verdict(goal: Goal, ratios: dict[str, float]) -> str:
    ratio = ratios.get(goal.versus)
    if goal.versus in (SECONDS, PEAK_MIB):  # a bound on our own figure
        unit = HEADINGS[goal.versus]
        return f"≤{goal.limit:g} {unit}: {ratio:.2f} {'met' if ratio is not None and ratio <= goal.limit else 'NOT MET'}"
    name = HEADINGS[goal.versus].removeprefix("÷ ")
    if ratio is None:
        return f"≤{goal.limit:g}× {name}: n/a"
    shown = "" if goal.versus in COLUMNS else f" {ratio:.2f}×"  # no column of its own: the ratio here
    return f"≤{goal.limit:g}× {name}:{shown} {'met' if ratio <= goal.limit else 'NOT MET'}"


def run_row(row: Row, scratch: Path, options: Options) -> str:
    scenario = row.build()
    mine = tools.ours(scenario, scratch, options.python, options.json_report)
    floors = {IMPORT: "tree_sitter", STACK: "click, tree_sitter"}
    others = {name: tools.import_floor(scratch, options.python, modules) for name, modules in floors.items()} if not row.memory else {}
    engine = tools.without_cli(scenario, scratch, options.python) if not row.memory else None
    if engine is not None:
        others[NO_CLI] = engine
    for name in row.comparators:
        tool = comparator(name, scenario, scratch, options)
        if tool is not None:
            others[name] = tool
    measure_paired([mine, *others.values()], options.repeat)
    if row.memory:
        ratios = {name: median_ratio(mine, tool, rss) for name, tool in others.items()}
        cells = [f"{HEADINGS[name]} {ratios[name]:.2f}× ({tool.median(rss) / 1024:.0f})" for name, tool in others.items()]
        mine_cell = f"{mine.median(rss) / 1024:7.0f} MiB        "
    else:
        ratios = {name: median_ratio(mine, tool) for name, tool in others.items()}
        cells = []
        for name in COLUMNS:
            tool = others.get(name)
            cells.append(f"{ratios[name]:6.2f}× ({tool.median(cpu) * 1000:5.0f})" if tool else f"{'—':>15}")
        mine_cell = f"{mine.median(cpu) * 1000:7.0f} {mine.median(lambda run: run.wall) * 1000:7.0f}"
    ratios[SECONDS] = mine.median(cpu)
    ratios[PEAK_MIB] = mine.median(rss) / 1024
    goals = "; ".join(verdict(goal, ratios) for goal in row.goals)
    return f"{row.key:<8} {row.label:<41} {mine_cell}  {'  '.join(cells)}  {goals}"


def selected(rows: tuple[Row, ...], only: list[str] | None) -> list[Row]:
    if not only:
        return list(rows)
    keys = {row.key for row in rows}
    return [
        row for row in rows
        if any(word == row.key if word in keys else word in row.label for word in only)
    ]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {os.cpu_count()} cores)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5, help="rounds per row; medians over them (default 5)")
    parser.add_argument("--only", "-k", nargs="+", metavar="ROW", help="run only these rows: a key (a, py100k, mem100k) or text in the label")
    parser.add_argument("--original", metavar="PYTHON", help="the interpreter of a venv holding the original kopipasta==0.70.0")
    parser.add_argument("--no-ast-grep", action="store_true", help="do not pair ast-grep even when it is installed")
    parser.add_argument("--json", action="store_true", help="run our apply with --json (default: the report a pipe gets)")
    parser.add_argument("--in-place", action="store_true", help="time this interpreter's kopipasta, not a fresh non-editable install of the checkout")
    parser.add_argument("--checkout", type=Path, default=CHECKOUT, help="the checkout to install and time (default: this one)")
    parser.add_argument("--list", action="store_true", help="list the rows and exit")
    args = parser.parse_args()
    rows = selected(ROWS, args.only)
    if args.list or not rows:
        for row in ROWS:
            print(f"{row.key:<9} {row.label}")
        sys.exit(0 if args.list else 2)

    if not args.in_place and os.environ.get("PYTHONPATH"):
        sys.exit("PYTHONPATH is set: it would put another kopipasta before the installed one; use --checkout DIR or --in-place")
    with tempfile.TemporaryDirectory(prefix="kopipasta-bench-") as tmp:
        python = sys.executable if args.in_place else installed_python(Path(tmp) / "venv", args.checkout.resolve())
        options = Options(args.repeat, None if args.no_ast_grep else tools.find_ast_grep(), args.original, args.json, python)
        print(f"load at start: {load()}")
        print(protocol_tokens_row())
        print(f"kopipasta: {'this interpreter in place (' + python + ')' if args.in_place else f'{args.checkout.resolve()} installed in a fresh venv'}; "
              f"ast-grep: {options.ast_grep or 'not installed (pip install ast-grep-cli)'}; "
              f"original: {options.original or 'not paired (--original PYTHON)'}; "
              f"{args.repeat} rounds per row; CPU ms medians in brackets")
        header = "  ".join(f"{HEADINGS[name]:>15}" for name in COLUMNS)
        print(f"{'row':<50} {'cpu ms':>7} {'wall ms':>7}  {header}  goals")
        for index, row in enumerate(rows):
            scratch = Path(tmp) / f"{index}-{row.key}"
            scratch.mkdir()
            print(run_row(row, scratch, options), flush=True)
    print(f"load at end: {load()}")


if __name__ == "__main__":
    main()
