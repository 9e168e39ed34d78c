"""TARGET_PATH on JSON and JSONC files (PROTOCOL.md §5): exact output text, exact failures."""

from __future__ import annotations

import contextlib
import re

import pytest

from kopipasta.data.json import allows_comments, is_json_file, set_json_value
from kopipasta.errors import (
    AmbiguousTarget,
    PatchError,
    PayloadError,
    SyntaxCheckError,
    TargetNotFound,
    UnsupportedFile,
)

PACKAGE = """\
{
  "name": "demo",
  "version": "1.0.0",
  "scripts": {
    "build": "tsc"
  },
  "files": ["dist", "src"],
  "dependencies": {
    "lodash": "^4.17.21",
    "@types/node": "^20.0.0"
  }
}
"""


def apply(source: str, path: str, payload: str, *, file: str = "package.json",
          allow_comments: bool = False) -> str:
    return set_json_value(source, path, payload, file=file, allow_comments=allow_comments)


# --- replacing values ---------------------------------------------------------------------------


def test_replace_nested_object_is_laid_out_in_the_files_style() -> None:
    assert apply(PACKAGE, "dependencies", '{ "react": "^18.2.0", "react-dom": "^18.2.0" }') == """\
{
  "name": "demo",
  "version": "1.0.0",
  "scripts": {
    "build": "tsc"
  },
  "files": ["dist", "src"],
  "dependencies": {
    "react": "^18.2.0",
    "react-dom": "^18.2.0"
  }
}
"""


def test_replace_scalar() -> None:
    assert apply(PACKAGE, "version", '"2.0.0"') == PACKAGE.replace('"1.0.0"', '"2.0.0"')


def test_replace_keeps_the_payloads_key_order() -> None:
    result = apply(PACKAGE, "scripts", '{"test": "pytest", "build": "tsc -b", "a": 1}')
    assert '"scripts": {"test": "pytest", "build": "tsc -b", "a": 1},\n' not in result
    assert '  "scripts": {\n    "test": "pytest",\n    "build": "tsc -b",\n    "a": 1\n  },\n' in result


def test_replace_key_with_at_sign_and_slash() -> None:
    result = apply(PACKAGE, "dependencies.@types/node", '"^22.0.0"')
    assert result == PACKAGE.replace('"^20.0.0"', '"^22.0.0"')


def test_array_index_replace() -> None:
    assert apply(PACKAGE, "files[1]", '"lib"') == PACKAGE.replace('["dist", "src"]', '["dist", "lib"]')


def test_nested_index_then_key() -> None:
    source = '{\n  "items": [\n    {"id": 1},\n    {"id": 2}\n  ]\n}\n'
    assert apply(source, "items[1].id", "3") == '{\n  "items": [\n    {"id": 1},\n    {"id": 3}\n  ]\n}\n'


def test_one_line_payload_for_one_line_value_stays_on_one_line() -> None:
    result = apply(PACKAGE, "files", '["dist", {"a": [1, 2]}]')
    assert result == PACKAGE.replace('["dist", "src"]', '["dist", {"a": [1, 2]}]')


def test_multi_line_payload_for_one_line_value_keeps_the_files_one_line() -> None:
    # This once pinned the spread form: the chat model's layout beat the file's own, and a
    # 1-line change became a 4-line diff. How the file wrote that very value now decides.
    result = apply(PACKAGE, "files", '[\n"dist",\n"lib"\n]')
    assert result == PACKAGE.replace('["dist", "src"]', '["dist", "lib"]')


def test_empty_payload_containers_stay_inline() -> None:
    result = apply(PACKAGE, "scripts", "{}")
    assert '  "scripts": {},\n' in result


def test_one_line_file_stays_one_line() -> None:
    assert apply('{"a": {"b": 1}, "c": 2}', "a", '{\n  "b": [1,\n 2]\n}') == '{"a": {"b": [1, 2]}, "c": 2}'


def test_value_already_there_leaves_the_file_byte_for_byte() -> None:
    source = '{\n  "files": ["a","b"]\n}\n'
    assert apply(source, "files", '[\n  "a",\n  "b"\n]') == source


def test_bracketed_keys_hold_dots() -> None:
    source = '{\n  "a.b": 1,\n  "a": {"b": 2}\n}\n'
    assert apply(source, '["a.b"]', "10") == '{\n  "a.b": 10,\n  "a": {"b": 2}\n}\n'
    assert apply(source, "['a.b']", "10") == '{\n  "a.b": 10,\n  "a": {"b": 2}\n}\n'
    assert apply(source, "a.b", "20") == '{\n  "a.b": 1,\n  "a": {"b": 20}\n}\n'


def test_dollar_prefix_and_bare_dollar() -> None:
    assert apply(PACKAGE, "$.version", '"3.0.0"') == PACKAGE.replace('"1.0.0"', '"3.0.0"')
    assert apply(PACKAGE, "$.files[0]", '"out"') == PACKAGE.replace('"dist", "src"', '"out", "src"')
    assert apply('[1, 2]\n', "$[1]", "5") == "[1, 5]\n"
    # the payload wrote [true, null] on one line, and the file holds no array to say otherwise
    assert apply('{\n  "a": 1\n}\n', "$", '{"b": [true, null]}') == '{\n  "b": [true, null]\n}\n'


# --- adding a member ---------------------------------------------------------------------------


def test_add_new_key_as_last_member_with_comma_and_indent() -> None:
    assert apply(PACKAGE, "scripts.test", '"vitest"') == PACKAGE.replace(
        '    "build": "tsc"\n', '    "build": "tsc",\n    "test": "vitest"\n')


def test_add_new_key_at_the_root_with_a_multi_line_value() -> None:
    result = apply(PACKAGE, "engines", '{\n"node": ">=18"\n}')
    assert result == PACKAGE.replace('  }\n}\n', '  },\n  "engines": {\n    "node": ">=18"\n  }\n}\n')


def test_add_to_an_empty_object() -> None:
    source = '{\n  "name": "x",\n  "devDependencies": {}\n}\n'
    assert apply(source, "devDependencies.vitest", '"^1.0.0"') == (
        '{\n  "name": "x",\n  "devDependencies": {\n    "vitest": "^1.0.0"\n  }\n}\n')


def test_add_to_an_empty_root_object() -> None:
    assert apply("{}\n", "a", '"b"') == '{"a": "b"}\n'
    assert apply("{\n}\n", "a", "[1]") == '{\n  "a": [1]\n}\n'


def test_add_to_a_one_line_object_stays_on_its_line() -> None:
    assert apply('{\n  "x": {"a": 1}\n}\n', "x.b", "2") == '{\n  "x": {"a": 1, "b": 2}\n}\n'


def test_add_after_a_comment_on_the_last_members_line() -> None:
    source = '{\n  "a": 1, // first\n  "b": 2 // last\n}\n'
    assert apply(source, "c", "3", file="x.jsonc", allow_comments=True) == (
        '{\n  "a": 1, // first\n  "b": 2, // last\n  "c": 3\n}\n')


# --- the file's own style ----------------------------------------------------------------------


@pytest.mark.parametrize("unit", ["  ", "    ", "\t"])
def test_indent_unit_of_the_file_is_used(unit: str) -> None:
    source = "{\n" + unit + '"a": {\n' + unit * 2 + '"b": 1\n' + unit + "}\n}\n"
    expected = ("{\n" + unit + '"a": {\n' + unit * 2 + '"b": {\n' + unit * 3 + '"c": [\n'
                + unit * 4 + "1\n" + unit * 3 + "]\n" + unit * 2 + "}\n" + unit + "}\n}\n")
    assert apply(source, "a.b", '{\n  "c": [\n    1\n  ]\n}', file="x.json") == expected


def test_crlf_file_stays_crlf_everywhere() -> None:
    source = '{\r\n  "a": {\r\n    "b": 1\r\n  },\r\n  "c": 2\r\n}\r\n'
    replaced = apply(source, "a", '{\n"x": [1,\n2]\n}', file="x.json")
    assert replaced == '{\r\n  "a": {\r\n    "x": [\r\n      1,\r\n      2\r\n    ]\r\n  },\r\n  "c": 2\r\n}\r\n'
    added = apply(source, "d", '{"e": 1,\n"f": 2}', file="x.json")
    assert added == ('{\r\n  "a": {\r\n    "b": 1\r\n  },\r\n  "c": 2,\r\n  "d": {\r\n'
                     '    "e": 1,\r\n    "f": 2\r\n  }\r\n}\r\n')
    assert "\n" not in added.replace("\r\n", "")


TSCONFIG = """\
{
  // Shared settings: keep in sync with tsconfig.build.json
  "compilerOptions": {
    /* Language */
    "target": "ES2022", // modern runtimes only
    "strict": true,
    "paths": {
      "@/*": ["src/*"]
    }
  },
  "include": ["src"] /* sources */
}
"""


def test_comments_in_tsconfig_are_kept_byte_for_byte() -> None:
    result = apply(TSCONFIG, "compilerOptions.paths", '{"@/*": ["src/*"], "~/*": ["lib/*"]}',
                   file="tsconfig.json", allow_comments=True)
    assert result == TSCONFIG.replace(
        '    "paths": {\n      "@/*": ["src/*"]\n    }\n',
        '    "paths": {\n      "@/*": ["src/*"],\n      "~/*": ["lib/*"]\n    }\n')


def test_tsconfig_add_member_after_trailing_comment() -> None:
    result = apply(TSCONFIG, "exclude", '["dist"]', file="tsconfig.json", allow_comments=True)
    assert result == TSCONFIG.replace(
        '  "include": ["src"] /* sources */\n', '  "include": ["src"], /* sources */\n  "exclude": ["dist"]\n')


def test_crlf_line_comment_after_the_last_member_keeps_its_line() -> None:
    source = '{\r\n  "a": 1 // one\r\n}\r\n'
    assert apply(source, "b", "2", file="x.jsonc", allow_comments=True) == (
        '{\r\n  "a": 1, // one\r\n  "b": 2\r\n}\r\n')


def test_comments_in_plain_json_are_tolerated() -> None:
    source = '{\n  // why\n  "a": 1\n}\n'
    assert apply(source, "a", "2", file="x.json") == '{\n  // why\n  "a": 2\n}\n'


def test_trailing_commas_in_jsonc() -> None:
    source = '{\n  "a": [1, 2,],\n  "b": {\n    "c": 1,\n  },\n}\n'
    assert apply(source, "a[1]", "5", file="x.jsonc", allow_comments=True) == source.replace("2,]", "5,]")
    assert apply(source, "b.d", "true", file="x.jsonc", allow_comments=True) == (
        '{\n  "a": [1, 2,],\n  "b": {\n    "c": 1,\n    "d": true,\n  },\n}\n')


def test_payload_comments_and_trailing_commas_are_accepted_in_jsonc() -> None:
    result = apply('{\n  "a": 1\n}\n', "a", '[\n  1, // one\n  2,\n]', file="x.jsonc", allow_comments=True)
    assert result == '{\n  "a": [\n    1,\n    2\n  ]\n}\n'


def test_plus_signed_exponents_parse() -> None:
    # tree-sitter-json rejects 1e+5 (fixed upstream in its PR #64); RFC 8259 allows it
    source = '{\n  "big": 1e+5,\n  "small": 2E+3\n}\n'
    assert apply(source, "small", "1.5e+300") == '{\n  "big": 1e+5,\n  "small": 1.5e+300\n}\n'


def test_empty_key() -> None:
    assert apply('{"": 1}', "['']", "2") == '{"": 2}'
    assert apply('{"": 1}', '[""]', "3") == '{"": 3}'


def test_non_ascii_text() -> None:
    source = '{\n  "名前": "ü—テスト",\n  "emoji": "😀",\n  "b": 1\n}\n'
    assert apply(source, "b", '{"ключ": "é\\u00e9😀"}', file="x.json") == (
        '{\n  "名前": "ü—テスト",\n  "emoji": "😀",\n  "b": {"ключ": "éé😀"}\n}\n')
    assert apply(source, "名前", '"ok"', file="x.json") == source.replace('"ü—テスト"', '"ok"')


def test_lone_surrogate_escape_stays_escaped() -> None:
    assert apply('{"a": 1}', "a", '"\\ud800x"', file="x.json") == '{"a": "\\ud800x"}'


# --- nested containers: one line or one member a line ------------------------------------------

TSCONFIG_PATHS = """\
{
  "compilerOptions": {
    "baseUrl": ".",
    "paths": {
      "@/*": ["src/*"],
      "@lib/*": ["lib/*"]
    }
  }
}
"""
TSCONFIG_PATHS_ADDED = """\
{
  "compilerOptions": {
    "baseUrl": ".",
    "paths": {
      "@/*": ["src/*"],
      "@lib/*": ["lib/*"],
      "@ui/*": ["ui/*"]
    }
  }
}
"""


@pytest.mark.parametrize("payload", [
    '{"@/*": ["src/*"], "@lib/*": ["lib/*"], "@ui/*": ["ui/*"]}',
    # how chat models often spread it: the file's writing wins over the payload's
    '{\n  "@/*": [\n    "src/*"\n  ],\n  "@lib/*": ["lib/*"],\n  "@ui/*": [\n    "ui/*"\n  ]\n}',
])
def test_tsconfig_paths_arrays_stay_on_one_line_like_the_files(payload: str) -> None:
    result = apply(TSCONFIG_PATHS, "compilerOptions.paths", payload, file="tsconfig.json", allow_comments=True)
    assert result == TSCONFIG_PATHS_ADDED


def test_new_alias_is_written_like_its_siblings() -> None:
    result = apply(TSCONFIG_PATHS, 'compilerOptions.paths["@ui/*"]', '[\n  "ui/*"\n]', file="tsconfig.json",
                   allow_comments=True)
    assert result == TSCONFIG_PATHS_ADDED


def test_crlf_tsconfig_paths() -> None:
    source = TSCONFIG_PATHS.replace("\n", "\r\n")
    payload = '{\n  "@/*": ["src/*"],\n  "@lib/*": ["lib/*"],\n  "@ui/*": [\n    "ui/*"\n  ]\n}'
    result = apply(source, "compilerOptions.paths", payload, file="tsconfig.json", allow_comments=True)
    assert result == TSCONFIG_PATHS_ADDED.replace("\n", "\r\n")
    spread = apply(source, "compilerOptions.paths", '{"@/*": ["src/*", "app/*", "packages/app/src/*", '
                   '"vendor/app/src/*", "shared/*"]}', file="tsconfig.json", allow_comments=True)
    assert spread == source.replace('"@/*": ["src/*"],\r\n      "@lib/*": ["lib/*"]\r\n', (
        '"@/*": [\r\n        "src/*",\r\n        "app/*",\r\n        "packages/app/src/*",\r\n'
        '        "vendor/app/src/*",\r\n        "shared/*"\r\n      ]\r\n'))


def test_spread_arrays_in_the_file_stay_spread() -> None:
    source = '{\n  "paths": {\n    "@/*": [\n      "src/*"\n    ]\n  }\n}\n'
    result = apply(source, "paths", '{"@/*": ["src/*", "app/*"], "~/*": ["lib/*"]}', file="tsconfig.json",
                   allow_comments=True)
    assert result == ('{\n  "paths": {\n    "@/*": [\n      "src/*",\n      "app/*"\n    ],\n'
                      '    "~/*": [\n      "lib/*"\n    ]\n  }\n}\n')


ESLINTRC = """\
{
  "root": true,
  "extends": ["eslint:recommended", "prettier"],
  "rules": {
    "no-console": "warn",
    "quotes": ["error", "single"]
  }
}
"""
ESLINTRC_ADDED = ESLINTRC.replace(
    '    "quotes": ["error", "single"]\n',
    '    "quotes": ["error", "single"],\n    "max-params": ["error", {"max": 2}]\n')


def test_eslint_rule_arrays_stay_on_one_line() -> None:
    payload = """{
  "no-console": "warn",
  "quotes": ["error", "single"],
  "max-params": ["error", {"max": 2}]
}"""
    assert apply(ESLINTRC, "rules", payload, file=".eslintrc.json", allow_comments=True) == ESLINTRC_ADDED


def test_eslint_rule_added_spread_is_written_like_the_other_rules() -> None:
    payload = '[\n  "error",\n  {\n    "max": 2\n  }\n]'
    result = apply(ESLINTRC, "rules.max-params", payload, file=".eslintrc.json", allow_comments=True)
    assert result == ESLINTRC_ADDED


def test_package_files_written_inline_stay_inline_after_adding_an_entry() -> None:
    expected = PACKAGE.replace('["dist", "src"]', '["dist", "src", "types"]')
    assert apply(PACKAGE, "files", '[\n  "dist",\n  "src",\n  "types"\n]') == expected
    assert apply(PACKAGE, "files", '["dist", "src", "types"]') == expected
    whole = apply(PACKAGE, "$", '{"name": "demo", "version": "1.0.0", "scripts": {"build": "tsc"}, '
                                '"files": ["dist", "src", "types"], "dependencies": {"lodash": "^4.17.21", '
                                '"@types/node": "^20.0.0"}}')
    assert whole == expected


LONG_FILES = '["dist", "src", "types", "README.md", "LICENSE", "CHANGELOG.md", "scripts/postinstall.js"]'


def test_long_array_is_laid_out_one_item_a_line() -> None:
    # inline in the file, inline in the payload, but 97 columns: past the file's 80
    assert apply(PACKAGE, "files", LONG_FILES) == PACKAGE.replace('["dist", "src"]', """[
    "dist",
    "src",
    "types",
    "README.md",
    "LICENSE",
    "CHANGELOG.md",
    "scripts/postinstall.js"
  ]""")


def test_long_nested_array_is_laid_out_and_its_short_siblings_are_not() -> None:
    payload = ('{"@/*": ["src/*"], "@app/*": ["src/app/*", "src/shared/app/*", "packages/app/src/*", '
               '"vendor/app/*"]}')
    result = apply(TSCONFIG_PATHS, "compilerOptions.paths", payload, file="tsconfig.json", allow_comments=True)
    assert result == TSCONFIG_PATHS.replace('"@lib/*": ["lib/*"]\n', """"@app/*": [
        "src/app/*",
        "src/shared/app/*",
        "packages/app/src/*",
        "vendor/app/*"
      ]
""")


def test_line_length_is_the_files_own_when_longer_than_80() -> None:
    source = '{\n  "description": "' + "x" * 90 + '",\n  "files": ["dist"]\n}\n'
    assert apply(source, "files", LONG_FILES) == source.replace('["dist"]', LONG_FILES)


def test_mixed_siblings_leave_it_to_the_payload() -> None:
    source = '{\n  "a": [1],\n  "b": [\n    2\n  ],\n  "c": {\n    "d": 1\n  }\n}\n'
    assert apply(source, "e", '[\n3\n]') == source.replace('  }\n}\n', '  },\n  "e": [\n    3\n  ]\n}\n')
    assert apply(source, "e", "[3]") == source.replace('  }\n}\n', '  },\n  "e": [3]\n}\n')
    # the objects beside it are all spread: so is a new object, however the payload wrote it
    assert apply(source, "e", '{"f": 1}') == source.replace('  }\n}\n', '  },\n  "e": {\n    "f": 1\n  }\n}\n')


def test_payload_comments_are_dropped_in_a_nested_value() -> None:
    payload = '{\n  "@/*": ["src/*"], // app\n  /* ui */ "@ui/*": ["ui/*"],\n}'
    result = apply(TSCONFIG_PATHS, "compilerOptions.paths", payload, file="tsconfig.json", allow_comments=True)
    assert result == TSCONFIG_PATHS.replace('"@lib/*": ["lib/*"]', '"@ui/*": ["ui/*"]')


# --- failures ------------------------------------------------------------------------------------


def failure(source: str, path: str, payload: str, *, file: str = "package.json",
            allow_comments: bool = False) -> PatchError:
    with pytest.raises(PatchError) as caught:
        apply(source, path, payload, file=file, allow_comments=allow_comments)
    return caught.value


def test_missing_parent_names_the_keys_that_exist() -> None:
    source = '{"name": "x", "version": "1", "devDependencies": {}}'
    err = failure(source, "dependencies.react", '"^18"')
    assert isinstance(err, TargetNotFound)
    assert str(err) == ("Path 'dependencies.react' not found in package.json: no key 'dependencies' "
                        "at $ (keys: name, version, devDependencies)")


def test_missing_parent_in_an_empty_object() -> None:
    err = failure('{"a": {}}', "a.b.c", "1")
    assert str(err) == "Path 'a.b.c' not found in package.json: no key 'b' at $.a (the object is empty)"


def test_index_out_of_range() -> None:
    err = failure(PACKAGE, "files[2]", '"x"')
    assert isinstance(err, TargetNotFound)
    assert str(err) == "Path 'files[2]' not found in package.json: index 2 is out of range at $.files (2 items)"


def test_key_on_a_non_object_and_index_on_a_non_array() -> None:
    assert str(failure(PACKAGE, "name.first", "1")) == (
        "Path 'name.first' not found in package.json: $.name is a string, not an object")
    assert str(failure(PACKAGE, "scripts[0]", "1")) == (
        "Path 'scripts[0]' not found in package.json: $.scripts is an object, not an array")
    assert str(failure(PACKAGE, 'files[0]["x.y"]', "1")) == (
        "Path 'files[0][\"x.y\"]' not found in package.json: $.files[0] is a string, not an object")


def test_duplicate_key_on_the_path_is_ambiguous() -> None:
    err = failure('{"a": 1, "a": 2}', "a", "3")
    assert isinstance(err, AmbiguousTarget)
    assert str(err) == "Path 'a' is ambiguous in package.json: key 'a' appears 2 times at $"


def test_invalid_payload_reports_line_and_column() -> None:
    err = failure(PACKAGE, "dependencies", '{\n  "react": "^18.2.0"\n    "vue": "^3"\n}')
    assert isinstance(err, PayloadError)
    assert str(err) == ("Payload for 'dependencies' in package.json is not valid JSON: "
                        "Expecting ',' delimiter at line 3, column 5")


def test_payload_error_column_counts_characters_past_blanked_comments() -> None:
    err = failure('{"a": 1}', "a", '{ // é ü\n  "ключ": "é" /* ü */ "b": 2\n}', file="x.jsonc",
                  allow_comments=True)
    assert str(err) == ("Payload for 'a' in x.jsonc is not valid JSON: "
                        "Expecting ',' delimiter at line 2, column 23")


def test_payload_comments_are_refused_in_plain_json() -> None:
    err = failure(PACKAGE, "version", '"2.0.0" // bump')
    assert str(err) == ("Payload for 'version' in package.json is not valid JSON: "
                        "Extra data at line 1, column 9")


@pytest.mark.parametrize("payload, reason", [
    ("", "is empty — give the JSON value to set"),
    ("NaN", "is not valid JSON: NaN is not valid JSON"),
    ("1e999", "is not valid JSON: the number 1e999 is out of range"),
])
def test_unusable_payloads(payload: str, reason: str) -> None:
    err = failure(PACKAGE, "version", payload)
    assert isinstance(err, PayloadError)
    assert str(err) == f"Payload for 'version' in package.json {reason}"


@pytest.mark.parametrize("path, column", [
    ("", 1), ("a..b", 3), ("a[" + "9" * 5000 + "]", 2), ("a.", 3), ("$.", 3), ("a[x]", 2), ("a[1", 2), ("a[-1]", 2),
    ("a[0]b", 5), (".a", 1), ('a["b]', 2), ('a["\\q"]', 2), ("a]", 2),
])
def test_malformed_path(path: str, column: int) -> None:
    err = failure(PACKAGE, path, "1")
    assert isinstance(err, PayloadError)
    assert str(err) == (f"TARGET_PATH '{path}' for package.json is malformed at column {column} — "
                        'write keys joined by dots, [n] for an array index, ["a.b"] for a key holding a dot')


def test_invalid_original_file() -> None:
    err = failure('{\n  "a": 1\n  "b": 2\n}\n', "a", "3")
    assert isinstance(err, SyntaxCheckError)
    assert str(err) == "package.json is not valid JSON: Expecting ',' delimiter at line 3, column 3"


def test_trailing_comma_is_invalid_outside_jsonc() -> None:
    err = failure('{\n  "a": [1,]\n}\n', "a", "3")
    assert isinstance(err, SyntaxCheckError)
    # The reason is the json module's, and its wording changed in Python 3.13
    # ("Expecting value" → "Illegal trailing comma before end of array").
    assert re.fullmatch(r"package\.json is not valid JSON: .+ at line 2, column 1[01]", str(err)), str(err)


@pytest.mark.parametrize("source", ["", "   \n", "{} {}", "'a'", "0x1F", "[1,,]", "{\"a\": NaN}", "//\n"])
def test_files_that_are_not_one_json_value(source: str) -> None:
    assert isinstance(failure(source, "a", "1", allow_comments=True), SyntaxCheckError)


def test_deep_nesting_fails_cleanly() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert isinstance(failure("[1]", "$[0]", deep), (PayloadError, UnsupportedFile))
    assert isinstance(failure(deep, "$[0]", "1"), (SyntaxCheckError, UnsupportedFile))


@pytest.mark.parametrize("source", ['{"a": 1', '{"a": }', '{"a" 1}', "[", "\ufeff{}", "{\"a\": \"\udcff\"}",
                                    '{"a": [1, 2', '{"a": /* x', '{"a": 1}\x00'])
@pytest.mark.parametrize("path", ["a", "a.b", "$", "a[0]", "['x']"])
def test_garbage_raises_only_patch_errors(source: str, path: str) -> None:
    for allow in (False, True):
        with contextlib.suppress(PatchError):
            apply(source, path, '{"k": [1, 2]}', allow_comments=allow)


# --- which files ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path, expected", [
    ("package.json", True), ("a/b/tsconfig.app.json", True), ("x.JSONC", True),
    ("settings.json5", False), ("data.yaml", False), (".babelrc", False), ("json", False),
])
def test_is_json_file(path: str, expected: bool) -> None:
    assert is_json_file(path) is expected


@pytest.mark.parametrize("path, expected", [
    ("tsconfig.json", True), ("packages/web/tsconfig.build.json", True), ("jsconfig.json", True),
    (".vscode/settings.json", True), (".devcontainer/devcontainer.json", True),
    ("devcontainer.json", True), (".eslintrc.json", True), ("notes.jsonc", True),
    ("sub\\.vscode\\launch.json", True), ("package.json", False), ("composer.json", False),
    (".vscode/notes.md", False),
])
def test_allows_comments(path: str, expected: bool) -> None:
    assert allows_comments(path) is expected
