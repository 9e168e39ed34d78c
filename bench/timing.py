"""Whole-process runs, paired: each round runs every tool once, and ratios are taken per round.

On a shared machine absolute times drift with the load, but two runs a moment
apart see the same load, so the ratio of a pair holds. A round runs the tools
in turn (the order reversed every other round, so no tool always goes first);
each tool's ratio to ours is taken within the round, and the median over
rounds is reported, beside each tool's own medians.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Run:
    cpu: float  # user + system seconds of the child and everything it waited for
    wall: float
    max_rss_kib: int
    exit_code: int
    stdout: str
    stderr: str


@dataclass
class Tool:
    """A command run in `cwd`; `prepare` restores its inputs (untimed), `check` fails loudly on a wrong result."""

    name: str
    command: list[str]
    cwd: Path
    prepare: Callable[[], None] = lambda: None
    check: Callable[[Run], None] = lambda run: None
    runs: list[Run] = field(default_factory=list)

    def median(self, measure: Callable[[Run], float]) -> float:
        return statistics.median(measure(run) for run in self.runs)


# Timed as people run it: with bytecode caching on (some machines set
# PYTHONDONTWRITEBYTECODE, which would recompile every module on every run).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


LAUNCHER = Path(__file__).resolve().parent / "launch.py"


def run_once(command: list[str], cwd: Path) -> Run:
    """Run `command` to its end, through bench/launch.py, which measures it with `wait4`.

    The launcher is a small process of its own, so the child's peak memory is
    its own and not the bench's (see launch.py); CPU time counts the child and
    everything it waited for.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "usage"
        launcher = [sys.executable, "-I", "-S", str(LAUNCHER), str(report), *command]
        code = subprocess.run(launcher, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=ENV).returncode
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
        if code != 0 or not report.exists():
            return Run(0.0, 0.0, 0, code or 127, stdout, stderr + f"\nlauncher failed for {command}")
        cpu, wall, max_rss, exit_code = report.read_text().split()
        return Run(float(cpu), float(wall), int(max_rss), int(exit_code), stdout, stderr)


def timed(tool: Tool) -> Run:
    tool.prepare()
    run = run_once(tool.command, tool.cwd)
    tool.check(run)
    return run


def measure_paired(tools: list[Tool], repeat: int) -> None:
    """One untimed warm-up run of each tool (it writes the bytecode caches), then `repeat` rounds."""
    for tool in tools:
        timed(tool)
    for round_number in range(repeat):
        order = tools if round_number % 2 == 0 else list(reversed(tools))
        for tool in order:
            tool.runs.append(timed(tool))


def median_ratio(ours: Tool, other: Tool, measure: Callable[[Run], float] = lambda run: run.cpu) -> float:
    """The median over rounds of ours ÷ other, each pair from the same round."""
    return statistics.median(measure(a) / max(measure(b), 1e-9) for a, b in zip(ours.runs, other.runs, strict=True))
