"""Issue 11, item 9: beyond a documented size the apply is refused in one line that says
how to raise the limit; below it, big inputs apply (timings are bench/sizes.py's job).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import environment, project_names

from kopipasta.disk import limits


def test_a_reply_above_the_limit_is_refused_from_a_file_and_from_stdin(tmp_path: Path) -> None:
    reply = "```python\n# FILE: big.py\n" + "x = 1\n" * 200_000 + "```\n"
    (tmp_path / "r.md").write_text(reply)
    env = environment(KOPIPASTA_MAX_REPLY_MB="1")
    by_size = "❌ The reply is 1.1 MB, above the 1 MB limit — set KOPIPASTA_MAX_REPLY_MB=<MB> to raise it"
    # A pipe's size is not known before reading: it is refused as soon as it passes the limit.
    streamed = "❌ The reply is larger than the 1 MB limit — set KOPIPASTA_MAX_REPLY_MB=<MB> to raise it"
    for args, stdin, expected in ((["apply", "r.md"], None, by_size), (["apply", "-"], reply, streamed)):
        result = kopipasta(*args, cwd=tmp_path, stdin=stdin, env=env)
        assert result.returncode == 2
        assert result.stderr.strip() == expected
    assert not (tmp_path / "big.py").exists()


ENDLESS = "❌ The reply is larger than the 8 MB limit — set KOPIPASTA_MAX_REPLY_MB=<MB> to raise it"


@pytest.mark.parametrize(
    "command",
    [
        "{kopipasta} apply /dev/zero",
        "cat /dev/zero | {kopipasta} apply -",
        "cat /dev/zero | {kopipasta} apply --json",
        "{kopipasta} apply - < /dev/zero",
        "cat /dev/zero | {kopipasta}",
    ],
)
def test_an_endless_reply_is_refused_while_it_is_read(tmp_path: Path, command: str) -> None:
    """Issue 18, item 4: the size limit is checked while reading, so an endless input ends
    at the limit (it used to be read until memory ran out: a MemoryError traceback)."""
    import shlex
    import subprocess
    import sys

    line = command.format(kopipasta=f"{shlex.quote(sys.executable)} -m kopipasta")
    result = subprocess.run(
        ["bash", "-c", "set -o pipefail; " + line], cwd=tmp_path, capture_output=True, text=True,
        timeout=60, env=environment(),
    )
    assert "Traceback" not in result.stdout + result.stderr
    if "--json" in command:
        assert '"error": "The reply is larger than the 8 MB limit' in result.stdout
    # The session without a terminal reports on stdout, as its apply does.
    said = result.stdout if command.endswith("{kopipasta}") else result.stderr
    assert (result.returncode, said.strip()) == (2, ENDLESS)
    assert project_names(tmp_path) == []


def test_a_huge_reply_file_is_refused_by_its_size_unread(tmp_path: Path) -> None:
    """A 1 GB (sparse) reply file is refused from its size, without reading it: the child
    may not map 1 GB (RLIMIT_AS), so reading it whole would end in a MemoryError."""
    import resource
    import subprocess
    import sys

    with open(tmp_path / "huge.md", "wb") as handle:
        handle.truncate(1 << 30)

    def small_address_space() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (768 << 20, 768 << 20))

    result = subprocess.run(
        [sys.executable, "-m", "kopipasta", "apply", "huge.md"], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, env=environment(), preexec_fn=small_address_space,
    )
    assert (result.returncode, result.stderr.strip()) == (
        2, "❌ The reply is 1024.0 MB, above the 8 MB limit — set KOPIPASTA_MAX_REPLY_MB=<MB> to raise it"
    )


def test_a_file_above_the_limit_is_refused(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text("def f():\n    return 1\n" + ("# " + "a" * 1021 + "\n") * 1100)
    reply = "```python\n# FILE: big.py\n# TARGET_NODE: function f\ndef f():\n    return 2\n```\n"
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply, env=environment(KOPIPASTA_MAX_FILE_MB="1"))
    assert result.returncode == 1
    assert (
        "❌ Cannot patch big.py: it is 1.1 MB, above the 1 MB limit — set KOPIPASTA_MAX_FILE_MB=<MB> to raise the limit"
        in result.stdout
    )
    raised = kopipasta("apply", "-", cwd=tmp_path, stdin=reply, env=environment(KOPIPASTA_MAX_FILE_MB="2"))
    assert raised.returncode == 0


def test_too_many_blocks_are_refused_before_any_work(tmp_path: Path) -> None:
    reply = "```python\n# FILE: a.py\nx = 1\n```\n" * 4
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply, env=environment(KOPIPASTA_MAX_BLOCKS="3"))
    assert result.returncode == 2
    assert "The reply holds more than 3 code blocks, the limit — split it, or set KOPIPASTA_MAX_BLOCKS=<count> to raise it" in result.stdout
    assert project_names(tmp_path) == []


def test_a_reply_of_850000_fences_is_refused_by_the_block_limit(tmp_path: Path) -> None:
    reply = "```\n```\n" * 425_000  # 850,000 fence lines: the reader stops one block past the limit
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply)
    assert result.returncode == 2
    assert result.stdout == (
        "❌ The reply holds more than 500 code blocks, the limit — split it, or set KOPIPASTA_MAX_BLOCKS=<count> to raise it\n"
    )
    assert project_names(tmp_path) == []


def test_an_envelope_of_too_many_new_files_writes_none(tmp_path: Path) -> None:
    files = "".join(f"*** Add File: gen/f{i}.py\n+x = {i}\n" for i in range(5_000))
    reply = f"```\n*** Begin Patch\n{files}*** End Patch\n```\n"
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply)
    assert result.returncode == 1, result.stdout
    assert (
        "The block names 5,000 files, above the limit of 1,000 for one block — "
        "split it, or set KOPIPASTA_MAX_FILES_PER_BLOCK=<count> to raise it"
    ) in result.stdout
    assert project_names(tmp_path) == []
    raised = kopipasta("apply", "-", cwd=tmp_path, stdin=reply, env=environment(KOPIPASTA_MAX_FILES_PER_BLOCK="5000"))
    assert raised.returncode == 0, raised.stdout[-500:]
    assert (tmp_path / "gen" / "f4999.py").read_text() == "x = 4999\n"


def test_a_7_mb_target_node_payload_is_refused_before_the_file_is_read(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("def f():\n    return 1\n")
    body = "    x = 1\n" * 700_000
    reply = f"```python\n# FILE: app.py\n# TARGET_NODE: function f\ndef f():\n{body}    return 2\n```\n"
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply)
    assert result.returncode == 1
    assert (
        "❌ The block's replacement is 6.7 MB, above the 2 MB limit for one definition — "
        "send the whole file instead, or set KOPIPASTA_MAX_PAYLOAD_MB=<MB> to raise it"
    ) in result.stdout
    assert (tmp_path / "app.py").read_text() == "def f():\n    return 1\n"


def test_the_defaults_are_the_documented_ones() -> None:
    readme = (Path(__file__).parent.parent / "RELIABILITY.md").read_text(encoding="utf-8")
    for variable, default in (
        (limits.REPLY_VARIABLE, f"{limits.DEFAULT_REPLY_MB} MB"),
        (limits.FILE_VARIABLE, f"{limits.DEFAULT_FILE_MB} MB"),
        (limits.BLOCKS_VARIABLE, f"{limits.DEFAULT_BLOCKS}"),
        (limits.FILES_VARIABLE, f"{limits.DEFAULT_FILES_PER_BLOCK:,}"),
        (limits.PAYLOAD_VARIABLE, f"{limits.DEFAULT_PAYLOAD_MB} MB"),
    ):
        assert f"`{variable}`" in readme and default in readme


def test_a_fifty_thousand_character_header_line_is_one_line(tmp_path: Path) -> None:
    reply = "```python\n# FILE: " + "a" * 50_000 + ".py\nx = 1\n```\n"
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=reply)
    assert result.returncode == 2  # a directive line that long is not read as one (intake)
    assert "names no file" in result.stdout
    assert project_names(tmp_path) == []


@pytest.mark.slow
def test_a_large_whole_file_payload_is_written_exactly(tmp_path: Path) -> None:
    line = "value = 'abcdefghijklmnopqrstuvwxyz0123456789'\n"
    body = line * 40_000  # 2 MB
    result = kopipasta("apply", "-", cwd=tmp_path, stdin="```python\n# FILE: big.py\n" + body + "```\n", timeout=600)
    assert result.returncode == 0, result.stdout
    assert (tmp_path / "big.py").read_text() == body
