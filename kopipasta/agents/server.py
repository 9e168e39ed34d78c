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

import contextlib
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from kopipasta.agents.results import Result
from kopipasta.agents.workbench import Workbench

INSTRUCTIONS = """\
kopipasta edits this project's code by definition name, never by fuzzy text matching.
Each edit finds exactly one definition with Tree-sitter, re-indents your code to fit,
merges the imports it starts with, checks the file still parses, and writes atomically
with an undo journal; a missing or ambiguous target is refused with the fix, and nothing
is written. Languages: {languages}; data files: JSON, YAML, TOML.
Workflow: list_definitions to see the names, read_definition to read one (it returns its
version), then edit_definition for a small change inside a definition, replace_definition
when most of it changes, insert_definition / delete_definition, set_value for JSON, YAML,
TOML. An edit of a definition that changed since you last read it (someone else edited it)
is refused: read it again. Several edits at once, or a diff / search-replace you already
have: apply_reply. Every edit tool takes dry_run. Each result lists the files written with
their sha256, changed lines and diff, and apply's warnings (files other tools run without
asking, renames with the places still using the old name). undo puts back the last apply.
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
EXPECTED_VERSION = Annotated[
    str | None,
    Field(
        description="The `version` read_definition or list_definitions returned for the target (or the file's "
        "`file_version`): the edit is refused, naming what changed, if the target is no longer that version. "
        "Without it, the edit is refused only if the target changed since this session last read it."
    ),
]
# JSON-typed: a string is sent as a string ("^3.6.2"), never JSON-encoded inside a string.
JSON_VALUE = Annotated[
    str | int | float | bool | list[Any] | dict[str, Any] | None,
    Field(
        description="The new value, typed as it is to be written: a string (\"^18.2.0\", sent as a plain string, "
        "not JSON-encoded), a number, true/false, null, a list or an object."
    ),
]

# Annotations as the tools behave: an edit sent twice changes nothing the second time (idempotent),
# apply_reply's text patches and undo do not (undo steps one apply further back each call).
_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_EDIT = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
_DELETE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)
_APPLY = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False)
_UNDO = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False)

DESCRIPTIONS = {
    "list_definitions": (
        "List the definitions each file offers to the edit tools: kind, the name to target, lines, and the version "
        "of each definition and of each file (pass one as expected_version). For JSON, YAML and TOML files, the "
        "top-level keys (paths for set_value). Folders are walked honouring .gitignore; their files kopipasta has "
        "no grammar for are skipped and named at the end. Languages: {languages}."
    ),
    "read_definition": (
        "Return the current source of one definition, with its decorators and the comment above it, and its "
        "version. Read it before editing: it is exactly what replace_definition covers and what edit_definition's "
        "`old` is found in, and the session remembers it: an edit after someone else changed the definition is "
        "refused instead of overwriting their change."
    ),
    "edit_definition": (
        "Replace the exact text `old` with `new` inside one definition. `old` must occur exactly once inside the "
        "target (it may occur elsewhere in the file), may start and end mid-line, and must match the definition's "
        "current text exactly, whitespace included. Use it for a small change inside a big definition: it costs "
        "the changed lines, not the whole definition. Use replace_definition when most of the definition changes. "
        "Same checks as every edit: the file must still parse, the write is atomic and undoable."
    ),
    "replace_definition": (
        "Replace one definition (function, method, class, ...) with new code. Decorators and the comment above it "
        "are kept unless your code restates them. Use it when most of the definition changes (for a few lines, "
        "edit_definition costs less). Renaming the definition is reported with the places that still use the old "
        "name. Refused, with the fix, when the target is missing or ambiguous, changed since you read it, or the "
        "result would not parse; nothing is written then. Sending the same code twice is safe: the second call "
        "reports `unchanged`."
    ),
    "insert_definition": (
        "Add new definitions beside an existing one ('after' / 'before' the anchor), last in a class body "
        "('append_to' the class), or at the end of the file ('append_to' 'file'), spaced like their neighbours. "
        "The result names each definition inserted. Inserting a definition that is already there, identical, "
        "changes nothing."
    ),
    "delete_definition": "Remove one definition, with its decorators and the comment above it.",
    "set_value": (
        "Set one value in a JSON, YAML or TOML file, keeping every other byte (comments, order, quoting style). "
        "The value is typed: send a string as a string, an object as an object."
    ),
    "apply_reply": (
        "Apply a whole reply: many edits over many files in one call (one check, one undo step), in any form "
        "kopipasta reads. Code blocks carry directive lines as comments at their top: `FILE: path` (which file), "
        "then at most one of `TARGET_NODE: [kind] name` (replace that definition), `INSERT_AFTER` / "
        "`INSERT_BEFORE: name` (add beside it), `APPEND_TO: Class` or `APPEND_TO: file` (add at the end), "
        "`DELETE_NODE: name` (remove it; empty block), `TARGET_PATH: a.b[0]` (set a value in JSON, YAML, TOML). "
        "A block with `FILE` and no target is a whole file or a fragment of one (its definitions replace theirs). "
        "Also read: unified diffs, SEARCH/REPLACE blocks, and *** Begin Patch envelopes (exact, never fuzzy). "
        "Use it for several edits at once or for a diff you already have."
    ),
    "undo": (
        "Put back the last apply (of this server or the kopipasta command) byte for byte; each call steps one "
        "apply further back. Refused, naming the files, when one of them was changed since that apply."
    ),
}


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


def build_server(root: Path, bench: Workbench | None = None) -> MCPServer:
    """The server with its tools, for one project root (over `bench`, the workbench of that root)."""
    bench = bench if bench is not None else Workbench(root)
    languages = _languages()
    server = _Server(
        "kopipasta", instructions=INSTRUCTIONS.format(languages=languages), version=_version(), log_level="WARNING"
    )

    def described(annotations: ToolAnnotations, name: str) -> Any:
        return server.tool(name=name, annotations=annotations, description=DESCRIPTIONS[name].format(languages=languages))

    @described(_READ_ONLY, "list_definitions")
    async def list_definitions(
        paths: Annotated[
            list[str],
            Field(description="Files, folders (walked, honouring .gitignore) or globs ('src/**/*.py'), relative to the root."),
        ],
    ) -> CallToolResult:
        return _result(await bench.answer(lambda: bench.list_definitions(paths)))

    @described(_READ_ONLY, "read_definition")
    async def read_definition(file: FILE, target: TARGET) -> CallToolResult:
        return _result(await bench.answer(lambda: bench.read_definition(file, target)))

    @described(_EDIT, "edit_definition")
    async def edit_definition(
        file: FILE,
        target: TARGET,
        old: Annotated[str, Field(description="The exact text to replace; it must occur once inside the target.")],
        new: Annotated[str, Field(description="The text to put in its place (may be empty).")],
        expected_version: EXPECTED_VERSION = None,
        dry_run: DRY_RUN = False,
    ) -> CallToolResult:
        return _result(await bench.answer(lambda: bench.edit_definition(file, target, old, new, dry_run, expected_version)))

    @described(_EDIT, "replace_definition")
    async def replace_definition(
        file: FILE, target: TARGET, code: CODE, expected_version: EXPECTED_VERSION = None, dry_run: DRY_RUN = False
    ) -> CallToolResult:
        return _result(await bench.answer(lambda: bench.replace_definition(file, target, code, dry_run, expected_version)))

    @described(_EDIT, "insert_definition")
    async def insert_definition(
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
        expected_version: EXPECTED_VERSION = None,
        dry_run: DRY_RUN = False,
    ) -> CallToolResult:
        return _result(await bench.answer(lambda: bench.insert_definition(file, position, anchor, code, dry_run, expected_version)))

    @described(_DELETE, "delete_definition")
    async def delete_definition(
        file: FILE, target: TARGET, expected_version: EXPECTED_VERSION = None, dry_run: DRY_RUN = False
    ) -> CallToolResult:
        return _result(await bench.answer(lambda: bench.delete_definition(file, target, dry_run, expected_version)))

    @described(_EDIT, "set_value")
    async def set_value(
        file: Annotated[str, Field(description="A JSON, YAML or TOML file, relative to the project root.")],
        path: Annotated[
            str,
            Field(
                description="Where the value is: keys joined by dots, [n] for list items: 'dependencies.react', "
                "'services.web.ports[0]', 'tool.ruff.line-length'. A new key is added to an existing mapping."
            ),
        ],
        value: JSON_VALUE,
        expected_version: EXPECTED_VERSION = None,
        dry_run: DRY_RUN = False,
    ) -> CallToolResult:
        return _result(await bench.answer(lambda: bench.set_value(file, path, value, dry_run, expected_version)))

    @described(_APPLY, "apply_reply")
    async def apply_reply(
        text: Annotated[
            str,
            Field(
                description="Markdown holding code blocks with kopipasta's directive lines, whole files or fragments, "
                "unified diffs, SEARCH/REPLACE blocks or a *** Begin Patch envelope."
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
        return _result(await bench.answer(lambda: bench.apply_reply(text, dry_run, strict, partial, allow_delete)))

    @described(_UNDO, "undo")
    async def undo() -> CallToolResult:
        return _result(await bench.answer(bench.undo))

    _typed_values(server)
    return server


def _typed_values(server: MCPServer) -> None:
    """set_value's `value` as sent: the SDK would read a string holding JSON ("true", "[1]") as that JSON.

    A string is a string (issue 26): the schema types the value, so a client
    sends an object as an object; a string that looks like JSON stays a string.
    """
    manager = getattr(server, "_tool_manager", None)  # the SDK offers no per-tool switch
    tool = manager.get_tool("set_value") if manager is not None else None
    if tool is not None and hasattr(tool, "fn_metadata"):  # another SDK version: its own behaviour stands
        object.__setattr__(tool.fn_metadata, "pre_parse_json", lambda data: data)


def _languages() -> str:
    from kopipasta.syntax.languages import LANGUAGES

    return ", ".join(sorted({spec.name for spec in LANGUAGES}, key=str.lower))


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
    """Serve the tools over stdin/stdout until the client closes them (or stops reading the answers)."""
    import anyio

    from kopipasta.agents.wire import peer_gone, serve_stdio

    bench = Workbench(root)
    try:
        anyio.run(serve_stdio, build_server(root, bench), bench.warm_up)
    except BaseException as error:
        if not peer_gone(error):
            raise
        # The client closed its end of stdout: nobody is left to answer. One line, no traceback.
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write("kopipasta mcp: the client stopped reading the answers; stopped\n")
            sys.stderr.flush()
