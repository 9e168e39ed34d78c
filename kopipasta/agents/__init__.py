"""Agents: kopipasta as a Model Context Protocol server for coding agents (issue 20).

`workbench` is what the tools do, without the protocol: it builds the Block a
reply would hold for each single edit (so the engine plans the very Patch the
protocol would, with the same resolution, refusals and hints), calls the engine
like any caller, and turns its Report into a result: a one-line text per block,
and a structured object with each written file's delta (disk/delta.py). It
keeps the project's Documents warm between calls (code/find/document.py's
DocumentCache) and serialises calls, so two racing edits of one file apply one
after the other, the second against the first's result.

`memory` and `seen` are read-before-write (issue 26): the version of each
definition a read returns, what the session last showed the agent, and the
refusal of an edit over a change it never saw; `seen` also finds
edit_definition's `old` inside one definition. `notices` gives each result the
warnings `kopipasta apply` prints (files run without asking, renames with the
places still using the old name, kept definitions). `wire` reads the stdio
lines before the SDK so a line it cannot parse is answered, never dropped.

`server` puts the workbench behind the official MCP SDK (`mcp`, the optional
`kopipasta[mcp]` extra), over stdio; it is imported only by `kopipasta mcp`, so
no other command pays for the SDK.

The room sits beside `cli` and above `loop` (pyproject's contracts): it reuses
loop's file selection (folders and globs, honouring .gitignore) and apply log.
"""
