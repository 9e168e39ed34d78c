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
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kopipasta.agents import seen as seen_
from kopipasta.agents.last_look import ExactReplace, SameTarget
from kopipasta.agents.memory import Memory, first_difference, version_of
from kopipasta.agents.results import (
    Result,
    busy,
    late,
    refusal,
    report_result,
    rootless,
    undo_line,
    undone_line,
)
from kopipasta.agents.turns import Turns
from kopipasta.code.find.document import DocumentCache
from kopipasta.disk.delta import file_deltas
from kopipasta.errors import PatchError, UnsupportedFile
from kopipasta.model import FILE_KEY, Block, Report

# The protocol's directive for each position of insert_definition.
INSERT_KEYS = {"after": "INSERT_AFTER", "before": "INSERT_BEFORE", "append_to": "APPEND_TO"}


class Workbench:
    """The tools over one project root."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.documents = DocumentCache()
        self.memory = Memory()  # what this session last showed the agent of each definition (agents/memory.py)
        self._turns = Turns()
        self._unsettled: list[_Unsettled] = []  # what the last write taught the memory, not yet told it

    # The tools, one method each; every one returns a Result and never raises.

    def list_definitions(self, paths: list[str]) -> Result:
        return self._guarded(lambda: self._list(paths))

    def read_definition(self, file: str, target: str) -> Result:
        return self._guarded(lambda: self._read(self._relative(file), target))

    def replace_definition(
        self, file: str, target: str, code: str, dry_run: bool = False, expected_version: str | None = None
    ) -> Result:
        return self._edit(file, "TARGET_NODE", target, code, dry_run, expected_version)

    def edit_definition(
        self, file: str, target: str, old: str, new: str, dry_run: bool = False, expected_version: str | None = None
    ) -> Result:
        """An exact replace of `old`, which occurs once inside the definition, by `new`."""
        return self._edit(file, "TARGET_NODE", target, "", dry_run, expected_version, inside=(old, new))

    def insert_definition(
        self, file: str, position: str, anchor: str, code: str, dry_run: bool = False, expected_version: str | None = None
    ) -> Result:
        key = INSERT_KEYS.get(position)
        if key is None:
            return refusal(
                f"Unknown position {position!r} for insert_definition in {file}",
                "use 'after' or 'before' (beside the anchor definition) or 'append_to' (last in the anchor class, or 'file')",
            )
        return self._edit(file, key, anchor, code, dry_run, expected_version)

    def delete_definition(
        self, file: str, target: str, dry_run: bool = False, expected_version: str | None = None
    ) -> Result:
        return self._edit(file, "DELETE_NODE", target, "", dry_run, expected_version)

    def set_value(
        self, file: str, path: str, value: Any, dry_run: bool = False, expected_version: str | None = None
    ) -> Result:
        return self._edit(
            file, "TARGET_PATH", path, json.dumps(value, ensure_ascii=False, indent=2), dry_run, expected_version
        )

    def apply_reply(
        self, text: str, dry_run: bool = False, strict: bool = False, partial: bool = False, allow_delete: bool = False
    ) -> Result:
        if strict and partial:
            return refusal(
                "apply_reply: strict writes nothing if anything failed, partial writes what succeeded",
                "choose one of strict and partial",
            )

        def run() -> Result:
            from kopipasta.engine import apply_reply

            fresh = [] if dry_run else self._fresh(self.memory.files())
            report = apply_reply(
                text, self.root, dry_run=dry_run, strict=strict, partial=partial, allow_delete=allow_delete,
                documents=self.documents,
            )
            if not dry_run:
                from kopipasta.loop.applylog import record_apply

                record_apply(self.root, text, report, partial=partial, strict=strict)
            if report.written:
                self._after_write(fresh, report)
            return report_result(report, dry_run=dry_run, root=self.root)

        return self._guarded(run)

    def undo(self) -> Result:
        def run() -> Result:
            from kopipasta.disk import journal
            from kopipasta.disk.undo import undo_newest

            fresh = self._fresh(self.memory.files())
            try:
                done = undo_newest(self.root)
            except journal.ChangedSince as refused:
                return refusal(
                    str(refused),
                    "a file was edited after that apply: edit it again instead, or ask the user to run "
                    "`kopipasta undo --force`",
                )
            except journal.JournalError as error:
                return refusal(str(error), "")
            from kopipasta.loop.applylog import record_undo

            record_undo(self.root)
            self._refresh_files(fresh, {c.path for c in done.changes})
            deltas = file_deltas(done.changes)
            lines = [undo_line(done.entry, done.restored, done.deleted, done.remaining)]
            lines += [undone_line(d) for d in deltas]
            data = {
                "status": "undone", "entry": done.entry, "restored": list(done.restored), "deleted": list(done.deleted),
                "remaining": done.remaining, "files": deltas,
            }
            return Result(True, "\n".join(lines), data)

        return self._guarded(run)

    # How they run.

    async def answer(self, call: Callable[[], Result]) -> Result:
        """One of the tools above, called from an event loop (the MCP server): its turn is awaited, and
        taken on one of the loop's worker threads, so the tool runs there in place (agents/turns.py)."""
        return await self._turns.run_async(call, late=late, busy=busy)

    def warm_up(self) -> None:
        """What the next call would otherwise wait for, done once the answers are out and before the next
        call, when no call holds the turn (the MCP server runs this after writing each answer): the
        memory is told what the last write taught it (`_settle`), and the indent unit of each version the
        last calls wrote is learnt (the next edit of the file asks for it first: 0.5 ms on 300 lines)."""

        def warm() -> None:
            written = [item.document for item in self._unsettled]  # the versions the last calls wrote
            self._settle()
            for document in written:
                with suppress(Exception):  # a warm-up: what fails is learnt, and fails, when asked for
                    document.unit  # noqa: B018 — computed once and kept by the Document

        if self._unsettled:
            self._turns.if_free(warm)

    def _guarded(self, run: Callable[[], Result]) -> Result:
        """One call at a time, each answered within a bound (agents/turns.py); any failure becomes a
        refusal, never an exception; no result names the machine's absolute path of the root
        (disk/shown_path.py), whatever formatted it."""
        return self._turns.run(lambda: rootless(self.root, self._answer(run)), late=late, busy=busy)

    def _answer(self, run: Callable[[], Result]) -> Result:
        from kopipasta.disk.shown_path import os_error_text

        try:
            self._settle()  # what the last write taught, if no warm-up came between the calls
            return run()
        except PatchError as error:
            return refusal(error.message, error.hint)
        except OSError as error:  # the root removed or replaced while serving, a folder gone mid-walk
            return refusal(f"Cannot complete the call: {os_error_text(self.root, error)}", "check the path and its permissions")
        except Exception as error:  # noqa: BLE001 — a bug is still one line to the agent, never a traceback
            from kopipasta.disk import journal

            if isinstance(error, journal.JournalError):
                return refusal(str(error), "")
            return refusal(
                f"Internal error ({type(error).__name__}: {error})",
                "this is a bug in kopipasta; please report it with the call",
            )

    def _edit(
        self,
        file: str,
        key: str,
        target: str,
        code: str,
        dry_run: bool,
        expected_version: str | None = None,
        inside: tuple[str, str] | None = None,
    ) -> Result:
        def run() -> Result:
            from kopipasta.disk.limits import reply_problem
            from kopipasta.engine import apply_blocks

            text = code
            sent = text if inside is None else inside[0] + inside[1]
            too_big = reply_problem(len(sent.encode("utf-8", "surrogatepass")))
            if too_big:
                return refusal(too_big.replace("The reply", "The code", 1), "")
            relative = self._relative(file)
            found = None
            if inside is not None:  # the definition must resolve: its text is what `old` is found in
                found = seen_.find(self.root, self.documents, relative, target, "edit_definition")
                text = seen_.replaced_inside(found, seen_.lf(inside[0]), seen_.lf(inside[1]))
            elif key != "TARGET_PATH":
                found = seen_.find_quietly(self.root, self.documents, relative, target)
            names_definition = key in ("TARGET_NODE", "DELETE_NODE")
            stale = self._stale(relative, found, expected_version, check_memory=names_definition)
            if stale is not None:
                return stale
            warnings: list[str] = []
            if names_definition and found is not None and expected_version is None and self.memory.seen(found.file, found.name) is None:
                warnings.append(
                    f"first contact: {found.definition.kind} {found.name} was not read in this session; "
                    "read_definition first (or pass expected_version) to have edits over changes you have not seen refused"
                )
            fresh = [] if dry_run else self._fresh([found.file if found else relative], known=found)
            before_names = self._definitions(relative, None) if key in INSERT_KEYS.values() else None
            payload = seen_.lf(text)
            payload = payload[:-1] if payload.endswith("\n") else payload  # as a fence's last line ends it
            block = Block(1, 1, "", ((FILE_KEY, relative), (key, target)), relative, payload)
            # The agent names definitions as they are now, not as a person's last prompt showed them.
            # edit_definition goes through the engine as a replacement of the whole definition, but is
            # written only when its result is exactly the one replace: any other reading is refused.
            # Either way the target is checked again under the project's lock, in the bytes the engine is
            # about to overwrite: a write landing between the stale check above and the lock is refused.
            guard: SameTarget | None = None
            if inside is not None and found is not None:
                guard = ExactReplace(found, text)
            elif names_definition and found is not None:
                guard = SameTarget(found)
            report = apply_blocks(
                [block], self.root, dry_run=dry_run, documents=self.documents, since_prompt=False,
                accept=guard.accepts if guard is not None else None,
            )
            if guard is not None and guard.declined:
                return guard.refusal()
            inserted = None
            if before_names is not None and report.changes and not report.failed:
                inserted = self._inserted(relative, before_names, report, remember=report.written)
            if report.written:
                edited = self._edited(found, report) if found is not None and key == "TARGET_NODE" else None
                self._after_write(fresh, report, edited)
                if found is not None and key == "DELETE_NODE":
                    self.memory.forget(found.file, found.name)
            result = report_result(report, dry_run=dry_run, root=self.root, warnings=warnings)
            if inserted:
                named = ", ".join(f"{d['kind']} {d['name']} (lines {d['line']}-{d['end_line']})" for d in inserted)
                verb = "would insert" if dry_run else "inserted"
                result = Result(result.ok, f"{verb} {named}\n{result.text}", {**result.data, "inserted": inserted})
            return result

        return self._guarded(run)

    def _document(self, relative: str, data: bytes | None) -> Any:
        """The Document of the file now, or of `data` in its place (a dry run's result); None if not code."""
        from dataclasses import replace as replaced

        from kopipasta.code.find.document import open_document

        try:
            document = seen_.code_document(self.root, self.documents, relative, "insert_definition")
        except (PatchError, OSError):
            return None
        if data is not None:
            document = open_document(replaced(document.source, data=data), self.root)
        return document

    def _definitions(self, relative: str, data: bytes | None) -> dict[tuple[str, str], int] | None:
        """Each definition's (kind, qualified name) and how many there are: of the file now, or of `data`."""
        document = self._document(relative, data)
        if document is None:
            return None
        counts: dict[tuple[str, str], int] = {}
        for definition in document.definitions:
            key = (definition.kind, seen_.qualified(definition))
            counts[key] = counts.get(key, 0) + 1
        return counts

    def _inserted(
        self, relative: str, before: dict[tuple[str, str], int], report: Report, *, remember: bool
    ) -> list[dict[str, Any]]:
        """The definitions an insert added (so its result names them, not the anchor)."""
        data = None
        if not remember:  # a dry run: the bytes it would write, as a Document holds them (no BOM)
            data = (report.changes[0].after or b"").removeprefix(b"\xef\xbb\xbf")
            if b"\r" in data and b"\n" not in data:
                data = data.replace(b"\r", b"\n")
        document = self._document(relative, data)
        if document is None:
            return []
        counts: dict[tuple[str, str], int] = {}
        found = []
        for definition in document.definitions:
            key = (definition.kind, seen_.qualified(definition))
            counts[key] = counts.get(key, 0) + 1
            if counts[key] <= before.get(key, 0):
                continue
            start = seen_.span_start(document, definition)
            seen = seen_.seen_of(document.data, start, definition)
            found.append({
                "kind": key[0], "name": key[1], "line": seen.line, "end_line": definition.end_line, "version": seen.version,
            })
            if remember:
                self.memory.remember(document.source.path, key[1], seen)
        return found

    # Read-before-write (agents/memory.py).

    def _file_version(self, relative: str) -> str:
        from kopipasta.disk.workspace import load

        source = load(self.root, relative)
        return version_of(source.to_bytes()) if source.exists else "(no file)"

    def _stale(self, relative: str, found: seen_.Found | None, expected_version: str | None, *, check_memory: bool) -> Result | None:
        """The refusal of an edit over a version the agent did not see; None when it saw this one."""
        hint = "nothing was written: read_definition again and redo the edit on what is there now"
        if expected_version is not None and expected_version.strip():
            expected = expected_version.strip().lower().removeprefix("v")  # as a listing shows it
            if found is not None and expected == found.seen.version:
                return None
            now_file = self._file_version(relative)
            if expected == now_file:
                return None
            if found is None:
                return refusal(f"{relative} changed since version {expected} (now {now_file})", hint)
            remembered = self.memory.seen(found.file, found.name)
            what = f": {first_difference(remembered, found.seen)}" if remembered and remembered.version == expected else ""
            return refusal(
                f"{found.file}: {found.definition.kind} {found.name} changed since version {expected}"
                f" (now {found.seen.version}){what}",
                hint,
            )
        if check_memory and found is not None:
            remembered = self.memory.seen(found.file, found.name)
            if remembered is not None and remembered.version != found.seen.version:
                return refusal(
                    f"{found.file}: {found.definition.kind} {found.name} changed since you last read it: "
                    f"{first_difference(remembered, found.seen)} (version {remembered.version}, now {found.seen.version})",
                    hint,
                )
        return None

    def _fresh(self, files: list[str], known: seen_.Found | None = None) -> list[tuple[str, str]]:
        """The remembered definitions of `files` that are still as the agent saw them (`known`: one
        the caller has just found, not looked up again)."""
        fresh = []
        for file in files:
            for name, remembered in self.memory.names_in(file).items():
                if known is not None and (known.file, known.name) == (file, name):
                    now: seen_.Found | None = known
                else:
                    now = seen_.find_quietly(self.root, self.documents, file, name)
                if now is not None and now.seen.version == remembered.version:
                    fresh.append((file, name))
        return fresh

    def _refresh_files(self, fresh: list[tuple[str, str]], written: set[str]) -> None:
        """The fresh definitions of the written files, found again in them on disk (and so remembered)."""
        for path in written:
            self._tell(_Unsettled(path, [name for file, name in fresh if file == path], None, None))

    def _edited(self, found: seen_.Found, report: Report) -> tuple[str, str, str]:
        """The definition the agent just wrote: its file, the name it had, the name it has now (the code
        may have renamed it)."""
        name = found.name
        for outcome in report.outcomes:
            renamed = _RENAMED.search(outcome.message or "")
            if renamed:
                name = renamed.group(2)
        return found.file, found.name, name

    def _after_write(
        self, fresh: list[tuple[str, str]], report: Report, edited: tuple[str, str, str] | None = None
    ) -> None:
        """After the session's own write, what the agent saw is what it wrote: the fresh definitions are
        found again in the written versions (and the edited one under its new name), and remembered.

        Found in the Documents of the bytes written, not read from disk again, so the finding can wait
        until the answer is out (warm_up, or the next call's start: `_settle`) and still mean exactly
        the version this call wrote, whatever reached the disk since. A file whose written bytes are
        not kept (a mixed file's line endings) is found on disk now, as it is.
        """
        written = {change.path for change in report.changes}
        if edited is not None:
            written.add(edited[0])  # the edited file as the memory names it (a symlink's target)
        for path in written:
            item = _Unsettled(
                path,
                [name for file, name in fresh if file == path],
                edited if edited is not None and edited[0] == path else None,
                self.documents.kept(path),
            )
            if item.document is None:
                self._tell(item)
            else:
                self._unsettled.append(item)

    def _settle(self) -> None:
        while self._unsettled:
            self._tell(self._unsettled.pop(0))

    def _tell(self, item: _Unsettled) -> None:
        found: dict[str, seen_.Found] = {}
        for name in item.fresh:
            now = seen_.find_quietly(self.root, self.documents, item.path, name, item.document)
            if now is None:
                self.memory.forget(item.path, name)
            else:
                self.memory.remember(item.path, name, now.seen)
                found[name] = now
        if item.edited is not None:
            _, old_name, name = item.edited
            if name != old_name:
                self.memory.forget(item.path, old_name)
            now = found.get(name) or seen_.find_quietly(self.root, self.documents, item.path, name, item.document)
            if now is not None:
                self.memory.remember(now.file, now.name, now.seen)

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
            return refusal("list_definitions needs at least one path", "pass files, folders or globs, e.g. ['src/']")
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
        named = {p for p in inside if (self.root / p).is_file()}  # a file asked for by name is never skipped
        skipped: list[str] = []
        for missing in selection.empty:
            lines.append(f"{missing}: matched no text file")
        for relative in selection.files:
            try:
                source = load(self.root, relative)
                if not source.exists:
                    raise PatchError(f"No such file: {relative}", "paths are relative to the project root")
                spec = language_for_path(source.path)
                document = None
                if spec is not None and spec.embedding is None:
                    document = self.documents.open(source, self.root)
                    definitions = document.definitions
                else:
                    definitions = definitions_of(source)
            except UnsupportedFile as error:
                if relative in named:
                    files.append({"file": relative, "error": str(error), "definitions": []})
                    lines.append(f"{relative}: {error}")
                else:  # a folder's file no grammar reads: said once at the end, not a failure of the listing
                    skipped.append(relative)
                continue
            except PatchError as error:
                files.append({"file": relative, "error": str(error), "definitions": []})
                lines.append(f"{relative}: {error}")
                continue
            names = target_names(definitions)
            versions = [
                (seen_.seen_of(document.data, seen_.span_start(document, d), d) if document is not None
                 else seen_.data_seen(source.data, d)).version
                for d in definitions
            ]
            file_version = version_of(source.to_bytes())
            files.append({
                "file": source.path,
                "file_version": file_version,
                "definitions": [
                    {"kind": d.kind, "name": name, "line": d.line, "end_line": d.end_line, "version": version}
                    for d, name, version in zip(definitions, names, versions, strict=True)
                ],
            })
            lines.append(f"{source.path}  (version {file_version})" + ("" if definitions else "  (no definitions)"))
            lines += [
                f"  {d.kind} {name}  {_lines(d.line, d.end_line)}  v{version}"
                for d, name, version in zip(definitions, names, versions, strict=True)
            ]
        if skipped:
            shown = ", ".join(skipped[:20]) + (f" and {len(skipped) - 20} more" if len(skipped) > 20 else "")
            lines.append(f"skipped {len(skipped)} file(s) kopipasta has no grammar for: {shown}")
        ok = bool(selection.files) and not selection.empty and not any("error" in f for f in files)
        return Result(ok, "\n".join(lines) or "no files matched", {"files": files, "skipped": skipped})

    def _read(self, relative: str, target: str) -> Result:
        found = seen_.find(self.root, self.documents, relative, target, "read_definition")
        self.memory.remember(found.file, found.name, found.seen)
        seen, definition = found.seen, found.definition
        data = {
            "file": found.file, "kind": definition.kind, "name": found.name,
            "line": seen.line, "end_line": definition.end_line, "text": seen.text,
            "version": seen.version, "file_version": version_of(found.document.source.to_bytes()),
        }
        head = f"{found.file}: {definition.kind} {found.name}, lines {seen.line}-{definition.end_line}, version {seen.version}"
        return Result(True, f"{head}\n{seen.text}", data)


def _lines(line: int, end_line: int) -> str:
    return f"line {line}" if line == end_line else f"lines {line}-{end_line}"


_RENAMED = re.compile(r"renamed '([^']+)' to '([^']+)'")



@dataclass
class _Unsettled:
    """A file the session wrote: the remembered names to find again in it, the edited definition
    (file, old name, new name), and the Document of the bytes written (None: not kept, found on disk)."""

    path: str
    fresh: list[str]
    edited: tuple[str, str, str] | None
    document: Any
