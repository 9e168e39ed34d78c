"""The command line: parse options, call the library, print, choose the exit status.

Only this module imports click. Library errors become one-line messages here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from kopipasta.report import EXIT_NO_PATCH, error_text

if TYPE_CHECKING:
    from kopipasta.model import Report
    from kopipasta.verify import VerifyResult

_ROOT_OPTION = click.option(
    "--root",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="Project root: every FILE path is relative to it, and nothing outside it is touched.",
)

_TEMPLATE_OPTION = click.option(
    "--template",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A Jinja2 template to render instead of .kopipasta/prompt.j2 or the built-in one.",
)
_TASK_OPTION = click.option("-t", "--task", default="", help="The task for the model, or @FILE to read it from a file.")

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
  1  at least one patch failed (with --strict, nothing was written);
     takes precedence over 3
  2  the reply could not be read, or held no patch at all
     (also: the options were wrong, as for any click usage error)
  3  the patches were written but the --verify command failed or could
     not start (with --revert-on-fail they were put back, unless a file
     changed after the apply: then the report says so)

\b
--verify runs only after a real apply that wrote files or found every
patch already in place; not with --dry-run, nor when patches failed and
nothing was written. Its output goes to stdout, or to stderr with --json,
where the JSON gets a "verify" object.
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


def read_task(task: str) -> str:
    """The task as given, or the contents of FILE for `@FILE`."""
    if not task.startswith("@"):
        return task
    try:
        return Path(task[1:]).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        detail = error.strerror if isinstance(error, OSError) and error.strerror else "not UTF-8 text"
        fail(f"Cannot read the task from {task[1:]}: {detail}", 1)
    raise AssertionError("unreachable")


def fail(message: str, status: int) -> None:
    click.echo(f"❌ {message}", err=True)
    sys.exit(status)


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kopipasta")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Apply an LLM's reply to your code structurally: exact definitions, never fuzzy text.

    Alone, `kopipasta` runs `kopipasta session` with no files (or, with a
    reply piped on stdin, applies it).
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(session)


@main.command(epilog=APPLY_EPILOG)
@click.argument("reply", required=False)
@_ROOT_OPTION
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
@click.option("--verify", "verify_command", metavar="CMD", help="After writing, run CMD with the shell in the root; exit 3 if it fails.")
@click.option("--revert-on-fail", is_flag=True, help="When --verify fails, put back exactly what this apply wrote.")
@click.option(
    "--allow-delete",
    is_flag=True,
    help="Let the reply delete and rename files (/dev/null diffs, *** Delete File, *** Move to, <<<DELETE>>>); "
    "without it such a block fails. Undo puts deleted files back.",
)
def apply(
    reply: str | None,
    root: Path,
    dry_run: bool,
    strict: bool,
    as_json: bool,
    diff: bool | None,
    only: tuple[str, ...],
    verify_command: str | None,
    revert_on_fail: bool,
    allow_delete: bool,
) -> None:
    """Apply the patches in REPLY (a file, '-' or stdin) to the project."""
    from kopipasta import journal
    from kopipasta.engine import apply_reply
    from kopipasta.report import EXIT_FAILED, exit_status

    if revert_on_fail and not verify_command:
        raise click.UsageError("--revert-on-fail needs --verify CMD: it reverts when that command fails")
    text = read_reply(reply)
    entry_before = journal.newest(root)
    try:
        report = apply_reply(text, root, dry_run=dry_run, strict=strict, only=only, allow_delete=allow_delete)
    except (OSError, journal.JournalError) as error:
        fail(f"Cannot write the patched files: {error_text(error)}", EXIT_FAILED)
    status = exit_status(report)
    if as_json:
        from kopipasta.report import report_json

        extra: dict[str, object] = {}
        if verify_command is not None:
            checked = _verify(verify_command, root, report, dry_run, entry_before, revert_on_fail, sys.stderr)
            status = _with_verify(status, checked.failed)
            extra = {"exit_status": status, "verify": checked.to_json()}
        click.echo(report_json(report, dry_run=dry_run, extra=extra))
    else:
        from kopipasta.report import make_console, print_report

        show_diff = dry_run if diff is None else diff
        print_report(make_console(), report, dry_run=dry_run, show_diff=show_diff)
        if verify_command is not None:
            checked = _verify(verify_command, root, report, dry_run, entry_before, revert_on_fail, sys.stdout)
            click.echo(checked.summary())
            if checked.revert_line():
                click.echo(checked.revert_line())
            status = _with_verify(status, checked.failed)
    sys.exit(status)


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
    from kopipasta import journal
    from kopipasta.verify import VerifyResult, verify

    if dry_run:
        return VerifyResult(command, ran=False, skipped="--dry-run wrote nothing")
    if report.reply_error:
        return VerifyResult(command, ran=False, skipped="the reply held no patch")
    if report.failed and not report.written:
        return VerifyResult(command, ran=False, skipped="patches failed and nothing was written")
    entry = journal.newest(root) if report.written else None
    if output is sys.stdout:
        click.echo(f"▶ verify: {command}")
    return verify(
        command,
        root,
        output=output,
        entry=entry if entry != entry_before else None,
        revert_on_fail=revert_on_fail,
    )


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
    from kopipasta.demo import run_demo

    sys.exit(run_demo(into))


@main.command()
@_ROOT_OPTION
@click.option("--force", is_flag=True, help="Put the files back even if they were changed since the apply.")
def undo(root: Path, force: bool) -> None:
    """Put back the last apply byte for byte (files it created are deleted).

    Run it again to step back through earlier applies, newest first. It refuses,
    listing the files, when any was changed since that apply, unless --force.

    \b
    Exit status: 0 undone; 1 refused, or nothing to undo.
    """
    from kopipasta import journal
    from kopipasta.verify import undo_line

    try:
        result = journal.undo(root, force=force)
    except journal.ChangedSince as refused:
        fail(f"{refused} — review them, then `kopipasta undo --force` puts the apply's previous bytes back", 1)
    except journal.JournalError as error:
        fail(str(error), 1)
    click.echo(f"↩ {undo_line(result)}")


@main.command(short_help="List the definitions a patch can target in each FILE.")
@click.argument("files", nargs=-1, required=True)
@_ROOT_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {file, definitions} on stdout.")
def nodes(files: tuple[str, ...], root: Path, as_json: bool) -> None:
    """List the definitions each FILE offers to TARGET_NODE: kind, qualified name, lines.

    For a JSON file, its top-level keys (TARGET_PATH). A file that is missing or
    has no grammar is reported on stderr; the others are still listed (exit 1).
    """
    import json

    from kopipasta.errors import PatchError
    from kopipasta.inventory import file_definitions, root_relative, target_names
    from kopipasta.workspace import normalise

    listed: list[tuple[str, list[tuple[str, str, str]]]] = []
    records: list[dict[str, object]] = []
    failed = False
    for file in files:
        relative = root_relative(file, root)
        try:
            path = normalise(relative)
            definitions = file_definitions(root, relative)
        except PatchError as error:
            click.echo(f"❌ {error}", err=True)
            records.append({"file": file, "error": str(error), "definitions": []})
            failed = True
            continue
        names = target_names(definitions)
        rows = [(d.kind, name, _line_range(d.line, d.end_line)) for d, name in zip(definitions, names, strict=True)]
        listed.append((path, rows))
        records.append(
            {
                "file": path,
                "definitions": [
                    {"kind": d.kind, "name": d.name, "qualified_name": d.qualified_name, "line": d.line, "end_line": d.end_line}
                    for d in definitions
                ],
            }
        )
    if as_json:
        click.echo(json.dumps(records, indent=2, ensure_ascii=False))
    else:
        _print_nodes(listed)
    sys.exit(1 if failed else 0)


def _line_range(line: int, end_line: int) -> str:
    return str(line) if line == end_line else f"{line}-{end_line}"


def _print_nodes(listed: list[tuple[str, list[tuple[str, str, str]]]]) -> None:
    from rich.text import Text

    from kopipasta.report import make_console

    console = make_console()
    every = [row for _, rows in listed for row in rows]
    kind_width = max((len(kind) for kind, _, _ in every), default=0)
    name_width = max((len(name) for _, name, _ in every), default=0)
    for number, (path, rows) in enumerate(listed):
        if number:
            console.print()
        console.print(Text(path, style="bold"))
        if not rows:
            console.print(Text("  (no definitions)", style="dim"))
        for kind, name, lines in rows:
            line = Text("  ")
            line.append(kind.ljust(kind_width), style="cyan")
            line.append("  ")
            line.append(name.ljust(name_width))
            line.append("  ")
            line.append(lines, style="dim")
            console.print(line)


@main.command("prompt", short_help="Copy a prompt for FILES that teaches the model the reply format.")
@click.argument("files", nargs=-1, required=True)
@_TASK_OPTION
@_ROOT_OPTION
@_TEMPLATE_OPTION
@click.option("--stdout", "to_stdout", is_flag=True, help="Print the prompt instead of copying it to the clipboard.")
def prompt_command(files: tuple[str, ...], task: str, root: Path, template: Path | None, to_stdout: bool) -> None:
    """Copy a prompt for FILES to the clipboard: the task, the files, the names it can target, and the reply format.

    Paste it into a chat model, then apply its reply with `kopipasta apply`.
    Without a clipboard (over SSH, or no xclip/xsel/wl-clipboard) it prints the prompt.
    """
    from kopipasta.errors import PatchError
    from kopipasta.inventory import root_relative
    from kopipasta.prompt import estimate_tokens, render_prompt

    task = read_task(task)
    try:
        text = render_prompt([root_relative(f, root) for f in files], task=task, root=root, template=template)
    except PatchError as error:
        fail(str(error), 1)
    if to_stdout:
        click.echo(text, nl=False)
        return
    from kopipasta.clipboard import copy_text

    reason = copy_text(text)
    if reason is not None:
        click.echo(text, nl=False)
        click.echo(f"⚠ Prompt printed, not copied: {reason}", err=True)
        return
    count = len(dict.fromkeys(files))
    click.echo(f"📋 Copied the prompt to the clipboard: {count} file{'s' if count != 1 else ''}, ~{estimate_tokens(text):,} tokens")


SESSION_EPILOG = """\b
Keys (no Enter needed):
  p  apply the reply on the clipboard, show the report and the diff
  d  the same as a dry run: show what would change, write nothing
  u  undo the last apply (as `kopipasta undo`)
  r  re-render and re-copy the prompt with the files' current contents
  q  quit (also Ctrl-C, Ctrl-D)

\b
Without a clipboard (over SSH, or no xclip/xsel/wl-clipboard), p and d read
the reply from the terminal: paste it, then press Ctrl-D on an empty line.
Without a terminal on stdin, the reply is read from stdin once and applied
as `kopipasta apply` would, with the same exit status.
"""


@main.command(epilog=SESSION_EPILOG)
@click.argument("files", nargs=-1)
@_TASK_OPTION
@_ROOT_OPTION
@_TEMPLATE_OPTION
def session(files: tuple[str, ...], task: str, root: Path, template: Path | None) -> None:
    """Copy a prompt for FILES, then apply the model's reply from the clipboard with one key.

    This is what `kopipasta` alone runs. With no FILES the prompt holds just
    the task and the reply format.
    """
    from kopipasta.inventory import root_relative
    from kopipasta.session import run_session

    task = read_task(task)
    relative = [root_relative(f, root) for f in files]
    sys.exit(run_session(relative, task=task, root=root, template=template))


if __name__ == "__main__":
    main()
