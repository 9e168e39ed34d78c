"""The prompt that teaches a model the patch protocol, rendered from prompts/*.j2.

`render_prompt` gathers everything the template shows: the task, each file's
text in a fence longer than any backtick run inside it, each file's targets
(the same inventory `kopipasta nodes` prints), and one worked example per
language present (prompt_examples.py: built from a real definition of a
selected file, restating its current text, and checked with a dry run of
`apply` before it is shown, so the prompt never teaches a patch that would fail).

Template lookup, first found wins: `--template PATH`, then the `template`
project setting (kopipasta.toml or `[tool.kopipasta]`, resolved by the CLI
into `template`), then `<root>/.kopipasta/prompt.j2` (private to a checkout),
then `prompt.j2` shipped in `kopipasta.prompts`.
A template sees `task` (str, may be empty), `files` (list of PromptFile) and
`examples` (list of Example); see those classes for their fields.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from kopipasta import data as data_formats
from kopipasta.code.find.definitions import Definition
from kopipasta.code.read.inventory import definitions_of, load_existing, target_names
from kopipasta.code.read.staleness import remember as remember_prompt
from kopipasta.disk.workspace import Source, normalise
from kopipasta.errors import PatchError, UnsupportedFile
from kopipasta.loop.fences import fence_for, info_of
from kopipasta.loop.prompt_examples import Inventory, examples_for
from kopipasta.loop.prompt_template import TEMPLATE_NAME

PROJECT_TEMPLATE = Path(".kopipasta") / TEMPLATE_NAME


class TemplateProblem(PatchError):
    """The prompt template cannot be read or rendered."""


@dataclass(frozen=True)
class PromptFile:
    path: str  # relative to the root, "/"-separated
    info: str  # the fence's info string: python, tsx, json, … ("" when unknown)
    fence: str  # backticks, longer than any run of backticks in `text`
    text: str  # the contents, "\n" line endings, without a final newline
    targets: tuple[str, ...]  # `method Cart.total`, or for data files the top-level key paths
    kind: str  # "code" (TARGET_NODE), "data" (TARGET_PATH) or "text" (whole file only)
    # Sent as its definitions only (`--outline`, the `outline` setting, the picker's ctrl-o): `text`
    # is then the list `kopipasta nodes` prints, one `kind name  lines` a line, and `lines` the file's length.
    outline: bool = False
    lines: int = 0


def render_prompt(
    files: Sequence[str],
    *,
    task: str,
    root: Path,
    template: Path | None = None,
    outline: Collection[str] = (),
) -> str:
    """The prompt for `files` (paths relative to `root`) and `task`.

    A code file in `outline` is sent as its list of definitions instead of its text.

    Raises PatchError subclasses: ConfinementError, TargetNotFound (a missing
    file), UnsupportedFile (a folder, a file that is not UTF-8), TemplateProblem.
    """
    sources = _load_all(files, root)
    inventories = [_inventory(source) for source in sources]
    remember_prompt(root, inventories)  # what the model was shown, for stale targets (issue 11)
    outlined = {normalise(file) for file in outline}
    prompt_files = [_prompt_file(source, definitions, source.path in outlined) for source, definitions in inventories]
    examples = examples_for(inventories, root, task)
    context: dict[str, object] = {"task": task.strip(), "files": prompt_files, "examples": examples}
    text = _render(root, template, context)
    return text if text.endswith("\n") else text + "\n"


def estimate_tokens(text: str) -> int:
    """A rough token count: about four characters a token for code and English."""
    return (len(text) + 3) // 4


# The reply-format part of the default template: what every prompt pays for.
PROTOCOL_TOKEN_LIMIT = 500


def protocol_part(text: str) -> str:
    """The rendered reply format (rules and examples), from `# Reply format` up to `# Task`."""
    start = text.find("# Reply format")
    if start < 0:
        return ""
    end = text.find("\n# Task", start)
    return text[start : end if end >= 0 else len(text)]


def _load_all(files: Sequence[str], root: Path) -> list[Source]:
    sources: list[Source] = []
    seen: set[str] = set()
    for file in files:
        path = normalise(file)
        if path not in seen:
            seen.add(path)
            sources.append(load_existing(root, file))
    return sources


def _text(source: Source) -> str:
    return source.data.decode("utf-8").replace("\r\n", "\n")


def _inventory(source: Source) -> Inventory:
    try:
        return source, definitions_of(source)
    except UnsupportedFile:
        return source, None


def _prompt_file(source: Source, definitions: list[Definition] | None, outline: bool = False) -> PromptFile:
    text = _text(source).rstrip("\n")
    kind = "text" if definitions is None else "data" if data_formats.format_of(source.path) else "code"
    names = target_names(definitions or [], source)
    if kind == "code":
        targets = tuple(f"{d.kind} {name}" for d, name in zip(definitions or [], names, strict=True))
    else:
        targets = tuple(names)
    if outline and kind == "code" and definitions:
        # Only code has definitions to target by name; data and text files go whole whatever was asked.
        listing = outline_text(definitions, names)
        return PromptFile(source.path, "text", fence_for(listing), listing, targets, kind, True, text.count("\n") + 1)
    return PromptFile(source.path, info_of(source.path), fence_for(text), text, targets, kind, False, text.count("\n") + 1)


def outline_text(definitions: Sequence[Definition], names: Sequence[str]) -> str:
    """A file's definitions as `kopipasta nodes` lists them: `kind  name  lines`, aligned."""
    kind_width = max((len(d.kind) for d in definitions), default=0)
    name_width = max((len(name) for name in names), default=0)
    rows = []
    for definition, name in zip(definitions, names, strict=True):
        lines = str(definition.line) if definition.line == definition.end_line else f"{definition.line}-{definition.end_line}"
        rows.append(f"{definition.kind.ljust(kind_width)}  {name.ljust(name_width)}  {lines}")
    return "\n".join(rows)


def _render(root: Path, template: Path | None, context: dict[str, object]) -> str:
    import jinja2

    from kopipasta.loop import prompt_template

    path = template if template is not None else root / PROJECT_TEMPLATE
    bundled = False
    try:
        if template is not None or path.is_file():
            source = path.read_text(encoding="utf-8")
        else:
            path = Path(f"kopipasta/prompts/{TEMPLATE_NAME}")
            source = prompt_template.bundled_text()
            bundled = True
    except OSError as error:
        raise TemplateProblem(f"Cannot read template {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise TemplateProblem(f"Cannot read template {path}: it is not UTF-8 text") from None
    try:
        if bundled:  # shipped precompiled for exactly this text (prompt_template.py)
            compiled = prompt_template.bundled_template(source)
        else:
            compiled = prompt_template.environment().from_string(source)
        return compiled.render(**context)
    except jinja2.TemplateSyntaxError as error:
        raise TemplateProblem(f"Template {path}, line {error.lineno}: {error.message}") from None
    except jinja2.TemplateError as error:
        raise TemplateProblem(f"Template {path} failed to render: {error}") from None
