"""The built-in prompt template ships precompiled (issue 9), and is never served stale.

A prompt rendered with the precompiled built-in template is byte for byte the prompt
the same template text gives when compiled at run time (as a project template is).
A template text with no precompiled module for it is compiled: an edit shows.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import jinja2
import pytest
from cli_process import kopipasta

from kopipasta.loop import prompt_template

SAMPLE = Path(__file__).resolve().parent / "snapshots" / "prompt_project"
SAMPLE_FILES = ["app/cart.py", "src/CartView.tsx", "package.json"]
COMPILED = Path(prompt_template.__file__).resolve().parents[2] / "prompts" / prompt_template.COMPILED_FOLDER


def _generated_by() -> str:
    return (COMPILED / prompt_template.GENERATED_BY).read_text(encoding="utf-8").strip()


def test_the_shipped_module_is_the_one_for_the_template_as_it_stands(tmp_path: Path) -> None:
    if _generated_by() != f"jinja2 {jinja2.__version__}":
        pytest.skip(f"the shipped module was written by {_generated_by()}; this jinja2 compiles the text instead")
    fresh = prompt_template.write_precompiled(tmp_path / "compiled")
    shipped = COMPILED / fresh.name
    assert shipped.is_file(), "prompts/prompt.j2 changed: run `python -m kopipasta.loop.prompt_template`"
    assert shipped.read_text(encoding="utf-8") == fresh.read_text(encoding="utf-8")
    assert sorted(p.name for p in COMPILED.glob("tmpl_*.py")) == [fresh.name]


def test_the_precompiled_template_renders_what_its_text_renders(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(SAMPLE, root)
    args = ["prompt", *SAMPLE_FILES, "-t", "Add a discount", "--stdout"]
    bundled = kopipasta(*args, cwd=root)
    assert bundled.returncode == 0, bundled.stderr
    # The same text as a project template: compiled from its text at run time.
    (root / ".kopipasta").mkdir(exist_ok=True)
    (root / ".kopipasta" / "prompt.j2").write_text(prompt_template.bundled_text(), encoding="utf-8")
    from_text = kopipasta(*args, cwd=root)
    assert from_text.returncode == 0, from_text.stderr
    assert bundled.stdout == from_text.stdout
    assert "FILE: app/cart.py" in bundled.stdout


def test_the_shipped_text_is_served_precompiled() -> None:
    source = prompt_template.bundled_text()
    if _generated_by() != f"jinja2 {jinja2.__version__}":
        pytest.skip("no precompiled module for this jinja2")
    assert prompt_template.bundled_template(source).name == prompt_template.precompiled_name(source)


@pytest.mark.parametrize(
    "edit", [lambda s: s + "Edited at the end.\n", lambda s: s.replace("# Task", "# The task", 1)], ids=["appended", "heading"]
)
def test_an_edited_template_is_compiled_from_its_text_never_served_stale(edit) -> None:  # type: ignore[no-untyped-def]
    source = prompt_template.bundled_text()
    edited = edit(source)
    assert edited != source
    context = {"task": "T", "files": [], "examples": []}
    rendered = prompt_template.bundled_template(edited).render(**context)
    assert rendered == prompt_template.environment().from_string(edited).render(**context)
    assert rendered != prompt_template.bundled_template(source).render(**context)


def test_another_jinja2_version_or_option_gets_another_name(monkeypatch: pytest.MonkeyPatch) -> None:
    source = prompt_template.bundled_text()
    name = prompt_template.precompiled_name(source)
    monkeypatch.setattr(jinja2, "__version__", "0.0-other")
    assert prompt_template.precompiled_name(source) != name
