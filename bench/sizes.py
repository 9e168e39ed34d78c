"""Size and time: the big inputs of issue 11, timed as whole `kopipasta apply` runs.

    python bench/sizes.py            # every case
    python bench/sizes.py --quick    # the cases a tenth the size

Prints, per case, the input size, the wall time, the peak memory of the
child process, and how the run ended (applied, or refused with the limit's
line). RELIABILITY.md quotes its output.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def header_line(root: Path, scale: float) -> str:
    return "```python\n# FILE: " + "a" * int(50_000 * scale) + ".py\nx = 1\n```\n"


def long_payload(lines: int) -> Callable[[Path, float], str]:
    def make(root: Path, scale: float) -> str:
        (root / "app.py").write_text("def f():\n    return 1\n")
        body = "".join(f"    x{i} = {i}\n" for i in range(int(lines * scale)))
        return "```python\n# FILE: app.py\n# TARGET_NODE: function f\ndef f():\n" + body + "    return 2\n```\n"

    return make


def whole_file(megabytes: float) -> Callable[[Path, float], str]:
    def make(root: Path, scale: float) -> str:
        line = "value = 'abcdefghijklmnopqrstuvwxyz0123456789'\n"
        return "```python\n# FILE: big.py\n" + line * int(megabytes * scale * 1e6 / len(line)) + "```\n"

    return make


def many_blocks(count: int) -> Callable[[Path, float], str]:
    def make(root: Path, scale: float) -> str:
        n = int(count * scale)
        (root / "many.py").write_text("".join(f"def f{i}():\n    return 0\n\n\n" for i in range(n)))
        return "".join(
            f"```python\n# FILE: many.py\n# TARGET_NODE: function f{i}\ndef f{i}():\n    return 1\n```\n\n"
            for i in range(n)
        )

    return make


def near_miss_search(file_lines: int, hunk_lines: int) -> Callable[[Path, float], str]:
    """A SEARCH of `hunk_lines` copied from a file of `file_lines`, one line wrong: refused, with the closest line."""

    def make(root: Path, scale: float) -> str:
        count, size = int(file_lines * scale), int(hunk_lines * scale)
        functions = (count + 4) // 5
        lines = [
            line for i in range(functions)
            for line in (f"def f{i}(x):", "    if x:", "        return 1", "    return 0", "")
        ][:count]
        (root / "big.py").write_text("\n".join(lines) + "\n")
        start = count // 4
        hunk = lines[start : start + size]
        hunk[size // 2] = "    return 2"
        return "big.py\n```\n<<<<<<< SEARCH\n" + "\n".join(hunk) + "\n=======\nX = 1\n>>>>>>> REPLACE\n```\n"

    return make


def fences(count: int) -> Callable[[Path, float], str]:
    def make(root: Path, scale: float) -> str:
        return "```\n```\n" * (int(count * scale) // 2)

    return make


def envelope_files(count: int) -> Callable[[Path, float], str]:
    def make(root: Path, scale: float) -> str:
        files = "".join(f"*** Add File: gen/f{i}.py\n+x = {i}\n" for i in range(int(count * scale)))
        return f"```\n*** Begin Patch\n{files}*** End Patch\n```\n"

    return make


CASES: dict[str, Callable[[Path, float], str]] = {
    "50,000-char header line": header_line,
    "100k-line TARGET_NODE payload": long_payload(100_000),
    "600k-line TARGET_NODE payload": long_payload(600_000),
    "7 MB whole-file payload": whole_file(7),
    "20 MB whole-file payload": whole_file(20),
    "50 MB whole-file payload": whole_file(50),
    "500 blocks on one 500-function file": many_blocks(500),
    "10k blocks on one 10k-function file": many_blocks(10_000),
    "7 MB TARGET_NODE payload": long_payload(350_000),
    "850,000 fences": fences(850_000),
    "5,000 new files in one envelope": envelope_files(5_000),
    "near-miss SEARCH, 2,000 lines on 20,000": near_miss_search(20_000, 2_000),
    "near-miss SEARCH, 5,000 lines on 50,000": near_miss_search(50_000, 5_000),
}


def run(name: str, make: Callable[[Path, float], str], scale: float) -> str:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        reply = root / "reply.md"
        reply.write_text(make(root, scale))
        size = reply.stat().st_size
        out, err = root / "out.txt", root / "err.txt"
        start = time.perf_counter()
        with out.open("w") as stdout, err.open("w") as stderr:
            child = subprocess.Popen(
                [sys.executable, "-m", "kopipasta", "apply", str(reply), "--root", str(root)],
                stdout=stdout, stderr=stderr,
            )
            _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        text = out.read_text() + err.read_text()
        lines = text.strip().splitlines()
        ending = "Traceback!" if "Traceback" in text else (lines[-1] if lines else "")[:110]
        code = os.waitstatus_to_exitcode(status)
        return f"| {name} | {size / 1e6:.2f} MB | {elapsed:.1f} s | {usage.ru_maxrss / 1024:.0f} MB | exit {code}: {ending} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="run every case at a tenth of its size")
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    args = parser.parse_args()
    print("| case | reply | time | peak memory | result |")
    print("|---|---|---|---|---|")
    for name, make in CASES.items():
        if args.only and args.only not in name:
            continue
        print(run(name, make, 0.1 if args.quick else 1.0), flush=True)


if __name__ == "__main__":
    main()
