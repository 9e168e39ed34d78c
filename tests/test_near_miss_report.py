"""A near-miss SEARCH on a large file is refused with the closest line, in linear work (issue 28, item 6).

The report used to compare every window (2,000 × 20,000 lines: 24 s); the
timing is bench/sizes.py's row. Here: the exact line a person reads, and
the file untouched, through the real CLI; and the closest region is still
the one agreeing longest from its first line when common lines (`}`) abound.
"""

from __future__ import annotations

from pathlib import Path

from cli_process import kopipasta


def _lines(count: int) -> list[str]:
    return [
        line for i in range((count + 4) // 5)
        for line in (f"def f{i}(x):", "    if x:", "        return 1", "    return 0", "")
    ][:count]


def test_a_2000_line_near_miss_on_20000_lines_names_the_line_that_differs(tmp_path: Path) -> None:
    lines = _lines(20_000)
    text = "\n".join(lines) + "\n"
    (tmp_path / "big.py").write_text(text, encoding="utf-8")
    hunk = lines[5000:7000]
    hunk[1000] = "    return 2"
    (tmp_path / "reply.md").write_text(
        "big.py\n```\n<<<<<<< SEARCH\n" + "\n".join(hunk) + "\n=======\nX = 1\n>>>>>>> REPLACE\n```\n", encoding="utf-8"
    )
    result = kopipasta("apply", "reply.md", cwd=tmp_path)
    assert result.returncode == 1
    assert (
        "its old text is not in the file — closest at line 5001: line 6001 reads 'def f1200(x):'"
        " where it expects '    return 2'"
    ) in result.stdout
    assert (tmp_path / "big.py").read_text(encoding="utf-8") == text


def test_the_closest_region_is_found_among_many_common_lines(tmp_path: Path) -> None:
    body = ["}"] * 3000 + ["function target() {", "  const a = 1;", "  return a;", "}"] + ["}"] * 3000
    text = "\n".join(body) + "\n"
    (tmp_path / "app.js").write_text(text, encoding="utf-8")
    hunk = ["function target() {", "  const a = 1;", "  return b;", "}"]
    (tmp_path / "reply.md").write_text(
        "app.js\n```\n<<<<<<< SEARCH\n" + "\n".join(hunk) + "\n=======\nX\n>>>>>>> REPLACE\n```\n", encoding="utf-8"
    )
    result = kopipasta("apply", "reply.md", cwd=tmp_path)
    assert result.returncode == 1
    assert (
        "closest at line 3001: line 3003 reads '  return a;' where it expects '  return b;'"
    ) in result.stdout
    assert (tmp_path / "app.js").read_text(encoding="utf-8") == text
