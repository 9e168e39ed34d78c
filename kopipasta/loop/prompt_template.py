"""The built-in prompt template, shipped precompiled by jinja2 (issue 9).

Compiling `prompts/prompt.j2` (lexing, parsing, generating Python, `compile`)
costs ~5-7 ms of every `kopipasta prompt`. jinja2 precompiles templates into
Python modules (`Environment.compile_templates`) and loads them with its
`ModuleLoader`; the built-in template ships that way, in `prompts/compiled/`.

A precompiled template must never be stale: it is looked up under a name made
from the digest of the template text read now, of jinja2's version and of the
environment's options. Edit `prompt.j2`, upgrade jinja2, change an option, and
the name is new: no module answers to it, and the text is compiled as before
(`TemplateNotFound` → `from_string`). Regenerate after editing the template:

    python -m kopipasta.loop.prompt_template

User templates (`--template`, `.kopipasta/prompt.j2`, the `template` setting)
are compiled from their text at each run, as before. Every template, built-in
or not, renders in jinja2's sandbox (`environment`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2

TEMPLATE_NAME = "prompt.j2"
COMPILED_FOLDER = "compiled"
GENERATED_BY = "GENERATED_BY"


def environment(loader: jinja2.BaseLoader | None = None) -> jinja2.Environment:
    """The environment every prompt template renders in: jinja2's sandbox.

    A template may come from the project (the `template` setting, a file a
    teammate or a reply wrote): `{{ lipsum.__globals__['os'].system(...) }}`
    in a plain Environment runs a command (issue 18). The sandbox refuses
    private attributes and unsafe calls with a SecurityError; it changes the
    generated code too (calls go through `environment.call`), so its class is
    part of the precompiled module's name.
    """
    import jinja2
    from jinja2.sandbox import SandboxedEnvironment

    return SandboxedEnvironment(
        loader=loader,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def _options_signature() -> str:
    env = environment()
    options = (
        type(env).__name__, env.autoescape, env.keep_trailing_newline, env.trim_blocks, env.lstrip_blocks,
        env.undefined.__name__, env.block_start_string, env.block_end_string,
        env.variable_start_string, env.variable_end_string, env.comment_start_string,
        env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
        env.newline_sequence, sorted(env.extensions),
    )
    return repr(options)


def precompiled_name(source: str) -> str:
    """The name the precompiled form of `source` is stored under: it changes with anything that changes the code."""
    import jinja2

    from kopipasta.disk.digest import sha256_hex

    key = f"{source}\0{jinja2.__version__}\0{_options_signature()}"
    return f"{TEMPLATE_NAME}@{sha256_hex(key.encode('utf-8'))[:32]}"


def _prompts_folders() -> list[Path]:
    """The `kopipasta.prompts` package's folders, found without importing it."""
    import importlib.util

    spec = importlib.util.find_spec("kopipasta.prompts")
    return [Path(folder) for folder in (spec.submodule_search_locations or [])] if spec is not None else []


def bundled_text() -> str:
    """The built-in template's text, read by path where it is a file (the usual install).

    importlib.resources would import zipfile and its readers at every prompt (issue 9);
    it stays the way for anything else (a zipped install).
    """
    for folder in _prompts_folders():
        path = folder / TEMPLATE_NAME
        if path.is_file():
            return path.read_text(encoding="utf-8")
    from importlib import resources

    return resources.files("kopipasta.prompts").joinpath(TEMPLATE_NAME).read_text(encoding="utf-8")


def bundled_template(source: str) -> jinja2.Template:
    """The built-in template for `source`, its text: precompiled when a module for exactly this text ships, else compiled now."""
    import jinja2

    folders = [str(folder / COMPILED_FOLDER) for folder in _prompts_folders() if (folder / COMPILED_FOLDER).is_dir()]
    if folders:
        try:
            return environment(jinja2.ModuleLoader(folders)).get_template(precompiled_name(source))
        except jinja2.TemplateNotFound:
            pass
    return environment().from_string(source)


def write_precompiled(folder: Path) -> Path:
    """Precompile the built-in template into `folder` (replacing what was there); returns the module's path."""
    import jinja2

    source = bundled_text()
    name = precompiled_name(source)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("tmpl_*.py"):
        old.unlink()
    environment(jinja2.DictLoader({name: source})).compile_templates(str(folder), zip=None)
    # Not read at run time (the name decides); tells the tests which jinja2 wrote the module.
    (folder / GENERATED_BY).write_text(f"jinja2 {jinja2.__version__}\n", encoding="utf-8")
    return folder / jinja2.ModuleLoader.get_module_filename(name)


if __name__ == "__main__":
    target = _prompts_folders()[0] / COMPILED_FOLDER
    sys.stdout.write(f"wrote {write_precompiled(target)}\n")
