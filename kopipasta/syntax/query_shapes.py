"""Query patterns whose structure below the root is matched in Python (issue 9: query compilation).

Compiling a Tree-sitter query analyses every pattern step that has children
against the grammar's parse table (`ts_query__analyze_patterns`: from every
parse state where the parent can start, it walks each path through the
parent's rule, hidden rules and supertypes included, to learn which steps are
definite). In the big grammars that walk is dear: in C++ one
`(function_definition declarator: (function_declarator …))` costs ~5-15 ms, the
whole definitions query ~100 ms; TypeScript's `public_field_definition`
patterns ~5 of its ~10 ms. A pattern of one node without children is never
analysed (~0 ms). Tree-sitter has no switch for the analysis.

So a pattern marked `(#structure-in-python!)` in a query file is compiled as
its root node alone, `(root_type) @kopipasta.root`, at its own index, and each
match of it is expanded here into the matches the whole pattern has at that
root: the same captures, one match per way the pattern fits (as Tree-sitter
gives them). The query file stays the one statement of what is matched; the
native compile of the same text is what `tests/test_query_shapes.py` compares
every listing with.

The subset matched here is the one a marked pattern may use (anything else is
refused when the query is compiled): named nodes `(type …)`, the named
wildcard `(_ …)` (never an ERROR node, as in Tree-sitter), anonymous nodes `"text"`, alternations `[…]`, fields
`name: …`, captures `@c`, children in order (each child step takes a later
child than the one before, as Tree-sitter's steps do). No anchors, quantifiers,
negated fields or predicates: patterns needing them stay native.

Execution: the root-only pattern matches every node of the root's type and
the structure is then checked here, a few child walks per candidate. Mark only
patterns whose roots are definitions or close to them (a class body, a
function definition), not ones rooted at nodes a file has thousands of.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from tree_sitter import Node

MARKER = "structure-in-python!"
ROOT_CAPTURE = "kopipasta.root"

Captures = list[tuple[str, "Node"]]  # (capture name, node) in the order the pattern's steps take them

# One node of a pattern, a plain tuple (this module's plumbing: built once per query, read on
# every candidate, and a dataclass would cost more to define at start-up than all its uses):
#   kind          the node type; None for `(_)`; "" for an alternation
#   named         `(type)` or `(_)`: a named node; `"text"`: an anonymous one
#   field         the field the node must stand in, within its parent (None: any)
#   captures      the capture names on the node
#   children      the child steps, in order
#   alternatives  an alternation's steps
#   kinds         the node types the step can match (None: a wildcard among them)
Step = tuple[
    "str | None", bool, "str | None", tuple[str, ...], tuple["Step", ...], tuple["Step", ...], "frozenset[str] | None"
]
# A Step's places, by name (Final, so that a type checker knows which item each one reads).
KIND: Final = 0
NAMED: Final = 1
FIELD: Final = 2
KINDS: Final = 6


def _step(
    kind: str | None,
    named: bool,
    field: str | None,
    captures: tuple[str, ...],
    children: tuple[Step, ...] = (),
    alternatives: tuple[Step, ...] = (),
) -> Step:
    kinds: frozenset[str] | None
    if not alternatives:
        kinds = None if kind is None else frozenset((kind,))
    elif any(a[KINDS] is None for a in alternatives):
        kinds = None
    else:
        kinds = frozenset(k for a in alternatives for k in a[KINDS] or ())
    return (kind, named, field, captures, children, alternatives, kinds)


# Where a query's patterns begin and end: its brackets, strings and comments skipped (a string
# or a comment may hold a bracket). All `split_patterns` needs, and cheaper than _TOKEN.
_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|;[^\n]*|[()\[\]]', re.DOTALL)

# The tokens of a marked pattern, each named by its group (`lastgroup`; None for space and comments).
_TOKEN = re.compile(
    r"""\s+|;[^\n]*
    |(?P<open>[(\[])|(?P<close>[)\]])
    |"(?P<string>(?:[^"\\]|\\.)*)"
    |@(?P<capture>[\w.\-]+)
    |(?P<field>[A-Za-z_][\w]*):
    |\#(?P<predicate>[\w\-?!]+)
    |(?P<word>[A-Za-z_][\w.\-]*)
    |(?P<other>.)""",
    re.VERBOSE | re.DOTALL,
)


class ShapeError(ValueError):
    """A marked pattern uses syntax the Python matcher does not take."""


@functools.cache
def compiled_patterns(text: str) -> tuple[tuple[str, ...], dict[int, Step]]:
    """The query's patterns as they are compiled (each marked one as its root alone), and the
    steps of the marked ones by pattern index. Cached: TypeScript and TSX share one text."""
    compiled: list[str] = []
    steps: dict[int, Step] = {}
    for index, pattern in enumerate(split_patterns(text)):
        # The marker's text first: only a pattern holding it needs tokenizing.
        tokens = _tokens(pattern) if MARKER in pattern else None
        if tokens is not None and _MARKER_TOKEN in tokens:
            steps[index], root_only = _shape(tokens, pattern)
            compiled.append(root_only)
        else:
            compiled.append(pattern)
    return tuple(compiled), steps


def split_patterns(text: str) -> list[str]:
    """The query's top-level patterns, each with the captures that follow it, comments kept."""
    patterns: list[str] = []
    depth = 0
    start: int | None = None
    for match in _BRACKETS.finditer(text):
        bracket = match.group()
        if bracket == "(" or bracket == "[":
            if depth == 0:
                if start is not None:
                    patterns.append(text[start : match.start()])
                start = match.start()
            depth += 1
        elif bracket == ")" or bracket == "]":
            depth -= 1
    if start is not None:
        patterns.append(text[start:])
    return patterns


_MARKER_TOKEN = ("predicate", MARKER)


def _tokens(pattern: str) -> list[tuple[str, str]]:
    """(group name, text) of each token, space and comments left out."""
    return [(m.lastgroup, m.group(m.lastgroup)) for m in _TOKEN.finditer(pattern) if m.lastgroup is not None]


def is_marked(pattern: str) -> bool:
    """The pattern holds the marker as a predicate (not in a comment or a string)."""
    return _MARKER_TOKEN in _tokens(pattern)


def shape_of(pattern: str) -> tuple[Step, str]:
    """The marked pattern's root step, and the root-only pattern to compile in its place."""
    return _shape(_tokens(pattern), pattern)


def _shape(tokens: list[tuple[str, str]], pattern: str) -> tuple[Step, str]:
    parser = _Parser(tokens)
    root = parser.step(field=None)
    if parser.position != len(tokens):
        raise ShapeError(f"more than one pattern in a marked pattern: {pattern.strip()[:80]}")
    kind, named = root[KIND], root[NAMED]
    if kind is None or kind == "" or not named:
        raise ShapeError(f"a marked pattern's root must be a named node type: {pattern.strip()[:80]}")
    return root, f"({kind}) @{ROOT_CAPTURE}\n"


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.position = 0

    def _next(self) -> tuple[str, str]:
        if self.position >= len(self.tokens):
            raise ShapeError("a marked pattern ends early")
        token = self.tokens[self.position]
        self.position += 1
        return token

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def step(self, field: str | None) -> Step:
        kind, value = self._next()
        if kind == "string":
            step = _step(value, False, field, ())
        elif kind == "open" and value == "[":
            alternatives: list[Step] = []
            while self._peek() != ("close", "]"):
                alternatives.append(self.step(field))
            self._next()
            step = _step("", True, field, (), alternatives=tuple(alternatives))
        elif kind == "open" and value == "(":
            type_kind, type_name = self._next()
            if type_kind != "word":
                raise ShapeError(f"not a node type: {type_name!r}")
            children: list[Step] = []
            while self._peek() != ("close", ")"):
                token = self._peek()
                if token is not None and token[0] == "open" and self._is_predicate():
                    self._predicate()
                    continue
                child_field = None
                if token is not None and token[0] == "field":
                    child_field = self._next()[1]
                children.append(self.step(child_field))
            self._next()
            step = _step(None if type_name == "_" else type_name, True, field, (), tuple(children))
        else:
            raise ShapeError(f"not taken in a marked pattern: {value!r}")
        captures: list[str] = []
        while (token := self._peek()) is not None and token[0] == "capture":
            captures.append(self._next()[1])
        return _with_captures(step, tuple(captures)) if captures else step

    def _is_predicate(self) -> bool:
        following = self.tokens[self.position + 1] if self.position + 1 < len(self.tokens) else None
        return following is not None and following[0] == "predicate"

    def _predicate(self) -> None:
        self._next()
        name = self._next()[1]
        if name != MARKER or self._next() != ("close", ")"):
            raise ShapeError(f"a marked pattern takes no predicate but the marker: #{name}")


def _with_captures(step: Step, captures: tuple[str, ...]) -> Step:
    """The step capturing `captures` too; on an alternation, each alternative captures them."""
    kind, named, field, own, children, alternatives, _ = step
    if alternatives:
        return _step(kind, named, field, own, children, tuple(_with_captures(a, captures) for a in alternatives))
    return _step(kind, named, field, own + captures, children)


class Matcher:
    """Matches marked patterns under one query run; each node's children are listed once."""

    def __init__(self) -> None:
        self._children: dict[int, list[_Child]] = {}

    def matches(self, root: Step, node: Node) -> list[Captures]:
        """Every way the pattern fits at `node`, each as its captures in step order."""
        return self._node(root, node)

    def _node(self, step: Step, node: Node) -> list[Captures]:
        """The ways `step` fits `node` (its field already checked by the caller)."""
        kind, named, _, captures, children, alternatives, _ = step
        if alternatives:
            found: list[Captures] = []
            node_type = node.type
            for alternative in alternatives:
                kinds = alternative[KINDS]
                if kinds is None or node_type in kinds:
                    found += self._node(alternative, node)
            return found
        if kind is None:
            if not node.is_named or node.is_error:  # Tree-sitter's `(_)` passes over ERROR nodes
                return []
        elif node.type != kind or node.is_named != named:
            return []
        own = [(capture, node) for capture in captures]
        if not children:
            return [own]
        if len(children) == 1 and (field := children[0][FIELD]) is not None:
            # One child step in a field (`name: (identifier)`, most marked patterns): only the
            # children in that field can take it, and with no sibling step, order is moot.
            only = children[0]
            kinds = only[KINDS]
            found = []
            for child in node.children_by_field_name(field):
                if kinds is None or child.type in kinds:
                    found += [own + rest for rest in self._node(only, child)]
            return found
        return [own + rest for rest in self._sequence(children, self._child_list(node), 0)]

    def _sequence(self, steps: tuple[Step, ...], children: list[_Child], start: int) -> list[Captures]:
        """The ways `steps` fit children[start:], each step on a later child than the one before."""
        first, rest = steps[0], steps[1:]
        field, kinds = first[FIELD], first[KINDS]
        found: list[Captures] = []
        for index in range(start, len(children)):
            child_field, child_type, child = children[index]
            # What _node would refuse first, checked without a call (most children fail here).
            if (field is not None and child_field != field) or (kinds is not None and child_type not in kinds):
                continue
            for head in self._node(first, child):
                if not rest:
                    found.append(head)
                else:
                    found += [head + tail for tail in self._sequence(rest, children, index + 1)]
        return found

    def _child_list(self, node: Node) -> list[_Child]:
        """The node's children with the field each stands in, as a query sees them."""
        key = node.id
        listed = self._children.get(key)
        if listed is None:
            listed = []
            cursor = node.walk()
            if cursor.goto_first_child():
                while True:
                    child = cursor.node
                    assert child is not None
                    listed.append((cursor.field_name, child.type, child))
                    if not cursor.goto_next_sibling():
                        break
            self._children[key] = listed
        return listed


_Child = tuple["str | None", str, "Node"]  # a child's field, type, node


def grouped(captures: Captures) -> dict[str, list[Node]]:
    """A match's captures as Tree-sitter's `matches` gives them: name → nodes."""
    by_name: dict[str, list[Node]] = {}
    for name, node in captures:
        by_name.setdefault(name, []).append(node)
    return by_name
