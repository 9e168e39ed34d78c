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

import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

MARKER = "structure-in-python!"
ROOT_CAPTURE = "kopipasta.root"

Captures = list[tuple[str, "Node"]]  # (capture name, node) in the order the pattern's steps take them


@dataclass(frozen=True)
class Step:
    """One node of a pattern: a type (None: any named node), or alternatives."""

    kind: str | None  # node type; None for `(_)`; "" for an alternation
    named: bool  # `(type)` or `(_)`: a named node; `"text"`: an anonymous one
    field: str | None  # the field the node must stand in, within its parent
    captures: tuple[str, ...]
    children: tuple[Step, ...] = ()
    alternatives: tuple[Step, ...] = ()
    # The node types the step can match (None: a wildcard among them), read before each call.
    kinds: frozenset[str] | None = dataclass_field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        kinds: frozenset[str] | None
        if not self.alternatives:
            kinds = None if self.kind is None else frozenset((self.kind,))
        elif any(a.kinds is None for a in self.alternatives):
            kinds = None
        else:
            kinds = frozenset(k for a in self.alternatives for k in a.kinds or ())
        object.__setattr__(self, "kinds", kinds)


@dataclass(frozen=True)
class Shape:
    """A marked pattern: its root step, and the root-only text compiled in its place."""

    root: Step
    compiled_text: str


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


def split_patterns(text: str) -> list[str]:
    """The query's top-level patterns, each with the captures that follow it, comments kept."""
    patterns: list[str] = []
    depth = 0
    start: int | None = None
    for match in _TOKEN.finditer(text):
        if match.group("open"):
            if depth == 0:
                if start is not None:
                    patterns.append(text[start : match.start()])
                start = match.start()
            depth += 1
        elif match.group("close"):
            depth -= 1
    if start is not None:
        patterns.append(text[start:])
    return patterns


def is_marked(pattern: str) -> bool:
    return any(m.group("predicate") == MARKER for m in _TOKEN.finditer(pattern))


def shape_of(pattern: str) -> Shape:
    """The marked pattern's steps, and the root-only pattern to compile in its place."""
    tokens = [
        (name, value)
        for m in _TOKEN.finditer(pattern)
        for name, value in m.groupdict().items()
        if value is not None
    ]
    parser = _Parser(tokens)
    root = parser.step(field=None)
    if parser.position != len(tokens):
        raise ShapeError(f"more than one pattern in a marked pattern: {pattern.strip()[:80]}")
    if root.kind is None or root.kind == "" or not root.named:
        raise ShapeError(f"a marked pattern's root must be a named node type: {pattern.strip()[:80]}")
    return Shape(root, f"({root.kind}) @{ROOT_CAPTURE}\n")


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
            step = Step(value, False, field, ())
        elif kind == "open" and value == "[":
            alternatives: list[Step] = []
            while self._peek() != ("close", "]"):
                alternatives.append(self.step(field))
            self._next()
            step = Step("", True, field, (), alternatives=tuple(alternatives))
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
            step = Step(None if type_name == "_" else type_name, True, field, (), tuple(children))
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
    if step.alternatives:
        return Step(
            step.kind,
            step.named,
            step.field,
            step.captures,
            step.children,
            tuple(_with_captures(a, captures) for a in step.alternatives),
        )
    return Step(step.kind, step.named, step.field, step.captures + captures, step.children)


class Matcher:
    """Matches marked patterns under one query run; each node's children are listed once."""

    def __init__(self) -> None:
        self._children: dict[int, list[_Child]] = {}

    def matches(self, root: Step, node: Node) -> list[Captures]:
        """Every way the pattern fits at `node`, each as its captures in step order."""
        return self._node(root, node)

    def _node(self, step: Step, node: Node) -> list[Captures]:
        """The ways `step` fits `node` (its field already checked by the caller)."""
        if step.alternatives:
            found: list[Captures] = []
            node_type = node.type
            for alternative in step.alternatives:
                if alternative.kinds is None or node_type in alternative.kinds:
                    found += self._node(alternative, node)
            return found
        if step.kind is None:
            if not node.is_named or node.is_error:  # Tree-sitter's `(_)` passes over ERROR nodes
                return []
        elif node.type != step.kind or node.is_named != step.named:
            return []
        own = [(capture, node) for capture in step.captures]
        if not step.children:
            return [own]
        return [own + rest for rest in self._sequence(step.children, self._child_list(node), 0)]

    def _sequence(self, steps: tuple[Step, ...], children: list[_Child], start: int) -> list[Captures]:
        """The ways `steps` fit children[start:], each step on a later child than the one before."""
        first, rest = steps[0], steps[1:]
        field, kinds = first.field, first.kinds
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
