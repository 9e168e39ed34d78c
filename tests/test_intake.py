"""The reply parser: fences, directive headers and file attribution (PROTOCOL.md §1, §2)."""

from __future__ import annotations

import random

import pytest

from kopipasta.intake.reader import parse_reply
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


def test_prose_comment_between_directives_does_not_end_the_header() -> None:
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
    assert block.directives == (("FILE", "a.py"), ("TARGET_NODE", "f"))
    assert block.payload == "def f(): pass"


def test_prose_comment_followed_by_code_ends_the_header() -> None:
    block = only(reply("```python", "# FILE: a.py", "# Note: this matters", "def f(): pass", "```"))
    assert block.directives == (("FILE", "a.py"),)
    assert block.payload == "# Note: this matters\ndef f(): pass"


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
        "<<<RESET>>>", "```python:a.py", '```py title="a.py"', "// filepath: a.ts", "\u00a0", "\uff1a",
        "\u200b", "# TARGETNODE", "=", "```bash", "#", "\n\n", "### ", "(new)",
    ]  # fmt: skip
    rng = random.Random(1234)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        blocks = parse_reply(text)
        # Numbered in sequence; after a <<<RESET>>> the numbers go on from the withdrawn ones.
        first = blocks[0].index if blocks else 1
        assert [b.index for b in blocks] == list(range(first, first + len(blocks)))
        assert all("\r" not in b.payload for b in blocks)


# --- attribution forms (PROTOCOL.md §2) --------------------------------------------


@pytest.mark.parametrize(
    ("opener", "language"),
    [
        ("```python:app/x.py", "python"),
        ("```tsx:app/x.py", "tsx"),
        ('```python title="app/x.py"', "python"),
        ("```python title='app/x.py'", "python"),
        ("```python title=app/x.py", "python"),
        ('```python file="app/x.py"', "python"),
        ("```python filename=app/x.py", "python"),
        ('```python path="app/x.py"', "python"),
        ('```python {title="app/x.py"}', "python"),
        ("```app/x.py", ""),
        ("~~~app/x.py", ""),
        ("```python app/x.py", "python"),
        ("```python # FILE: app/x.py", "python"),
        ("```python // filepath: app/x.py", "python"),
        ("```# FILE: app/x.py", ""),
    ],
)
def test_file_named_in_the_info_string(opener: str, language: str) -> None:
    fence = opener[:3]
    block = only(reply(opener, "def f():", "    return 1", fence))
    assert block.file == "app/x.py"
    assert block.info == language
    assert block.payload == "def f():\n    return 1"


@pytest.mark.parametrize(
    "opener",
    ["```python", "```python3.11", "```c++", "```{.python}", "```js title=Example", "```text", "```http path=/api/users",
     "```12:15:app/x.tsx", "```bash ~/bin/run.sh"],
)  # fmt: skip
def test_info_string_that_names_no_file(opener: str) -> None:
    assert only(reply(opener, "x", "```")).file is None


def test_info_string_path_wins_over_the_line_above_and_a_file_line_over_both() -> None:
    assert only(reply("### src/other.py", "```python:src/a.py", "x", "```")).file == "src/a.py"
    block = only(reply("### src/other.py", "```python:src/a.py", "# FILE: src/b.py", "x", "```"))
    assert block.file == "src/b.py"


def test_info_string_without_a_file_keeps_the_line_above() -> None:
    assert only(reply("**src/a.py**", "```python", "x", "```")).file == "src/a.py"


@pytest.mark.parametrize(
    "comment",
    [
        "// filepath: src/x.ts",
        "// File path: src/x.ts",
        "// Filepath: src/x.ts",
        "// file_path: src/x.ts",
        "// filename: src/x.ts",
        "// Path: src/x.ts",
    ],
)
def test_spellings_of_file(comment: str) -> None:
    block = only(reply("```ts", comment, "export const x = 1;", "```"))
    assert block.directives == (("FILE", "src/x.ts"),)
    assert block.payload == "export const x = 1;"


@pytest.mark.parametrize("comment", ["// Path: /api/users", "// path: the route taken", "# Filename: see below"])
def test_file_alias_without_a_relative_path_is_code(comment: str) -> None:
    block = only(reply("```ts", comment, "x", "```"))
    assert block.directives == ()
    assert block.payload == f"{comment}\nx"


@pytest.mark.parametrize(
    "above",
    ["### app/tokens.py", "**src/components/Tables.tsx**", "# FILE: app/tokens.py", "## File: `app/tokens.py`"],
)
def test_decorated_path_above_the_fence(above: str) -> None:
    expected = "src/components/Tables.tsx" if "Tables" in above else "app/tokens.py"
    assert only(reply(above, "```", "x", "```")).file == expected


# --- several files in one file block ---------------------------------------------------


def test_two_files_in_one_fence() -> None:
    blocks = parse_reply(
        reply(
            "```python",  # 1
            "# FILE: app/a.py",  # 2
            "def a():",  # 3
            "    return 1",  # 4
            "",  # 5
            "# FILE: app/b.py",  # 6
            "def b():",  # 7
            "    return 2",  # 8
            "```",  # 9
            "```python",  # 10
            "# FILE: app/c.py",
            "c = 3",
            "```",
        )
    )
    assert blocks == [
        Block(1, 1, "python", (("FILE", "app/a.py"),), "app/a.py", "def a():\n    return 1"),
        Block(2, 6, "python", (("FILE", "app/b.py"),), "app/b.py", "def b():\n    return 2"),
        Block(3, 10, "python", (("FILE", "app/c.py"),), "app/c.py", "c = 3"),
    ]


def test_three_copilot_files_and_a_targeted_one_in_one_fence() -> None:
    blocks = parse_reply(
        reply(
            "```ts",
            "// filepath: src/a.ts",
            "export const a = 1;",
            "",
            "// filepath: src/b.ts",
            "export const b = 2;",
            "",
            "",
            "// FILE: src/c.ts",
            "// TARGET_NODE: function c",
            "export function c() {}",
            "",
            "// FILE: src/d.ts",
            "export function d() {}",
            "```",
        )
    )
    assert [(b.file, b.directives[1:], b.payload) for b in blocks] == [
        ("src/a.ts", (), "export const a = 1;"),
        ("src/b.ts", (), "export const b = 2;"),
        # A targeted block is not split: its later FILE line is code.
        ("src/c.ts", (("TARGET_NODE", "function c"),), "export function c() {}\n\n// FILE: src/d.ts\nexport function d() {}"),
    ]
    assert [b.index for b in blocks] == [1, 2, 3]
    assert [b.line for b in blocks] == [1, 5, 9]


def test_file_line_not_at_column_0_or_without_a_blank_line_is_code() -> None:
    block = only(reply("```python", "# FILE: a.py", "x = 1", "# FILE: b.py", "", "    # FILE: c.py", "```"))
    assert block.payload == "x = 1\n# FILE: b.py\n\n    # FILE: c.py"


def test_file_named_above_splits_on_a_later_file_line() -> None:
    blocks = parse_reply(reply("`a.py`", "```python", "a = 1", "", "# FILE: b.py", "b = 2", "```"))
    assert [(b.file, b.payload) for b in blocks] == [("a.py", "a = 1"), ("b.py", "b = 2")]


# --- nested fences, CRLF, non-breaking spaces, RESET ------------------------------------


def test_nested_fence_with_info_string_inside_a_markdown_file() -> None:
    blocks = parse_reply(
        reply(
            "```markdown",
            "<!-- FILE: README.md -->",
            "# Tool",
            "",
            "Install:",
            "",
            "```bash",
            "pip install tool",
            "```",
            "",
            "Then run it.",
            "```",
            "",
            "```python",
            "# FILE: app.py",
            "x = 1",
            "```",
        )
    )
    assert [(b.file, b.payload) for b in blocks] == [
        ("README.md", "# Tool\n\nInstall:\n\n```bash\npip install tool\n```\n\nThen run it."),
        ("app.py", "x = 1"),
    ]


def test_stray_fence_line_in_code_does_not_swallow_the_reply() -> None:
    # Read as nested, the block would run to the end of the reply: so it is not nested.
    blocks = parse_reply(reply("```python", "# FILE: a.py", 'DOC = """', "```python", '"""', "```", "text"))
    assert [b.payload for b in blocks] == ['DOC = """\n```python\n"""']


def test_crlf_reply_with_info_string_and_two_files() -> None:
    text = "```python:a.py\r\nx = 1\r\n\r\n# FILE: b.py\r\ny = 2\r\n```\r\n"
    assert [(b.file, b.payload) for b in parse_reply(text)] == [("a.py", "x = 1"), ("b.py", "y = 2")]


def test_non_breaking_spaces_in_indentation_read_as_spaces() -> None:
    nbsp = "\u00a0"
    block = only(
        reply(
            "```python",
            "# FILE: a.py",
            "def f():",
            f"{nbsp}{nbsp}{nbsp}{nbsp}return 'a{nbsp}b'",
            f" {nbsp} {nbsp}# tail{nbsp}",
            "```",
        )
    )
    assert block.payload == f"def f():\n    return 'a{nbsp}b'\n    # tail{nbsp}"


def test_reset_withdraws_every_block_before_it() -> None:
    from kopipasta.intake.reader import read_reply

    text = reply(
        "```python",
        "# FILE: a.py",
        "x = 1",
        "```",
        "```",
        "explanation",
        "```",
        "Sorry, let me start over.",
        "<<<RESET>>>",
        "```python",
        "# FILE: b.py",
        "y = 2",
        "```",
    )
    read = read_reply(text)
    assert read.withdrawn == 2
    assert [(b.index, b.file) for b in read.blocks] == [(3, "b.py")]


def test_reset_inside_a_block_is_payload() -> None:
    from kopipasta.intake.reader import read_reply

    read = read_reply(reply("```", "# FILE: a.txt", "<<<RESET>>>", "```"))
    assert read.withdrawn == 0
    assert read.blocks[0].payload == "<<<RESET>>>"


# --- malformed headers (issue 11, item 1) -------------------------------------------------

MALFORMED = [
    ("# TARGETNODE: function helper", "TARGET_NODE"),
    ("# TargetNode: function helper", "TARGET_NODE"),
    ("# TARGET: function helper", "TARGET_NODE"),
    ("# Target: helper", "TARGET_NODE"),
    ("# TARGET_FUNCTION: helper", "TARGET_NODE"),
    ("# TARGET_METHOD: Cache.get", "TARGET_NODE"),
    ("# TARGET_CLASS: Cache", "TARGET_NODE"),
    ("# TARGET-FN: helper", "TARGET_NODE"),
    ("# TARGET_NODES: helper", "TARGET_NODE"),
    ("# TAGRET_NODE: function helper", "TARGET_NODE"),
    ("# TARGET_NDOE: function helper", "TARGET_NODE"),
    ("# TARGET_NODE = function helper", "TARGET_NODE"),
    ("# TARGET_NODE=helper", "TARGET_NODE"),
    ("# TARGET_NODE\uff1a function helper", "TARGET_NODE"),
    ("# TARGET\u200b_NODE: function helper", "TARGET_NODE"),
    ("# TARGET_\u200dNODE: function helper", "TARGET_NODE"),
    ("# \ufeffTARGET_NODE: function helper", "TARGET_NODE"),
    ("# ＴＡＲＧＥＴ_ＮＯＤＥ: function helper", "TARGET_NODE"),
    ("# TARGET_NODE function helper", "TARGET_NODE"),
    ("# TARGET.NODE: helper", "TARGET_NODE"),
    ("# REPLACE: function helper", "TARGET_NODE"),
    ("# REPLACE_NODE: function helper", "TARGET_NODE"),
    ("# NODE: function helper", "TARGET_NODE"),
    ("# Function: helper", "TARGET_NODE"),
    ("# INSERTAFTER: function helper", "INSERT_AFTER"),
    ("# INSERT: function helper", "INSERT_AFTER"),
    ("# INSERT_BEFOR: function helper", "INSERT_BEFORE"),
    ("# APPEND: class Cache", "APPEND_TO"),
    ("# APPENDTO: class Cache", "APPEND_TO"),
    ("# DELETE: function helper", "DELETE_NODE"),
    ("# REMOVE_NODE: function helper", "DELETE_NODE"),
    ("# DELETENODE: function helper", "DELETE_NODE"),
    ("/* TARGETNODE: function helper */", "TARGET_NODE"),
    ("<!-- TARGET = helper -->", "TARGET_NODE"),
    ("// TARGET_NODE -> function helper", "TARGET_NODE"),
    ("# TARGET_NODE - function helper", "TARGET_NODE"),
    ("# TARGET_NODE \u2014 helper", "TARGET_NODE"),
    ("# Target node => function helper", "TARGET_NODE"),
    ("TARGET_NODE: function helper", "TARGET_NODE"),
    ("DELETE_NODE: function helper", "DELETE_NODE"),
]


@pytest.mark.parametrize(("line", "meant"), MALFORMED)
def test_near_miss_key_is_never_payload(line: str, meant: str) -> None:
    block = only(reply("```python", "# FILE: app.py", line, "def helper(x):", "    return x", "```"))
    assert block.malformed is not None and block.malformed[:2] == (line.strip(), meant)
    assert block.payload == "def helper(x):\n    return x"
    assert block.directives == (("FILE", "app.py"),)


@pytest.mark.parametrize(
    ("line", "meant"),
    [("// TARGETPATH: scripts.build", "TARGET_PATH"), ("// TARGET: scripts.build", "TARGET_PATH"),
     ("// KEY_PATH: scripts.build", "TARGET_PATH"), ("// TARGET_NODE = scripts", "TARGET_NODE")],
)  # fmt: skip
def test_near_miss_in_a_data_file_suggests_target_path(line: str, meant: str) -> None:
    block = only(reply("```json", "// FILE: package.json", line, '"x"', "```"))
    assert block.malformed is not None and block.malformed[:2] == (line, meant)
    assert block.payload == '"x"'


@pytest.mark.parametrize(
    "line",
    ["# FILE\uff1a app.py", "# FIEL: app.py", "# F\u200bILE: app.py", "# FILE = app.py", "# FILEPATH = app.py"],
)
def test_near_miss_of_file(line: str) -> None:
    block = only(reply("```python", line, "def helper(x):", "    return x", "```"))
    assert block.malformed is not None and block.malformed[:2] == (line, "FILE")
    assert block.payload == "def helper(x):\n    return x"


@pytest.mark.parametrize(
    "comment",
    [
        "# Note: this matters",
        "# Author: Bob",
        "# Target: production servers",
        "# Returns: the token",
        "# Delete node if it is empty",
        "# TODO: handle the error",
        "# Copyright (c) 2024 Acme",
        "# -*- coding: utf-8 -*-",
        "#!/usr/bin/env python",
        "# type: ignore",
    ],
)
def test_prose_comments_are_not_near_misses(comment: str) -> None:
    block = only(reply("```python", "# FILE: app.py", comment, "x = 1", "```"))
    assert block.malformed is None
    assert block.payload == f"{comment}\nx = 1"


@pytest.mark.parametrize("blank", ["#", "//", "# ", "##", "# ---", "/* */", "<!-- -->"])
def test_blank_comment_inside_the_header_does_not_end_it(blank: str) -> None:
    block = only(reply("```python", "# FILE: app.py", blank, "# TARGET_NODE: function helper", "def helper(x): ...", "```"))
    assert block.directives == (("FILE", "app.py"), ("TARGET_NODE", "function helper"))
    assert block.payload == "def helper(x): ..."


def test_prose_comment_between_file_and_target() -> None:
    block = only(
        reply(
            "```python",
            "# FILE: app.py",
            "# The helper now doubles its input.",
            "#",
            "# TARGET_NODE: function helper",
            "def helper(x):",
            "    return 2 * x",
            "```",
        )
    )
    assert block.directives == (("FILE", "app.py"), ("TARGET_NODE", "function helper"))
    assert block.payload == "def helper(x):\n    return 2 * x"


def test_near_miss_after_a_prose_comment_is_caught() -> None:
    block = only(reply("```python", "# FILE: app.py", "# fixed:", "# TARGETNODE: helper", "def helper(): ...", "```"))
    assert block.malformed == ("# TARGETNODE: helper", "TARGET_NODE", "helper")
    assert block.payload == "def helper(): ..."


def test_header_lines_of_50000_characters_are_read_quickly() -> None:
    long = "# " + "a " * 25_000
    block = only(reply("```python", "# FILE: app.py", long, "x", "```"))
    assert block.payload.endswith("x")


def test_file_comment_whose_value_is_not_a_path_does_not_split() -> None:
    block = only(reply("```python", "# FILE: app.py", "import os", "", "# File: handling below", "x = 1", "```"))
    assert block.payload == "import os\n\n# File: handling below\nx = 1"


@pytest.mark.parametrize(
    "above",
    ["### 2. `src/app.py`", "## 1) src/app.py", "**src/app.py** (updated)", "`src/app.py` (new file):",
     "### `src/app.py` (modified)", "src/app.py [changed]"],
)  # fmt: skip
def test_numbered_heading_and_short_remark_above_the_fence(above: str) -> None:
    assert only(reply(above, "```python", "x = 1", "```")).file == "src/app.py"


@pytest.mark.parametrize("above", ["1. src/app.py", "src/app.py (see below for why this changed)"])
def test_numbered_list_item_and_long_remark_name_no_file(above: str) -> None:
    assert only(reply(above, "```python", "x = 1", "```")).file is None


# --- every way of writing a key wrongly: a directive or a failure, never payload ------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_KEYS = ["FILE", "TARGET_NODE", "TARGET_PATH", "INSERT_AFTER", "INSERT_BEFORE", "APPEND_TO", "DELETE_NODE"]
_INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
_SEPARATORS = [":", " :", ": ", "=", " = ", "\uff1a", "\uff1a ", "::", "->", " => "]


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


@st.composite
def written_keys(draw: st.DrawFn) -> tuple[str, str, str]:
    key = draw(st.sampled_from(_KEYS))
    words = key.split("_")
    joiner = draw(st.sampled_from(["_", "-", " ", "", "__", "."]))
    written = joiner.join(words)
    written = draw(st.sampled_from([written, written.lower(), written.title(), written.capitalize()]))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(written)))
        written = written[:at] + draw(st.sampled_from(_INVISIBLE)) + written[at:]
    if draw(st.booleans()):
        written = _fullwidth(written)
    separator = draw(st.sampled_from(_SEPARATORS))
    value = "app/tokens.py" if key == "FILE" else draw(st.sampled_from(["function helper", "helper", "method A.b", "a.b"]))
    comment = draw(st.sampled_from(["# {}", "// {}", "-- {}", "/* {} */", "<!-- {} -->", "## {}"]))
    return key, comment.format(f"{written}{separator}{value}"), value


@settings(max_examples=1500, deadline=None)
@given(written_keys(), st.booleans())
def test_a_key_written_any_way_is_a_directive_or_a_failure_never_payload(case: tuple[str, str, str], blank: bool) -> None:
    key, line, _ = case
    header = ["# FILE: app/tokens.py"] if key != "FILE" else []
    if blank:
        header.append("#")
    block = only(reply("```python", *header, line, "def helper(x):", "    return x", "```"))
    assert block.payload == "def helper(x):\n    return x"
    if block.malformed is None:
        assert block.directives[-1][0] == key
    else:
        assert block.malformed[1] == key or (key == "TARGET_NODE" and block.malformed[1] == "TARGET_PATH")


@pytest.mark.parametrize(
    "line",
    ['FILE: Path = Path("x")', 'FILE = "app.py"', "file: x.py", "TARGET_PATH: str = 'a'", "path: ./src", "target: es2020"],
)
def test_code_and_data_that_look_like_bare_keys_stay_payload(line: str) -> None:
    block = only(reply("```", "# FILE: app.py", line, "x", "```"))
    assert block.malformed is None
    assert block.payload == f"{line}\nx"


def test_path_comment_in_code_does_not_split_a_file_block() -> None:
    block = only(reply("```python", "# FILE: app.py", "import os", "", "# Path: src/utils.py", "x = 1", "```"))
    assert block.payload == "import os\n\n# Path: src/utils.py\nx = 1"


@pytest.mark.parametrize(
    ("first", "info"),
    [("# app/tokens.py", "python"), ("// src/App.tsx", "tsx"), ("# `app/tokens.py`", "python"),
     ("# app/tokens.py:", "python"), ("-- db/schema.sql", "sql"), ("<!-- templates/base.html -->", "html"),
     ("# requirements.txt", ""), ("# app/tokens.py (updated)", "python"), ("// src/a.ts (new file):", "ts")],
)  # fmt: skip
def test_first_line_comment_holding_a_path_names_the_file(first: str, info: str) -> None:
    block = only(reply(f"```{info}", first, "x = 1", "```"))
    expected = first.split(" (")[0].strip("#/-<>! `:").strip(" -:")
    assert block.file == expected
    assert block.directives == (("FILE", expected),)
    assert block.payload == "x = 1"


def test_path_comment_then_target() -> None:
    block = only(reply("```python", "# app/tokens.py", "# TARGET_NODE: function f", "def f(): ...", "```"))
    assert block.directives == (("FILE", "app/tokens.py"), ("TARGET_NODE", "function f"))


@pytest.mark.parametrize(
    ("lines", "info"),
    [(["# README.md", "Intro"], "markdown"), (["# v2.0", "x"], "python"), (["# see app/tokens.py", "x"], "python"),
     (["x = 1", "# app/b.py"], "python"), (["#!/usr/bin/env python", "x"], "python"), (["# ~/.bashrc", "x"], "bash"),
     (["# 1.5", "x"], "")],
)  # fmt: skip
def test_comments_that_are_not_a_path_header(lines: list[str], info: str) -> None:
    block = only(reply(f"```{info}", *lines, "```"))
    assert block.file is None
    assert block.payload == "\n".join(lines)
