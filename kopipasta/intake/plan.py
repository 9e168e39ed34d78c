"""Block → Patch: which file, which operation, which target, which payload."""

from __future__ import annotations

import unicodedata

from kopipasta.errors import PayloadError
from kopipasta.intake.directives import comment_text
from kopipasta.model import FILE_KEY, OPERATION_OF_KEY, TARGET_KEYS, Block, Operation, Patch


def plan(block: Block) -> Patch | None:
    """The patch a block asks for; None for a block that is explanation, not a patch."""
    targets = [(key, value) for key, value in block.directives if key in TARGET_KEYS]
    if block.malformed is not None and (block.file or targets or block.malformed[1] == FILE_KEY):
        _fail_malformed(block)
    if block.file is None:
        if not targets:
            return None
        key = targets[0][0]
        raise PayloadError(
            f"Block {block.index} (line {block.line}) has {key} but no FILE",
            f"add `FILE: path/to/file` above the {key} line",
        )
    if len(targets) > 1:
        keys = " and ".join(key for key, _ in targets)
        raise PayloadError(
            f"Block {block.index} for {block.file} has {keys}: one target per block",
            "split it into one block per target",
        )
    if not targets:
        return Patch(block, block.file, Operation.WHOLE_FILE, None, block.payload)
    key, value = targets[0]
    if not value.strip():
        raise PayloadError(f"Block {block.index} for {block.file} has an empty {key}", f"write `{key}: function name`")
    operation = OPERATION_OF_KEY[key]
    if operation is Operation.DELETE_NODE:
        if block.payload.strip():
            raise PayloadError(
                f"DELETE_NODE {value} in {block.file} has a payload: a deletion takes an empty block",
                "leave the block empty, or use TARGET_NODE to replace the definition",
            )
    elif not block.payload.strip():
        raise PayloadError(
            f"{key} {value} in {block.file} has an empty payload",
            "to remove a definition use DELETE_NODE",
        )
    return Patch(block, block.file, operation, value.strip(), block.payload)


def _fail_malformed(block: Block) -> None:
    """A header line that means a directive but does not spell one: never payload, never a whole file."""
    assert block.malformed is not None
    line, key, value = block.malformed
    where = f"Block {block.index} (line {block.line})" + (f" for {block.file}" if block.file else "")
    raise PayloadError(
        f"{where}: header line `{_visible(line)}` is not a directive: did you mean {key}?",
        _fix(line, key, value),
    )


def _fix(line: str, key: str, value: str) -> str:
    written = f"{key}: {value}" if value else f"{key}: …"
    if comment_text(line) is None:
        return f"write it as a comment: `# {written}` (`// {written}` in C-like languages)"
    return f"write it as `{written}`"


def _visible(text: str) -> str:
    """Invisible characters (a zero-width space in a key) spelled out, so the user sees what is wrong."""
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) == "Cf" else c for c in text)
