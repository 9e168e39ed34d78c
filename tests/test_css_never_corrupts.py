"""Damaged CSS payloads never corrupt a stylesheet or a page's `<style>` (issue 25).

As test_never_corrupts_languages does for code: each damaged payload (a
character dropped, a line doubled, a brace lost, …) is either refused with
the file unchanged, or applied with the sheet still parsing and every byte
outside the targeted rule kept. The CSS grammar refuses most damage (an
unclosed block, a declaration without its colon), so few land.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_never_corrupts import damage

from kopipasta.code.read.embedded import code_view
from kopipasta.engine import apply_reply
from kopipasta.model import Status
from kopipasta.syntax.languages import CSS, HTML, parse

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

CASES = [
    ("css_media_rule_qualified_replaced", "src/app.css", "rule @media (max-width: 600px) { .card > h2 }",
     '.card > h2 {\n  font-size: 14px;\n  content: "a { b }";\n  background: url("x.png");\n}'),
    ("html_style_rule_replaced", "index.html", "rule .done", ".done {\n  opacity: 0.5;\n  color: #999;\n}"),
]


def _sheet(file: str, data: bytes) -> bytes:
    if file.endswith(".css"):
        return data
    view = code_view(HTML, data, style=True)
    assert view is not None
    return view.data


@pytest.mark.parametrize(("fixture", "file", "target", "payload"), CASES, ids=[c[1] for c in CASES])
def test_damaged_css_payloads_never_corrupt(tmp_path: Path, fixture: str, file: str, target: str, payload: str) -> None:
    rng = random.Random(20261129)
    original = (FIXTURES / fixture / "before" / file).read_bytes()
    assert not parse(CSS, _sheet(file, original)).root_node.has_error
    path = tmp_path / file
    path.parent.mkdir(parents=True, exist_ok=True)
    applied = failed = 0
    for _ in range(80):
        path.write_bytes(original)
        broken = damage(payload, rng)
        reply = f"````\n/* FILE: {file} */\n/* TARGET_NODE: {target} */\n{broken}\n````\n"
        (outcome,) = apply_reply(reply, tmp_path).outcomes
        after = path.read_bytes()
        assert "Internal error" not in outcome.message, (broken, outcome.message)
        if outcome.status is Status.FAILED:
            failed += 1
            assert after == original, broken
            assert outcome.message.count("\n") == 0, outcome.message
        else:
            applied += 1
            assert not parse(CSS, _sheet(file, after)).root_node.has_error, broken
            # Only the rule's bytes changed: what stands before and after it is the original's.
            start = original.index(b".card > h2" if file.endswith(".css") else b".done {")
            assert after[:start] == original[:start], broken
            tail = original[original.index(b"}", start) + 1 :]
            assert after.endswith(tail), broken
    assert applied and failed > 5, (applied, failed)
