"""A `[kind] name` target → exactly one Definition, or an explicit failure.

PROTOCOL.md §4: names match from the inside out (`Inner.method` finds
`Outer.Inner.method`), an exact qualified name wins over deeper matches, and
`name#2` picks the second of candidates that share one qualified name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kopipasta.code.find.definitions import MARKUP_KINDS, Definition
from kopipasta.code.find.shown import shown_name
from kopipasta.errors import AmbiguousTarget, PatchError, PayloadError, TargetNotFound
from kopipasta.startup.lazy_pattern import lazy_compile
from kopipasta.syntax import markup_names

if TYPE_CHECKING:
    from kopipasta.code.find.document import Document

KINDS = (
    "function",
    "method",
    "class",
    "interface",
    "type",
    "enum",
    "struct",
    "union",
    "trait",
    "impl",
    "module",
    "variable",
    "component",
    # issue 8 (docs/decisions/code-languages.md, "Languages beyond Python and JS/TS")
    "record",
    "constructor",
    "object",
    "extension",
    "macro",
    # issue 25: CSS and HTML pages (markup_target.py)
    "rule",
    "media",
    "at-rule",
    "keyframes",
    "element",
)

# What models write for a kind, mapped to the protocol's word for it.
KIND_ALIASES = {
    "def": "function",
    "fn": "function",
    "func": "function",
    "async function": "function",
    "async def": "function",
    "arrow function": "function",
    "const": "variable",
    "let": "variable",
    "var": "variable",
    "constant": "variable",
    "field": "variable",
    "attribute": "variable",
    "property": "variable",
    "namespace": "module",
    "abstract class": "class",
    "type alias": "type",
    "protocol": "interface",
    "react component": "component",
    "fun": "function",
    "suspend fun": "function",
    "val": "variable",
    "static": "variable",
    "ctor": "constructor",
    "init": "constructor",
    "data class": "class",
    "case class": "class",
    "sealed class": "class",
    "enum class": "enum",
    "record class": "record",
    "mod": "module",
    "package": "module",
    "typealias": "type",
    "macro_rules": "macro",
    "macro_rules!": "macro",
    "companion object": "object",
    "actor": "class",
    "selector": "rule",
    "ruleset": "rule",
    "css rule": "rule",
    "style rule": "rule",
    "at rule": "at-rule",
    "id": "element",
}

_KIND_MODIFIERS = frozenset(
    {"public", "private", "protected", "internal", "static", "local", "export", "async", "abstract",
     "final", "virtual", "inline", "override", "pub", "instance", "class", "singleton"}
)
_NATIVE_QUALIFIER = lazy_compile(r"::|(?<=\w)[#:](?=[A-Za-z_])")
# `func (s *Server) ServeHTTP`: a Go method written with its receiver.
# `(*Server).ServeHTTP`, a method expression, means the same.
_GO_RECEIVER = lazy_compile(r"^\(\s*(?:[A-Za-z_]\w*\s+)?\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)(?:\s*\.\s*|\s+)(\S+)$")
# A parameter list written after the name: `cancel(String)`, `Delete(int id, CancellationToken ct)`.
_PARAMETER_LIST = lazy_compile(r"^(?P<head>.*?[\w>\]])\s*\((?P<parameters>[^()]*)\)$")
# Type arguments after a name: `Ring<T>::push`, `Repository<TEntity>.Find` (not an operator
# named by its symbols: C++'s `operator<`, Ruby's `<=>`, which follow no name character).
_TYPE_ARGUMENTS = lazy_compile(r"(?<=\w)(?<!operator)<[^<>]*>")

# Said after an overload ambiguity's own hint when no overload has the payload's parameters;
# merge carries it over into a fragment's hint.
NEW_OVERLOAD_HINT = "; to add it as a new overload, "

_TARGET = lazy_compile(r"^(?:(?P<kind>[A-Za-z][A-Za-z ]*?)\s+)?(?P<name>[^\s]+?)(?:#(?P<ordinal>\d+))?$")


@dataclass(frozen=True)
class Target:
    """A target as the reply names it: an optional kind, the dotted name, an optional `#n`."""

    kind: str | None
    parts: tuple[str, ...]  # the dotted name, split
    ordinal: int | None  # from `name#2`
    parameters: str | None = None  # a parameter list written after the name (`cancel(String)`): "String"
    markup: bool = False  # a selector, an at-rule or an id (markup_target.py): parts are never split on dots

    @property
    def name(self) -> str:
        if self.markup:
            return markup_names.nested(self.parts)
        return ".".join(self.parts)

    def __str__(self) -> str:
        text = f"{self.kind} {self.name}" if self.kind else self.name
        return f"{text}#{self.ordinal}" if self.ordinal else text


def parse_target(text: str, file: str) -> Target:
    """Read `[kind] name[#n]`, accepting the usual spellings of each kind."""
    from kopipasta.code.find.markup_target import markup_target

    markup = markup_target(text, file)
    if markup is not None:
        return Target(kind=markup.kind, parts=markup.parts, ordinal=markup.ordinal, markup=True)
    cleaned = _plain_name(text.strip().strip("`'\"").strip())
    parameters = None
    written = _PARAMETER_LIST.match(cleaned)
    if written is not None:
        cleaned, parameters = written.group("head"), " ".join(written.group("parameters").split()) or None
    match = _TARGET.match(cleaned)
    if not match:
        raise PayloadError(
            f"Target '{text}' in {file} is not `[kind] name`",
            "write it as e.g. `function TableBody` or `method Cart.total`",
        )
    kind = match.group("kind")
    if kind is not None:
        kind = " ".join(kind.lower().split())
        kind = KIND_ALIASES.get(kind, kind)
        if kind not in KINDS:
            # Modifiers written before the kind say nothing about it: `public static function`,
            # Lua's `local function`, C++'s `virtual method`.
            words = kind.split()
            while len(words) > 1 and words[0] in _KIND_MODIFIERS:
                words.pop(0)
            kind = KIND_ALIASES.get(" ".join(words), " ".join(words))
        if kind not in KINDS:
            raise PayloadError(
                f"Unknown kind '{match.group('kind')}' in target '{text}' for {file}",
                f"use one of: {', '.join(KINDS)}, or no kind at all",
            )
    name = match.group("name").removesuffix("()")
    # The languages' own qualifiers mean the same as a dot: C++/Ruby/PHP `Class::member`,
    # Ruby's `User#full_name` (an instance method; `name#2` stays an ordinal), Lua's `Item:toggle`.
    name = _NATIVE_QUALIFIER.sub(".", name)
    parts = tuple(p for p in name.split("."))
    if len(parts) > 1 and "self" in parts[:-1]:
        # Ruby's `def self.search` is targeted as `self.search` or `User.self.search`: `self` is
        # the enclosing class, which inside-out matching does not need (PHP `self::X` alike).
        parts = tuple(p for i, p in enumerate(parts) if p != "self" or i == len(parts) - 1)
    if not all(parts):
        raise PayloadError(f"Target '{text}' in {file} has an empty name part", "write it as e.g. `Cart.total`")
    ordinal = int(match.group("ordinal")) if match.group("ordinal") else None
    return Target(kind=kind, parts=parts, ordinal=ordinal, parameters=parameters)


def _plain_name(text: str) -> str:
    """`Parser::parse` and `func (s *Server) ServeHTTP` in the protocol's dotted form."""
    kind, _, rest = text.partition(" ")
    receiver = _GO_RECEIVER.match(rest.strip()) if kind in ("func", "method", "function") else None
    if receiver is None:
        receiver = _GO_RECEIVER.match(text)
        kind = ""
    if receiver is not None:
        text = f"{kind} {receiver.group(1)}.{receiver.group(2)}".strip()
    text = text.replace("::", ".")
    while "<" in text:  # nested type arguments go from the inside out
        plain = _TYPE_ARGUMENTS.sub("", text)
        if plain == text:
            break
        text = plain
    return text


def _module_parts(definitions: list[Definition]) -> set[tuple[str, ...]]:
    return {_qualified_parts(d) for d in definitions if d.kind == "module"}


def _relative_parts(definition: Definition, modules: set[tuple[str, ...]]) -> tuple[str, ...]:
    """The qualified name without the namespaces it stands in."""
    parts = _qualified_parts(definition)
    for length in range(len(parts) - 1, 0, -1):
        if parts[:length] in modules:
            return parts[length:]
    return parts


def _qualified_parts(definition: Definition) -> tuple[str, ...]:
    if definition.kind in MARKUP_KINDS:  # a selector's dots are its own
        return (*definition.scope, definition.name)
    # A TypeScript `namespace A.B` is one definition named "A.B": split it like the target.
    return tuple(".".join((*definition.scope, definition.name)).split("."))


def resolve(target: Target, definitions: list[Definition], file: str, data: bytes | None = None) -> Definition:
    """Exactly one definition for the target, or TargetNotFound / AmbiguousTarget.

    `data`, the file's bytes, lets the messages name a Ruby singleton method `User.find` (shown.py).
    """
    return _resolve(target, definitions, lambda: definitions, file, data)


def resolve_in(target: Target, document: Document, file: str) -> Definition:
    """`resolve` against the document's definitions, listing them all only when the answer needs it.

    The definitions the target's last name part can mean (`document.ending_in`)
    decide the answer; the full listing is asked only for a name that is not
    there ("did you mean"), or to read names relative to namespaces when
    several qualified names fit. The definition chosen, or the error and its
    text, are those `resolve` gives over the full listing.
    """
    return _resolve(target, document.ending_in(target.parts[-1]), lambda: document.definitions, file, document.data)


def _resolve(
    target: Target,
    candidates: list[Definition],
    everything: Callable[[], list[Definition]],
    file: str,
    data: bytes | None = None,
) -> Definition:
    """`resolve` over `candidates`: every definition whose last name part is the target's, in file order.

    `everything()` is the full listing, asked only where `resolve` looks beyond the candidates.
    """
    fitting = [d for d in candidates if target.kind is None or d.fits(target.kind)]
    named = [d for d in fitting if _qualified_parts(d)[-len(target.parts) :] == target.parts]
    if not named:
        definitions = everything()
        if target.parts[-1].startswith("$") and len(target.parts[-1]) > 1:
            # A PHP property is written with its sigil (`Post::$fillable`); it is named without.
            bare = Target(target.kind, (*target.parts[:-1], target.parts[-1][1:]), target.ordinal)
            every_fitting = [d for d in definitions if target.kind is None or d.fits(target.kind)]
            if any(_qualified_parts(d)[-len(bare.parts) :] == bare.parts for d in every_fitting):
                return resolve(bare, definitions, file, data)
        raise _not_found(target, definitions, file, data)
    # A kind written fits its own kind first: `class UserService` is the class, not the Scala
    # companion `object UserService` that also fits `class`.
    own_kind = [d for d in named if d.kind == target.kind]
    if own_kind and len({d.qualified_name for d in own_kind}) == len({d.qualified_name for d in named}):
        named = own_kind
    exact = [d for d in named if _qualified_parts(d) == target.parts]
    if exact:
        return _pick_ordinal(target, exact, file, data)
    if len({d.qualified_name for d in named}) == 1:
        # One qualified name: read relative to namespaces it is all of them or none, so the same pick.
        return _pick_ordinal(target, named, file, data)
    # Namespaces and modules around everything (C# `namespace Shop.Api`) need not be written.
    within = _module_parts(everything())
    exact = [d for d in named if _relative_parts(d, within) == target.parts]
    if exact and len({d.qualified_name for d in exact}) == 1:
        return _pick_ordinal(target, exact, file, data)
    raise _ambiguous(target, named, file, data)


def resolve_with_payload(
    target: Target, definitions: list[Definition], file: str, data: bytes, payload: str, *, overloads: bool = False
) -> tuple[Definition, str]:
    """`resolve`, but a name that several definitions share may be settled by the payload's shape.

    A property and its setter (or a TS getter and setter) share one qualified
    name; the payload's decorators or `get`/`set` keyword say which it restates
    (shape.py). Returns the definition and a note for the report ("" when the
    name alone sufficed). Candidates with different qualified names stay
    ambiguous: qualifying the name is the user's call, not the payload's.
    """
    return _with_payload(target, definitions, lambda: definitions, file, data, payload, overloads=overloads)


def resolve_with_payload_in(
    target: Target, document: Document, file: str, payload: str, *, overloads: bool = False
) -> tuple[Definition, str]:
    """`resolve_with_payload` against the document's definitions, as `resolve_in` asks them."""
    candidates = document.ending_in(target.parts[-1])
    return _with_payload(
        target, candidates, lambda: document.definitions, file, document.data, payload, overloads=overloads
    )


def _with_payload(
    target: Target,
    candidates: list[Definition],
    everything: Callable[[], list[Definition]],
    file: str,
    data: bytes,
    payload: str,
    *,
    overloads: bool,
) -> tuple[Definition, str]:
    try:
        return _resolve(target, candidates, everything, file, data), ""
    except AmbiguousTarget as error:
        fitting = [d for d in candidates if target.kind is None or d.fits(target.kind)]
        named = [d for d in fitting if _qualified_parts(d)[-len(target.parts) :] == target.parts]
        exact = [d for d in named if _qualified_parts(d) == target.parts]
        candidates = exact or named
        if len({d.qualified_name for d in candidates}) != 1:
            raise
        if target.parameters is not None and not _same_parameters(target, payload):
            # The target's own parameter list is compared with the payload's only (types alone,
            # names, defaults are written many ways): it must not pass for a pick it did not make.
            raise AmbiguousTarget(
                f"{error.message}; the target's parameter list ({target.parameters}) is not the payload's", error.hint
            ) from None
        # Only a shared name needs the payload's shape: not imported at start-up.
        from kopipasta.code.find.overloads import pick_by_parameters
        from kopipasta.code.find.shape import distinct_shapes, pick_by_shape

        picked = pick_by_shape(candidates, data, payload)
        if picked is None and overloads:  # the language has overloads: their parameters tell them apart
            picked = pick_by_parameters(candidates, data, payload)
        if picked is None:
            shapes = distinct_shapes(candidates, data)
            if shapes:
                raise AmbiguousTarget(
                    error.message, f"{error.hint}, or start the payload with the one it restates: {shapes}"
                ) from None
            if overloads:  # parameters that no overload has: a changed one, or a new one
                last = f"{candidates[0].qualified_name}#{len(candidates)}"
                raise AmbiguousTarget(error.message, f"{error.hint}{NEW_OVERLOAD_HINT}`INSERT_AFTER: {last}`") from None
            raise
        return picked


def _same_parameters(target: Target, payload: str) -> bool:
    """Whether the payload restates the parameter list the target was written with."""
    from kopipasta.code.find.overloads import parameters

    restated = parameters(payload, target.parts[-1])
    return restated is not None and restated == "".join((target.parameters or "").split())


def _pick_ordinal(target: Target, same_name: list[Definition], file: str, data: bytes | None = None) -> Definition:
    if target.ordinal is None:
        primary = [d for d in same_name if not d.secondary]
        if len(same_name) == 1 or len(primary) == 1:
            return same_name[0] if len(same_name) == 1 else primary[0]
        qualified = shown_name(same_name[0], file, data)
        kinds = list(dict.fromkeys(d.kind for d in same_name))
        if len(kinds) > 1:
            listed = ", ".join(f"#{i} {d.kind} at line {d.line}" for i, d in enumerate(same_name, 1))
            hint = " or ".join(f"`{kind} {qualified}`" for kind in kinds) + f", or pick one as '{qualified}#2'"
        else:
            listed = ", ".join(f"#{i} at line {d.line}" for i, d in enumerate(same_name, 1))
            hint = f"pick one as '{qualified}#2'"
        raise AmbiguousTarget(
            f"`{target.name}` is ambiguous in {file}: {len(same_name)} definitions named "
            f"'{qualified}' ({listed})",
            hint,
        )
    if not 1 <= target.ordinal <= len(same_name):
        qualified = shown_name(same_name[0], file, data)
        if len(same_name) == 1:
            raise TargetNotFound(
                f"`{target}` not found in {file}: there is 1 definition named '{qualified}'",
                f"write '{qualified}' without #{target.ordinal}",
            )
        raise TargetNotFound(
            f"`{target}` not found in {file}: there are {len(same_name)} "
            f"definitions named '{qualified}'",
            f"use #1 to #{len(same_name)}",
        )
    return same_name[target.ordinal - 1]


def _ambiguous(target: Target, candidates: list[Definition], file: str, data: bytes | None = None) -> AmbiguousTarget:
    listed = ", ".join(f"{d.kind} {shown_name(d, file, data)} (line {d.line})" for d in candidates)
    # Every distinct name, not only the first: the one meant is as often the second.
    names = " or ".join(f"'{name}'" for name in dict.fromkeys(shown_name(d, file, data) for d in candidates))
    return AmbiguousTarget(f"`{target.name}` is ambiguous in {file}: {listed}", f"qualify it as {names}")


def _not_found(target: Target, definitions: list[Definition], file: str, data: bytes | None = None) -> TargetNotFound:
    described = f"`{target.name}`"
    same_name = [d for d in definitions if _qualified_parts(d)[-len(target.parts) :] == target.parts]
    if same_name:
        # The name exists, the kind does not fit: say what it is.
        found = ", ".join(f"{d.kind} {shown_name(d, file, data)} (line {d.line})" for d in same_name)
        return TargetNotFound(
            f"{described} not found in {file} as {_article(target.kind or '')} {target.kind}: "
            f"the name is {found}",
            f"write `{same_name[0].kind} {shown_name(same_name[0], file, data)}`, or leave out the kind",
        )
    if target.markup or any(d.kind in MARKUP_KINDS for d in definitions):
        return _markup_not_found(target, definitions, file)
    # Names as the target writes them: `Inventory.erase` is compared with `Inventory.remove`,
    # not only with `shop.Inventory.remove` and `remove`.
    depth = len(target.parts)
    within = _module_parts(definitions)
    relative = {".".join(_relative_parts(d, within)) for d in definitions}
    names = sorted(
        {d.qualified_name for d in definitions}
        | {d.name for d in definitions}
        | relative
        | {".".join(_qualified_parts(d)[-depth:]) for d in definitions}
    )
    same_letters = [n for n in names if n.lower() == target.name.lower()]
    close = same_letters or _closest(target.name, names)
    # A suggestion must pick one definition when written back: an ambiguous one gives way to its qualified names.
    close = list(dict.fromkeys(s for name in close for s in _unambiguous(name, definitions)))[:4]
    # Shown as the language writes them, where a suggestion is a definition's full name (shown.py).
    full = {d.qualified_name: shown_name(d, file, data) for d in definitions}
    close = [full.get(name, name) for name in close]
    hint = "did you mean " + " or ".join(f"'{c}'" for c in close) + "?" if close else ""
    if not hint and not definitions:
        hint = "the file has no definitions to target"
    elif not hint:
        hint = "`kopipasta nodes " + file + "` lists what can be targeted"
    return TargetNotFound(f"{described} not found in {file}", hint)


def _markup_not_found(target: Target, definitions: list[Definition], file: str) -> TargetNotFound:
    """A selector, at-rule or id not in the file: the nearest rules, each as the name that picks it."""
    markup = [d for d in definitions if d.kind in MARKUP_KINDS]
    by_name: dict[str, set[str]] = {}
    for d in markup:
        by_name.setdefault(d.name, set()).add(d.qualified_name)
    names = sorted({d.qualified_name for d in markup} | set(by_name))
    close = [n for n in names if n.lower() == target.name.lower()] or _closest(target.name, names)
    # A bare selector that several at-rules hold is suggested by the qualified names that pick each.
    close = list(dict.fromkeys(q for n in close for q in sorted(by_name.get(n, {n}))))[:4]
    if close:
        hint = "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    elif not definitions:
        hint = "the file has no definitions to target"
    else:
        hint = "`kopipasta nodes " + file + "` lists what can be targeted"
    return TargetNotFound(f"`{target.name}` not found in {file}", hint)


def _unambiguous(name: str, definitions: list[Definition]) -> list[str]:
    """`name`, or when written back it would be ambiguous, the qualified names that pick each (issue 21).

    Definitions sharing one qualified name (overloads, a property and its
    setter) are left to the payload or `#n`, as the resolver leaves them.
    """
    parts = tuple(name.split("."))
    try:
        _resolve(Target(None, parts, None), definitions, lambda: definitions, "")
    except AmbiguousTarget:
        named = [d for d in definitions if _qualified_parts(d)[-len(parts) :] == parts]
        qualified = list(dict.fromkeys(d.qualified_name for d in named))
        return qualified if len(qualified) > 1 else [name]
    except PatchError:
        pass
    return [name]


def _article(word: str) -> str:
    return "an" if word[:1] in ("a", "e", "i", "o", "u") else "a"


def _closest(name: str, names: list[str]) -> list[str]:
    """The nearest existing names: the best match, and any about as near."""
    import difflib

    scored = []
    for candidate in names:
        ratio = difflib.SequenceMatcher(None, name, candidate).ratio()
        if ratio >= 0.6:
            scored.append((ratio, candidate))
    scored.sort(key=lambda item: (-item[0], item[1]))
    if not scored:
        return []
    best = scored[0][0]
    return [candidate for ratio, candidate in scored[:3] if ratio >= best - 0.05]
