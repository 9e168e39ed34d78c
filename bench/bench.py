"""Whole-process timings of `kopipasta apply`, as ratios to a baseline timed in the same run.

    python bench/bench.py [--repeat N]

Shared machines are noisy, so absolute seconds mean little; every scenario is
reported as its median over N runs divided by the median of
`python -c "import tree_sitter"` measured alongside it, the floor any
Tree-sitter tool pays. Scenarios (issue 2, "Speed"):

  a  one block in a 300-line Python file
  b  50 blocks over 20 files (Python and TypeScript)
  c  one block in a 20,000-line Python file
  d  one block in a 300-line Go file (a tab-indented file, a space-indented payload)
  e  one block in a 20,000-line Go file

The project is restored before every run (outside the timing), so each run
really applies its patches and writes the files. Runs use Python's bytecode
cache, as installed tools do, after one untimed warm-up run.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def python_module(functions: int, name: str = "svc") -> str:
    """A plausible module: a class with `functions` methods of ~10 lines each, and helpers."""
    lines = ['"""Generated benchmark module."""', "", "import math", "", "", f"class {name.title()}:"]
    for i in range(functions):
        lines += [
            f"    def method_{i}(self, x: int, y: int) -> int:",
            f'        """Compute thing {i}."""',
            "        total = 0",
            "        for k in range(x):",
            "            if k % 3 == 0:",
            "                total += k * y",
            "            else:",
            "                total -= int(math.sqrt(k))",
            "        return total",
            "",
        ]
    return "\n".join(lines) + "\n"


def ts_module(functions: int) -> str:
    lines = ['import { api } from "./api";', ""]
    for i in range(functions):
        lines += [
            f"export function handler{i}(id: string): Promise<number> {{",
            "  const started = Date.now();",
            f"  return api.get(`/items/${{id}}/{i}`).then((r) => {{",
            "    return r.length + (Date.now() - started);",
            "  });",
            "}",
            "",
        ]
    return "\n".join(lines)


def go_module(functions: int) -> str:
    """A plausible Go file: a struct with `functions` methods of ~10 lines each, tab-indented."""
    lines = ["package svc", "", "import (", '\t"math"', ")", "", "// Svc computes things.", "type Svc struct {", "\tscale int", "}", ""]
    for i in range(functions):
        lines += [
            f"// Method{i} computes thing {i}.",
            f"func (s *Svc) Method{i}(x, y int) int {{",
            "\ttotal := 0",
            "\tfor k := 0; k < x; k++ {",
            "\t\tif k%3 == 0 {",
            "\t\t\ttotal += k * y * s.scale",
            "\t\t} else {",
            "\t\t\ttotal -= int(math.Sqrt(float64(k)))",
            "\t\t}",
            "\t}",
            "\treturn total",
            "}",
            "",
        ]
    return "\n".join(lines)


def go_block(file: str, i: int) -> str:
    return (
        f"```go\n// FILE: {file}\n// TARGET_NODE: method Svc.Method{i}\n"
        f"func (s *Svc) Method{i}(x, y int) int {{\n"
        "    total := 0\n"
        "    for k := 0; k < x; k += 3 {\n"
        "        total += k * y * s.scale\n"
        "    }\n"
        "    return total\n}\n```\n\n"
    )


def python_block(file: str, i: int) -> str:
    return (
        f"```python\n# FILE: {file}\n# TARGET_NODE: method Svc.method_{i}\n"
        f"def method_{i}(self, x: int, y: int) -> int:\n"
        f'  """Compute thing {i}, faster."""\n'
        "  return sum(k * y for k in range(0, x, 3))\n```\n\n"
    )


def ts_block(file: str, i: int) -> str:
    return (
        f"```ts\n// FILE: {file}\n// TARGET_NODE: function handler{i}\n"
        f"export async function handler{i}(id: string): Promise<number> {{\n"
        f"    const r = await api.get(`/items/${{id}}/{i}`);\n"
        "    return r.length;\n}\n```\n\n"
    )


def scenario_a(root: Path) -> str:
    (root / "svc.py").write_text(python_module(30))  # ~300 lines
    return "Here you go:\n\n" + python_block("svc.py", 17)


def scenario_b(root: Path) -> str:
    reply = "Fifty changes:\n\n"
    blocks = 0
    for f in range(20):
        if f % 2 == 0:
            name = f"pkg/mod_{f}.py"
            (root / "pkg").mkdir(exist_ok=True)
            (root / name).write_text(python_module(12))
            count = 3 if blocks + 3 <= 50 else 50 - blocks
            reply += "".join(python_block(name, i * 3) for i in range(count))
        else:
            name = f"web/handlers_{f}.ts"
            (root / "web").mkdir(exist_ok=True)
            (root / name).write_text(ts_module(12))
            count = 2
            reply += "".join(ts_block(name, i * 4) for i in range(count))
        blocks += count
    assert blocks == 50, blocks
    return reply


def scenario_c(root: Path) -> str:
    (root / "big.py").write_text(python_module(2000))  # ~20,000 lines
    return "One change in the big file:\n\n" + python_block("big.py", 1500)


def scenario_d(root: Path) -> str:
    (root / "svc.go").write_text(go_module(23))  # ~300 lines
    return "Here you go:\n\n" + go_block("svc.go", 17)


def scenario_e(root: Path) -> str:
    (root / "big.go").write_text(go_module(1540))  # ~20,000 lines
    return "One change in the big file:\n\n" + go_block("big.go", 1200)


def restore_copy(pristine: Path, work: Path) -> None:
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(pristine, work)


# Timed as people run it: with bytecode caching on (some machines set
# PYTHONDONTWRITEBYTECODE, which would recompile every module on every run),
# after one untimed warm-up run that writes the caches.
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def median_seconds(command: list[str], repeat: int, before: Callable[[], None] = lambda: None) -> float:
    times = []
    for run in range(repeat + 1):
        before()
        start = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True, env=_ENV)
        if run:
            times.append(time.perf_counter() - start)
        if result.returncode != 0:
            raise SystemExit(f"benchmark command failed ({result.returncode}): {command}\n{result.stdout}{result.stderr}")
    return statistics.median(times)


def protocol_tokens_row() -> str:
    """The prompt's reply-format part for the demo's three files (Python, TSX, JSON), in tokens (~4 chars each)."""
    from kopipasta.prompt import PROTOCOL_TOKEN_LIMIT, estimate_tokens, protocol_part, render_prompt

    demo = Path(__file__).resolve().parent.parent / "kopipasta" / "demo" / "project"
    files = ["app/cart.py", "src/components/DataTable.tsx", "package.json"]
    text = render_prompt(files, task="Make TableBody sortable by column", root=demo)
    tokens = estimate_tokens(protocol_part(text))
    return f"prompt  reply-format part, 3 files (demo)   {tokens:5d} tokens (limit {PROTOCOL_TOKEN_LIMIT})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="runs per scenario (median is reported)")
    args = parser.parse_args()

    print(protocol_tokens_row())
    baseline = median_seconds([sys.executable, "-c", "import tree_sitter"], args.repeat)
    print(f"baseline  python -c 'import tree_sitter'   {baseline * 1000:7.1f} ms   1.00x")
    scenarios = {
        "a  1 block, 300-line file": scenario_a,
        "b  50 blocks over 20 files": scenario_b,
        "c  1 block, 20,000-line file": scenario_c,
        "d  1 block, 300-line Go file": scenario_d,
        "e  1 block, 20,000-line Go file": scenario_e,
    }
    with tempfile.TemporaryDirectory() as tmp:
        for label, build in scenarios.items():
            pristine = Path(tmp) / "pristine"
            shutil.rmtree(pristine, ignore_errors=True)
            pristine.mkdir()
            reply = build(pristine)
            reply_file = Path(tmp) / "reply.md"
            reply_file.write_text(reply)
            work = Path(tmp) / "work"
            restore = functools.partial(restore_copy, pristine, work)
            command = [sys.executable, "-m", "kopipasta", "apply", str(reply_file), "--root", str(work), "--json"]
            seconds = median_seconds(command, args.repeat, restore)
            print(f"{label:<36}  {seconds * 1000:7.1f} ms   {seconds / baseline:4.2f}x")


if __name__ == "__main__":
    main()
