"""What a prompt costs, in tokens: a real tokenizer where one is installed, else a stated approximation.

The real one is `tiktoken` (not a dependency: used when importable), and only
with an encoding it can load offline. tiktoken fetches its BPE files from the
internet on first use and caches them; kopipasta never downloads anything at
run time, so the encoding is loaded with tiktoken's fetch refused
(`tiktoken.load.read_file` answers only for local paths while it loads): a
cached encoding loads, a missing one falls back to the approximation, about
four characters a token for code and English, and the figure says which it is:
`12,345 tokens (tiktoken o200k_base)` or `≈12.3k tokens (chars/4)`.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

APPROXIMATION = "chars/4"
# Tried in this order: the newest chat models' encoding first.
ENCODINGS = ("o200k_base", "cl100k_base")

_NOT_LOADED = object()
_encoder: Any = _NOT_LOADED  # the tiktoken Encoding, None when there is none to be had offline


class _WouldDownload(Exception):
    """tiktoken asked for a file over the network."""


@dataclass(frozen=True)
class TokenCount:
    count: int
    method: str  # "tiktoken o200k_base", or APPROXIMATION

    @property
    def approximate(self) -> bool:
        return self.method == APPROXIMATION

    def label(self) -> str:
        """`≈12.3k tokens (chars/4)`, or `12,345 tokens (tiktoken o200k_base)`."""
        if self.approximate:
            return f"≈{short_count(self.count)} tokens ({self.method})"
        return f"{self.count:,} tokens ({self.method})"


def approximate_tokens(text: str) -> int:
    """About four characters a token (rounded up)."""
    return (len(text) + 3) // 4


def count_tokens(text: str) -> TokenCount:
    encoder = _tokenizer()
    if encoder is None:
        return TokenCount(approximate_tokens(text), APPROXIMATION)
    return TokenCount(len(encoder.encode(text, disallowed_special=())), f"tiktoken {encoder.name}")


def may_exceed(text: str, threshold: int) -> bool:
    """Whether `text` may be over `threshold` tokens, without loading a tokenizer when it clearly is not.

    Under half the threshold by the approximation, no tokenizer counts code or English at more
    than twice chars/4: `prompt --stdout` then never pays for loading one.
    """
    return threshold > 0 and approximate_tokens(text) * 2 > threshold


def warning_line(count: TokenCount, threshold: int) -> str | None:
    """The warning for a prompt over `threshold` tokens (None under it, or when 0 turns it off)."""
    if threshold <= 0 or count.count <= threshold:
        return None
    return (
        f"⚠ This prompt is {count.label()}, over the {threshold:,} of the `token_warning` setting: "
        "a chat model may cut it or lose track; pick fewer files, or send big ones as their definitions (--outline)"
    )


def short_count(count: int) -> str:
    if count < 1000:
        return str(count)
    if count < 100_000:
        return f"{count / 1000:.1f}k"
    return f"{round(count / 1000)}k"


def _tokenizer() -> Any:
    """tiktoken's encoding, loaded once, offline only; None without one."""
    global _encoder
    if _encoder is _NOT_LOADED:
        _encoder = _load_offline()
    return _encoder


def _load_offline() -> Any:
    if importlib.util.find_spec("tiktoken") is None:
        return None
    try:
        import tiktoken
        import tiktoken.load
    except Exception:  # noqa: BLE001 — a broken install is no tokenizer
        return None
    if not callable(getattr(tiktoken.load, "read_file", None)):
        return None  # a tiktoken whose fetch we cannot refuse: it might download
    for name in ENCODINGS:
        try:
            with _no_downloads(tiktoken.load):
                return tiktoken.get_encoding(name)
        except Exception:  # noqa: BLE001 — not cached, or any other failure: try the next, then approximate
            continue
    return None


@contextmanager
def _no_downloads(load_module: Any) -> Iterator[None]:
    """While tiktoken loads an encoding, a file is read only from a local path, never fetched."""
    fetch = load_module.read_file

    def local_only(blobpath: str) -> bytes:
        if "://" in blobpath:
            raise _WouldDownload(blobpath)
        return fetch(blobpath)

    load_module.read_file = local_only
    try:
        yield
    finally:
        load_module.read_file = fetch
