"""Text patches through the real CLI: deletions and renames under --allow-delete, undo, dry run, reports.

The forms and matching rules are pinned by the `fixtures/textpatch_*` cases;
these tests cover what a fixture folder cannot: undo after a deletion, the
JSON report, a dry run, and markers that must never become a file's content.
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_process import kopipasta

# CRLF, a BOM and no final newline: undo must give the deleted file back exactly.
LEGACY = b"\xef\xbb\xbfdef old():\r\n    return 1"
KEPT = b"\xef\xbb\xbfdef kept():\r\n    return 2\r\n"

DELETE_AND_RENAME = """\
```diff
diff --git a/app/legacy.py b/app/legacy.py
deleted file mode 100644
--- a/app/legacy.py
+++ /dev/null
```

```
*** Begin Patch
*** Update File: app/kept.py
*** Move to: app/still_here.py
@@
 def kept():
-    return 2
+    return 3
*** End Patch
```
"""


def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    (root / "app/legacy.py").write_bytes(LEGACY)
    (root / "app/kept.py").write_bytes(KEPT)
    (root / "reply.md").write_text(DELETE_AND_RENAME, encoding="utf-8")
    return root


def test_delete_and_rename_then_undo_restores_every_byte(tmp_path: Path) -> None:
    root = project(tmp_path)
    applied = kopipasta("apply", "reply.md", "--allow-delete", cwd=root)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert not (root / "app/legacy.py").exists()
    assert not (root / "app/kept.py").exists()
    assert (root / "app/still_here.py").read_bytes() == b"\xef\xbb\xbfdef kept():\r\n    return 3\r\n"

    undone = kopipasta("undo", cwd=root)
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert (root / "app/legacy.py").read_bytes() == LEGACY
    assert (root / "app/kept.py").read_bytes() == KEPT
    assert not (root / "app/still_here.py").exists()


def test_undo_refuses_when_a_deleted_file_was_recreated(tmp_path: Path) -> None:
    root = project(tmp_path)
    assert kopipasta("apply", "reply.md", "--allow-delete", cwd=root).returncode == 0
    (root / "app/legacy.py").write_bytes(b"new work\n")
    undone = kopipasta("undo", cwd=root)
    assert undone.returncode == 1
    assert "changed since that apply: app/legacy.py" in undone.stderr
    assert (root / "app/legacy.py").read_bytes() == b"new work\n"


def test_without_allow_delete_nothing_is_deleted_or_renamed(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", cwd=root)
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert "The diff deletes app/legacy.py: deleting or renaming a file needs `kopipasta apply --allow-delete`" in output
    assert "The envelope renames app/kept.py to app/still_here.py" in output
    assert (root / "app/legacy.py").read_bytes() == LEGACY
    assert (root / "app/kept.py").read_bytes() == KEPT
    assert not (root / "app/still_here.py").exists()


def test_dry_run_deletes_nothing_and_shows_the_deletion(tmp_path: Path) -> None:
    root = project(tmp_path)
    result = kopipasta("apply", "reply.md", "--allow-delete", "--dry-run", cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "+++ /dev/null" in result.stdout
    assert (root / "app/legacy.py").read_bytes() == LEGACY
    assert (root / "app/kept.py").read_bytes() == KEPT


def test_json_report_says_how_each_block_was_read_and_which_tier_matched(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "calc.py").write_text("class Calc:\n    def add(self, a, b):\n        return a + b\n", encoding="utf-8")
    reply = (
        "```python\n# FILE: calc.py\n<<<<<<< SEARCH\ndef add(self, a, b):\n    return a + b\n=======\n"
        "def add(self, a, b):\n    return a + b + 0\n>>>>>>> REPLACE\n```\n"
    )
    result = kopipasta("apply", "-", "--json", cwd=root, stdin=reply)
    assert result.returncode == 0, result.stdout + result.stderr
    block = json.loads(result.stdout)["blocks"][0]
    assert (block["operation"], block["target"], block["status"]) == ("text_patch", "search/replace", "applied")
    assert block["message"] == "search/replace: indentation shift"
    assert (root / "calc.py").read_text(encoding="utf-8") == "class Calc:\n    def add(self, a, b):\n        return a + b + 0\n"


def test_markers_that_are_no_patch_are_never_written(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "styles.css").write_text(".a {\n  color: red;\n}\n", encoding="utf-8")
    for payload, seen in (
        ("=======\n.a { color: blue; }\n>>>>>>> REPLACE", "stands outside any <<<<<<< SEARCH section"),
        ("<<<<<<< SEARCH\n.a {\n=======\n.b {", "has no closing >>>>>>> REPLACE"),
        ("<<<<<<< HEAD\n.a { color: red; }\n=======\n.a { color: blue; }\n>>>>>>> feature", "merge-conflict markers"),
    ):
        reply = f"```css\n/* FILE: styles.css */\n{payload}\n```\n"
        result = kopipasta("apply", "-", cwd=root, stdin=reply)
        assert result.returncode == 1, result.stdout
        assert seen in result.stdout + result.stderr
        assert (root / "styles.css").read_text(encoding="utf-8") == ".a {\n  color: red;\n}\n"


def test_apply_help_lists_the_forms_and_the_ladder(tmp_path: Path) -> None:
    result = kopipasta("apply", "--help", cwd=tmp_path)
    text = " ".join(result.stdout.split())
    for phrase in ("unified diff", "SEARCH", "*** Begin Patch", "exact", "trailing whitespace", "indentation shift", "--allow-delete"):
        assert phrase in text, phrase


def test_a_malformed_diff_is_reported_on_the_file_its_headers_name(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    app = "import sys\n\n\ndef main():\n    cfg = load(sys.argv[1])\n    cfg.run()\n"
    (root / "src/app.py").write_text(app, encoding="utf-8")
    # Context lines that lost their leading space, then a block on the same file.
    reply = (
        "```diff\n--- a/src/app.py\n+++ b/src/app.py\n@@ -4,3 +4,4 @@\ndef main():\n"
        "    cfg = load(sys.argv[1])\n+    cfg.strict = True\n    cfg.run()\n```\n\n"
        "```python\n# FILE: src/app.py\n# TARGET_NODE: function main\ndef main():\n    cfg = load(sys.argv[2])\n"
        "    cfg.run()\n```\n"
    )
    result = kopipasta("apply", "-", "--json", cwd=root, stdin=reply)
    assert result.returncode == 1, result.stdout + result.stderr
    first, second = json.loads(result.stdout)["blocks"]
    assert (first["file"], first["status"]) == ("src/app.py", "failed")
    assert first["message"].startswith("Block 1 (line 1) for src/app.py holds diff markers but is not a well-formed diff")
    assert (second["file"], second["status"]) == ("src/app.py", "skipped")  # held back with it
    assert (root / "src/app.py").read_text(encoding="utf-8") == app
