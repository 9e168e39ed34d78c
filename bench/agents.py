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
  mcp20k   the same on the 20k-line .py (row c's edit), warm          ÷ ast-grep's whole process   goal ≤ 0.5
  edit300  the same edit through edit_definition (only the changed lines sent)   ÷ ast-grep   goal ≤ 1.0
  edit20k  the same on the 20k-line .py                                           ÷ ast-grep   goal ≤ 0.5
  tokens   (printed, not timed) tokens sent for each row's edit: edit_definition, replace_definition, an
           old_string edit (file_path, old_string, new_string as Claude Code's Edit sends them)
  journal  in process: the journal as it is (5 fsyncs) ÷ as it was (7), ABBA       goal ≤ 1.0
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


def _changed_lines(before: str, after: str) -> tuple[str, str]:
    """The lines that differ between two versions of a file (common first and last lines left out):
    the `old` and `new` an agent sends to edit_definition, or as an old_string edit."""
    old, new = before.split("\n"), after.split("\n")
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return "\n".join(old[head : len(old) - tail]), "\n".join(new[head : len(new) - tail])


def _edit_call(path: str, target: str, before: str, after: str) -> Call:
    old, new = _changed_lines(before, after)
    return "edit_definition", {"file": path, "target": target, "old": old, "new": new}


def tokens(arguments: dict[str, Any]) -> int:
    """What the call's arguments cost an agent, as ~4 characters of JSON a token (no tokenizer here)."""
    import json

    return round(len(json.dumps(arguments)) / 4)


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


async def warm_single(
    key: str, build: Callable[[], sc.Scenario], scratch: Path, python: str, ast_grep: str, repeat: int, tool: str = "replace"
) -> str:
    """One replace_definition (or edit_definition) through a warm server vs ast-grep's whole process, same edit."""
    scenario = build()
    (edit,) = scenario.edits
    (block,) = _blocks(scenario.reply)
    original = scenario.files[edit.path]
    target = block.directive("TARGET_NODE")
    if tool == "edit":
        forward = _edit_call(edit.path, target, original, scenario.expected[edit.path])
        backward = _edit_call(edit.path, target, scenario.expected[edit.path], original)
    else:
        forward = _replace_call(edit.path, target, block.payload)
        column = edit.column(original)
        backward = _replace_call(edit.path, target, dedent_by(edit.old, column) + "\n")
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
        f"{key:<7} warm {forward[0]}, {len(original.splitlines())}-line .py ({tokens(forward[1])} tokens sent): "
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
            # The restore was a write behind the server's back: read again (untimed), as an agent
            # would, or read-before-write rightly refuses every edit of a definition it saw change.
            await server.calls([("read_definition", {"file": c[1]["file"], "target": c[1]["target"]}) for c in calls])
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


def journal_ab(scratch: Path, repeat: int) -> str:
    """In process, the same warm replace_definition with the journal as it was (the complete mark
    synced, then its folder: 7 fsyncs) and as it is (5), in ABBA order (an edit right after another
    pays a different price for its fsyncs than the first of a pair)."""
    from kopipasta.agents.workbench import Workbench
    from kopipasta.disk import beneath, journal

    def synced_mark(journal_fd: int, entry: str) -> None:
        fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=journal_fd)
        try:
            beneath.write_temporary(fd, "complete", b"", 0o600)
            os.fsync(fd)
        finally:
            os.close(fd)

    unsynced_mark = journal._mark_complete  # noqa: SLF001
    scenario = sc.scenario_a()
    (edit,) = scenario.edits
    (block,) = _blocks(scenario.reply)
    tools.write_project(scratch, scenario.files)
    bench = Workbench(scratch)
    target = block.directive("TARGET_NODE")
    codes = [block.payload, dedent_by(edit.old, edit.column(scenario.files[edit.path])) + "\n"]
    bench.replace_definition(edit.path, target, codes[0])
    bench.replace_definition(edit.path, target, codes[1])
    times: dict[bool, list[float]] = {True: [], False: []}
    try:
        for number in range(8 * repeat):
            now = number % 4 in (0, 3)
            journal._mark_complete = unsynced_mark if now else synced_mark  # noqa: SLF001
            start = time.perf_counter()
            result = bench.replace_definition(edit.path, target, codes[(number // 2) % 2])
            times[now].append(time.perf_counter() - start)
            if not result.ok:
                raise tools.BenchFailure(result.text)
    finally:
        journal._mark_complete = unsynced_mark  # noqa: SLF001
    after, before = statistics.median(times[True]), statistics.median(times[False])
    return (
        f"journal warm replace_definition in process, 300-line .py: 7 fsyncs {before * 1000:.1f} ms, "
        f"5 fsyncs {after * 1000:.1f} ms ({len(times[True])} edits each); ratio {after / before:.2f}×"
    )


GOALS = {"journal": 1.0, "mcp300": 1.0, "mcp20k": 0.5, "edit300": 1.0, "edit20k": 0.5, "mcp50": 0.5, "cold": 2.0}


def token_table() -> list[str]:
    """Tokens an agent sends for rows a and c's edits, three ways (issue 26)."""
    lines = ["tokens sent for the same edit (JSON arguments ÷ 4):", "  edit                         edit_definition  replace_definition  old_string edit"]
    for name, build in (("row a, 300-line .py", sc.scenario_a), ("row c, 20k-line .py", sc.scenario_c)):
        scenario = build()
        (edit,) = scenario.edits
        (block,) = _blocks(scenario.reply)
        original, expected = scenario.files[edit.path], scenario.expected[edit.path]
        target = block.directive("TARGET_NODE")
        old, new = _changed_lines(original, expected)
        ours = tokens(_edit_call(edit.path, target, original, expected)[1])
        whole = tokens(_replace_call(edit.path, target, block.payload)[1])
        string_edit = tokens({"file_path": edit.path, "old_string": old, "new_string": new})
        lines.append(f"  {name:<28} {ours:>15}  {whole:>18}  {string_edit:>15}")
    # The case: one line changed in a 123-line method.
    body = "".join(f"        total_{i} = self.items[{i}].price * self.rates.get('{i}', 1.0)\n" for i in range(120))
    method = f"def settle(self):\n        \"\"\"Settle every item.\"\"\"\n{body}        return total_0\n"
    old_line = "        total_60 = self.items[60].price * self.rates.get('60', 1.0)"
    new_line = "        total_60 = self.items[60].price * self.rates.get('60', 0.9)"
    ours = tokens({"file": "app/ledger.py", "target": "Ledger.settle", "old": old_line, "new": new_line})
    whole = tokens({"file": "app/ledger.py", "target": "Ledger.settle", "code": "    " + method.replace(old_line, new_line)})
    string_edit = tokens({"file_path": "app/ledger.py", "old_string": old_line, "new_string": new_line})
    lines.append(f"  {'1 line of a 123-line method':<28} {ours:>15}  {whole:>18}  {string_edit:>15}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=9, help="rounds per row (default 9)")
    parser.add_argument("--only", "-k", nargs="+", choices=sorted(GOALS), help="run only these rows")
    parser.add_argument("--in-place", action="store_true", help="time this interpreter's kopipasta, not a fresh install")
    parser.add_argument("--dir", default=None, help="where the scratch projects go (default: the system's temporary folder; "
                        "check it is a disk, not tmpfs: the journal's fsyncs are part of the price)")
    args = parser.parse_args()
    ast_grep = tools.find_ast_grep()
    if ast_grep is None:
        sys.exit("ast-grep is needed for the MCP rows: pip install ast-grep-cli (the bench extra)")
    parser_dir = args.dir
    rows = args.only or list(GOALS)
    for line in token_table():
        print(line)
    with tempfile.TemporaryDirectory(prefix="kopipasta-bench-agents-", dir=parser_dir) as tmp:
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
            elif key in ("edit300", "edit20k"):
                build = sc.scenario_a if key == "edit300" else sc.scenario_c
                line = anyio.run(warm_single, key, build, scratch, python, ast_grep, args.repeat, "edit")
            elif key == "journal":
                line = journal_ab(scratch, args.repeat)
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
