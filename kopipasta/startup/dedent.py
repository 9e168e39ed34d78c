"""`textwrap.dedent`, without importing textwrap for a text it would leave as it is (issue 9).

Importing textwrap compiles its wrapper's patterns (~0.8 ms of a one-block apply), and
dedent is all kopipasta uses of it: on every TARGET_NODE payload (`imports.split_imports`,
`parsed.read_payload`). Most payloads start at column 0, and dedent returns such a text
unchanged unless a line of it is only whitespace (dedent empties those). So that case is
told first, by a test strict enough for every Python's dedent (3.14's empties any
whitespace-only line, not only spaces and tabs); anything else goes to textwrap.
tests/test_dedent.py pins `dedent` to `textwrap.dedent`.
"""

from __future__ import annotations


def dedent(text: str) -> str:
    """`textwrap.dedent(text)`."""
    if _dedent_keeps(text):
        return text
    import textwrap

    return textwrap.dedent(text)


def _dedent_keeps(text: str) -> bool:
    """True only when `textwrap.dedent(text)` is `text`: a line starts with a character that
    is not whitespace (the common margin is empty), and no line is whitespace alone."""
    at_margin = False
    for line in text.split("\n"):
        if not line:
            continue
        if line.isspace():
            return False
        if not line[0].isspace():
            at_margin = True
    return at_margin
