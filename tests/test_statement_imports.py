"""Import merging (PROTOCOL.md §4b) for Go, Rust, Java, C#, Kotlin, Scala and Swift: the file's bytes after a merge."""

from __future__ import annotations

import pytest

from kopipasta.code.imports.import_merge import merge_imports
from kopipasta.code.imports.imports import split_imports
from kopipasta.syntax.languages import (
    CSHARP,
    GO,
    JAVA,
    KOTLIN,
    RUST,
    SCALA,
    SWIFT,
    LanguageSpec,
    parse,
)


def merge(spec: LanguageSpec, source: str, *imports: str, newline: str = "\n") -> str:
    data = source.encode("utf-8")
    return merge_imports(spec, data, parse(spec, data), list(imports), newline).decode("utf-8")


GO_FILE = 'package api\n\nimport (\n\t"errors"\n\t"net/http"\n)\n\nfunc F() {}\n'


@pytest.mark.parametrize(
    ("imports", "expected_group"),
    [
        (['import "log"'], '\t"errors"\n\t"log"\n\t"net/http"\n'),  # gofmt's place
        (['import "time"'], '\t"errors"\n\t"net/http"\n\t"time"\n'),
        (['import (\n\t"errors"\n\t"fmt"\n)'], '\t"errors"\n\t"fmt"\n\t"net/http"\n'),  # "errors" present
        (['import "net/http"'], '\t"errors"\n\t"net/http"\n'),
    ],
)
def test_go_paths_join_the_import_group_sorted(imports: list[str], expected_group: str) -> None:
    merged = merge(GO, GO_FILE, *imports)
    assert merged == GO_FILE.replace('\t"errors"\n\t"net/http"\n', expected_group)


def test_go_group_runs_split_by_blank_lines_keep_their_order() -> None:
    source = 'package api\n\nimport (\n\t"net/http"\n\n\t"github.com/acme/z"\n\t"github.com/acme/b"\n)\n'
    merged = merge(GO, source, 'import "github.com/acme/c"')
    # The last run is not sorted: the new path goes after it.
    assert merged == source.replace('"github.com/acme/b"\n', '"github.com/acme/b"\n\t"github.com/acme/c"\n')


def test_go_file_without_imports_gets_them_after_its_package_line() -> None:
    source = "// Package x does things.\npackage x\n\n// F does.\nfunc F() {}\n"
    assert merge(GO, source, 'import "strconv"') == source.replace("package x\n", 'package x\n\nimport "strconv"\n')


def test_rust_names_join_a_use_list_of_the_same_prefix() -> None:
    source = "use std::fmt;\nuse std::path::{Path, PathBuf};\n\nfn f() {}\n"
    merged = merge(RUST, source, "use std::path::{Component, Path};")
    assert merged == source.replace("{Path, PathBuf}", "{Component, Path, PathBuf}")


def test_rust_glob_covers_a_name_and_new_paths_go_in_sorted_place() -> None:
    source = "use std::collections::*;\nuse std::io;\n\nfn f() {}\n"
    merged = merge(RUST, source, "use std::collections::HashMap;", "use std::fmt::Write;")
    assert merged == "use std::collections::*;\nuse std::fmt::Write;\nuse std::io;\n\nfn f() {}\n"


def test_rust_file_without_imports_keeps_its_inner_doc_and_attributes_first() -> None:
    source = "//! Crate docs.\n#![allow(dead_code)]\n\n/// f.\npub fn f() {}\n"
    merged = merge(RUST, source, "use std::str::FromStr;")
    assert merged == source.replace("#![allow(dead_code)]\n", "#![allow(dead_code)]\n\nuse std::str::FromStr;\n")


def test_java_import_joins_the_group_it_shares_a_prefix_with() -> None:
    source = (
        "package a;\n\nimport java.net.URI;\nimport java.util.List;\n\n"
        "import org.springframework.http.ResponseEntity;\n\nclass C {}\n"
    )
    merged = merge(JAVA, source, "import java.util.Objects;", "import org.springframework.http.HttpStatus;")
    assert merged == source.replace(
        "import java.util.List;\n", "import java.util.List;\nimport java.util.Objects;\n"
    ).replace(
        "import org.springframework.http.ResponseEntity;\n",
        "import org.springframework.http.HttpStatus;\nimport org.springframework.http.ResponseEntity;\n",
    )


def test_java_wildcard_covers_a_class_but_not_a_static_member() -> None:
    source = "package a;\n\nimport java.util.*;\n\nclass C {}\n"
    merged = merge(JAVA, source, "import java.util.List;", "import static java.util.Objects.requireNonNull;")
    assert merged == source.replace(
        "import java.util.*;\n", "import java.util.*;\nimport static java.util.Objects.requireNonNull;\n"
    )


def test_kotlin_alias_is_never_taken_as_covered_by_a_wildcard() -> None:
    source = "package a\n\nimport kotlinx.coroutines.*\n\nfun f() = 1\n"
    merged = merge(KOTLIN, source, "import kotlinx.coroutines.launch", "import kotlinx.coroutines.Job as J")
    assert merged == source.replace(
        "import kotlinx.coroutines.*\n", "import kotlinx.coroutines.*\nimport kotlinx.coroutines.Job as J\n"
    )


def test_kotlin_import_goes_before_the_comment_its_grammar_puts_inside_the_last_import() -> None:
    source = "package a\n\nimport a.B\n\n/** Doc. */\nclass C\n"
    assert merge(KOTLIN, source, "import a.D") == source.replace("import a.B\n", "import a.B\nimport a.D\n")


def test_csharp_using_keeps_crlf_and_an_unsorted_list_gets_it_last() -> None:
    source = "using System;\r\nusing Microsoft.AspNetCore.Mvc;\r\n\r\nnamespace N;\r\n"
    merged = merge(CSHARP, source, "using System.Linq;", newline="\r\n")
    assert merged == source.replace(
        "using Microsoft.AspNetCore.Mvc;\r\n", "using Microsoft.AspNetCore.Mvc;\r\nusing System.Linq;\r\n"
    )


@pytest.mark.parametrize(
    ("spec", "source", "statement"),
    [
        (SCALA, "package a\n\nimport scala.util._\n\nobject O\n", "import scala.util.Try"),
        (SWIFT, "import SwiftUI\n\nstruct V {}\n", "import SwiftUI"),
        (CSHARP, "using System.Linq;\n\nclass C {}\n", "using  System.Linq ;"),
    ],
)
def test_present_imports_change_nothing(spec: LanguageSpec, source: str, statement: str) -> None:
    assert merge(spec, source, statement) == source


def test_a_payloads_package_line_goes_with_its_imports() -> None:
    payload = 'package api\n\nimport "log"\n\n// F logs.\nfunc F() { log.Print() }\n'
    assert split_imports(GO, payload) == (['import "log"'], "// F logs.\nfunc F() { log.Print() }\n")
