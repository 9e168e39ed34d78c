"""`kopipasta apply` (with its format and verify steps), `undo` and `demo`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from kopipasta.cli.group import ROOT_OPTION, echo, echo_data, fail, fail_json, main, read_reply

if TYPE_CHECKING:
    from kopipasta.loop.formatter import FormatResult
    from kopipasta.loop.verify import VerifyResult
    from kopipasta.model import Report

APPLY_EPILOG = """\b
Besides TARGET_NODE blocks, text patches apply, strictly:
  unified diff    fenced or not; diff --git or ---/+++ headers, or a FILE
                  line over bare @@ hunks; /dev/null creates or deletes
  search/replace  <<<<<<< SEARCH / ======= / >>>>>>> REPLACE (3+ marker
                  characters, words optional), one or more per block
  envelope        *** Begin Patch / *** Update|Add|Delete File / *** Move to
                  / @@ anchor lines / *** End Patch
Each hunk's old lines are matched whole, trying one tier at a time: exact,
then trailing whitespace, then one indentation shift (added lines take the
same shift, in the file's indent unit). A hunk must match one place (a
diff's @@ -N line or an envelope's @@ anchor may pick it); otherwise it
fails, showing the closest region. All hunks of a file or none; deleting
or renaming a file needs --allow-delete.

\b
Exit status:
  0  every patch applied, or was already in place (and --verify passed)
  1  at least one patch failed (with --strict, nothing was written;
     with --partial, the blocks that succeeded were); takes precedence over 3
  2  the reply could not be read, or held no patch at all
     (also: the options were wrong, as for any click usage error)
  3  the patches were written but the --verify command failed or could
     not start (with --revert-on-fail they were put back, unless a file
     changed after the apply: then the report says so)

\b
--format-cmd (or the 'format' setting) runs after the write and before
--verify, on exactly the files this apply wrote ('{files}' becomes their
quoted paths; without it they are appended). Its failure is reported, not
the exit status; undo still puts back the bytes from before the apply.

\b
--verify runs only after a real apply that wrote files or found every
patch already in place; not with --dry-run, nor when patches failed and
nothing was written. Its output goes to stdout, or to stderr with --json,
where the JSON gets a "verify" object.
"""


@main.command(epilog=APPLY_EPILOG)
@click.argument("reply", required=False)
@ROOT_OPTION
@click.option("--dry-run", is_flag=True, help="Resolve everything and show the diff; write nothing.")
@click.option("--strict", is_flag=True, help="Treat the reply as one unit: if any block fails, write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable report on stdout.")
@click.option("--diff/--no-diff", default=None, help="Show the diff of what changed (default: only with --dry-run).")
@click.option(
    "--only",
    "only",
    multiple=True,
    metavar="GLOB",
    help="Change only files matching GLOB (relative to the root; '*' also crosses '/'); "
    "a block for any other file fails. Repeatable.",
)
@click.option(
    "--format-cmd",
    "format_command",
    metavar="CMD",
    default=None,
    help="After writing and before --verify, run CMD on the files this apply wrote ('{files}' is where their "
    "paths go); a failure is reported, not the verdict. Default: the 'format' setting; '' turns it off.",
)
@click.option("--verify", "verify_command", metavar="CMD", help="After writing, run CMD with the shell in the root; exit 3 if it fails.")
@click.option("--revert-on-fail", is_flag=True, help="When --verify fails, put back exactly what this apply wrote.")
@click.option(
    "--allow-delete",
    is_flag=True,
    help="Let the reply delete and rename files (/dev/null diffs, *** Delete File, *** Move to, <<<DELETE>>>); "
    "without it such a block fails. Undo puts deleted files back.",
)
@click.option(
    "--partial",
    is_flag=True,
    help="Write each block that succeeded even when another block on its file failed (each is still checked).",
)
@click.option(
    "--force",
    is_flag=True,
    help="Also write read-only files, and targets the user changed since the prompt.",
)
@click.option(
    "--feedback",
    is_flag=True,
    help="After a failure, make a correction message for the model: copied on a terminal; "
    "on a pipe it is all stdout holds (the report goes to stderr); with --json, a \"feedback\" key.",
)
def apply(
    reply: str | None,
    root: Path,
    dry_run: bool,
    strict: bool,
    as_json: bool,
    diff: bool | None,
    only: tuple[str, ...],
    format_command: str | None,
    verify_command: str | None,
    revert_on_fail: bool,
    allow_delete: bool,
    partial: bool,
    force: bool,
    feedback: bool,
) -> None:
    """Apply the patches in REPLY (a file, '-' or stdin) to the project."""
    from kopipasta.disk import journal
    from kopipasta.engine import apply_reply
    from kopipasta.report import EXIT_FAILED, error_text, exit_status

    if revert_on_fail and not verify_command:
        raise click.UsageError("--revert-on-fail needs --verify CMD: it reverts when that command fails")
    if partial and strict:
        raise click.UsageError("--partial writes what succeeded, --strict writes nothing if anything failed: choose one")
    text = read_reply(reply, as_json=as_json, dry_run=dry_run)
    formatter = _format_setting(root, as_json, dry_run) if format_command is None else format_command.strip()
    entry_before = journal.newest(root)
    try:
        report = apply_reply(
            text, root, dry_run=dry_run, strict=strict, only=only, partial=partial, force=force, allow_delete=allow_delete
        )
    except journal.JournalError as error:
        fail(str(error), EXIT_FAILED)
    except OSError as error:
        fail(f"Cannot write the patched files: {error_text(error)}", EXIT_FAILED)
    if not dry_run:
        from kopipasta.loop.applylog import record_apply

        record_apply(root, text, report, partial=partial, strict=strict)
    status = exit_status(report)
    message = _feedback(report, root) if feedback else None
    show_diff = dry_run if diff is None else diff
    if as_json:
        from kopipasta.report import report_json

        extra: dict[str, object] = {}
        if formatter:
            formatted = _format(formatter, root, report, dry_run, entry_before, sys.stderr)
            extra["format"] = formatted.to_json()
            status = _with_held(status, formatted.held)
        if verify_command is not None:
            checked = _verify(verify_command, root, report, dry_run, entry_before, revert_on_fail, sys.stderr)
            status = _with_held(_with_verify(status, checked.failed), checked.held)
            extra["verify"] = checked.to_json()
        extra["exit_status"] = status
        if feedback:
            extra["feedback"] = message
        echo_data(report_json(report, dry_run=dry_run, extra=extra, show_diff=diff is True))
    else:
        from kopipasta.plain import is_terminal
        from kopipasta.report import make_console, print_report

        # For a script, --feedback makes stdout the message alone; the report goes to stderr.
        piped_feedback = feedback and not is_terminal(sys.stdout)
        print_report(make_console(stderr=piped_feedback), report, dry_run=dry_run, show_diff=show_diff)
        if formatter:
            output = sys.stderr if piped_feedback else sys.stdout
            formatted = _format(formatter, root, report, dry_run, entry_before, output)
            click.echo(formatted.summary(), err=piped_feedback)
            status = _with_held(status, formatted.held)
        if verify_command is not None:
            output = sys.stderr if piped_feedback else sys.stdout
            checked = _verify(verify_command, root, report, dry_run, entry_before, revert_on_fail, output)
            echo(checked.summary(), err=piped_feedback)
            if checked.revert_line():
                echo(checked.revert_line(), err=piped_feedback)
            status = _with_held(_with_verify(status, checked.failed), checked.held)
        if piped_feedback:
            if message:  # it quotes the reply (target names, paths): made visible on a pipe too (issue 28)
                echo(message, nl=False)
        elif feedback:
            _copy_feedback(message)
    sys.exit(status)


def _feedback(report: Report, root: Path) -> str | None:
    from kopipasta.loop.feedback import feedback_message

    return feedback_message(report, root)


def _copy_feedback(message: str | None) -> None:
    """On a terminal: put the correction message on the clipboard (or print it), and say so."""
    if message is None:
        echo("No correction message: nothing failed.")
        return
    from kopipasta.loop.clipboard import copy_osc52, copy_text, osc52_note

    problem = copy_text(message)
    if problem is None:
        echo("📋 Copied a correction message for the model: paste it into your chat.")
        return
    echo(message, nl=False)
    also = f", and {osc52_note()}" if copy_osc52(message, sys.stdout) else ", not copied"
    echo(f"⚠ Correction message printed above{also}: {problem}")


def _format_setting(root: Path, as_json: bool, dry_run: bool) -> str:
    """The `format` setting's command ("" for none); a broken settings file fails before anything is written."""
    from kopipasta.loop.settings import SettingsProblem, load_settings
    from kopipasta.report import EXIT_NO_PATCH

    try:
        return load_settings(root).format
    except SettingsProblem as error:
        (fail_json(dry_run) if as_json else fail)(str(error), EXIT_NO_PATCH)
        raise AssertionError("unreachable") from None


def _format(
    command: str, root: Path, report: Report, dry_run: bool, entry_before: str | None, output: TextIO
) -> FormatResult:
    """Run the formatter on what this apply wrote (or say why not): never anything it did not write."""
    from kopipasta.disk import journal
    from kopipasta.loop.formatter import FormatResult, run_formatter

    if dry_run:
        return FormatResult("", ran=False, skipped="--dry-run wrote nothing")
    entry = journal.newest(root) if report.written else None
    if entry is None or entry == entry_before:
        return FormatResult("", ran=False, skipped="this apply wrote nothing")
    announce = (lambda ran: click.echo(f"▶ format: {ran}")) if output is sys.stdout else None
    return run_formatter(command, root, entry, output=output, announce=announce)


def _verify(
    command: str,
    root: Path,
    report: Report,
    dry_run: bool,
    entry_before: str | None,
    revert_on_fail: bool,
    output: TextIO,
) -> VerifyResult:
    """Run --verify after an apply (or say why not); revert only the entry this apply made."""
    from kopipasta.disk import journal
    from kopipasta.loop.verify import VerifyResult, verify

    if dry_run:
        return VerifyResult(command, ran=False, skipped="--dry-run wrote nothing")
    if report.reply_error:
        return VerifyResult(command, ran=False, skipped="the reply held no patch")
    if report.failed and not report.written:
        return VerifyResult(command, ran=False, skipped="patches failed and nothing was written")
    entry = journal.newest(root) if report.written else None
    if output is sys.stdout:
        echo(f"▶ verify: {command}")
    return verify(
        command,
        root,
        output=output,
        entry=entry if entry != entry_before else None,
        revert_on_fail=revert_on_fail,
    )


def _with_held(status: int, held: str) -> int:
    """A format or verify step held back by a file this apply wrote is exit 4, unless 1 or 2 came first."""
    from kopipasta.report import EXIT_FAILED, EXIT_NO_PATCH, EXIT_STEP_HELD

    return EXIT_STEP_HELD if held and status not in (EXIT_FAILED, EXIT_NO_PATCH) else status


def _with_verify(status: int, verify_failed: bool) -> int:
    """A failed --verify is exit 3, unless the apply itself already failed (1) or had no patch (2)."""
    from kopipasta.report import EXIT_OK, EXIT_VERIFY_FAILED

    return EXIT_VERIFY_FAILED if verify_failed and status == EXIT_OK else status


@main.command()
@click.option(
    "--into",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the demo project (default: a new temporary folder).",
)
def demo(into: Path | None) -> None:
    """Apply a bundled LLM reply to a copy of a bundled sample project and show the diff."""
    from kopipasta.loop.demo import run_demo

    sys.exit(run_demo(into))


@main.command()
@ROOT_OPTION
@click.option("--force", is_flag=True, help="Put the files back even if they were changed since the apply.")
def undo(root: Path, force: bool) -> None:
    """Put back the last apply byte for byte (files it created are deleted).

    Run it again to step back through earlier applies, newest first. It refuses,
    listing the files, when any was changed since that apply, unless --force.

    \b
    Exit status: 0 undone; 1 refused, or nothing to undo.
    """
    from kopipasta.disk import journal
    from kopipasta.disk.undo import undo_newest
    from kopipasta.loop.verify import undo_line

    try:
        result = undo_newest(root, force=force)
    except journal.ChangedSince as refused:
        fail(f"{refused} — review them, then `kopipasta undo --force` puts the apply's previous bytes back", 1)
    except journal.JournalError as error:
        fail(str(error), 1)
    from kopipasta.loop.applylog import record_undo

    record_undo(root)
    echo(f"↩ {undo_line(result)}")
