"""A YAML document's alias expansion, bounded before anything is built from it.

PyYAML composes an alias as a second reference to its anchor's node, which costs
nothing; what costs is everything after: constructing the data and comparing it
walks every alias as a copy, so nine lines of `b: &b [*a,*a,…]` ("billion laughs",
0.3 KB) stand for 9⁹ values and an apply ran for minutes. The expansion is counted
on the composed graph, each node once (memoised, no recursion), and a document
whose aliases add more than the budget is refused before it is constructed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import yaml

def compose_all(text: str) -> list[yaml.Node]:
    """The documents' node graphs, which the budget below is counted on: libyaml's parser when
    PyYAML has it (ten times faster: a 20,000-item list restated in a fragment is composed in
    0.1 s, not 2 s, and a fragment composes both sides twice); on an error, PyYAML's own, whose
    messages name more (an undefined alias's name) and which callers catch as before."""
    import yaml

    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return list(yaml.compose_all(text, Loader=fast))
        except yaml.YAMLError:
            pass
    return list(yaml.compose_all(text, Loader=yaml.SafeLoader))


# Values that aliases may add beyond the nodes written out: real files (compose
# files, CI configs with `<<: *defaults`) add hundreds to a few thousand.
ALIAS_BUDGET = 100_000


def alias_excess(documents: list[yaml.Node]) -> int:
    """How many values the documents' aliases add once expanded, counted up to just past
    the budget (0 for a document without aliases)."""
    expanded: dict[int, int] = {}  # node id → values in its expansion
    open_nodes: set[int] = set()  # being counted: meeting one again is an alias to itself
    distinct = 0
    total = 0
    for document in documents:
        stack: list[tuple[yaml.Node, bool]] = [(document, False)]
        while stack:
            node, children_done = stack.pop()
            key = id(node)
            if key in expanded:
                continue
            children = _children(node)
            if children_done or not children:
                expanded[key] = 1 + sum(expanded[id(child)] for child in children)
                open_nodes.discard(key)
                distinct += 1
                continue
            if key in open_nodes:
                return ALIAS_BUDGET + 1  # `&a [*a]`: a value that contains itself never ends
            open_nodes.add(key)
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in expanded)
        total += expanded[id(document)]
        if total - distinct > ALIAS_BUDGET:
            break
    return max(total - distinct, 0)


def _children(node: yaml.Node) -> list[yaml.Node]:
    value = node.value
    if not isinstance(value, list):
        return []  # a scalar
    if value and isinstance(value[0], tuple):  # a mapping: (key, value) pairs
        return [part for pair in value for part in pair]
    return value


def too_many_aliases(documents: list[yaml.Node], text: str | None = None) -> bool:
    """Whether the documents' aliases add more than the budget. `text`, the YAML they were composed
    from, lets a text without `*` (no alias can be written without one) skip the walk: a 20,000-item
    list is checked seven times on its way through a fragment."""
    if text is not None and "*" not in text:
        return False
    return alias_excess(documents) > ALIAS_BUDGET
