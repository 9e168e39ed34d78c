"""The shortcut that keeps the text-patch reader out of a plain-code reply (issue 9) decides nothing.

`may_be_text_patch` is False only where `read_text_patch` answers None, and
`may_hold_unfenced_patches` only where there is no unfenced patch: checked on
every fixture's reply and on lines made to sit at the edge of each marker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kopipasta.errors import PatchError
from kopipasta.intake import reader as intake
from kopipasta.intake import textpatch_markers
from kopipasta.intake.reader import read_reply
from kopipasta.intake.textpatch_markers import may_be_text_patch
from kopipasta.intake.textpatch_syntax import read_text_patch
from kopipasta.model import Block

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
REPLIES = sorted(FIXTURES.glob("*/reply.md"))

# Payloads at the edge: each is a text patch, or fails as one, or is plain code.
EDGES = [
    "<<<DELETE>>>",
    "<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE",
    "------- SEARCH\nold\n=======\nnew\n+++++++ REPLACE",
    "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b",
    "@@ -1 +1 @@\n-a\n+b",
    "@@\n-a\n+b",
    "*** Begin Patch\n*** Update File: x.py\n@@\n-a\n+b\n*** End Patch",
    "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> main",
    "def f():\n    return 1",
    "x = 1  # not a diff: - or + at the start\n- a\n+ b",
]


def _read(text: str) -> list[Block]:
    return list(read_reply(text).blocks)


def _implication(block: Block) -> None:
    try:
        text_patch = read_text_patch(block)
    except PatchError:
        assert may_be_text_patch(block), block
        return
    if text_patch is not None:
        assert may_be_text_patch(block), block


@pytest.mark.parametrize("reply", REPLIES, ids=[p.parent.name for p in REPLIES])
def test_no_fixture_block_that_is_a_text_patch_is_taken_for_plain_code(reply: Path) -> None:
    for block in _read(reply.read_text(encoding="utf-8")):
        _implication(block)


@pytest.mark.parametrize("payload", EDGES)
@pytest.mark.parametrize("info", ["python", "diff", "patch", ""])
def test_edge_payloads(payload: str, info: str) -> None:
    _implication(Block(1, 1, info, (("FILE", "x.py"),), "x.py", payload))
    _implication(Block(1, 1, info, (), None, payload))


def test_the_unfenced_shortcut_reads_every_fixture_reply_as_the_full_reader_does(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [reply.read_text(encoding="utf-8") for reply in REPLIES]
    texts += [f"Here:\n\n{payload}\n\nDone.\n" for payload in EDGES]
    texts += [f"FILE: x.py\n{payload}\n" for payload in EDGES]
    shortcut = [read_reply(text) for text in texts]
    monkeypatch.setattr(textpatch_markers, "may_hold_unfenced_patches", lambda lines, prose: True)
    assert intake.read_reply is read_reply
    full = [read_reply(text) for text in texts]
    assert shortcut == full
    assert any(r.blocks for r in full)
