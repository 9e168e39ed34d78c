"""TARGET_PATH for YAML files (PROTOCOL.md §5).

The path syntax is JSON's (`services.web.ports[0]`, `["a.b"]`). A file of several
documents (`---`) takes the document's index first (`[1].spec.replicas`); without it the
path must lead to a value in exactly one document (or, when none has it, to a mapping
that can take it as a new key in exactly one).

How a value is found and written:

- Tree-sitter-yaml gives the value's byte span. Only that span changes (or, for a new key,
  only the new line(s) after the mapping's last pair); comments, blank lines, anchors,
  tags, directives and CRLF around it are kept byte for byte.
- An anchor or tag on the old value stays, unless the payload brings its own.
- The payload is written as sent, moved to the value's depth, in the file's style: its
  nested mappings take the file's indent step, its sequences under keys the file's
  sequence indentation (`key:` / `- a` or `key:` / `  - a`); a block collection sent for
  a flow one (`[a, b]`) is written in flow style and the reverse; a string sent plain or
  in other quotes than the string it replaces takes that string's quoting, when that
  spells the same string.
- A payload that restates the key (`image: nginx:1.27` for `services.web.image`) is read
  as the value, unless the value it replaces is a mapping holding a key of that name.
- A path through an alias (`*defaults`) fails: the value lives where its anchor is. A
  value inside an anchored node may be set: every alias of it shows the change, as YAML
  means.

The check: the file and the result are composed by PyYAML; the old node at the path is
swapped for the new one in the old document's graph (so aliases follow), and the data
built from that graph must equal the data of the result.
"""

from __future__ import annotations

import re

import yaml
from tree_sitter import Node

from kopipasta.data.common import (
    Key,
    TopKey,
    key_list,
    line_column,
    newline_of,
    out_of_range,
    parse_path,
    plain_key_ok,
    render_path,
    same_data,
)
from kopipasta.data.yaml_aliases import ALIAS_BUDGET, compose_all, too_many_aliases
from kopipasta.data.yaml_style import (
    UNKNOWN,
    Payload,
    construct,
    dedent,
    new_key_edit,
    new_value_edit,
    problem_text,
    read_payload,
    style_of,
    unwrap_restated_key,
)
from kopipasta.data.yaml_tree import (
    MAPPINGS,
    SEQUENCES,
    Found,
    document_value,
    documents_in,
    entries_in,
    item_value,
    key_text,
    kind_word,
    pair_key,
    pair_value,
    row_end,
    value_in,
    yaml_parser,
)
from kopipasta.errors import (
    AmbiguousTarget,
    PayloadError,
    SyntaxCheckError,
    TargetNotFound,
    UnsupportedFile,
)

# --- finding the path -------------------------------------------------------------------------


def _find_in(root: Node | None, raw: bytes, keys: list[Key], path: str, file: str,
             prefix: list[Key]) -> tuple[Node | None, Node | None]:
    """Return (the value's wrapper, its pair or item), or (None, the mapping to receive the
    last key); a pair without a value gives (None, the pair)."""
    failed = f"Path '{path}' not found in {file}"
    wrapper, holder = root, None
    for depth, key in enumerate(keys):
        where = render_path([*prefix, *keys[:depth]])
        content = value_in(wrapper)
        if content is not None and content.type == "alias":
            name = raw[content.start_byte + 1:content.end_byte].decode("utf-8", "surrogatepass")
            line = content.start_point.row + 1
            raise TargetNotFound(f"{failed}: {where} is the alias *{name} (line {line})",
                                 f"set the value where &{name} is defined; every alias of it follows")
        if isinstance(key, int):
            if content is None or content.type not in SEQUENCES:
                raise TargetNotFound(f"{failed}: {where} is {kind_word(content)}, not a sequence")
            items = entries_in(content)
            if key >= len(items):
                raise TargetNotFound(out_of_range(failed, key, len(items), where))
            holder, wrapper = items[key], item_value(items[key])
            if holder.type == "flow_pair":  # `[a: 1]`: a one-pair mapping as a sequence item
                wrapper = holder
        else:
            if content is None or content.type not in MAPPINGS:
                raise TargetNotFound(f"{failed}: {where} is {kind_word(content)}, not a mapping")
            pairs = entries_in(content)
            names = [key_text(pair_key(p), raw) for p in pairs]
            if names.count(key) > 1:
                raise AmbiguousTarget(f"Path '{path}' is ambiguous in {file}: key '{key}' "
                                      f"appears {names.count(key)} times at {where}")
            if key not in names:
                if depth == len(keys) - 1:
                    return None, content
                raise TargetNotFound(f"{failed}: no key '{key}' at {where} ({key_list(names)})")
            holder = pairs[names.index(key)]
            wrapper = pair_value(holder)
            if wrapper is None and depth < len(keys) - 1:
                raise TargetNotFound(f"{failed}: {render_path([*prefix, *keys[:depth + 1]])} is null, "
                                     "not a mapping")
    return wrapper, holder


def _find(raw: bytes, root: Node, keys: list[Key], path: str, file: str) -> Found:
    documents = documents_in(root)
    if not documents:
        raise TargetNotFound(f"Path '{path}' not found in {file}: the file holds no YAML document")
    if len(documents) == 1:
        wrapper, holder = _find_in(document_value(documents[0]), raw, keys, path, file, [])
        return Found(0, keys, wrapper, holder)
    if keys and isinstance(keys[0], int):
        if keys[0] >= len(documents):
            raise TargetNotFound(f"Path '{path}' not found in {file}: document {keys[0]} is out of "
                                 f"range ({len(documents)} documents)", "documents count from 0")
        wrapper, holder = _find_in(document_value(documents[keys[0]]), raw, keys[1:], path, file,
                                   keys[:1])
        return Found(keys[0], keys[1:], wrapper, holder)
    found: list[Found] = []
    for index, document in enumerate(documents):
        try:
            wrapper, holder = _find_in(document_value(document), raw, keys, path, file, [index])
        except TargetNotFound:
            continue
        found.append(Found(index, keys, wrapper, holder))
    hint = f"start the path with the document's index, e.g. [0].{path.removeprefix('$.')}"
    if not found:
        raise TargetNotFound(f"Path '{path}' not found in any of the {len(documents)} documents of "
                             f"{file}", hint)
    having = [f for f in found if f.wrapper is not None or (f.holder is not None and f.holder.type not in MAPPINGS)]
    if len(found) > 1 and len(having) == 1:
        return having[0]  # the one document that has the value, not those that could take it as new
    if len(found) > 1:
        numbers = [str(f.document) for f in (having or found)]
        which = ", ".join(numbers[:-1]) + " and " + numbers[-1]
        verb = "both have it" if len(numbers) == 2 else "all have it"
        if not having:
            verb = "could both take it" if len(numbers) == 2 else "could all take it"
        raise AmbiguousTarget(f"Path '{path}' is ambiguous in {file}: documents {which} {verb}", hint)
    return found[0]


# --- the whole operation ----------------------------------------------------------------------


def set_yaml_value(source: str, path: str, payload: str, *, file: str) -> str:
    """Return `source` with the value at `path` set to the YAML value `payload`."""
    try:
        return _set(source, path.strip(), payload, file)
    except RecursionError:
        raise SyntaxCheckError(f"{file} or the payload for '{path}' is nested too deeply") from None


def _load_graph(text: str, file: str, what: str) -> list[yaml.Node]:
    try:
        graphs = list(compose_all(text))
    except yaml.MarkedYAMLError as err:
        raise SyntaxCheckError(f"{what}: {problem_text(err)}") from None
    except yaml.YAMLError as err:
        raise SyntaxCheckError(f"{what}: {err}") from None
    if too_many_aliases(graphs, text):
        raise UnsupportedFile(f"{file} expands its aliases to more than {ALIAS_BUDGET:,} values, "
                              "too many to check a change against",
                              "send the whole file instead (FILE and no target)")
    return graphs


def _set(source: str, path: str, payload_text: str, file: str) -> str:
    keys = parse_path(path, file)
    raw = source.encode("utf-8", "surrogatepass")
    graphs = _load_graph(source, file, f"{file} is not valid YAML")
    root = yaml_parser().parse(raw).root_node
    if root.has_error:
        error = _first_error(root)
        line, column = line_column(raw, error.start_byte if error else 0)
        raise SyntaxCheckError(f"{file} cannot be read by the YAML grammar: syntax error at line {line}, "
                               f"column {column}", "send the whole file instead (FILE and no target)")
    found = _find(raw, root, keys, path, file)
    payload = read_payload(payload_text, path, file)
    adding = found.wrapper is None and found.holder is not None and found.holder.type in MAPPINGS
    old = value_in(found.wrapper)
    # `image: nginx` sent for `…image` is the value; only a mapping that holds a key of its
    # own name takes `name: …` as its new contents.
    holds_own_name = old is not None and old.type in MAPPINGS and found.keys[-1:] != [] and any(
        key_text(pair_key(p), raw) == found.keys[-1] for p in entries_in(old))
    if found.keys and not holds_own_name:
        payload = unwrap_restated_key(payload, found.keys[-1], path, file)
    if not adding and payload.value is not UNKNOWN:
        current = _graph_at(graphs[found.document], found.keys)
        if current is not None and same_data(construct(current), payload.value):
            return source
    style = style_of(raw, root, newline_of(source))
    if adding:
        assert found.holder is not None and isinstance(found.keys[-1], str)
        start, end, text = new_key_edit(raw, found.holder, found.keys[-1], payload, style, path, file)
    elif found.keys or found.wrapper is not None:
        start, end, text = new_value_edit(raw, found, payload, style, path, file)
    else:
        raise TargetNotFound(f"Path '{path}' not found in {file}: the document is empty",
                             "send the whole file instead (FILE and no target)")
    result = (raw[:start] + text.encode("utf-8", "surrogatepass") + raw[end:]).decode("utf-8", "surrogatepass")
    _verify(source, result, found, payload, path, file)
    return result


def _first_error(root: Node) -> Node | None:
    from kopipasta.syntax.languages import first_error

    return first_error(root)


# --- the check --------------------------------------------------------------------------------


def _graph_at(node: yaml.Node, keys: list[Key]) -> yaml.Node | None:
    for key in keys:
        if isinstance(key, int):
            if not isinstance(node, yaml.SequenceNode) or key >= len(node.value):
                return None
            node = node.value[key]
        else:
            if not isinstance(node, yaml.MappingNode):
                return None
            values = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key]
            if len(values) != 1:
                return None
            node = values[0]
    return node


def _graph_set(document: yaml.Node, keys: list[Key], key_node: yaml.Node | None, value: yaml.Node,
               replaces_alias: bool) -> yaml.Node:
    """Set the node at `keys` in place: an anchor kept on it, or around it, makes every
    alias of it show the new value, as the new file will."""
    old = _graph_at(document, keys)
    if old is not None and not replaces_alias:
        old.__class__ = value.__class__
        old.__dict__ = dict(value.__dict__)
        return document
    if not keys:
        return value
    parent, last = _graph_at(document, keys[:-1]), keys[-1]
    if isinstance(parent, yaml.SequenceNode) and isinstance(last, int):
        parent.value[last] = value  # the alias is replaced, not the node it names
    elif isinstance(parent, yaml.MappingNode):
        for index, (k, _) in enumerate(parent.value):
            if isinstance(k, yaml.ScalarNode) and k.value == last:
                parent.value[index] = (k, value)
                break
        else:
            assert key_node is not None
            parent.value.append((key_node, value))
    return document


def _pair_key_node(document: yaml.Node, keys: list[Key]) -> yaml.Node | None:
    parent = _graph_at(document, keys[:-1])
    if isinstance(parent, yaml.MappingNode):
        for k, _ in parent.value:
            if isinstance(k, yaml.ScalarNode) and k.value == keys[-1]:
                return k
    return None


def _verify(source: str, result: str, found: Found, payload: Payload, path: str, file: str) -> None:
    """The result must hold the old data with exactly the one value set."""
    try:
        new_graphs = list(compose_all(result))
    except yaml.MarkedYAMLError as err:
        lost = re.match(r"found undefined alias '(.*)'", err.problem or "")
        if lost and err.problem_mark is not None:
            name = lost.group(1)
            raise PayloadError(f"Setting '{path}' in {file} would remove the anchor &{name}, which "
                               f"*{name} uses at line {err.problem_mark.line + 1}",
                               f"keep &{name} in the payload, where the value had it") from None
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {problem_text(err)}") from None
    except yaml.YAMLError as err:
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {err}") from None
    if too_many_aliases(new_graphs, result):  # the payload's anchor, taken up by the file's aliases
        raise PayloadError(f"Setting '{path}' in {file} would make its aliases expand to more than "
                           f"{ALIAS_BUDGET:,} values", "send the value written out, without anchors")
    old_graphs = list(compose_all(source))
    bug = SyntaxCheckError(f"Setting '{path}' in {file} would change more than that value",
                           "nothing was written; this is a kopipasta bug, please report it")
    if len(new_graphs) != len(old_graphs):
        raise bug
    document, keys = found.document, found.keys
    new_node = _graph_at(new_graphs[document], keys)
    if new_node is None:
        raise bug
    if payload.value is not UNKNOWN and not same_data(construct(new_node), payload.value):
        raise bug
    key_node = _pair_key_node(new_graphs[document], keys) if keys else None
    old_content = value_in(found.wrapper)
    replaces_alias = old_content is not None and old_content.type == "alias" and not payload.decorated
    old_graphs[document] = _graph_set(old_graphs[document], keys, key_node, new_node, replaces_alias)
    try:
        expected = [construct(g) for g in old_graphs]
        actual = [construct(g) for g in compose_all(result)]
    except yaml.MarkedYAMLError as err:  # `<<: *anchor` merging what is no longer a mapping
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {problem_text(err)}") from None
    except yaml.YAMLError as err:
        raise SyntaxCheckError(f"Setting '{path}' would break {file}: {err}") from None
    if not same_data(expected, actual):
        raise bug


# --- the inventory ----------------------------------------------------------------------------


def top_keys(data: bytes) -> list[TopKey]:
    """The keys of each document's top-level mapping; `[n].key` when there are several."""
    root = yaml_parser().parse(data).root_node
    if root.has_error:
        return []
    documents = documents_in(root)
    keys: list[TopKey] = []
    for index, document in enumerate(documents):
        content = value_in(document_value(document))
        if content is None or content.type not in MAPPINGS:
            continue
        prefix = f"[{index}]." if len(documents) > 1 else ""
        names: list[str] = []
        for pair in entries_in(content):
            name = key_text(pair_key(pair), data)
            if name is None:
                continue
            names.append(name)
            segment = name if plain_key_ok(name) else render_path([name])[1:]
            keys.append(TopKey("key", prefix + segment, pair.start_byte, row_end(pair, data),
                               pair.start_point.row + 1, _last_row(pair, data) + 1))
        if len(set(names)) != len(names):
            return []  # duplicate keys: a path could not say which one
    return keys


def _last_row(node: Node, raw: bytes) -> int:
    return raw.count(b"\n", 0, row_end(node, raw))


def value_text(data: bytes, start: int) -> str | None:
    """The value of the top-level pair starting at byte `start`, as a payload that sets it
    back unchanged (for the prompt's example); None if there is none."""
    root = yaml_parser().parse(data).root_node
    node = root.descendant_for_byte_range(start, start)
    while node is not None and not (node.type == "block_mapping_pair" and node.start_byte == start):
        node = node.parent
    value = pair_value(node) if node is not None else None
    if node is None or value is None:
        return None
    text = data[value.start_byte:row_end(value, data)].decode("utf-8").replace("\r\n", "\n")
    if value.start_point.row != node.start_point.row:
        text = dedent(" " * value.start_point.column + text)
    return text
