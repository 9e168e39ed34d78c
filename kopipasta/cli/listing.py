"""`kopipasta nodes` (the names a patch can target) and `kopipasta stats` (how replies fared)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kopipasta.cli.group import ROOT_OPTION, echo, echo_data, main
from kopipasta.plain import json_visible, visible


@main.command(short_help="List the definitions a patch can target in each FILE.")
@click.argument("files", nargs=-1, required=True)
@ROOT_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of {file, definitions} on stdout.")
def nodes(files: tuple[str, ...], root: Path, as_json: bool) -> None:
    """List the definitions each FILE offers to TARGET_NODE: kind, qualified name, lines.

    For a JSON, YAML or TOML file, its top-level keys (and TOML's tables), for
    TARGET_PATH. Names read as the file's language writes them (Ruby:
    `Rack::ETag#call`). A file that is missing or has no grammar is reported on
    stderr; the others are still listed (exit 1).
    """
    from kopipasta.code.read.inventory import (
        definitions_of,
        load_existing,
        root_relative,
        target_names,
    )
    from kopipasta.disk.workspace import normalise
    from kopipasta.errors import PatchError

    listed: list[tuple[str, list[tuple[str, str, str]]]] = []
    records: list[dict[str, object]] = []
    failed = False
    for file in files:
        relative = root_relative(file, root)
        try:
            path = normalise(relative)
            source = load_existing(root, relative)
            definitions = definitions_of(source)
        except PatchError as error:
            echo(f"❌ {error}", err=True)
            records.append({"file": file, "error": str(error), "definitions": []})
            failed = True
            continue
        names = target_names(definitions, source)
        rows = [(d.kind, name, _line_range(d.line, d.end_line)) for d, name in zip(definitions, names, strict=True)]
        listed.append((path, rows))
        records.append(
            {
                "file": path,
                "definitions": [
                    {"kind": d.kind, "name": d.name, "qualified_name": d.qualified_name, "line": d.line, "end_line": d.end_line}
                    for d in definitions
                ],
            }
        )
    if as_json:
        import json

        echo_data(json_visible(json.dumps(records, indent=2, ensure_ascii=False)))
    else:
        _print_nodes(listed)
    sys.exit(1 if failed else 0)


def _line_range(line: int, end_line: int) -> str:
    return str(line) if line == end_line else f"{line}-{end_line}"


def _print_nodes(listed: list[tuple[str, list[tuple[str, str, str]]]]) -> None:
    from kopipasta.plain import make_console  # not report's: `nodes` needs no model (issue 9)

    console = make_console()
    # Names from the files (a JSON key may hold ESC) are made visible before columns are measured.
    listed = [(visible(path), [(kind, visible(name), lines) for kind, name, lines in rows]) for path, rows in listed]
    every = [row for _, rows in listed for row in rows]
    kind_width = max((len(kind) for kind, _, _ in every), default=0)
    name_width = max((len(name) for _, name, _ in every), default=0)
    if getattr(console, "is_plain", False):
        # On a pipe the same lines without colour, and without importing rich.
        for number, (path, rows) in enumerate(listed):
            if number:
                console.print()
            console.print(path, markup=False)
            if not rows:
                console.print("  (no definitions)", markup=False)
            for kind, name, lines in rows:
                console.print(f"  {kind.ljust(kind_width)}  {name.ljust(name_width)}  {lines}", markup=False)
        return
    from rich.text import Text

    for number, (path, rows) in enumerate(listed):
        if number:
            console.print()
        console.print(Text(path, style="bold"))
        if not rows:
            console.print(Text("  (no definitions)", style="dim"))
        for kind, name, lines in rows:
            line = Text("  ")
            line.append(kind.ljust(kind_width), style="cyan")
            line.append("  ")
            line.append(name.ljust(name_width))
            line.append("  ")
            line.append(lines, style="dim")
            console.print(line)


@main.command(short_help="How replies fared here: protocol use, failures, undo rate.")
@ROOT_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
def stats(root: Path, as_json: bool) -> None:
    """Count, over this project's apply log (.kopipasta/log.jsonl), how replies fared.

    How many replies followed the protocol, how each block was read and
    whether it applied, why blocks failed, and how many applies were undone
    with `undo` or the session's u. Each apply that is not a dry run adds a
    line: its time, and per block the form, the language and the outcome;
    no code, no paths, no model or prompt.
    """
    import json

    from kopipasta.loop.applylog import log_path
    from kopipasta.loop.applystats import Stats, read_stats, stats_lines

    found = read_stats(root)
    if as_json:
        echo_data(json.dumps((found or Stats()).to_json(), indent=2))
        return
    where = log_path(root).relative_to(root).as_posix()
    if found is None:
        echo(f"No apply log yet ({where}): every `kopipasta apply` that is not a dry run adds a line.")
        return
    for line in stats_lines(found, where):
        echo(line)
