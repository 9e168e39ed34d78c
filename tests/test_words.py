"""The words a user reads, asserted exactly (issue 21, item 6).

Counts that agree with their nouns, a dry run that does not say "applied",
`stats` in words (no error class names, no "unusable payload", a failed
fragment counted as a fragment), help that names what is true, Ruby names
written the Ruby way, "did you mean" for a mistyped FILE, and never a
suggestion that is itself ambiguous.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest


def kopipasta(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kopipasta", *args], cwd=root, input=stdin, capture_output=True, text=True, check=False
    )


def failure_line(result: subprocess.CompletedProcess[str]) -> str:
    return next(line for line in result.stdout.splitlines() if line.startswith("❌"))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "app").mkdir(parents=True)
    (project / "app" / "views.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return 2\n")
    return project


def block(target: str, body: str, file: str = "app/views.py", info: str = "python") -> str:
    header = f"# TARGET_NODE: {target}\n" if target else ""
    return f"```{info}\n# FILE: {file}\n{header}{body}```\n"


def test_a_name_defined_once_is_not_defined_1_times(root: Path) -> None:
    reply = block("", "def f():\n    return 3\n\n\ndef f():\n    return 4\n")
    assert failure_line(kopipasta(root, "apply", "-", stdin=reply)) == (
        "❌ Fragment in app/views.py: 'f' is defined once (line 1) and the payload restates it 2 times, "
        "so which restatement replaces it is not certain — send 'f' once"
    )


def test_an_ordinal_beyond_one_definition_is_not_1_definitions(root: Path) -> None:
    result = kopipasta(root, "apply", "-", stdin=block("f#2", "def f():\n    return 3\n"))
    assert failure_line(result) == (
        "❌ `f#2` not found in app/views.py: there is 1 definition named 'f' — write 'f' without #2"
    )


def test_undo_counts_earlier_applies(root: Path) -> None:
    for value in (2, 3, 4):
        assert kopipasta(root, "apply", "-", stdin=block("f", f"def f():\n    return {value}\n")).returncode == 0
    assert kopipasta(root, "undo").stdout == "↩ Undone: restored app/views.py (2 earlier applies can still be undone).\n"
    assert kopipasta(root, "undo").stdout == "↩ Undone: restored app/views.py (1 earlier apply can still be undone).\n"


def test_a_dry_run_summary_says_would_apply(root: Path) -> None:
    result = kopipasta(root, "apply", "-", "--dry-run", stdin=block("f", "def f():\n    return 2\n"))
    assert result.stdout.splitlines()[-1] == "1 would apply. dry run: 1 file would change, nothing written."


def test_stats_speak_words_and_count_a_failed_fragment_as_a_fragment(root: Path) -> None:
    replies = [
        block("", "def f():\n    return 3\n\n\ndef f():\n    return 4\n"),  # a fragment that cannot be mapped
        block("h", "def h():\n    return 3\n"),  # target not found
        block("f", ""),  # an empty payload
        block("f", "def f():\n    return 2\n"),
    ]
    for reply in replies:
        kopipasta(root, "apply", "-", stdin=reply)
    kopipasta(root, "undo")
    log = [json.loads(line) for line in (root / ".kopipasta" / "log.jsonl").read_text().splitlines()]
    assert log[0]["blocks"][0]["form"] == "inferred fragment"
    lines = kopipasta(root, "stats").stdout.splitlines()
    assert lines[1:] == [
        "Replies that followed the protocol: 3 of 4 (75%)",
        "Blocks: 4 (3 failed, 1 applied); 75% failed",
        "  how they were written: directive 3 (2 failed), inferred fragment 1 (1 failed)",
        "  languages: python 4",
        "Why blocks failed: fragment not mapped to the file's definitions 1, target not found 1, "
        "payload its directive cannot take (empty, imports only, another kind) 1",
        "Undo rate: 1 undo for 1 apply that wrote files (100%)",
    ]


def test_stats_help_claims_only_what_the_log_records(root: Path) -> None:
    help_text = " ".join(kopipasta(root, "stats", "--help").stdout.split())
    assert (
        "How many replies followed the protocol, how each block was read and whether it applied, why blocks "
        "failed, and how many applies were undone with `undo` or the session's u. Each apply that is not a dry "
        "run adds a line: its time, and per block the form, the language and the outcome; no code, no paths, "
        "no model or prompt."
    ) in help_text


def test_nodes_help_names_yaml_and_toml(root: Path) -> None:
    help_text = " ".join(kopipasta(root, "nodes", "--help").stdout.split())
    assert "For a JSON, YAML or TOML file, its top-level keys (and TOML's tables), for TARGET_PATH." in help_text


RUBY = """module Rack
  class ETag
    DEFAULT = 1

    def self.build(app)
      new(app)
    end

    def digest_body(body)
      body
    end
  end

  class Other
    def digest_body(body)
      body
    end
  end
end
"""


def test_ruby_names_are_shown_the_ruby_way(root: Path) -> None:
    (root / "etag.rb").write_text(RUBY)
    assert kopipasta(root, "nodes", "etag.rb").stdout.splitlines()[1:] == [
        "  module    Rack                     1-19",
        "  class     Rack::ETag               2-12",
        "  variable  Rack::ETag::DEFAULT      3",
        "  method    Rack::ETag.build         5-7",
        "  method    Rack::ETag#digest_body   9-11",
        "  class     Rack::Other              14-18",
        "  method    Rack::Other#digest_body  15-17",
    ]
    reply = block("digest_body", "def digest_body(body)\n  body.to_s\nend\n", file="etag.rb", info="ruby")
    assert failure_line(kopipasta(root, "apply", "-", stdin=reply)) == (
        "❌ `digest_body` is ambiguous in etag.rb: method Rack::ETag#digest_body (line 9), "
        "method Rack::Other#digest_body (line 15) — qualify it as 'Rack::ETag#digest_body' or 'Rack::Other#digest_body'"
    )
    # What is shown is what a target may say.
    reply = block("Rack::ETag#digest_body", "def digest_body(body)\n  body.to_s\nend\n", file="etag.rb", info="ruby")
    assert kopipasta(root, "apply", "-", stdin=reply).returncode == 0
    assert "    def digest_body(body)\n      body.to_s\n    end\n" in (root / "etag.rb").read_text()


def test_a_did_you_mean_never_suggests_an_ambiguous_name(root: Path) -> None:
    (root / "m.py").write_text("class A:\n    def save(self):\n        return 1\n\n\nclass B:\n    def save(self):\n        return 2\n")
    reply = block("sav", "def save(self):\n    return 3\n", file="m.py")
    assert failure_line(kopipasta(root, "apply", "-", stdin=reply)) == (
        "❌ `sav` not found in m.py — did you mean 'A.save' or 'B.save'?"
    )


def test_a_mistyped_file_says_did_you_mean_as_apply_does(root: Path) -> None:
    hint = "did you mean `app/views.py`?"
    assert kopipasta(root, "prompt", "app/view.py", "--stdout").stderr == f"❌ No such file: app/view.py — {hint}\n"
    assert kopipasta(root, "nodes", "app/view.py").stderr == f"❌ No such file: app/view.py — {hint}\n"
    assert failure_line(kopipasta(root, "apply", "-", stdin=block("f", "def f():\n    pass\n", file="app/view.py"))) == (
        f"❌ Cannot apply TARGET_NODE f to app/view.py: the file does not exist — {hint}"
    )
    # `kopipasta FILES` in a terminal: the session says it the same way.
    child = pexpect.spawn(sys.executable, ["-m", "kopipasta", "app/view.py"], cwd=str(root), encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before or "")
    assert f"❌ Cannot render the prompt: No such file: app/view.py — {hint}" in shown.splitlines()


ALTERNATIVES = (
    "**Option 1 — minimal:**\n\n```python\n# FILE: app/views.py\ndef f():\n    return 10\n```\n\n"
    "**Option 2 — stricter:**\n\n```python\n# FILE: app/views.py\ndef f():\n    return 11\n```\n"
)


def test_alternatives_are_one_refusal_named_by_their_definition_and_stats_say_so(root: Path) -> None:
    result = kopipasta(root, "apply", "-", stdin=ALTERNATIVES)
    assert result.returncode == 1
    failures = [line for line in result.stdout.splitlines() if line.startswith("❌")]
    assert failures == [
        "❌ app/views.py: the reply offers alternatives for f: block 1 or block 2, and which one it means is not "
        "certain — keep the block you choose and delete the others from the reply, then apply it again "
        "(the session offers them as keys 1, 2, …)"
    ]
    assert re.search(r"^2 +app/views\.py +f +❌ failed", result.stdout, flags=re.MULTILINE), result.stdout
    stats = kopipasta(root, "stats").stdout
    assert "Why blocks failed: alternatives offered for one definition (one to choose) 2" in stats
    assert "other failure" not in stats


def test_a_partial_apply_never_says_nothing_was_written_beside_what_it_wrote(root: Path) -> None:
    (root / "app" / "other.py").write_text("def h():\n    return 3\n")
    reply = block("function f", "def f():\n    return 10\n") + (
        "\n```diff\n--- a/app/other.py\n+++ b/app/other.py\n@@ -1,2 +1,2 @@\n def h():\n-    return 4\n+    return 5\n```\n"
    )
    result = kopipasta(root, "apply", "--partial", "-", stdin=reply)
    assert result.returncode == 1
    assert "1 file written" in result.stdout, result.stdout
    assert "nothing was written" not in result.stdout
    assert failure_line(result).endswith("— copy the lines as the file has them now, or use TARGET_NODE")
