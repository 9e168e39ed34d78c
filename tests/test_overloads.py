"""Overloads (Java, C#, Kotlin, Swift, Scala): the payload's own parameter list picks one, or the name stays ambiguous."""

from __future__ import annotations

from pathlib import Path

import pytest

from kopipasta.code.find.overloads import parameters
from kopipasta.engine import apply_reply
from kopipasta.model import Status

CSHARP = """public class Clock
{
    public string Format(DateTime at)
    {
        return at.ToString("O");
    }

    public string Format(DateTime at, string pattern)
    {
        return at.ToString(pattern);
    }
}
"""

SWIFT = """struct Greeter {
    init(name: String) {
        self.name = name
    }

    init(first: String, last: String) {
        self.name = first + " " + last
    }

    let name: String
}
"""


@pytest.mark.parametrize(
    ("file", "source", "target", "payload", "old", "new"),
    [
        (
            "Clock.cs",
            CSHARP,
            "method Format",
            "public string Format(DateTime at, string pattern)\n{\n    return at.ToString(pattern, CultureInfo.InvariantCulture);\n}",
            "        return at.ToString(pattern);",
            "        return at.ToString(pattern, CultureInfo.InvariantCulture);",
        ),
        (
            "Greeter.swift",
            SWIFT,
            "init",
            "init(name: String) {\n    self.name = name.capitalized\n}",
            "        self.name = name\n",
            "        self.name = name.capitalized\n",
        ),
    ],
)
def test_the_payloads_parameters_pick_the_overload(
    tmp_path: Path, file: str, source: str, target: str, payload: str, old: str, new: str
) -> None:
    (tmp_path / file).write_text(source)
    report = apply_reply(f"```\n// FILE: {file}\n// TARGET_NODE: {target}\n{payload}\n```\n", tmp_path)
    (outcome,) = report.outcomes
    assert outcome.status is Status.APPLIED, outcome.message
    assert "the one with the payload's parameters" in outcome.message
    assert (tmp_path / file).read_text() == source.replace(old, new, 1)


def test_changed_parameters_leave_the_name_ambiguous(tmp_path: Path) -> None:
    (tmp_path / "Clock.cs").write_text(CSHARP)
    payload = "public string Format(DateTimeOffset at)\n{\n    return at.ToString(\"O\");\n}"
    report = apply_reply(f"```\n// FILE: Clock.cs\n// TARGET_NODE: Format\n{payload}\n```\n", tmp_path)
    (outcome,) = report.outcomes
    assert outcome.status is Status.FAILED
    assert "is ambiguous in Clock.cs" in outcome.message
    assert (tmp_path / "Clock.cs").read_text() == CSHARP


def test_parameters_span_lines_generics_and_annotations() -> None:
    text = 'public <T> List<T> find(@Param("a") String a,\n        Map<String, T> b) {'
    assert parameters(text, "find") == '@Param("a")Stringa,Map<String,T>b'
    assert parameters("fun <T> load(id: Long): T", "load") == "id:Long"
    assert parameters("findAll()", "find") is None
