"""The last look before an agent's edit is written: the target is the version the agent read.

The stale check (workbench._stale) reads the target before the engine runs;
these are asked again by the engine's accept hook, under the project's lock, of
the bytes it is about to overwrite, so a write landing in between is refused,
never overwritten. `ExactReplace` is edit_definition's: its result must also be
exactly the file with the one replace.
"""

from __future__ import annotations

from typing import Any

from kopipasta.agents import seen as seen_
from kopipasta.agents.results import Result, refusal
from kopipasta.errors import PatchError


class SameTarget:
    """The definition the stale check read is the one the engine is about to overwrite.

    Asked by the engine's accept hook, under the project's lock, of the bytes it
    loaded there (and the transaction checks again that the file still holds them
    at the rename). The same bytes as the check read: accepted at once. Other
    bytes (a write landed between the check and the lock): accepted only if the
    target reads there as the same version, else refused, never overwritten.
    """

    def __init__(self, found: seen_.Found) -> None:
        self.found = found
        self.now = found  # the target in the bytes the engine loaded
        self.declined = False
        self.changed = False

    def accepts(self, changes: tuple[Any, ...]) -> bool:
        change = next((c for c in changes if c.path == self.found.file), None)
        if change is None or change.before is None or change.before == self.found.document.source.to_bytes():
            return True
        now = self._found_in(change.before)
        if now is None or now.seen.version != self.found.seen.version:
            self.changed = self.declined = True
            return False
        self.now = now
        return True

    def _found_in(self, raw: bytes) -> seen_.Found | None:
        from kopipasta.code.find.document import open_document
        from kopipasta.disk.workspace import source_from_bytes

        try:
            return seen_.found_in(open_document(source_from_bytes(self.found.file, raw), None), self.found.file, self.found.name)
        except (PatchError, ValueError, OSError):
            return None

    def refusal(self) -> Result:
        found = self.found
        return refusal(
            f"{found.file}: {found.definition.kind} {found.name} changed while the edit was being made "
            "(another write landed first); nothing was written",
            "read_definition again and redo the edit on what is there now",
        )


class ExactReplace(SameTarget):
    """edit_definition's net: the engine's result must be exactly the file with the one replace."""

    def __init__(self, found: seen_.Found, text: str) -> None:
        super().__init__(found)
        self.text = text.encode("utf-8")

    def accepts(self, changes: tuple[Any, ...]) -> bool:
        if not super().accepts(changes):
            return False
        now = self.now
        data = now.document.data
        expected = seen_.lf((data[: now.start] + self.text + data[now.definition.end :]).decode("utf-8", "replace"))
        after = changes[0].after or b""
        self.declined = len(changes) != 1 or seen_.lf(after.decode("utf-8", "replace")).lstrip("\ufeff") != expected
        return not self.declined

    def refusal(self) -> Result:
        if self.changed:
            return super().refusal()
        found = self.found
        return refusal(
            f"{found.file}: {found.definition.kind} {found.name}: the edit does not read as one exact replace "
            "inside the definition (its text would be re-read as a whole definition); nothing was written",
            "send the whole definition with replace_definition",
        )
