"""Which file the prose above a block names, confirmed by the project (PROTOCOL.md §2).

Intake collects the path-like names of the sentence above a block and of its first
comment line (it reads no project file); here exactly one must be a file of the
project, and the block must belong to it. For code and data, `code/read/prose_file`
says so (a restated definition, the whole file, a data fragment). For a text patch
that names no file ("In `app.py`, guard the mean:" over a search/replace), every
line it expects to find (context and removed lines, the SEARCH part) must stand in
that file; the matcher still decides where, strictly. This stands in text/, the
lowest room that knows both text patches and code. Any doubt: no file, so the block
is explanation, never a guessed write.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kopipasta.code.read.prose_file import belongs_to, existing_files
from kopipasta.disk.workspace import load, normalise
from kopipasta.errors import PatchError
from kopipasta.intake.textpatch_markers import may_be_text_patch
from kopipasta.intake.textpatch_syntax import read_text_patch
from kopipasta.model import Block


def named_in_prose(block: Block, root: Path) -> Block:
    """`block` with the file its prose (or first comment line, then dropped) names, or as it was.

    When the prose names several files of the project ("Move the check from `a.py` into
    `b.py`:"), the one the block fits (its definition, its expected lines) is named; two
    that fit name neither.
    """
    for paths, payload in (
        (block.prose_paths, block.payload),
        (block.comment_paths, block.payload.split("\n", 1)[1] if "\n" in block.payload else ""),
        (block.paragraph_paths, block.payload),
    ):
        try:
            candidates = existing_files(root, paths) if paths and payload.strip() else []
            fitting = [named for named in (replace(block, file=path, payload=payload) for path in candidates)
                       if _fits(named, root)]
            if len(fitting) == 1:
                return fitting[0]
        except Exception:  # noqa: BLE001 — a name that cannot be confirmed names nothing; never a traceback
            continue
    return block


def _fits(named: Block, root: Path) -> bool:
    assert named.file is not None
    if may_be_text_patch(named):
        try:
            is_patch = read_text_patch(named) is not None
        except PatchError:
            is_patch = True  # a malformed text patch is a patch, never code to place
        if is_patch:
            return _patch_belongs_to(named, root, named.file)
        # The marker was code that only looks like one (Lua's `--- doc` line): read as code.
    return belongs_to(root, named.file, named.payload, named.info)


def _patch_belongs_to(block: Block, root: Path, path: str) -> bool:
    try:
        patch = read_text_patch(block)
        data = load(root, path).data.decode("utf-8", "replace")
    except (PatchError, OSError):
        return False
    if patch is None or not patch.files or any(normalise(fp.path) != normalise(path) for fp in patch.files):
        return False  # its own headers name another file: the prose is not needed, nor trusted
    have = {line.strip() for line in data.splitlines()}
    expected = [line.strip() for fp in patch.files for hunk in fp.hunks for line in hunk.old if line.strip()]
    return bool(expected) and all(line in have for line in expected)
