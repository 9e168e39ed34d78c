"""Issue 18: a reply is hostile input. Mutated replies over real files, through the real
CLI process: the exit status is 0, 1 or 2 (never a signal), no traceback is printed, and
every file that changed is one the reply names.

The project is real code and data: modules of the installed click, rich and jinja2 (read
from the venv at test time), and JSON, YAML and TOML files. Each reply starts from blocks
that would apply (a definition restated under TARGET_NODE, a search/replace, a diff, a
TARGET_PATH value, a whole file) and is then mutated: characters inserted, deleted or
repeated, lines duplicated or cut, nesting piled up, the reply truncated.
`KOPIPASTA_FUZZ_EXAMPLES` sets the count (the `slow` run: 10× more).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from reliability import environment, snapshot

EXAMPLES = int(os.environ.get("KOPIPASTA_FUZZ_EXAMPLES", "20"))
MODULES = [("click", "formatting.py"), ("click", "parser.py"), ("rich", "padding.py"), ("jinja2", "utils.py")]
DATA = {
    "package.json": json.dumps(
        {"name": "demo", "version": "1.0.0", "scripts": {"test": "jest", "build": "tsc"},
         "dependencies": {"react": "^18.2.0", "zod": "^3.22.0"}}, indent=2) + "\n",
    "config/app.yaml": "# service settings\nname: web\nreplicas: 2\nports:\n  - 80\n  - 443\n"
                       "defaults: &defaults\n  retries: 3\nprod:\n  <<: *defaults\n  replicas: 5\n",
    "pyproject.toml": '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.ruff]\nline-length = 100\n',
}


def _real_sources() -> dict[str, str]:
    files: dict[str, str] = {}
    for package, name in MODULES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.origin is not None, package
        files[f"lib/{package}_{name}"] = (Path(spec.origin).parent / name).read_text(encoding="utf-8")
    return {**files, **DATA}


SOURCES = _real_sources()


def _definitions(text: str) -> list[tuple[str, str]]:
    """(target, source) of each top-level function and class of a Python module."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.end_lineno is not None:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            found.append((node.name, "".join(lines[start - 1 : node.end_lineno])))
    return found


DEFINITIONS = {path: _definitions(text) for path, text in SOURCES.items() if path.endswith(".py")}


@st.composite
def base_block(draw: st.DrawFn) -> str:
    path = draw(st.sampled_from(sorted(SOURCES)))
    text = SOURCES[path]
    lines = text.splitlines()
    form = draw(st.sampled_from(["target", "search", "diff", "whole", "path"] if path.endswith(".py")
                                else ["search", "whole", "path"]))
    if form == "target" and DEFINITIONS[path]:
        name, source = draw(st.sampled_from(DEFINITIONS[path]))
        return f"```python\n# FILE: {path}\n# TARGET_NODE: {name}\n{source}```\n"
    if form == "path" or (form == "target" and not DEFINITIONS[path]):
        key = draw(st.sampled_from(["version", "scripts.test", "dependencies.react", "replicas", "ports[1]",
                                    "prod.replicas", "tool.ruff.line-length", "project.name", "name"]))
        value = draw(st.sampled_from(['"2.0.0"', "7", "[1, 2]", "{a: 1}", '"x"', "null", "- a\n- b"]))
        return f"```\n// FILE: {path}\n// TARGET_PATH: {key}\n{value}\n```\n"
    start = draw(st.integers(0, max(len(lines) - 1, 0)))
    chunk = lines[start : start + draw(st.integers(1, 6))]
    changed = [line + "  # changed" if i == 0 else line for i, line in enumerate(chunk)]
    if form == "search":
        old, new = "\n".join(chunk), "\n".join(changed)
        return f"{path}\n```\n<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n```\n"
    if form == "diff":
        body = "".join(f"-{line}\n" for line in chunk) + "".join(f"+{line}\n" for line in changed)
        return f"```diff\n--- a/{path}\n+++ b/{path}\n@@ -{start + 1},{len(chunk)} +{start + 1},{len(chunk)} @@\n{body}```\n"
    return f"```\n# FILE: {path}\n{text}```\n"


NASTY = ["a/" * 25_000, "(" * 3000, "[" * 3000, "{{", "<<<<<<< SEARCH", "=======", "\x1b]52;c;eA==\x07",
         "\x00", "\ufeff", "*** Begin Patch", "@@ -1 +1 @@", "```", "~~~~", "# FILE: ../x.py", "&a [*a, *a]", "\r"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = "\n".join(draw(st.lists(base_block(), min_size=1, max_size=3)))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "repeat", "nasty", "dupline", "truncate"]))
        if kind == "insert":
            text = text[:at] + draw(st.text(min_size=1, max_size=8)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif kind == "repeat":
            text = text[:at] + text[at : at + 20] * draw(st.integers(2, 50)) + text[at:]
        elif kind == "nasty":
            text = text[:at] + draw(st.sampled_from(NASTY)) + text[at:]
        elif kind == "dupline":
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines.insert(k, lines[k])
            text = "\n".join(lines)
        else:
            text = text[: max(at, 1)]
    return text


def _run(reply: str) -> None:
    with tempfile.TemporaryDirectory() as base:
        root = Path(base) / "project"
        for path, text in SOURCES.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        before = snapshot(root)
        result = subprocess.run(
            [sys.executable, "-m", "kopipasta", "apply", "--json", "-"], cwd=root, input=reply.encode("utf-8", "surrogatepass"),
            capture_output=True, timeout=120, env=environment(),
        )
        output = (result.stdout + result.stderr).decode("utf-8", "replace")
        assert result.returncode in (0, 1, 2), f"exit {result.returncode}\n{output[-2000:]}"
        assert "Traceback" not in output, output[-3000:]
        event(f"exit {result.returncode}")
        after = snapshot(root)
        changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
        event("wrote files" if changed else "wrote nothing")
        for name in changed:
            assert name.rstrip("/") in reply, f"{name} changed, yet the reply never names it"
        assert sorted(os.listdir(base)) == ["project"], "nothing is written beside the project"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(reply=mutated())
def test_mutated_replies_over_real_files(reply: str) -> None:
    _run(reply)


@pytest.mark.slow
@settings(max_examples=EXAMPLES * 10, deadline=None, suppress_health_check=list(HealthCheck))
@given(reply=mutated())
def test_mutated_replies_over_real_files_longer(reply: str) -> None:
    _run(reply)
