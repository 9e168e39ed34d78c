"""What the MCP server's tools do, without the protocol: one project root, its Documents kept warm.

Every edit goes through the engine as a block of a reply would: a single-edit
tool builds the Block the protocol's directives describe (FILE, TARGET_NODE,
INSERT_AFTER, …, TARGET_PATH), so planning, resolution, re-indentation, import
merging, the syntax check, the atomic write and the undo journal are the
engine's own, and so are the refusals and their hints. A refusal is a Result
with `ok` False and the one-line reason and hint as its text; nothing here
raises to the caller, whatever the input.

Calls are serialised (one lock): the engine's file versions and the kept
Documents are not shared between threads, and two edits of one file sent at
once apply one after the other, the second resolved against the first's bytes.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kopipasta.code.find.document import DocumentCache
from kopipasta.disk.delta import file_deltas
from kopipasta.errors import PatchError
from kopipasta.model import FILE_KEY, Block, Outcome, Report, Status

# The protocol's directive for each position of insert_definition.
INSERT_KEYS = {"after": "INSERT_AFTER", "before": "INSERT_BEFORE", "append_to": "APPEND_TO"}


@dataclass(frozen=True)
class Result:
    """A tool's answer: `ok` False is a refusal (the MCP result's isError), `text` what a model reads first."""

    ok: bool
    text: str
    data: dict[str, Any] = field(default_factory=dict)


class Workbench:
    """The tools over one project root."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.documents = DocumentCache()
        self._lock = threading.Lock()

    # The tools, one method each; every one returns a Result and never raises.

    def list_definitions(self, paths: list[str]) -> Result:
        return self._guarded(lambda: self._list(paths))

    def read_definition(self, file: str, target: str) -> Result:
        return self._guarded(lambda: self._read(self._relative(file), target))

    def replace_definition(self, file: str, target: str, code: str, dry_run: bool = False) -> Result:
        return self._edit(file, "TARGET_NODE", target, code, dry_run)

    def insert_definition(self, file: str, position: str, anchor: str, code: str, dry_run: bool = False) -> Result:
        key = INSERT_KEYS.get(position)
        if key is None:
            return _refusal(
                f"Unknown position {position!r} for insert_definition in {file}",
                "use 'after' or 'before' (beside the anchor definition) or 'append_to' (last in the anchor class, or 'file')",
            )
        return self._edit(file, key, anchor, code, dry_run)

    def delete_definition(self, file: str, target: str, dry_run: bool = False) -> Result:
        return self._edit(file, "DELETE_NODE", target, "", dry_run)

    def set_value(self, file: str, path: str, value: Any, dry_run: bool = False) -> Result:
        return self._edit(file, "TARGET_PATH", path, json.dumps(value, ensure_ascii=False, indent=2), dry_run)

    def apply_reply(
        self, text: str, dry_run: bool = False, strict: bool = False, partial: bool = False, allow_delete: bool = False
    ) -> Result:
        if strict and partial:
            return _refusal(
                "apply_reply: strict writes nothing if anything failed, partial writes what succeeded",
                "choose one of strict and partial",
            )

        def run() -> Result:
            from kopipasta.engine import apply_reply

            report = apply_reply(
                text, self.root, dry_run=dry_run, strict=strict, partial=partial, allow_delete=allow_delete,
                documents=self.documents,
            )
            if not dry_run:
                from kopipasta.loop.applylog import record_apply

                record_apply(self.root, text, report, partial=partial, strict=strict)
            return _report_result(report, dry_run=dry_run)

        return self._guarded(run)

    def undo(self) -> Result:
        def run() -> Result:
            from kopipasta.disk import journal
            from kopipasta.disk.undo import undo_newest

            try:
                done = undo_newest(self.root)
            except journal.ChangedSince as refused:
                return _refusal(
                    str(refused),
                    "a file was edited after that apply: edit it again instead, or ask the user to run "
                    "`kopipasta undo --force`",
                )
            except journal.JournalError as error:
                return _refusal(str(error), "")
            from kopipasta.loop.applylog import record_undo

            record_undo(self.root)
            deltas = file_deltas(done.changes)
            lines = [f"undone {done.entry}: {len(done.restored)} file(s) restored, {len(done.deleted)} deleted"]
            lines += [_delta_line(d) for d in deltas]
            data = {
                "status": "undone", "entry": done.entry, "restored": list(done.restored), "deleted": list(done.deleted),
                "remaining": done.remaining, "files": deltas,
            }
            return Result(True, "\n".join(lines), data)

        return self._guarded(run)

    # How they run.

    def _guarded(self, run: Callable[[], Result]) -> Result:
        """One call at a time; any failure becomes a refusal, never an exception."""
        with self._lock:
            try:
                return run()
            except PatchError as error:
                return _refusal(error.message, error.hint)
            except OSError as error:
                where = f"{error.filename}: " if error.filename else ""
                return _refusal(f"Cannot complete the call: {where}{error.strerror or error}", "check the path and its permissions")
            except Exception as error:  # noqa: BLE001 — a bug is still one line to the agent, never a traceback
                from kopipasta.disk import journal

                if isinstance(error, journal.JournalError):
                    return _refusal(str(error), "")
                return _refusal(
                    f"Internal error ({type(error).__name__}: {error})",
                    "this is a bug in kopipasta; please report it with the call",
                )

    def _edit(self, file: str, key: str, target: str, code: str, dry_run: bool) -> Result:
        def run() -> Result:
            from kopipasta.disk.limits import reply_problem
            from kopipasta.engine import apply_blocks

            too_big = reply_problem(len(code.encode("utf-8", "surrogatepass")))
            if too_big:
                return _refusal(too_big.replace("The reply", "The code", 1), "")
            relative = self._relative(file)
            payload = code.replace("\r\n", "\n").replace("\r", "\n")
            payload = payload[:-1] if payload.endswith("\n") else payload  # as a fence's last line ends it
            block = Block(1, 1, "", ((FILE_KEY, relative), (key, target)), relative, payload)
            # The agent names definitions as they are now, not as a person's last prompt showed them.
            report = apply_blocks([block], self.root, dry_run=dry_run, documents=self.documents, since_prompt=False)
            return _report_result(report, dry_run=dry_run)

        return self._guarded(run)

    def _relative(self, file: str) -> str:
        """A path as the agent wrote it, relative to the root (an absolute path inside the root too)."""
        path = Path(file)
        if path.is_absolute():
            try:
                return path.resolve().relative_to(self.root).as_posix()
            except ValueError:
                pass  # outside the root: the engine's confinement refuses it, naming it
        return file

    def _list(self, paths: list[str]) -> Result:
        from kopipasta.code.read.inventory import definitions_of, target_names
        from kopipasta.disk.workspace import load, normalise
        from kopipasta.loop.selection import select_files
        from kopipasta.syntax.languages import language_for_path

        if not paths:
            return _refusal("list_definitions needs at least one path", "pass files, folders or globs, e.g. ['src/']")
        files: list[dict[str, Any]] = []
        lines: list[str] = []
        inside: list[str] = []
        for written in paths:
            relative = self._relative(written)
            try:  # a folder or glob is walked only inside the root: `..` and absolute paths are refused
                inside.append(relative if relative.strip() in (".", "./") else normalise(relative))
            except PatchError as error:
                files.append({"file": written, "error": str(error), "definitions": []})
                lines.append(f"{written}: {error}")
        selection = select_files(inside, self.root)
        for missing in selection.empty:
            lines.append(f"{missing}: matched no text file")
        for relative in selection.files:
            try:
                source = load(self.root, relative)
                if not source.exists:
                    raise PatchError(f"No such file: {relative}", "paths are relative to the project root")
                spec = language_for_path(source.path)
                if spec is not None and spec.embedding is None:
                    definitions = self.documents.open(source, self.root).definitions
                else:
                    definitions = definitions_of(source)
            except PatchError as error:
                files.append({"file": relative, "error": str(error), "definitions": []})
                lines.append(f"{relative}: {error}")
                continue
            names = target_names(definitions)
            files.append({
                "file": source.path,
                "definitions": [
                    {"kind": d.kind, "name": name, "line": d.line, "end_line": d.end_line}
                    for d, name in zip(definitions, names, strict=True)
                ],
            })
            lines.append(source.path + ("" if definitions else "  (no definitions)"))
            lines += [f"  {d.kind} {name}  {_lines(d.line, d.end_line)}" for d, name in zip(definitions, names, strict=True)]
        ok = bool(selection.files) and not selection.empty and not any("error" in f for f in files)
        return Result(ok, "\n".join(lines) or "no files matched", {"files": files})

    def _read(self, relative: str, target: str) -> Result:
        from kopipasta.code.find.resolve import parse_target, resolve_in
        from kopipasta.disk.workspace import load
        from kopipasta.errors import TargetNotFound, UnsupportedFile
        from kopipasta.syntax.languages import language_for_path

        source = load(self.root, relative)
        if not source.exists:
            raise TargetNotFound(f"No such file: {relative}", "paths are relative to the project root")
        spec = language_for_path(source.path)
        if spec is None or spec.embedding is not None:
            raise UnsupportedFile(
                f"read_definition cannot read definitions of {relative}: it is not a code file kopipasta parses here",
                "read the file itself; set data values with set_value",
            )
        document = self.documents.open(source, self.root)
        definition = resolve_in(parse_target(target, relative), document, relative)
        comment = document.comment_block_start(definition.outer_start)
        start = document.line_start(comment if comment is not None else definition.outer_start)
        text = document.data[start : definition.end].decode("utf-8", "replace")
        first_line = document.data.count(b"\n", 0, start) + 1
        qualified = ".".join((*definition.scope, definition.name))
        data = {
            "file": source.path, "kind": definition.kind, "name": qualified,
            "line": first_line, "end_line": definition.end_line, "text": text,
        }
        return Result(True, f"{source.path}: {definition.kind} {qualified}, lines {first_line}-{definition.end_line}\n{text}", data)


def _lines(line: int, end_line: int) -> str:
    return f"line {line}" if line == end_line else f"lines {line}-{end_line}"


# A hint that names the command a person runs, as the tool an agent calls instead.
_NODES_COMMAND = re.compile(r"`kopipasta nodes ([^`]+)`")


def for_agent(hint: str) -> str:
    return _NODES_COMMAND.sub(lambda m: f"list_definitions({json.dumps([m.group(1)])})", hint)


def _refusal(message: str, hint: str) -> Result:
    hint = for_agent(hint)
    text = f"{message} — {hint}" if hint else message
    return Result(False, text, {"status": "failed", "error": message, "hint": hint})


def _report_result(report: Report, *, dry_run: bool) -> Result:
    """A Report as a tool result: a line per block (and per file written), the deltas as data."""
    from kopipasta.report import failure_line, status_label

    deltas = file_deltas(report.changes)
    if report.reply_error:
        return Result(False, report.reply_error, {"status": "failed", "error": report.reply_error, "blocks": [], "files": []})
    lines = []
    for outcome in report.outcomes:
        if outcome.status is Status.SKIPPED and outcome.file is None:
            continue
        label = status_label(outcome, dry_run=dry_run)
        detail = for_agent(failure_line(outcome)) if outcome.status is Status.FAILED else outcome.message
        counts = f" (+{outcome.lines_added} -{outcome.lines_removed})" if outcome.status is Status.APPLIED else ""
        target = f" {outcome.target}" if outcome.target else ""
        lines.append(f"{label}: {outcome.file}{target}{counts}" + (f": {detail}" if detail else ""))
    lines += [_delta_line(d, dry_run=dry_run) for d in deltas]
    if len(report.outcomes) == 1 and report.failed:  # a single edit refused: its one line is the whole answer
        lines = [for_agent(failure_line(report.outcomes[0]))]
    if dry_run and deltas:
        lines += [d["diff"] for d in deltas]
    failed = report.failed
    status = "failed" if failed else "dry_run" if dry_run else "applied" if report.written else "unchanged"
    data = {
        "status": status, "dry_run": dry_run, "written": report.written,
        "blocks": [_block_json(o) for o in report.outcomes], "files": deltas, "notes": list(report.notes),
    }
    return Result(not failed, "\n".join([*report.notes, *lines]), data)


def _block_json(outcome: Outcome) -> dict[str, Any]:
    from kopipasta.report import outcome_json

    data = outcome_json(outcome)
    data["hint"] = for_agent(outcome.hint)
    return data


def _delta_line(delta: dict[str, Any], *, dry_run: bool = False) -> str:
    ranges = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in delta["changed_lines"]) or "none"
    verb = "would be" if dry_run else "is"
    after = (delta["sha256_after"] or "")[:12]
    return f"{delta['path']} {verb} {delta['change']}: changed lines {ranges}; sha256 after {after or '(no file)'}"
