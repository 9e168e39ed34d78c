"""Generated source files for the bench: plausible modules of N definitions, and the edits on them.

The generators are the bench's original scenarios a–e (kept as they were, but for
the trailing blank line the Python module no longer has); Rust joined them for issue 9. Each edit says
exactly what the file must hold afterwards, so every tool's result is checked
against text computed here, not against another tool's output.
"""

from __future__ import annotations

from bench.edits import Edit


def python_module(functions: int, name: str = "svc") -> str:
    """A plausible module: a class with `functions` methods of ~10 lines each, and helpers."""
    lines = ['"""Generated benchmark module."""', "", "import math", "", "", f"class {name.title()}:"]
    for i in range(functions):
        lines += [
            f"    def method_{i}(self, x: int, y: int) -> int:",
            f'        """Compute thing {i}."""',
            "        total = 0",
            "        for k in range(x):",
            "            if k % 3 == 0:",
            "                total += k * y",
            "            else:",
            "                total -= int(math.sqrt(k))",
            "        return total",
            "",
        ]
    # One final newline, as real files end (the original kopipasta drops a trailing
    # blank line from any file it patches, so the files must not have one).
    return "\n".join(lines).rstrip("\n") + "\n"


def python_method_edit(path: str, i: int) -> Edit:
    """Method `method_i` of `python_module`, made faster."""
    old = (
        f"def method_{i}(self, x: int, y: int) -> int:\n"
        f'        """Compute thing {i}."""\n'
        "        total = 0\n"
        "        for k in range(x):\n"
        "            if k % 3 == 0:\n"
        "                total += k * y\n"
        "            else:\n"
        "                total -= int(math.sqrt(k))\n"
        "        return total"
    )
    new = (
        f"def method_{i}(self, x: int, y: int) -> int:\n"
        f'        """Compute thing {i}, faster."""\n'
        "        return sum(k * y for k in range(0, x, 3))"
    )
    return Edit(path, old, new, "python", "function_definition", f"method_{i}", f"method Svc.method_{i}")


def python_method_payload(i: int) -> str:
    """What a model sends for `python_method_edit`: at column 0, indented by two spaces."""
    return (
        f"def method_{i}(self, x: int, y: int) -> int:\n"
        f'  """Compute thing {i}, faster."""\n'
        "  return sum(k * y for k in range(0, x, 3))\n"
    )


def ts_module(functions: int) -> str:
    lines = ['import { api } from "./api";', ""]
    for i in range(functions):
        lines += [
            f"export function handler{i}(id: string): Promise<number> {{",
            "  const started = Date.now();",
            f"  return api.get(`/items/${{id}}/{i}`).then((r) => {{",
            "    return r.length + (Date.now() - started);",
            "  });",
            "}",
            "",
        ]
    return "\n".join(lines)


def ts_function_edit(path: str, i: int) -> Edit:
    """`handler{i}` of `ts_module`, made async (the payload restates `export`, so the span covers it)."""
    old = (
        f"export function handler{i}(id: string): Promise<number> {{\n"
        "  const started = Date.now();\n"
        f"  return api.get(`/items/${{id}}/{i}`).then((r) => {{\n"
        "    return r.length + (Date.now() - started);\n"
        "  });\n"
        "}"
    )
    new = (
        f"export async function handler{i}(id: string): Promise<number> {{\n"
        f"  const r = await api.get(`/items/${{id}}/{i}`);\n"
        "  return r.length;\n"
        "}"
    )
    return Edit(path, old, new, "typescript", "export_statement", f"handler{i}", f"function handler{i}")


def ts_function_payload(i: int) -> str:
    """What a model sends for `ts_function_edit`: indented by four spaces where the file uses two."""
    return (
        f"export async function handler{i}(id: string): Promise<number> {{\n"
        f"    const r = await api.get(`/items/${{id}}/{i}`);\n"
        "    return r.length;\n}\n"
    )


def go_module(functions: int) -> str:
    """A plausible Go file: a struct with `functions` methods of ~10 lines each, tab-indented."""
    lines = ["package svc", "", "import (", '\t"math"', ")", "", "// Svc computes things.", "type Svc struct {", "\tscale int", "}", ""]
    for i in range(functions):
        lines += [
            f"// Method{i} computes thing {i}.",
            f"func (s *Svc) Method{i}(x, y int) int {{",
            "\ttotal := 0",
            "\tfor k := 0; k < x; k++ {",
            "\t\tif k%3 == 0 {",
            "\t\t\ttotal += k * y * s.scale",
            "\t\t} else {",
            "\t\t\ttotal -= int(math.Sqrt(float64(k)))",
            "\t\t}",
            "\t}",
            "\treturn total",
            "}",
            "",
        ]
    return "\n".join(lines)


def go_method_edit(path: str, i: int) -> Edit:
    old = (
        f"func (s *Svc) Method{i}(x, y int) int {{\n"
        "\ttotal := 0\n"
        "\tfor k := 0; k < x; k++ {\n"
        "\t\tif k%3 == 0 {\n"
        "\t\t\ttotal += k * y * s.scale\n"
        "\t\t} else {\n"
        "\t\t\ttotal -= int(math.Sqrt(float64(k)))\n"
        "\t\t}\n"
        "\t}\n"
        "\treturn total\n"
        "}"
    )
    new = (
        f"func (s *Svc) Method{i}(x, y int) int {{\n"
        "\ttotal := 0\n"
        "\tfor k := 0; k < x; k += 3 {\n"
        "\t\ttotal += k * y * s.scale\n"
        "\t}\n"
        "\treturn total\n"
        "}"
    )
    return Edit(path, old, new, "go", "method_declaration", f"Method{i}", f"method Svc.Method{i}")


def go_method_payload(i: int) -> str:
    """What a model sends for `go_method_edit`: four spaces where the file uses tabs."""
    return (
        f"func (s *Svc) Method{i}(x, y int) int {{\n"
        "    total := 0\n"
        "    for k := 0; k < x; k += 3 {\n"
        "        total += k * y * s.scale\n"
        "    }\n"
        "    return total\n}\n"
    )


def rust_module(functions: int) -> str:
    """A plausible Rust file: a struct and an impl with `functions` documented methods."""
    lines = [
        "//! Generated benchmark module.",
        "",
        "use std::collections::HashMap;",
        "",
        "/// Computes things, with a cache.",
        "pub struct Svc {",
        "    scale: i64,",
        "    cache: HashMap<i64, i64>,",
        "}",
        "",
        "impl Svc {",
    ]
    for i in range(functions):
        lines += [
            f"    /// Computes thing {i}.",
            f"    pub fn method_{i}(&self, x: i64, y: i64) -> i64 {{",
            "        let mut total = 0;",
            "        for k in 0..x {",
            "            if k % 3 == 0 {",
            "                total += k * y * self.scale;",
            "            } else {",
            "                total -= (k as f64).sqrt() as i64;",
            "            }",
            "        }",
            "        total",
            "    }",
            "",
        ]
    lines[-1] = "}"
    return "\n".join(lines) + "\n"


def rust_method_edit(path: str, i: int) -> Edit:
    old = (
        f"pub fn method_{i}(&self, x: i64, y: i64) -> i64 {{\n"
        "        let mut total = 0;\n"
        "        for k in 0..x {\n"
        "            if k % 3 == 0 {\n"
        "                total += k * y * self.scale;\n"
        "            } else {\n"
        "                total -= (k as f64).sqrt() as i64;\n"
        "            }\n"
        "        }\n"
        "        total\n"
        "    }"
    )
    new = (
        f"pub fn method_{i}(&self, x: i64, y: i64) -> i64 {{\n"
        "        if let Some(hit) = self.cache.get(&x) {\n"
        "            return *hit * y;\n"
        "        }\n"
        "        (0..x).step_by(3).map(|k| k * y * self.scale).sum()\n"
        "    }"
    )
    return Edit(path, old, new, "rust", "function_item", f"method_{i}", f"method Svc.method_{i}")


def rust_method_payload(i: int) -> str:
    """What a model sends for `rust_method_edit`: the method alone, at column 0."""
    return (
        f"pub fn method_{i}(&self, x: i64, y: i64) -> i64 {{\n"
        "    if let Some(hit) = self.cache.get(&x) {\n"
        "        return *hit * y;\n"
        "    }\n"
        "    (0..x).step_by(3).map(|k| k * y * self.scale).sum()\n"
        "}\n"
    )
