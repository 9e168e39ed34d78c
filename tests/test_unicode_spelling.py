"""One name, two spellings: `café.py` composed (NFC) and decomposed (NFD) (issue 28, item 10).

On Linux the two are different files that print alike. A reply naming the other
spelling would create a second `café.py` beside the project's; a journal entry
tampered to name the other spelling would make `undo --force` write the wrong
one of two files that look the same. Both are refused in one line, nothing written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from cli_process import kopipasta

NFC = "caf\u00e9.py"
NFD = "cafe\u0301.py"
CODE = "def a():\n    return 1\n"


def _names(root: Path) -> dict[str, bytes]:
    return {name: (root / name).read_bytes() for name in sorted(os.listdir(root)) if name.endswith(".py")}


def test_a_reply_naming_the_other_spelling_is_refused(tmp_path: Path) -> None:
    (tmp_path / NFC).write_text(CODE, encoding="utf-8")
    for reply in (
        f"```python\n# FILE: {NFD}\n# TARGET_NODE: function a\ndef a():\n    return 2\n```\n",
        f"```python\n# FILE: {NFD}\ndef a():\n    return 2\n```\n",
        f"```python\n# FILE: sub/../{NFD}\n# APPEND_TO: file\ndef b():\n    return 3\n```\n",
    ):
        result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply)
        assert result.returncode == 1, result.stdout
        assert (
            f"❌ Refusing path {NFD}: the project's {NFC} is the same name in another Unicode form "
            "(composed, NFC there, decomposed, NFD here), and two names that look the same cannot be told apart"
            " — write the path as the project spells it (composed, NFC)"
        ) in result.stdout.replace(f"sub/../{NFD}", NFD).splitlines()
        assert _names(tmp_path) == {NFC: CODE.encode()}
    applied = kopipasta("apply", "-", cwd=tmp_path, stdin=f"```python\n# FILE: {NFC}\n# TARGET_NODE: function a\ndef a():\n    return 2\n```\n")
    assert applied.returncode == 0, applied.stdout
    # A name of another form with no twin is a name like any other.
    created = kopipasta("apply", "-", cwd=tmp_path, stdin="```python\n# FILE: ne\u0301e.py\nx = 1\n```\n")
    assert created.returncode == 0, created.stdout
    assert (tmp_path / "ne\u0301e.py").read_text(encoding="utf-8") == "x = 1\n"


def test_undo_force_refuses_a_journal_path_in_the_other_spelling(tmp_path: Path) -> None:
    (tmp_path / NFC).write_text(CODE, encoding="utf-8")
    applied = kopipasta("apply", "-", cwd=tmp_path, stdin=f"```python\n# FILE: {NFC}\n# TARGET_NODE: function a\ndef a():\n    return 2\n```\n")
    assert applied.returncode == 0, applied.stdout
    (manifest,) = (tmp_path / ".kopipasta" / "journal").glob("*/manifest.json")
    recorded = json.loads(manifest.read_text(encoding="utf-8"))
    assert recorded["files"][0]["path"] == NFC
    recorded["files"][0]["path"] = NFD  # looks the same in every listing
    manifest.write_text(json.dumps(recorded), encoding="utf-8")
    (tmp_path / NFD).write_text("def other():\n    return 7\n", encoding="utf-8")  # the user's other file
    before = _names(tmp_path)
    for args in (("undo", "--force"), ("undo",)):
        result = kopipasta(*args, cwd=tmp_path)
        assert result.returncode == 1, result.stdout
        assert result.stderr.startswith(f"❌ The journal entry {manifest.parent.name} is damaged: Refusing path {NFD}: the project's {NFC}")
        assert result.stderr.endswith("— nothing was changed\n")
        assert _names(tmp_path) == before
