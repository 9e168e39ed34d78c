"""What the README promises about start-up: only the grammars a reply needs, no jinja2 or rich for --json.

And issue 9: a reply pays at start-up only for what it uses. A Python-only
TARGET_NODE reply imports none of the modules of the features it does not use.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, sys
from kopipasta.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

# Not imported by a TARGET_NODE reply on a Python file, with --json or a piped report: each
# name with its submodules (a name ending in "." stands for the submodules only).
NOT_FOR_A_PYTHON_TARGET_NODE = (
    # output and other commands; the MCP server's SDK (and its pydantic, anyio) only for `kopipasta mcp`
    "rich", "jinja2", "pyperclip", "libcst", "mcp", "pydantic", "anyio", "kopipasta.agents",
    "kopipasta.loop.session", "kopipasta.loop.prompt", "kopipasta.loop.prompt_examples", "kopipasta.loop.fences", "kopipasta.code.read.inventory", "kopipasta.loop.selection",
    "kopipasta.loop.clipboard", "kopipasta.loop.feedback", "kopipasta.loop.verify", "kopipasta.loop.applystats",
    # the file picker and the token count (issue 21): a session's, a prompt's
    "prompt_toolkit", "tiktoken", "kopipasta.loop.picker", "kopipasta.loop.picked", "kopipasta.loop.tokens",
    # the language pack (Kotlin's grammar only); the grammar packages' __init__ (importlib.resources),
    # their bindings being pinned exactly by `watched`
    "tree_sitter_language_pack", "importlib.resources",
    # features the reply does not use: text patches, data paths, insertions, merges, file blocks,
    # Vue/Svelte, statement imports of other languages, "did you mean" for missing files
    "kopipasta.text", "kopipasta.intake.textpatch_syntax", "kopipasta.intake.unfenced", "kopipasta.data.", "kopipasta.data.json", "kopipasta.code.edit.insert", "kopipasta.code.edit.append", "kopipasta.code.edit.spacing", "kopipasta.code.edit.mergeplan",
    "kopipasta.code.edit.line_merge", "kopipasta.code.read.line_anchored", "kopipasta.code.read.line_runs", "kopipasta.code.read.line_plan", "kopipasta.code.read.line_levels", "kopipasta.code.read.line_reading", "kopipasta.code.read.reading", "kopipasta.code.read.embedded", "kopipasta.code.imports.statement_imports",
    "kopipasta.code.find.samename",
    # the data formats' parsers: imported when a YAML/TOML file is set or checked (data/wellformed.py)
    "yaml", "tomllib", "tomli",
    # a payload that is plainly its target: no merge, no members, no import merging (the payload
    # brings no imports); no staleness without a prompt record; no undo, which an apply only
    # records for (issue 9, start-up round 3)
    "kopipasta.code.edit.merge", "kopipasta.code.read.members", "kopipasta.code.read.fields", "kopipasta.code.imports.import_merge", "kopipasta.code.read.staleness",
    "kopipasta.disk.undo",
    # patterns matched below their root in Python: only queries with marked patterns (not Python's)
    "kopipasta.syntax.query_shapes",
    # stdlib a small apply does not need: OpenSSL for hashing, zip readers for query files,
    # textwrap for a payload at column 0 (kopipasta/startup/dedent.py)
    "_hashlib", "zipfile", "tempfile", "textwrap",
)
# Exactly these, not their submodules: a grammar package's __init__ (which imports importlib.resources
# for query files kopipasta does not read); the one binding needed is loaded alone.
NOT_FOR_A_PYTHON_TARGET_NODE_EXACTLY = ("tree_sitter_python", "tree_sitter_javascript", "tree_sitter_typescript")


# What listing definitions does not need: the apply's pipeline, its writes and its journal.
NOT_FOR_NODES = {
    f"kopipasta.{name}"
    for name in (
        "engine", "code.edit.operations", "intake.reader", "model", "report", "code.edit.splice", "code.find.document", "code.layout.render", "code.layout.indent",
        "startup.dedent", "code.imports.imports", "code.find.resolve", "intake.directives", "code.edit.replace", "code.find.placement", "intake.plan", "code.read.wholefile",
        "disk.journal", "loop.applylog", "code.find.shape", "code.find.overloads", "code.read.hints", "disk.transaction", "disk.lock",
        "disk.manifest", "disk.digest",
    )
}


def loaded_modules(tmp_path: Path, *args: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    return json.loads(result.stderr.strip().splitlines()[-1])


def watched(loaded: list[str]) -> list[str]:
    return [m for m in loaded if m.startswith(("jinja2", "rich")) or (m.startswith("tree_sitter_") and m.endswith("._binding"))]


def unwanted(loaded: list[str]) -> list[str]:
    return [
        m
        for m in loaded
        if m in NOT_FOR_A_PYTHON_TARGET_NODE_EXACTLY
        or any(
            m.startswith(name) if name.endswith(".") else m == name or m.startswith(name + ".")
            for name in NOT_FOR_A_PYTHON_TARGET_NODE
        )
    ]


def test_a_python_reply_with_json_loads_one_grammar_and_no_rich_or_jinja2(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    (tmp_path / "reply.md").write_text("```python\n# FILE: app.py\n# TARGET_NODE: f\ndef f():\n    return 2\n```\n")
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert watched(loaded) == ["tree_sitter_python._binding"]
    assert (tmp_path / "app.py").read_text() == "def f():\n    return 2\n"


def test_a_tsx_reply_loads_the_tsx_grammar_only(tmp_path: Path) -> None:
    (tmp_path / "A.tsx").write_text("export function A() {\n  return <div />;\n}\n")
    (tmp_path / "reply.md").write_text(
        "```tsx\n// FILE: A.tsx\n// TARGET_NODE: function A\nfunction A() {\n  return <span />;\n}\n```\n"
    )
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert watched(loaded) == ["tree_sitter_typescript._binding"]


def test_the_human_report_on_a_pipe_loads_neither_rich_nor_jinja2(tmp_path: Path) -> None:
    # Not a terminal: the report is plain lines (kopipasta/plain.py), so rich is not even imported.
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    (tmp_path / "reply.md").write_text("```python\n# FILE: app.py\n# TARGET_NODE: f\ndef f():\n    return 2\n```\n")
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--diff")
    assert watched(loaded) == ["tree_sitter_python._binding"]


def test_a_go_reply_loads_the_go_grammar_only(tmp_path: Path) -> None:
    (tmp_path / "main.go").write_text('package main\n\nimport "fmt"\n\nfunc hello() {\n\tfmt.Println("hi")\n}\n')
    (tmp_path / "reply.md").write_text(
        "```go\n// FILE: main.go\n// TARGET_NODE: func hello\n"
        'import "os"\n\nfunc hello() {\n    fmt.Fprintln(os.Stderr, "hi")\n}\n```\n'
    )
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert watched(loaded) == ["tree_sitter_go._binding"]
    assert (tmp_path / "main.go").read_text() == (
        'package main\n\nimport "fmt"\nimport "os"\n\nfunc hello() {\n\tfmt.Fprintln(os.Stderr, "hi")\n}\n'
    )


PYTHON_FILE = (
    '"""Orders."""\n\nimport math\n\n\nclass Cart:\n    def total(self, items):\n        return sum(items)\n\n'
    "    def tax(self, amount):\n        return math.ceil(amount * 0.2)\n"
)
PYTHON_REPLY = (
    "Round the tax down:\n\n```python\n# FILE: cart.py\n# TARGET_NODE: method Cart.tax\n"
    "def tax(self, amount):\n    return math.floor(amount * 0.2)\n```\n"
)


def test_a_python_target_node_reply_imports_only_what_it_runs(tmp_path: Path) -> None:
    (tmp_path / "cart.py").write_text(PYTHON_FILE)
    (tmp_path / "reply.md").write_text(PYTHON_REPLY)
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert unwanted(loaded) == []
    # No diff is shown, and the one changed line is counted without a matcher (line_counts.py).
    assert "difflib" not in loaded
    assert watched(loaded) == ["tree_sitter_python._binding"]
    assert (tmp_path / "cart.py").read_text() == PYTHON_FILE.replace("math.ceil", "math.floor")


def test_a_piped_report_of_a_python_target_node_reply_imports_only_what_it_runs(tmp_path: Path) -> None:
    (tmp_path / "cart.py").write_text(PYTHON_FILE)
    (tmp_path / "reply.md").write_text(PYTHON_REPLY)
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--diff")
    assert unwanted(loaded) == []
    assert watched(loaded) == ["tree_sitter_python._binding"]
    assert (tmp_path / "cart.py").read_text() == PYTHON_FILE.replace("math.ceil", "math.floor")


def test_a_text_patch_reply_loads_the_text_patch_modules_it_runs(tmp_path: Path) -> None:
    # The other side of the denylist: the modules stay out only while their feature is unused.
    (tmp_path / "cart.py").write_text(PYTHON_FILE)
    (tmp_path / "reply.md").write_text(
        "```diff\n--- a/cart.py\n+++ b/cart.py\n@@ -11 +11 @@\n"
        "-        return math.ceil(amount * 0.2)\n+        return math.floor(amount * 0.2)\n```\n"
    )
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert "kopipasta.text.files" in loaded
    assert "kopipasta.intake.textpatch_syntax" in loaded
    assert (tmp_path / "cart.py").read_text() == PYTHON_FILE.replace("math.ceil", "math.floor")


def test_an_elided_payload_with_imports_loads_the_merge_it_runs(tmp_path: Path) -> None:
    # The other side of the merge shortcut: a payload that elides, and brings an import.
    (tmp_path / "cart.py").write_text(PYTHON_FILE)
    (tmp_path / "reply.md").write_text(
        "```python\n# FILE: cart.py\n# TARGET_NODE: class Cart\nimport decimal\n\n\nclass Cart:\n"
        "    # ... existing code ...\n\n    def tax(self, amount):\n        return math.floor(amount * 0.2)\n```\n"
    )
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert {"kopipasta.code.edit.line_merge", "kopipasta.code.read.line_anchored", "kopipasta.code.read.line_runs", "kopipasta.code.read.line_reading", "kopipasta.code.read.members", "kopipasta.code.imports.import_merge"} <= set(loaded)
    assert "kopipasta.code.read.staleness" not in loaded
    assert (tmp_path / "cart.py").read_text() == PYTHON_FILE.replace("import math\n", "import decimal\nimport math\n").replace(
        "math.ceil", "math.floor"
    )


def test_a_project_a_prompt_recorded_loads_the_staleness_check(tmp_path: Path) -> None:
    (tmp_path / "cart.py").write_text(PYTHON_FILE)
    (tmp_path / "reply.md").write_text(PYTHON_REPLY)
    prompt = subprocess.run(
        [sys.executable, "-m", "kopipasta", "prompt", "cart.py", "-t", "Round the tax down", "--stdout"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert prompt.returncode == 0 and (tmp_path / ".kopipasta" / "prompted.json").is_file()
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert "kopipasta.code.read.staleness" in loaded
    assert (tmp_path / "cart.py").read_text() == PYTHON_FILE.replace("math.ceil", "math.floor")


def test_nodes_on_a_pipe_lists_plain_lines_without_rich(tmp_path: Path) -> None:
    (tmp_path / "cart.py").write_text(PYTHON_FILE)
    (tmp_path / "empty.py").write_text("x = 1\n")
    loaded = loaded_modules(tmp_path, "nodes", "cart.py", "empty.py")
    assert [m for m in loaded if m.startswith("rich")] == []
    # Listing code files needs neither the apply's model and report nor Vue/Svelte (json: the probe's own).
    assert [m for m in loaded if m in ("kopipasta.model", "kopipasta.report", "kopipasta.code.read.embedded")] == []
    # Nor anything else of the apply (issue 9, nodes round 2), nor the Python matcher for a
    # Python file's query (it has no marked patterns).
    assert [m for m in loaded if m in NOT_FOR_NODES or m == "kopipasta.syntax.query_shapes"] == []
    assert [m for m in unwanted(loaded) if m != "kopipasta.code.read.inventory"] == []
    listing = subprocess.run(
        [sys.executable, "-m", "kopipasta", "nodes", "cart.py", "empty.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert listing.stdout == (
        "cart.py\n"
        "  class     Cart        6-11\n"
        "  method    Cart.total  7-8\n"
        "  method    Cart.tax    10-11\n"
        "\n"
        "empty.py\n"
        "  variable  x           1\n"
    )


def test_nodes_on_typescript_imports_the_python_matcher_and_no_more(tmp_path: Path) -> None:
    (tmp_path / "cart.ts").write_text("export class Cart {\n  total(): number { return 1; }\n}\n")
    loaded = loaded_modules(tmp_path, "nodes", "cart.ts")
    assert "kopipasta.syntax.query_shapes" in loaded  # TypeScript's query has marked patterns
    assert [m for m in loaded if m in NOT_FOR_NODES or m.startswith("rich")] == []
    assert [m for m in unwanted(loaded) if m not in ("kopipasta.code.read.inventory", "kopipasta.syntax.query_shapes")] == []
    assert [m for m in loaded if m.startswith("tree_sitter_") and m.endswith("._binding")] == ["tree_sitter_typescript._binding"]


def test_a_prompt_of_named_files_does_not_import_the_gitignore_matcher(tmp_path: Path) -> None:
    # pathspec reads .gitignore for a walk or a glob; files named one by one need no matching.
    (tmp_path / "cart.py").write_text(PYTHON_FILE)
    (tmp_path / ".gitignore").write_text("*.log\n")
    loaded = loaded_modules(tmp_path, "prompt", "cart.py", "-t", "Round the tax down", "--stdout")
    assert [m for m in loaded if m.startswith("pathspec")] == []
    assert "tomllib" not in loaded  # no pyproject.toml or kopipasta.toml to read
    walked = loaded_modules(tmp_path, "prompt", ".", "-t", "Round the tax down", "--stdout")
    assert "pathspec" in walked


def test_a_prompt_loads_neither_the_picker_nor_a_tokenizer_it_does_not_need(tmp_path: Path) -> None:
    # prompt_toolkit only when the picker opens; a printed prompt far under `token_warning` is not counted.
    (tmp_path / "cart.py").write_text(PYTHON_FILE)
    loaded = loaded_modules(tmp_path, "prompt", "cart.py", "-t", "Round the tax down", "--stdout")
    assert [m for m in loaded if m.startswith(("prompt_toolkit", "tiktoken", "kopipasta.loop.picker"))] == []


def test_each_grammar_loads_the_language_its_package_gives() -> None:
    # The shortcut: the package's `_binding` extension loaded alone (languages._binding). The plain
    # computation: the package imported as usual and its own function called.
    import importlib

    from tree_sitter import Language

    from kopipasta.syntax import languages

    for grammar, (package, function) in languages.GRAMMAR_PACKAGES.items():
        expected = Language(getattr(importlib.import_module(package), function)())
        assert languages.grammar_language(grammar) == expected, grammar


def test_kotlin_loads_from_the_language_pack_folder() -> None:
    from tree_sitter_language_pack import get_language

    from kopipasta.syntax import languages

    assert languages.grammar_language("kotlin") == get_language("kotlin")


def test_an_apply_reads_the_format_setting_without_tomllib_when_pyproject_has_no_kopipasta(tmp_path: Path) -> None:
    # `apply` looks for the `format` setting (issue 21); a pyproject.toml without [tool.kopipasta]
    # is not parsed, so an apply in an ordinary Python project does not import tomllib for it.
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "shop"\n')
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    (tmp_path / "reply.md").write_text("```python\n# FILE: app.py\n# TARGET_NODE: f\ndef f():\n    return 2\n```\n")
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert "tomllib" not in loaded and "tomli" not in loaded
    assert (tmp_path / "app.py").read_text() == "def f():\n    return 2\n"
