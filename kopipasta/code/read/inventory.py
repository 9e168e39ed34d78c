"""What a file offers to a patch: its addressable definitions, as `apply` sees them.

`kopipasta nodes` prints this list and the prompt shows it to the model, so both
come from the very parser, query and definition rules that the resolver uses:
a name listed here is a name a TARGET_NODE can resolve. JSON files list their
top-level keys (kind `key`), the simplest TARGET_PATH values; YAML files theirs,
TOML files their root keys and each `[table]` (kind `table`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from kopipasta import data as data_formats
from kopipasta.code.find.definitions import Definition, list_definitions
from kopipasta.code.find.shown import shown_name
from kopipasta.disk.workspace import Source, load
from kopipasta.errors import TargetNotFound, UnsupportedFile
from kopipasta.syntax.languages import LANGUAGES, language_for_path, parse


def load_existing(root: Path, relative: str) -> Source:
    """The file under the root; TargetNotFound when it does not exist."""
    source = load(root, relative)
    if not source.exists:
        from kopipasta.code.find.samename import did_you_mean, suggestions

        meant = suggestions(root, relative)  # as `apply` says it (issue 21)
        raise TargetNotFound(
            f"No such file: {relative}", did_you_mean(meant, relative) if meant else "paths are relative to the project root (--root)"
        )
    return source


def root_relative(argument: str, root: Path) -> str:
    """A FILE argument as a path relative to the root.

    Arguments are relative to the root. When one names nothing there but names
    a file from the current folder (or is absolute) inside the root, as shell
    completion writes it with `--root elsewhere`, that file is meant.
    """
    candidate = Path(argument)
    if not candidate.is_absolute() and (root / candidate).exists():
        return argument
    if candidate.is_absolute() or candidate.exists():
        relative = os.path.relpath(os.path.abspath(candidate), os.path.abspath(root))
        if relative != ".." and not relative.startswith(".." + os.sep):
            return Path(relative).as_posix()
    return argument


def file_definitions(root: Path, relative: str) -> list[Definition]:
    """The definitions of one file, in file order.

    Raises ConfinementError for a path that leaves the root, TargetNotFound for
    a file that does not exist, and UnsupportedFile for a folder, a file that is
    not UTF-8 text, or a file type without a grammar.
    """
    return definitions_of(load_existing(root, relative))


def definitions_of(source: Source) -> list[Definition]:
    """The definitions of an already loaded file (see `file_definitions`)."""
    if data_formats.format_of(source.path) is not None:
        return _data_keys(source)
    spec = language_for_path(source.path)
    if spec is None:
        supported = ", ".join(ext for language in LANGUAGES for ext in language.extensions)
        raise UnsupportedFile(
            f"{source.path}: no grammar for this file type (supported: {supported}, .json, .yaml, .yml, .toml)",
            "such a file can only be replaced whole",
        )
    if spec.embedding is not None:
        from kopipasta.code.read import embedded  # imported for Vue/Svelte only (issue 9)

        return embedded.definitions(spec, source.data)  # a Vue/Svelte component's <script>
    return list_definitions(spec, parse(spec, source.data))


def target_names(definitions: Sequence[Definition], source: Source | None = None) -> list[str]:
    """The name that picks each definition in a target: `name#2` where names repeat.

    Ordinals count the definitions that fit the definition's own kind and share
    its qualified name, as the resolver does for `kind name#n`. With the file's
    `source`, names are shown as its language writes them (`Rack::ETag#call`, shown.py).
    """
    by_name: dict[str, list[Definition]] = {}
    for definition in definitions:
        by_name.setdefault(definition.qualified_name, []).append(definition)
    names: list[str] = []
    for definition in definitions:
        name = shown_name(definition, source.path, source.data) if source is not None else definition.qualified_name
        same = [d for d in by_name[definition.qualified_name] if d.fits(definition.kind)]
        if len(same) > 1 and definition in same:
            names.append(f"{name}#{same.index(definition) + 1}")
        else:
            names.append(name)
    return names


def _data_keys(source: Source) -> list[Definition]:
    """Top-level keys of a JSON, YAML or TOML file (and TOML's tables), as TARGET_PATHs."""
    return [
        Definition(kind=k.kind, name=k.name, scope=(), start=k.start, end=k.end, outer_start=k.start,
                   line=k.line, end_line=k.end_line)
        for k in data_formats.top_keys(source.data, source.path)
    ]
