"""How a tool's outcome is told to the agent: the Result (text a model reads first, data a program
reads, isError), refusals in one line with their hint, a Report as lines and per-file deltas, undo's
words, and no result carrying the machine's absolute path of the root."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kopipasta.disk.delta import file_deltas
from kopipasta.model import Outcome, Report, Status


@dataclass(frozen=True)
class Result:
    """A tool's answer: `ok` False is a refusal (the MCP result's isError), `text` what a model reads first."""

    ok: bool
    text: str
    data: dict[str, Any] = field(default_factory=dict)


# A hint that names the command a person runs, as the tool an agent calls instead.
_NODES_COMMAND = re.compile(r"`kopipasta nodes ([^`]+)`")


def for_agent(hint: str) -> str:
    return _NODES_COMMAND.sub(lambda m: f"list_definitions({json.dumps([m.group(1)])})", hint)


def late(seconds: float) -> Result:
    return refusal(
        f"The call is still running after {seconds:g} s (a very large file or folder?); it goes on in the "
        "background, and an edit may still be written when it ends",
        "read the definition or list the file again in a moment to see what is there",
    )


def busy(seconds: float) -> Result:
    return refusal(
        f"The server is still busy with an earlier call that ran past {seconds:g} s; this call was not started",
        "call it again in a moment",
    )


def rootless(root: Path, result: Result) -> Result:
    """`result` with the root's absolute path taken out of its text and every string of its data."""
    from kopipasta.disk.shown_path import without_root

    text, data = without_root(root, result.text), without_root(root, result.data)
    return result if text is result.text and data is result.data else Result(result.ok, text, data)


def refusal(message: str, hint: str) -> Result:
    hint = for_agent(hint)
    text = f"{message} — {hint}" if hint else message
    return Result(False, text, {"status": "failed", "error": message, "hint": hint})


def report_result(report: Report, *, dry_run: bool, root: Path, warnings: list[str] | None = None) -> Result:
    """A Report as a tool result: a line per block (and per file written), the deltas as data, and the
    warnings `kopipasta apply` prints (agents/notices.py), as lines and as data."""
    from kopipasta.agents.notices import notices
    from kopipasta.report import failure_line, run_without_asking, status_label

    deltas = file_deltas(report.changes)
    if report.reply_error:
        return Result(
            False, report.reply_error,
            {"status": "failed", "error": report.reply_error, "blocks": [], "files": [], "warnings": []},
        )
    lines = []
    for outcome in report.outcomes:
        if outcome.status is Status.SKIPPED and outcome.file is None:
            continue
        label = status_label(outcome, dry_run=dry_run)
        detail = for_agent(failure_line(outcome)) if outcome.status is Status.FAILED else outcome.message
        counts = f" (+{outcome.lines_added} -{outcome.lines_removed})" if outcome.status is Status.APPLIED else ""
        target = f" {outcome.target}" if outcome.target else ""
        lines.append(f"{label}: {outcome.file}{target}{counts}" + (f": {detail}" if detail else ""))
    lines += [delta_line(d, dry_run=dry_run) for d in deltas]
    if len(report.outcomes) == 1 and report.failed:  # a single edit refused: its one line is the whole answer
        lines = [for_agent(failure_line(report.outcomes[0]))]
    if dry_run and deltas:
        lines += [d["diff"] for d in deltas]
    failed = report.failed
    status = "failed" if failed else "dry_run" if dry_run else "applied" if report.written else "unchanged"
    warning_lines, warning_data = notices(report, root, dry_run=dry_run)
    warning_lines = [*((warnings or []) if not failed else []), *warning_lines]
    flagged = run_without_asking(report)
    data = {
        "status": status, "dry_run": dry_run, "written": report.written,
        "blocks": [block_json(o, flagged) for o in report.outcomes], "files": deltas, "notes": list(report.notes),
        "warnings": warning_lines, **warning_data,
    }
    return Result(not failed, "\n".join([*report.notes, *lines, *warning_lines]), data)


def block_json(outcome: Outcome, flagged: dict[str, str]) -> dict[str, Any]:
    from kopipasta.report import outcome_json

    data = outcome_json(outcome, flagged)
    data["hint"] = for_agent(outcome.hint)
    return data


def undo_line(entry: str, restored: Any, deleted: Any, remaining: int) -> str:
    parts = [f"put back {len(restored)} file(s) as they were before that apply"]
    if deleted:
        parts.append(f"deleted {len(deleted)} file(s) it had created")
    left = f"{remaining} earlier apply(s) can still be undone" if remaining else "nothing earlier is left to undo"
    return f"undone {entry}: {', '.join(parts)}; {left}"


def undone_line(delta: dict[str, Any]) -> str:
    ranges = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in delta["changed_lines"])
    after = (delta["sha256_after"] or "")[:12]
    if delta["sha256_after"] is None:
        return f"{delta['path']} deleted (the apply had created it)"
    lines = "line" if "-" not in ranges and "," not in ranges else "lines"
    where = f"{lines} {ranges} as before the apply" if ranges else "the lines the apply added are gone"
    return f"{delta['path']} restored: {where}; sha256 now {after}"


def delta_line(delta: dict[str, Any], *, dry_run: bool = False) -> str:
    ranges = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in delta["changed_lines"]) or "none"
    verb = "would be" if dry_run else "is"
    after = (delta["sha256_after"] or "")[:12]
    return f"{delta['path']} {verb} {delta['change']}: changed lines {ranges}; sha256 after {after or '(no file)'}"
