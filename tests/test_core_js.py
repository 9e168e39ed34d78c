"""JS/TS resolution and splicing details that the fixtures show only indirectly.

Each test pins one rule of PROTOCOL.md §4 as it applies to JavaScript and
TypeScript, at the level of the library functions, so a regression names the
stage that broke instead of a whole-file diff.
"""

from __future__ import annotations

import pytest

from kopipasta.code.edit.splice import replace_definition
from kopipasta.code.find.definitions import Definition, list_definitions
from kopipasta.code.find.document import in_memory
from kopipasta.code.find.resolve import parse_target, resolve
from kopipasta.code.layout.indent import Unit
from kopipasta.errors import TargetNotFound
from kopipasta.syntax.languages import JAVASCRIPT, TSX, TYPESCRIPT, LanguageSpec, parse


def definitions(spec: LanguageSpec, source: str) -> list[Definition]:
    return list_definitions(spec, parse(spec, source.encode()))


def patch(spec: LanguageSpec, source: str, target: str, payload: str) -> str:
    data = source.encode()
    tree = parse(spec, data)
    found = resolve(parse_target(target, "f"), list_definitions(spec, tree), "f")
    return replace_definition(in_memory(spec, data), found, payload).data.decode()


# --- which nodes are definitions ---------------------------------------------------


def test_object_literal_method_is_not_a_definition() -> None:
    source = "export const handlers = {\n  getUser() {\n    return 1;\n  },\n};\n"
    names = {d.qualified_name for d in definitions(TYPESCRIPT, source)}
    assert names == {"handlers"}
    with pytest.raises(TargetNotFound):
        patch(TYPESCRIPT, source, "method handlers.getUser", "getUser() {\n  return 2;\n}")


def test_class_methods_still_are_definitions_in_js_and_ts() -> None:
    source = "class A {\n  m() {}\n  #p() {}\n  static s() {}\n}\n"
    for spec in (JAVASCRIPT, TYPESCRIPT, TSX):
        found = {(d.kind, d.qualified_name) for d in definitions(spec, source)}
        assert {("method", "A.m"), ("method", "A.#p"), ("method", "A.s")} <= found


# --- the wrapper: decorators, export, overload stubs ----------------------------------


def test_member_decorators_beside_a_method_belong_to_it() -> None:
    source = 'class C {\n  x = 1;\n\n  @Get(":id")\n  @Auth()\n  find() {}\n}\n'
    (find,) = [d for d in definitions(TYPESCRIPT, source) if d.name == "find"]
    assert source.encode()[find.outer_start :].startswith(b'@Get(":id")')
    assert source.encode()[find.start :].startswith(b"find()")


def test_restated_member_decorators_replace_the_old_ones() -> None:
    source = "class C {\n  @Get()\n  find() {}\n}\n"
    result = patch(TYPESCRIPT, source, "method C.find", "@Get(':id')\nfind(id) {}")
    assert result == "class C {\n  @Get(':id')\n  find(id) {}\n}\n"


def test_decorator_before_export_is_kept_when_only_export_is_restated() -> None:
    source = "@Injectable()\nexport class S {\n  a() {}\n}\n"
    result = patch(TYPESCRIPT, source, "class S", "export class S {\n  b() {}\n}")
    assert result == "@Injectable()\nexport class S {\n  b() {}\n}\n"


def test_exported_implementation_keeps_its_overload_stubs() -> None:
    source = "export function f(a: string): string;\nexport function f(a: any): any {\n  return a;\n}\n"
    result = patch(TYPESCRIPT, source, "function f", "export function f(a: any): any {\n  return [a];\n}")
    assert result == "export function f(a: string): string;\nexport function f(a: any): any {\n  return [a];\n}\n"


def test_restated_overload_stubs_replace_the_old_ones() -> None:
    source = "export function f(a: string): string;\nexport function f(a: any): any {\n  return a;\n}\n"
    payload = "export function f(a: number): number;\nexport function f(a: any): any {\n  return a;\n}"
    assert patch(TYPESCRIPT, source, "function f", payload) == payload + "\n"


# --- class fields ------------------------------------------------------------------------


@pytest.mark.parametrize("spec", [JAVASCRIPT, TYPESCRIPT])
def test_class_field_semicolon_is_not_doubled(spec: LanguageSpec) -> None:
    source = "class C {\n  go = () => {\n    a();\n  };\n}\n"
    with_semicolon = patch(spec, source, "method C.go", "go = () => {\n  b();\n};")
    assert with_semicolon == "class C {\n  go = () => {\n    b();\n  };\n}\n"
    without = patch(spec, source, "method C.go", "go = () => {\n  b();\n}")
    assert without == with_semicolon


# --- block comments and indentation ------------------------------------------------------


def test_jsdoc_lines_do_not_make_the_file_unit_one_space() -> None:
    source = "/**\n * Doc.\n * More.\n */\nfunction f() {\n  return 1;\n}\n"
    data = source.encode()
    assert in_memory(JAVASCRIPT, data).unit == Unit("  ")


def test_jsdoc_in_payload_moves_with_its_opener() -> None:
    source = "class C {\n  /** Old. */\n  m() {}\n}\n"
    payload = "/**\n * New.\n * Really.\n */\nm() {\n    return 1;\n}"
    result = patch(JAVASCRIPT, source, "method C.m", payload)
    assert result == "class C {\n  /**\n   * New.\n   * Really.\n   */\n  m() {\n    return 1;\n  }\n}\n"


def test_template_literal_lines_are_values() -> None:
    source = "function q() {\n  return 1;\n}\n"
    payload = "function q() {\n    return sql`\n  SELECT 1\n      FROM t`;\n}"
    result = patch(JAVASCRIPT, source, "function q", payload)
    assert result == "function q() {\n  return sql`\n  SELECT 1\n      FROM t`;\n}\n"
