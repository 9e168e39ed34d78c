"""The values that flow through the pipeline: reply blocks, patches, outcomes, reports.

Every stage takes and returns these frozen dataclasses, so a stage can be tested
on its own and nothing downstream can mutate what an earlier stage decided.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

# Directive keys of the protocol (PROTOCOL.md §2), upper-cased.
FILE_KEY = "FILE"
TARGET_KEYS = (
    "TARGET_NODE",
    "TARGET_PATH",
    "INSERT_AFTER",
    "INSERT_BEFORE",
    "APPEND_TO",
    "DELETE_NODE",
)
DIRECTIVE_KEYS = (FILE_KEY, *TARGET_KEYS)


@dataclass(frozen=True)
class Block:
    """One fenced code block of a reply, with its header directives taken off."""

    index: int  # 1-based position among all fenced blocks of the reply
    line: int  # 1-based line of the opening fence in the reply
    info: str  # the fence's info string, e.g. "python"
    directives: tuple[tuple[str, str], ...]  # (KEY, value) in header order, keys upper-cased
    file: str | None  # from FILE, or from the line naming a file just above the fence
    payload: str  # the block's content after the header, "\n" line endings
    # A header line written as a directive whose key is not one: (the line, the key it
    # likely means, its value). The block fails rather than read it as code (directives.py).
    malformed: tuple[str, str, str] | None = None
    # The fence never closes before the reply ends: the reply was cut off, so the block may be
    # too (issue 19). It is never read as a whole file. This and the prose below are the block's
    # context, not its content: two blocks of equal content are equal.
    cut_off: bool = field(default=False, compare=False)
    # The reply's prose (its lines outside fences), for what a reading may take from it: a
    # whole file that leaves out a definition removes it only when the prose says so.
    prose: str = field(default="", compare=False)
    # The prose between the block before it (or the reply's start) and its fence: "Option 2 — stricter:".
    lead: str = field(default="", compare=False)
    # No file named by FILE, the info string or the line above: the paths the prose directly
    # above the block (or its first comment line) mentions. Only the engine, which knows the
    # project, can tell whether one of them is the block's file (PROTOCOL.md §2).
    prose_paths: tuple[str, ...] = ()
    # The same from the payload's first line, a comment (`# In app/utils.py`) that goes
    # with the attribution when it is taken.
    comment_paths: tuple[str, ...] = ()
    # Every path the whole paragraph above names, when that is more than `prose_paths`
    # (the last sentence's): tried after them ("In `day.tsx`: … It uses `lib/time.ts`.").
    paragraph_paths: tuple[str, ...] = ()

    def directive(self, key: str) -> str | None:
        for k, v in self.directives:
            if k == key:
                return v
        return None


class Operation(str, enum.Enum):
    REPLACE_NODE = "replace_node"  # TARGET_NODE
    SET_PATH = "set_path"  # TARGET_PATH
    WHOLE_FILE = "whole_file"  # FILE and no target
    INSERT_AFTER = "insert_after"
    INSERT_BEFORE = "insert_before"
    APPEND_TO = "append_to"
    DELETE_NODE = "delete_node"
    TEXT_PATCH = "text_patch"  # a diff, search/replace or envelope block (PROTOCOL.md §8)


OPERATION_OF_KEY = {
    "TARGET_NODE": Operation.REPLACE_NODE,
    "TARGET_PATH": Operation.SET_PATH,
    "INSERT_AFTER": Operation.INSERT_AFTER,
    "INSERT_BEFORE": Operation.INSERT_BEFORE,
    "APPEND_TO": Operation.APPEND_TO,
    "DELETE_NODE": Operation.DELETE_NODE,
}


# The protocol's words for each operation (PROTOCOL.md §2), as the reply writes them.
DIRECTIVE_OF_OPERATION = {
    Operation.REPLACE_NODE: "TARGET_NODE",
    Operation.SET_PATH: "TARGET_PATH",
    Operation.INSERT_AFTER: "INSERT_AFTER",
    Operation.INSERT_BEFORE: "INSERT_BEFORE",
    Operation.APPEND_TO: "APPEND_TO",
    Operation.DELETE_NODE: "DELETE_NODE",
}


@dataclass(frozen=True)
class Patch:
    """What one block asks for: an operation on one file."""

    block: Block
    file: str  # as written in the reply, relative to the project root
    operation: Operation
    target: str | None  # the raw target text (`function TableBody`, `dependencies`), None for whole-file
    payload: str

    @property
    def directive(self) -> str:
        """The header as the protocol words it: `TARGET_NODE function TableBody`."""
        return f"{DIRECTIVE_OF_OPERATION.get(self.operation, self.operation.name)} {self.target}"


class Status(str, enum.Enum):
    APPLIED = "applied"
    UNCHANGED = "unchanged"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class Outcome:
    """The report line for one block."""

    block_index: int
    block_line: int
    file: str | None
    operation: Operation | None
    target: str | None
    status: Status
    message: str = ""  # the one-line reason for failed/skipped, or a note (renamed, created)
    hint: str = ""  # what to do about a failure
    lines_added: int = 0
    lines_removed: int = 0
    # How the block was read (PROTOCOL.md §7): "whole file", "inferred fragment", "merged elision",
    # "read by definition" (a TARGET_NODE payload restating more than its target); "" for a directive.
    reading: str = ""
    failure_kind: str = ""  # for a failure, the error's class (TargetNotFound, SyntaxCheckError, …): the apply log counts them


@dataclass(frozen=True)
class FileChange:
    """One file's contents before and after the reply, as bytes on disk."""

    path: str  # relative to the root, "/"-separated
    before: bytes | None  # None: the reply creates the file
    after: bytes | None  # None: the reply deletes the file (apply --allow-delete)
    renamed_from: str | None = None  # a rename's new name: the path it had (the old one's change is its deletion)


@dataclass(frozen=True)
class Report:
    """What one reply did: each block's outcome, the files it changed, whether they were written."""

    outcomes: tuple[Outcome, ...]
    changes: tuple[FileChange, ...]  # files whose bytes differ after the reply
    written: bool  # False for --dry-run, or when --strict stopped every write
    reply_error: str = ""  # set when the reply could not be read or held no patch
    notes: tuple[str, ...] = field(default_factory=tuple)  # one-line remarks for people

    @property
    def failed(self) -> bool:
        return any(o.status is Status.FAILED for o in self.outcomes)

    @property
    def patch_count(self) -> int:
        return sum(1 for o in self.outcomes if o.status is not Status.SKIPPED)
