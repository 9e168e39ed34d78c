"""`kopipasta mcp`: the edit tools served to a coding agent (kopipasta/agents/)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from kopipasta.cli.group import ROOT_OPTION, fail, main

MCP_EPILOG = """\b
Register it with your agent (each runs the command itself; nothing to start by hand):
  Claude Code     claude mcp add kopipasta -- kopipasta mcp --root /path/to/project
  Claude Desktop  claude_desktop_config.json: {"mcpServers": {"kopipasta":
                  {"command": "kopipasta", "args": ["mcp", "--root", "/path/to/project"]}}}
  Cursor          .cursor/mcp.json in the project: the same "mcpServers" entry
  Codex           ~/.codex/config.toml: [mcp_servers.kopipasta]
                  command = "kopipasta"
                  args = ["mcp", "--root", "/path/to/project"]

\b
Tools: list_definitions, read_definition, replace_definition, insert_definition,
delete_definition, set_value, apply_reply, undo. Every edit tool takes dry_run;
every result lists each file written with its sha256 before and after, the
lines that changed and the diff. A refused edit (target missing or ambiguous,
code that would not parse) is an error result with the reason and the fix, and
writes nothing. Needs the MCP SDK, the `mcp` extra: in kopipasta's clone,
pip install -e '.[mcp]' (`pip install kopipasta` from the package index
fetches a different, older program).
"""


def _install_extra(extra: str) -> str:
    """The line that installs `extra` into this kopipasta: its clone's path when it runs from one.

    Never `pip install 'kopipasta[…]'`: the package index's kopipasta is another program.
    """
    clone = Path(__file__).resolve().parents[2]  # kopipasta/cli/serving.py → the clone
    with contextlib.suppress(OSError):
        if 'name = "kopipasta"' in (clone / "pyproject.toml").read_text(encoding="utf-8"):
            return f"pip install -e '{clone}[{extra}]'"
    return f"in kopipasta's clone, run pip install -e '.[{extra}]'"


@main.command("mcp", epilog=MCP_EPILOG, short_help="Serve kopipasta's edit tools to a coding agent (MCP, stdio).")
@ROOT_OPTION
def mcp_command(root: Path) -> None:
    """Serve kopipasta's structural edit tools to a coding agent over MCP.

    MCP (the Model Context Protocol) is how coding agents such as Claude Code,
    Cursor and Codex call outside tools. The agent starts this command and
    talks to it on stdin/stdout; you do not run it in a terminal yourself.
    Through it the agent edits code by definition name (replace a method,
    insert a function after another, set a key in package.json) with
    kopipasta's checks, atomic writes and undo, instead of text replacement.
    """
    try:
        from kopipasta.agents.server import serve
    except ImportError as error:
        fail(f"kopipasta mcp needs the MCP SDK ({error.name or error}): {_install_extra('mcp')}", 1)
    from kopipasta.startup.shortrun import pace_for_a_long_run

    pace_for_a_long_run()  # a server runs for hours: the collector's usual pace, the ordinary exit
    if sys.stdin.isatty():  # a person, not an agent: say what this is (stderr: stdout is the protocol's)
        click.echo(
            "kopipasta mcp serves MCP on stdin/stdout for a coding agent, which starts it itself "
            "(see `kopipasta mcp --help`). Ctrl-C to stop.",
            err=True,
        )
    serve(root)
