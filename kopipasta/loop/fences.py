"""A file in a Markdown fence: its info string, and a fence no backtick run inside it can close.

Shared by the prompt (each file's text) and the correction message (the code the model lacks).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

_INFO_STRINGS = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "jsx",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".json": "json",
    ".jsonc": "jsonc",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".cs": "csharp",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".scala": "scala",
    ".sc": "scala",
    ".swift": "swift",
    ".c": "c",
    ".cpp": "cpp",
    ".cc": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".h": "cpp",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".php": "php",
    ".lua": "lua",
    ".sh": "bash",
    ".bash": "bash",
    ".vue": "vue",
    ".svelte": "svelte",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
}


def fence_for(text: str) -> str:
    """Backticks, at least three and longer than any backtick run in `text`."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def info_string(path: str) -> str:
    """The fence's info string for a file: python, tsx, json, … ("" when unknown)."""
    return info_of(path)


def info_of(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    return _INFO_STRINGS.get(suffix, suffix.lstrip("."))
