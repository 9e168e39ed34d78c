"""One edit, in every form a tool understands, and the bytes it must leave behind.

An `Edit` is the truth of a bench row: the definition's text as it stands in the
file and the text that must replace it. From it come the file's expected
contents (computed here, by plain string replacement, never by a tool), our
reply block, the original kopipasta's search/replace block, an ast-grep rule
and the bare splice script's inputs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

_COMMENT = {"python": "#", "rust": "//", "go": "//", "typescript": "//", "tsx": "//"}
_FENCE = {"python": "python", "rust": "rust", "go": "go", "typescript": "ts", "tsx": "tsx"}


@dataclass(frozen=True)
class Edit:
    """Replace one definition: `old` stands exactly once in the file at `path`.

    `old` runs from the definition's first character to its last, as Tree-sitter
    spans it; `new` replaces it with every line after the first indented as it
    will stand in the file. `node_type` and `name` are how a generic tool finds
    it (an ast-grep rule, the bare script); `target` is our TARGET_NODE value.
    """

    path: str
    old: str
    new: str
    language: str
    node_type: str
    name: str
    target: str

    def column(self, text: str) -> str:
        """The whitespace before `old` on its line, checked to be the only thing there."""
        at = self.located(text)
        line_start = text.rfind("\n", 0, at) + 1
        prefix = text[line_start:at]
        assert not prefix.strip(), f"{self.path}: {self.name} does not start its line"
        return prefix

    def located(self, text: str) -> int:
        count = text.count(self.old)
        assert count == 1, f"{self.path}: {self.name}'s text is found {count} times, not once"
        end = text.find(self.old) + len(self.old)
        assert end == len(text) or text[end] == "\n", f"{self.path}: {self.name} does not end its line"
        return text.find(self.old)

    def applied_to(self, text: str) -> str:
        at = self.located(text)
        return text[:at] + self.new + text[at + len(self.old) :]

    def at_column_zero(self, text: str) -> str:
        """`new` as a model pastes it: the whole definition moved left to column 0."""
        return dedent_by(self.new, self.column(text))

    def fence(self) -> str:
        return _FENCE[self.language]

    def comment(self) -> str:
        return _COMMENT[self.language]


def dedent_by(first_line_at_column: str, prefix: str) -> str:
    """Remove `prefix` from every line after the first (the first has none: it starts mid-line)."""
    lines = first_line_at_column.split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        assert not line.strip() or line.startswith(prefix), f"line not indented by {prefix!r}: {line!r}"
        out.append(line[len(prefix) :] if line.strip() else line.lstrip(" \t"))
    return "\n".join(out)


def expected_files(files: dict[str, str], edits: Iterable[Edit]) -> dict[str, str]:
    """Every file as it must stand after all the edits, in order."""
    result = dict(files)
    for edit in edits:
        result[edit.path] = edit.applied_to(result[edit.path])
    return result


def targeted_block(edit: Edit, payload: str) -> str:
    """Our protocol: a fenced block with FILE and TARGET_NODE directives."""
    c = edit.comment()
    body = payload if payload.endswith("\n") else payload + "\n"
    return f"```{edit.fence()}\n{c} FILE: {edit.path}\n{c} TARGET_NODE: {edit.target}\n{body}```\n\n"


def insert_block(edit: Edit, operation: str, payload: str) -> str:
    """Our protocol's INSERT_AFTER / INSERT_BEFORE block, anchored on the edit's definition."""
    c = edit.comment()
    body = payload if payload.endswith("\n") else payload + "\n"
    return f"```{edit.fence()}\n{c} FILE: {edit.path}\n{c} {operation}: {edit.target}\n{body}```\n\n"


def search_replace_block(files: dict[str, str], edits: list[Edit]) -> str:
    """One fenced block per file, holding one SEARCH/REPLACE pair per edit, whole lines.

    This is the form the original kopipasta's prompt teaches and its patcher
    reads (and one of ours, PROTOCOL.md §8); the `FILE:` directive names the file.
    """
    blocks = []
    current = dict(files)
    by_file: dict[str, list[Edit]] = {}
    for edit in edits:
        by_file.setdefault(edit.path, []).append(edit)
    for path, file_edits in by_file.items():
        first = file_edits[0]
        parts = [f"```{first.fence()}\n{first.comment()} FILE: {path}\n"]
        for edit in file_edits:
            column = edit.column(current[path])
            parts.append(
                f"<<<<<<< SEARCH\n{column}{edit.old}\n=======\n{column}{edit.new}\n>>>>>>> REPLACE\n"
            )
            current[path] = edit.applied_to(current[path])
        parts.append("```\n\n")
        blocks.append("".join(parts))
    return "".join(blocks)


def ast_grep_rule(edit: Edit, text: str, rule_id: str = "bench-edit") -> dict[str, object]:
    """An ast-grep rule that finds the definition by its node kind and name and rewrites it.

    ast-grep re-indents a fix to the match's column, so the fix is the new
    definition at column 0. (It indents blank lines too, which is why the rows
    that pair it edit definitions at column 0 or without blank lines.)
    """
    named = {"has": {"field": "name", "regex": f"^{edit.name}$"}}
    if edit.node_type == "export_statement":  # `export function f`: the name is the declaration's
        matcher: dict[str, object] = {"kind": "export_statement", "has": {"kind": "function_declaration", **named}}
    else:
        matcher = {"kind": edit.node_type, **named}
    return {"id": rule_id, "language": edit.language, "rule": matcher, "fix": edit.at_column_zero(text)}


def ast_grep_rules(files: dict[str, str], edits: list[Edit]) -> str:
    """One rule per edit, each limited to its file, as one rule file (JSON documents are YAML)."""
    documents = []
    current = dict(files)
    for number, edit in enumerate(edits):
        rule = ast_grep_rule(edit, current[edit.path], f"edit-{number}")
        if len(edits) > 1:
            rule["files"] = [f"**/{edit.path}"]  # matched against the path with a prefix: `**/` takes it
        documents.append(json.dumps(rule, indent=1))
        current[edit.path] = edit.applied_to(current[edit.path])
    return "\n---\n".join(documents) + "\n"
