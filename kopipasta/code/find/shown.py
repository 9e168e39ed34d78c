"""A definition's name as a person of its language writes it (issue 21): `Rack::ETag#digest_body`.

Targets are matched with dots whatever the language (PROTOCOL.md §4), and the
resolver reads each language's own qualifiers too (`::`, `#`, `:`). What
`nodes`, the prompt and the messages show should read as the language reads:
in Ruby, namespaces joined by `::`, an instance method after `#` and a
singleton method (`def self.x`, `def Const.x`) after `.`. Other languages keep
the dotted name, which is already how most of them write it.
"""

from __future__ import annotations

from kopipasta.code.find.definitions import Definition
from kopipasta.startup.lazy_pattern import lazy_compile
from kopipasta.syntax.languages import RUBY, language_for_path

# `def self.build` or `def Config.load`: a method of the object, not of its instances.
_SINGLETON = lazy_compile(rb"def\s+(?:self|[A-Z]\w*)\s*\.")


def shown_name(definition: Definition, path: str, data: bytes | None = None) -> str:
    """The qualified name in the file's language; `data` (the file's bytes) tells a Ruby singleton method."""
    if not definition.scope or language_for_path(path) is not RUBY:
        return definition.qualified_name
    owner = "::".join(definition.scope)
    if definition.kind != "method":
        return f"{owner}::{definition.name}"
    singleton = data is not None and _SINGLETON.match(data, definition.start) is not None
    return f"{owner}{'.' if singleton else '#'}{definition.name}"
