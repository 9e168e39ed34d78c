"""`kopipasta.startup.dedent.dedent` is `textwrap.dedent`: its shortcut (no import for a text dedent
keeps) decides nothing. Checked on generated texts made of the characters dedent looks at,
on every fixture reply's block payloads, and on the edges of the shortcut's test.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from kopipasta.intake.reader import read_reply
from kopipasta.startup import dedent as dedent_module
from kopipasta.startup.dedent import dedent

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# Lines of spaces, tabs, other whitespace (\r, \f, \v, a no-break space) and code, joined by "\n".
line = st.text(alphabet=" \t\r\x0b\x0c\u00a0ab#", max_size=8)
texts = st.lists(line, max_size=8).map("\n".join)


@settings(max_examples=3000, deadline=None)
@given(text=texts)
def test_dedent_is_textwrap_dedent(text: str) -> None:
    event("shortcut" if dedent_module._dedent_keeps(text) else "textwrap")
    assert dedent(text) == textwrap.dedent(text)


EDGES = [
    "",
    "\n",
    "def f():\n    return 1\n",
    "    def f():\n        return 1\n",
    "def f():\n    \n    return 1\n",  # a line of spaces: dedent empties it
    "def f():\n\t\n",
    "def f():\n\r\n",  # whitespace other than spaces and tabs: left to textwrap
    "  \n",
    "\x0cdef f(): pass\n",
    "\u00a0x\n  y\n",
    "x",
    "   x",
]


@pytest.mark.parametrize("text", EDGES)
def test_edges(text: str) -> None:
    assert dedent(text) == textwrap.dedent(text)


def test_the_shortcut_is_taken_for_a_payload_at_column_0_and_not_otherwise() -> None:
    assert dedent_module._dedent_keeps("def f():\n    return 1\n")
    assert not dedent_module._dedent_keeps("    def f():\n        return 1\n")
    assert not dedent_module._dedent_keeps("def f():\n    \n    return 1\n")


def test_every_fixture_payload() -> None:
    kept = 0
    for reply in sorted(FIXTURES.glob("*/reply.md")):
        for block in read_reply(reply.read_text(encoding="utf-8")).blocks:
            assert dedent(block.payload) == textwrap.dedent(block.payload), reply
            kept += dedent_module._dedent_keeps(block.payload)
    assert kept > 300  # most payloads start at column 0: the shortcut is taken
