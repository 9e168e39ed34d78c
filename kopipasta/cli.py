"""The command line: parse options, call the library, print, choose the exit status.

Only this module imports click. Library errors become one-line messages here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kopipasta.report import EXIT_NO_PATCH

_ROOT_OPTION = click.option(
    "--root",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="Project root: every FILE path is relative to it, and nothing outside it is touched.",
)

APPLY_EPILOG = """\b
Exit status:
  0  every patch applied, or was already in place
  1  at least one patch failed (with --strict, nothing was written)
  2  the reply could not be read, or held no patch at all
  3  the patches were written but the --verify command failed
     (with --revert-on-fail they were put back)
"""


def read_reply(reply: str | None) -> str:
    """The reply's text from a file, `-`, or piped stdin; click.UsageError-free failures exit 2."""
    if reply in (None, "-"):
        if reply is None and sys.stdin.isatty():
            fail("No reply given: pass a file, '-', or pipe the reply on stdin", EXIT_NO_PATCH)
        data = sys.stdin.buffer.read()
    else:
        try:
            data = Path(reply).read_bytes()
        except OSError as error:
            fail(f"Cannot read reply {reply}: {error.strerror or error}", EXIT_NO_PATCH)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        fail(f"Cannot read reply: it is not UTF-8 text (byte {error.start})", EXIT_NO_PATCH)
    raise AssertionError("unreachable")


def fail(message: str, status: int) -> None:
    click.echo(f"❌ {message}", err=True)
    sys.exit(status)


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kopipasta")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Apply an LLM's reply to your code structurally: exact definitions, never fuzzy text."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@main.command(epilog=APPLY_EPILOG)
@click.argument("reply", required=False)
@_ROOT_OPTION
@click.option("--dry-run", is_flag=True, help="Resolve everything and show the diff; write nothing.")
@click.option("--strict", is_flag=True, help="Treat the reply as one unit: if any block fails, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable report on stdout.")
@click.option("--diff/--no-diff", default=None, help="Show the diff of what changed (default: only with --dry-run).")
def apply(reply: str | None, root: Path, dry_run: bool, strict: bool, as_json: bool, diff: bool | None) -> None:
    """Apply the patches in REPLY (a file, '-' or stdin) to the project."""
    from kopipasta.engine import apply_reply
    from kopipasta.report import exit_status

    text = read_reply(reply)
    report = apply_reply(text, root, dry_run=dry_run, strict=strict)
    if as_json:
        from kopipasta.report import report_json

        click.echo(report_json(report, dry_run=dry_run))
    else:
        from kopipasta.report import make_console, print_report

        show_diff = dry_run if diff is None else diff
        print_report(make_console(), report, dry_run=dry_run, show_diff=show_diff)
    sys.exit(exit_status(report))


@main.command()
@click.option(
    "--into",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the demo project (default: a new temporary folder).",
)
def demo(into: Path | None) -> None:
    """Apply a bundled LLM reply to a copy of a bundled sample project and show the diff."""
    from kopipasta.demo import run_demo

    sys.exit(run_demo(into))


if __name__ == "__main__":
    main()
