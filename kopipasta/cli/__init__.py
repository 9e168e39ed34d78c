"""The command line: parse options, call the library, print, choose the exit status.

Only this package imports click. Library errors become one-line messages here.
`group.py` is the command group, its shared options and how a command prints
and fails; each command (or pair of commands) is a module of its own, imported
when it runs: `apply_command` (apply, undo, demo), `listing` (nodes, stats),
`prompting` (prompt, session), `serving` (mcp).
"""

from __future__ import annotations

from kopipasta.cli.group import main

__all__ = ["main"]
