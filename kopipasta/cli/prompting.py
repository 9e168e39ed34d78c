"""`kopipasta prompt` (copy a prompt for files) and `kopipasta session` (prompt, then apply with a key)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from kopipasta.cli.group import (
    OUTLINE_OPTION,
    ROOT_OPTION,
    TASK_OPTION,
    TEMPLATE_OPTION,
    echo,
    echo_data,
    fail,
    main,
    read_task,
)


@main.command("prompt", short_help="Copy a prompt for FILES that teaches the model the reply format.")
@click.argument("files", nargs=-1, required=True)
@TASK_OPTION
@ROOT_OPTION
@TEMPLATE_OPTION
@OUTLINE_OPTION
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
        echo_data(text, nl=False)
        return
    assert tokens is not None
    from kopipasta.loop.clipboard import copy_osc52, copy_text, osc52_note

    count = len(selected)
    size = f"{count} file{'s' if count != 1 else ''}, {tokens.label()}"
    empty_task = "" if task.strip() else " It ends with an empty task: write yours below it in the chat."
    reason = copy_text(text)
    if reason is None:
        echo(f"📋 Copied the prompt to the clipboard: {size}.{empty_task}")
        return
    echo_data(text, nl=False)
    if copy_osc52(text, sys.stdout):
        echo(f"⚠ Prompt printed, and {osc52_note()}: {reason}", err=True)
    else:
        echo(f"⚠ Prompt printed, not copied: {reason}", err=True)


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
        echo(f"⚠ {empty} matched no text file (after .gitignore)", err=True)
    if selection.skipped_binary:
        count = selection.skipped_binary
        echo(f"⚠ Skipped {count} file{'s' if count != 1 else ''} that {'are' if count != 1 else 'is'} not text", err=True)
    if files and not selection.files:
        fail("No files to put in the prompt: every directory and glob given matched nothing", 1)
    return _Chosen(
        list(selection.files),
        template if template is not None else settings.template,
        matching(selection.files, (*settings.outline, *outline)),
        settings.token_warning,
    )


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
@TASK_OPTION
@ROOT_OPTION
@TEMPLATE_OPTION
@OUTLINE_OPTION
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
