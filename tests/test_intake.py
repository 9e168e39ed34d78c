"""The reply parser: fences, directive headers and file attribution (PROTOCOL.md §1, §2)."""

from __future__ import annotations

import random

import pytest

from kopipasta.intake import parse_reply
from kopipasta.model import Block


def reply(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def only(text: str) -> Block:
    blocks = parse_reply(text)
    assert len(blocks) == 1, blocks
    return blocks[0]


# --- directive comment forms ------------------------------------------------------


@pytest.mark.parametrize(
    "comment",
    [
        "// FILE: src/a.x",
        "# FILE: src/a.x",
        "-- FILE: src/a.x",
        "; FILE: src/a.x",
        "% FILE: src/a.x",
        "/* FILE: src/a.x */",
        "<!-- FILE: src/a.x -->",
        "{/* FILE: src/a.x */}",
        "  // FILE: src/a.x  ",
        "//FILE:src/a.x",
        "## FILE: src/a.x",
        ";; FILE: src/a.x",
    ],
)
def test_each_comment_form_is_a_directive(comment: str) -> None:
    block = only(reply("```", comment, "code()", "```"))
    assert block == Block(
        index=1,
        line=1,
        info="",
        directives=(("FILE", "src/a.x"),),
        file="src/a.x",
        payload="code()",
    )


def test_all_directive_keys_in_header_order() -> None:
    block = only(
        reply(
            "```python",
            "# FILE: app/auth.py",
            "# TARGET_NODE: method TokenService.verify_token",
            "# TARGET_PATH: a.b",
            "# INSERT_AFTER: function f",
            "# INSERT_BEFORE: function g",
            "# APPEND_TO: file",
            "# DELETE_NODE: class C",
            "def verify_token(self, token: str) -> bool:",
            "    ...",
            "```",
        )
    )
    assert block.directives == (
        ("FILE", "app/auth.py"),
        ("TARGET_NODE", "method TokenService.verify_token"),
        ("TARGET_PATH", "a.b"),
        ("INSERT_AFTER", "function f"),
        ("INSERT_BEFORE", "function g"),
        ("APPEND_TO", "file"),
        ("DELETE_NODE", "class C"),
    )
    assert block.file == "app/auth.py"
    assert block.info == "python"
    assert block.payload == "def verify_token(self, token: str) -> bool:\n    ..."
    assert block.directive("TARGET_NODE") == "method TokenService.verify_token"
    assert block.directive("TARGET_PATH") == "a.b"


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("file", "FILE"),
        ("File", "FILE"),
        ("Target-Node", "TARGET_NODE"),
        ("target node", "TARGET_NODE"),
        ("target_node", "TARGET_NODE"),
        ("TARGET-PATH", "TARGET_PATH"),
        ("Insert-After", "INSERT_AFTER"),
        ("insert before", "INSERT_BEFORE"),
        ("append-to", "APPEND_TO"),
        ("Delete Node", "DELETE_NODE"),
    ],
)
def test_key_case_and_separator_variants(written: str, key: str) -> None:
    block = only(reply("```", f"// {written}: v", "x", "```"))
    assert block.directives == ((key, "v"),)
    assert block.payload == "x"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("`src/a.py`", "src/a.py"),
        ('"src/a.py"', "src/a.py"),
        ("'src/a.py'", "src/a.py"),
        ("  src/a.py   ", "src/a.py"),
        ("`src/a.py'", "`src/a.py'"),  # not a pair: kept as written
        ("``src/a.py``", "`src/a.py`"),  # only one pair is stripped
    ],
)
def test_directive_value_is_stripped_and_unquoted(value: str, expected: str) -> None:
    block = only(reply("```", f"# FILE: {value}", "x", "```"))
    assert block.directives == (("FILE", expected),)
    assert block.file == expected


def test_non_directive_comment_ends_the_header() -> None:
    block = only(
        reply(
            "```python",
            "# FILE: a.py",
            "# Note: this matters",
            "# TARGET_NODE: f",
            "def f(): pass",
            "```",
        )
    )
    assert block.directives == (("FILE", "a.py"),)
    assert block.payload == "# Note: this matters\n# TARGET_NODE: f\ndef f(): pass"


def test_file_comment_further_down_stays_in_the_payload() -> None:
    block = only(
        reply(
            "```js",
            "// FILE: src/a.js",
            "const a = 1;",
            "// FILE: src/b.js",
            "const b = 2;",
            "```",
        )
    )
    assert block.directives == (("FILE", "src/a.js"),)
    assert block.file == "src/a.js"
    assert block.payload == "const a = 1;\n// FILE: src/b.js\nconst b = 2;"


def test_code_first_means_no_header_at_all() -> None:
    block = only(reply("```", "x = 1", "# FILE: a.py", "```"))
    assert block.directives == ()
    assert block.file is None
    assert block.payload == "x = 1\n# FILE: a.py"


def test_blank_lines_in_and_around_the_header() -> None:
    block = only(
        reply(
            "```python",
            "",
            "# FILE: a.py",
            "",
            "   ",
            "# TARGET_NODE: f",
            "",
            "def f():",
            "",
            "    return 1",
            "",
            "",
            "```",
        )
    )
    assert block.directives == (("FILE", "a.py"), ("TARGET_NODE", "f"))
    assert block.payload == "def f():\n\n    return 1"


def test_directives_only_leave_an_empty_payload() -> None:
    block = only(reply("```", "# FILE: a.py", "# DELETE_NODE: f", "", "```"))
    assert block.directives == (("FILE", "a.py"), ("DELETE_NODE", "f"))
    assert block.payload == ""


def test_blank_only_block() -> None:
    assert only(reply("```", "", "  ", "```")).payload == ""
    assert only(reply("```", "```")).payload == ""


def test_empty_directive_value_is_kept_as_a_directive() -> None:
    block = only(reply("### src/a.py", "```", "# TARGET_NODE:", "# FILE:", "x", "```"))
    assert block.directives == (("TARGET_NODE", ""), ("FILE", ""))
    assert block.payload == "x"
    assert block.file == "src/a.py"  # an empty FILE names nothing


def test_unterminated_block_comment_is_code() -> None:
    block = only(reply("```css", "/* FILE: a.css", "*/", "a {}", "```"))
    assert block.directives == ()
    assert block.payload == "/* FILE: a.css\n*/\na {}"


# --- fences ---------------------------------------------------------------------


def test_tilde_fence() -> None:
    block = only(reply("~~~python", "# FILE: a.py", "```", "x = 1", "~~~"))
    assert block == Block(1, 1, "python", (("FILE", "a.py"),), "a.py", "```\nx = 1")


def test_tilde_fence_not_closed_by_backticks_or_shorter_tildes() -> None:
    block = only(reply("~~~~", "~~~", "```", "~~~~~", "after"))
    assert block.payload == "~~~\n```"
    assert block.line == 1


def test_four_backtick_fence_holds_a_three_backtick_block() -> None:
    text = reply(
        "````markdown",
        "<!-- FILE: docs/README.md -->",
        "# Title",
        "",
        "```python",
        "print(1)",
        "```",
        "````",
        "",
        "```",
        "y",
        "```",
    )
    blocks = parse_reply(text)
    assert blocks == [
        Block(
            1,
            1,
            "markdown",
            (("FILE", "docs/README.md"),),
            "docs/README.md",
            "# Title\n\n```python\nprint(1)\n```",
        ),
        Block(2, 10, "", (), None, "y"),
    ]


def test_fence_with_info_inside_a_block_does_not_close_it() -> None:
    block = only(reply("```", "a", "```python", "b", "``` trailing", "```"))
    assert block.payload == "a\n```python\nb\n``` trailing"


def test_closing_fence_may_be_longer_and_have_trailing_whitespace() -> None:
    blocks = parse_reply(reply("```", "a", "`````  \t", "text", "```", "b", "```"))
    assert [(b.line, b.payload) for b in blocks] == [(1, "a"), (5, "b")]


def test_info_string_first_word() -> None:
    assert only(reply("```  tsx title=x", "a", "```")).info == "tsx"
    assert only(reply("~~~ {.python} `odd`", "a", "~~~")).info == "{.python}"


def test_backtick_in_info_string_is_not_a_fence() -> None:
    assert parse_reply(reply("```x``` is inline", "text")) == []
    block = only(reply("```a`b", "```", "x", "```"))
    assert block.line == 2
    assert block.payload == "x"


def test_two_backticks_are_not_a_fence() -> None:
    assert parse_reply(reply("``", "x", "``")) == []


def test_indented_list_item_fence() -> None:
    text = reply(
        "1. Update the helper:",
        "",
        "   ```python",
        "   # FILE: src/util.py",
        "   def f():",
        "       return 1",
        "  less indented",
        "   ```",
        "2. Done.",
    )
    block = only(text)
    assert block == Block(
        1,
        3,
        "python",
        (("FILE", "src/util.py"),),
        "src/util.py",
        "def f():\n    return 1\nless indented",
    )


def test_closing_fence_indented_too_deep_is_content() -> None:
    block = only(reply("```python", 'DOC = """', "    ```", '"""', "```"))
    assert block.payload == 'DOC = """\n    ```\n"""'


def test_unindented_closer_closes_an_indented_block() -> None:
    blocks = parse_reply(reply("  ```", "  a", "```", "b"))
    assert [(b.payload, b.line) for b in blocks] == [("a", 1)]


def test_unclosed_block_runs_to_the_end() -> None:
    block = only(reply("Intro", "```python", "# FILE: a.py", "x = 1", "", "y = 2"))
    assert block == Block(1, 2, "python", (("FILE", "a.py"),), "a.py", "x = 1\n\ny = 2")


def test_unclosed_block_at_the_last_line() -> None:
    assert only("```").payload == ""
    assert only("text\n```py").line == 2


def test_crlf_reply() -> None:
    text = "### src/a.py\r\n```python\r\n# TARGET_NODE: f\r\ndef f():\r\n    pass\r\n```\r\n"
    assert parse_reply(text) == [
        Block(1, 2, "python", (("TARGET_NODE", "f"),), "src/a.py", "def f():\n    pass")
    ]


def test_lone_cr_and_bom() -> None:
    text = "\ufeff```\r# FILE: a.py\rx\r```"
    assert parse_reply(text) == [Block(1, 1, "", (("FILE", "a.py"),), "a.py", "x")]


def test_several_blocks_index_and_line() -> None:
    text = reply(
        "Here are the changes.",  # 1
        "",  # 2
        "```python",  # 3
        "# FILE: a.py",  # 4
        "a = 1",  # 5
        "```",  # 6
        "Some explanation:",  # 7
        "~~~",  # 8
        "plain",  # 9
        "~~~",  # 10
        "",  # 11
        "**b/c.ts**",  # 12
        "```ts",  # 13
        "export const c = 1;",  # 14
        "```",  # 15
    )
    assert parse_reply(text) == [
        Block(1, 3, "python", (("FILE", "a.py"),), "a.py", "a = 1"),
        Block(2, 8, "", (), None, "plain"),
        Block(3, 13, "ts", (), "b/c.ts", "export const c = 1;"),
    ]


@pytest.mark.parametrize(
    "text", ["", "\n", "Just prose.\nNo code here.", "\ufeff", "`inline` only"]
)
def test_no_blocks(text: str) -> None:
    assert parse_reply(text) == []


# --- file attribution ------------------------------------------------------------


@pytest.mark.parametrize(
    "above",
    [
        "src/app.py",
        "### src/app.py",
        "# src/app.py",
        "**src/app.py**",
        "__src/app.py__",
        "`src/app.py`",
        "File: src/app.py",
        "file: src/app.py",
        "Filename: src/app.py",
        "PATH: src/app.py",
        "### File: `src/app.py`",
        "**`src/app.py`**",
        "`**src/app.py**`",
        "**File:** `src/app.py`",
        "**File**: `src/app.py`",
        "**File: src/app.py**",
        "src/app.py:",
        "`src/app.py`:",
        "**src/app.py:**",
        "## `src/app.py`:",
        "   **src/app.py**   ",
    ],
)
def test_file_named_above_the_fence(above: str) -> None:
    block = only(reply(above, "```python", "x = 1", "```"))
    assert block.file == "src/app.py"
    assert block.directives == ()
    # one blank line between is allowed too
    assert only(reply(above, "", "```python", "x = 1", "```")).file == "src/app.py"


@pytest.mark.parametrize(
    "name",
    [
        "src/Makefile",
        "setup.cfg",
        "app/[id]/page.tsx",
        "src/(group)/a+b@2~x.py",
        ".env.example",
        "__init__.py",
        "pkg/__init__.py",
    ],
)
def test_path_characters(name: str) -> None:
    assert only(reply(f"`{name}`", "```", "x", "```")).file == name


@pytest.mark.parametrize(
    "above",
    [
        "Here is the fix:",
        "Update src/app.py as follows:",
        "Makefile",
        "**Makefile**",
        "src/app.py is the file",
        "`src/app.py` and `src/b.py`",
        "Done.",
        "...",
        "https://example.com/a.py",
        "- src/app.py",
        "src/a b.py",
    ],
)
def test_line_above_that_names_no_file(above: str) -> None:
    assert only(reply(above, "```", "x", "```")).file is None


def test_two_blank_lines_break_the_attribution() -> None:
    assert only(reply("src/app.py", "", "", "```", "x", "```")).file is None


def test_file_directive_wins_over_the_line_above() -> None:
    block = only(reply("### src/other.py", "```", "# FILE: src/a.py", "x", "```"))
    assert block.file == "src/a.py"


def test_line_inside_a_block_or_fence_never_attributes() -> None:
    # The closing fence of the first block is right above the second opener.
    blocks = parse_reply(reply("```", "src/a.py", "```", "```", "x", "```"))
    assert [b.file for b in blocks] == [None, None]
    # The last payload line of the first block, one blank line above: still not prose.
    blocks = parse_reply(reply("````", "src/a.py", "", "````", "", "```", "x", "```"))
    assert [b.file for b in blocks] == [None, None]


def test_attribution_at_the_start_of_the_reply() -> None:
    assert only(reply("```", "x", "```")).file is None
    assert only(reply("", "```", "x", "```")).file is None


# --- robustness ----------------------------------------------------------------


def test_never_raises_on_arbitrary_text() -> None:
    pieces = [
        "```", "````", "~~~", "``", "`", "~", "\n", "\r\n", "\r", " ", "\t", "\ufeff",
        "# FILE: a.py", "// TARGET_NODE:", "<!--", "-->", "/*", "*/", "{/*", "*/}",
        "**", "__", "File:", "src/a.py", ":", "x", "é", "\x00", "\u2028", "'", '"',
    ]  # fmt: skip
    rng = random.Random(1234)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        blocks = parse_reply(text)
        assert [b.index for b in blocks] == list(range(1, len(blocks) + 1))
        assert all("\r" not in b.payload for b in blocks)
