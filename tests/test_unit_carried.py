"""Issue 26: a big file's indent unit is carried to its next version when an edit leaves the
sample it is learnt from alone (`document._same_sample`), and it is then the unit the new
version would learn itself. Checked on the interpreter's own big modules (read at test time),
with edits past the sample, at its end, and edits that open a string reaching back over it.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

from kopipasta.code.find import document
from kopipasta.code.find.document import in_memory
from kopipasta.code.layout.indent import UNIT_SAMPLE_LINES
from kopipasta.syntax.languages import Change, language_for_path, reparse


def _big_modules() -> list[Path]:
    """Modules of the standard library longer than the sample, by size (a few are enough)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    wanted = ["_pydecimal.py", "pydoc_data/topics.py", "typing.py", "tkinter/__init__.py", "argparse.py"]
    found = [stdlib / name for name in wanted if (stdlib / name).is_file()]
    return [p for p in found if p.read_bytes().count(b"\n") > UNIT_SAMPLE_LINES + 200]


MODULES = _big_modules()


def _line_offsets(data: bytes) -> list[int]:
    offsets = [0]
    index = data.find(b"\n")
    while index >= 0:
        offsets.append(index + 1)
        index = data.find(b"\n", index + 1)
    return offsets


def _edits(data: bytes) -> list[tuple[str, Change, bytes]]:
    """(label, change, new bytes): one line changed or added at several distances from the sample's end."""
    lines = _line_offsets(data)
    edits = []
    for row in (UNIT_SAMPLE_LINES - 2, UNIT_SAMPLE_LINES - 1, UNIT_SAMPLE_LINES, UNIT_SAMPLE_LINES + 1, UNIT_SAMPLE_LINES + 150):
        start, end = lines[row], lines[row + 1]
        line = data[start:end]
        indent = line[: len(line) - len(line.lstrip(b" \t"))]
        for label, text in (
            ("changed", indent + b"x = 1  # changed\n"),
            ("deeper", indent + b"    y = 2\n" + line),
            ("string", indent + b'"""\n'),  # opens a string: everything after it moves
            ("nothing", b""),
        ):
            new = data[:start] + text + data[end:]
            edits.append((f"{label}@{row}", Change(start, end, start + len(text)), new))
    return edits


@pytest.mark.skipif(not MODULES, reason="no standard-library module longer than the sample here")
@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_a_carried_unit_is_the_unit_the_new_version_learns(path: Path) -> None:
    data = path.read_bytes()
    spec = language_for_path(path.name)
    assert spec is not None
    old = in_memory(spec, data, path=path.name)
    assert old.unit is not None
    carried = 0
    for label, change, new in _edits(data):
        tree = reparse(spec, data, old.tree, new, change)
        after = old.after(new, tree)
        if after._unit is not document._NOT_YET:  # noqa: SLF001 - the shortcut was taken
            carried += 1
        fresh = in_memory(spec, new, path=path.name)
        assert after.unit == fresh.unit, label
    assert carried >= 8  # the edits past the sample do take the shortcut


def _synthetic() -> bytes:
    """A file whose sample holds few indented lines (4-space steps), and more lines after it."""
    lines = [f"value_{i} = {i}\n" for i in range(UNIT_SAMPLE_LINES - 20)]
    lines += ["def first():\n", "    if True:\n", "        return 1\n", "\n"] * 3
    lines += [f"after_{i} = {i}\n" for i in range(200)]
    return "".join(lines).encode()


TWO_SPACE = b"def second():\n  if True:\n    if False:\n      return 2\n" * 4


@pytest.mark.parametrize(
    ("row", "carried", "unit"),
    [(10, False, "  "), (UNIT_SAMPLE_LINES - 1, False, "    "), (UNIT_SAMPLE_LINES + 50, True, "    ")],
)
def test_an_edit_inside_the_sample_is_learnt_again(row: int, carried: bool, unit: str) -> None:
    """Two-space functions added inside the sample change the unit (4 → 2); added after it they do not
    (on its last line, one line of them falls inside: learnt again, and still 4)."""
    data = _synthetic()
    spec = language_for_path("f.py")
    assert spec is not None
    old = in_memory(spec, data, path="f.py")
    assert old.unit is not None and old.unit.text == "    "
    start = _line_offsets(data)[row]
    new = data[:start] + TWO_SPACE + data[start:]
    after = old.after(new, reparse(spec, data, old.tree, new, Change(start, start, start + len(TWO_SPACE))))
    assert (after._unit is not document._NOT_YET) is carried  # noqa: SLF001
    assert after.unit == in_memory(spec, new, path="f.py").unit
    assert after.unit is not None and after.unit.text == unit
