"""What a user sees for the intake's decisions: RESET, malformed headers, several files in one fence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import kopipasta
from test_intake import MALFORMED

from kopipasta.engine import apply_reply
from kopipasta.model import Status

HELPER = "def helper(x):\n    return x\n\n\ndef other():\n    return helper(2)\n"


def project(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_text(HELPER)
    return tmp_path


def test_reset_note_in_the_report_and_the_json(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "reply.md").write_text(
        "```python\n# FILE: stray.py\nx = 1\n```\n\n<<<RESET>>>\n\n"
        "```python\n# FILE: app.py\n# TARGET_NODE: function helper\ndef helper(x):\n    return 2 * x\n```\n"
    )
    human = kopipasta("apply", "reply.md", "--dry-run", cwd=root)
    assert human.returncode == 0
    assert "<<<RESET>>>: the 1 block above it withdrawn" in human.stdout
    result = kopipasta("apply", "reply.md", "--json", cwd=root)
    data = json.loads(result.stdout)
    assert data["notes"] == ["<<<RESET>>>: the 1 block above it withdrawn"]
    assert [b["block"] for b in data["blocks"]] == [2]
    assert not (root / "stray.py").exists()
    assert (root / "app.py").read_text() == HELPER.replace("return x", "return 2 * x")


def test_reset_with_nothing_after_it(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "reply.md").write_text("```python\n# FILE: stray.py\nx = 1\n```\n<<<RESET>>>\nNever mind.\n")
    result = kopipasta("apply", "reply.md", cwd=root)
    assert result.returncode == 2
    assert "The reply holds no code blocks after its last <<<RESET>>>" in result.stdout
    assert not (root / "stray.py").exists()


def test_malformed_header_fails_with_one_line_and_writes_nothing(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "reply.md").write_text(
        "```python\n# FILE: app.py\n#\n# TARGETNODE: function helper\ndef helper(x):\n    return 2 * x\n```\n"
    )
    result = kopipasta("apply", "reply.md", cwd=root)
    assert result.returncode == 1
    assert (
        "❌ Block 1 (line 1) for app.py: header line `# TARGETNODE: function helper` is not a directive: "
        "did you mean TARGET_NODE? — write it as `TARGET_NODE: function helper`"
    ) in result.stdout
    assert (root / "app.py").read_text() == HELPER


@pytest.mark.parametrize(("line", "meant"), MALFORMED)
def test_every_malformed_header_family_leaves_the_file_untouched(tmp_path: Path, line: str, meant: str) -> None:
    root = project(tmp_path)
    text = f"```python\n# FILE: app.py\n{line}\ndef helper(x):\n    return 2 * x\n```\n"
    report = apply_reply(text, root)
    assert [o.status for o in report.outcomes] == [Status.FAILED]
    assert f"did you mean {meant}?" in report.outcomes[0].message
    assert not report.written
    assert (root / "app.py").read_text() == HELPER


def test_near_miss_in_a_block_without_a_file_is_explanation(tmp_path: Path) -> None:
    root = project(tmp_path)
    text = "```bash\n# Target: staging\ndeploy --env staging\n```\n\n```python\n# FILE: app.py\n# TARGET_NODE: helper\ndef helper(x):\n    return 3 * x\n```\n"
    report = apply_reply(text, root)
    assert [o.status for o in report.outcomes] == [Status.SKIPPED, Status.APPLIED]


def test_two_files_in_one_fence_each_reported(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "reply.md").write_text(
        "```python\n# FILE: app.py\n# TARGET_NODE: function other\ndef other():\n    return helper(3)\n"
        "\n# FILE: extra.py\n"  # a targeted block is not split: this stays code
        "```\n\n```python\n# FILE: new_a.py\nA = 1\n\n# FILE: new_b.py\nB = 2\n```\n"
    )
    result = kopipasta("apply", "reply.md", "--json", cwd=root)
    data = json.loads(result.stdout)
    assert [(b["block"], b["line"], b["file"], b["status"]) for b in data["blocks"]] == [
        (1, 1, "app.py", "applied"),
        (2, 10, "new_a.py", "applied"),
        (3, 14, "new_b.py", "applied"),
    ]
    assert (root / "new_a.py").read_text() == "A = 1\n"
    assert (root / "new_b.py").read_text() == "B = 2\n"
    assert (root / "app.py").read_text().endswith("def other():\n    return helper(3)\n\n# FILE: extra.py\n")
