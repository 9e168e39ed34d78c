"""Stale targets: the user edited a definition after the model saw it.

`prompt` (and `session`, which renders prompts) remembers, per file it put in
a prompt, the file's sha256 and each definition's span sha256, in
`.kopipasta/prompted.json`. At apply time a block whose target definition
changed since (or a whole-file block for a file that changed) would drop the
user's edit: it fails, unless `--force`. Edits elsewhere in the file do not
matter, and without a record for the file nothing is checked.

What the model knows grows with each apply: the versions our own applies
write are added to the known hashes (`after_write`), so a second reply on a
definition the first one changed, or a re-apply after `undo`, is not stale.
A definition the user changed and no apply touched stays unknown. A new prompt
adds to what is known (it does not forget what an earlier one showed): a file
restored to a version any prompt showed is not stale.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kopipasta.code.find.definitions import Definition
from kopipasta.disk import beneath
from kopipasta.disk.digest import sha256_hex
from kopipasta.disk.prompt_record import RECORD, STATE_DIR
from kopipasta.disk.workspace import Source
from kopipasta.errors import PatchError
from kopipasta.model import Operation, Patch

if TYPE_CHECKING:
    from kopipasta.code.find.document import Document

_KEPT_FILES = 500  # the record never grows without bound
_KEPT_VERSIONS = 20  # known hashes per file and per definition


class StaleTarget(PatchError):
    """The target changed since the prompt showed it to the model."""


@dataclass(frozen=True)
class Changed:
    """A file that differs from what the prompt showed, and which of its definitions do."""

    definitions: tuple[Definition, ...]  # the file's definitions as on disk now
    names: tuple[str, ...]  # target_names of `definitions`
    spans: dict[str, tuple[int, int]]  # name → (line, end_line) now, for each changed definition
    data: bytes = b""  # the file as on disk now (the bytes `definitions` are spans of)
    text: str = ""  # a data file: its text now
    shown_texts: tuple[str, ...] = ()  # a data file: the versions the model saw (prompt, our applies)

    def named(self, name: str) -> Definition | None:
        """The definition whose target name is `name`, as on disk now."""
        return next((d for d, known in zip(self.definitions, self.names, strict=True) if known == name), None)

    def code_of(self, name: str) -> bytes:
        """The current bytes of the definition `name` (with its decorators), b"" if it has none."""
        definition = self.named(name)
        return b"" if definition is None else self.data[definition.outer_start : definition.end]


def _digest(data: bytes) -> str:
    return sha256_hex(data)


def _spans(data: bytes, definitions: Sequence[Definition]) -> dict[str, tuple[int, int, str]]:
    """Each definition's target name → (line, end line, sha256 of its span with its wrapper)."""
    from kopipasta.code.read.inventory import target_names

    names = target_names(definitions)
    return {
        name: (d.line, d.end_line, _digest(data[d.outer_start : d.end]))
        for d, name in zip(definitions, names, strict=True)
    }


def _definitions(source: Source, documents: Sequence[Document] = ()) -> tuple[Definition, ...]:
    """The file's definitions, from the apply's own analysis of these very bytes when it has one."""
    from kopipasta.code.read.inventory import definitions_of

    try:
        for document in documents:
            if _same_analysis(document, source):
                return tuple(document.definitions)
        return tuple(definitions_of(source))
    except PatchError:
        return ()


def _same_analysis(document: Document, source: Source) -> bool:
    """Whether `document.definitions` is what `definitions_of(source)` lists: a code file (not a
    component's script, not data), the same bytes, and a tree a fresh parse gives. The tree of a
    syntax check is an incremental reparse: trusted only without an ERROR node, where recovery
    may differ from a fresh parse (as text patches do)."""
    spec = document.spec
    return (
        spec is not None
        and spec.embedding is None
        and document.source.path == source.path
        and len(document.data) == len(source.data)
        and document.data == source.data
        and not document.tree.root_node.has_error
    )


def _known(value: Any) -> list[str]:
    """The known hashes of a record field (a list; one string in hand-made records)."""
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _shown(record: dict[str, Any]) -> dict[str, Any]:
    shown = record.get("definitions")
    return shown if isinstance(shown, dict) else {}


def _add(known: list[str], digest: str) -> list[str]:
    return ([k for k in known if k != digest] + [digest])[-_KEPT_VERSIONS:]


def remember(root: Path, inventories: Iterable[tuple[Source, Sequence[Definition] | None]]) -> None:
    """Record what a prompt showed; never fails the prompt (a read-only project keeps no record)."""
    try:
        records = _read(root)
        for source, definitions in inventories:
            # Re-inserted last: the newest records are kept. The versions an earlier prompt
            # showed (or an apply wrote) stay known: a file put back as it was then (`git
            # checkout .`) is what that prompt's reply was written against, not a user's edit.
            earlier = records.pop(source.path, None)
            earlier = earlier if isinstance(earlier, dict) else {}
            spans = _spans(source.data, definitions) if definitions else {}
            shown = _shown(earlier)
            for name, (_, _, digest) in spans.items():
                shown[name] = _add(_known(shown.get(name)), digest)
            records[source.path] = {
                "sha256": _add(_known(earlier.get("sha256")), _digest(source.data)),
                "definitions": shown,
            }
            if _keeps_text(source.path, source.data):
                texts = earlier.get("texts")
                kept = [t for t in texts if isinstance(t, str)] if isinstance(texts, list) else []
                records[source.path]["texts"] = ([t for t in kept if t != _text(source.data)] + [_text(source.data)])[
                    -_KEPT_TEXTS:
                ]
        _write(root, dict(list(records.items())[-_KEPT_FILES:]))
    except Exception:  # noqa: BLE001 — a record that cannot be kept only turns the check off
        pass


def changed_since_prompt(root: Path, source: Source, document: Document | None = None) -> Changed | None:
    """None when no prompt recorded the file, or it is as the prompt (or one of our applies) left it.

    `document`: the apply's document of `source`, whose definitions are then not listed again.
    """
    if not source.exists:
        return None
    record = _read(root).get(source.path)
    if not isinstance(record, dict) or _digest(source.data) in _known(record.get("sha256")):
        return None
    from kopipasta.code.read.inventory import target_names

    definitions = _definitions(source, (document,) if document is not None else ())
    names = tuple(target_names(definitions))
    shown = _shown(record)
    spans = {
        name: (line, end_line)
        for name, (line, end_line, digest) in _spans(source.data, definitions).items()
        if name in shown and digest not in _known(shown[name])
    }
    texts = tuple(t for t in record.get("texts", ()) if isinstance(t, str)) if _keeps_text(source.path, source.data) else ()
    return Changed(definitions, names, spans, source.data, _text(source.data) if texts else "", texts)


# A data file's text is kept in the record (up to this size) so a TARGET_PATH block can be
# checked against the value the prompt showed at its path; a bigger one is not checked.
_KEPT_TEXT_BYTES = 256 * 1024
_KEPT_TEXTS = 3


def _keeps_text(path: str, data: bytes) -> bool:
    from kopipasta.data import format_of

    return format_of(path) is not None and len(data) <= _KEPT_TEXT_BYTES


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass").replace("\r\n", "\n")


def after_write(root: Path, written: Iterable[tuple[str, bytes, bytes]], documents: Sequence[Document] = ()) -> None:
    """The versions an apply wrote become known: (path, bytes before, bytes written).

    A definition that was unknown before the apply (the user's edit) and that
    the apply left as it was stays unknown. `documents` are the apply's analyses
    (the files as read and as written): a version one of them holds is not parsed
    and listed again.
    """
    from kopipasta.disk.workspace import source_from_bytes

    try:
        records = _read(root)
        touched = False
        for path, raw_before, raw_after in written:
            record = records.get(path)
            if not isinstance(record, dict):
                continue
            before, new = source_from_bytes(path, raw_before), source_from_bytes(path, raw_after)
            shown = _shown(record)
            old_spans = _spans(before.data, _definitions(before, documents))
            users_edit_kept = False
            for name, (_, _, digest) in _spans(new.data, _definitions(new, documents)).items():
                previous = old_spans.get(name)
                user_edit = previous is not None and name in shown and previous[2] not in _known(shown[name])
                if user_edit and previous is not None and previous[2] == digest:
                    users_edit_kept = True
                    continue
                shown[name] = _add(_known(shown.get(name)), digest)
            record["definitions"] = shown
            texts = record.get("texts")
            if isinstance(texts, list) and _keeps_text(path, new.data):
                # Only a version written over one the model knew: a user's edit elsewhere in
                # the file (a top-level key is one "definition") would otherwise become known
                # with it. Refusing too much (`--force` says yes) is the safe side.
                if _digest(before.data) not in _known(record.get("sha256")):
                    users_edit_kept = True
                else:
                    record["texts"] = ([t for t in texts if isinstance(t, str)] + [_text(new.data)])[-_KEPT_TEXTS:]
            if not users_edit_kept:  # else the file as a whole is not what the model knows
                record["sha256"] = _add(_known(record.get("sha256")), _digest(new.data))
            touched = True
        if touched:
            _write(root, records)
    except Exception:  # noqa: BLE001 — as in `remember`
        pass


# The fix offered for a stale target; the session names its own key instead (loop/session.py).
REPROMPT_HINT = "re-prompt, or `--force`"
WHOLE_FILE_HINT = "re-prompt with the current file, or `--force`"


def shown_again(root: Path, source: Source, names: Iterable[str], *, whole: bool = False) -> None:
    """The model was just shown these definitions of `source` as they are now (a correction
    message carries them), or the whole file: their current versions become known."""
    try:
        records = _read(root)
        record = records.get(source.path)
        if not isinstance(record, dict):
            return
        spans = _spans(source.data, _definitions(source))
        shown = _shown(record)
        for name in names:
            if name in spans:
                shown[name] = _add(_known(shown.get(name)), spans[name][2])
        record["definitions"] = shown
        if whole:
            record["sha256"] = _add(_known(record.get("sha256")), _digest(source.data))
        _write(root, records)
    except Exception:  # noqa: BLE001 — as in `remember`
        pass


def check(patch: Patch, changed: Changed | None) -> None:
    """Fail a targeted block that would overwrite what the user changed since the prompt.

    A file block (FILE and no target) is checked after it is read, by `check_file_block`:
    whether it is a whole file or a fragment is the reading's to say, not the record's.
    """
    if changed is None or patch.operation is Operation.WHOLE_FILE:
        return
    if patch.operation is Operation.SET_PATH and changed.shown_texts and patch.target is not None:
        _check_value(patch.file, patch.target, patch.payload, changed)
        return
    if patch.operation not in (Operation.REPLACE_NODE, Operation.DELETE_NODE) or not changed.spans:
        return
    from kopipasta.code.find.resolve import parse_target, resolve

    assert patch.target is not None
    try:
        definition = resolve(parse_target(patch.target, patch.file), list(changed.definitions), patch.file)
    except PatchError:
        return  # not found or ambiguous: the operation itself says so
    name = changed.names[changed.definitions.index(definition)]
    if name in changed.spans:
        line, end_line = changed.spans[name]
        raise StaleTarget(
            f"`{name}` changed since the prompt (lines {line}–{end_line}): applying would drop your edit",
            REPROMPT_HINT,
        )


def check_file_block(patch: Patch, changed: Changed | None, reading: str, new_data: bytes) -> None:
    """Fail a file block, as it was read, that would overwrite what the user changed since the prompt.

    Read as a whole file, it replaces everything: any change since the prompt is dropped.
    Read as a fragment or an elided file, it replaces only the definitions it restates:
    it fails only if one of those changed since the prompt and the block's version differs
    from the user's (`new_data`: the file after the block).
    """
    if changed is None or patch.operation is not Operation.WHOLE_FILE or new_data == changed.data:
        return  # a block that leaves the file as the user has it drops nothing
    if reading in ("", "whole file"):
        raise StaleTarget(
            f"{patch.file} changed since the prompt: the whole-file block would drop your edit",
            WHOLE_FILE_HINT,
        )
    if not changed.spans:
        return
    after = Source(patch.file, new_data, False, "\n", True)
    from kopipasta.code.read.inventory import target_names

    definitions = _definitions(after)
    now = {
        name: new_data[d.outer_start : d.end]
        for d, name in zip(definitions, target_names(definitions), strict=True)
    }
    for name, (line, end_line) in changed.spans.items():
        if now.get(name) != changed.code_of(name):
            raise StaleTarget(
                f"`{name}` changed since the prompt (lines {line}–{end_line}): the {reading} block would drop your edit",
                REPROMPT_HINT,
            )


def _read(root: Path) -> dict[str, Any]:
    with beneath.root_descriptor(root) as root_fd:
        try:
            found = beneath.read_file(root_fd, f"{STATE_DIR}/{RECORD}")
        except (OSError, PatchError):
            return {}
    if found is None:
        return {}
    try:
        data = json.loads(found[0].decode("utf-8"))
    except ValueError:
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    return dict(files) if isinstance(files, dict) else {}


def _write(root: Path, records: dict[str, Any]) -> None:
    from kopipasta.disk.journal import replace_state_file

    replace_state_file(root, RECORD, json.dumps({"version": 1, "files": records}).encode())


def _check_value(file: str, path: str, payload: str, changed: Changed) -> None:
    """A TARGET_PATH block fails when the value at its path is not one the model was shown,
    unless the block sets the value it already has (applying a reply twice is safe)."""
    from kopipasta.data import set_value
    from kopipasta.data.values import same_value, value_at

    try:
        now = value_at(changed.text, path, file)
        shown = [value_at(text, path, file) for text in changed.shown_texts]
        if any(same_value(now, value) for value in shown):
            return
        if same_value(value_at(set_value(changed.text, path, payload, file=file), path, file), now):
            return
    except PatchError:
        return  # a path, payload or file that does not read: the operation itself says so
    raise StaleTarget(
        f"`{path}` in {file} changed since the prompt: applying would drop your edit",
        "re-prompt, or `--force`",
    )
