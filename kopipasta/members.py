"""A container's members, in order: the definitions, imports, statements and placeholders it holds.

Fragments and elided payloads (PROTOCOL.md §6) are read as a sequence of
members of a container (the module, or a class / interface / namespace body),
and so is the original container they are merged into. A member is a
definition (with the comment block directly above it), an import, a
placeholder line standing for elided code, or any other statement (a module
docstring, `if __name__ == "__main__":`, `export default App;`).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta import wholefile
from kopipasta.definitions import Definition, comment_block_start, list_definitions
from kopipasta.fields import field_key
from kopipasta.languages import LanguageSpec
from kopipasta.render import payload_tree, wrapped_tree

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

    from kopipasta.document import Document

_FUNCTION_KINDS = frozenset({"function", "method"})
# Definitions whose body holds members, merged member by member when elided.
CONTAINER_KINDS = frozenset({"class", "interface", "enum", "module", "struct", "impl", "trait"})
# The wrapper `render.payload_tree` puts around JS/TS class members that do not parse alone.


@dataclass(frozen=True)
class Member:
    """One member of a container, in order: a definition, an import, a statement or a placeholder."""

    kind: str  # "definition", "import", "statement", "placeholder"
    first_row: int  # first row (0-based), a definition's comment block included
    last_row: int
    start: int  # byte offsets in the parsed text (a definition: its comment block's start)
    end: int
    definition: Definition | None = None
    text: str = ""  # statements: the text with whitespace squashed; placeholders: the line
    key: str = ""  # fields (interface properties, enum members): their name


@dataclass(frozen=True)
class Parsed:
    """A text read for its members: a payload (placeholders masked so it parses) or a file."""

    spec: LanguageSpec
    data: bytes  # what was parsed (a payload: masked, possibly inside the class wrapper)
    tree: Tree
    offset: int  # wrapper rows before the text's first row
    definitions: list[Definition]  # scope without the wrapper
    placeholders: dict[int, str]  # row (0-based, in the text) → the placeholder line

    @property
    def has_error(self) -> bool:
        return self.tree.root_node.has_error

    def row(self, offset: int) -> int:
        return self.data.count(b"\n", 0, offset) - self.offset


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def placeholder_rows(spec: LanguageSpec, text: str, original: bytes | None = None) -> dict[int, str]:
    """Rows (0-based) of the lines that stand for elided code.

    A placeholder-looking line the original already holds (its own `# ...`
    comment) is code, not a placeholder.
    """
    found = dict(
        (number - 1, line) for number, line in wholefile.iter_placeholders(text, python=spec.grammar == "python")
    )
    if original is not None and found:
        own = {line.strip() for line in original.decode("utf-8", "replace").splitlines()}
        found = {row: line for row, line in found.items() if line not in own}
    return found


def _masked(spec: LanguageSpec, text: str, rows: dict[int, str]) -> str:
    """The text with each placeholder line made parseable: `...` in Python, a comment elsewhere."""
    lines = text.split("\n")
    for row in rows:
        line = lines[row]
        indent = line[: len(line) - len(line.lstrip())]
        lines[row] = indent + ("..." if spec.grammar == "python" else "// ...")
    return "\n".join(lines)


def read_payload(spec: LanguageSpec, payload: str, original: bytes | None = None) -> Parsed:
    rows = placeholder_rows(spec, payload, original)
    # An indented payload (a method without its class) parses at its own margin; rows stay the same.
    text = textwrap.dedent(_masked(spec, payload, rows))
    if not text.endswith("\n"):
        text += "\n"  # Go wants a declaration ended: at the end of input, a newline ends it
    tree, offset = payload_tree(spec, text)
    definitions = list_definitions(spec, tree)
    if not offset and not definitions:
        # Some grammars (Java) read a bare method at the top level without an error, but as no
        # method: inside the class wrapper it is one.
        wrapped = wrapped_tree(spec, text)
        if wrapped is not None:
            tree, offset = wrapped
            definitions = list_definitions(spec, tree)
    data = tree.root_node.text or b""
    wrapper = _wrapper_name(spec, data) if offset else None
    if wrapper is not None:  # a class wrapper; PHP's `<?php` alone wraps no definition
        definitions = [_unwrapped(d) for d in definitions if d.scope[:1] == (wrapper,)]
    return Parsed(spec, data, tree, offset, definitions, rows)


def read_file(document: Document) -> Parsed:
    """The file read for its members, with the document's own definitions."""
    return Parsed(document.code_spec, document.data, document.tree, 0, document.definitions, {})


def _wrapper_name(spec: LanguageSpec, data: bytes) -> str | None:
    """The name of the class (or impl) a member payload was parsed inside (render.payload_tree), if any."""
    openings = [o for o, _ in spec.payload_wrappers if data.startswith(o.encode("utf-8"))]
    if not openings:
        return None
    found = re.search(r"\b__\w+", max(openings, key=len))
    return found.group() if found else None


def _unwrapped(definition: Definition) -> Definition:
    from dataclasses import replace

    kind = "function" if definition.kind == "method" and len(definition.scope) == 1 else definition.kind
    return replace(definition, scope=definition.scope[1:], kind=kind)


def structural(definitions: list[Definition]) -> list[Definition]:
    """Definitions that are not inside a function: what a file or class is made of."""
    # One sweep in start order, not a function-by-definition scan: a 20,000-line file has thousands.
    # d is inside a function f when f.start <= d.start < f.end, f not d.
    starts_of_functions: dict[int, int] = {}
    for d in definitions:
        if d.kind in _FUNCTION_KINDS:
            starts_of_functions[d.start] = starts_of_functions.get(d.start, 0) + 1
    inside: set[int] = set()
    reach = -1  # the furthest end of the functions already swept (each starts at or before d)
    for d in sorted(definitions, key=lambda d: d.start):
        same_start = starts_of_functions.get(d.start, 0) - (1 if d.kind in _FUNCTION_KINDS else 0)
        if reach > d.start or same_start > 0:
            inside.add(id(d))
        if d.kind in _FUNCTION_KINDS:
            reach = max(reach, d.end)
    return [d for d in definitions if id(d) not in inside]


def _body(tree: Tree, definition: Definition) -> Node | None:
    node = tree.root_node.descendant_for_byte_range(definition.start, definition.end)
    while node is not None and node.child_by_field_name("body") is None:
        node = node.parent
    return node.child_by_field_name("body") if node is not None else None


def _wrapper_body(wrapper: Node) -> Node | None:
    body = wrapper.child_by_field_name("body")
    if body is not None:
        return body
    # Grammars without field names (Kotlin): the body is the wrapper's last named child.
    children = wrapper.named_children
    return children[-1] if children and children[-1].type.endswith("body") else None


def container_nodes(parsed: Parsed, container: Definition | None) -> list[Node] | None:
    """The nodes directly in the container's body (the module's top level for None)."""
    root = parsed.tree.root_node
    if container is None:
        if parsed.offset:
            # The wrapper is the one declaration around the payload: a class, or Rust's impl.
            wrapper = next((c for c in root.named_children if c.type not in parsed.spec.comment_types), None)
            body = _wrapper_body(wrapper) if wrapper is not None else None
            return list(body.named_children) if body is not None else None
        return list(root.named_children)
    body = _body(parsed.tree, container)
    return list(body.named_children) if body is not None else None


def members(parsed: Parsed, container: Definition | None) -> list[Member] | None:
    """The container's members in order; None when its body cannot be found."""
    nodes = container_nodes(parsed, container)
    if nodes is None:
        return None
    spec = parsed.spec
    scope = () if container is None else (*container.scope, container.name)
    own = [d for d in parsed.definitions if d.container == scope]
    result: list[Member] = []
    taken: set[int] = set()
    for node in nodes:
        row = node.start_point[0] - parsed.offset
        if row in parsed.placeholders and node.start_point[0] == node.end_point[0]:
            result.append(Member("placeholder", row, row, node.start_byte, node.end_byte, text=parsed.placeholders[row]))
            continue
        if node.type in spec.comment_types or node.type in spec.prefix_types:
            continue  # a comment block belongs to the definition below it; decorators too
        definition = next((d for d in own if d.outer_start <= node.start_byte < d.end), None)
        if definition is not None:
            if id(definition) in taken:
                continue
            taken.add(id(definition))
            comment = comment_block_start(parsed.tree, parsed.data, definition.outer_start)
            start = comment if comment is not None else definition.outer_start
            result.append(
                Member("definition", parsed.row(start), parsed.row(definition.end), start, definition.end, definition)
            )
            continue
        text = (node.text or b"").decode("utf-8", "replace")
        kind = "import" if _is_import(spec, node) else "statement"
        key = field_key(node) if container is not None and spec.grammar != "python" else None
        if key is not None:
            kind = "field"  # an interface property or enum member: known by its name
        last = node.end_point[0] - parsed.offset
        result.append(Member(kind, row, last, node.start_byte, node.end_byte, text=squash(text), key=key or ""))
    return result


def _is_import(spec: LanguageSpec, node: Node) -> bool:
    if node.type in spec.import_types:
        return True
    # Kotlin gathers its imports in one `import_list`.
    children = node.named_children
    return bool(children) and all(c.type in spec.import_types or c.type in spec.comment_types for c in children)


def text_of(lines: list[str], member: Member) -> str:
    return "\n".join(lines[member.first_row : member.last_row + 1])


def has_placeholder(parsed: Parsed, member: Member) -> bool:
    return any(member.first_row <= row <= member.last_row for row in parsed.placeholders)

