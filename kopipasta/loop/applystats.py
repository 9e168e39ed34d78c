"""`kopipasta stats`: the counts over the apply log (`applylog.py` writes it).

Apart from `applylog` so that an apply, which only appends to the log, does not build
the Stats class at start-up (issue 9).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kopipasta.errors import PatchError
from kopipasta.loop.applylog import PROTOCOL_FORMS, log_path


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
    failures: Counter[str] = field(default_factory=Counter)  # by failure kind (the error's class, for programs)
    reasons: Counter[str] = field(default_factory=Counter)  # by what a person reads: kind and form in words
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
    from kopipasta.disk import beneath

    try:
        with beneath.root_descriptor(root) as root_fd:
            found = beneath.read_file(root_fd, log_path(root).relative_to(root).as_posix())
    except (OSError, PatchError):  # a FIFO or a symlink there is no log: never waited on
        return None
    if found is None:
        return None
    lines = found[0].decode("utf-8", errors="replace").splitlines()
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
            kind = str(block.get("failure") or "unknown")
            stats.form_failures[form] += 1
            stats.failures[kind] += 1
            stats.reasons[failure_words(kind, form)] += 1


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
    if stats.reasons:
        lines.append("Why blocks failed: " + ", ".join(f"{reason} {n}" for reason, n in stats.reasons.most_common()))
    lines.append(
        f"Undo rate: {_n(stats.undos, 'undo', 'undos')} for {_n(stats.wrote, 'apply', 'applies')} that wrote files"
        + (f" ({_percent(stats.undos, stats.wrote)})" if stats.wrote else "")
    )
    if stats.partial:
        lines.append(f"Partial applies (--partial / w): {stats.partial}")
    if stats.unreadable:
        lines.append(f"({_n(stats.unreadable, 'line', 'lines')} of the log could not be read and were left out.)")
    return lines


# What a failure kind (the error class the log records) means to a person (issue 21: no class names).
_KIND_WORDS = {
    "TargetNotFound": "target not found",
    "AmbiguousTarget": "ambiguous target",
    "SyntaxCheckError": "syntax error after the patch",
    "UnsupportedFile": "unsupported file",
    "ConfinementError": "path outside the project",
    "StaleTarget": "target changed since the prompt",
    "AlternativesOffered": "alternatives offered for one definition (one to choose)",
    "Busy": "another kopipasta was writing",
    "PatchError": "refused by a check before writing (--only, read-only, size, a file changed meanwhile)",
    "InternalError": "internal error (a kopipasta bug)",
    "MemoryError": "too large to process",
    "RecursionError": "too large to process",
}
# A payload refused (PayloadError) says most by the form it was read as.
_PAYLOAD_WORDS = {
    "inferred fragment": "fragment not mapped to the file's definitions",
    "merged elision": "elided payload not merged",
    "read by definition": "payload not matched to its target's definitions",
    "whole file": "whole-file block refused (placeholder, cut off or partial)",
    "file": "file block refused (placeholder, cut off or partial)",
    "directive": "payload its directive cannot take (empty, imports only, another kind)",
}


def failure_words(kind: str, form: str) -> str:
    """A failure as the stats name it: what went wrong, never the error's class name."""
    if kind == "PayloadError":
        return _PAYLOAD_WORDS.get(form, f"{form} refused")
    if kind in _KIND_WORDS:
        return _KIND_WORDS[kind]
    if kind.endswith("Error") or kind in ("OSError", "IOError"):
        return "the file system refused a file"  # PermissionError, FileNotFoundError, … (engine._system_failure)
    return "other failure"


def _n(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "—"
