"""A YAML or TOML file that parsed must still parse after a text patch or a whole-file block
(data/wellformed.py): the exact failures, and the files that are not held to it."""

from __future__ import annotations

import pytest

from kopipasta.data.wellformed import check_still_parses
from kopipasta.errors import SyntaxCheckError

COMPOSE = b"services:\n  web:\n    image: nginx:1.27\n    ports:\n      - \"80:80\"\n"


def failure(path: str, old: bytes, new: bytes) -> str:
    with pytest.raises(SyntaxCheckError) as caught:
        check_still_parses(path, old, new, "The diff")
    return caught.value.message


def test_a_mis_indented_item_names_the_file_and_the_parsers_first_error() -> None:
    broken = COMPOSE + b"     - \"443:443\"\n"
    assert failure("docker-compose.yml", COMPOSE, broken) == (
        "The diff would break the YAML of docker-compose.yml: expected <block end>, but found "
        "'<block sequence start>' at line 6, column 6")


def test_a_key_written_twice_in_one_mapping_fails_though_pyyaml_reads_it() -> None:
    twice = COMPOSE.replace(b"    ports:", b"    image: nginx:1.28\n    ports:")
    assert failure("compose.yaml", COMPOSE, twice) == (
        "The diff would break the YAML of compose.yaml: the key 'image' at line 4 is already in its "
        "mapping at line 3")


def test_duplicates_the_file_already_had_are_not_held_against_the_edit() -> None:
    old = b"a: 1\na: 2\nb: [x]\n"
    check_still_parses("x.yaml", old, b"a: 1\na: 3\nb: [x, y]\n", "The diff")


def test_an_undefined_alias_fails_and_tags_pass() -> None:
    assert "found undefined alias 'base'" in failure("ci.yml", b"x: 1\n", b"x: *base\n")
    check_still_parses("template.yaml", b"Bucket: !Ref Name\n", b"Bucket: !Ref Other\nTopic: !GetAtt T.Arn\n", "The diff")


def test_a_file_that_did_not_parse_before_is_not_held() -> None:
    helm = b"metadata:\n  labels:\n    {{- include \"x.labels\" . | nindent 4 }}\n"
    check_still_parses("chart/templates/deploy.yaml", helm, helm + b"spec:\n  replicas: {{ .Values.n }}\n", "The diff")
    check_still_parses("broken.toml", b"a = \n", b"a = = 1\n", "The diff")


def test_a_new_file_is_held_unless_it_is_a_template() -> None:
    assert "would break the YAML of new.yml" in failure("new.yml", b"", b"a: [1,\n")
    assert "would break the TOML of new.toml: " in failure("new.toml", b"", b"[a]\nx = 1\n[a]\n")
    check_still_parses("chart/templates/svc.yaml", b"", b"{{- if .Values.svc }}\nkind: Service\n{{- end }}\n", "The diff")


def test_toml_names_the_key_or_table_written_twice() -> None:
    old = b'[tool.ruff]\nline-length = 88\n\n[tool.pytest.ini_options]\naddopts = "-q"\n'
    new = old.replace(b"line-length = 88\n", b"line-length = 88\nline-length = 100\n")
    assert failure("pyproject.toml", old, new) == (
        "The diff would break the TOML of pyproject.toml: Cannot overwrite a value (at line 3, column 18)")
    assert "Cannot declare ('tool', 'ruff') twice" in failure("pyproject.toml", old, old + b"\n[tool.ruff]\nfix = true\n")


def test_other_files_and_unchanged_bytes_are_not_read() -> None:
    check_still_parses("notes.txt", b"a: 1\n", b"a: [\n", "The diff")
    check_still_parses("x.yaml", b"a: [\n", b"a: [\n", "The diff")
