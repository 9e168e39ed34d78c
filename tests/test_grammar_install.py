"""The grammars come from their own wheels; Kotlin's from the `kotlin` extra, refused in one line without it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# The language pack made invisible, as in an install without the `kotlin` extra.
WITHOUT_THE_PACK = """
import importlib.util, sys
real = importlib.util.find_spec
importlib.util.find_spec = lambda name, *a: None if name.startswith("tree_sitter_language_pack") else real(name, *a)
from kopipasta.cli import main
main(sys.argv[1:])
"""


def test_a_kotlin_reply_without_the_kotlin_extra_is_refused_with_the_install_line(tmp_path: Path) -> None:
    source = "class A {\n    fun f() = 1\n}\n"
    (tmp_path / "A.kt").write_text(source)
    (tmp_path / "reply.md").write_text("```kotlin\n// FILE: A.kt\n// TARGET_NODE: A.f\nfun f() = 2\n```\n")
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_THE_PACK, "apply", "reply.md"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert (
        "Kotlin files need tree-sitter-language-pack's Kotlin grammar, which is not installed — "
        "in kopipasta's clone, run: pip install -e '.[kotlin]'"
    ) in done.stdout
    assert (tmp_path / "A.kt").read_text() == source


def test_a_python_reply_needs_no_language_pack(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    (tmp_path / "reply.md").write_text("```python\n# FILE: app.py\n# TARGET_NODE: f\ndef f():\n    return 2\n```\n")
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_THE_PACK, "apply", "reply.md"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "app.py").read_text() == "def f():\n    return 2\n"
