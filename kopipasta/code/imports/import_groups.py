"""Where a new import statement goes when the file's imports are grouped (issue 21, item 7).

A formatter would not put `import json` after `from .models import User`:
isort and ruff keep Python's imports in sections — the standard library,
third-party packages, the project's own (first party, then relative; many
files keep these two in one block) — each a block of its own, sorted. When the file's top-level imports already follow
that (every block holds one section, the sections in that order), a new
statement joins its section's block, at its sorted place when the block is
sorted, at the block's end when it is not; a section the file lacks becomes
a new block between its neighbours. For JS/TS the same care is smaller:
when the file has its packages before its relative paths, a new package
import goes after the last package import, not after the relative ones.

A file that does not follow the grouping (a block mixing sections, a
package after a relative path) gets nothing from here: `import_merge` then
adds after the file's last import, as before. Nothing here reorders an
existing line.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from kopipasta.code.find.document import line_end, line_start
from kopipasta.code.imports.imports import TextEdit

# isort's sections after `__future__`; a file may keep the last two in one block.
STDLIB, THIRD_PARTY, FIRST_PARTY, RELATIVE = 1, 2, 3, 4


@dataclass(frozen=True)
class Statement:
    """An import statement, as this module needs it."""

    start: int  # its first byte
    end: int  # its last byte
    form: str  # Python: "import" or "from"; JS/TS: "js"
    module: str  # `os.path`, `.models`, `react`, `./util`


@dataclass(frozen=True)
class NewStatement:
    form: str
    module: str
    text: bytes  # the statement, in the file's newline style, without its newline


def python_section(module: str, root: Path | None) -> int | None:
    """isort's section of `module`; None when the project root is unknown and it is not stdlib or relative."""
    if module.startswith("."):
        return RELATIVE
    top = module.split(".", 1)[0]
    if top in sys.stdlib_module_names:
        return STDLIB
    if root is None:
        return None
    if (root / top).is_dir() or (root / f"{top}.py").is_file() or (root / "src" / top).is_dir():
        return FIRST_PARTY
    return THIRD_PARTY


def _python_key(form: str, module: str) -> tuple[int, int, int, str]:
    """isort's order inside a section: `import x` before `from x`, absolute before relative
    (the furthest relative first), then by name."""
    rest = module.lstrip(".")
    dots = len(module) - len(rest)
    return (0 if form == "import" else 1, 1 if dots else 0, -dots, rest.lower())


def _blocks(data: bytes, top: Sequence[Statement]) -> list[list[Statement]]:
    """The statements in runs separated by a blank line or by code (comment lines keep a run together)."""
    blocks: list[list[Statement]] = []
    for statement in top:
        if blocks:
            between = data[line_end(data, blocks[-1][-1].end) : line_start(data, statement.start)]
            lines = between.split(b"\n")[1:-1] if between.count(b"\n") > 1 else []
            if all(line.strip().startswith(b"#") for line in lines):
                blocks[-1].append(statement)
                continue
        blocks.append([statement])
    return blocks


def place_python(
    data: bytes, top: Sequence[Statement], new: Sequence[NewStatement], root: Path | None, newline: bytes
) -> list[TextEdit] | None:
    """Edits putting each new statement in its section; None when the file's imports are not grouped so."""
    ordinary = [s for s in top if s.form != "future"]
    if not ordinary or not new:
        return None
    blocks = _blocks(data, ordinary)
    found: list[set[int]] = []
    for block in blocks:
        sections = {python_section(s.module, root) for s in block}
        if None in sections or not (len(sections) == 1 or sections == {FIRST_PARTY, RELATIVE}):
            return None  # a block mixing sections: the file is not grouped the isort way
        found.append(sections)  # type: ignore[arg-type]
    if any(max(a) >= min(b) for a, b in zip(found, found[1:], strict=False)):
        return None  # sections out of order, or one split over two blocks
    wanted = [(python_section(s.module, root), s) for s in new]
    if any(section is None for section, _ in wanted):
        return None
    # offset → (order, text): at one offset a new section's block that goes before a section comes
    # first (0), then lines joining a section (1, in isort's order), then a new last section (2).
    inserts: dict[int, list[tuple[tuple[int, tuple[int, int, int, str]], bytes]]] = {}
    fresh: dict[int, list[NewStatement]] = {}  # a section the file lacks → its statements
    for section, statement in wanted:
        assert section is not None
        home = next((i for i, sections in enumerate(found) if section in sections), None)
        if home is not None:
            block = blocks[home]
            offset, line = _in_block(data, block, statement, newline)
            inserts.setdefault(offset, []).append(((1, _python_key(statement.form, statement.module)), line))
        else:
            fresh.setdefault(section, []).append(statement)
    for section, statements in fresh.items():
        lines = newline.join(s.text for s in sorted(statements, key=lambda s: _python_key(s.form, s.module)))
        later = [i for i, sections in enumerate(found) if min(sections) > section]
        if later:
            offset = line_start(data, blocks[later[0]][0].start)
            inserts.setdefault(offset, []).append(((0, (section, 0, 0, "")), lines + newline + newline))
        else:
            offset = line_end(data, blocks[-1][-1].end)
            inserts.setdefault(offset, []).append(((2, (section, 0, 0, "")), newline + newline + lines))
    return [TextEdit(offset, offset, b"".join(text for _, text in sorted(parts))) for offset, parts in sorted(inserts.items())]


def _in_block(data: bytes, block: list[Statement], statement: NewStatement, newline: bytes) -> tuple[int, bytes]:
    """Where in its section's block a statement goes: its sorted place, or the end of an unsorted block."""
    keys = [_python_key(s.form, s.module) for s in block]
    key = _python_key(statement.form, statement.module)
    if keys == sorted(keys):
        following = next((s for s, k in zip(block, keys, strict=True) if k > key), None)
        if following is not None:
            return line_start(data, following.start), statement.text + newline
    return line_end(data, block[-1].end), newline + statement.text


def _is_relative(module: str) -> bool:
    return module.startswith((".", "/"))


def place_script(
    data: bytes, top: Sequence[Statement], new: Sequence[NewStatement], newline: bytes, indent: bytes
) -> list[TextEdit] | None:
    """Edits putting new package imports before the relative ones, when the file already does so."""
    if not top or not new or not any(not _is_relative(s.module) for s in new):
        return None
    first_relative = next((i for i, s in enumerate(top) if _is_relative(s.module)), len(top))
    if any(not _is_relative(s.module) for s in top[first_relative:]):
        return None  # a package after a relative path: the file keeps no such order
    if first_relative == len(top):
        return None  # no relative imports: after the last import is already right
    packages = [s.text for s in new if not _is_relative(s.module)]
    relatives = [s.text for s in new if _is_relative(s.module)]
    edits: list[TextEdit] = []
    if first_relative > 0:
        end = line_end(data, top[first_relative - 1].end)
        edits.append(TextEdit(end, end, b"".join(newline + indent + text for text in packages)))
    else:
        start = line_start(data, top[0].start)
        edits.append(TextEdit(start, start, b"".join(indent + text + newline for text in packages)))
    if relatives:
        end = line_end(data, top[-1].end)
        edits.append(TextEdit(end, end, b"".join(newline + indent + text for text in relatives)))
    return edits
