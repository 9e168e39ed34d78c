"""The command group, its shared options and the helpers every command prints and fails with.

The commands live in the modules `_COMMANDS` names, each imported when its
command runs (or when `--help` lists them): `kopipasta apply` loads nothing of
`prompt`, `session` or `mcp`.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from kopipasta.plain import is_terminal, visible

# Each command's module (kopipasta/cli/<module>.py), imported when the command is asked for.
_COMMANDS = {
    "apply": "apply_command",
    "demo": "apply_command",
    "undo": "apply_command",
    "nodes": "listing",
    "stats": "listing",
    "prompt": "prompting",
    "session": "prompting",
    "mcp": "serving",
}

ROOT_OPTION = click.option(
    "--root",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="Project root: every FILE path is relative to it, and nothing outside it is touched.",
)

TEMPLATE_OPTION = click.option(
    "--template",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A Jinja2 template to render instead of .kopipasta/prompt.j2 or the built-in one.",
)
TASK_OPTION = click.option("-t", "--task", default="", help="The task for the model, or @FILE to read it from a file.")
OUTLINE_OPTION = click.option(
    "--outline",
    "outline",
    multiple=True,
    metavar="GLOB",
    help="Send the code files matching GLOB as their list of definitions (as `nodes` shows), not their text: "
    "for files too long to be worth sending. Repeatable; adds to the `outline` setting.",
)


def read_reply(reply: str | None, *, as_json: bool = False, dry_run: bool = False) -> str:
    """The reply's text from a file, `-`, or piped stdin; click.UsageError-free failures exit 2.

    Under --json a reply that cannot be read is still a JSON report on stdout.
    """
    from kopipasta.disk import limits
    from kopipasta.report import EXIT_NO_PATCH

    failed = fail_json(dry_run) if as_json else fail
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


def fail_json(dry_run: bool) -> Callable[[str, int], None]:
    def failed(message: str, status: int) -> None:
        from kopipasta.model import Report
        from kopipasta.report import report_json

        echo_data(report_json(Report((), (), written=False, reply_error=message), dry_run=dry_run))
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


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """A line for a person: every character a terminal would obey made visible (plain.visible, issue 18)."""
    click.echo(visible(text), err=err, nl=nl)


def echo_data(text: str, *, nl: bool = True) -> None:
    """Output a program may read (JSON, a prompt, a correction): exact on a pipe, made visible on a terminal."""
    click.echo(visible(text) if is_terminal(sys.stdout) else text, nl=nl)


def fail(message: str, status: int) -> None:
    echo(f"❌ {message}", err=True)
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
        if args and args[0] not in _COMMANDS and _starts_a_session(args[0]):
            args = ["session", *args]
        return super().parse_args(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command, its module imported first: a run loads only the command it runs."""
        if name in _COMMANDS and name not in self.commands:
            importlib.import_module(f"kopipasta.cli.{_COMMANDS[name]}")
        return super().get_command(ctx, name)

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
        session = main.get_command(ctx, "session")
        assert session is not None
        ctx.invoke(session)
