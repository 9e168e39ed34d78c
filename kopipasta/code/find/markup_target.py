"""A target that names a CSS rule, an at-rule or an HTML element (issue 25, PROTOCOL.md §4).

A selector is not a dotted name (`.card > h2` holds a dot and spaces), so such
a target is read whole: its kind (`rule`, `media`, `at-rule`, `keyframes`,
`element`) or the file (`.css`) says it is one, and its name is spelled
canonically as the file's definitions are (syntax/markup_names.py). A rule
inside an at-rule is qualified as CSS nests it: `rule @media (max-width:
600px) { .btn }`. `#n` at the end picks the n-th of rules that share one
qualified name, as for any definition (an id selector never starts with a digit).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from kopipasta.errors import PayloadError
from kopipasta.startup.lazy_pattern import lazy_compile
from kopipasta.syntax.markup_names import at_rule_name, canonical_prelude, canonical_selector

# The kinds a markup target is written with, and how models spell them.
_KINDS = {
    "rule": "rule",
    "selector": "rule",
    "ruleset": "rule",
    "css rule": "rule",
    "style rule": "rule",
    "media": "media",
    "at-rule": "at-rule",
    "at rule": "at-rule",
    "keyframes": "keyframes",
    "element": "element",
    "id": "element",
}
_KIND = lazy_compile(r"^(?P<kind>css rule|style rule|at rule|[A-Za-z][A-Za-z\-]*)\s+(?P<rest>\S.*)$", flags=0)
_ORDINAL = lazy_compile(r"(?<=[^\s#])#(?P<n>\d+)$")
# `div#sidebar`: an element named by its tag and id is the element of that id.
_TAGGED_ID = lazy_compile(r"^[A-Za-z][\w\-]*(?=#)")
_MARKUP_SUFFIXES = (".css",)
_PAGE_SUFFIXES = (".html", ".htm")
_SELECTOR_STARTS = (".", "#", "[", ":", "*", "@")


@dataclass(frozen=True)
class MarkupTarget:
    kind: str | None
    parts: tuple[str, ...]  # the enclosing at-rules' and rules' names, outermost first, then its own
    ordinal: int | None


def markup_target(text: str, file: str) -> MarkupTarget | None:
    """The target read as a selector, or None when it is an ordinary `[kind] name`."""
    written = " ".join(text.strip().strip("`'\"").split())
    kind = None
    rest = written
    match = _KIND.match(written)
    if match is not None and match.group("kind").lower() in _KINDS:
        kind, rest = _KINDS[match.group("kind").lower()], match.group("rest")
    elif not (
        PurePosixPath(file).suffix.lower() in _MARKUP_SUFFIXES
        or written.startswith(("@media", "@keyframes"))
        # In a page, a name that starts as a selector does (`.btn`, `#main`): no script name does.
        or (PurePosixPath(file).suffix.lower() in _PAGE_SUFFIXES and written.startswith(_SELECTOR_STARTS))
    ):
        return None
    ordinal = None
    found = _ORDINAL.search(rest)
    if found is not None:
        ordinal, rest = int(found.group("n")), rest[: found.start()].rstrip()
    parts = _parts(rest, text, file)
    last = parts[-1]
    if last.startswith("@keyframes "):
        parts, kind = (*parts[:-1], last.removeprefix("@keyframes ").strip()), kind or "keyframes"
    elif kind == "media" and not last.startswith("@"):
        parts = (*parts[:-1], at_rule_name("media", last))
    elif kind == "element":
        parts = (*parts[:-1], _id_selector(last))
    elif kind is None and last.startswith("@"):
        kind = "media" if last.startswith("@media") else "at-rule"
    return MarkupTarget(kind, parts, ordinal)


def _parts(rest: str, text: str, file: str) -> tuple[str, ...]:
    """`@media (x) { .a { .b } }` → ('@media (x)', '.a', '.b'), each spelled canonically."""
    head, brace, inner = rest.partition("{")
    if not brace:
        return (_name(rest),)
    inner = inner.strip()
    if not inner.endswith("}") or not head.strip():
        raise PayloadError(
            f"Target '{text}' in {file} is not `[kind] selector`",
            "qualify a rule as CSS nests it, e.g. `rule @media (max-width: 600px) { .btn }`",
        )
    return (_name(head), *_parts(inner[:-1].strip(), text, file))


def _name(written: str) -> str:
    written = written.strip()
    if written.startswith("@"):
        keyword, _, prelude = written[1:].partition(" ")
        if keyword.lower() == "keyframes":
            return "@keyframes " + prelude.strip()
        return at_rule_name(keyword, prelude)
    return canonical_selector(written)


def _id_selector(written: str) -> str:
    """`#sidebar`, `sidebar` and `div#sidebar` name the element whose id is sidebar."""
    written = _TAGGED_ID.sub("", written)
    return written if written.startswith("#") else "#" + canonical_prelude(written)
