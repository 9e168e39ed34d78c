"""The tools a row runs, each in its own copy of the scratch project, each checked after every run.

- `ours`: `python -m kopipasta apply REPLY --root WORK` (or `nodes` / `prompt`);
- `import`: `python -c "import tree_sitter"`, the floor any Tree-sitter tool pays;
- `stack`: `python -c "import click, tree_sitter"`, the floor a click CLI on Tree-sitter pays;
- `no-cli`: bench/without_cli.py — the same apply through the engine, without click;
- `bare`: bench/bare_splice.py — parse, splice at a known offset, incremental reparse, atomic write;
- `target-node`: ours on the scenario's `baseline` reply, a `TARGET_NODE` block on the same files;
- `parse`: bench/bare_parse.py — import, parse, exit (the peak-memory floor);
- `ast-grep`: `ast-grep scan --rule RULES --update-all FILE…`, a rule per edit naming the node kind\n  and name (and, with several edits, its file);
- `original`: the original kopipasta 0.70.0 (`kopipasta apply REPLY --json --dirty-ok`),
  given the same edits as search/replace blocks or the same diff;
- `patcher`: the same, through its patch-applying functions only
  (`parse_llm_output` + `apply_patches` from a `python -c` script).

Every file-changing tool must leave exactly the bytes the scenario's edits
compute; `nodes` and `prompt` must print what the scenario names.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from bench.edits import ast_grep_rules
from bench.scenarios import Scenario
from bench.timing import Run, Tool

BENCH = Path(__file__).resolve().parent

# The original has no `python -m kopipasta`; this is its console script's body.
ORIGINAL_MAIN = "import sys; from kopipasta.main import main; sys.exit(main())"
# Its patch-applying functions alone (what its TUI calls on a pasted reply),
# without the CLI's imports: the least the original does to apply a reply.
ORIGINAL_PATCHER = (
    "import sys; from kopipasta.patcher import apply_patches, parse_llm_output; "
    "text = open(sys.argv[1], encoding='utf-8').read(); "
    "sys.exit(0 if apply_patches(parse_llm_output(text)).ok else 1)"
)

# Tree-sitter language pack names for an edit's language.
_PACK_LANGUAGE = {"python": "python", "tsx": "tsx", "typescript": "typescript", "go": "go", "rust": "rust"}


class BenchFailure(SystemExit):
    """A tool did not do the work: the bench stops and says which, and why."""


def write_project(root: Path, files: dict[str, str]) -> None:
    shutil.rmtree(root, ignore_errors=True)
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))


def find_ast_grep() -> str | None:
    """`ast-grep` (or `sg` when it is ast-grep: Debian's /usr/bin/sg is shadow-utils' newgrp)."""
    candidates = [str(Path(sys.executable).parent / "ast-grep"), shutil.which("ast-grep"), shutil.which("sg")]
    for candidate in candidates:
        if not candidate or not Path(candidate).is_file():
            continue
        try:
            version = subprocess.run([candidate, "--version"], capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            continue
        if version.startswith("ast-grep"):
            return candidate
    return None


def _first_difference(expected: str, actual: str) -> str:
    for number, (want, got) in enumerate(zip(expected.splitlines(), actual.splitlines(), strict=False), 1):
        if want != got:
            return f"line {number}: expected {want!r}, got {got!r}"
    return f"lengths differ: expected {len(expected)} characters, got {len(actual)}"


def files_checker(
    name: str, root: Path, expected: dict[str, str], exit_code: int = 0, must_print: tuple[str, ...] = ()
) -> Callable[[Run], None]:
    def check(run: Run) -> None:
        if run.exit_code != exit_code:
            raise BenchFailure(f"{name} exited {run.exit_code} in {root}\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
        missing = [text for text in must_print if text not in run.stdout]
        if missing:
            raise BenchFailure(f"{name} did not print {missing}\n{run.stdout[-1500:]}{run.stderr[-1500:]}")
        for path, text in expected.items():
            actual = (root / path).read_bytes().decode("utf-8", "replace")
            if actual != text:
                raise BenchFailure(
                    f"{name} did not produce the intended bytes in {path}: {_first_difference(text, actual)}\n"
                    f"{run.stdout[-1500:]}{run.stderr[-1500:]}"
                )

    return check


def output_checker(name: str, must_print: list[str]) -> Callable[[Run], None]:
    def check(run: Run) -> None:
        missing = [text for text in must_print if text not in run.stdout]
        if run.exit_code != 0 or missing:
            raise BenchFailure(f"{name} exited {run.exit_code}, missing {missing}\n{run.stdout[-1500:]}{run.stderr[-1500:]}")

    return check


def _project_tool(name: str, command: list[str], scratch: Path, scenario: Scenario) -> Tool:
    work = scratch / name
    files = scenario.files
    return Tool(
        name=name,
        command=command,
        cwd=work,
        prepare=lambda: write_project(work, files),
        check=files_checker(name, work, scenario.expected, scenario.exit_code, tuple(scenario.must_print)),
    )


def ours(scenario: Scenario, scratch: Path, python: str, json_report: bool) -> Tool:
    work = scratch / "ours"
    kopipasta = [python, "-m", "kopipasta"]
    if scenario.command == "apply":
        reply = scratch / "reply.md"
        reply.write_text(scenario.reply, encoding="utf-8")
        command = [*kopipasta, "apply", str(reply), "--root", str(work), *(["--json"] if json_report else [])]
        return _project_tool("ours", command, scratch, scenario)
    command = [*kopipasta, scenario.command, *scenario.arguments, "--root", str(work)]
    files = scenario.files
    return Tool("ours", command, work, lambda: write_project(work, files), output_checker("ours", scenario.must_print))


def target_node(scenario: Scenario, scratch: Path, python: str, json_report: bool) -> Tool | None:
    """Ours on the scenario's `baseline` reply (a `TARGET_NODE` block on the same files), checked the same way."""
    if scenario.baseline is None:
        return None
    folder = scratch / "target-node"
    folder.mkdir(parents=True, exist_ok=True)
    tool = ours(scenario.baseline, folder, python, json_report)
    tool.name = "target-node"
    return tool


def without_cli(scenario: Scenario, scratch: Path, python: str) -> Tool | None:
    """bench/without_cli.py: the same apply through the engine alone, without click."""
    if scenario.command != "apply":
        return None
    reply = scratch / "reply.md"
    reply.write_text(scenario.reply, encoding="utf-8")
    work = scratch / "no-cli"
    return _project_tool("no-cli", [python, str(BENCH / "without_cli.py"), str(reply), str(work)], scratch, scenario)


def import_floor(scratch: Path, python: str, modules: str = "tree_sitter") -> Tool:
    """`python -c "import MODULES"`: what a process pays before any work of its own."""

    def check(run: Run) -> None:
        if run.exit_code != 0:
            raise BenchFailure(f"python -c 'import {modules}' exited {run.exit_code}: {run.stderr}")

    return Tool(f"import {modules}", [python, "-c", f"import {modules}"], scratch, check=check)


def bare_splice(scenario: Scenario, scratch: Path, python: str) -> Tool | None:
    edit = scenario.single_edit()
    if edit is None:
        return None
    text = scenario.files[edit.path]
    offset = len(text[: edit.located(text)].encode("utf-8"))
    new_text = scratch / "bare-new.txt"
    new_text.write_bytes(edit.new.encode("utf-8"))
    command = [python, str(BENCH / "bare_splice.py"), _PACK_LANGUAGE[edit.language], edit.path, str(offset), str(new_text)]
    return _project_tool("bare", command, scratch, scenario)


def bare_parse(scenario: Scenario, scratch: Path, python: str) -> Tool | None:
    edit = scenario.single_edit()
    if edit is None:
        return None
    work = scratch / "parse"
    files = scenario.files
    command = [python, str(BENCH / "bare_parse.py"), _PACK_LANGUAGE[edit.language], edit.path]
    return Tool("parse", command, work, lambda: write_project(work, files), output_checker("parse", ["module"]))


def ast_grep(scenario: Scenario, scratch: Path, executable: str | None) -> Tool | None:
    if not scenario.edits or executable is None:
        return None
    rule = scratch / "rules.yml"
    rule.write_text(ast_grep_rules(scenario.files, scenario.edits), encoding="utf-8")
    paths = sorted({edit.path for edit in scenario.edits})
    return _project_tool("ast-grep", [executable, "scan", "--rule", str(rule), "--update-all", *paths], scratch, scenario)


def original(scenario: Scenario, scratch: Path, python: str | None) -> Tool | None:
    if python is None or scenario.original_reply is None:
        return None
    reply = scratch / "original-reply.md"
    reply.write_text(scenario.original_reply, encoding="utf-8")
    command = [python, "-c", ORIGINAL_MAIN, "apply", str(reply), "--json", "--dirty-ok"]
    return _project_tool("original", command, scratch, scenario)


def original_patcher(scenario: Scenario, scratch: Path, python: str | None) -> Tool | None:
    if python is None or scenario.original_reply is None:
        return None
    reply = scratch / "original-reply.md"
    reply.write_text(scenario.original_reply, encoding="utf-8")
    return _project_tool("patcher", [python, "-c", ORIGINAL_PATCHER, str(reply)], scratch, scenario)
