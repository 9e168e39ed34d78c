"""The apply log, `.kopipasta/log.jsonl`, and `kopipasta stats` over it.

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
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from kopipasta.lazy_pattern import lazy_compile
from kopipasta.model import TARGET_KEYS, Block, Operation, Outcome, Report, Status

LOG_NAME = "log.jsonl"
_DIFF = lazy_compile(r"^--- \S.*\n\+\+\+ \S|^@@ -\d+(,\d+)? \+\d+(,\d+)? @@|^\*\*\* Begin Patch", re.MULTILINE)
_SEARCH = lazy_compile(r"^<{3,}( SEARCH)?\s*$", re.MULTILINE)
_REPLACE = lazy_compile(r"^>{3,}( REPLACE)?\s*$", re.MULTILINE)
# Forms that follow the protocol; the others are what kopipasta read despite it.
PROTOCOL_FORMS = ("directive", "file", "whole file")


def log_path(root: Path) -> Path:
    from kopipasta.journal import STATE_DIR

    return root / STATE_DIR / LOG_NAME


def record_apply(root: Path, text: str, report: Report, *, partial: bool = False, strict: bool = False) -> None:
    """Append the line for one apply that was not a dry run."""
    from kopipasta.intake import parse_reply

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
    from kopipasta.languages import language_for_path

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
    from kopipasta.journal import JournalError, append_state_line

    # A read-only project (or a symlinked .kopipasta) still applies; it just keeps no log.
    with contextlib.suppress(OSError, JournalError):
        append_state_line(root, LOG_NAME, json.dumps(entry, ensure_ascii=False))


# --- stats ----------------------------------------------------------------------------


@dataclass
class Stats:
    applies: int = 0
    no_patch: int = 0
    followed: int = 0  # replies whose every patch block followed the protocol
    wrote: int = 0  # applies that wrote at least one file
    partial: int = 0
    undos: int = 0
    first: str = ""
    last: str = ""
    blocks: Counter[str] = field(default_factory=Counter)  # by status
    forms: Counter[str] = field(default_factory=Counter)
    form_failures: Counter[str] = field(default_factory=Counter)
    languages: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)  # by failure kind
    unreadable: int = 0  # log lines that are not JSON (a crash mid-write, an edit)

    def to_json(self) -> dict[str, Any]:
        return {
            "applies": self.applies,
            "no_patch": self.no_patch,
            "followed_protocol": self.followed,
            "wrote": self.wrote,
            "partial": self.partial,
            "undos": self.undos,
            "first": self.first or None,
            "last": self.last or None,
            "blocks": dict(self.blocks),
            "forms": dict(self.forms),
            "form_failures": dict(self.form_failures),
            "languages": dict(self.languages),
            "failures": dict(self.failures),
            "unreadable_lines": self.unreadable,
        }


def read_stats(root: Path) -> Stats | None:
    """The counts over the log, or None when there is no log."""
    try:
        lines = log_path(root).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    stats = Stats()
    for line in lines:
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            stats.unreadable += 1
            continue
        if not isinstance(entry, dict):
            stats.unreadable += 1
            continue
        _count(stats, entry)
    return stats


def _count(stats: Stats, entry: dict[str, Any]) -> None:
    when = str(entry.get("time", ""))
    if when:
        stats.first = stats.first or when
        stats.last = when
    if entry.get("event") == "undo":
        stats.undos += 1
        return
    if entry.get("event") != "apply":
        return
    stats.applies += 1
    if entry.get("no_patch"):
        stats.no_patch += 1
        return
    stats.wrote += 1 if entry.get("written") else 0
    stats.partial += 1 if entry.get("partial") else 0
    blocks = [b for b in entry.get("blocks", []) if isinstance(b, dict)]
    patches = [b for b in blocks if b.get("operation") is not None or b.get("status") != "skipped"]
    if patches and all(b.get("named_by") == "directive" and b.get("form") in PROTOCOL_FORMS for b in patches):
        stats.followed += 1
    for block in patches:
        status, form = str(block.get("status")), str(block.get("form"))
        stats.blocks[status] += 1
        stats.forms[form] += 1
        if block.get("language"):
            stats.languages[str(block["language"])] += 1
        if status == "failed":
            stats.form_failures[form] += 1
            stats.failures[str(block.get("failure") or "unknown")] += 1


def stats_lines(stats: Stats, where: str) -> list[str]:
    """`kopipasta stats` for people."""
    if not stats.applies and not stats.undos:
        return [f"No applies logged yet in {where}."]
    lines = [f"{_n(stats.applies, 'apply', 'applies')} logged in {where}, {stats.first[:10]} to {stats.last[:10]}."]
    if stats.applies:
        lines.append(
            f"Replies that followed the protocol: {stats.followed} of {stats.applies} ({_percent(stats.followed, stats.applies)})"
            + (f"; {stats.no_patch} held no patch at all" if stats.no_patch else "")
        )
    total = sum(stats.blocks.values())
    if total:
        by_status = ", ".join(f"{n} {status}" for status, n in stats.blocks.most_common())
        lines.append(f"Blocks: {total} ({by_status}); {_percent(stats.blocks['failed'], total)} failed")
        forms = ", ".join(
            f"{form} {n}" + (f" ({stats.form_failures[form]} failed)" if stats.form_failures[form] else "")
            for form, n in stats.forms.most_common()
        )
        lines.append(f"  how they were written: {forms}")
        if stats.languages:
            lines.append("  languages: " + ", ".join(f"{lang} {n}" for lang, n in stats.languages.most_common()))
    if stats.failures:
        lines.append("Why blocks failed: " + ", ".join(f"{_kind_words(kind)} {n}" for kind, n in stats.failures.most_common()))
    lines.append(
        f"Undo rate: {_n(stats.undos, 'undo', 'undos')} for {_n(stats.wrote, 'apply', 'applies')} that wrote files"
        + (f" ({_percent(stats.undos, stats.wrote)})" if stats.wrote else "")
    )
    if stats.partial:
        lines.append(f"Partial applies (--partial / w): {stats.partial}")
    if stats.unreadable:
        lines.append(f"({_n(stats.unreadable, 'line', 'lines')} of the log could not be read and were left out.)")
    return lines


_KIND_WORDS = {
    "TargetNotFound": "target not found",
    "AmbiguousTarget": "ambiguous target",
    "PayloadError": "unusable payload",
    "SyntaxCheckError": "syntax error after the patch",
    "UnsupportedFile": "unsupported file",
    "ConfinementError": "path outside the project",
    "InternalError": "internal error",
}


def _kind_words(kind: str) -> str:
    return _KIND_WORDS.get(kind, kind)


def _n(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "—"
