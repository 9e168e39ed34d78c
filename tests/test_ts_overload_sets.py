"""TypeScript overload sets stay whole (code/read/overload_sets.py): a reply that would leave one
signature without its implementation is refused, naming it, and nothing is written; declarations
that have no body by nature (ambient, interface members, abstract methods, `.d.ts`) and whole sets
added or replaced are applied. Each case runs the real command on a scratch project."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_process import kopipasta

SHAPES = """\
export interface Shape {
  area(): number;
  scale(by: number): Shape;
}

export abstract class Base {
  abstract name(): string;
  size(a: number): number;
  size(a: string): number;
  size(a: any): number {
    return Number(a);
  }
}

export function pad(s: string): string;
export function pad(s: string, width: number): string;
export function pad(s: string, width = 2): string {
  return s.padStart(width);
}
"""


def _apply(root: Path, path: str, code: str) -> tuple[int, str]:
    (root / "reply.md").write_text(f"```typescript:{path}\n{code}```\n", encoding="utf-8")
    result = kopipasta("apply", "reply.md", cwd=root)
    return result.returncode, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("code", "orphan"),
    [
        pytest.param(
            "export function padV2(s: string): string;\n"
            "export function pad(s: string, width: number): string;\n"
            "export function pad(s: string, width = 2): string {\n  return s.padStart(width);\n}\n",
            "padV2",
            id="top-level-signature-renamed",
        ),
        pytest.param(
            "export abstract class Base {\n  abstract name(): string;\n  sizeOf(a: number): number;\n"
            "  size(a: string): number;\n  size(a: any): number {\n    return Number(a);\n  }\n}\n",
            "Base.sizeOf",
            id="method-signature-renamed",
        ),
    ],
)
def test_a_signature_left_without_its_implementation_is_refused(tmp_path: Path, code: str, orphan: str) -> None:
    (tmp_path / "shapes.ts").write_text(SHAPES, encoding="utf-8")
    status, output = _apply(tmp_path, "shapes.ts", code)
    assert status == 1, output
    assert f"{orphan} would be left an overload signature without its implementation" in output
    assert (tmp_path / "shapes.ts").read_text(encoding="utf-8") == SHAPES


def test_bodiless_declarations_by_nature_and_whole_sets_are_applied(tmp_path: Path) -> None:
    (tmp_path / "shapes.ts").write_text(SHAPES, encoding="utf-8")
    # A new overload set, whole, beside the others; an interface member added; an abstract method added.
    added = (
        "export function trim(s: string): string;\n"
        "export function trim(s: string, chars: string): string;\n"
        "export function trim(s: string, chars = ' '): string {\n  return s.split(chars).join('');\n}\n"
    )
    status, output = _apply(tmp_path, "shapes.ts", f"// ... existing code ...\n\n{added}")
    assert status == 0, output
    assert (tmp_path / "shapes.ts").read_text(encoding="utf-8") == SHAPES + "\n" + added
    interface = "export interface Shape {\n  area(): number;\n  scale(by: number): Shape;\n  perimeter(): number;\n}\n"
    status, output = _apply(tmp_path, "shapes.ts", interface)
    assert status == 0, output
    assert "  perimeter(): number;\n}" in (tmp_path / "shapes.ts").read_text(encoding="utf-8")
    # Ambient declarations in a .d.ts file are signatures alone by nature.
    (tmp_path / "env.d.ts").write_text("declare function env(name: string): string;\n", encoding="utf-8")
    status, output = _apply(
        tmp_path, "env.d.ts", "declare function env(name: string): string;\ndeclare function flag(name: string): boolean;\n"
    )
    assert status == 0, output
    assert "declare function flag" in (tmp_path / "env.d.ts").read_text(encoding="utf-8")
