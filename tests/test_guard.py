"""The write guard (code/read/guard.py): the net under every reading, tested without one.

Each test hands the guard a file before and after a block, as a reading that went
wrong would leave it, and checks the guard refuses it with the one line a user
reads — or lets a correct result through. The fixtures test the readings; these
test that a future reading's mistake is caught even though no reading made it.
"""

from __future__ import annotations

import pytest

from kopipasta.code.find.document import in_memory
from kopipasta.code.read.guard import GuardError, check_write
from kopipasta.model import Block, Operation, Patch
from kopipasta.syntax.languages import language_for_path

PYTHON = language_for_path("m.py")
assert PYTHON is not None

FILE = (
    "import os\n\n\n"
    "class Repo:\n"
    "    def get(self, key):\n"
    "        return self.items[key]\n\n"
    "    def put(self, key, value):\n"
    "        self.items[key] = value\n\n\n"
    "def helper(x):\n"
    "    return x + 1\n\n\n"
    "def other(y):\n"
    "    y = int(y)\n"
    "    return y * 2\n"
)


def patch(payload: str, operation: Operation = Operation.WHOLE_FILE, target: str | None = None) -> Patch:
    block = Block(1, 1, "python", (), "m.py", payload)
    return Patch(block, "m.py", operation, target, payload)


def check(block: Patch, after: str, reading: str = "inferred fragment") -> None:
    before = in_memory(PYTHON, FILE.encode())
    check_write(block, before, before.after(after.encode(), None), reading)


def test_a_fragment_that_would_remove_an_unmentioned_function_is_refused() -> None:
    payload = "def helper(x):\n    return x + 2\n"
    after = FILE.replace("    return x + 1\n", "    return x + 2\n").replace("\n\ndef other(y):\n    y = int(y)\n    return y * 2\n", "")
    with pytest.raises(GuardError) as caught:
        check(patch(payload), after)
    assert caught.value.message == (
        "File block for m.py: the block would remove function other (line 16), which it does not mention"
    )
    assert "DELETE_NODE: function other" in caught.value.hint


def test_a_fragment_that_would_change_an_unmentioned_method_is_refused() -> None:
    payload = "def helper(x):\n    return x + 2\n"
    after = FILE.replace("x + 1", "x + 2").replace("self.items[key] = value", "self.items[key] = None")
    with pytest.raises(GuardError, match=r"would change method Repo\.put \(line 8\), which it does not mention"):
        check(patch(payload), after)


def test_what_the_block_restates_may_change_and_the_rest_stays() -> None:
    payload = "def helper(x):\n    return x + 2\n"
    check(patch(payload), FILE.replace("x + 1", "x + 2"))  # no error


def test_a_target_node_may_drop_members_of_its_own_target() -> None:
    payload = "class Repo:\n    def get(self, key):\n        return self.items.get(key)\n"
    after = FILE.replace(
        "        return self.items[key]\n\n    def put(self, key, value):\n        self.items[key] = value\n",
        "        return self.items.get(key)\n",
    )
    check(patch(payload, Operation.REPLACE_NODE, "class Repo"), after, "")  # the directive names all of Repo


def test_a_member_the_payload_frames_in_its_class_must_not_land_at_the_top_level() -> None:
    payload = "class Repo:\n    def size(self):\n        return len(self.items)\n"
    after = FILE + "\n\ndef size(self):\n    return len(self.items)\n"
    with pytest.raises(GuardError, match=r"method Repo\.size would land at the top level of the file, not inside Repo"):
        check(patch(payload), after)


def test_a_member_the_payload_indents_must_not_land_at_the_top_level() -> None:
    payload = "# ... existing code ...\n    def size(self):\n        return len(self.items)\n# ... existing code ...\n"
    after = FILE + "\n\ndef size(self):\n    return len(self.items)\n"
    with pytest.raises(GuardError, match=r"indents function size \(its line 2\) as a member, but it would be added at the top level"):
        check(patch(payload), after, "merged elision")


def test_a_payload_line_missing_from_the_result_is_refused() -> None:
    payload = "def helper(x):\n    x = abs(x)\n    return x + 1\n"
    with pytest.raises(GuardError, match=r"the payload's line 2 \(`x = abs\(x\)`\) would not be in the result"):
        check(patch(payload), FILE.replace("def helper(x):\n", "def helper(x):\n    x = x\n"))  # a reading that lost it


def test_a_rename_beside_a_restated_neighbour_is_refused() -> None:
    payload = "def helper(x):\n    return x + 2\n\n\ndef twice(y):\n    y = int(y)\n    return y * 2\n"
    after = FILE.replace("x + 1", "x + 2") + "\n\ndef twice(y):\n    y = int(y)\n    return y * 2\n"
    with pytest.raises(GuardError, match=r"function twice is not in the file, and its body repeats function other"):
        check(patch(payload), after)


def test_a_whole_file_read_as_the_whole_file_mentions_everything() -> None:
    payload = FILE.replace("\n\ndef other(y):\n    y = int(y)\n    return y * 2\n", "")
    check(patch(payload), payload, "whole file")  # the reading decided: the guard does not second-guess it


def test_a_line_anchored_block_may_not_move_a_method_out_of_its_class() -> None:
    # Each line of the block in the result, in order, and what the placeholder stands for kept: only
    # the names tell that `put` left `Repo` (a one-shift reading of a 4-space block in a 2-space file
    # wrote `def total` at column 0 so).
    from kopipasta.code.read import line_reading

    payload = "class Repo:\n    # ... existing code ...\n    def put(self, key, value):\n        self.items[key] = value\n"
    before = in_memory(PYTHON, FILE.encode())
    line_reading.read_block(before, payload)
    after = FILE.replace("    def put(self, key, value):\n", "def put(self, key, value):\n")
    with pytest.raises(GuardError, match=r"`Repo\.put` would become `put`, at another nesting"):
        check_write(patch(payload), before, before.after(after.encode(), None), "merged elision")
