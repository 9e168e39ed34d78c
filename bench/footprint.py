"""What an install of kopipasta costs a person: disk, install time, and the first apply.

    python -m bench.footprint [--checkout PATH] [--repeat N]

For the checkout (this one by default; `git archive` another commit into a folder
to compare), in fresh venvs of their own:

- size: the venv's site-packages after `pip install CHECKOUT` (no extras), pip and
  setuptools left out, in MB (10^6 bytes): what the install brought;
- install: the wall time of `pip install CHECKOUT` from a warm cache, into a new
  venv each time (a first install warms the cache and is not counted): the median;
- apply: a one-block `kopipasta apply` (a Python TARGET_NODE) as a new process,
  the first one after the install (it writes the .pyc files) and the median of the
  rest, each on a fresh copy of the project.

Wall times depend on the machine's load: the load average is printed with them,
and only figures from one run, on one load, are compared.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent

_BEFORE = '''import time


class RateLimiter:
    def __init__(self, rate: int) -> None:
        self.rate = rate
        self.calls: list[float] = []

    def allow(self) -> bool:
        now = time.monotonic()
        self.calls = [t for t in self.calls if now - t < 1]
        if len(self.calls) < self.rate:
            self.calls.append(now)
            return True
        return False
'''

_REPLY = '''Keep the window but drop the list copy:

```python
# FILE: ratelimit.py
# TARGET_NODE: RateLimiter.allow
    def allow(self) -> bool:
        now = time.monotonic()
        while self.calls and now - self.calls[0] >= 1:
            self.calls.pop(0)
        if len(self.calls) < self.rate:
            self.calls.append(now)
            return True
        return False
```
'''

# What a venv holds before anything is installed into it: not the install's cost.
_TOOLING = ("pip", "setuptools", "_distutils_hack", "distutils-precedence.pth")


def _size(site_packages: Path) -> int:
    total = 0
    for entry in site_packages.iterdir():
        if entry.name.split("-")[0] in _TOOLING or entry.name in _TOOLING:
            continue
        paths = [entry] if entry.is_file() else [p for p in entry.rglob("*") if p.is_file() and not p.is_symlink()]
        total += sum(p.stat().st_size for p in paths)
    return total


def _site_packages(folder: Path) -> Path:
    return next((folder / "lib").glob("python3*/site-packages"))


def _install(folder: Path, checkout: Path) -> float:
    venv.create(folder, with_pip=True, symlinks=True)
    started = time.perf_counter()
    subprocess.run(
        [str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(checkout)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - started


def _apply(folder: Path, scratch: Path) -> float:
    project = scratch / "project"
    shutil.rmtree(project, ignore_errors=True)
    project.mkdir(parents=True)
    (project / "ratelimit.py").write_text(_BEFORE)
    reply = scratch / "reply.md"
    reply.write_text(_REPLY)
    started = time.perf_counter()
    done = subprocess.run(
        [str(folder / "bin" / "kopipasta"), "apply", str(reply), "--root", str(project)],
        capture_output=True, text=True, cwd=project, stdin=subprocess.DEVNULL,
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or "pop(0)" not in (project / "ratelimit.py").read_text():
        raise SystemExit(f"the bench apply failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    return elapsed


def measure(checkout: Path, repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="kopipasta-footprint-") as tmp:
        scratch = Path(tmp)
        # A build from the checkout leaves build/ and *.egg-info beside the sources: copy it first.
        source = scratch / "source"
        shutil.copytree(checkout, source, symlinks=True, ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__", ".*_cache"))
        _install(scratch / "warm", source)  # fills pip's cache (wheels of the dependencies)
        installs = [_install(scratch / f"venv{i}", source) for i in range(repeat)]
        folder = scratch / "venv0"
        size = _size(_site_packages(folder))
        first = _apply(folder, scratch)
        applies = [_apply(folder, scratch) for _ in range(repeat)]
    return {
        "size_mb": size / 1e6,
        "install_s": statistics.median(installs),
        "first_apply_s": first,
        "apply_s": statistics.median(applies),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkout", type=Path, default=CHECKOUT)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    figures = measure(args.checkout.resolve(), args.repeat)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.checkout}  (python {sys.version.split()[0]}, load {load:.1f} on {os.cpu_count()} cores)")
    print(f"  site-packages (pip, setuptools aside)  {figures['size_mb']:7.1f} MB")
    print(f"  pip install, warm cache (median)       {figures['install_s']:7.1f} s")
    print(f"  first apply after the install          {figures['first_apply_s'] * 1000:7.0f} ms")
    print(f"  one-block apply (median)               {figures['apply_s'] * 1000:7.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
