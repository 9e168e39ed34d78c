"""The promise under every other test: a patch lands whole and parseable, or nothing is written.

Seeded random damage (dropped characters, stray brackets, shifted
indentation, dropped lines) is done to real payloads for Python, TSX, Go,
Rust, Java, Kotlin and Swift files; whatever the engine reports, the file on disk must either be the old
bytes or parse cleanly, and a failed block must leave it byte for byte.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from kopipasta.code.find.definitions import list_definitions
from kopipasta.engine import apply_reply
from kopipasta.model import Status
from kopipasta.syntax.languages import has_syntax_error, language_for_path, parse

PYTHON_FILE = '''"""Orders."""

from dataclasses import dataclass


@dataclass
class Order:
    id: str
    lines: list[tuple[str, int]]

    def total(self, prices: dict[str, int]) -> int:
        """Sum of the lines, in cents."""
        result = 0
        for sku, quantity in self.lines:
            result += prices[sku] * quantity
        return result

    def describe(self) -> str:
        return f"Order {self.id}: {len(self.lines)} lines"
'''

PYTHON_PAYLOAD = '''def total(self, prices: dict[str, int]) -> int:
    """Sum of the lines, in cents; unknown SKUs count as zero."""
    result = 0
    for sku, quantity in self.lines:
        if sku not in prices:
            continue
        result += prices[sku] * quantity
    return result'''

TSX_FILE = """import React from "react";

export function TableHead({ columns }: { columns: string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c}>{c}</th>
        ))}
      </tr>
    </thead>
  );
}

export function TableBody({ rows }: { rows: string[][] }) {
  return (
    <tbody>
      {rows.map((row, i) => (
        <tr key={i}>{row.map((cell) => <td>{cell}</td>)}</tr>
      ))}
    </tbody>
  );
}
"""

TSX_PAYLOAD = """function TableBody({ rows }: { rows: string[][] }) {
  if (rows.length === 0) {
    return <tbody><tr><td>No rows</td></tr></tbody>;
  }
  return (
    <tbody>
      {rows.map((row, i) => (
        <tr key={i}>{row.map((cell, j) => <td key={j}>{cell}</td>)}</tr>
      ))}
    </tbody>
  );
}"""

SAMPLES = Path(__file__).resolve().parent / "identity_samples"


def sample_case(name: str, target: str, fence: str) -> tuple[str, str, str, str, str]:
    """A realistic file of another language, and its definition `target` as the payload to damage."""
    original = (SAMPLES / name).read_text(encoding="utf-8")
    spec = language_for_path(name)
    assert spec is not None
    data = original.encode()
    (definition,) = [
        d for d in list_definitions(spec, parse(spec, data)) if d.qualified_name == target
    ]
    return (name, original, target, data[definition.start : definition.end].decode(), fence)


CASES = [
    ("app/orders.py", PYTHON_FILE, "method Order.total", PYTHON_PAYLOAD, "python"),
    ("src/Table.tsx", TSX_FILE, "function TableBody", TSX_PAYLOAD, "tsx"),
    sample_case("ratelimit.go", "Limiter.Allow", "go"),
    sample_case("config.rs", "Config.is_excluded", "rust"),
    sample_case("InventoryService.java", "InventoryService.reserve", "java"),
    sample_case("CheckoutViewModel.kt", "CheckoutViewModel.onEvent", "kotlin"),
    sample_case("ProfileScreen.swift", "ProfileScreen.body", "swift"),
]
NOISE = ["(", ")", "{", "}", "[", "]", '"', "'", ":", ";", "<", ">", "\t", "  ", "\n", "`", '"""']


def damage(payload: str, rng: random.Random) -> str:
    lines = payload.split("\n")
    kind = rng.randrange(4)
    if kind == 0:  # drop a character
        i = rng.randrange(len(payload))
        return payload[:i] + payload[i + 1 :]
    if kind == 1:  # insert a stray token
        i = rng.randrange(len(payload))
        return payload[:i] + rng.choice(NOISE) + payload[i:]
    if kind == 2:  # shift one line's indentation
        row = rng.randrange(1, len(lines))
        lines[row] = " " * rng.randrange(0, 9) + lines[row].lstrip()
        return "\n".join(lines)
    row = rng.randrange(1, len(lines))  # drop a line
    return "\n".join(lines[:row] + lines[row + 1 :])


def parses_cleanly(path: Path, data: bytes) -> bool:
    spec = language_for_path(str(path))
    assert spec is not None
    if has_syntax_error(spec, parse(spec, data).root_node):
        return False
    if spec.grammar == "python":
        try:
            ast.parse(data)
        except SyntaxError:
            return False
    return True


@pytest.mark.parametrize(("file", "original", "target", "payload", "fence"), CASES, ids=[c[4] for c in CASES])
def test_damaged_payloads_never_corrupt(tmp_path: Path, file: str, original: str, target: str, payload: str, fence: str) -> None:
    rng = random.Random(20261125)
    path = tmp_path / file
    path.parent.mkdir(parents=True, exist_ok=True)
    applied = failed = 0
    for _ in range(150):
        path.write_text(original)
        broken = damage(payload, rng)
        comment = "#" if fence == "python" else "//"
        reply = f"```{fence}\n{comment} FILE: {file}\n{comment} TARGET_NODE: {target}\n{broken}\n```\n"
        report = apply_reply(reply, tmp_path)
        after = path.read_bytes()
        (outcome,) = report.outcomes
        assert "Internal error" not in outcome.message, (broken, outcome.message)
        if outcome.status is Status.FAILED:
            failed += 1
            assert after == original.encode(), broken
            assert outcome.file == file and outcome.message
        else:
            applied += 1
            assert parses_cleanly(path, after), f"applied but broken:\n{broken}\n---\n{after.decode()}"
    # Both paths were exercised: the damage is neither always harmless nor always fatal.
    assert applied > 10 and failed > 10, (applied, failed)
