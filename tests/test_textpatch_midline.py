"""Search/replace old text inside lines, and Claude Code's JSON edits (issue 24): bytes after, refusals."""

from __future__ import annotations

import pytest

from kopipasta.errors import AmbiguousTarget, TargetNotFound
from kopipasta.intake.textpatch_syntax import SEARCH_REPLACE, Hunk, read_text_patch, section_ops
from kopipasta.model import Block
from kopipasta.text.apply import apply_hunks


def _sr(old: str, new: str, *, every: bool = False) -> tuple[Hunk, ...]:
    return (Hunk(section_ops(old.split("\n"), new.split("\n")), 1, replace_all=every),)


def _apply(text: str, old: str, new: str, *, every: bool = False) -> str:
    return apply_hunks(text, _sr(old, new, every=every), form=SEARCH_REPLACE, path="a.py", newline="\n")[0]


def test_old_text_ending_mid_line_keeps_the_rest_of_the_line() -> None:
    assert _apply("x = f(a)  # why\ny = 2\n", "f(a)", "f(a, b)") == "x = f(a, b)  # why\ny = 2\n"


def test_old_text_spanning_lines_from_mid_line_to_mid_line_keeps_crlf() -> None:
    text = "a = [1,\r\n     2]\r\nb = 3\r\n"
    assert _apply(text, "1,\n     2]", "1, 2]") == "a = [1, 2]\r\nb = 3\r\n"


def test_applied_twice_is_unchanged() -> None:
    once = _apply("x = f(a)  # why\n", "f(a)", "f(a, b)")
    after, tiers = apply_hunks(once, _sr("f(a)", "f(a, b)"), form=SEARCH_REPLACE, path="a.py", newline="\n")
    assert (after, tiers) == (once, ["unchanged"])


def test_a_place_inside_a_longer_word_never_counts() -> None:
    with pytest.raises(TargetNotFound, match=r"only as part of a longer word \(line 1\)"):
        _apply("max_x = 10\n", "x = 1", "x = 2")
    # One whole-word place beside one inside a word: the whole-word one is meant.
    assert _apply("max_x = 1\nx = 1\n", "x = 1", "x = 2") == "max_x = 1\nx = 2\n"


def test_two_places_are_refused() -> None:
    with pytest.raises(AmbiguousTarget, match=r"stands 2 times in the file \(lines 1, 2\)"):
        _apply("a = f(x)\nb = f(x)\n", "f(x)", "g(x)")


def test_replace_all_changes_every_place_and_refuses_one_inside_a_word() -> None:
    assert _apply("a = f(x)\nb = f(x)\n", "f(x)", "g(x)", every=True) == "a = g(x)\nb = g(x)\n"
    with pytest.raises(TargetNotFound, match=r"replace_all would also change its old text inside a longer word \(line 2\)"):
        _apply("count = 1\ncounter = 2\n", "count", "total", every=True)


def _block(payload: str, file: str | None = None) -> Block:
    return Block(1, 1, "json", ((("FILE", file),) if file else ()), file, payload)


def test_a_json_edit_is_a_search_replace_section() -> None:
    patch = read_text_patch(_block('{"file_path": "src/a.py", "old_string": "x = 1\\n", "new_string": "x = 2\\n"}'))
    assert patch is not None and patch.form == SEARCH_REPLACE
    (fp,) = patch.files
    assert fp.path == "src/a.py" and fp.hunks[0].old == ["x = 1"] and fp.hunks[0].new == ["x = 2"]


def test_other_json_is_content() -> None:
    assert read_text_patch(_block('{"old_string": "a", "new_string": "b"}')) is None  # no file_path
    assert read_text_patch(_block('{"file_path": "a.py", "old_string": "a", "new_string": "b"}', "edits.json")) is None


def test_a_diff_without_header_whose_context_reads_two_ways_is_refused() -> None:
    from kopipasta.intake.textpatch_syntax import DIFF

    patch = read_text_patch(Block(1, 1, "python", (("FILE", "a.py"),), "a.py", " a\n-x\n+y"))
    assert patch is not None and patch.form == DIFF
    with pytest.raises(AmbiguousTarget, match="read two ways"):
        apply_hunks("a\nx\n a\nx\n", patch.files[0].hunks, form=DIFF, path="a.py", newline="\n")
    # Where only one reading is in the file, that one applies.
    assert apply_hunks("b\n a\nx\n", patch.files[0].hunks, form=DIFF, path="a.py", newline="\n")[0] == "b\n a\ny\n"
