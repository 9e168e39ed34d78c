"""`kopipasta demo`: a bundled reply applied to a copy of a bundled sample project.

The sample holds the cases text patchers get wrong: a 2-space payload for a
method of a 4-space Python file, and a TSX edit to the second of two
components that end in the same closing tags.
"""

from __future__ import annotations

import shutil
import tempfile
from importlib import resources
from pathlib import Path


def run_demo(into: Path | None) -> int:
    from kopipasta.engine import apply_reply
    from kopipasta.report import exit_status, make_console, print_report

    console = make_console()
    bundle = resources.files("kopipasta.loop.demo")
    target = into if into is not None else Path(tempfile.mkdtemp(prefix="kopipasta-demo-"))
    if target.exists() and any(target.iterdir()):
        console.print(f"❌ {target} is not empty: choose an empty or new folder for the demo")
        return 2
    with resources.as_file(bundle.joinpath("project")) as project:
        shutil.copytree(project, target, dirs_exist_ok=True)
    reply = bundle.joinpath("reply.md").read_text(encoding="utf-8")

    # Kept beside the project, so the reply's wrong indentation can be read again after the diff.
    (target / "reply.md").write_text(reply, encoding="utf-8")

    console.print(f"[bold]Sample project:[/bold] {target}")
    console.print(
        "[bold]The reply[/bold] (kept in reply.md): three patches (a Python method written with"
        " 2-space indentation for a 4-space file, a TSX component, package.json) and a shell block\n"
    )
    console.print(reply, markup=False, highlight=False)
    console.print("[bold]Applying it:[/bold]\n")
    report = apply_reply(reply, target)
    print_report(console, report, dry_run=False, show_diff=True)
    console.print(f"\nTry it yourself: cd {target} && kopipasta undo && kopipasta apply reply.md")
    return exit_status(report)
