"""Whether a text patch without a file belongs to the one file its prose names (PROTOCOL.md §2).

"In `app.py`, guard the mean:" over a search/replace block that names no file: the
prose names the file when every line the patch expects to find (context and removed
lines, the SEARCH part) stands in it. The matcher still decides where, strictly; this
only says the patch is about that file, as a restated definition says it for code.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from kopipasta.disk.workspace import load, normalise
from kopipasta.errors import PatchError
from kopipasta.intake.textpatch_syntax import read_text_patch
from kopipasta.model import Block


def patch_belongs_to(block: Block, root: Path, path: str) -> bool:
    try:
        patch = read_text_patch(replace(block, file=path))
        data = load(root, path).data.decode("utf-8", "replace")
    except (PatchError, OSError):
        return False
    if patch is None or not patch.files or any(normalise(fp.path) != normalise(path) for fp in patch.files):
        return False  # its own headers name another file: the prose is not needed, nor trusted
    have = {line.strip() for line in data.splitlines()}
    expected = [line.strip() for fp in patch.files for hunk in fp.hunks for line in hunk.old if line.strip()]
    return bool(expected) and all(line in have for line in expected)
