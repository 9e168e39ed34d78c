"""Code embedded in a host file: the `<script>` of Vue and Svelte components and of HTML pages,
and an HTML page's `<style>` (issue 25).

A host language (`LanguageSpec.embedding`) names the elements that hold code
and the `lang="…"` values that pick its grammar; a page's `<style>` elements
are a second view, a CSS one, which a target naming a rule reaches
(`view_for`). Every code operation runs,
unchanged, on a *view* of the file: the host's bytes up to the end of its last
code element, with every byte outside the code elements turned into a space
(line breaks kept). Offsets, line and column numbers in the view are the
file's own, so the resolver, the splice, the re-indentation and the syntax
check (which reparses the view: the script part) work as for any code file,
and their messages name the file's real lines.

The view's edit is mapped back only when it lies inside one code element;
every byte of the template and the style is the file's own. The host is then
reparsed: a payload holding `</script>` would close the element early, and is
refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from kopipasta.errors import PatchError, PayloadError, SyntaxCheckError, TargetNotFound
from kopipasta.syntax.languages import (
    HTML,
    HTML_MARKUP,
    Embedding,
    LanguageSpec,
    language_for_grammar,
    nodes_of_types,
    parse,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from kopipasta.code.find.definitions import Definition
    from kopipasta.disk.workspace import Source

_NOT_LINE_BREAK = re.compile(rb"[^\r\n]")
_LANG = re.compile(r"""\blang\s*=\s*["']?([A-Za-z]+)""")
_TYPE = re.compile(r"""\stype\s*=\s*["']?([^"'\s>]*)""")
_SCRIPT_TYPES = frozenset({"", "module", "text/javascript", "application/javascript", "text/babel", "text/jsx"})
_STYLE_TYPES = frozenset({"", "text/css"})


@dataclass(frozen=True)
class Region:
    """The code inside one host element: bytes [start, end) of the file."""

    start: int
    end: int
    grammar: str


@dataclass(frozen=True)
class CodeView:
    spec: LanguageSpec  # the code's language
    data: bytes  # the file up to the last region's end, blanked outside the regions
    regions: tuple[Region, ...]


def regions(host: LanguageSpec, data: bytes, *, style: bool = False) -> list[Region]:
    """The code elements of the file (its `<style>` elements when `style`), in file order."""
    assert host.embedding is not None
    embedding = host.embedding
    found: list[Region] = []
    types = embedding.style_types if style else embedding.element_types
    if not types:
        return found
    for element in nodes_of_types(host, parse(host, data).root_node, types):
        start_tag = next((c for c in element.children if c.type == "start_tag"), None)
        end_tag = next((c for c in element.children if c.type == "end_tag"), None)
        if start_tag is None or end_tag is None:
            continue  # an unclosed element: nothing we could splice back safely
        if not _holds_code(start_tag, _STYLE_TYPES if style else _SCRIPT_TYPES):
            continue  # `<script type="application/json">`, a template: no code of ours, left as it is
        grammar = "css" if style else _grammar(embedding, start_tag)
        found.append(Region(start_tag.end_byte, end_tag.start_byte, grammar))
    return found


def _holds_code(start_tag: Node, types: frozenset[str]) -> bool:
    """Whether the element's `type` (if any) says it holds our code (a page's `<script type="module">`)."""
    match = _TYPE.search((start_tag.text or b"").decode("utf-8", "replace"))
    return match is None or match.group(1).lower() in types


def _grammar(embedding: Embedding, start_tag: Node) -> str:
    """The grammar the element's `lang` names (`<script setup lang="ts">`), else the default."""
    match = _LANG.search((start_tag.text or b"").decode("utf-8", "replace"))
    if match is None:
        return embedding.default_grammar
    return dict(embedding.lang_grammars).get(match.group(1).lower(), embedding.default_grammar)


def code_view(host: LanguageSpec, data: bytes, *, style: bool = False) -> CodeView | None:
    """The file as its code's language sees it (CSS: its `<style>`), or None when it holds no such element."""
    found = regions(host, data, style=style)
    if not found:
        return None
    # One parse for all elements (Vue's `<script>` beside `<script setup>`): TypeScript if any is.
    grammars = [r.grammar for r in found]
    grammar = next((g for g in ("tsx", "typescript") if g in grammars), grammars[0])
    code_spec = language_for_grammar(grammar)
    assert code_spec is not None, f"no language row for the embedded grammar {grammar}"
    spec = replace(code_spec, extra_queries=host.embedding.extra_queries) if host.embedding and not style else code_spec
    view = bytearray()
    cursor = 0
    for region in found:
        view += _NOT_LINE_BREAK.sub(b" ", data[cursor : region.start])
        view += data[region.start : region.end]
        cursor = region.end
    return CodeView(spec, bytes(view), tuple(found))


def definitions(host: LanguageSpec, data: bytes) -> list[Definition]:
    """The definitions in the file's code elements (an HTML page's rules and ids too), at their offsets in the file."""
    from kopipasta.code.find.definitions import list_definitions

    found: list[Definition] = []
    for view in (code_view(host, data), code_view(host, data, style=True)):
        if view is not None:
            found += list_definitions(view.spec, parse(view.spec, view.data))
    markup = markup_spec(host)
    if markup is not None:
        found += list_definitions(markup, parse(markup, data))
    return sorted(found, key=lambda d: (d.start, -d.end))


def markup_spec(host: LanguageSpec) -> LanguageSpec | None:
    """The spec under which a page's elements with an `id` are definitions; None for Vue and Svelte."""
    return HTML_MARKUP if host == HTML else None


def check_views(host: LanguageSpec, path: str, old_data: bytes, new_data: bytes) -> None:
    """The page's `<script>` and `<style>` may not gain syntax errors when its markup changes."""
    from kopipasta.syntax.check import check_syntax

    check_scripts(host, path, old_data, new_data)
    new_view = code_view(host, new_data, style=True)
    if new_view is None:
        return
    old_view = code_view(host, old_data, style=True)
    old = old_view.data if old_view is not None else b""
    check_syntax(new_view.spec, path, "the page's <style>", old, parse(new_view.spec, old), new_view.data)


def check_scripts(host: LanguageSpec, path: str, old_data: bytes, new_data: bytes) -> None:
    """A whole component written anew: its script may not gain syntax errors either."""
    from kopipasta.syntax.check import check_syntax

    new_view = code_view(host, new_data)
    if new_view is None:
        return
    old_view = code_view(host, old_data)
    old = old_view.data if old_view is not None and old_view.spec == new_view.spec else b""
    check_syntax(new_view.spec, path, "the whole file", old, parse(new_view.spec, old), new_view.data)


def apply_in_view(
    host: LanguageSpec,
    source: Source,
    label: str,
    run: Callable[[Source, LanguageSpec], tuple[bytes, str]],
    *,
    style: bool = False,
) -> tuple[bytes, str]:
    """Run a code operation on the file's view (its `<style>` when `style`); the new file data and the note."""
    data = source.data
    view = code_view(host, data, style=style)
    tag = "<style>" if style else "<script>"
    if style and host.embedding is not None and not host.embedding.style_types:
        raise TargetNotFound(
            f"{label} in {source.path}: the <style> of a {host.name} file holds no targets (only an HTML page's does)",
            "send the whole file instead (FILE and no target)",
        )
    if view is None:
        raise TargetNotFound(
            f"{label} in {source.path}: the {host.name} file has no {tag} element to patch",
            "send the whole file instead (FILE and no target)",
        )
    new_view, note = run(source.with_data(view.data), view.spec)
    if new_view == view.data:
        return data, note
    start, old_end, new_end = _changed_window(view.data, new_view)
    region = next((r for r in view.regions if r.start <= start and old_end <= r.end), None)
    if region is None:
        raise PatchError(
            f"{label} in {source.path}: the change would reach outside the {tag} element",
            "send the whole file instead (FILE and no target)",
        )
    new_data = data[:start] + new_view[start:new_end] + data[old_end:]
    _check_elements(host, source.path, label, data, view.regions, new_data, region, new_end - old_end, style=style)
    return new_data, note


def _changed_window(old: bytes, new: bytes) -> tuple[int, int, int]:
    """The one window that differs: old[start:old_end] became new[start:new_end]."""
    from kopipasta.startup.shared_ends import common_prefix, common_suffix

    start = common_prefix(old, new)
    suffix = min(common_suffix(old, new), min(len(old), len(new)) - start)
    return start, len(old) - suffix, len(new) - suffix


def _check_elements(
    host: LanguageSpec,
    path: str,
    label: str,
    old_data: bytes,
    old_regions: tuple[Region, ...],
    new_data: bytes,
    edited: Region,
    delta: int,
    *,
    style: bool = False,
) -> None:
    """The host still parses as before, with the same code elements where they belong."""
    expected = [
        (r.start, r.end + delta) if r == edited else ((r.start + delta, r.end + delta) if r.start > edited.start else (r.start, r.end))
        for r in old_regions
    ]
    found = [(r.start, r.end) for r in regions(host, new_data, style=style)]
    old_errors = parse(host, old_data).root_node.has_error
    if found != expected or (parse(host, new_data).root_node.has_error and not old_errors):
        tag = "style" if style else "script"
        raise SyntaxCheckError(
            f"Patch for {label} would break the {host.name} structure of {path}: "
            f"its <{tag}> element would no longer end where it did",
            f"a payload may not hold `</{tag}>` or change the element's tags; nothing was written",
        )


def is_component(payload: str) -> bool:
    """Whether a file block for a component is a component (`<template>`, `<script>` …), not bare script code."""
    first = next((line.strip() for line in payload.split("\n") if line.strip()), "")
    return first.startswith("<")


def _top_elements(host: LanguageSpec, data: bytes) -> list[str]:
    """The tag names of the file's top-level elements, in order (`template`, `script`, `style`)."""
    names: list[str] = []
    for child in parse(host, data).root_node.children:
        start_tag = next((c for c in child.children if c.type == "start_tag"), None)
        tag = next((c for c in start_tag.children if c.type == "tag_name"), None) if start_tag is not None else None
        if tag is not None:
            names.append((tag.text or b"").decode("utf-8", "replace").lower())
    return names


def check_whole_component(host: LanguageSpec, path: str, old_data: bytes, payload: str) -> None:
    """A component written over an existing one must be all of it: no placeholder, no element left out.

    A fragment of a component (its `<script>` alone, `<!-- ... -->` for the
    template) is refused rather than written over the file: merging host
    elements is not supported, and writing it would delete the rest.
    """
    from kopipasta.code.read.wholefile import iter_placeholders

    own = {line.strip() for line in old_data.decode("utf-8", "replace").splitlines()}
    found = next(((n, t) for n, t in iter_placeholders(payload, python=False) if t not in own), None)
    if found is not None:
        raise PayloadError(
            f"File block for {path} elides code at the payload's line {found[0]} ({found[1]}): "
            "writing it would delete what it leaves out",
            "send the complete component, or TARGET_NODE blocks for the script's definitions that change",
        )
    sent = _top_elements(host, payload.encode("utf-8"))
    missing = [name for name in dict.fromkeys(_top_elements(host, old_data)) if name not in sent]
    if missing:
        raise PayloadError(
            f"File block for {path} looks like part of the component, not all of it "
            f"(it has no <{'>, <'.join(missing)}>): writing it would delete the rest",
            "send the complete component, or TARGET_NODE blocks for the script's definitions that change",
        )
