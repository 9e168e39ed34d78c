"""Real stylesheets and pages, read at test time: a rule replaced by its selector changes that rule only.

The files are those installed with Python and the packages of this environment
(a package's static `.css`, pydoc's stylesheet, an HTML page of a tool's UI),
and the fixtures' own `.css` and `.html` files, so the test never runs on
nothing. For every rule kopipasta lists in a file (in an HTML page, in its
`<style>`), a block names it as `nodes` does and restates it with one
declaration changed; the file must then be exactly the original with that one
declaration changed (the rule's own lines may be re-indented to the file's unit,
as §4 says: a rule indented with spaces in a file indented with tabs). For every element with an id in a page, the block adds an
attribute to its start tag, with the same promise.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from tree_sitter import Node, Tree

from kopipasta.code.find.definitions import Definition, list_definitions
from kopipasta.code.read import embedded
from kopipasta.code.read.inventory import target_names
from kopipasta.engine import apply_reply
from kopipasta.model import Status
from kopipasta.syntax.languages import CSS, HTML, HTML_MARKUP, parse

ROOT = Path(__file__).resolve().parent.parent
_MOST_PER_FILE = 60  # rules of one file tried, spread over it: a big stylesheet stays quick
_MOST_FILES = 40


def _real_files() -> list[Path]:
    found: set[Path] = set()
    places = {Path(sysconfig.get_paths()[key]) for key in ("purelib", "platlib", "stdlib")}
    for place in sorted(places):
        if place.is_dir():
            found.update(p for suffix in ("*.css", "*.html") for p in place.rglob(suffix) if p.is_file())
    real = sorted(found)[:_MOST_FILES]
    fixtures = sorted(p for suffix in ("*.css", "*.html") for p in (ROOT / "fixtures").glob(f"*/before/**/{suffix}"))
    return real + fixtures


FILES = _real_files()


def _readable(path: Path) -> bytes | None:
    data = path.read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return data


def _spread(items: list[tuple[str, Definition]]) -> list[tuple[str, Definition]]:
    if len(items) <= _MOST_PER_FILE:
        return items
    step = len(items) / _MOST_PER_FILE
    return [items[int(i * step)] for i in range(_MOST_PER_FILE)]


def _rules(path: Path, data: bytes) -> list[tuple[str, Definition]]:
    """Each rule as `nodes` names it, with its definition (offsets in the file)."""
    if path.suffix == ".css":
        tree = parse(CSS, data)
    else:
        view = embedded.code_view(HTML, data, style=True)
        if view is None:
            return []
        tree = parse(view.spec, view.data)
    definitions = list_definitions(CSS, tree)
    names = target_names(definitions)
    # A sheet the grammar cannot read all of (`! important` with a space, an unquoted `url(?…)`):
    # its rules that parse are tried, the check before write refuses only new errors.
    return _spread([
        (n, d) for n, d in zip(names, definitions, strict=True)
        if d.kind == "rule" and not _node(tree, d).has_error
    ])


def _node(tree: Tree, definition: Definition) -> Node:
    node = tree.root_node.descendant_for_byte_range(definition.start, definition.end)
    assert node is not None
    return node


def _declaration_span(data: bytes, rule: Definition) -> tuple[int, int] | None:
    """The first property name of the rule's own block (not a nested rule's)."""
    text = data[rule.start : rule.end]
    brace = text.find(b"{")
    colon = text.find(b":", brace)
    if brace < 0 or colon < 0:
        return None
    name = text[brace + 1 : colon]
    stripped = name.strip()
    if not stripped or any(c in stripped for c in b"{};/\"'") or b"\n" in stripped:
        return None  # an empty rule, a nested rule or a comment first: nothing simple to change
    start = rule.start + brace + 1 + (len(name) - len(name.lstrip()))
    return start, start + len(stripped)


def _assert_only(changed: bytes, after: bytes, start: int, tail: int, where: str) -> None:
    """`after` is `changed`: every byte outside the definition exactly, and inside it every line but
    for its indentation, which PROTOCOL.md §4 converts to the file's unit when the definition
    was written in another (a rule indented with spaces in a file indented with tabs)."""
    assert after[:start] == changed[:start], where
    assert after[len(after) - tail :] == changed[len(changed) - tail :], where
    inside, expected = after[start : len(after) - tail], changed[start : len(changed) - tail]
    if inside != expected:
        assert [line.lstrip() for line in inside.split(b"\n")] == [line.lstrip() for line in expected.split(b"\n")], where


def _first_line_indent(data: bytes, offset: int) -> bytes:
    return data[data.rfind(b"\n", 0, offset) + 1 : offset]


def _apply(tmp_path: Path, relative: str, original: bytes, target: str, payload: str, comment: tuple[str, str]) -> Status:
    file = tmp_path / relative
    file.write_bytes(original)
    fence = "`" * 4
    opener, closer = comment
    reply = f"{fence}\n{opener} FILE: {relative} {closer}\n{opener} TARGET_NODE: {target} {closer}\n{payload}\n{fence}\n"
    (outcome,) = apply_reply(reply, tmp_path).outcomes
    assert "Internal error" not in outcome.message, outcome.message
    return outcome.status


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(p.parents[2])) for p in FILES])
def test_a_rule_replaced_by_its_selector_changes_that_rule_only(tmp_path: Path, path: Path) -> None:
    original = _readable(path)
    if original is None:
        pytest.skip("not UTF-8")
    relative = "page" + path.suffix
    tried = 0
    for name, rule in _rules(path, original):
        span = _declaration_span(original, rule)
        if span is None:
            continue
        changed = original[: span[0]] + b"--kopipasta-check" + original[span[1] :]
        indent = _first_line_indent(original, rule.start)
        if indent.strip():
            continue  # the rule shares its first line with something else: no block restates it alone
        payload = (indent + changed[rule.start : rule.end + len(changed) - len(original)]).decode("utf-8")
        status = _apply(tmp_path, relative, original, f"rule {name}", payload, ("/*", "*/"))
        assert status is Status.APPLIED, f"rule {name} in {path}"
        _assert_only(changed, (tmp_path / relative).read_bytes(), rule.start, len(original) - rule.end, f"rule {name} in {path}")
        tried += 1
    if path.suffix == ".html":
        tried += _elements(tmp_path, path, original, relative)
    if not tried:
        pytest.skip("no rule with a declaration to change")


def _elements(tmp_path: Path, path: Path, original: bytes, relative: str) -> int:
    """Each element with an id gains an attribute in its start tag, by `element #id`."""
    tree = parse(HTML_MARKUP, original)
    definitions = list_definitions(HTML_MARKUP, tree)
    tried = 0
    for name, element in _spread(list(zip(target_names(definitions), definitions, strict=True))):
        tag_end = element.start + 1
        while tag_end < element.end and (chr(original[tag_end]).isalnum() or original[tag_end] in b"-"):
            tag_end += 1
        changed = original[:tag_end] + b' data-kopipasta="1"' + original[tag_end:]
        indent = _first_line_indent(original, element.start)
        if indent.strip():
            continue
        payload = (indent + changed[element.start : element.end + len(changed) - len(original)]).decode("utf-8")
        status = _apply(tmp_path, relative, original, f"element {name}", payload, ("<!--", "-->"))
        assert status is Status.APPLIED, f"element {name} in {path}"
        where = f"element {name} in {path}"
        _assert_only(changed, (tmp_path / relative).read_bytes(), element.start, len(original) - element.end, where)
        tried += 1
    return tried


def test_the_real_files_hold_rules() -> None:
    assert any(p.suffix == ".css" for p in FILES) and any(p.suffix == ".html" for p in FILES)
