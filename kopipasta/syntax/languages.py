"""File extension → language, and the one place that touches py-tree-sitter's API.

Language support is data: a `LanguageSpec` row here and a query file in
`queries/`. Grammars and queries load lazily and are cached, so a reply that
touches only Python files never loads the TypeScript grammar.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from tree_sitter import Language, Node, Parser, Query, Tree

    from kopipasta.syntax.query_shapes import Step


@dataclass(frozen=True)
class LanguageSpec:
    """Everything kopipasta knows about one language: its grammar, query and node types."""

    name: str  # display name
    grammar: str  # key in GRAMMAR_PACKAGES
    query_file: str  # in kopipasta/syntax/queries/
    extensions: tuple[str, ...]
    # Node types whose text is a value: re-indentation must not touch their inner lines.
    string_types: tuple[str, ...]
    # Wrappers that belong to a definition: `export …`, `@decorator …`.
    wrapper_types: tuple[str, ...]
    # Children at the start of a definition node that are prefixes, not the definition.
    prefix_types: tuple[str, ...]
    comment_types: tuple[str, ...] = ("comment",)
    # React: a capitalised function or class is a component.
    has_components: bool = False
    # How a comment line starts, and how a block comment opens and closes: a payload's
    # leading comment block restates the one above the definition (PROTOCOL.md §4).
    line_comments: tuple[str, ...] = ("//",)
    block_comments: tuple[tuple[str, str], ...] = (("/*", "*/"),)
    # A payload's first code line that restates the definition's decorators or attributes
    # (`@Get()`, `#[Route]`, `template <…>`, `[[nodiscard]]`): the span takes them in.
    decorator_line: str = r"^@"
    # Texts put around a payload that does not parse alone (a class member, a PHP
    # payload without `<?php`), tried in order after the payload as it stands.
    payload_wrappers: tuple[tuple[str, str], ...] = (("class __kopipasta_wrapper__ {\n", "\n}\n"),)
    # Whether the payload is parsed as it stands before any wrapper is tried.
    payload_parses_alone: bool = True
    # The tag that opens code in a file of text (PHP's `<?php`), and its node: a payload
    # that opens with it parses alone, and the tag is no member of the file (opening_tag.py).
    opening_tag: str = ""
    opening_tag_type: str = ""
    closing_tag_type: str = ""  # `?>`: a file's trailing one is no member either
    outside_code_type: str = ""  # the text outside the tags (HTML): nothing may be inserted into it
    # The indent unit when neither the file nor the payload shows one.
    default_unit: str = "  "
    # Parents whose captured children are part of them, not definitions of their own:
    # C's `typedef struct node {…} node_t;` is the one definition `node_t`.
    part_of_types: tuple[str, ...] = ()
    # Top-level statements that stay last (Lua's `return M`, a script's `main "$@"`):
    # `APPEND_TO: file` puts new definitions above the file's trailing run of them.
    closing_statements: tuple[str, ...] = ()
    # A payload's first code line that is an import kopipasta cannot merge in this language
    # yet: refused, since spliced into a definition it would change meaning (PHP's `use`).
    unmerged_import: str | None = None
    # A file whose code stands in elements of another grammar (Vue, Svelte): see embedded.py.
    embedding: Embedding | None = None
    # Further query files whose patterns add to query_file's (Vue's Options API, for a <script>).
    extra_queries: tuple[str, ...] = ()
    # Definitions named by a selector, not an identifier (CSS rules, HTML ids): their names are
    # spelled canonically (markup_names.py), and found by listing, not by searching the bytes.
    markup_names: bool = False
    # Statements whose prelude the grammar reads less of than the language has (CSS's
    # `@media (width >= 600px)`, `@container sidebar (…)`, `@page :first`): an ERROR inside the
    # prelude, before the statement's block (or its closing `;`), is no syntax error of ours.
    prelude_types: tuple[str, ...] = ()

    # The fields below serve the languages of issue 8; docs/decisions/code-languages.md
    # ("Languages beyond Python and JS/TS") says what each one means.
    # A container of modifiers at a definition's start whose leading prefix_types are its decorators.
    modifier_types: tuple[str, ...] = ()
    # Children at a definition's start that play `export`'s role (Rust `pub`).
    export_types: tuple[str, ...] = ()
    # Siblings right after a definition that belong to it (Kotlin's `get()`/`set`).
    suffix_types: tuple[str, ...] = ()
    # Node types that are a container's body, for grammars without a `body` field.
    body_types: tuple[str, ...] = ()
    # A payload's first code line that restates the export keyword (decorators: decorator_line).
    export_line: str = r"^export\b"
    # Top-level import statements (§4b).
    import_types: tuple[str, ...] = ("import_statement",)
    # A `package` line a payload may start with: the file has its own, so it is dropped with the imports.
    package_types: tuple[str, ...] = ()
    # Bodies whose members are separated by commas (enums): the file's trailing-comma habit is kept.
    comma_body_types: tuple[str, ...] = ("enum_body",)
    # A body inside a body that holds the members (a Java enum's declarations after its constants).
    nested_body_types: tuple[str, ...] = ()
    # Methods may be overloaded (Java, C#, …): a payload's parameter list may pick one (overloads.py).
    has_overloads: bool = False
    # Nodes the grammar sometimes makes of a declaration (Kotlin): parsed alone, they are one.
    misparsed_types: tuple[str, ...] = ()
    # Hidden tokens the grammar reports MISSING where the language needs none (Kotlin's
    # `_automatic_semicolon` before a one-line body's `}`): not syntax errors.
    quirk_missing: tuple[str, ...] = ()


@dataclass(frozen=True)
class Embedding:
    """Where code stands in a host file, and which language it is (Vue and Svelte `<script>`)."""

    element_types: tuple[str, ...]  # host elements holding code: `script_element`
    default_grammar: str  # the code's grammar when the element names none
    # `lang="…"` value → grammar of the code inside.
    lang_grammars: tuple[tuple[str, str], ...] = ()
    # Query files added to the code language's own (queries/…).
    extra_queries: tuple[str, ...] = ()
    # Host elements holding CSS (an HTML page's `<style>`): a second view, for the rules' targets.
    style_types: tuple[str, ...] = ()


PYTHON = LanguageSpec(
    name="Python",
    grammar="python",
    query_file="python.scm",
    extensions=(".py", ".pyi"),
    # Not `concatenated_string`: the lines between its parts ("a "\n"b") are
    # layout, and each part is a `string` of its own.
    string_types=("string",),
    wrapper_types=("decorated_definition",),
    prefix_types=("decorator",),
    line_comments=("#",),
    block_comments=(),
    payload_wrappers=(),
    default_unit="    ",
    import_types=("import_statement", "import_from_statement", "future_import_statement"),
)

_JS_STRINGS = ("string", "template_string")
_JS_WRAPPERS = ("export_statement",)
# TypeScript also wraps a definition in `declare …` (an ambient declaration).
_TS_WRAPPERS = ("export_statement", "ambient_declaration")
_JS_PREFIXES = ("decorator",)

JAVASCRIPT = LanguageSpec(
    name="JavaScript",
    grammar="javascript",
    query_file="javascript.scm",
    extensions=(".js", ".mjs", ".cjs", ".jsx"),
    string_types=_JS_STRINGS,
    wrapper_types=_JS_WRAPPERS,
    prefix_types=("decorator",),
    has_components=True,
)

TYPESCRIPT = LanguageSpec(
    name="TypeScript",
    grammar="typescript",
    query_file="typescript.scm",
    extensions=(".ts", ".mts", ".cts"),
    string_types=_JS_STRINGS,
    wrapper_types=_TS_WRAPPERS,
    prefix_types=_JS_PREFIXES,
    has_components=True,
)

TSX = LanguageSpec(
    name="TSX",
    grammar="tsx",
    query_file="typescript.scm",
    extensions=(".tsx",),
    string_types=_JS_STRINGS,
    wrapper_types=_TS_WRAPPERS,
    prefix_types=_JS_PREFIXES,
    has_components=True,
)

# --- issue 8: Go, Rust, Java, C#, Kotlin, Scala, Swift ----------------------------------
# What each field means: docs/decisions/code-languages.md, "Languages beyond Python and JS/TS".

GO = LanguageSpec(
    name="Go",
    grammar="go",
    query_file="go.scm",
    extensions=(".go",),
    string_types=("raw_string_literal", "interpreted_string_literal"),
    wrapper_types=(),
    prefix_types=(),
    payload_wrappers=(),
    default_unit="\t",  # gofmt
    body_types=("field_declaration_list", "interface_type"),  # APPEND_TO a struct's fields, an interface's methods
    import_types=("import_declaration",),
    package_types=("package_clause",),
)

RUST = LanguageSpec(
    name="Rust",
    grammar="rust",
    query_file="rust.scm",
    extensions=(".rs",),
    string_types=("string_literal", "raw_string_literal"),
    wrapper_types=(),
    prefix_types=("attribute_item",),
    comment_types=("line_comment", "block_comment"),
    export_types=("visibility_modifier",),
    decorator_line=r"^#\[",
    comma_body_types=("enum_variant_list",),
    export_line=r"^pub\b",
    payload_wrappers=(("impl __Kopipasta {\n", "\n}\n"),),
    default_unit="    ",
    import_types=("use_declaration",),
)

JAVA = LanguageSpec(
    name="Java",
    grammar="java",
    query_file="java.scm",
    extensions=(".java",),
    string_types=("string_literal",),  # text blocks too
    wrapper_types=(),
    prefix_types=("marker_annotation", "annotation"),
    comment_types=("line_comment", "block_comment"),
    modifier_types=("modifiers",),
    nested_body_types=("enum_body_declarations",),
    default_unit="    ",
    import_types=("import_declaration",),
    package_types=("package_declaration",),
    has_overloads=True,
)

CSHARP = LanguageSpec(
    name="C#",
    grammar="csharp",
    query_file="csharp.scm",
    extensions=(".cs",),
    string_types=("string_literal", "verbatim_string_literal", "raw_string_literal", "interpolated_string_expression"),
    wrapper_types=(),
    prefix_types=("attribute_list",),
    decorator_line=r"^\[",
    comma_body_types=("enum_member_declaration_list",),
    default_unit="    ",
    import_types=("using_directive",),
    has_overloads=True,
)

KOTLIN = LanguageSpec(
    name="Kotlin",
    grammar="kotlin",
    query_file="kotlin.scm",
    extensions=(".kt", ".kts"),
    string_types=("string_literal",),  # `"""…"""` too
    wrapper_types=(),
    prefix_types=("annotation",),
    comment_types=("line_comment", "multiline_comment"),
    modifier_types=("modifiers",),
    suffix_types=("getter", "setter"),
    # tree-sitter-language-pack 0.13: `class A { val x = 1 }` reports (MISSING _automatic_semicolon).
    quirk_missing=("_automatic_semicolon",),
    # `@Preview` / `@Composable` / `private fun X()` then another declaration: an annotated expression.
    misparsed_types=("prefix_expression",),
    body_types=("class_body", "enum_class_body"),
    default_unit="    ",
    import_types=("import_header",),
    package_types=("package_header",),
    has_overloads=True,
)

SCALA = LanguageSpec(
    name="Scala",
    grammar="scala",
    query_file="scala.scm",
    extensions=(".scala", ".sc"),
    string_types=("string", "interpolated_string_expression"),
    wrapper_types=(),
    prefix_types=("annotation",),
    comment_types=("comment", "block_comment"),
    modifier_types=("modifiers",),
    default_unit="  ",
    import_types=("import_declaration",),
    package_types=("package_clause",),
    has_overloads=True,
)

SWIFT = LanguageSpec(
    name="Swift",
    grammar="swift",
    query_file="swift.scm",
    extensions=(".swift",),
    string_types=("line_string_literal", "multi_line_string_literal", "raw_string_literal"),
    wrapper_types=(),
    prefix_types=("attribute",),
    comment_types=("comment", "multiline_comment"),
    modifier_types=("modifiers",),
    default_unit="    ",
    import_types=("import_declaration",),
    has_overloads=True,
)

# --- C family, scripting languages, single-file components (issue 8) -----------------

# Never matches: the language has nothing a payload could restate above a definition.
_NO_DECORATORS = r"(?!)"

C = LanguageSpec(
    name="C",
    grammar="c",
    query_file="c.scm",
    extensions=(".c",),
    string_types=("string_literal", "char_literal"),
    wrapper_types=(),
    prefix_types=("attribute_declaration",),
    decorator_line=r"^\[\[",
    payload_wrappers=(),
    default_unit="    ",
    import_types=("preproc_include",),
    part_of_types=("type_definition",),
)

CPP = LanguageSpec(
    name="C++",
    grammar="cpp",
    query_file="cpp.scm",
    # Headers are read as C++: a C header parses as C++ too, a C++ class does not parse as C.
    extensions=(".cpp", ".cc", ".cxx", ".hpp", ".hh", ".h"),
    string_types=("string_literal", "raw_string_literal", "char_literal"),
    wrapper_types=("template_declaration",),
    prefix_types=("attribute_declaration",),
    decorator_line=r"^(template\b|\[\[)",
    # An in-class member (`void draw() override { … }`) parses inside a class.
    payload_wrappers=(("class __kopipasta_wrapper__ {\n", "\n};\n"),),
    default_unit="    ",
    import_types=("preproc_include",),
    part_of_types=("type_definition",),
)

RUBY = LanguageSpec(
    name="Ruby",
    grammar="ruby",
    query_file="ruby.scm",
    extensions=(".rb", ".rake", ".gemspec"),
    string_types=("string", "heredoc_body", "string_array", "symbol_array", "regex"),
    # `private def x … end`: the def is the argument of a call, which belongs to it.
    wrapper_types=("argument_list", "call"),
    prefix_types=(),
    line_comments=("#",),
    block_comments=(("=begin", "=end"),),
    # A payload that restates the call around its def: `private def`, `memoize def`.
    decorator_line=r"^[a-z_]\w*[ (]\s*def\b",
    payload_wrappers=(),
)

PHP = LanguageSpec(
    name="PHP",
    grammar="php",
    query_file="php.scm",
    extensions=(".php",),
    string_types=("string", "encapsed_string", "heredoc", "nowdoc"),
    wrapper_types=(),
    prefix_types=("attribute_list",),
    line_comments=("//", "#"),
    decorator_line=r"^#\[",
    # Without `<?php` the grammar reads everything as HTML text; a method parses inside a class.
    payload_wrappers=(("<?php\n", ""), ("<?php\nclass __kopipasta_wrapper__ {\n", "\n}\n")),
    payload_parses_alone=False,
    opening_tag="<?php",
    opening_tag_type="php_tag",
    closing_tag_type="php_end_tag",
    outside_code_type="text",
    default_unit="    ",
    # `use App\Models\Comment;` spliced into a class body is a trait `use`, not an import.
    unmerged_import=r"^use\s+\\?[A-Za-z_]\w*\\",
)

LUA = LanguageSpec(
    name="Lua",
    grammar="lua",
    query_file="lua.scm",
    extensions=(".lua",),
    string_types=("string",),
    wrapper_types=(),
    # `local` in `local function f` is a prefix: a payload without it keeps it.
    prefix_types=("local",),
    line_comments=("--",),
    block_comments=(("--[[", "]]"), ("--[==[", "]==]")),
    decorator_line=r"^local\b",
    payload_wrappers=(),
    closing_statements=("return_statement",),
)

BASH = LanguageSpec(
    name="Bash",
    grammar="bash",
    query_file="bash.scm",
    extensions=(".sh", ".bash"),
    string_types=("string", "raw_string", "ansi_c_string", "heredoc_body"),
    wrapper_types=(),
    prefix_types=(),
    line_comments=("#",),
    block_comments=(),
    decorator_line=_NO_DECORATORS,
    payload_wrappers=(),
    # A function appended after `main "$@"` would not exist yet when main runs.
    closing_statements=("command", "list", "redirected_statement", "pipeline"),
)

_SCRIPT_LANGS = (("ts", "typescript"), ("typescript", "typescript"), ("tsx", "tsx"), ("js", "javascript"),
                 ("javascript", "javascript"), ("jsx", "javascript"))

VUE = LanguageSpec(
    name="Vue",
    grammar="vue",
    query_file="",
    extensions=(".vue",),
    string_types=(),
    wrapper_types=(),
    prefix_types=(),
    embedding=Embedding(("script_element",), "javascript", _SCRIPT_LANGS, ("vue_options.scm",)),
)

SVELTE = LanguageSpec(
    name="Svelte",
    grammar="svelte",
    query_file="",
    extensions=(".svelte",),
    string_types=(),
    wrapper_types=(),
    prefix_types=(),
    embedding=Embedding(("script_element",), "javascript", _SCRIPT_LANGS),
)

# A page's `<script>` elements are one JavaScript program, as a component's are, and its
# `<style>` elements one stylesheet (issue 25).
HTML = LanguageSpec(
    name="HTML",
    grammar="html",
    query_file="",
    extensions=(".html", ".htm"),
    string_types=(),
    wrapper_types=(),
    prefix_types=(),
    embedding=Embedding(("script_element",), "javascript", _SCRIPT_LANGS, style_types=("style_element",)),
)

# Rules by selector, block at-rules by prelude, @keyframes by name (issue 25, markup_names.py).
CSS = LanguageSpec(
    name="CSS",
    grammar="css",
    query_file="css.scm",
    extensions=(".css",),
    string_types=("string_value",),
    wrapper_types=(),
    prefix_types=(),
    line_comments=(),
    decorator_line=_NO_DECORATORS,
    payload_wrappers=(),
    body_types=("block",),
    import_types=("import_statement",),
    markup_names=True,
    prelude_types=("media_statement", "supports_statement", "at_rule", "import_statement"),
)

# An HTML page's markup, where an element with an `id` is a definition (issue 25). Not a row of
# LANGUAGES: a page is the HTML row, whose element targets run on this spec (embedded.py).
HTML_MARKUP = LanguageSpec(
    name="HTML",
    grammar="html",
    query_file="html.scm",
    extensions=(".html", ".htm"),
    string_types=("raw_text",),
    wrapper_types=(),
    prefix_types=(),
    line_comments=(),
    block_comments=(("<!--", "-->"),),
    decorator_line=_NO_DECORATORS,
    payload_wrappers=(),
    import_types=(),
    markup_names=True,
)

LANGUAGES = (
    PYTHON,
    JAVASCRIPT,
    TYPESCRIPT,
    TSX,
    # issue 8
    GO,
    RUST,
    JAVA,
    CSHARP,
    KOTLIN,
    SCALA,
    SWIFT,
    C,
    CPP,
    RUBY,
    PHP,
    LUA,
    BASH,
    VUE,
    SVELTE,
    HTML,
    CSS,
)


def language_for_grammar(grammar: str) -> LanguageSpec | None:
    return next((spec for spec in LANGUAGES if spec.grammar == grammar), None)


def language_for_path(path: str) -> LanguageSpec | None:
    suffix = PurePosixPath(path).suffix.lower()
    for spec in LANGUAGES:
        if suffix in spec.extensions:
            return spec
    return None


# Each grammar's own wheel, published by the tree-sitter project (pyproject.toml pins the
# versions our queries are tested against), and the function that gives its language.
# Vue has no wheel: its single-file components parse with the HTML grammar, whose
# `script_element`, `start_tag` and `end_tag` are all embedded.py reads of the host.
GRAMMAR_PACKAGES: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    # Kotlin: see _FROM_THE_PACK.
    "scala": ("tree_sitter_scala", "language"),
    "swift": ("tree_sitter_swift", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    # `<?php` code inside HTML, as a .php file is.
    "php": ("tree_sitter_php", "language_php"),
    "lua": ("tree_sitter_lua", "language"),
    "bash": ("tree_sitter_bash", "language"),
    "vue": ("tree_sitter_html", "language"),
    "svelte": ("tree_sitter_svelte", "language"),
    "html": ("tree_sitter_html", "language"),
    "css": ("tree_sitter_css", "language"),
    "json": ("tree_sitter_json", "language"),
    "yaml": ("tree_sitter_yaml", "language"),
    "toml": ("tree_sitter_toml", "language"),
}

# Grammars whose published wheel parses into other node types than our queries are written for,
# taken from tree-sitter-language-pack 0.13 when it is installed (the `kotlin` extra): every
# tree-sitter-kotlin on the package index (1.x) is a rewrite of the grammar (`identifier` for
# `simple_identifier`, `import` for `import_header`, no `import_list`), and kotlin.scm with the
# Kotlin rows here are written for the 0.3 grammar the pack ships. Porting them to 1.x takes
# the pack out for good (docs/install.md).
_FROM_THE_PACK = {"kotlin": ("Kotlin", "kotlin")}

# Read by path: importlib.resources would import zipfile and its readers on every start (issue 9).
_QUERIES = os.path.join(os.path.dirname(__file__), "queries")


@functools.cache
def grammar_language(grammar: str) -> Language:
    """The grammar's tree-sitter Language, loading only its compiled binding.

    A grammar package's `__init__` imports importlib.resources (and with it
    zipfile and its readers) for query files kopipasta never reads, on every
    start (issue 9). So the package's `_binding` extension is loaded directly,
    under the name the package itself gives it; on any surprise (another
    layout, another platform) the package is imported as usual.
    """
    from tree_sitter import Language

    if grammar in _FROM_THE_PACK:
        try:
            return Language(_pack_binding(grammar).language())
        except ImportError:  # another layout of the pack: its own loader knows it
            from tree_sitter_language_pack import get_language

            return get_language(grammar)  # type: ignore[arg-type]
    package, function = GRAMMAR_PACKAGES[grammar]
    try:
        binding = _binding(package)
    except ImportError:
        binding = importlib.import_module(package)
    return Language(getattr(binding, function)())


def _binding(package: str) -> ModuleType:
    import importlib.util

    name = f"{package}._binding"
    if name in sys.modules:
        return sys.modules[name]
    # A top-level package's spec is found without running its __init__.
    found = importlib.util.find_spec(package)
    if found is None or not found.submodule_search_locations:
        raise ImportError(name)
    return _extension(name, next(iter(found.submodule_search_locations)), "_binding")


def _pack_binding(grammar: str) -> ModuleType:
    """The language pack's binding of `grammar`, loaded alone: the pack's `__init__` imports
    ctypes and three other grammars on every start (issue 9)."""
    import importlib.util

    name = f"tree_sitter_language_pack.bindings.{grammar}"
    if name in sys.modules:
        return sys.modules[name]
    pack = importlib.util.find_spec("tree_sitter_language_pack")
    if pack is None or not pack.submodule_search_locations:
        from kopipasta.errors import UnsupportedFile

        display, extra = _FROM_THE_PACK[grammar]
        raise UnsupportedFile(
            f"{display} files need tree-sitter-language-pack's {display} grammar, which is not installed",
            f"in kopipasta's clone, run: pip install -e '.[{extra}]'",
        )
    folder = os.path.join(next(iter(pack.submodule_search_locations)), "bindings")
    return _extension(name, folder, grammar)


def _extension(name: str, folder: str, stem: str) -> ModuleType:
    """The compiled module `folder/stem.<suffix>`, loaded as `name`."""
    import importlib.machinery
    import importlib.util

    path = next(
        (p for p in (os.path.join(folder, stem + s) for s in importlib.machinery.EXTENSION_SUFFIXES) if os.path.isfile(p)),
        None,
    )
    if path is None:
        raise ImportError(name)
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:
        raise ImportError(name)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules[name] = module
    return module


@functools.cache
def grammar_parser(grammar: str) -> Parser:
    """The one parser of a grammar for the whole run (code files here; JSON, YAML and TOML in data/)."""
    from tree_sitter import Parser

    return Parser(grammar_language(grammar))


# The mark of a pattern matched below its root in Python (`"#" + query_shapes.MARKER`), looked
# for before query_shapes is imported: a query without marks (Python's) never imports it.
_SHAPE_MARK = "#structure-in-python!"


@functools.cache
def _query(grammar: str, query_file: str, extra_queries: tuple[str, ...] = ()) -> tuple[Query, dict[int, Step]]:
    """The definitions query, and the patterns whose structure is matched in Python, by index."""
    # The main file's patterns come first: a node captured twice keeps the first pattern's kind.
    text = "\n".join(_query_text(name) for name in (query_file, *extra_queries))
    return compile_definitions_query(grammar, text)


def compile_definitions_query(grammar: str, text: str, *, native: bool = False) -> tuple[Query, dict[int, Step]]:
    """`text` compiled, each `(#structure-in-python!)` pattern as its root alone (query_shapes.py).

    `native`: every pattern compiled whole by Tree-sitter (the plain computation tests compare with).
    """
    from tree_sitter import Query

    if native or _SHAPE_MARK not in text:
        return Query(grammar_language(grammar), text), {}
    from kopipasta.syntax import query_shapes

    compiled, shared_steps = query_shapes.compiled_patterns(text)
    steps = dict(shared_steps)  # the cached split is shared (TypeScript and TSX): the caller's own copy
    query = Query(grammar_language(grammar), "\n".join(compiled))
    # Each marked pattern must keep its index: the split must see the patterns Tree-sitter sees.
    if query.pattern_count != len(compiled):
        raise query_shapes.ShapeError(f"{len(compiled)} patterns split, {query.pattern_count} compiled")
    return query, steps


def _query_text(name: str) -> str:
    with open(os.path.join(_QUERIES, name), encoding="utf-8") as handle:
        return handle.read()


def parse(spec: LanguageSpec, data: bytes) -> Tree:
    return grammar_parser(spec.grammar).parse(data)


def _point(data: bytes, offset: int) -> tuple[int, int]:
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def _point_after(data: bytes, start: int, start_row: int, offset: int) -> tuple[int, int]:
    """`_point(data, offset)` for an offset at or after `start`, whose row is `start_row`."""
    if offset < start:
        return _point(data, offset)
    return start_row + data.count(b"\n", start, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


@dataclass(frozen=True)
class Change:
    """Where an edit sits: bytes [start, old_end) became [start, new_end)."""

    start: int
    old_end: int
    new_end: int


def reparse(spec: LanguageSpec, old_data: bytes, old_tree: Tree, data: bytes, change: Change | None) -> Tree:
    """Parse `data`, reusing the old tree around a known edit: a big file reparses in little time."""
    if change is None:
        return parse(spec, data)
    tree = old_tree.copy()  # the caller's tree stays valid for its own data
    start_point = _point(old_data, change.start)
    tree.edit(
        start_byte=change.start,
        old_end_byte=change.old_end,
        new_end_byte=change.new_end,
        start_point=start_point,
        # Both versions hold the same bytes before the edit: its ends' rows are counted from its start.
        old_end_point=_point_after(old_data, change.start, start_point[0], change.old_end),
        new_end_point=_point_after(data, change.start, start_point[0], change.new_end),
    )
    return grammar_parser(spec.grammar).parse(data, tree)


@functools.cache
def _types_query(grammar: str, types: tuple[str, ...]) -> Query:
    from tree_sitter import Query

    alternatives = " ".join(f"({t})" for t in dict.fromkeys(types))
    return Query(grammar_language(grammar), f"[{alternatives}] @node")


def nodes_of_types(
    spec: LanguageSpec, root: Node, types: tuple[str, ...], rows: int | None = None
) -> list[Node]:
    """Every node of the given types under root (touching its first `rows` rows, if given).

    A query runs in C where a Python walk over the tree would crawl.
    """
    from tree_sitter import Point, QueryCursor

    cursor = QueryCursor(_types_query(spec.grammar, types))
    if rows is not None:
        cursor.set_point_range(Point(0, 0), Point(rows, 0))
    return cursor.captures(root).get("node", [])


def query_matches(
    spec: LanguageSpec, root: Node, byte_range: tuple[int, int] | None = None
) -> list[tuple[int, dict[str, list[Node]]]]:
    """All matches of the language's definitions query (those touching `byte_range`, if given)."""

    query, shaped = _query(spec.grammar, spec.query_file, spec.extra_queries)
    return run_definitions_query(query, shaped, root, byte_range)


def run_definitions_query(
    query: Query, shaped: dict[int, Step], root: Node, byte_range: tuple[int, int] | None = None
) -> list[tuple[int, dict[str, list[Node]]]]:
    """The matches of a query from `compile_definitions_query`, the Python-matched patterns expanded."""
    from tree_sitter import QueryCursor

    cursor = QueryCursor(query)
    if byte_range is not None:
        cursor.set_byte_range(*byte_range)
    # Our own predicates are not known to tree-sitter, which would let every match through
    # without this callback: run the definitions query only here.
    matches = cursor.matches(root, _predicate)
    if not shaped:
        return matches
    from kopipasta.syntax import query_shapes

    # A root-only pattern's match stands for every match the whole pattern has at that root
    # (the byte range limits where a match may start, as for a native pattern: its root).
    matcher = query_shapes.Matcher()
    expanded: list[tuple[int, dict[str, list[Node]]]] = []
    for index, captures in matches:
        step = shaped.get(index)
        if step is None:
            expanded.append((index, captures))
            continue
        for found in matcher.matches(step, captures[query_shapes.ROOT_CAPTURE][0]):
            expanded.append((index, query_shapes.grouped(found)))
    return expanded


def _predicate(
    predicate: str, args: list[tuple[str, Literal["capture", "string"]]], pattern_index: int, captures: dict[str, list[Node]]
) -> bool:
    """The queries' own predicates; tree-sitter's (#eq?, #match?, …) never reach here.

    `(#first-argument-is? @call type …)`: the captured call's argument list
    starts with a node of one of the types, as `(call_expression arguments:
    (arguments . [(type) …]))` would say. A pattern nested under call_expression
    costs ~2.5 ms of query compilation in the TypeScript grammars (issue 9);
    this costs nothing until a match needs it. An uncaptured @call (another
    alternative matched) passes.
    """
    if predicate == "structure-in-python!":
        return True  # the marker (query_shapes.py), met here only when the pattern is compiled whole
    if predicate == "first-argument-is?":
        types = {value for value, kind in args[1:]}
        return all(_first_argument_is(call, types) for call in captures.get(args[0][0], []))
    if predicate == "decorated-as-overload?":
        return all(_decorated_as_overload(node) for node in captures.get(args[0][0], []))
    raise ValueError(f"unknown query predicate #{predicate}")


def _first_argument_is(call: Node, types: set[str]) -> bool:
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.type != "arguments":
        return False  # no argument list (a tagged template: memo`…`)
    # The `.` anchor's first child: the first named node, a comment included.
    first = next((child for child in arguments.children if child.is_named), None)
    return first is not None and first.type in types


def _decorated_as_overload(definition: Node) -> bool:
    """A Python decorated definition with a decorator `overload` or `x.overload`.

    What `(decorator [(identifier) (attribute attribute: (identifier))] @d (#match? @d
    "(^|\\.)overload$"))` among its children says: a decorator child that is an
    identifier, or an attribute whose attribute is one, whose text ends the name
    `overload` (such a node's text never ends in a newline, where `$` would also match).
    """
    for decorator in definition.children:
        if decorator.type != "decorator":
            continue
        for child in decorator.children:
            if child.type == "identifier" or (
                child.type == "attribute"
                and (attribute := child.child_by_field_name("attribute")) is not None
                and attribute.type == "identifier"
            ):
                text = (child.text or b"").decode("utf-8", "replace")
                if text == "overload" or text.endswith(".overload"):
                    return True
    return False


def error_count(spec: LanguageSpec, root: Node) -> int:
    """ERROR and MISSING nodes under root, the grammar's known quirks left out (0 for a clean tree).

    A MISSING token the grammar hides (Kotlin's automatic semicolon) is not
    among a node's children; only the tree's S-expression shows it.
    """
    if not root.has_error:
        return 0
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error and spec.prelude_types and _in_prelude(spec, node):
            continue
        if node.is_error or node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    text = s_expression(root)
    hidden = text.count("(MISSING ") - sum(text.count(f"(MISSING {quirk})") for quirk in spec.quirk_missing)
    visible_missing = _visible_missing(root)
    return count + max(hidden - visible_missing, 0)


# Tree-sitter writes a node's S-expression recursively in C, one frame (~320 bytes,
# measured) per level of nesting: on the main thread's 8 MB stack a 50 KB line of
# `a/a/a/…` (25,000 levels) killed the process with SIGSEGV. A node can nest no
# deeper than it has bytes (plus a few zero-width nodes), so a small node is
# written here, a bigger one on a thread whose stack fits its width.
_INLINE_BYTES = 8_000
_FRAME_BYTES = 512
_MAX_STACK = 1 << 30


def s_expression(node: Node) -> str:
    """str(node), on a stack deep enough for any nesting its bytes can hold.

    Raises RecursionError (which callers report as "nested too deeply") when that
    stack would be over 1 GB and the node really nests that deep.
    """
    width = node.end_byte - node.start_byte
    if width <= _INLINE_BYTES:
        return str(node)
    stack = width * _FRAME_BYTES + (16 << 20)
    if stack > _MAX_STACK:
        if _depth(node) * _FRAME_BYTES + (16 << 20) > _MAX_STACK:
            raise RecursionError("the syntax tree is nested too deeply")
        stack = _MAX_STACK
    return _on_thread(lambda: str(node), stack)


def _on_thread(work: Callable[[], str], stack: int) -> str:
    import threading

    result: list[str] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as error:  # handed to the caller's thread
            failure.append(error)

    previous = threading.stack_size(stack)
    try:
        worker = threading.Thread(target=run, name="kopipasta-sexp")
        worker.start()
    except (RuntimeError, MemoryError) as error:  # the stack could not be mapped
        raise MemoryError("no memory for a stack deep enough to read the syntax tree") from error
    finally:
        threading.stack_size(previous)
    worker.join()
    if failure:
        raise failure[0]
    return result[0]


def _depth(node: Node) -> int:
    """How deep the tree under node nests, walked with a cursor (no recursion)."""
    cursor = node.walk()
    depth = deepest = 0
    while True:
        if cursor.goto_first_child():
            depth += 1
            deepest = max(deepest, depth)
            continue
        while not cursor.goto_next_sibling():
            if depth == 0 or not cursor.goto_parent():
                return deepest
            depth -= 1


def _in_prelude(spec: LanguageSpec, error: Node) -> bool:
    """An ERROR with nothing MISSING inside an at-rule's prelude, whose block (or `;`) the grammar read."""
    if error.has_error and any(c.is_missing or c.has_error for c in error.children):
        return False
    statement = error.parent
    while statement is not None and statement.type not in spec.prelude_types:
        if statement.type in ("block", "stylesheet") or statement.is_error:
            return False  # inside a block: a declaration or a rule the grammar could not read
        statement = statement.parent
    if statement is None or statement.has_error and _missing_below(statement):
        return False
    block = next((c for c in statement.children if c.type == "block"), None)
    if block is not None:
        return error.end_byte <= block.start_byte
    last = statement.children[-1] if statement.children else None
    return last is not None and last.type == ";" and not last.is_missing


def _missing_below(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_missing:
            return True
        stack.extend(c for c in current.children if c.has_error or c.is_missing)
    return False


def _visible_missing(root: Node) -> int:
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return count


def has_syntax_error(spec: LanguageSpec, root: Node) -> bool:
    return error_count(spec, root) > 0


def first_error(root: Node) -> Node | None:
    """The first ERROR or MISSING node in document order, or None for a clean tree."""
    if not root.has_error:
        return None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            return node
        stack.extend(child for child in reversed(node.children) if child.has_error or child.is_missing)
    return None
