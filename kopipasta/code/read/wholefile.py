"""Whole-file blocks (PROTOCOL.md §6): create a file, or replace one with a complete payload.

A model that elides code with `// ... existing code ...` would truncate the
file if we took it at its word, so such a payload fails instead.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterator

from kopipasta.errors import PayloadError
from kopipasta.startup.lazy_pattern import lazy_compile

# A line that is a comment and nothing else, in any of the usual syntaxes.
_COMMENT_LINE = lazy_compile(r"^\s*(?:#|//|/\*|<!--|\{/\*|--|;)(?P<text>.*?)(?:\*/\}?|-->)?\s*$")
_ELLIPSIS = r"(?:\.\.\.+|…)"
_ONLY_ELLIPSIS = lazy_compile(rf"^[\s\[\](){{}}]*{_ELLIPSIS}[\s\[\](){{}}]*$")
_ELIDED_WORDS = lazy_compile(
    r"\b(existing|rest|remaining|remainder|same|unchanged|previous|other|omitted|original|"
    r"more|etc|before|code|here)\b",
    re.IGNORECASE,
)
_ELIDED_PHRASE = lazy_compile(
    r"\b(?:(?:rest|remainder) of (?:the )?(?:file|code|class|module|component|function|"
    r"implementation|methods?|imports?)"
    r"|(?:existing|previous|remaining|original|other) (?:code|methods|functions|imports|content|"
    r"implementation|logic|fields|props|tests|styles|routes|cases)"
    r"|same as before|omitted for brevity|unchanged (?:code|methods|functions|content)"
    r"|no changes? (?:below|above|here))\b",
    re.IGNORECASE,
)


def _python_stub_bodies(payload: str) -> set[int]:
    """Lines (1-based) of `...` statements that are a whole body on their own.

    `def load(self) -> bytes:` followed by a docstring and `...` is how
    protocols and abstract methods are written; a `...` among other statements
    is elided code. Only the parse tree can tell a docstring that spans lines
    from code, so the payload is parsed; one that does not parse has none.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes are the payload's business
            tree = ast.parse(payload)
    except (SyntaxError, ValueError):
        return set()
    stubs: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        body = node.body
        if ast.get_docstring(node, clean=False) is not None:
            body = body[1:]
        if len(body) == 1 and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and value.value is Ellipsis:
                stubs.add(body[0].lineno)
    return stubs


def find_placeholder(payload: str, *, python: bool) -> tuple[int, str] | None:
    """The first line (1-based, with its text) that stands for elided code, or None."""
    return next(iter_placeholders(payload, python=python), None)


def iter_placeholders(payload: str, *, python: bool) -> Iterator[tuple[int, str]]:
    """Every line (1-based, with its text) that stands for elided code, in order."""
    stub_bodies: set[int] | None = None  # parsed only when a bare `...` needs judging
    previous_code = ""
    for number, line in enumerate(payload.split("\n"), 1):
        stripped = line.strip()
        if not stripped:
            continue
        if _ONLY_ELLIPSIS.match(stripped):
            # In Python a bare `...` is a legal body right after `def f():` or `class P:`,
            # or after the docstring of one.
            if python and stripped in ("...", "…") and not previous_code.endswith(":") and stub_bodies is None:
                stub_bodies = _python_stub_bodies(payload)
            stub = stripped in ("...", "…") and (previous_code.endswith(":") or number in (stub_bodies or ()))
            if not (python and stub):
                yield number, stripped
                continue
        comment = _COMMENT_LINE.match(line)
        if comment:
            text = comment.group("text").strip(" */-#>")
            if _ONLY_ELLIPSIS.match(text) or _ELIDED_PHRASE.search(text):
                yield number, stripped
                continue
            ellipsis_at_edge = re.match(rf"^{_ELLIPSIS}", text) or re.search(rf"{_ELLIPSIS}$", text)
            if ellipsis_at_edge and _ELIDED_WORDS.search(text):
                yield number, stripped
            continue
        previous_code = stripped


# A unified diff: `--- a/x` then `+++ b/x`, or a hunk header.
_DIFF_HEADER = lazy_compile(r"^--- \S.*\n\+\+\+ \S|^@@ -\d+(,\d+)? \+\d+(,\d+)? @@", re.MULTILINE)
_DIFF_FILES = (".diff", ".patch")


def check_not_diff(payload: str, *, file: str, info: str) -> None:
    """A diff under a FILE line would become the file's contents: kopipasta applies no diffs."""
    if file.lower().endswith(_DIFF_FILES):
        return
    if info.lower() in ("diff", "patch") or _DIFF_HEADER.search(payload):
        # Failures only: not imported at start-up.
        from kopipasta.code.read.hints import targeted_block

        raise PayloadError(
            f"Whole-file block for {file} is a diff: kopipasta does not apply diffs, and writing it "
            "would replace the file with the diff's text",
            f"ask for {targeted_block(file)} instead",
        )


def check_complete(payload: str, *, file: str, python: bool) -> None:
    found = find_placeholder(payload, python=python)
    if found is not None:
        number, text = found
        from kopipasta.code.read.hints import targeted_block

        raise PayloadError(
            f"Whole-file block for {file} elides code at its line {number} ({text}): "
            "replacing the file would delete what it leaves out",
            f"send the complete file, or {targeted_block(file)}",
        )


def file_bytes(payload: str, *, newline: str, final_newline: bool) -> bytes:
    """The payload as the file's bytes: its newline style, and a final newline as before."""
    text = payload.replace("\r\n", "\n")
    if final_newline and text and not text.endswith("\n"):
        text += "\n"
    return text.replace("\n", newline).encode("utf-8")
