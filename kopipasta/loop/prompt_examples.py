"""The prompt's worked examples: one per language present, from a real definition of a selected file.

An example restates the definition's current text under the directive that
targets it (TARGET_NODE, or INSERT_AFTER when the task asks for a new
definition; TARGET_PATH for data), and is shown only when a dry run of `apply`
leaves the file unchanged, so the prompt never teaches a patch that would
fail. Only when no definition of a language fits does a small generic example
stand in. The examples share EXAMPLES_BUDGET characters.
"""


from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kopipasta import data as data_formats
from kopipasta.code.find.definitions import Definition
from kopipasta.code.read.inventory import target_names
from kopipasta.disk.workspace import Source
from kopipasta.loop.fences import fence_for, info_of
from kopipasta.syntax.languages import (
    BASH,
    CPP,
    CSHARP,
    CSS,
    GO,
    HTML,
    JAVA,
    JAVASCRIPT,
    KOTLIN,
    LUA,
    PHP,
    PYTHON,
    RUBY,
    RUST,
    SCALA,
    SVELTE,
    SWIFT,
    TSX,
    TYPESCRIPT,
    VUE,
    C,
    LanguageSpec,
    language_for_path,
)

# An example restates a definition in full: longer ones cost more than they teach.
MAX_EXAMPLE_LINES = 25


# The reply-format part (rules and examples) is paid on every prompt: its examples
# share this many characters (~4 a token), so that part stays under ~500 tokens.
EXAMPLES_BUDGET = 900


# Dry runs tried per language before falling back to the generic example.
_MAX_EXAMPLE_TRIES = 6


# Which example teaches the most, per language: lower ranks first, then shorter.
_PYTHON_RANKS = {"method": 0, "function": 1, "class": 2}


_SCRIPT_RANKS = {"function": 0, "method": 1, "interface": 2, "type": 2, "class": 3}


_CODE_RANKS = {"method": 0, "function": 1, "constructor": 2, "struct": 3, "class": 3}


_CSS_RANKS = {"rule": 0, "media": 1, "keyframes": 2}


# A page teaches its <style> rules first, then its elements by id, then its script.
_PAGE_RANKS = {"rule": 0, "element": 1, "function": 2}


# How a directive line closes where the comment is a block comment (`/* FILE: x */`).
_CLOSERS = {"/*": " */", "<!--": " -->"}


# The comment a page's directives take, by what the block restates (<style>, markup, <script>).
_PAGE_COMMENTS = {"rule": "/*", "media": "/*", "at-rule": "/*", "keyframes": "/*", "element": "<!--"}


@dataclass(frozen=True)
class Example:
    language: str  # as the README names it: Python, C++, Ruby, Vue, JSON, …
    file: str
    directive: str  # TARGET_NODE or TARGET_PATH
    target: str  # `method Cart.total`, `scripts`
    block: str  # the whole fenced block, fences included
    real: bool  # built from a selected file; False for the generic stand-in


@dataclass(frozen=True)
class _Group:
    """The files that share one example: a language as the prompt names it."""

    language: str
    comment: str  # the line-comment marker for directives
    specs: tuple[LanguageSpec, ...]
    ranks: dict[str, int]
    generic: tuple[str, str, str, str, str]  # info, file, directive, target, payload


_GROUPS = (
    _Group(
        "Python",
        "#",
        (PYTHON,),
        _PYTHON_RANKS,
        (
            "python",
            "app/models.py",
            "TARGET_NODE",
            "method User.display_name",
            'def display_name(self) -> str:\n    return f"{self.first} {self.last}"',
        ),
    ),
    _Group(
        "JavaScript",
        "//",
        (JAVASCRIPT,),
        _SCRIPT_RANKS,
        (
            "jsx",
            "src/Greeting.jsx",
            "TARGET_NODE",
            "function Greeting",
            "function Greeting({ name }) {\n  return <p>Hello, {name}!</p>;\n}",
        ),
    ),
    _Group(
        "TypeScript",
        "//",
        (TYPESCRIPT, TSX),
        _SCRIPT_RANKS,
        (
            "ts",
            "src/format.ts",
            "TARGET_NODE",
            "function formatPrice",
            "function formatPrice(cents: number): string {\n  return `$${(cents / 100).toFixed(2)}`;\n}",
        ),
    ),
    # issue 8
    _Group(
        "Go",
        "//",
        (GO,),
        _CODE_RANKS,
        ("go", "server.go", "TARGET_NODE", "method Server.health", 'func (s *Server) health() string {\n\treturn "ok"\n}'),
    ),
    _Group(
        "Rust",
        "//",
        (RUST,),
        _CODE_RANKS,
        ("rust", "src/point.rs", "TARGET_NODE", "method Point.norm", "fn norm(&self) -> f64 {\n    self.x.hypot(self.y)\n}"),
    ),
    _Group(
        "Java",
        "//",
        (JAVA,),
        _CODE_RANKS,
        ("java", "src/main/java/app/Greeter.java", "TARGET_NODE", "method Greeter.greet",
         'public String greet(String name) {\n    return "Hello, " + name;\n}'),
    ),
    _Group(
        "C#",
        "//",
        (CSHARP,),
        _CODE_RANKS,
        ("csharp", "Greeter.cs", "TARGET_NODE", "method Greeter.Greet",
         'public string Greet(string name)\n{\n    return $"Hello, {name}";\n}'),
    ),
    _Group(
        "Kotlin",
        "//",
        (KOTLIN,),
        _CODE_RANKS,
        ("kotlin", "Greeter.kt", "TARGET_NODE", "method Greeter.greet", 'fun greet(name: String): String = "Hello, $name"'),
    ),
    _Group(
        "Scala",
        "//",
        (SCALA,),
        _CODE_RANKS,
        ("scala", "Greeter.scala", "TARGET_NODE", "method Greeter.greet", 'def greet(name: String): String = s"Hello, $name"'),
    ),
    _Group(
        "Swift",
        "//",
        (SWIFT,),
        _CODE_RANKS,
        ("swift", "Greeter.swift", "TARGET_NODE", "method Greeter.greet",
         'func greet(_ name: String) -> String {\n    "Hello, \\(name)"\n}'),
    ),
    # issue 21: every language the README lists teaches by an example.
    _Group(
        "C",
        "//",
        (C,),
        _CODE_RANKS,
        ("c", "src/math.c", "TARGET_NODE", "function add", "int add(int a, int b) {\n    return a + b;\n}"),
    ),
    _Group(
        "C++",
        "//",
        (CPP,),
        _CODE_RANKS,
        ("cpp", "src/greeter.cpp", "TARGET_NODE", "method Greeter.greet",
         'std::string greet(const std::string &name) const {\n    return "Hello, " + name;\n}'),
    ),
    _Group(
        "Ruby",
        "#",
        (RUBY,),
        _CODE_RANKS,
        ("ruby", "lib/greeter.rb", "TARGET_NODE", "method Greeter#greet", 'def greet(name)\n  "Hello, #{name}"\nend'),
    ),
    _Group(
        "PHP",
        "//",
        (PHP,),
        _CODE_RANKS,
        ("php", "src/Greeter.php", "TARGET_NODE", "method Greeter.greet",
         'public function greet(string $name): string\n{\n    return "Hello, " . $name;\n}'),
    ),
    _Group(
        "Lua",
        "--",
        (LUA,),
        _CODE_RANKS,
        ("lua", "greeter.lua", "TARGET_NODE", "function M.greet", 'function M.greet(name)\n  return "Hello, " .. name\nend'),
    ),
    _Group(
        "Bash",
        "#",
        (BASH,),
        _CODE_RANKS,
        ("bash", "scripts/greet.sh", "TARGET_NODE", "function greet", 'greet() {\n  echo "Hello, $1"\n}'),
    ),
    _Group(
        "Vue",
        "//",
        (VUE,),
        _SCRIPT_RANKS,
        ("vue", "src/Greeting.vue", "TARGET_NODE", "method methods.greet",
         "greet(name) {\n  return `Hello, ${name}`;\n},"),
    ),
    _Group(
        "Svelte",
        "//",
        (SVELTE,),
        _SCRIPT_RANKS,
        ("svelte", "src/Greeting.svelte", "TARGET_NODE", "function greet",
         "function greet() {\n  return `Hello, ${name}`;\n}"),
    ),
    _Group(
        "CSS",
        "/*",
        (CSS,),
        _CSS_RANKS,
        ("css", "src/styles.css", "TARGET_NODE", "rule .btn", ".btn {\n  padding: 4px 8px;\n}"),
    ),
    _Group(
        "HTML",
        "/*",
        (HTML,),
        _PAGE_RANKS,
        ("html", "index.html", "TARGET_NODE", "rule .btn", ".btn {\n  padding: 4px 8px;\n}"),
    ),
)


_JSON_GENERIC = ("json", "package.json", "TARGET_PATH", "scripts", '{\n  "test": "vitest run"\n}')


# The data formats' stand-in examples, with the comment their directives take.
_DATA_GENERIC = {
    "JSON": ("//", _JSON_GENERIC),
    "YAML": ("#", ("yaml", "docker-compose.yml", "TARGET_PATH", "services.web.ports", '- "8080:80"')),
    "TOML": ("#", ("toml", "pyproject.toml", "TARGET_PATH", "tool.ruff.line-length", "100")),
}


Inventory = tuple[Source, list[Definition] | None]  # None: a file type without targets


def examples_for(inventories: list[Inventory], root: Path, task: str = "") -> list[Example]:
    """One example per language present, in the order the languages first appear.

    An example never restates a definition the task names: the model would take
    the example's unchanged copy for the answer. The languages share the budget.
    """
    order: list[str] = []
    for source, _ in inventories:
        language = _language_of(source.path)
        if language is not None and language not in order:
            order.append(language)
    examples: list[Example] = []
    for language in order:
        members = [item for item in inventories if _language_of(item[0].path) == language]
        example = _real_example(language, members, root, task, EXAMPLES_BUDGET // len(order))
        examples.append(example if example is not None else generic_example(language))
    return examples


def _language_of(path: str) -> str | None:
    data_format = data_formats.format_of(path)
    if data_format is not None:
        return data_format
    spec = language_for_path(path)
    return next((g.language for g in _GROUPS if spec in g.specs), None)


def _group(language: str) -> _Group | None:
    return next((g for g in _GROUPS if g.language == language), None)


def _real_example(
    language: str, inventories: list[Inventory], root: Path, task: str = "", budget: int = EXAMPLES_BUDGET
) -> Example | None:
    """The best-ranked definition whose example survives a dry run of `apply`."""
    named = _words(task)
    adding = language not in _DATA_GENERIC and _asks_for_a_new_definition(task)
    ranked: list[tuple[tuple[int, bool, int], Source, Definition, str, tuple[Definition, str] | None]] = []
    for source, definitions in inventories:
        if not definitions:
            continue
        names = target_names(definitions, source)
        for index, (definition, name) in enumerate(zip(definitions, names, strict=True)):
            if _named_by_task(definition, named):
                continue
            if definition.end - _restated_start(definition) > budget:
                continue
            key = _rank(language, source, definition)
            if key is not None:
                before = _previous_sibling(definitions, names, index) if adding else None
                ranked.append((key, source, definition, name, before))
    ranked.sort(key=lambda item: item[0])
    if adding:  # the task adds a definition: teach INSERT_AFTER (restating one already after another)
        for _, source, definition, _name, before in ranked[:_MAX_EXAMPLE_TRIES]:
            if before is None or _named_by_task(before[0], named):
                continue
            for example in _forms(language, source, definition, f"{before[0].kind} {before[1]}", "INSERT_AFTER"):
                if _applies_unchanged(example.block, root):
                    return example
    for _, source, definition, name, _before in ranked[:_MAX_EXAMPLE_TRIES]:
        for example in _forms(language, source, definition, name):
            if _applies_unchanged(example.block, root):
                return example
    return None


# "Add a method …", "create a new helper function", "implement an endpoint": the reply will insert.
_ADDING = re.compile(
    r"\b(?:add|adds|adding|create|creates|introduce|implement|write|new)\b[^.;\n]{0,60}?"
    r"\b(?:method|function|class|helper|constructor|endpoint|handler|test|component|property|struct)s?\b",
    re.IGNORECASE,
)


def _asks_for_a_new_definition(task: str) -> bool:
    return _ADDING.search(task) is not None


def _previous_sibling(
    definitions: Sequence[Definition], names: Sequence[str], index: int
) -> tuple[Definition, str] | None:
    """The definition right before `definitions[index]` in the same scope (its INSERT_AFTER anchor)."""
    definition = definitions[index]
    for earlier in range(index - 1, -1, -1):
        candidate = definitions[earlier]
        if candidate.end <= definition.outer_start and candidate.container == definition.container:
            return (candidate, names[earlier]) if candidate.kind == definition.kind else None
        if candidate.end <= definition.outer_start and len(candidate.container) < len(definition.container):
            return None  # the enclosing definition: nothing before it in its body
    return None


def _words(task: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_$][\w$]*", task))


def _named_by_task(definition: Definition, named: set[str]) -> bool:
    """Whether the task names the definition or one that encloses it."""
    return any(name in named for name in (definition.name, *definition.scope))


def _restated_start(definition: Definition) -> int:
    """Where an example's payload starts: at `export`/`declare` when the file has them, as the file has it."""
    keywords = [at for at in (definition.export_start, definition.declare_start) if at is not None]
    return min(keywords) if keywords else definition.start


def _rank(language: str, source: Source, definition: Definition) -> tuple[int, bool, int] | None:
    """How well a definition teaches, lower first; None for one too long to show."""
    lines = definition.end_line - definition.line + 1
    if lines > MAX_EXAMPLE_LINES:
        return None
    if language in _DATA_GENERIC:
        payload = _data_value_text(language, source, definition)
        if payload is None:
            return None
        # Small objects and arrays show the most; scalars after them.
        return (0 if payload[:1] in "{[" or "\n" in payload else 1, False, lines)
    group = _group(language)
    if group is None:
        return None
    return (group.ranks.get(definition.kind, len(group.ranks) + 1), lines < 2, lines)


def _forms(
    language: str, source: Source, definition: Definition, name: str, directive: str = "TARGET_NODE"
) -> list[Example]:
    """The example for a definition, in the forms to try, preferred first. `directive` other than
    TARGET_NODE (INSERT_AFTER): `name` is then the anchor's `kind name`, the payload `definition`."""
    data = source.data
    if language in _DATA_GENERIC:
        payload = _data_value_text(language, source, definition)
        comment = _DATA_GENERIC[language][0]
        return [] if payload is None else [_example(comment, source.path, "TARGET_PATH", name, payload)]
    group = _group(language)
    assert group is not None
    start = _restated_start(definition)
    line_start = data.rfind(b"\n", 0, start) + 1
    indent = data[line_start:start]
    if indent.strip():
        indent = re.match(rb"[ \t]*", indent).group(0)  # type: ignore[union-attr]
    payload = (indent + data[start : definition.end]).decode("utf-8").replace("\r\n", "\n")
    target = f"{definition.kind} {name}" if directive == "TARGET_NODE" else name
    # At the left margin first (it lands at the right depth anyway), as written if that fails.
    payloads = [_to_margin(payload, indent.decode("utf-8")), payload] if indent else [payload]
    comment = _PAGE_COMMENTS.get(definition.kind, "//") if group.specs == (HTML,) else group.comment
    return [_example(comment, source.path, directive, target, p) for p in payloads]


def _to_margin(payload: str, indent: str) -> str:
    return "\n".join(line.removeprefix(indent) for line in payload.split("\n"))


def _data_value_text(language: str, source: Source, definition: Definition) -> str | None:
    if language == "JSON":
        return _json_value_text(source.data, definition)
    return data_formats.value_text(source.data, source.path, definition.start)


def _json_value_text(data: bytes, pair: Definition) -> str | None:
    """The text of a top-level member's value, its inner lines moved to the left margin."""
    text = data[pair.start : pair.end].decode("utf-8").replace("\r\n", "\n")
    try:
        _, after_key = json.JSONDecoder().raw_decode(text)
    except ValueError:
        return None
    rest = text[after_key:].lstrip()
    if not rest.startswith(":"):
        return None  # a comment between key and value: not worth an example
    value = rest[1:].strip()
    line_start = data.rfind(b"\n", 0, pair.start) + 1
    margin = len(data[line_start : pair.start])
    first, *others = value.split("\n")
    moved = [line[margin:] if line[:margin].strip() == "" else line.lstrip() for line in others]
    return "\n".join([first, *moved])


def _example(comment: str, file: str, directive: str, target: str, payload: str) -> Example:
    info = {"/*": "css", "<!--": "html", "//": "javascript"}.get(comment, "html") if file.endswith((".html", ".htm")) else (
        info_of(file) or "text"
    )
    fence = fence_for(payload)
    block = f"{fence}{info}\n{_directive(comment, 'FILE', file)}\n{_directive(comment, directive, target)}\n{payload}\n{fence}"
    language = _language_of(file) or ""
    return Example(language, file, directive, target, block, real=True)


def generic_example(language: str) -> Example:
    group = _group(language)
    comment, generic = (group.comment, group.generic) if group is not None else _DATA_GENERIC.get(
        language, _DATA_GENERIC["JSON"])
    info, file, directive, target, payload = generic
    fence = fence_for(payload)
    block = f"{fence}{info}\n{_directive(comment, 'FILE', file)}\n{_directive(comment, directive, target)}\n{payload}\n{fence}"
    return Example(language, file, directive, target, block, real=False)


def _directive(comment: str, key: str, value: str) -> str:
    """`# FILE: x`, or in a block comment `/* FILE: x */`."""
    return f"{comment} {key}: {value}{_CLOSERS.get(comment, '')}"


def _applies_unchanged(block: str, root: Path) -> bool:
    """Whether the block, applied as a reply in a dry run, resolves and changes nothing."""
    from kopipasta.engine import apply_reply
    from kopipasta.model import Status

    report = apply_reply(block + "\n", root, dry_run=True)
    return [o.status for o in report.outcomes] == [Status.UNCHANGED]
