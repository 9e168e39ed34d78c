"""The apply log, `.kopipasta/log.jsonl` (`kopipasta stats` over it is in applystats.py).

Every apply that is not a dry run appends one JSON line: when, how it ended,
and for each block how it was written (its form), what it asked for, in which
language, and how it went — never any code, path or name, so the log can be
shared to compare models and prompts. `undo` appends a line too, so the undo
rate can be counted. Writing the log never fails an apply: a log that cannot
be written is skipped silently.

A block's form:
  directive       FILE and a target directive (TARGET_NODE, TARGET_PATH, INSERT_*, …)
  file            FILE and no target: a whole file (or a fragment, PROTOCOL.md §6)
  diff            a unified diff or patch envelope
  search/replace  `<<<<<<< SEARCH` … `>>>>>>> REPLACE`
or what the pipeline says it read, where it says so (`Outcome.reading`: whole
file, inferred fragment, merged elision; a text patch's kind).
A block's file is `named_by` a directive, or by its context (a heading above the
fence, the info string). A reply *followed the protocol* when every patch block
named its file with a `FILE` directive and had the form `directive` or `file`.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import time
from pathlib import Path, PurePosixPath
from typing import Any

from kopipasta.model import TARGET_KEYS, Block, Operation, Outcome, Report, Status
from kopipasta.startup.lazy_pattern import lazy_compile

LOG_NAME = "log.jsonl"
_DIFF = lazy_compile(r"^--- \S.*\n\+\+\+ \S|^@@ -\d+(,\d+)? \+\d+(,\d+)? @@|^\*\*\* Begin Patch", re.MULTILINE)
_SEARCH = lazy_compile(r"^<{3,}( SEARCH)?\s*$", re.MULTILINE)
_REPLACE = lazy_compile(r"^>{3,}( REPLACE)?\s*$", re.MULTILINE)
# Forms that follow the protocol; the others are what kopipasta read despite it.
PROTOCOL_FORMS = ("directive", "file", "whole file")


def log_path(root: Path) -> Path:
    from kopipasta.disk.journal import STATE_DIR

    return root / STATE_DIR / LOG_NAME


def record_apply(root: Path, text: str, report: Report, *, partial: bool = False, strict: bool = False) -> None:
    """Append the line for one apply that was not a dry run."""
    from kopipasta.intake.reader import parse_reply

    try:
        blocks = {block.index: block for block in parse_reply(text)}
    except Exception:  # noqa: BLE001 — the log must never fail an apply
        blocks = {}
    from kopipasta.report import exit_status

    entry: dict[str, Any] = {
        "time": _now(),
        "event": "apply",
        "exit_status": exit_status(report),
        "written": report.written,
        "files_written": len(report.changes) if report.written else 0,
        "no_patch": bool(report.reply_error),
        "partial": partial,
        "strict": strict,
        "blocks": [_block_entry(o, blocks.get(o.block_index)) for o in report.outcomes if o.file is not None or o.status is not Status.SKIPPED],
    }
    _append(root, entry)


def record_undo(root: Path) -> None:
    _append(root, {"time": _now(), "event": "undo"})


def _block_entry(outcome: Outcome, block: Block | None) -> dict[str, Any]:
    return {
        "form": _form(outcome, block),
        "named_by": "directive" if block is not None and block.directive("FILE") is not None else "context",
        "operation": outcome.operation.value if outcome.operation else None,
        "language": _language(outcome.file),
        "status": outcome.status.value,
        "failure": outcome.failure_kind or None,
    }


def _form(outcome: Outcome, block: Block | None) -> str:
    # A stage that knows how it read the block says so: a file block's reading
    # ("whole file", "inferred fragment", "merged elision"), or a text patch's kind.
    if outcome.reading:
        return outcome.reading
    if outcome.operation is Operation.TEXT_PATCH and outcome.target:
        return outcome.target
    if block is None:
        return "file" if outcome.target is None else "directive"
    if any(block.directive(key) is not None for key in TARGET_KEYS):
        return "directive"
    if block.info.lower() in ("diff", "patch") or _DIFF.search(block.payload):
        return "diff"
    if _SEARCH.search(block.payload) and _REPLACE.search(block.payload):
        return "search/replace"
    return "file"


def _language(file: str | None) -> str | None:
    if not file:
        return None
    from kopipasta import data as data_formats
    from kopipasta.syntax.languages import language_for_path

    data_format = data_formats.format_of(file)
    if data_format:
        return data_format.lower()
    spec = language_for_path(file)
    if spec is not None:
        return spec.name.lower()
    return PurePosixPath(file).suffix.lstrip(".").lower() or None


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _append(root: Path, entry: dict[str, Any]) -> None:
    from kopipasta.disk.journal import JournalError, NotRegular, append_state_line

    # A read-only project (or a symlinked .kopipasta) still applies; it just keeps no log.
    try:
        append_state_line(root, LOG_NAME, json.dumps(entry, ensure_ascii=False))
    except NotRegular as error:  # planted or left there: said, since stats will miss this apply
        with contextlib.suppress(OSError, ValueError):
            print(f"⚠ {error.args[0]}: this {entry['event']} was not logged", file=sys.stderr)
    except (OSError, JournalError):
        pass
