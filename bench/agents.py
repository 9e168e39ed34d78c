"""Issue 20's goals for `kopipasta mcp`, measured in one run, as ratios taken within rounds.

    python bench/agents.py                 # the four rows, --repeat 9
    python bench/agents.py --in-place      # this interpreter's kopipasta (editable: flatters row 4)

The MCP rows time an edit as the agent sees it: the SDK's own client (mcp.Client,
stdio) sends `tools/call` and the clock stops when the result has arrived and
been parsed. The server is started once per row (untimed) and warmed by one
edit of each kind; a round then times one call. Its file is never restored
behind its back (that would rightly make the server parse it afresh): rounds
alternate the edit and its reverse, both through the server, and every result
is checked against the bytes the row's edit computes. The comparators run as
whole processes through bench/launch.py, restored before every run, as in
bench/bench.py; every ratio is wall time over wall time (what the agent waits
for), the CPU medians are printed beside them.

  mcp300   one replace_definition, 300-line .py (row a's edit), warm  ÷ ast-grep's whole process   goal ≤ 1.0
  mcp20k   the same on the 20k-line .py (row c's edit), warm          ÷ ast-grep's whole process   goal ≤ 0.8
  mcp50    row b's 50 edits over 20 files, one call each, through one
           running server (the files new to it each round)            ÷ 50 cold `kopipasta apply`  goal ≤ 0.5
  cold     row a itself: a cold `kopipasta apply`, one block, CPU     ÷ import click, tree_sitter   goal ≤ 2.0
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as `python bench/agents.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scenarios as sc  # noqa: E402
from bench import tools  # noqa: E402
from bench.edits import dedent_by, targeted_block  # noqa: E402
from bench.install import installed_python  # noqa: E402
from bench.timing import run_once, timed  # noqa: E402

Call = tuple[str, dict[str, Any]]


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {os.cpu_count()} cores)"


def _blocks(reply: str) -> list[Any]:
    from kopipasta.intake.reader import parse_reply

    return parse_reply(reply)


def _replace_call(path: str, target: str, code: str) -> Call:
    return "replace_definition", {"file": path, "target": target, "code": code}


class Server:
    """A running `kopipasta mcp` on `root`, reached through the SDK's client (use `async with`)."""

    def __init__(self, python: str, root: Path) -> None:
        from mcp import Client, StdioServerParameters

        params = StdioServerParameters(command=python, args=["-m", "kopipasta", "mcp", "--root", str(root)], cwd=str(root))
        self._client_cm = Client(params, read_timeout_seconds=300)

    async def __aenter__(self) -> Server:
        self._client = await self._client_cm.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._client_cm.__aexit__(*exc)

    async def calls(self, calls: list[Call]) -> float:
        """Send the calls one after another; the wall time from the first request to the last result."""
        start = time.perf_counter()
        for name, arguments in calls:
            result = await self._client.call_tool(name, arguments)
            if result.is_error:
                raise tools.BenchFailure(f"{name} {arguments.get('file')}: {result.content[0].text}")
        return time.perf_counter() - start


def _check(root: Path, expected: dict[str, str], who: str) -> None:
    for path, text in expected.items():
        if (root / path).read_text(encoding="utf-8") != text:
            raise tools.BenchFailure(f"{who}: {path} does not hold the intended bytes")


async def warm_single(key: str, build: Callable[[], sc.Scenario], scratch: Path, python: str, ast_grep: str, repeat: int) -> str:
    """One replace_definition through a warm server vs ast-grep's whole process, same edit."""
    scenario = build()
    (edit,) = scenario.edits
    (block,) = _blocks(scenario.reply)
    original = scenario.files[edit.path]
    forward = _replace_call(edit.path, block.directive("TARGET_NODE"), block.payload)
    column = edit.column(original)
    backward = _replace_call(edit.path, block.directive("TARGET_NODE"), dedent_by(edit.old, column) + "\n")
    work = scratch / "server"
    tools.write_project(work, scenario.files)
    comparator = tools.ast_grep(scenario, scratch, ast_grep)
    assert comparator is not None
    async with Server(python, work) as server:
        await server.calls([forward, backward])  # the first call's imports and queries, untimed
        _check(work, scenario.files, "ours")
        ours: list[float] = []
        theirs: list[tuple[float, float]] = []
        for round_number in range(repeat + 1):
            if round_number == 0:
                timed(comparator)  # ast-grep's warm-up run (page cache), untimed
                continue
            forward_now = round_number % 2 == 1
            ours.append(await server.calls([forward if forward_now else backward]))
            _check(work, scenario.expected if forward_now else scenario.files, "ours")
            run = timed(comparator)
            theirs.append((run.wall, run.cpu))
        # Where the time goes: the same edit as a dry run (everything but the journal and the
        # write), and a read_definition (the SDK's round trip, a load and a resolution).
        pending = backward if repeat % 2 == 1 else forward
        dry = [await server.calls([(pending[0], {**pending[1], "dry_run": True})]) for _ in range(repeat)]
        read = [await server.calls([("read_definition", {"file": edit.path, "target": pending[1]["target"]})]) for _ in range(repeat)]
    ratio = statistics.median(o / t[0] for o, t in zip(ours, theirs, strict=True))
    return (
        f"{key:<7} warm replace_definition, {len(original.splitlines())}-line .py: "
        f"ours {statistics.median(ours) * 1000:6.1f} ms wall; ast-grep {statistics.median(t[0] for t in theirs) * 1000:6.1f} ms wall "
        f"({statistics.median(t[1] for t in theirs) * 1000:.1f} CPU); as a dry run {statistics.median(dry) * 1000:.1f} ms, "
        f"read_definition {statistics.median(read) * 1000:.1f} ms; ratio {ratio:.2f}×"
    )


async def fifty(scratch: Path, python: str, repeat: int) -> str:
    """Row b's 50 edits as 50 calls to one running server vs 50 cold `kopipasta apply` runs."""
    scenario = sc.scenario_b()
    blocks = _blocks(scenario.reply)
    calls = [_replace_call(b.file, b.directive("TARGET_NODE"), b.payload) for b in blocks]
    replies = []
    for number, (block, edit) in enumerate(zip(blocks, scenario.edits, strict=True)):
        reply = scratch / f"reply-{number}.md"
        reply.write_text(targeted_block(edit, block.payload), encoding="utf-8")
        replies.append(reply)
    work, cold = scratch / "server", scratch / "cold"
    tools.write_project(work, scenario.files)
    async with Server(python, work) as server:
        # Warm the process (imports, both grammars' queries) on a copy the rounds never touch.
        tools.write_project(scratch / "server" / "warm", {"w.py": scenario.files["pkg/mod_0.py"], "w.ts": scenario.files["web/handlers_1.ts"]})
        await server.calls([_replace_call("warm/w.py", calls[0][1]["target"], calls[0][1]["code"]),
                      _replace_call("warm/w.ts", calls[3][1]["target"], calls[3][1]["code"])])
        ours: list[float] = []
        theirs: list[tuple[float, float]] = []
        for round_number in range(repeat + 1):
            tools.write_project(work, {**scenario.files, "warm/w.py": "", "warm/w.ts": ""})  # untimed restore
            wall = await server.calls(calls)
            _check(work, scenario.expected, "ours")
            tools.write_project(cold, scenario.files)
            runs = [run_once([python, "-m", "kopipasta", "apply", str(reply), "--root", str(cold)], cold) for reply in replies]
            if any(run.exit_code for run in runs):
                raise tools.BenchFailure("a cold apply failed: " + next(r.stdout + r.stderr for r in runs if r.exit_code))
            _check(cold, scenario.expected, "cold applies")
            if round_number:  # round 0 warms the bytecode caches and the page cache
                ours.append(wall)
                theirs.append((sum(r.wall for r in runs), sum(r.cpu for r in runs)))
    ratio = statistics.median(o / t[0] for o, t in zip(ours, theirs, strict=True))
    return (
        f"mcp50   50 edits over 20 files: ours {statistics.median(ours) * 1000:6.0f} ms wall (50 calls); "
        f"50 cold applies {statistics.median(t[0] for t in theirs) * 1000:6.0f} ms wall "
        f"({statistics.median(t[1] for t in theirs) * 1000:.0f} CPU); ratio {ratio:.2f}×"
    )


def cold_row(scratch: Path, python: str, repeat: int) -> str:
    """Row a of bench/bench.py: a cold one-block apply, CPU ÷ `import click, tree_sitter`."""
    from bench.timing import measure_paired, median_ratio

    scenario = sc.scenario_a()
    mine = tools.ours(scenario, scratch, python, json_report=False)
    stack = tools.import_floor(scratch, python, "click, tree_sitter")
    measure_paired([mine, stack], repeat)
    ratio = median_ratio(mine, stack)
    return (
        f"cold    cold apply, 1 block, 300-line .py: ours {mine.median(lambda r: r.cpu) * 1000:.0f} ms CPU; "
        f"import click, tree_sitter {stack.median(lambda r: r.cpu) * 1000:.0f} ms CPU; ratio {ratio:.2f}×"
    )


GOALS = {"mcp300": 1.0, "mcp20k": 0.8, "mcp50": 0.5, "cold": 2.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=9, help="rounds per row (default 9)")
    parser.add_argument("--only", "-k", nargs="+", choices=sorted(GOALS), help="run only these rows")
    parser.add_argument("--in-place", action="store_true", help="time this interpreter's kopipasta, not a fresh install")
    args = parser.parse_args()
    ast_grep = tools.find_ast_grep()
    if ast_grep is None:
        sys.exit("ast-grep is needed for the MCP rows: pip install ast-grep-cli (the bench extra)")
    rows = args.only or list(GOALS)
    with tempfile.TemporaryDirectory(prefix="kopipasta-bench-agents-") as tmp:
        python = sys.executable if args.in_place else installed_python(Path(tmp) / "venv")
        print(f"load at start: {load()}")
        print(f"kopipasta: {'in place' if args.in_place else 'installed in a fresh venv'}; ast-grep: {ast_grep}; {args.repeat} rounds per row")
        for key in rows:
            scratch = Path(tmp) / key
            scratch.mkdir()
            import anyio

            if key == "mcp300":
                line = anyio.run(warm_single, key, sc.scenario_a, scratch, python, ast_grep, args.repeat)
            elif key == "mcp20k":
                line = anyio.run(warm_single, key, sc.scenario_c, scratch, python, ast_grep, args.repeat)
            elif key == "mcp50":
                line = anyio.run(fifty, scratch, python, args.repeat)
            else:
                line = cold_row(scratch, python, args.repeat)
            ratio = float(line.rsplit("ratio ", 1)[1].rstrip("×"))
            verdict = "met" if ratio <= GOALS[key] else "NOT MET"
            print(f"{line}   goal ≤ {GOALS[key]}×: {verdict}", flush=True)
    print(f"load at end: {load()}")


if __name__ == "__main__":
    main()
