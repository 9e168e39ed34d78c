"""`kopipasta mcp`: the workbench's tools behind the official MCP SDK, over stdio.

Imported only by that command (the SDK, pydantic and anyio cost ~0.3 s to
import: no other command pays for them). Each tool is a thin function with a
JSON schema (from its annotations) and a description written for a model; it
calls the Workbench and returns its Result as a CallToolResult: the text a
model reads, the structured object a program reads, and isError for a refusal.
A malformed argument (a wrong type, a missing field, an unknown position) is
refused by the SDK's validation as a tool error with isError set, naming the
argument; never a protocol error or a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from kopipasta.agents.workbench import Result, Workbench

INSTRUCTIONS = """\
kopipasta edits this project's code by definition name, never by fuzzy text matching.
Each edit finds exactly one definition with Tree-sitter, re-indents your code to fit,
merges the imports it starts with, checks the file still parses, and writes atomically;
a missing or ambiguous target is refused with the fix, and nothing is written.
Workflow: list_definitions to see the names, read_definition to read one, then
replace_definition / insert_definition / delete_definition (or set_value for JSON, YAML,
TOML). Several edits at once, or a diff / search-replace you already have: apply_reply.
Every edit tool takes dry_run. Each result lists the files written with their sha256,
changed lines and diff. undo puts back the last apply.
"""

FILE = Annotated[str, Field(description="Path of the file, relative to the project root (e.g. 'app/cart.py').")]
TARGET = Annotated[
    str,
    Field(
        description="The definition, as `[kind] name`: 'function parse', 'method Cart.total', 'class Cart', "
        "'Cart.total' (kind optional; qualify methods with their class; 'name#2' picks the second of "
        "same-named ones). list_definitions shows every name a file offers."
    ),
]
CODE = Annotated[
    str,
    Field(
        description="The complete new code, at any indentation (it is re-indented to fit). It may start with the "
        "import lines it needs: they are merged into the file's imports, not pasted in place."
    ),
]
DRY_RUN = Annotated[bool, Field(description="Resolve, splice and check, return the diff, but write nothing.")]

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_EDIT = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_DELETE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)


class _Server(MCPServer):
    """MCPServer, with arguments that fail the tool's schema refused in one line a model can act on.

    The SDK refuses them already (isError, before the tool runs) with pydantic's
    report: several lines and a URL. The same facts, one line per call.
    """

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if not isinstance(error.__cause__, ValidationError):
                raise
            problems = "; ".join(_problem(e) for e in error.__cause__.errors())
            text = f"Invalid arguments for {name}: {problems} — see the tool's input schema"
            return CallToolResult(
                content=[TextContent(type="text", text=text)],
                structured_content={"status": "failed", "error": f"Invalid arguments for {name}: {problems}",
                                    "hint": "see the tool's input schema"},
                is_error=True,
            )


def _problem(error: Any) -> str:
    where = ".".join(str(part) for part in error["loc"]) or "arguments"
    if error["type"] == "missing":
        return f"{where}: missing"
    return f"{where}: {error['msg'][:1].lower()}{error['msg'][1:]} (got {error['input']!r})"[:300]


def build_server(root: Path) -> MCPServer:
    """The server with its tools, for one project root."""
    bench = Workbench(root)
    server = _Server("kopipasta", instructions=INSTRUCTIONS, version=_version(), log_level="WARNING")

    @server.tool(annotations=_READ_ONLY)
    def list_definitions(
        paths: Annotated[
            list[str],
            Field(description="Files, folders (walked, honouring .gitignore) or globs ('src/**/*.py'), relative to the root."),
        ],
    ) -> CallToolResult:
        """List the definitions each file offers to the edit tools: kind, the name to target, and lines.

        For JSON, YAML and TOML files, the top-level keys (paths for set_value)."""
        return _result(bench.list_definitions(paths))

    @server.tool(annotations=_READ_ONLY)
    def read_definition(file: FILE, target: TARGET) -> CallToolResult:
        """Return the current source of one definition, with its decorators and the comment above it.

        Read this before replace_definition: it is exactly what the replacement covers."""
        return _result(bench.read_definition(file, target))

    @server.tool(annotations=_EDIT)
    def replace_definition(file: FILE, target: TARGET, code: CODE, dry_run: DRY_RUN = False) -> CallToolResult:
        """Replace one definition (function, method, class, ...) with new code.

        Decorators and the comment above it are kept unless your code restates them. Refused, with the
        fix, when the target is missing or ambiguous, or the result would not parse; nothing is written then.
        Sending the same code twice is safe: the second call reports `unchanged`."""
        return _result(bench.replace_definition(file, target, code, dry_run))

    @server.tool(annotations=_EDIT)
    def insert_definition(
        file: FILE,
        position: Annotated[
            Literal["after", "before", "append_to"],
            Field(description="'after' or 'before' the anchor definition, or 'append_to': last in the anchor's body."),
        ],
        anchor: Annotated[
            str,
            Field(
                description="The definition to insert beside ('method Cart.total'), or for append_to the class "
                "(or 'file' for the end of the file)."
            ),
        ],
        code: CODE,
        dry_run: DRY_RUN = False,
    ) -> CallToolResult:
        """Add new definitions beside an existing one, spaced like their neighbours.

        Inserting a definition that is already there, identical, changes nothing."""
        return _result(bench.insert_definition(file, position, anchor, code, dry_run))

    @server.tool(annotations=_DELETE)
    def delete_definition(file: FILE, target: TARGET, dry_run: DRY_RUN = False) -> CallToolResult:
        """Remove one definition, with its decorators and the comment above it."""
        return _result(bench.delete_definition(file, target, dry_run))

    @server.tool(annotations=_EDIT)
    def set_value(
        file: Annotated[str, Field(description="A JSON, YAML or TOML file, relative to the project root.")],
        path: Annotated[
            str,
            Field(
                description="Where the value is: keys joined by dots, [n] for list items: 'dependencies.react', "
                "'services.web.ports[0]', 'tool.ruff.line-length'. A new key is added to an existing mapping."
            ),
        ],
        value: Annotated[Any, Field(description="The new value, as JSON: a string, number, boolean, list or object.")],
        dry_run: DRY_RUN = False,
    ) -> CallToolResult:
        """Set one value in a data file, keeping every other byte (comments, order, quoting style)."""
        return _result(bench.set_value(file, path, value, dry_run))

    @server.tool(annotations=_EDIT)
    def apply_reply(
        text: Annotated[
            str,
            Field(
                description="Markdown holding code blocks in kopipasta's protocol (`# FILE:` and `# TARGET_NODE:` "
                "lines), whole files or fragments, unified diffs, SEARCH/REPLACE blocks or a *** Begin Patch envelope."
            ),
        ],
        dry_run: DRY_RUN = False,
        strict: Annotated[bool, Field(description="All or nothing: if any block fails, write no file.")] = False,
        partial: Annotated[
            bool, Field(description="Write each block that succeeded even when another block on its file failed.")
        ] = False,
        allow_delete: Annotated[
            bool, Field(description="Let the reply delete or rename files (/dev/null diffs, *** Delete File).")
        ] = False,
    ) -> CallToolResult:
        """Apply a whole reply: many edits over many files in one call, in any form kopipasta reads.

        Use it for several edits at once (one check, one undo step) or for a diff you already have."""
        return _result(bench.apply_reply(text, dry_run, strict, partial, allow_delete))

    @server.tool(annotations=_DELETE)
    def undo() -> CallToolResult:
        """Put back the last apply (of this server or the kopipasta command) byte for byte.

        Refused, naming the files, when one of them was changed since that apply."""
        return _result(bench.undo())

    return server


def _result(result: Result) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=result.text)], structured_content=result.data, is_error=not result.ok
    )


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kopipasta")
    except PackageNotFoundError:
        return ""


def serve(root: Path) -> None:
    """Serve the tools over stdin/stdout until the client closes them."""
    build_server(root).run("stdio")
