"""What a Report looks like: a table and diffs for people, JSON for programs, and the exit status.

Exit statuses (also in `kopipasta apply --help` and the README):
  0  every patch applied, or was already in place
  1  at least one patch failed (with --strict, nothing was written)
  2  the reply could not be read, or held no patch at all
  3  the patches were written but the --verify command failed
     (with --revert-on-fail they were put back first)

rich is imported only by the functions that print with it, so `--json` and
the library never pay for it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from kopipasta.errors import counted
from kopipasta.model import DIRECTIVE_OF_OPERATION, FileChange, Operation, Outcome, Report, Status
from kopipasta.plain import json_visible, visible
from kopipasta.plain import (
    make_console as make_console,  # re-exported: it lives in plain.py (issue 9)
)

if TYPE_CHECKING:
    from rich.console import Console

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_NO_PATCH = 2
EXIT_VERIFY_FAILED = 3
EXIT_STEP_HELD = 4  # format/verify not run: this apply wrote a file it may load (loop/step_guard.py)

_ICONS = {
    Status.APPLIED: ("✅", "green"),
    Status.UNCHANGED: ("＝", "cyan"),
    Status.FAILED: ("❌", "red"),
    Status.SKIPPED: ("–", "yellow"),
}


def exit_status(report: Report) -> int:
    if report.reply_error:
        return EXIT_NO_PATCH
    return EXIT_FAILED if report.failed else EXIT_OK


def error_text(error: Exception) -> str:
    """An OS or journal error as the tail of a one-line message: `path: reason`."""
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        return f"{where}{error.strerror or error}"
    return str(error)


# A hint written where the block is refused may add "nothing was written": true of the block,
# not of the apply, whose summary says which files were written ("1 file written" after
# --partial or the session's `w`). The line a person reads leaves the clause to the summary.
_NOTHING_WRITTEN = "nothing was written"


def failure_line(outcome: Outcome, *, files_written: bool = False) -> str:
    """The one line a failure reads as: what went wrong, then what to do. `files_written`: the
    apply wrote other files, so the hint's "nothing was written" is left to the summary."""
    hint = outcome.hint
    if files_written:
        hint = hint.removeprefix(f"{_NOTHING_WRITTEN}; ").removesuffix(f"; {_NOTHING_WRITTEN}")
    return f"{outcome.message} — {hint}" if hint else outcome.message


def run_without_asking(report: Report) -> dict[str, str]:
    """The changed files other tools run without asking (disk/run_by_tools.py): path → who runs it."""
    if not report.changes:
        return {}
    from kopipasta.disk.run_by_tools import run_without_asking as who_runs

    found = {change.path: who_runs(change.path, change.before, change.after) for change in report.changes}
    return {path: who for path, who in found.items() if who}


def look_before_running_lines(report: Report, *, dry_run: bool) -> list[str]:
    """One ⚠ line per changed file another tool runs without asking: the user should read it first."""
    verb = "would change" if dry_run else "changed"
    return [
        f"⚠ Look before running anything: this reply {verb} {path}, which runs without asking ({who})"
        for path, who in run_without_asking(report).items()
    ]


def outcome_json(outcome: Outcome, flagged: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "block": outcome.block_index,
        "line": outcome.block_line,
        "file": outcome.file,
        "operation": outcome.operation.value if outcome.operation else None,
        "target": outcome.target,
        "status": outcome.status.value,
        "message": outcome.message,
        "hint": outcome.hint,
        "lines_added": outcome.lines_added,
        "lines_removed": outcome.lines_removed,
        "reading": outcome.reading or None,
        # Its file is one another tool runs without asking (a .envrc, a package.json script): read it first.
        "runs_without_asking": outcome.status is Status.APPLIED and outcome.file in (flagged or {}),
    }


def report_json(
    report: Report, *, dry_run: bool, extra: dict[str, Any] | None = None, show_diff: bool = False
) -> str:
    from kopipasta.disk.delta import file_deltas  # only a JSON report has the deltas

    flagged = run_without_asking(report)
    data: dict[str, Any] = {
        "exit_status": exit_status(report),
        "dry_run": dry_run,
        "written": report.written,
        "error": report.reply_error or None,
        "files_changed": [c.path for c in report.changes],
        "blocks": [outcome_json(o, flagged) for o in report.outcomes],
        "notes": list(report.notes),
        "files": file_deltas(report.changes),  # per file: hashes, newline style, changed lines, diff
        "runs_without_asking": [{"file": path, "why": who} for path, who in flagged.items()],
    }
    if show_diff:
        # One unified diff per changed file, as `--diff` prints it for people.
        data["diffs"] = [{"file": c.path, "diff": "".join(line + "\n" for line in unified_diff(c))} for c in report.changes]
    if extra:
        data.update(extra)
    # json escapes ESC and the other C0 controls; json_visible the C1 and bidi ones (issue 18).
    return json_visible(json.dumps(data, indent=2, ensure_ascii=False))


def unified_diff(change: FileChange) -> list[str]:
    import difflib

    before = (change.before or b"").decode("utf-8", "replace").splitlines(keepends=True)
    after = (change.after or b"").decode("utf-8", "replace").splitlines(keepends=True)
    label_before = f"a/{change.path}" if change.before is not None else "/dev/null"
    label_after = f"b/{change.path}" if change.after is not None else "/dev/null"
    lines = difflib.unified_diff(before, after, label_before, label_after)
    out = []
    for line in lines:
        text = line.rstrip("\r\n")
        out.append(text)
        if not line.endswith("\n"):
            out.append("\\ No newline at end of file")
    return out


def _is_plain(console: Console) -> bool:
    return getattr(console, "is_plain", False)


def status_label(outcome: Outcome, *, dry_run: bool) -> str:
    """`applied`, or `would apply` in a dry run, which writes nothing."""
    if dry_run and outcome.status is Status.APPLIED:
        return "would apply"
    return outcome.status.value


def print_report(console: Console, report: Report, *, dry_run: bool, show_diff: bool) -> None:
    for note in report.notes:
        _print_line(console, f"ℹ {note}", "yellow")
    if report.reply_error:
        _print_line(console, f"❌ {report.reply_error}", "red")
        if report.outcomes:
            console.print(
                "Each patch block needs a first line like `# FILE: path/to/file` "
                "(or the path alone on the line above the block).",
                markup=False,
            )
        return
    header = ("#", "file", "target", "status", "detail")
    rows: list[tuple[str, ...]] = []
    styles: list[str] = []
    ignored = 0
    for outcome in report.outcomes:
        if outcome.status is Status.SKIPPED and outcome.file is None:
            ignored += 1
            continue
        icon, style = _ICONS[outcome.status]
        # A failure's reason is printed in full below the table, on one line of its own.
        detail = "" if outcome.status is Status.FAILED else outcome.message
        if outcome.status is Status.APPLIED:
            counts = f"+{outcome.lines_added} -{outcome.lines_removed}"
            detail = f"{counts}  {detail}" if detail else counts
        label = status_label(outcome, dry_run=dry_run)
        rows.append((str(outcome.block_index), outcome.file or "—", _target_label(outcome), f"{icon} {label}", detail))
        styles.append(style)
    if report.patch_count:
        _print_table(console, header, rows, styles)
    if show_diff:
        for change in report.changes:
            print_diff(console, change)
    said: set[str] = set()
    for outcome in report.outcomes:
        line = failure_line(outcome, files_written=report.written and bool(report.changes) and not dry_run)
        if outcome.status is Status.FAILED and line not in said:
            said.add(line)  # alternatives: one line for all their blocks
            _print_line(console, f"❌ {line}", "red")
    for line in look_before_running_lines(report, dry_run=dry_run):
        _print_line(console, line, "bold yellow")
    console.print(_summary(report, ignored, dry_run=dry_run), markup=False)


def _print_line(console: Console, line: str, style: str) -> None:
    if _is_plain(console):
        console.print(line, markup=False)
        return
    from rich.text import Text

    # Made visible before rich sees it: Text drops BEL and CR silently, which would hide them.
    console.print(Text(visible(line), style=style))


def _print_table(console: Console, header: tuple[str, ...], rows: list[tuple[str, ...]], styles: list[str]) -> None:
    if _is_plain(console):
        from kopipasta.plain import table_lines

        for line in table_lines(header, rows):
            console.print(line, markup=False)
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in header:
        table.add_column(column, overflow="fold")
    for row, style in zip((tuple(visible(cell) for cell in row) for row in rows), styles, strict=True):
        # Every cell a Text: a path like `[/]x.py` is the user's, not rich markup.
        table.add_row(*(Text(cell) for cell in row[:3]), Text(row[3], style=style), Text(row[4]))
    console.print(table)


def _target_label(outcome: Outcome) -> str:
    if outcome.operation is None:
        return ""
    if outcome.target is None:
        # A failed file block was not read as anything yet: it may have been a fragment.
        return outcome.reading or ("file block" if outcome.status is Status.FAILED else "whole file")
    if outcome.operation is Operation.REPLACE_NODE:
        label = outcome.target
    elif outcome.operation is Operation.TEXT_PATCH:
        return outcome.target  # how the block was read: diff, search/replace, envelope
    else:
        label = f"{DIRECTIVE_OF_OPERATION.get(outcome.operation, outcome.operation.name)} {outcome.target}"
    return f"{label} ({outcome.reading})" if outcome.reading else label


def print_diff(console: Console, change: FileChange) -> None:
    if _is_plain(console):
        for line in unified_diff(change):
            console.print(line, markup=False)
        return
    from rich.text import Text

    for line in unified_diff(change):
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("@@"):
            style = "cyan"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        else:
            style = ""
        console.print(Text(visible(line), style=style))


def _summary(report: Report, ignored: int, *, dry_run: bool) -> str:
    counts: dict[Status, int] = {}
    for outcome in report.outcomes:
        if not (outcome.status is Status.SKIPPED and outcome.file is None):
            counts[outcome.status] = counts.get(outcome.status, 0) + 1
    # A dry run applied nothing: its count says what would apply, as its table does.
    parts = [f"{n} {'would apply' if dry_run and status is Status.APPLIED else status.value}" for status, n in counts.items()]
    if ignored:
        parts.append(f"{counted(ignored, 'block')} without FILE ignored")
    files = len(report.changes)
    if dry_run:
        tail = f"dry run: {counted(files, 'file')} would change, nothing written"
    elif report.written:
        tail = f"{counted(files, 'file')} written"
    else:
        tail = "nothing written"
    return ", ".join(parts) + f". {tail}." if parts else f"{tail}."
