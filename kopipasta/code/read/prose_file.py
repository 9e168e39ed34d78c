"""Which file the prose above a block names, once the project is known (PROTOCOL.md §2).

Chat answers name the file in a sentence ("Replace the `parse_header` function in
`app/utils.py` with:") or in the block's first comment (`# In app/utils.py`). Intake
collects the path-like names (it reads no project file); here they are held to the
project: exactly one of them must be a file that exists, and the block must belong
to it — it restates one of that file's definitions, or it is the whole file. Any
doubt leaves the block unattributed, so it is explanation, never a guessed write.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from kopipasta.code.find.document import Document, open_document
from kopipasta.disk.workspace import confine, load, normalise, resolve_real
from kopipasta.errors import PatchError


def existing_file(root: Path, paths: tuple[str, ...]) -> str | None:
    """The one path among `paths` that is a file of the project; None for none or several."""
    found = existing_files(root, paths)
    return found[0] if len(found) == 1 else None


def existing_files(root: Path, paths: tuple[str, ...]) -> list[str]:
    """The files of the project that `paths` name, each once, in order.

    A bare name that is no file at the root (`day.tsx`) names the one file of that name
    in the project (`src/day.tsx`); two of that name, and it names neither.
    """
    found: dict[str, str] = {}
    for path in paths:
        try:
            if not confine(root, path).is_file():
                if "/" in path or "\\" in path:
                    continue
                from kopipasta.code.find.samename import same_name

                elsewhere = same_name(root, path)
                if len(elsewhere) != 1:
                    continue
                path = elsewhere[0]
            found.setdefault(resolve_real(root, path), normalise(path))
        except (PatchError, OSError, ValueError):
            continue  # outside the root, or no path at all: it names nothing here
    return list(found.values())


# A fence of commands: what it holds is run, never written into a file the prose names.
_SHELLS = frozenset({"bash", "sh", "shell", "zsh", "console", "terminal", "powershell", "ps1", "cmd", "bat", "fish"})
_SHELL_SUFFIXES = (".sh", ".bash", ".zsh", ".ps1", ".bat", ".cmd", ".fish")
# Info strings that say nothing about the language: a text file's block may carry them.
_PLAIN = frozenset({"", "text", "txt", "plain", "plaintext"})
# A text file this short is judged whole by length alone under FILE (reading.lines_whole).
_SHORT_TEXT = 3


def belongs_to(root: Path, path: str, payload: str, info: str = "") -> bool:
    """Whether `payload` is part of the file at `path`: one of its definitions, or the whole of it."""
    language = info.strip().lower()
    if language in _SHELLS and not path.lower().endswith(_SHELL_SUFFIXES):
        return False  # "install it with `pip install -r requirements.txt`:" is a command
    try:
        document = open_document(load(root, path), root)
    except (PatchError, OSError):
        return False
    if document.spec is not None and document.spec.embedding is None and _defines(document):
        return _restates_a_definition(document, payload)
    from kopipasta import data as data_formats

    if data_formats.format_of(path) is None:
        name = PurePosixPath(path).name.lower()
        if document.spec is None and language not in _PLAIN and language not in (
            PurePosixPath(name).suffix.lstrip("."),
            name,
        ):
            return False  # a text file has no definitions to match: the block must be written as text
        # Named only by prose, a short file without definitions is taken only by a block that keeps
        # all its lines: "add flask to `requirements.txt`:" over `flask` alone means a line added.
        have = {line.strip() for line in document.data.decode("utf-8", "replace").splitlines() if line.strip()}
        if len(have) <= _SHORT_TEXT:
            return have <= {line.strip() for line in payload.splitlines()}
    return _whole_or_data_part(document, path, payload)


def _defines(document: Document) -> bool:
    try:
        return bool(document.definitions)
    except PatchError:
        return False


def _restates_a_definition(document: Document, payload: str) -> bool:
    from kopipasta.code.read.parsed import placeholder_rows, read_payload, structural

    placeholders = placeholder_rows(document.code_spec, payload, document.data)
    if placeholders and _holds_lines_of(document, payload, placeholders):
        # A lazy edit of the file's top (a header comment, its imports, then `// ... existing
        # code ...`) restates no definition, and may not parse alone (Lua with `//`): it belongs
        # when lines of its own stand in the file, as a reader places it. Where they go is
        # still the line-anchored reading's to say, strictly.
        return True
    try:
        parsed = read_payload(document.code_spec, payload, document.data)
    except PatchError:
        return False
    sent = {d.name for d in structural(parsed.definitions)}
    if sent & {d.name for d in structural(document.definitions)}:
        return True
    if placeholders:
        return False
    from kopipasta.code.read.reading import inside_one_definition

    return inside_one_definition(document, payload)


def _holds_lines_of(document: Document, payload: str, placeholders: dict[int, str]) -> bool:
    have = {line.strip() for line in document.data.decode("utf-8", "replace").splitlines()}
    shown = [
        line.strip() for row, line in enumerate(payload.splitlines())
        if row not in placeholders and len(line.strip()) > _TRIVIAL
    ]
    return sum(line in have for line in shown) >= _ANCHORS


# A line this short (`}`, `end`, `);`) says nothing about which file a block is part of.
_TRIVIAL = 4
# Lines of a block with placeholders the named file must hold for the block to be part of it.
_ANCHORS = 2


def _whole_or_data_part(document: Document, path: str, payload: str) -> bool:
    from kopipasta.code.read.reading import opaque_whole

    old = document.data.decode("utf-8", "replace")
    if opaque_whole(path, old, payload).whole:
        return True
    from kopipasta import data as data_formats

    kind = data_formats.format_of(path)
    if kind is None:
        return False
    from kopipasta.data.fragment import NotAFragment, apply_fragment

    try:
        apply_fragment(kind, old, payload, file=path)
    except (NotAFragment, PatchError):
        return False
    return True
