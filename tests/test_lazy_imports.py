"""What the README promises about start-up: only the grammars a reply needs, no jinja2 or rich for --json."""

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
loaded = sorted(m for m in sys.modules if m.startswith(("jinja2", "rich", "tree_sitter_language_pack.bindings.")))
print(json.dumps(loaded), file=sys.stderr)
"""


def loaded_modules(tmp_path: Path, *args: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    return json.loads(result.stderr.strip().splitlines()[-1])


def test_a_python_reply_with_json_loads_one_grammar_and_no_rich_or_jinja2(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    (tmp_path / "reply.md").write_text("```python\n# FILE: app.py\n# TARGET_NODE: f\ndef f():\n    return 2\n```\n")
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert loaded == ["tree_sitter_language_pack.bindings.python"]
    assert (tmp_path / "app.py").read_text() == "def f():\n    return 2\n"


def test_a_tsx_reply_loads_the_tsx_grammar_only(tmp_path: Path) -> None:
    (tmp_path / "A.tsx").write_text("export function A() {\n  return <div />;\n}\n")
    (tmp_path / "reply.md").write_text(
        "```tsx\n// FILE: A.tsx\n// TARGET_NODE: function A\nfunction A() {\n  return <span />;\n}\n```\n"
    )
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert loaded == ["tree_sitter_language_pack.bindings.tsx"]


def test_the_human_report_on_a_pipe_loads_neither_rich_nor_jinja2(tmp_path: Path) -> None:
    # Not a terminal: the report is plain lines (kopipasta/plain.py), so rich is not even imported.
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    (tmp_path / "reply.md").write_text("```python\n# FILE: app.py\n# TARGET_NODE: f\ndef f():\n    return 2\n```\n")
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--diff")
    assert loaded == ["tree_sitter_language_pack.bindings.python"]


def test_a_go_reply_loads_the_go_grammar_only(tmp_path: Path) -> None:
    (tmp_path / "main.go").write_text('package main\n\nimport "fmt"\n\nfunc hello() {\n\tfmt.Println("hi")\n}\n')
    (tmp_path / "reply.md").write_text(
        "```go\n// FILE: main.go\n// TARGET_NODE: func hello\n"
        'import "os"\n\nfunc hello() {\n    fmt.Fprintln(os.Stderr, "hi")\n}\n```\n'
    )
    loaded = loaded_modules(tmp_path, "apply", "reply.md", "--json")
    assert loaded == ["tree_sitter_language_pack.bindings.go"]
    assert (tmp_path / "main.go").read_text() == (
        'package main\n\nimport "fmt"\nimport "os"\n\nfunc hello() {\n\tfmt.Fprintln(os.Stderr, "hi")\n}\n'
    )
