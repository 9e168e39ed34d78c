"""Alternatives on one definition (intake/alternatives.py): refused in apply, never both written."""

from __future__ import annotations

from pathlib import Path

from kopipasta.engine import apply_reply
from kopipasta.intake.alternatives import find_alternatives, offers_choice
from kopipasta.intake.reader import read_reply
from kopipasta.model import Status

SOURCE = "def check(value):\n    return bool(value)\n\n\ndef other():\n    return 1\n"


def reply(first_lead: str, second_lead: str, second_name: str = "check") -> str:
    return (
        f"{first_lead}\n\n```python\n# FILE: m.py\ndef check(value):\n    return value is not None\n```\n\n"
        f"{second_lead}\n\n```python\n# FILE: m.py\ndef {second_name}(value):\n    return bool(value) and value != ''\n```\n"
    )


def test_the_prose_that_offers_another_choice() -> None:
    for lead in ("**Option 2 — stricter:**", "Alternatively, a stricter check:", "Or, stricter:", "Another approach:",
                 "If you prefer exceptions:", "### Approach B"):
        assert offers_choice(lead), lead
    for lead in ("Then update the caller:", "Now the tests:", "Optionally, add a docstring."):
        assert not offers_choice(lead), lead


def test_two_options_for_one_function_are_both_refused_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    report = apply_reply(reply("**Option 1 — minimal:**", "**Option 2 — stricter:**"), tmp_path)
    assert [o.status for o in report.outcomes] == [Status.FAILED, Status.FAILED]
    assert report.outcomes[1].message == (
        "m.py: the reply offers alternatives for check: block 1 or block 2, and which one it means is not certain"
    )
    assert report.outcomes[0].message == report.outcomes[1].message and report.outcomes[1].target == "check"
    assert (tmp_path / "m.py").read_text() == SOURCE


def test_a_second_change_to_the_same_function_without_choice_prose_is_not_an_alternative() -> None:
    blocks = read_reply(reply("Fix the check:", "Then make it stricter too:")).blocks
    assert find_alternatives(blocks) == {}


def test_options_on_different_functions_are_not_alternatives() -> None:
    blocks = read_reply(reply("Option 1:", "Option 2:", second_name="other")).blocks
    assert find_alternatives(blocks) == {}
