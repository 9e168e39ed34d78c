"""The languages kopipasta reads, as data: one `LanguageSpec` row per language.

A language is a row here and a query file in `queries/`; the grammars behind
the rows are loaded (lazily, from their wheels) by `syntax/languages.py`, which
is also where callers import these names from.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath


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
