"""Merging a payload's import statements into the file's (PROTOCOL.md §4b).

`imports.split_imports` takes the imports off a payload; this module plans
the edits that merge them into the file's own imports (`plan_imports`): an
import the file already has is dropped, a name from a module the file already
imports from joins that statement in its layout, and anything else becomes its
own line: in its isort section, or before the relative paths, when the file
keeps its imports so (`import_groups.py`), else after the file's last
top-level import. Python and JS/TS are read
here, the statement-per-line languages in `statement_imports.py`. Every edit
is a byte splice (`imports.TextEdit`), so the rest of the file, the existing
imports included, is kept byte for byte. Imported only when a payload brings
imports (issue 9: a plain TARGET_NODE payload does not pay for it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kopipasta.code.find.document import indentation, line_end, line_start
from kopipasta.code.imports.imports import ImportPlan, TextEdit, apply_edits
from kopipasta.startup.lazy_pattern import lazy_compile
from kopipasta.syntax.languages import LanguageSpec, parse

if TYPE_CHECKING:
    from pathlib import Path

    from tree_sitter import Node, Tree

# Python header lines that stay first even directly above code: shebang, encoding.
_PY_PRAGMA = lazy_compile(rb"^#!|^#.*coding[:=]")
# Module-level blocks whose imports count as the file's own (TYPE_CHECKING, try/except ImportError).
_PY_NESTING = ("if_statement", "else_clause", "elif_clause", "try_statement", "except_clause", "finally_clause", "block")


def _is_python(spec: LanguageSpec) -> bool:
    return spec.grammar == "python"


# --- reading imports -----------------------------------------------------------------


@dataclass(frozen=True)
class _Binding:
    """One name an import statement binds."""

    kind: str  # Python: "module" (import a), "name" (from m import a); JS: "default", "namespace", "named"
    name: str
    alias: str = ""
    type_only: bool = False  # TS: `import type …` or `{ type X }`


@dataclass
class _Import:
    """One import statement of the file or the payload, taken apart."""

    node: Node
    form: str  # "import", "from", "future" (Python), "js"
    module: str  # the module as written, whitespace taken out (JS: the source's contents)
    bindings: list[_Binding]
    type_only: bool = False
    wildcard: bool = False
    names: list[Node] = field(default_factory=list)  # the nodes new names go after
    close: Node | None = None  # `)` or `}` closing the names, when there is one

    @property
    def key(self) -> str:
        """The statement modulo whitespace, quotes and `;`."""
        text = (self.node.text or b"").decode("utf-8")
        return re.sub(r"\s+", "", text).rstrip(";").replace("'", '"')


def _text(node: Node | None) -> str:
    return "" if node is None or node.text is None else node.text.decode("utf-8")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _read(spec: LanguageSpec, node: Node) -> _Import:
    return _read_python(node) if _is_python(spec) else _read_js(node)


def _python_binding(kind: str, node: Node) -> _Binding:
    if node.type == "aliased_import":
        return _Binding(kind, _squash(_text(node.child_by_field_name("name"))), _text(node.child_by_field_name("alias")))
    return _Binding(kind, _squash(_text(node)))


def _read_python(node: Node) -> _Import:
    names = node.children_by_field_name("name")
    close = next((c for c in node.children if c.type == ")"), None)
    if node.type == "import_statement":
        return _Import(node, "import", "", [_python_binding("module", n) for n in names], names=names)
    if node.type == "future_import_statement":
        form, module = "future", "__future__"
    else:
        form, module = "from", _squash(_text(node.child_by_field_name("module_name")))
    wildcard = any(c.type == "wildcard_import" for c in node.children)
    bindings = [_Binding("name", "*")] if wildcard else [_python_binding("name", n) for n in names]
    return _Import(node, form, module, bindings, wildcard=wildcard, names=names, close=close)


def _read_js(node: Node) -> _Import:
    source = node.child_by_field_name("source")
    fragment = next((c for c in source.children if c.type == "string_fragment"), None) if source else None
    module = _text(fragment) if fragment is not None else _text(source).strip("'\"")
    type_only = any(c.type == "type" for c in node.children)
    clause = next((c for c in node.children if c.type == "import_clause"), None)
    imported = _Import(node, "js", module, [], type_only=type_only)
    if clause is None:
        if source is None:  # `import x = require("y")` and the like: compared as text only
            imported.wildcard = True
        return imported
    for part in clause.named_children:
        if part.type == "identifier":
            imported.bindings.append(_Binding("default", _text(part), type_only=type_only))
        elif part.type == "namespace_import":
            local = next((c for c in part.named_children if c.type == "identifier"), None)
            imported.bindings.append(_Binding("namespace", _text(local), type_only=type_only))
        elif part.type == "named_imports":
            specifiers = [c for c in part.named_children if c.type == "import_specifier"]
            imported.names = specifiers
            imported.close = next((c for c in part.children if c.type == "}"), None)
            for specifier in specifiers:
                inline_type = any(c.type == "type" for c in specifier.children)
                imported.bindings.append(
                    _Binding(
                        "named",
                        _text(specifier.child_by_field_name("name")),
                        _text(specifier.child_by_field_name("alias")),
                        type_only or inline_type,
                    )
                )
    return imported


def _module_imports(spec: LanguageSpec, root: Node) -> tuple[list[_Import], list[_Import]]:
    """The file's top-level imports, and every import at module level (inside `if`/`try` too)."""
    types = spec.import_types
    top = [_read(spec, c) for c in root.children if c.type in types and not c.has_error]
    nested: list[_Import] = []
    if _is_python(spec):
        stack = [c for c in root.children if c.type in _PY_NESTING]
        while stack:
            node = stack.pop()
            for child in node.children:
                if child.type in types and not child.has_error:
                    nested.append(_read(spec, child))
                elif child.type in _PY_NESTING:
                    stack.append(child)
    return top, top + nested


def _same_form(a: _Import, b: _Import) -> bool:
    return a.form == b.form and a.module == b.module and a.type_only == b.type_only


def _covers(have: _Binding, want: _Binding) -> bool:
    """Whether an existing binding gives what the payload's binding asks for."""
    same = (have.kind, have.name, have.alias) == (want.kind, want.name, want.alias)
    # A value import also brings the type; a type-only import does not bring the value.
    return same and (want.type_only or not have.type_only)


def _has(existing: list[_Import], wanted: _Import, binding: _Binding) -> bool:
    return any(
        imp.form == wanted.form and imp.module == wanted.module and any(_covers(b, binding) for b in imp.bindings)
        for imp in existing
    )


# --- merging -------------------------------------------------------------------------


def _add_names(data: bytes, target: _Import, names: list[str], newline: bytes) -> TextEdit:
    """New names after the last one of `target`, in its layout: one per line, trailing comma, or inline."""
    last = target.names[-1]
    trailing_comma = last.next_sibling is not None and last.next_sibling.type == ","
    encoded = [n.encode("utf-8") for n in names]
    if target.close is not None and target.close.start_point[0] > last.end_point[0]:
        indent = indentation(data, last.start_byte)
        end = line_end(data, last.end_byte)
        if trailing_comma:
            return TextEdit(end, end, b"".join(newline + indent + n + b"," for n in encoded))
        separator = b"," + newline + indent
        return TextEdit(last.end_byte, end, b"," + data[last.end_byte : end] + newline + indent + separator.join(encoded))
    return TextEdit(last.end_byte, last.end_byte, b"".join(b", " + n for n in encoded))


def _name_text(spec: LanguageSpec, binding: _Binding, target: _Import) -> str:
    text = f"{binding.name} as {binding.alias}" if binding.alias else binding.name
    if not _is_python(spec) and binding.type_only and not target.type_only:
        text = "type " + text
    return text


def _statement(spec: LanguageSpec, wanted: _Import, missing: list[_Binding]) -> str:
    """The payload's statement, narrowed to the bindings the file lacks."""
    if len(missing) == len(wanted.bindings) or wanted.wildcard:
        return _text(wanted.node)
    if _is_python(spec):
        names = ", ".join(_name_text(spec, b, wanted) for b in missing)
        return f"import {names}" if wanted.form == "import" else f"from {wanted.module} import {names}"
    parts = [b.name for b in missing if b.kind == "default"]
    parts += [f"* as {b.name}" for b in missing if b.kind == "namespace"]
    named = [_name_text(spec, b, wanted) for b in missing if b.kind == "named"]
    if named:
        parts.append("{ " + ", ".join(named) + " }")
    source = _text(wanted.node.child_by_field_name("source"))
    semicolon = ";" if _text(wanted.node).rstrip().endswith(";") else ""
    return f"import {'type ' if wanted.type_only else ''}{', '.join(parts)} from {source}{semicolon}"


def _js_style(statement: str, reference: _Import | None) -> str:
    """A new JS import in the file's style: its quotes and its `;` habit."""
    if reference is None:
        return statement
    ref_text = _text(reference.node).rstrip()
    ref_source = _text(reference.node.child_by_field_name("source"))
    quote = ref_source[:1] if ref_source[:1] in ("'", '"') else ""
    match = re.search(r"""(["'])([^"'\\\n]*)\1\s*;?\s*$""", statement)
    if quote and match and match.group(1) != quote:
        statement = statement[: match.start()] + quote + match.group(2) + quote + statement[match.end(2) + 1 :]
    statement = statement.rstrip()
    if ref_text.endswith(";") and not statement.endswith(";"):
        statement += ";"
    elif not ref_text.endswith(";") and statement.endswith(";"):
        statement = statement[:-1].rstrip()
    return statement


def _header_end(spec: LanguageSpec, data: bytes, root: Node) -> int | None:
    """Where a file without imports gets its first: after the shebang, encoding, docstring, directives.

    A comment directly above the first code (no blank line between) is that
    code's own comment, not part of the header.
    """
    header: list[Node] = []
    for child in root.children:
        if child.type in spec.comment_types or child.type == "hash_bang_line":
            header.append(child)
            continue
        # A Python docstring (Tree-sitter may leave it bare, without its statement), a JS directive.
        value = child.named_children[0] if child.type == "expression_statement" and child.named_child_count == 1 else child
        if value.type in spec.string_types and not (_is_python(spec) and any(
            h.type not in spec.comment_types for h in header
        )):
            header.append(child)
            continue
        next_row = child.start_point[0]
        while header and header[-1].type in spec.comment_types and header[-1].end_point[0] >= next_row - 1:
            if _is_python(spec) and _PY_PRAGMA.match(header[-1].text or b""):
                break
            next_row = header.pop().start_point[0]
        break
    return line_end(data, header[-1].end_byte) if header else None


@dataclass(frozen=True)
class _New:
    """A whole statement to add, with what says where it goes."""

    future: bool
    text: str
    form: str
    module: str


def _module_of(imported: _Import) -> str:
    """The module a statement names: for `import a.b, c` its first module."""
    if imported.form == "import" and imported.bindings:
        return imported.bindings[0].name
    return imported.module


def _grouped(
    spec: LanguageSpec, data: bytes, top: list[_Import], other: list[_New], newline: bytes, project: Path | None
) -> list[TextEdit] | None:
    """The new statements in the file's import groups, when it keeps them (import_groups.py)."""
    from kopipasta.code.imports import import_groups

    known = [import_groups.Statement(i.node.start_byte, i.node.end_byte, i.form, _module_of(i)) for i in top]
    wanted = [import_groups.NewStatement(n.form, n.module, n.text.encode("utf-8")) for n in other]
    if _is_python(spec):
        return import_groups.place_python(data, known, wanted, project, newline)
    return import_groups.place_script(data, known, wanted, newline, indentation(data, top[-1].node.start_byte))


def _insert_new(
    spec: LanguageSpec,
    data: bytes,
    root: Node,
    top: list[_Import],
    statements: list[_New],
    newline: bytes,
    project: Path | None = None,
) -> list[TextEdit]:
    """Edits adding whole statements: in the file's import groups or after its last top-level import, or at the top."""
    future = [s.text.encode("utf-8") for s in statements if s.future]
    other = [s.text.encode("utf-8") for s in statements if not s.future]
    edits: list[TextEdit] = []
    if top:
        futures = [imp for imp in top if imp.form == "future"]
        if future and futures:
            end = line_end(data, futures[-1].node.end_byte)
            edits.append(TextEdit(end, end, b"".join(newline + s for s in future)))
        elif future:
            start = line_start(data, top[0].node.start_byte)
            edits.append(TextEdit(start, start, newline.join(future) + newline + newline))
        grouped = _grouped(spec, data, top, [s for s in statements if not s.future], newline, project) if other else None
        if grouped is not None:
            return edits + grouped
        if other:
            end = line_end(data, top[-1].node.end_byte)
            # At the imports' own indentation: a Svelte component's script is indented.
            indent = indentation(data, top[-1].node.start_byte)
            edits.append(TextEdit(end, end, b"".join(newline + indent + s for s in other)))
        return edits
    block = newline.join(future)
    if future and other:
        block += newline + newline
    block += newline.join(other)
    anchor = _header_end(spec, data, root)
    if anchor is not None:
        # A blank line before the imports, and one after them unless the header already has one.
        following = data[anchor:].lstrip(b"\r")[1:].split(b"\n", 1)[0]
        after = newline if following.strip() else b""
        return [TextEdit(anchor, anchor, newline + newline + block + after)]
    first = next((c for c in root.children if c.type not in spec.comment_types), None)
    definition_next = _is_python(spec) and first is not None and first.type.endswith("definition")
    # At the top, after any blank lines: in a Vue/Svelte view those stand for the template.
    first_line = line_start(data, len(data) - len(data.lstrip()))
    return [TextEdit(first_line, first_line, block + newline + newline + (newline if definition_next else b""))]


def plan_imports(
    spec: LanguageSpec, data: bytes, tree: Tree, imports: list[str], newline: str, *, root: Path | None = None
) -> ImportPlan:
    """The edits that merge the payload's import statements into the file's (see the module doc).

    `root`, the project root, tells a first-party Python module from a third-party one.
    """
    from kopipasta.code.imports import statement_imports

    if statement_imports.handles(spec):  # Go, Rust, Java, C#, Kotlin, Scala, Swift
        return statement_imports.plan_imports(spec, data, tree, imports, newline)
    top, existing = _module_imports(spec, tree.root_node)
    eol = newline.encode("ascii")
    additions: dict[int, tuple[_Import, list[str]]] = {}  # top-level statement index → names to add
    statements: list[_New] = []
    added = present = 0
    reference = top[-1] if top else None
    for text in imports:
        payload_root = parse(spec, text.encode("utf-8")).root_node
        for node in payload_root.children:
            if node.type not in spec.import_types:
                continue
            wanted = _read(spec, node)
            if wanted.key in {imp.key for imp in existing}:
                present += 1
                continue
            if not wanted.bindings:
                # A side-effect import (`import "./a.css"`): present if that module is imported as a value.
                # One without a source (`import x = require("y")`) is compared as text only.
                if not wanted.wildcard and any(
                    imp.form == "js" and imp.module == wanted.module and not imp.type_only for imp in existing
                ):
                    present += 1
                    continue
                statements.append(_New(False, _js_style(_text(node), reference).replace("\n", newline), wanted.form,
                                       _module_of(wanted)))
                existing.append(wanted)
                added += 1
                continue
            missing = [b for b in wanted.bindings if not _has(existing, wanted, b)]
            if not missing:
                present += 1
                continue
            added += 1
            existing.append(_Import(wanted.node, wanted.form, wanted.module, missing, wanted.type_only))
            mergeable = [b for b in missing if b.kind in ("name", "named") and b.name != "*"]
            target = next(
                (i for i, imp in enumerate(top) if imp.names and not imp.wildcard and _same_form(imp, wanted)),
                None,
            )
            if target is not None and mergeable and wanted.form != "import":
                names = additions.setdefault(target, (top[target], []))[1]
                names.extend(_name_text(spec, b, top[target]) for b in mergeable)
                missing = [b for b in missing if b not in mergeable]
                if not missing:
                    continue
            statement = _statement(spec, wanted, missing)
            if not _is_python(spec):
                statement = _js_style(statement, reference)
            statements.append(_New(wanted.form == "future", statement.replace("\n", newline), wanted.form,
                                   _module_of(wanted)))
    edits = [_add_names(data, imp, names, eol) for imp, names in additions.values()]
    if statements:
        edits += _insert_new(spec, data, tree.root_node, top, statements, eol, root)
    return ImportPlan(tuple(sorted(edits, key=lambda e: (e.start, e.end))), added, present)


def merge_imports(
    spec: LanguageSpec, data: bytes, tree: Tree, imports: list[str], newline: str, *, root: Path | None = None
) -> bytes:
    """`data` with the payload's imports merged in; see `plan_imports`."""
    return apply_edits(data, list(plan_imports(spec, data, tree, imports, newline, root=root).edits))[0]
