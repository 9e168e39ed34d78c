"""The warnings `kopipasta apply` prints, for a tool result: one line each, and the same facts as data.

- a changed file another tool runs without asking (disk/run_by_tools.py via
  report.run_without_asking): read it before running anything;
- a definition renamed by its replacement, with the places that still use the
  old name (a word match over the project's files of the same kind: the agent
  decides which are calls to fix);
- definitions or keys kept because the code did not restate them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from kopipasta.model import Report, Status

_RENAMED = re.compile(r"renamed '([^']+)' to '([^']+)'")
_KEPT = re.compile(r"kept [^;]+, not in the block")
MAX_PLACES = 20  # places listed per rename; the count says how many more
MAX_FILES = 5000  # files looked through for the old name: a rename's report stays quick


def notices(report: Report, root: Path, *, dry_run: bool) -> tuple[list[str], dict[str, Any]]:
    """The warning lines and their structured form for a report."""
    from kopipasta.report import look_before_running_lines, run_without_asking

    lines = look_before_running_lines(report, dry_run=dry_run)
    flagged = run_without_asking(report)
    renames: list[dict[str, Any]] = []
    kept: list[dict[str, str]] = []
    for outcome in report.outcomes:
        if outcome.status is not Status.APPLIED or not outcome.message or outcome.file is None:
            continue
        renamed = _RENAMED.search(outcome.message)
        if renamed:
            old, new = renamed.group(1), renamed.group(2)
            places, more = still_using(root, outcome.file, old.rsplit(".", 1)[-1], report)
            renames.append({"file": outcome.file, "from": old, "to": new, "still_using": places, "more": more})
            shown = ", ".join(places) + (f" and {more} more" if more else "")
            lines.append(
                f"⚠ Renamed {old} to {new} in {outcome.file}: "
                + (f"{len(places) + more} place(s) still use the old name: {shown}" if places else "nothing else uses the old name")
            )
        for note in _KEPT.findall(outcome.message):
            kept.append({"file": outcome.file, "target": outcome.target or "", "note": note})
            lines.append(f"⚠ {outcome.file} {outcome.target or ''}: {note}: restate it to change or remove it")
    data = {
        "runs_without_asking": [{"file": path, "why": who} for path, who in flagged.items()],
        "renamed": renames,
        "kept": kept,
    }
    return lines, data


def still_using(root: Path, file: str, name: str, report: Report) -> tuple[list[str], int]:
    """`file:line` of each line, in the files of `file`'s kind, holding `name` as a whole word."""
    from kopipasta.loop.selection import select_files

    suffix = Path(file).suffix
    word = re.compile(rb"(?<![\w$])" + re.escape(name.encode("utf-8")) + rb"(?![\w$])")
    after = {c.path: c.after for c in report.changes}
    places: list[str] = []
    more = 0
    candidates = [file] + [p for p in select_files(["."], root).files if p != file and Path(p).suffix == suffix]
    for path in candidates[:MAX_FILES]:
        data = after.get(path)
        if data is None:
            try:
                data = (root / path).read_bytes()
            except OSError:
                continue
        if name.encode("utf-8") not in data:
            continue
        for number, line in enumerate(data.split(b"\n"), 1):
            if word.search(line):
                if len(places) < MAX_PLACES:
                    places.append(f"{path}:{number}")
                else:
                    more += 1
    return places, more
