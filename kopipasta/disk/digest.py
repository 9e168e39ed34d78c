"""SHA-256 of file contents, for the journal and the staleness record, without OpenSSL on small files.

`hashlib` loads OpenSSL (`_hashlib`), which costs a few milliseconds at start-up
(issue 9): more than hashing a few hundred kilobytes with CPython's own SHA-256
(`_sha256`, `_sha2` from 3.12), which gives the same digest. Bigger data goes
through `hashlib`, whose OpenSSL code is several times faster per byte; either
way the digest is the standard SHA-256 the journal has always recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Above this size OpenSSL's faster hashing pays for its import (measured: ~13 ms for 4 MB built in, ~4 with OpenSSL).
_BUILT_IN_LIMIT = 256 * 1024

_built_in: Callable[[bytes], Any] | None = None


def sha256_hex(data: bytes) -> str:
    """The hex SHA-256 of `data`."""
    if len(data) <= _BUILT_IN_LIMIT:
        built_in = _built_in_sha256()
        if built_in is not None:
            return built_in(data).hexdigest()  # type: ignore[no-any-return]
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _built_in_sha256() -> Callable[[bytes], Any] | None:
    global _built_in
    if _built_in is None:
        try:
            from _sha2 import sha256  # type: ignore[import-not-found]  # CPython 3.12+
        except ImportError:
            try:
                from _sha256 import sha256  # type: ignore[import-not-found,no-redef]  # CPython 3.11
            except ImportError:
                import hashlib

                sha256 = hashlib.sha256  # another Python: the standard way
        _built_in = sha256
    return _built_in
