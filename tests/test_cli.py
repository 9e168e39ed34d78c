"""The command line as a whole: help for everything, the README telling the same story."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

import kopipasta
from kopipasta import report
from kopipasta.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def commands() -> list[tuple[str, click.Command]]:
    assert isinstance(main, click.Group)
    return sorted(main.commands.items())


@pytest.mark.parametrize(("name", "command"), commands(), ids=[name for name, _ in commands()])
def test_every_command_and_option_has_help(name: str, command: click.Command) -> None:
    assert command.help and command.help.strip(), f"`kopipasta {name}` has no help text"
    for parameter in command.params:
        if isinstance(parameter, click.Option):
            assert parameter.help, f"`kopipasta {name}` option {parameter.opts} has no help text"


def test_readme_lists_every_command() -> None:
    text = README.read_text(encoding="utf-8")
    for name, _ in commands():
        assert f"`kopipasta {name}" in text, f"README does not mention `kopipasta {name}`"


def test_readme_exit_statuses_match_the_code() -> None:
    text = README.read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| (\d) \| (.+) \|$", text, flags=re.MULTILINE))
    assert set(table) == {
        str(report.EXIT_OK),
        str(report.EXIT_FAILED),
        str(report.EXIT_NO_PATCH),
        str(report.EXIT_VERIFY_FAILED),
        str(report.EXIT_STEP_HELD),
    }


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kopipasta", "--version"], capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 0
    assert re.search(r"\d+\.\d+\.\d+", result.stdout)


def test_demo_applies_the_bundled_reply(tmp_path: Path) -> None:
    project = tmp_path / "demo"
    result = subprocess.run(
        [sys.executable, "-m", "kopipasta", "demo", "--into", str(project)],
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 applied, 1 block without FILE ignored. 3 files written." in result.stdout
    cart = (project / "app" / "cart.py").read_text()
    assert "        return max(subtotal - self.discount, 0.0)\n" in cart
    table = (project / "src" / "components" / "DataTable.tsx").read_text()
    # Only the second of the two look-alike components changed.
    assert table.count("{row.name}: {row.total.toFixed(2)}") == 1
    assert "<Cell key={c}>{c}</Cell>" in table
    assert '"react": "^18.2.0"' in (project / "package.json").read_text()
    # The reply is shown before the diff and kept, so its 2-space method can be seen.
    bundled = (Path(kopipasta.__file__).parent / "loop" / "demo" / "reply.md").read_text(encoding="utf-8")
    assert (project / "reply.md").read_text(encoding="utf-8") == bundled
    shown = result.stdout.index("  return max(subtotal - self.discount, 0.0)\n")
    assert shown < result.stdout.index("--- a/app/cart.py")


def test_line_counts_of_a_pure_insertion_and_a_one_line_change(tmp_path: Path) -> None:
    from kopipasta.engine import apply_reply

    (tmp_path / "m.py").write_text("def a():\n    return 1\n\n\ndef c():\n    return 3\n")
    reply = (
        "```python\n# FILE: m.py\n# INSERT_AFTER: function a\ndef b():\n    return 2\n```\n\n"
        "```python\n# FILE: m.py\n# TARGET_NODE: function c\ndef c():\n    return 30\n```\n"
    )
    insert, change = apply_reply(reply, tmp_path).outcomes
    assert (insert.lines_added, insert.lines_removed) == (4, 0)  # two lines and two blank ones
    assert (change.lines_added, change.lines_removed) == (1, 1)
