"""The path-like names intake collects from the prose above a block (PROTOCOL.md §2).

Whether a name is the block's file is the engine's to say (code/read/prose_file.py,
the attr_prose_* fixtures); these pin what is collected.
"""

from __future__ import annotations

import pytest

from kopipasta.intake.attribution import paths_in_prose
from kopipasta.intake.reader import parse_reply


@pytest.mark.parametrize(
    ("prose", "paths"),
    [
        ("Replace the `parse_header` function in `app/utils.py` with:", ("app/utils.py",)),
        ("**Changes to `app/utils.py`:**", ("app/utils.py",)),
        ("Update app/utils.py as follows.", ("app/utils.py",)),
        ("See `app/utils.py:42`, not https://example.com/a.py", ("app/utils.py",)),
        ('Edit "src/App.tsx" (the component).', ("src/App.tsx",)),
        ("I fixed `app/models.py`. Now replace the helper in `app/utils.py` with:", ("app/utils.py",)),
        ("Replace the function with:", ()),
        ("Use /etc/hosts or ~/notes.txt", ()),
    ],
)
def test_paths_in_the_last_sentence(prose: str, paths: tuple[str, ...]) -> None:
    assert paths_in_prose([prose]) == paths


def test_a_block_with_a_file_collects_nothing() -> None:
    (block,) = parse_reply("In `app/utils.py`:\n\n```python\n# FILE: app/x.py\ndef f():\n    pass\n```\n")
    assert block.file == "app/x.py"
    assert block.prose_paths == () and block.comment_paths == ()


def test_the_first_comment_line_and_not_a_diff_header() -> None:
    (comment,) = parse_reply("```python\n# In app/utils.py\ndef f():\n    pass\n```\n")
    assert comment.file is None and comment.comment_paths == ("app/utils.py",)
    (diff,) = parse_reply("```\n--- app.py\n+++ app.py\n@@ -1 +1 @@\n-a\n+b\n```\n")
    assert diff.comment_paths == ()


def test_a_file_line_above_blank_lines_names_the_block() -> None:
    (block,) = parse_reply("FILE: app/utils.py\n\n\n\n```python\ndef f():\n    pass\n```\n")
    assert block.file == "app/utils.py"
    (prose,) = parse_reply("app/utils.py\n\n\n\n```python\ndef f():\n    pass\n```\n")
    assert prose.file is None  # a bare path line that far up belongs to another paragraph
