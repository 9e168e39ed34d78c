"""The command line: parse options, call the library, print, choose the exit status.

Only this module imports click. Library errors become one-line messages here.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from kopipasta.plain import is_terminal, json_visible, visible

if TYPE_CHECKING:
    from kopipasta.loop.formatter import FormatResult
    from kopipasta.loop.verify import VerifyResult
    from kopipasta.model import Report

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
_OUTLINE_OPTION = click.option(
    "--outline",
    "outline",
    multiple=True,
    metavar="GLOB",
    help="Send the code files matching GLOB as their list of definitions (as `nodes` shows), not their text: "
    "for files too long to be worth sending. Repeatable; adds to the `outline` setting.",
)

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


def read_reply(reply: str | None, *, as_json: bool = False, dry_run: bool = False) -> str:
    """The reply's text from a file, `-`, or piped stdin; click.UsageError-free failures exit 2.

    Under --json a reply that cannot be read is still a JSON report on stdout.
    """
    from kopipasta.disk import limits
    from kopipasta.report import EXIT_NO_PATCH

    failed = _fail_json(dry_run) if as_json else fail
    data = b""
    try:
        if reply in (None, "-"):
            if reply is None and sys.stdin.isatty():
                failed("No reply given: pass a file, '-', or pipe the reply on stdin", EXIT_NO_PATCH)
            data = limits.read_bounded(sys.stdin.buffer)
        else:
            with open(reply, "rb") as stream:
                data = limits.read_bounded(stream)
    except limits.ReplyTooLarge as error:
        failed(str(error), EXIT_NO_PATCH)
    except OSError as error:
        where = "" if reply in (None, "-") else f" {reply}"
        failed(f"Cannot read reply{where}: {error.strerror or error}", EXIT_NO_PATCH)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        failed(f"Cannot read reply: it is not UTF-8 text (byte {error.start})", EXIT_NO_PATCH)
    raise AssertionError("unreachable")


def _fail_json(dry_run: bool) -> Callable[[str, int], None]:
    def failed(message: str, status: int) -> None:
        from kopipasta.model import Report
        from kopipasta.report import report_json

        _echo_data(report_json(Report((), (), written=False, reply_error=message), dry_run=dry_run))
        fail(message, status)

    return failed


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


def _echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """A line for a person: every character a terminal would obey made visible (plain.visible, issue 18)."""
    click.echo(visible(text), err=err, nl=nl)


def _echo_data(text: str, *, nl: bool = True) -> None:
    """Output a program may read (JSON, a prompt, a correction): exact on a pipe, made visible on a terminal."""
    click.echo(visible(text) if is_terminal(sys.stdout) else text, nl=nl)


def fail(message: str, status: int) -> None:
    _echo(f"❌ {message}", err=True)
    sys.exit(status)


# Options of `session` that may come first: `kopipasta -t "task" app.py`.
_SESSION_OPTIONS = ("-t", "--task", "--root", "--template", "--outline")


class _FilesOrCommand(click.Group):
    """`kopipasta app/tokens.py src/ -t task` is `kopipasta session app/tokens.py src/ -t task`.

    The first argument is a command when it names one; it starts a session when
    it is a session option, or looks like a path or glob (exists, or holds `/`,
    `.` or a glob character). Anything else stays click's "No such command".
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and _starts_a_session(args[0]):
            args = ["session", *args]
        return super().parse_args(ctx, args)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().main(*args, **kwargs)
        except OSError as error:  # our own output on a full disk (`> /dev/full`), a closed pipe, …
            _output_failed(error)


def _output_failed(error: OSError) -> None:
    """One line on stderr, exit 1; stdout is pointed at /dev/null so nothing is left to flush."""
    import os

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    try:
        sys.stderr.write(f"❌ Cannot write the output: {error.strerror or error}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    sys.exit(1)


def _starts_a_session(first: str) -> bool:
    if first.startswith("-"):
        return first in _SESSION_OPTIONS or first.startswith(tuple(f"{o}=" for o in _SESSION_OPTIONS if o.startswith("--")))
    return Path(first).exists() or any(char in first for char in "/.*?[")


@click.group(
    cls=_FilesOrCommand,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(package_name="kopipasta")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Apply an LLM's reply to your code structurally: exact definitions, never fuzzy text.

    Alone, `kopipasta` opens a file picker on a terminal, then runs the session
    (with a reply piped on stdin, it applies it). `kopipasta FILES... -t TASK`
    runs `kopipasta session FILES... -t TASK`.
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
        _echo_data(report_json(report, dry_run=dry_run, extra=extra, show_diff=diff is True))
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
            _echo(checked.summary(), err=piped_feedback)
            if checked.revert_line():
                _echo(checked.revert_line(), err=piped_feedback)
            status = _with_held(_with_verify(status, checked.failed), checked.held)
        if piped_feedback:
            if message:  # it quotes the reply (target names, paths): made visible on a pipe too (issue 28)
                _echo(message, nl=False)
        elif feedback:
            _copy_feedback(message)
    sys.exit(status)


def _feedback(report: Report, root: Path) -> str | None:
    from kopipasta.loop.feedback import feedback_message

    return feedback_message(report, root)


def _copy_feedback(message: str | None) -> None:
    """On a terminal: put the correction message on the clipboard (or print it), and say so."""
    if message is None:
        _echo("No correction message: nothing failed.")
        return
    from kopipasta.loop.clipboard import copy_osc52, copy_text, osc52_note

    problem = copy_text(message)
    if problem is None:
        _echo("📋 Copied a correction message for the model: paste it into your chat.")
        return
    _echo(message, nl=False)
    also = f", and {osc52_note()}" if copy_osc52(message, sys.stdout) else ", not copied"
    _echo(f"⚠ Correction message printed above{also}: {problem}")


def _format_setting(root: Path, as_json: bool, dry_run: bool) -> str:
    """The `format` setting's command ("" for none); a broken settings file fails before anything is written."""
    from kopipasta.loop.settings import SettingsProblem, load_settings
    from kopipasta.report import EXIT_NO_PATCH

    try:
        return load_settings(root).format
    except SettingsProblem as error:
        (_fail_json(dry_run) if as_json else fail)(str(error), EXIT_NO_PATCH)
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
        _echo(f"▶ verify: {command}")
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
@_ROOT_OPTION
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
    _echo(f"↩ {undo_line(result)}")


@main.command(short_help="List the definitions a patch can target in each FILE.")
@click.argument("files", nargs=-1, required=True)
@_ROOT_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {file, definitions} on stdout.")
def nodes(files: tuple[str, ...], root: Path, as_json: bool) -> None:
    """List the definitions each FILE offers to TARGET_NODE: kind, qualified name, lines.

    For a JSON, YAML or TOML file, its top-level keys (and TOML's tables), for
    TARGET_PATH. Names read as the file's language writes them (Ruby:
    `Rack::ETag#call`). A file that is missing or has no grammar is reported on
    stderr; the others are still listed (exit 1).
    """
    from kopipasta.code.read.inventory import (
        definitions_of,
        load_existing,
        root_relative,
        target_names,
    )
    from kopipasta.disk.workspace import normalise
    from kopipasta.errors import PatchError

    listed: list[tuple[str, list[tuple[str, str, str]]]] = []
    records: list[dict[str, object]] = []
    failed = False
    for file in files:
        relative = root_relative(file, root)
        try:
            path = normalise(relative)
            source = load_existing(root, relative)
            definitions = definitions_of(source)
        except PatchError as error:
            _echo(f"❌ {error}", err=True)
            records.append({"file": file, "error": str(error), "definitions": []})
            failed = True
            continue
        names = target_names(definitions, source)
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
        import json

        _echo_data(json_visible(json.dumps(records, indent=2, ensure_ascii=False)))
    else:
        _print_nodes(listed)
    sys.exit(1 if failed else 0)


def _line_range(line: int, end_line: int) -> str:
    return str(line) if line == end_line else f"{line}-{end_line}"


def _print_nodes(listed: list[tuple[str, list[tuple[str, str, str]]]]) -> None:
    from kopipasta.plain import make_console  # not report's: `nodes` needs no model (issue 9)

    console = make_console()
    # Names from the files (a JSON key may hold ESC) are made visible before columns are measured.
    listed = [(visible(path), [(kind, visible(name), lines) for kind, name, lines in rows]) for path, rows in listed]
    every = [row for _, rows in listed for row in rows]
    kind_width = max((len(kind) for kind, _, _ in every), default=0)
    name_width = max((len(name) for _, name, _ in every), default=0)
    if getattr(console, "is_plain", False):
        # On a pipe the same lines without colour, and without importing rich.
        for number, (path, rows) in enumerate(listed):
            if number:
                console.print()
            console.print(path, markup=False)
            if not rows:
                console.print("  (no definitions)", markup=False)
            for kind, name, lines in rows:
                console.print(f"  {kind.ljust(kind_width)}  {name.ljust(name_width)}  {lines}", markup=False)
        return
    from rich.text import Text

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
@_OUTLINE_OPTION
@click.option("--stdout", "to_stdout", is_flag=True, help="Print the prompt instead of copying it to the clipboard.")
def prompt_command(
    files: tuple[str, ...], task: str, root: Path, template: Path | None, outline: tuple[str, ...], to_stdout: bool
) -> None:
    """Copy a prompt for FILES to the clipboard: the task, the files, the names it can target, and the reply format.

    FILES are files, directories (walked, honouring .gitignore, skipping binary
    files) or globs. Paste the prompt into a chat model, then apply its reply
    with `kopipasta apply`. Without a clipboard tool it is sent with the
    terminal's OSC 52 sequence when stdout is a terminal, else printed.
    """
    from kopipasta.errors import PatchError
    from kopipasta.loop.prompt import render_prompt
    from kopipasta.loop.tokens import count_tokens, may_exceed, warning_line

    task = read_task(task)
    chosen = _selection(files, root, template, outline)
    selected = chosen.files
    try:
        text = render_prompt(selected, task=task, root=root, template=chosen.template, outline=chosen.outline)
    except PatchError as error:
        fail(str(error), 1)
    tokens = count_tokens(text) if not to_stdout or may_exceed(text, chosen.token_warning) else None
    warning = warning_line(tokens, chosen.token_warning) if tokens is not None else None
    if warning:  # before the prompt lands: on stderr, so --stdout stays the prompt alone
        click.echo(warning, err=True)
    if to_stdout:
        _echo_data(text, nl=False)
        return
    assert tokens is not None
    from kopipasta.loop.clipboard import copy_osc52, copy_text, osc52_note

    count = len(selected)
    size = f"{count} file{'s' if count != 1 else ''}, {tokens.label()}"
    empty_task = "" if task.strip() else " It ends with an empty task: write yours below it in the chat."
    reason = copy_text(text)
    if reason is None:
        _echo(f"📋 Copied the prompt to the clipboard: {size}.{empty_task}")
        return
    _echo_data(text, nl=False)
    if copy_osc52(text, sys.stdout):
        _echo(f"⚠ Prompt printed, and {osc52_note()}: {reason}", err=True)
    else:
        _echo(f"⚠ Prompt printed, not copied: {reason}", err=True)


class _Chosen:
    """What a prompt is made of: the files, the template, which files go as their outline, the warning's threshold."""

    def __init__(self, files: list[str], template: Path | None, outline: set[str], token_warning: int) -> None:
        self.files, self.template, self.outline, self.token_warning = files, template, outline, token_warning


def _settings(root: Path) -> Any:
    from kopipasta.loop.settings import SettingsProblem, load_settings

    try:
        return load_settings(root)
    except SettingsProblem as error:
        fail(str(error), 1)
        raise AssertionError("unreachable") from None


def _selection(files: tuple[str, ...], root: Path, template: Path | None, outline: tuple[str, ...] = ()) -> _Chosen:
    """FILES (files, directories, globs) as root-relative files, with the settings that shape the prompt."""
    from kopipasta.loop.selection import matching, select_files

    settings = _settings(root)
    selection = select_files(files, root, exclude=settings.exclude)
    for empty in selection.empty:
        _echo(f"⚠ {empty} matched no text file (after .gitignore)", err=True)
    if selection.skipped_binary:
        count = selection.skipped_binary
        _echo(f"⚠ Skipped {count} file{'s' if count != 1 else ''} that {'are' if count != 1 else 'is'} not text", err=True)
    if files and not selection.files:
        fail("No files to put in the prompt: every directory and glob given matched nothing", 1)
    return _Chosen(
        list(selection.files),
        template if template is not None else settings.template,
        matching(selection.files, (*settings.outline, *outline)),
        settings.token_warning,
    )


MCP_EPILOG = """\b
Register it with your agent (each runs the command itself; nothing to start by hand):
  Claude Code     claude mcp add kopipasta -- kopipasta mcp --root /path/to/project
  Claude Desktop  claude_desktop_config.json: {"mcpServers": {"kopipasta":
                  {"command": "kopipasta", "args": ["mcp", "--root", "/path/to/project"]}}}
  Cursor          .cursor/mcp.json in the project: the same "mcpServers" entry
  Codex           ~/.codex/config.toml: [mcp_servers.kopipasta]
                  command = "kopipasta"
                  args = ["mcp", "--root", "/path/to/project"]

\b
Tools: list_definitions, read_definition, replace_definition, insert_definition,
delete_definition, set_value, apply_reply, undo. Every edit tool takes dry_run;
every result lists each file written with its sha256 before and after, the
lines that changed and the diff. A refused edit (target missing or ambiguous,
code that would not parse) is an error result with the reason and the fix, and
writes nothing. Needs the MCP SDK, the `mcp` extra: in kopipasta's clone,
pip install -e '.[mcp]' (`pip install kopipasta` from the package index
fetches a different, older program).
"""


def _install_extra(extra: str) -> str:
    """The line that installs `extra` into this kopipasta: its clone's path when it runs from one.

    Never `pip install 'kopipasta[…]'`: the package index's kopipasta is another program.
    """
    clone = Path(__file__).resolve().parent.parent
    with contextlib.suppress(OSError):
        if 'name = "kopipasta"' in (clone / "pyproject.toml").read_text(encoding="utf-8"):
            return f"pip install -e '{clone}[{extra}]'"
    return f"in kopipasta's clone, run pip install -e '.[{extra}]'"


@main.command("mcp", epilog=MCP_EPILOG, short_help="Serve kopipasta's edit tools to a coding agent (MCP, stdio).")
@_ROOT_OPTION
def mcp_command(root: Path) -> None:
    """Serve kopipasta's structural edit tools to a coding agent over MCP.

    MCP (the Model Context Protocol) is how coding agents such as Claude Code,
    Cursor and Codex call outside tools. The agent starts this command and
    talks to it on stdin/stdout; you do not run it in a terminal yourself.
    Through it the agent edits code by definition name (replace a method,
    insert a function after another, set a key in package.json) with
    kopipasta's checks, atomic writes and undo, instead of text replacement.
    """
    try:
        from kopipasta.agents.server import serve
    except ImportError as error:
        fail(f"kopipasta mcp needs the MCP SDK ({error.name or error}): {_install_extra('mcp')}", 1)
    from kopipasta.startup.shortrun import pace_for_a_long_run

    pace_for_a_long_run()  # a server runs for hours: the collector's usual pace, the ordinary exit
    if sys.stdin.isatty():  # a person, not an agent: say what this is (stderr: stdout is the protocol's)
        click.echo(
            "kopipasta mcp serves MCP on stdin/stdout for a coding agent, which starts it itself "
            "(see `kopipasta mcp --help`). Ctrl-C to stop.",
            err=True,
        )
    serve(root)


@main.command(short_help="How replies fared here: protocol use, failures, undo rate.")
@_ROOT_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
def stats(root: Path, as_json: bool) -> None:
    """Count, over this project's apply log (.kopipasta/log.jsonl), how replies fared.

    How many replies followed the protocol, how each block was read and
    whether it applied, why blocks failed, and how many applies were undone
    with `undo` or the session's u. Each apply that is not a dry run adds a
    line: its time, and per block the form, the language and the outcome;
    no code, no paths, no model or prompt.
    """
    import json

    from kopipasta.loop.applylog import log_path
    from kopipasta.loop.applystats import Stats, read_stats, stats_lines

    found = read_stats(root)
    if as_json:
        _echo_data(json.dumps((found or Stats()).to_json(), indent=2))
        return
    where = log_path(root).relative_to(root).as_posix()
    if found is None:
        _echo(f"No apply log yet ({where}): every `kopipasta apply` that is not a dry run adds a line.")
        return
    for line in stats_lines(found, where):
        _echo(line)


SESSION_EPILOG = """\b
Keys (no Enter needed):
  p  apply the reply on the clipboard, show the report and the diff
  d  the same as a dry run: show what would change, write nothing
  f  after a failure: copy a correction message for the model (the
     failed blocks' reasons, the files' real targets, "resend only these";
     for a target you changed since the prompt, its current code)
  w  after a failure: write the blocks of the last reply that succeeded
     (as `apply --partial`)
  u  undo the last apply (as `kopipasta undo`)
  r  re-render and re-copy the prompt with the files' current contents
  q  quit (also Ctrl-C, Ctrl-D)

\b
FILES may be files, directories (walked, honouring .gitignore) and globs.
With no FILES on a terminal, a file picker opens first: type to filter,
space ticks a file or folder, ctrl-o sends a file as its definitions only,
Enter goes on to the task (the last selection and task are offered again).
The prompt's size in tokens is shown; above the token_warning setting
(default 30000) a warning comes before the copy.
Without a clipboard (over SSH, or no xclip/xsel/wl-clipboard), the prompt is
sent with the terminal's OSC 52 sequence, and p and d read the reply from
the terminal: paste it, then press Ctrl-D.
Without a terminal on stdin, the reply is read from stdin once and applied
as `kopipasta apply` would, with the same exit status.
"""


@main.command(epilog=SESSION_EPILOG)
@click.argument("files", nargs=-1)
@_TASK_OPTION
@_ROOT_OPTION
@_TEMPLATE_OPTION
@_OUTLINE_OPTION
def session(files: tuple[str, ...], task: str, root: Path, template: Path | None, outline: tuple[str, ...]) -> None:
    """Copy a prompt for FILES, then apply the model's reply from the clipboard with one key.

    This is what `kopipasta` alone runs. With no FILES on a terminal it opens a
    file picker over the project (the last selection and task are offered
    again); without a terminal, a reply piped on stdin is applied.
    """
    from kopipasta.loop.session import run_session

    task = read_task(task)
    if not files and sys.stdin is not None and sys.stdin.isatty():
        files, task, outline = _picked(root, task, outline)
    chosen = _selection(files, root, template, outline)
    sys.exit(
        run_session(
            chosen.files, task=task, root=root, template=chosen.template,
            outline=chosen.outline, token_warning=chosen.token_warning,
        )
    )


def _picked(root: Path, task: str, outline: tuple[str, ...]) -> tuple[tuple[str, ...], str, tuple[str, ...]]:
    """No FILES on a terminal: the files, task and outlined files the picker gives; exits when it cannot run."""
    import importlib.util

    from kopipasta.plain import is_terminal

    if not is_terminal(sys.stdout) or importlib.util.find_spec("termios") is None:
        fail(
            "No files given: name the files for the prompt, e.g. `kopipasta app/ 'src/**/*.ts' -t TASK` "
            "(the file picker needs a terminal on stdin and stdout)",
            2,
        )
    from kopipasta.loop.picker import Left, PickerUnavailable, choose

    settings = _settings(root)
    try:
        chosen = choose(root, task, exclude=settings.exclude, token_warning=settings.token_warning)
    except PickerUnavailable as error:
        fail(str(error), 2)
        raise AssertionError("unreachable") from None
    if isinstance(chosen, Left):
        if chosen.ticked:
            files = f"{chosen.ticked} file{'s' if chosen.ticked != 1 else ''}"
            click.echo(f"Left the picker: {files} ticked, kept for next time; no prompt copied. Bye.")
        else:
            click.echo("Left the picker with no file ticked: no prompt copied. Bye.")
        sys.exit(0)
    return chosen.files, chosen.task, (*outline, *("/" + f for f in chosen.outline))  # "/": this file, not its namesakes


if __name__ == "__main__":
    main()
