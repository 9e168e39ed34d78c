"""Visibility sections: where a new member may land without changing who can call it.

Ruby (`private` / `protected` / `public` alone on a line) and C++ (`public:` /
`private:` / `protected:` labels) give a class's members their visibility by
*section*: a member is whatever the last marker above it says. Adding a member
at "the end of the class" or beside a neighbour therefore also chooses its
visibility, and a reply that shows a public method must not leave a private one
(the hunt's rb06: a fragment's new `def` written below the class's `private`).

The payload's own visibility for a new member is the last marker above it in the
payload's body; elided code above it (a placeholder) may hold a marker, so then
the place chosen by its restated neighbours decides. With no marker and nothing
elided, Ruby's member is public (the language's reading, and how Ruby is
written); a C++ member is *unstated*: a `class` would make it private, but a
fragment that omits the labels rarely means that, so it is taken where a
restated neighbour puts it, and refused where nothing does.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kopipasta.syntax.languages import LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Node

    from kopipasta.code.find.definitions import Definition
    from kopipasta.code.read.members import Member

# Ruby's bare `module_function` opens a section too: the defs below it become module functions.
_LEVELS = ("public", "protected", "private", "module_function")
SECTION_GRAMMARS = frozenset({"ruby", "cpp"})


def has_sections(spec: LanguageSpec) -> bool:
    return spec.grammar in SECTION_GRAMMARS


def marker(spec: LanguageSpec, member: Member) -> str | None:
    """The visibility a body-level statement opens as a section marker (Ruby `private`, C++ `public:`)."""
    if member.kind != "statement" or not has_sections(spec):
        return None
    text = member.text.removesuffix(":").strip()
    return text if text in _LEVELS else None


def marker_node(spec: LanguageSpec, node: Node) -> str | None:
    """The same, for a node of a body (APPEND_TO reads the tree, not members)."""
    if (spec.grammar, node.type) not in (("cpp", "access_specifier"), ("ruby", "identifier")):
        return None
    text = (node.text or b"").decode("utf-8", "replace").strip()
    return text if text in _LEVELS else None


def payload_marker(spec: LanguageSpec, code: str) -> str | None:
    """The marker a payload opens with (`public:` / `private` as its first code line), if any."""
    first = next((line.strip() for line in code.splitlines() if line.strip()), "")
    first = first.split("#")[0].strip() if spec.grammar == "ruby" else first.split("//")[0].strip()
    first = first.removesuffix(":").strip() if spec.grammar == "cpp" else first
    return first if first in _LEVELS else None


def refuse_append(
    spec: LanguageSpec, container: Definition, body_nodes: list[Node], code: str, source: bytes
) -> tuple[str, str, Node | None] | None:
    """Why APPEND_TO would change the appended members' visibility, the last section's marker,
    and the body's last public member (a place that keeps it public); None when it would not.

    APPEND_TO adds after the last member (PROTOCOL.md §4a), so in a class whose last section
    is `private` the new members would be private: a payload that says so (it opens with the
    label) is appended; a data member joins the data members the section holds (what a
    class's closing `private:` section is for); a function, which a reply adds as API far more
    often than as a hidden helper and never marks, is refused.
    """
    if not has_sections(spec) or payload_marker(spec, code) is not None:
        return None
    sections = [(node, found) for node in body_nodes if (found := marker_node(spec, node)) is not None]
    if not sections:
        return None
    landing = sections[-1][1]
    if landing == "public" or own_visibility(spec, code) or not declares_function(spec, code):
        return None
    line = source[: sections[-1][0].start_byte].count(b"\n") + 1
    current = default(spec, container)
    last_public: Node | None = None
    for node in body_nodes:
        found = marker_node(spec, node)
        if found is not None:
            current = found
        elif current == "public":
            last_public = node
    return (
        f"the last section of {container.qualified_name} is `{landing}` (line {line}), so what APPEND_TO adds "
        f"there would become {landing}, and the payload does not say it belongs there",
        landing,
        last_public,
    )


def default(spec: LanguageSpec, container: Definition | None) -> str:
    """The visibility before any marker: Ruby public; C++ private in a `class`, public in a struct/union."""
    if spec.grammar == "cpp" and container is not None and container.kind == "class":
        return "private"
    return "public"


def unmarked(spec: LanguageSpec) -> str | None:
    """How a payload member with no marker above it (and nothing elided) reads: None is unstated."""
    return "public" if spec.grammar == "ruby" else None


def own_visibility(spec: LanguageSpec, text: str) -> bool:
    """Whether a member carries its visibility itself, so no section changes it.

    Ruby `private def x` / `protected attr_reader :y` say it on the line; a `def self.x`
    is a singleton method, and a nested class, module or constant is no method at all:
    a bare `private` line changes none of them.
    """
    if spec.grammar != "ruby":
        return False
    first = next((line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")), "")
    return first.startswith(
        ("private ", "protected ", "public ", "def self.", "private_class_method ", "class ", "module ")
    ) or re.match(r"[A-Z]\w*\s*(=[^=~]|\|\|=)", first) is not None


def section_at(spec: LanguageSpec, container: Definition | None, members: list[Member], position: int) -> tuple[str, int | None]:
    """The visibility in force before members[position], and the index of the marker that set it."""
    for k in range(min(position, len(members)) - 1, -1, -1):
        found = marker(spec, members[k])
        if found is not None:
            return found, k
    return default(spec, container), None


def last_definition_in(spec: LanguageSpec, container: Definition | None, members: list[Member], wanted: str) -> Definition | None:
    """The last definition of the last section with the wanted visibility (None: no such definition)."""
    for k in range(len(members) - 1, -1, -1):
        definition = members[k].definition
        if definition is not None and members[k].kind == "definition" and section_at(spec, container, members, k)[0] == wanted:
            return definition
    return None


_FUNCTION_NODES = {"cpp": ("function_definition", "function_declarator"), "ruby": ("method",)}


def declares_function(spec: LanguageSpec, code: str) -> bool:
    """Whether the payload defines or declares a function (a method once in the class)."""
    from kopipasta.syntax.languages import parse

    wanted = _FUNCTION_NODES.get(spec.grammar, ())
    level = list(parse(spec, code.encode("utf-8")).root_node.named_children)
    for _ in range(4):  # a template's, an attribute's or an ERROR's wrapping, and the declarator
        if any(node.type in wanted for node in level):
            return True
        level = [child for node in level for child in node.named_children]
    return False
