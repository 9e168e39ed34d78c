"""What `kopipasta apply REPLY --root ROOT` does, without the command line: the engine's own cost.

    python bench/without_cli.py REPLY ROOT

The same steps as `cli.apply` in a short run, minus click: the gc pace of a
short run, read the reply, apply it (journalled, atomic), record it in the
apply log, print the plain report, leave without the interpreter's teardown.
The bench's `no CLI` column: ours ÷ this is what the command line costs, and
this ÷ `import ts` is how near the engine alone comes to issue 9's floor.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kopipasta.startup.shortrun import leave, pace_for_a_short_run

pace_for_a_short_run()

from kopipasta.engine import apply_reply  # noqa: E402
from kopipasta.loop.applylog import record_apply  # noqa: E402
from kopipasta.report import exit_status, make_console, print_report  # noqa: E402


def main() -> int:
    reply, root = Path(sys.argv[1]), Path(sys.argv[2])
    text = reply.read_bytes().decode("utf-8-sig")
    report = apply_reply(text, root, dry_run=False, strict=False, only=(), partial=False, force=False, allow_delete=False)
    record_apply(root, text, report, partial=False, strict=False)
    print_report(make_console(), report, dry_run=False, show_diff=False)
    return exit_status(report)


if __name__ == "__main__":
    leave(SystemExit(main()))
