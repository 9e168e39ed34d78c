"""The bench's inputs: a scratch project, a reply, and what the project must hold afterwards.

Each builder returns a `Scenario`. `edits` are the truth: `expected` is computed
from them by string replacement, and the comparators (ast-grep, the bare
splice script, the original kopipasta) are given the same edits in their own
form. Rows a–e keep the meaning they had in the README's history.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Callable
from dataclasses import dataclass, field

from bench import generated as gen
from bench import realcode
from bench.edits import Edit, expected_files, insert_block, search_replace_block, targeted_block


@dataclass
class Scenario:
    """A project (`files`), and how to run our tool on it.

    For `apply`, `reply` is ours and `original_reply` the same edits in the form
    the original kopipasta reads. For `nodes` and `prompt`, `arguments` follow
    the command and `must_print` are strings its output must hold.
    """

    files: dict[str, str]
    reply: str = ""
    edits: list[Edit] = field(default_factory=list)
    command: str = "apply"
    arguments: list[str] = field(default_factory=list)
    must_print: list[str] = field(default_factory=list)
    original_reply: str | None = None
    exit_code: int = 0  # an apply row that must be refused (a bound, issue 18) expects 1
    # A row whose goal is against another reply of ours on the same files (the `TARGET_NODE`
    # comparator): that reply, its edits and the bytes they leave.
    baseline: Scenario | None = None

    @property
    def expected(self) -> dict[str, str]:
        return expected_files(self.files, self.edits)

    def single_edit(self) -> Edit | None:
        return self.edits[0] if len(self.edits) == 1 else None


def one_edit(files: dict[str, str], edit: Edit, payload: str, intro: str = "Here you go:\n\n") -> Scenario:
    """One TARGET_NODE block; the original gets the same edit as a search/replace block."""
    return Scenario(
        files=files,
        reply=intro + targeted_block(edit, payload),
        edits=[edit],
        original_reply=search_replace_block(files, [edit]),
    )


def scenario_a() -> Scenario:
    files = {"svc.py": gen.python_module(30)}  # ~300 lines
    return one_edit(files, gen.python_method_edit("svc.py", 17), gen.python_method_payload(17))


def scenario_b() -> Scenario:
    """50 blocks over 20 files: ten Python modules (3 methods each, 2 in the last), ten TypeScript (2 each)."""
    files: dict[str, str] = {}
    edits: list[Edit] = []
    reply = "Fifty changes:\n\n"
    for f in range(20):
        if f % 2 == 0:
            name = f"pkg/mod_{f}.py"
            files[name] = gen.python_module(12)
            count = 3 if len(edits) + 3 <= 50 else 50 - len(edits)
            for i in range(count):
                edit = gen.python_method_edit(name, i * 3)
                edits.append(edit)
                reply += targeted_block(edit, gen.python_method_payload(i * 3))
        else:
            name = f"web/handlers_{f}.ts"
            files[name] = gen.ts_module(12)
            for i in range(2):
                edit = gen.ts_function_edit(name, i * 4)
                edits.append(edit)
                reply += targeted_block(edit, gen.ts_function_payload(i * 4))
    assert len(edits) == 50, len(edits)
    return Scenario(files=files, reply=reply, edits=edits, original_reply=search_replace_block(files, edits))


def scenario_c() -> Scenario:
    files = {"big.py": gen.python_module(2000)}  # ~20,000 lines
    return one_edit(files, gen.python_method_edit("big.py", 1500), gen.python_method_payload(1500),
                    "One change in the big file:\n\n")


def scenario_d() -> Scenario:
    files = {"svc.go": gen.go_module(23)}  # ~300 lines
    return one_edit(files, gen.go_method_edit("svc.go", 17), gen.go_method_payload(17))


def scenario_e() -> Scenario:
    files = {"big.go": gen.go_module(1540)}  # ~20,000 lines
    return one_edit(files, gen.go_method_edit("big.go", 1200), gen.go_method_payload(1200),
                    "One change in the big file:\n\n")


# The top-level function edits (wrap_text) are the ones ast-grep can pair: it
# indents every line of a fix by the match's column, blank lines too, so a
# method with blank lines in its body never comes out as intended.
FORMATTING = "cli/formatting.py"


def click_function() -> Scenario:
    """One top-level function of click's formatting.py (~320 lines): `wrap_text`, 70 lines."""
    files = {FORMATTING: realcode.click_formatting()}
    edit = realcode.wrap_text_edit(FORMATTING, files[FORMATTING])
    return one_edit(files, edit, edit.new + "\n")


def react_component() -> Scenario:
    """One function component of a ~260-line React layout (.tsx)."""
    path = "src/components/layouts/dashboard-layout.tsx"
    files = {path: realcode.react_layout()}
    edit = realcode.navigation_item_edit(path, files[path])
    return one_edit(files, edit, edit.new + "\n")


def big_python(lines: int) -> Callable[[], Scenario]:
    """`wrap_text` in ~`lines` lines of real Python (click + rich, formatting.py in the middle)."""

    def build() -> Scenario:
        path = "vendor/big.py"
        files = {path: realcode.big_python_file(lines)}
        # The edit is computed on formatting.py alone (ast on 100k lines costs the
        # bench ~300 MB); Edit checks that its text stands once in the big file.
        edit = realcode.wrap_text_edit(path, realcode.click_formatting())
        return one_edit(files, edit, edit.new + "\n", "One change in the big file:\n\n")

    return build


def big_python_insert(lines: int) -> Callable[[], Scenario]:
    """INSERT_AFTER `HelpFormatter.write_dl`, a method, in ~`lines` lines of real Python (click + rich).

    The original and the bare script get the same edit as a replacement of write_dl by
    itself and the new method; ast-grep cannot pair it (it indents the blank line between).
    """

    def build() -> Scenario:
        path = "vendor/big.py"
        files = {path: realcode.big_python_file(lines)}
        edit = realcode.insert_after_edit(path, realcode.click_formatting())
        return Scenario(
            files=files,
            reply="One new method in the big file:\n\n" + insert_block(edit, "INSERT_AFTER", realcode.NEW_METHOD),
            edits=[edit],
            original_reply=search_replace_block(files, [edit]),
        )

    return build


def unified_diff() -> Scenario:
    """The write_dl edit as a unified diff (git style, three lines of context), in a diff fence."""
    files = {FORMATTING: realcode.click_formatting()}
    edit = realcode.write_dl_edit(FORMATTING, files[FORMATTING])
    after = edit.applied_to(files[FORMATTING])
    diff = "".join(
        difflib.unified_diff(
            files[FORMATTING].splitlines(keepends=True), after.splitlines(keepends=True),
            f"a/{FORMATTING}", f"b/{FORMATTING}",
        )
    )
    reply = f"Here is the patch:\n\n```diff\ndiff --git a/{FORMATTING} b/{FORMATTING}\n{diff}```\n"
    return Scenario(files=files, reply=reply, edits=[edit], original_reply=reply)


def search_replace() -> Scenario:
    """The write_dl edit as one SEARCH/REPLACE pair (the same reply goes to the original)."""
    files = {FORMATTING: realcode.click_formatting()}
    edit = realcode.write_dl_edit(FORMATTING, files[FORMATTING])
    reply = "Change this:\n\n" + search_replace_block(files, [edit])
    return Scenario(files=files, reply=reply, edits=[edit], original_reply=reply)


def fragment() -> Scenario:
    """A bare updated top-level function under `FILE:` with no target (an inferred fragment)."""
    files = {FORMATTING: realcode.click_formatting()}
    edit = realcode.wrap_text_edit(FORMATTING, files[FORMATTING])
    reply = f"Updated `wrap_text`:\n\n```python\n# FILE: {FORMATTING}\n{edit.new}\n```\n"
    return Scenario(files=files, reply=reply, edits=[edit], original_reply=search_replace_block(files, [edit]))


def rust_method() -> Scenario:
    files = {"src/svc.rs": gen.rust_module(22)}  # ~300 lines
    return one_edit(files, gen.rust_method_edit("src/svc.rs", 17), gen.rust_method_payload(17))


def _five_files() -> dict[str, str]:
    return {
        FORMATTING: realcode.click_formatting(),
        "src/components/layouts/dashboard-layout.tsx": realcode.react_layout(),
        "svc/svc.go": gen.go_module(23),
        "src/svc.rs": gen.rust_module(22),
        "web/handlers.ts": gen.ts_module(40),
    }


def nodes_five() -> Scenario:
    files = _five_files()
    return Scenario(
        files=files, command="nodes", arguments=list(files),
        must_print=["HelpFormatter.write_dl", "NavigationItem", "Svc.Method22", "Svc.method_21", "handler39"],
    )


def prompt_five() -> Scenario:
    files = _five_files()
    return Scenario(
        files=files, command="prompt", arguments=[*files, "-t", "Make the help output narrower", "--stdout"],
        must_print=["Make the help output narrower", "def write_dl(", "function NavigationItem(",
                    "func (s *Svc) Method22(", "pub fn method_21(", "export function handler39("],
    )


# Issue 18: limits checked before the work they bound. Each row is timed as a ratio to the
# same run's floors, like every other row; the reply is hostile, so the command must end
# with the expected refusal (or the right bytes) quickly, not merely end.

_BOMB = "".join(
    f"- &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)


def alias_bomb() -> Scenario:
    """A 0.3 KB YAML alias bomb (9⁹ values once expanded) sent as a TARGET_PATH value: refused."""
    files = {"compose.yaml": 'services:\n  web:\n    image: nginx:1.25\n    ports:\n      - "80:80"\n'}
    payload = '- &a ["x","x","x","x","x","x","x","x","x"]\n' + _BOMB
    reply = f"```yaml\n# FILE: compose.yaml\n# TARGET_PATH: services.web.ports\n{payload}```\n"
    return Scenario(files=files, reply=reply, exit_code=1,
                    must_print=["expands its aliases to more than 100,000 values"])


def six_hundred_hunks() -> Scenario:
    """600 one-line search/replace sections over a file of repeated lines (26 s before issue 18)."""
    path = "settings.py"
    files = {path: "".join(f"x = 1\ny{i} = 1\n" for i in range(600))}
    sections = "".join(f"<<<<<<< SEARCH\ny{i} = 1\n=======\ny{i} = 2\n>>>>>>> REPLACE\n" for i in range(600))
    edits = [Edit(path, f"y{i} = 1", f"y{i} = 2", "python", "expression_statement", f"y{i}", "") for i in range(600)]
    return Scenario(files=files, reply=f"```\n# FILE: {path}\n{sections}```\n", edits=edits,
                    must_print=["+600 -600"])


def _data_edit(path: str, old: str, new: str) -> Edit:
    """One line of a data file changed: the bytes a restated list must leave."""
    return Edit(path, old, new, "yaml", "item", old.strip(), "")


def restated_yaml_list(items: int = 20_000) -> Scenario:
    """A YAML fragment restating a 20,000-item list with one item changed (issue 28, item 6):
    compared item for item in one pass, the other keys kept; goal 1 s."""
    path = "inventory.yaml"
    values = [f"item{i}" for i in range(items)]
    files = {path: "name: shop\nitems:\n" + "".join(f"  - {v}\n" for v in values) + "other: 1\n"}
    changed = items // 2
    sent = [*values[:changed], "changed", *values[changed + 1 :]]
    reply = f"```yaml\n# FILE: {path}\nitems:\n" + "".join(f"  - {v}\n" for v in sent) + "```\n"
    return Scenario(files=files, reply=reply, edits=[_data_edit(path, f"  - item{changed}", "  - changed")],
                    must_print=["data fragment"])


def restated_json_list(items: int = 20_000) -> Scenario:
    """The same restated list in a JSON fragment (`"items": [...]` without its braces)."""
    path = "inventory.json"
    values = [f"item{i}" for i in range(items)]
    body = ",\n".join(f'    "{v}"' for v in values)
    files = {path: '{\n  "name": "shop",\n  "items": [\n' + body + '\n  ],\n  "other": 1\n}\n'}
    changed = items // 2
    sent = [*values[:changed], "changed", *values[changed + 1 :]]
    reply = f"```json\n// FILE: {path}\n" + '{"items": [' + ", ".join(f'"{v}"' for v in sent) + "]}\n```\n"
    return Scenario(files=files, reply=reply, edits=[_data_edit(path, f'    "item{changed}",', '    "changed",')],
                    must_print=["data fragment"])


def near_miss_search(file_lines: int = 50_000, hunk_lines: int = 5_000) -> Scenario:
    """A SEARCH of 5,000 lines copied from a 50,000-line file, one line wrong (issue 28): refused
    with the closest line, the near miss found in linear time (it was killed at 120 s); goal 2 s."""
    path = "big.py"
    lines = [line for i in range((file_lines + 4) // 5) for line in (f"def f{i}(x):", "    if x:", "        return 1", "    return 0", "")][:file_lines]
    start = file_lines // 4
    hunk = lines[start : start + hunk_lines]
    hunk[hunk_lines // 2] = "    return 2"
    reply = f"{path}\n```\n<<<<<<< SEARCH\n" + "\n".join(hunk) + "\n=======\nX = 1\n>>>>>>> REPLACE\n```\n"
    return Scenario(files={path: "\n".join(lines) + "\n"}, reply=reply, exit_code=1, must_print=["closest at line"])


def seven_mb_payload(lines: int = 350_000) -> Scenario:
    """A 7 MB TARGET_NODE payload (issue 28, item 9: it took 23-50 s and 2.6 GB): refused by the
    payload limit before it is parsed; goal 400 MB peak."""
    body = "".join(f"    x{i} = {i}\n" for i in range(lines))
    reply = "```python\n# FILE: app.py\n# TARGET_NODE: function f\ndef f():\n" + body + "    return 2\n```\n"
    return Scenario(files={"app.py": "def f():\n    return 1\n"}, reply=reply, exit_code=1,
                    must_print=["above the 2 MB limit for one definition"])


def _logged_function(path: str, text: str, node: ast.FunctionDef) -> Edit:
    """A top-level function with `log.debug("lazy NAME")` first in its body (after a docstring)."""
    lines = text.split("\n")
    body = node.body
    docstring = isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant)
    after = (body[0].end_lineno or body[0].lineno) if docstring and len(body) > 1 else body[0].lineno - 1
    first = lines[body[1 if docstring and len(body) > 1 else 0].lineno - 1]
    indent = first[: len(first) - len(first.lstrip())]
    start, end = node.lineno - 1, node.end_lineno or node.lineno
    old = "\n".join(lines[start:end])
    new = "\n".join([*lines[start:after], f'{indent}log.debug("lazy {node.name}")', *lines[after:end]])
    return Edit(path, old, new, "python", "function_definition", node.name, f"function {node.name}")


def lazy_six_runs() -> Scenario:
    """A ~200-line lazy-edit snippet (issue 24): six changed functions of a 2,000-line file between
    `# ... existing code ...` placeholders. Its `baseline` is one `TARGET_NODE` block on the same
    file, changing the first of them: the row's goal is the snippet in at most 1.5x its time."""
    path = "vendor/big.py"
    text = realcode.big_python_file(2_000)
    tree = ast.parse(text)
    names = [n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    candidates = [
        node for node in tree.body
        if isinstance(node, ast.FunctionDef) and names.count(node.name) == 1 and not node.decorator_list
        and 15 <= (node.end_lineno or node.lineno) - node.lineno + 1 <= 50
    ]
    assert len(candidates) >= 6, "the 2,000-line file has fewer than 6 functions of 15-50 lines"
    step = len(candidates) / 6
    edits = [_logged_function(path, text, candidates[int(i * step)]) for i in range(6)]
    payload = []
    for edit in edits:
        payload += ["# ... existing code ...", "", edit.new, ""]
    snippet = "\n".join([*payload, "# ... existing code ..."])
    assert 150 <= snippet.count("\n") + 1 <= 250, snippet.count("\n")
    files = {path: text}
    reply = f"Log each stream helper as it runs:\n\n```python\n# FILE: {path}\n{snippet}\n```\n"
    baseline = one_edit(files, edits[0], edits[0].new + "\n")
    return Scenario(files=files, reply=reply, edits=edits, baseline=baseline)
