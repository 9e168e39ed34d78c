"""The bench's scenarios are honest: each reply, run through the real CLI, leaves exactly the bytes
its edits compute (by plain string replacement), and the comparators' inputs do the same edit.

Speed is not asserted anywhere: bench/bench.py measures it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cli_process import kopipasta  # noqa: E402

from bench import scenarios as sc  # noqa: E402
from bench import tools  # noqa: E402
from bench.install import installed_python  # noqa: E402
from bench.timing import Tool  # noqa: E402

APPLY_SCENARIOS = {
    "a": sc.scenario_a,
    "b": sc.scenario_b,
    "d": sc.scenario_d,
    "click_function": sc.click_function,
    "react_component": sc.react_component,
    "big_python_1k": sc.big_python(1_000),
    "insert_1k": sc.big_python_insert(1_000),
    "insert_20k": sc.big_python_insert(20_000),
    "unified_diff": sc.unified_diff,
    "search_replace": sc.search_replace,
    "fragment": sc.fragment,
    "rust_method": sc.rust_method,
    "lazy_six_runs": sc.lazy_six_runs,
    "lazy_six_runs_baseline": lambda: sc.lazy_six_runs().baseline,
}


def _files(root: Path, names: list[str]) -> dict[str, str]:
    return {name: (root / name).read_text(encoding="utf-8") for name in names}


@pytest.mark.parametrize("name", APPLY_SCENARIOS)
def test_our_reply_leaves_the_bytes_the_edits_compute(tmp_path: Path, name: str) -> None:
    scenario = APPLY_SCENARIOS[name]()
    root = tmp_path / "project"
    tools.write_project(root, scenario.files)
    (tmp_path / "reply.md").write_text(scenario.reply, encoding="utf-8")
    result = kopipasta("apply", str(tmp_path / "reply.md"), "--root", str(root), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert scenario.expected != scenario.files
    assert _files(root, list(scenario.expected)) == scenario.expected


@pytest.mark.parametrize("name", ["b", "fragment", "react_component", "insert_1k"])
def test_the_originals_search_replace_form_is_the_same_edit(tmp_path: Path, name: str) -> None:
    """Our own CLI reads search/replace blocks too: the form given to the original kopipasta does the same edits."""
    scenario = APPLY_SCENARIOS[name]()
    assert scenario.original_reply is not None
    root = tmp_path / "project"
    tools.write_project(root, scenario.files)
    (tmp_path / "reply.md").write_text(scenario.original_reply, encoding="utf-8")
    result = kopipasta("apply", str(tmp_path / "reply.md"), "--root", str(root), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert _files(root, list(scenario.expected)) == scenario.expected


def _run_to_the_expected_bytes(tool: Tool | None, scenario: sc.Scenario) -> subprocess.CompletedProcess[str]:
    """Run a comparator once in its fresh project; it must exit 0 and leave the scenario's bytes."""
    assert tool is not None
    tool.prepare()
    result = subprocess.run(tool.command, cwd=tool.cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert _files(tool.cwd, list(scenario.expected)) == scenario.expected
    return result


@pytest.mark.parametrize("name", ["a", "react_component", "rust_method", "insert_1k"])
def test_the_bare_splice_script_does_the_same_edit(tmp_path: Path, name: str) -> None:
    scenario = APPLY_SCENARIOS[name]()
    _run_to_the_expected_bytes(tools.bare_splice(scenario, tmp_path, sys.executable), scenario)


@pytest.mark.parametrize("name", ["a", "b", "react_component"])
def test_the_engine_without_the_cli_does_the_same_edits(tmp_path: Path, name: str) -> None:
    scenario = APPLY_SCENARIOS[name]()
    result = _run_to_the_expected_bytes(tools.without_cli(scenario, tmp_path, sys.executable), scenario)
    assert "applied" in result.stdout


def test_the_target_node_comparator_does_its_own_edit(tmp_path: Path) -> None:
    """Row `lazy`'s comparator: our CLI on a TARGET_NODE block for the first of the snippet's functions."""
    scenario = sc.lazy_six_runs()
    assert scenario.baseline is not None and len(scenario.edits) == 6
    tool = tools.target_node(scenario, tmp_path, sys.executable, False)
    result = _run_to_the_expected_bytes(tool, scenario.baseline)
    assert "applied" in result.stdout


@pytest.mark.parametrize("name", ["a", "b", "click_function", "react_component", "rust_method"])
def test_the_ast_grep_rules_do_the_same_edits(tmp_path: Path, name: str) -> None:
    executable = tools.find_ast_grep()
    if executable is None:
        pytest.skip("ast-grep is not installed (pip install ast-grep-cli)")
    scenario = APPLY_SCENARIOS[name]()
    tool = tools.ast_grep(scenario, tmp_path, executable)
    assert tool is not None
    tool.prepare()
    result = subprocess.run(tool.command, cwd=tool.cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert _files(tool.cwd, list(scenario.expected)) == scenario.expected


@pytest.mark.parametrize("build", [sc.nodes_five, sc.prompt_five], ids=["nodes", "prompt"])
def test_the_read_only_rows_print_every_file(tmp_path: Path, build) -> None:
    scenario = build()
    tools.write_project(tmp_path, scenario.files)
    result = kopipasta(scenario.command, *scenario.arguments, "--root", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert [text for text in scenario.must_print if text not in result.stdout] == []


def test_the_bench_times_an_installed_copy_without_the_editable_finder(tmp_path: Path) -> None:
    """What the bench times is kopipasta as `pip install .` leaves it, in a venv whose `site` runs no finder."""
    python = installed_python(tmp_path / "venv")
    probe = (
        "import sys;"
        "print(sorted(m for m in ('pathlib', 'urllib.parse', 'fnmatch') if m in sys.modules));"
        "print(sorted(m for m in sys.modules if 'editable' in m));"
        "import kopipasta; print(kopipasta.__file__)"
    )
    preloaded, finders, where = subprocess.run(
        [python, "-c", probe], capture_output=True, text=True, check=True, cwd=tmp_path
    ).stdout.splitlines()
    assert preloaded == "[]"  # what an editable install's finder imports in every process
    assert finders == "[]"  # no editable finder was imported by `site`
    assert Path(where).resolve().is_relative_to((tmp_path / "venv").resolve())
    result = subprocess.run(
        [python, "-m", "kopipasta", "nodes", "app/cart.py", "--root", str(REPO / "kopipasta" / "loop" / "demo" / "project")],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "Cart.total" in result.stdout


@pytest.mark.parametrize(
    "build",
    [sc.alias_bomb, sc.six_hundred_hunks, sc.restated_yaml_list, sc.restated_json_list, sc.near_miss_search, sc.seven_mb_payload],
)
def test_the_bound_rows_end_as_their_checks_expect(tmp_path: Path, build) -> None:  # type: ignore[no-untyped-def]
    """Issue 18's rows: the alias bomb is refused (exit 1, files unchanged), the 600 hunks land;
    issue 28's: the restated lists change their one line, the near miss and the 7 MB payload are refused."""
    scenario = build()
    root = tmp_path / "project"
    tools.write_project(root, scenario.files)
    (tmp_path / "reply.md").write_text(scenario.reply, encoding="utf-8")
    result = kopipasta("apply", str(tmp_path / "reply.md"), "--root", str(root), cwd=tmp_path)
    assert result.returncode == scenario.exit_code, result.stdout + result.stderr
    assert all(text in result.stdout for text in scenario.must_print), result.stdout
    assert _files(root, list(scenario.expected)) == scenario.expected
