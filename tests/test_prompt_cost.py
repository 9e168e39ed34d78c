"""Issue 21, item 2: what a prompt costs — the token estimate, the warning, and files sent as their outline."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import kopipasta

from kopipasta.loop.prompt import render_prompt
from kopipasta.loop.tokens import TokenCount, approximate_tokens, count_tokens

DEMO = Path(__file__).resolve().parent.parent / "kopipasta" / "loop" / "demo" / "project"
DEMO_FILES = ["app/cart.py", "src/components/DataTable.tsx", "package.json"]
CART_OUTLINE = """\
class     LineItem             9-12
variable  LineItem.sku         10
variable  LineItem.unit_price  11
variable  LineItem.quantity    12
class     Cart                 16-28
variable  Cart.items           17
variable  Cart.discount        18
method    Cart.add             20-21
method    Cart.total           23-25
method    Cart.is_empty        27-28"""


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    return root


def test_the_estimate_of_the_demo_prompt_is_the_tokenizers_or_chars_over_4(demo: Path) -> None:
    text = render_prompt(DEMO_FILES, task="Round the tax down", root=demo)
    counted = count_tokens(text)
    if counted.approximate:
        assert counted.count == (len(text) + 3) // 4
        assert counted.label() == f"≈{counted.count} tokens (chars/4)"  # under 1k: the number itself
    else:  # a tokenizer is installed and its encoding is on this machine
        import tiktoken

        encoding = counted.method.removeprefix("tiktoken ")
        assert counted.count == len(tiktoken.get_encoding(encoding).encode(text, disallowed_special=()))
        assert counted.label() == f"{counted.count:,} tokens (tiktoken {encoding})"


def test_labels_say_how_they_were_counted() -> None:
    assert TokenCount(12_345, "chars/4").label() == "≈12.3k tokens (chars/4)"
    assert TokenCount(950, "chars/4").label() == "≈950 tokens (chars/4)"
    assert TokenCount(412_000, "chars/4").label() == "≈412k tokens (chars/4)"
    assert TokenCount(12_345, "tiktoken o200k_base").label() == "12,345 tokens (tiktoken o200k_base)"
    assert approximate_tokens("") == 0 and approximate_tokens("abcde") == 2


@pytest.mark.skipif(importlib.util.find_spec("tiktoken") is None, reason="tiktoken is not installed")
def test_tiktoken_without_its_cached_encoding_falls_back_and_downloads_nothing(tmp_path: Path) -> None:
    # A fresh process with an empty tiktoken cache and every connection refused (and recorded).
    script = """
import socket, sys
tried = []
def refuse(self, address, *args):
    tried.append(address)
    raise OSError("no network in this test")
socket.socket.connect = refuse
from kopipasta.loop.tokens import count_tokens
counted = count_tokens("x" * 40)
print(counted.label(), len(tried))
"""
    env = {"TIKTOKEN_CACHE_DIR": str(tmp_path / "empty-cache"), "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert result.stdout == "≈10 tokens (chars/4) 0\n", result.stderr
    assert not (tmp_path / "empty-cache").exists()


def write_settings(root: Path, text: str) -> None:
    (root / "kopipasta.toml").write_text(text)


def test_a_prompt_over_token_warning_warns_on_stderr_and_stdout_stays_the_prompt(demo: Path) -> None:
    write_settings(demo, "token_warning = 100\n")
    result = kopipasta("prompt", *DEMO_FILES, "--stdout", "-t", "Round the tax down", cwd=demo)
    assert result.returncode == 0
    counted = count_tokens(result.stdout)
    assert result.stderr == (
        f"⚠ This prompt is {counted.label()}, over the 100 of the `token_warning` setting: a chat model may cut it "
        "or lose track; pick fewer files, or send big ones as their definitions (--outline)\n"
    )
    assert result.stdout.startswith("You will change the files below.")


@pytest.mark.parametrize("setting", ["", "token_warning = 0\n"], ids=["default-30k", "off"])
def test_no_warning_under_the_threshold_or_when_it_is_off(demo: Path, setting: str) -> None:
    write_settings(demo, setting)
    result = kopipasta("prompt", *DEMO_FILES, "--stdout", cwd=demo)
    assert result.returncode == 0 and result.stderr == ""


@pytest.mark.parametrize("value", ["-1", "'lots'", "true"])
def test_a_wrong_token_warning_is_one_line(demo: Path, value: str) -> None:
    write_settings(demo, f"token_warning = {value}\n")
    result = kopipasta("prompt", "app/cart.py", "--stdout", cwd=demo)
    assert result.returncode == 1
    assert result.stderr == (
        "❌ Setting 'token_warning' in kopipasta.toml must be a whole number of tokens (0 never warns)"
        " — e.g. token_warning = 30000\n"
    )


def _section(prompt: str, path: str) -> str:
    start = prompt.index(f"## {path}\n")
    end = prompt.find("\n## ", start + 1)
    return prompt[start : end if end >= 0 else prompt.index("# Reply format")]


@pytest.mark.parametrize("how", ["flag", "setting"])
def test_a_file_sent_as_its_outline_lists_what_nodes_shows_instead_of_its_text(demo: Path, how: str) -> None:
    args = ["--outline", "app/*.py"] if how == "flag" else []
    if how == "setting":
        write_settings(demo, 'outline = ["app/*.py"]\n')
    result = kopipasta("prompt", *DEMO_FILES, "--stdout", *args, cwd=demo)
    assert result.returncode == 0, result.stderr
    section = _section(result.stdout, "app/cart.py")
    assert section == (
        # No "Targets:" line: the outline lists them, and would pay for them twice.
        "## app/cart.py\n"
        "Outline only: this file (28 lines) is not shown, only its definitions (its targets: kind, name, lines). Target them by name "
        "as usual; never send this file whole; ask for a definition's code if you need to see it.\n"
        f"```text\n{CART_OUTLINE}\n```\n"
    )
    nodes = kopipasta("nodes", "app/cart.py", cwd=demo).stdout
    assert nodes == "app/cart.py\n" + "".join(f"  {line}\n" for line in CART_OUTLINE.splitlines())
    # The other files are sent whole, and a data file is never outlined.
    assert "export function TableBody" in _section(result.stdout, "src/components/DataTable.tsx")
    both = kopipasta("prompt", "package.json", "--stdout", "--outline", "*.json", cwd=demo)
    assert '"dependencies"' in both.stdout and "Outline only" not in both.stdout


def test_a_reply_to_an_outline_prompt_targets_its_definitions(demo: Path) -> None:
    assert kopipasta("prompt", "app/cart.py", "--stdout", "--outline", "app/cart.py", cwd=demo).returncode == 0
    reply = "```python\n# FILE: app/cart.py\n# TARGET_NODE: method Cart.is_empty\ndef is_empty(self) -> bool:\n    return len(self.items) == 0\n```\n"
    result = kopipasta("apply", "-", cwd=demo, stdin=reply)
    assert result.returncode == 0, result.stdout
    assert "        return len(self.items) == 0\n" in (demo / "app" / "cart.py").read_text()


@pytest.mark.skipif(importlib.util.find_spec("tiktoken") is None, reason="tiktoken is not installed")
def test_while_an_encoding_loads_tiktoken_reads_local_files_and_fetches_nothing(tmp_path: Path) -> None:
    import tiktoken.load

    from kopipasta.loop import tokens

    cached = tmp_path / "cached.tiktoken"
    cached.write_bytes(b"IQ== 0\n")
    fetch = tiktoken.load.read_file
    with tokens._no_downloads(tiktoken.load):
        assert tiktoken.load.read_file(str(cached)) == b"IQ== 0\n"  # a cache on disk still loads
        with pytest.raises(tokens._WouldDownload):
            tiktoken.load.read_file("https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken")
    assert tiktoken.load.read_file is fetch  # put back afterwards
