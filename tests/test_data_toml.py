"""TARGET_PATH in TOML files (PROTOCOL.md §5): the exact text after a set, the exact failures."""

from __future__ import annotations

import pytest

from kopipasta.data import set_value
from kopipasta.errors import PayloadError, SyntaxCheckError, TargetNotFound

CARGO = """\
# Workspace member: the ledger binary.
[package]
name = 'ledger'   # crates.io name
version = "0.4.0"
keywords = ["accounting", "ledger"]
metadata.docs.all-features = true

[dependencies]
chrono = { version = "0.4", features = ["clock"] }
magic = 0xDEAD_BEEF
serde = [
    "derive",
    "rc",
]

[profile.release]
lto = true

[[bin]]
name = "ledger"

[[bin]]
name = "ledger-import"
"""


def apply(path: str, payload: str, source: str = CARGO) -> str:
    return set_value(source, path, payload, file="Cargo.toml")


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    old, new = before.splitlines(), after.splitlines()
    assert len(old) == len(new), after
    return [(a, b) for a, b in zip(old, new, strict=True) if a != b]


# --- values --------------------------------------------------------------------------------------


def test_literal_string_keeps_its_quotes_and_its_comment() -> None:
    after = apply("package.name", '"ledger-core"')
    assert changed_lines(CARGO, after) == [("name = 'ledger'   # crates.io name",
                                            "name = 'ledger-core'   # crates.io name")]


def test_restated_key_line_is_read_as_the_value() -> None:
    after = apply("package.version", 'version = "0.5.0"')
    assert changed_lines(CARGO, after) == [('version = "0.4.0"', 'version = "0.5.0"')]


def test_hex_number_elsewhere_is_kept_and_the_same_value_changes_nothing() -> None:
    assert apply("dependencies.magic", "3735928559") == CARGO  # 0xDEAD_BEEF, the same integer
    after = apply("package.keywords", '["accounting", "ledger", "finance"]')
    assert "magic = 0xDEAD_BEEF\n" in after


def test_one_line_array_for_a_spread_array_is_spread_the_same_way() -> None:
    after = apply("dependencies.serde", '["derive", "rc", "std"]')
    assert 'serde = [\n    "derive",\n    "rc",\n    "std",\n]\n' in after


def test_key_inside_an_inline_table() -> None:
    after = apply("dependencies.chrono.features", '["clock", "serde"]')
    assert changed_lines(CARGO, after) == [('chrono = { version = "0.4", features = ["clock"] }',
                                            'chrono = { version = "0.4", features = ["clock", "serde"] }')]


def test_array_item() -> None:
    after = apply("dependencies.serde[1]", '"alloc"')
    assert changed_lines(CARGO, after) == [('    "rc",', '    "alloc",')]


def test_value_written_by_a_dotted_key() -> None:
    after = apply("package.metadata.docs.all-features", "false")
    assert changed_lines(CARGO, after) == [("metadata.docs.all-features = true", "metadata.docs.all-features = false")]


def test_array_of_tables_element_key() -> None:
    after = apply("bin[1].name", '"ledger-load"')
    assert after.endswith('[[bin]]\nname = "ledger-load"\n')


# --- tables --------------------------------------------------------------------------------------


def test_table_body_replaced_between_its_header_and_the_next_table() -> None:
    after = apply("profile.release", "lto = \"fat\"\ncodegen-units = 1")
    assert '[profile.release]\nlto = "fat"\ncodegen-units = 1\n\n[[bin]]' in after


def test_table_sent_with_its_header_or_as_an_inline_table() -> None:
    with_header = apply("profile.release", "[profile.release]\nlto = false")
    inline = apply("profile.release", "{ lto = false }")
    assert with_header == inline == CARGO.replace("[profile.release]\nlto = true", "[profile.release]\nlto = false")


def test_array_of_tables_element_body() -> None:
    after = apply("bin[0]", 'name = "ledger"\npath = "src/main.rs"')
    assert '[[bin]]\nname = "ledger"\npath = "src/main.rs"\n\n[[bin]]\nname = "ledger-import"\n' in after


# --- new keys and tables -------------------------------------------------------------------------


def test_new_key_after_the_tables_last_pair() -> None:
    after = apply("dependencies.tokio", 'tokio = { version = "1", features = ["full"] }')
    assert '    "rc",\n]\ntokio = { version = "1", features = ["full"] }\n\n[profile.release]' in after


def test_new_key_in_an_inline_table() -> None:
    after = apply("dependencies.chrono.default-features", "false")
    assert 'chrono = { version = "0.4", features = ["clock"], default-features = false }' in after


def test_new_key_in_a_table_written_by_dotted_keys_keeps_the_prefix() -> None:
    after = apply("package.metadata.docs.rustdoc-args", '["--cfg", "docsrs"]')
    assert 'metadata.docs.all-features = true\nmetadata.docs.rustdoc-args = ["--cfg", "docsrs"]\n' in after


def test_new_table_as_lines_becomes_a_section_after_its_siblings() -> None:
    after = apply("profile.dev", "opt-level = 1")
    assert "[profile.release]\nlto = true\n\n[profile.dev]\nopt-level = 1\n\n[[bin]]" in after


def test_new_root_key_goes_before_the_first_table() -> None:
    after = apply("workspace-note", '"see README"')
    assert after.startswith('# Workspace member: the ledger binary.\nworkspace-note = "see README"\n\n[package]\n')


def test_crlf_file_stays_crlf() -> None:
    source = CARGO.replace("\n", "\r\n")
    after = apply("dependencies.serde", '["derive"]', source)
    assert 'serde = [\r\n    "derive",\r\n]\r\n' in after
    assert "\n" not in after.replace("\r\n", "")


# --- failures ------------------------------------------------------------------------------------

PYPROJECT = """\
[project]
name = "shop"

[tool.ruff]
line-length = 100

[tool.ruff.lint]
select = ["E"]
"""


@pytest.mark.parametrize(
    ("source", "path", "payload", "error", "message"),
    [
        (CARGO, "workspace.members", '["a"]', TargetNotFound,
         "Path 'workspace.members' not found in Cargo.toml: no key 'workspace' at $ "
         "(keys: package, dependencies, profile, bin)"),
        (CARGO, "bin[2].name", '"x"', TargetNotFound,
         "Path 'bin[2].name' not found in Cargo.toml: index 2 is out of range at $.bin (2 items)"),
        (CARGO, "package.name.first", '"x"', TargetNotFound,
         "Path 'package.name.first' not found in Cargo.toml: $.package.name is a string, not a table"),
        (CARGO, "bin", "[]", TargetNotFound,
         "Path 'bin' in Cargo.toml is an array of tables ([[bin]] sections) — set one of them, e.g. bin[0], "
         "or send the whole file"),
        (CARGO, "dependencies.serde", '["derive"', PayloadError,
         "Payload for 'dependencies.serde' in Cargo.toml is not valid TOML: Unclosed array (at end of document) — "
         "send a TOML value, or `key = value` lines for a table"),
        (CARGO, "profile.release", "true", PayloadError,
         "Payload for 'profile.release' in Cargo.toml is not a table, but 'profile.release' is a [table] "
         "section — send its `key = value` lines"),
        (PYPROJECT, "tool", "ruff = {}", TargetNotFound,
         "Path 'tool' in Cargo.toml is a table written only through its sub-tables ([tool.ruff], "
         "[tool.ruff.lint]) — set one of those tables or keys, or send the whole file"),
        (PYPROJECT, "tool.ruff", "line-length = 88", TargetNotFound,
         "Path 'tool.ruff' in Cargo.toml is a table that continues in [tool.ruff.lint] (line 7) — "
         "set its keys one by one, or each of its tables on its own"),
    ],
)
def test_failures_name_the_file_the_path_and_the_reason(source: str, path: str, payload: str, error: type,
                                                        message: str) -> None:
    with pytest.raises(error) as failure:
        apply(path, payload, source)
    assert str(failure.value) == message


def test_a_file_that_is_not_toml_fails_before_anything() -> None:
    with pytest.raises(SyntaxCheckError) as failure:
        set_value("a = [1, 2\nb = 3\n", "b", "4", file="bad.toml")
    assert str(failure.value).startswith("bad.toml is not valid TOML: ")


def test_a_value_with_its_own_comment_replaces_the_old_comment() -> None:
    source = '[tool.ruff]\nline-length = 88  # black compat\ntarget-version = "py310"\n'
    sent = set_value(source, "tool.ruff.line-length", "120  # wider screens", file="pyproject.toml")
    assert sent == '[tool.ruff]\nline-length = 120  # wider screens\ntarget-version = "py310"\n'
    restated = set_value(source, "tool.ruff.line-length", "line-length = 100  # team rule", file="pyproject.toml")
    assert restated.splitlines()[1] == "line-length = 100  # team rule"
    plain = set_value(source, "tool.ruff.line-length", "100", file="pyproject.toml")
    assert plain.splitlines()[1] == "line-length = 100  # black compat"
