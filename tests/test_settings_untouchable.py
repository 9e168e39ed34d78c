"""A reply may not choose what kopipasta runs or reads (issue 18, item 1).

kopipasta.toml and [tool.kopipasta] name the prompt template the next
`prompt` renders: a reply that could write them could run a command on the
user's next prompt, or send a file from outside the project to the model.
Every block form on them is refused, templates render in jinja2's sandbox,
and the `template` setting is confined to the project root.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from cli_process import kopipasta

MARKER = "pwned.marker"
# What the attack put in the template: a shell command through a plain Environment's globals.
PAYLOAD = "{{ lipsum.__globals__['os'].system('touch " + MARKER + "') }}"


def _project(root: Path) -> Path:
    root.mkdir()
    (root / "app.py").write_text("def total(items):\n    return sum(items)\n", encoding="utf-8")
    return root


def _apply(root: Path, reply: str, *args: str):  # type: ignore[no-untyped-def]
    (root.parent / "reply.md").write_text(reply, encoding="utf-8")
    return kopipasta("apply", str(root.parent / "reply.md"), "--allow-delete", *args, cwd=root)


ATTACK = f"""Two files:

```toml
# FILE: kopipasta.toml
template = "docs/prompt.j2"
```

```jinja
// FILE: docs/prompt.j2
{PAYLOAD}
```
"""


def test_the_two_block_attack_runs_nothing_on_the_next_prompt(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    applied = _apply(root, ATTACK)
    assert applied.returncode == 1
    assert (
        "❌ Refusing path kopipasta.toml: kopipasta's own settings (the prompt template it renders, "
        "the files it reads) are not a reply's to write — make that change yourself if you mean it\n"
    ) in applied.stdout
    assert (root / "docs" / "prompt.j2").read_text(encoding="utf-8") == PAYLOAD + "\n"  # a file like any other
    assert not (root / "kopipasta.toml").exists()
    prompted = kopipasta("prompt", "app.py", "-t", "x", "--stdout", cwd=root)
    assert prompted.returncode == 0, prompted.stderr
    assert not (root / MARKER).exists()
    assert "def total(items):" in prompted.stdout  # the built-in template, not the reply's


@pytest.mark.parametrize(
    "block",
    [
        "```toml\n# FILE: kopipasta.toml\ntemplate = \"docs/prompt.j2\"\n```\n",
        "```toml\n# FILE: sub/../KOPIPASTA.TOML\ntemplate = \"docs/prompt.j2\"\n```\n",
        "```toml\n# FILE: kopipasta.toml\n# TARGET_PATH: template\n\"docs/prompt.j2\"\n```\n",
        "```diff\n--- a/kopipasta.toml\n+++ b/kopipasta.toml\n@@ -1 +1 @@\n-exclude = []\n+template = \"docs/prompt.j2\"\n```\n",
        "```\nkopipasta.toml\n<<<<<<< SEARCH\nexclude = []\n=======\ntemplate = \"x.j2\"\n>>>>>>> REPLACE\n```\n",
        "```\n*** Begin Patch\n*** Delete File: kopipasta.toml\n*** End Patch\n```\n",
        "```\n*** Begin Patch\n*** Update File: notes.toml\n*** Move to: kopipasta.toml\n@@\n-x = 1\n+template = \"docs/prompt.j2\"\n*** End Patch\n```\n",
        "```\n# FILE: kopipasta.toml\n<<<DELETE>>>\n```\n",
        "```toml\n# FILE: kopipasta.toml\n# TARGET_NODE: template\ntemplate = \"x.j2\"\n```\n",
        "```toml\n# FILE: sub/kopipasta.toml\ntemplate = \"x.j2\"\n```\n",
    ],
    ids=[
        "file", "dotdot-uppercase", "target-path", "diff", "search-replace", "envelope-delete", "rename-onto",
        "delete-marker", "target-node", "nested-root",
    ],
)
def test_every_block_form_on_kopipasta_toml_is_refused(tmp_path: Path, block: str) -> None:
    root = _project(tmp_path / "project")
    (root / "kopipasta.toml").write_text("exclude = []\n", encoding="utf-8")
    (root / "notes.toml").write_text("x = 1\n", encoding="utf-8")
    (root / "sub").mkdir()
    applied = _apply(root, block, "--json")
    report = json.loads(applied.stdout)
    assert applied.returncode == 1, applied.stdout
    failed = [b for b in report["blocks"] if b["status"] == "failed"]
    assert failed and "kopipasta's own settings" in failed[0]["message"], report
    assert (root / "kopipasta.toml").read_text(encoding="utf-8") == "exclude = []\n"
    assert (root / "notes.toml").read_text(encoding="utf-8") == "x = 1\n"


def test_a_symlink_to_kopipasta_toml_is_refused_by_what_it_names(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    (root / "kopipasta.toml").write_text("exclude = []\n", encoding="utf-8")
    os.symlink("kopipasta.toml", root / "settings.toml")
    applied = _apply(root, "```toml\n# FILE: settings.toml\ntemplate = \"x.j2\"\n```\n")
    assert applied.returncode == 1
    assert "Refusing path settings.toml: kopipasta's own settings" in applied.stdout
    assert (root / "kopipasta.toml").read_text(encoding="utf-8") == "exclude = []\n"


PYPROJECT = """[project]
name = "demo"
version = "1.0"

[tool.kopipasta]
exclude = ["*.lock"]

[tool.ruff]
line-length = 100
"""


@pytest.mark.parametrize(
    "block",
    [
        "```toml\n# FILE: pyproject.toml\n# TARGET_PATH: tool.kopipasta.template\n\"docs/prompt.j2\"\n```\n",
        "```toml\n# FILE: pyproject.toml\n# TARGET_PATH: tool.kopipasta.exclude\n[]\n```\n",
        "```toml\n# FILE: pyproject.toml\n" + PYPROJECT.replace('exclude = ["*.lock"]', 'template = "docs/p.j2"') + "```\n",
        "```diff\n--- a/pyproject.toml\n+++ b/pyproject.toml\n@@ -6 +6,2 @@\n exclude = [\"*.lock\"]\n+template = \"docs/p.j2\"\n```\n",
        "```\n*** Begin Patch\n*** Delete File: pyproject.toml\n*** End Patch\n```\n",
    ],
    ids=["target-path-new-key", "target-path-value", "whole-file", "diff", "delete"],
)
def test_a_block_that_changes_tool_kopipasta_is_refused(tmp_path: Path, block: str) -> None:
    root = _project(tmp_path / "project")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    applied = _apply(root, block, "--json")
    report = json.loads(applied.stdout)
    failed = [b for b in report["blocks"] if b["status"] == "failed"]
    assert applied.returncode == 1, report
    assert failed[0]["message"] == (
        "Refusing to change [tool.kopipasta] in pyproject.toml: kopipasta's own settings "
        "(the prompt template it renders, the files it reads) are not a reply's to write"
    ), report
    assert (root / "pyproject.toml").read_text(encoding="utf-8") == PYPROJECT


def test_a_quoted_escaped_key_that_is_tool_kopipasta_is_refused(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    before = '[project]\nname = "demo"\n'
    (root / "pyproject.toml").write_text(before, encoding="utf-8")
    block = '```toml\n# FILE: pyproject.toml\n[project]\nname = "demo"\n\n[tool."kopip\\u0061sta"]\ntemplate = "p.j2"\n```\n'
    applied = _apply(root, block)
    assert applied.returncode == 1
    assert "Refusing to change [tool.kopipasta] in pyproject.toml" in applied.stdout
    assert (root / "pyproject.toml").read_text(encoding="utf-8") == before


def test_the_rest_of_pyproject_toml_is_patched_as_usual(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    applied = _apply(root, "```toml\n# FILE: pyproject.toml\n# TARGET_PATH: tool.ruff.line-length\n120\n```\n")
    assert applied.returncode == 0, applied.stdout
    assert (root / "pyproject.toml").read_text(encoding="utf-8") == PYPROJECT.replace("line-length = 100", "line-length = 120")


def test_a_template_renders_in_the_sandbox(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    (root / "prompt.j2").write_text(PAYLOAD + "\n", encoding="utf-8")
    (root / "kopipasta.toml").write_text('template = "prompt.j2"\n', encoding="utf-8")
    for args in (("--template", "prompt.j2"), ()):
        prompted = kopipasta("prompt", "app.py", "-t", "x", "--stdout", *args, cwd=root)
        assert prompted.returncode == 1
        assert not (root / MARKER).exists()
        assert prompted.stderr.count("\n") == 1, prompted.stderr
        assert "Template " in prompted.stderr and "failed to render" in prompted.stderr
        assert "unsafe" in prompted.stderr or "access to attribute" in prompted.stderr, prompted.stderr


def test_the_private_project_template_renders_in_the_sandbox_too(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    (root / ".kopipasta").mkdir()
    (root / ".kopipasta" / "prompt.j2").write_text(PAYLOAD + "\n", encoding="utf-8")
    prompted = kopipasta("prompt", "app.py", "-t", "x", "--stdout", cwd=root)
    assert prompted.returncode == 1
    assert not (root / MARKER).exists()


@pytest.mark.parametrize("kind", ["dotdot", "absolute", "symlink-out", "symlinked-folder-out"])
def test_a_template_setting_outside_the_root_is_refused(tmp_path: Path, kind: str) -> None:
    root = _project(tmp_path / "project")
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.txt"
    secret.write_text("THE SECRET\n", encoding="utf-8")
    setting = {
        "dotdot": "../outside/secret.txt",
        "absolute": str(secret),
        "symlink-out": "docs/secret.j2",
        "symlinked-folder-out": "out/secret.txt",
    }[kind]
    if kind == "symlink-out":
        (root / "docs").mkdir()
        os.symlink(secret, root / "docs" / "secret.j2")
    if kind == "symlinked-folder-out":
        os.symlink(outside, root / "out")
    (root / "kopipasta.toml").write_text(f"template = {json.dumps(setting)}\n", encoding="utf-8")
    prompted = kopipasta("prompt", "app.py", "-t", "x", "--stdout", cwd=root)
    assert prompted.returncode == 1
    assert "THE SECRET" not in prompted.stdout + prompted.stderr
    assert prompted.stderr.startswith("❌ Setting 'template' in kopipasta.toml ")
    assert prompted.stderr.count("\n") == 1, prompted.stderr
    assert "put the template inside the project" in prompted.stderr


def test_a_template_setting_inside_the_root_still_renders(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    (root / "tools").mkdir()
    (root / "tools" / "p.j2").write_text("{% for f in files %}{{ f.path }}|{{ f.text | length }}{% endfor %} {{ task }}\n", encoding="utf-8")
    (root / "kopipasta.toml").write_text('template = "tools/../tools/p.j2"\n', encoding="utf-8")
    prompted = kopipasta("prompt", "app.py", "-t", "the task", "--stdout", cwd=root)
    assert prompted.returncode == 0, prompted.stderr
    assert prompted.stdout == "app.py|39 the task\n"


def test_a_broken_pyproject_without_the_table_may_be_fixed(tmp_path: Path) -> None:
    root = _project(tmp_path / "project")
    (root / "pyproject.toml").write_text('[project]\nname = "demo\n', encoding="utf-8")
    fixed = '[project]\nname = "demo"\n'
    applied = _apply(root, "```toml\n# FILE: pyproject.toml\n" + fixed + "```\n")
    assert applied.returncode == 0, applied.stdout
    assert (root / "pyproject.toml").read_text(encoding="utf-8") == fixed
