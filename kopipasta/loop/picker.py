"""The file picker: `kopipasta` with no FILES on a terminal (issue 21).

The project's text files (as `kopipasta .` would take them: `.gitignore`, the
`exclude` setting, no binaries: selection.py's rules) shown as a tree. Type to
filter by a fuzzy match on the path; space ticks a file or a whole folder;
ctrl-o sends a file as its list of definitions instead of its text (offered
for big files); a running count of the files ticked and their tokens, with the
`token_warning` threshold, stays at the bottom. Enter goes on to the task
(the last one offered), Enter again starts the session; Esc or ctrl-c leaves.

`PickerState` is the picker without a screen (what is listed, ticked, counted);
`pick` runs it in a prompt_toolkit application. prompt_toolkit is imported here
only, so only a session that opens the picker pays for it
(tests/test_lazy_imports.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kopipasta.errors import PatchError
from kopipasta.loop.picked import Picked
from kopipasta.loop.tokens import TokenCount, count_tokens, short_count

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import StyleAndTextTuples
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

HELP = "↑↓ move · space tick · type to filter · ctrl-o send as outline · enter continue · esc quit"
_SEPARATOR = " · "  # between the items of the key line and of the status line: a line breaks between items
# A file above this many tokens is offered as its outline (its definitions) instead of its text.
BIG_FILE_TOKENS = 8_000


@dataclass(frozen=True)
class Left:
    """The person left the picker (Esc, ctrl-c) with this many files ticked, kept for next time."""

    ticked: int


@dataclass(frozen=True)
class Row:
    path: str  # root-relative; a folder's ends with "/"
    depth: int

    @property
    def is_folder(self) -> bool:
        return self.path.endswith("/")

    @property
    def name(self) -> str:
        return self.path.rstrip("/").rsplit("/", 1)[-1] + ("/" if self.is_folder else "")


class PickerUnavailable(PatchError):
    """The picker cannot run here; the message says what to do instead."""


def choose(root: Path, task: str, *, exclude: Sequence[str] = (), token_warning: int = 0) -> Picked | Left:
    """Open the picker over the project's text files; what was picked, or `Left` when the person
    left it. The files ticked are kept for next time either way.

    `task`: the task `-t` gave ("" offers the last one in the task field). Raises PickerUnavailable.
    """
    from kopipasta.loop import picked as memory
    from kopipasta.loop.selection import select_files

    candidates = select_files(["."], root, exclude=exclude).files
    if not candidates:
        raise PickerUnavailable(
            "No files to pick: the project holds no text file (after .gitignore and `exclude`)",
            "name the files for the prompt: kopipasta FILE... -t TASK",
        )
    last = memory.recall(root)
    state = PickerState(candidates, root, last, token_warning)
    try:
        chosen = pick(state, task=None if task else last.task)
    except (OSError, EOFError) as error:
        raise PickerUnavailable(f"Cannot open the file picker: {error}", "name the files instead: kopipasta FILE... -t TASK") from None
    if chosen is None:
        if state.ticked:  # offered again next time, as a finished pick's are
            ticked = state.chosen()
            memory.remember(root, Picked(ticked.files, ticked.outline, last.task))
        return Left(len(state.ticked))
    chosen = Picked(chosen.files, chosen.outline, task or chosen.task)
    memory.remember(root, chosen)
    return chosen


class PickerState:
    """What the picker lists, which files are ticked or outlined, and what they cost."""

    def __init__(self, files: Sequence[str], root: Path, picked: Picked | None = None, token_warning: int = 0) -> None:
        picked = picked or Picked()
        self.root = root
        self.files = sorted(files, key=_tree_order)
        self.rows = _tree_rows(self.files)
        present = set(self.files)
        self.ticked: set[str] = {f for f in picked.files if f in present}
        self.outlined: set[str] = {f for f in picked.outline if f in self.ticked}
        self.token_warning = token_warning
        self.filter = ""
        self.cursor = 0
        self.notice = ""  # one line for the last key that could not do what it was pressed for
        self._tokens: dict[tuple[str, bool], TokenCount] = {}

    # --- what is shown ---

    def visible(self) -> list[Row]:
        if not self.filter:
            return self.rows
        matches = [f for f in self.files if _fuzzy(self.filter, f)]
        return [Row(f, 0) for f in sorted(matches, key=lambda f: _closeness(self.filter, f))]

    def current(self) -> Row | None:
        rows = self.visible()
        return rows[min(self.cursor, len(rows) - 1)] if rows else None

    def mark(self, row: Row) -> str:
        if not row.is_folder:
            return "[o]" if row.path in self.outlined else "[x]" if row.path in self.ticked else "[ ]"
        under = self.files_under(row.path)
        ticked = sum(1 for f in under if f in self.ticked)
        return "[x]" if under and ticked == len(under) else "[-]" if ticked else "[ ]"

    def size(self, row: Row) -> str:
        """A file's rough size in tokens from its length on disk (cheap: every row shows one)."""
        if row.is_folder:
            return ""
        try:
            length = (self.root / row.path).stat().st_size
        except OSError:
            return ""
        # chars/4 by bytes: reading every file would be slow
        tokens = (length + 3) // 4
        return f"~{short_count(tokens)} token{'s' if tokens != 1 else ''}"

    def status(self) -> str:
        """`3 files · ≈4.5k tokens (chars/4)`, and the warning when over the threshold."""
        count = len(self.ticked)
        total = self.total()
        line = f"{count} file{'s' if count != 1 else ''}"
        if self.outlined:
            line += f" ({len(self.outlined)} as outline)"
        line += f" · {total.label()} of file text"
        if self.token_warning and total.count > self.token_warning:
            line += f" · ⚠ over the {self.token_warning:,} of `token_warning`: untick files or ctrl-o big ones"
        return line

    def hint(self) -> str:
        row = self.current()
        if self.notice:
            return self.notice
        if row is not None and not row.is_folder and row.path not in self.outlined:
            tokens = self.tokens(row.path, outline=False)
            if tokens.count > BIG_FILE_TOKENS:
                return f"{row.path} is big ({tokens.label()}): ctrl-o sends its definitions instead of its text"
        return ""

    def total(self) -> TokenCount:
        counts = [self.tokens(f, outline=f in self.outlined) for f in sorted(self.ticked)]
        method = counts[0].method if counts else count_tokens("").method
        return TokenCount(sum(c.count for c in counts), method)

    def tokens(self, file: str, *, outline: bool) -> TokenCount:
        key = (file, outline)
        if key not in self._tokens:
            self._tokens[key] = count_tokens(self._text(file, outline))
        return self._tokens[key]

    def _text(self, file: str, outline: bool) -> str:
        if outline:
            from kopipasta.code.read.inventory import file_definitions, target_names
            from kopipasta.data import format_of
            from kopipasta.errors import PatchError
            from kopipasta.loop.prompt import outline_text

            try:
                definitions = file_definitions(self.root, file)
            except PatchError:
                definitions = []
            if definitions and not format_of(file):  # as the prompt: only code with definitions goes as its outline
                return outline_text(definitions, target_names(definitions))
        try:
            return (self.root / file).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def files_under(self, folder: str) -> list[str]:
        return [f for f in self.files if f.startswith(folder)]

    # --- keys ---

    def move(self, step: int) -> None:
        self.notice = ""
        self.cursor = max(0, min(self.cursor + step, len(self.visible()) - 1))

    def type(self, text: str) -> None:
        self.filter += text
        self.cursor = 0
        self.notice = ""

    def erase(self) -> None:
        self.filter = self.filter[:-1]
        self.cursor = 0

    def toggle(self) -> None:
        row = self.current()
        self.notice = ""
        if row is None:
            return
        files = self.files_under(row.path) if row.is_folder else [row.path]
        if all(f in self.ticked for f in files):
            self.ticked.difference_update(files)
            self.outlined.difference_update(files)
        else:
            self.ticked.update(files)

    def toggle_outline(self) -> None:
        row = self.current()
        if row is None or row.is_folder:
            self.notice = "ctrl-o works on a file: it sends the file's definitions instead of its text"
            return
        self.notice = ""
        if row.path in self.outlined:
            self.outlined.discard(row.path)
        else:
            self.outlined.add(row.path)
            self.ticked.add(row.path)

    def chosen(self) -> Picked:
        files = tuple(f for f in self.files if f in self.ticked)
        return Picked(files, tuple(f for f in files if f in self.outlined))


def pick(
    state: PickerState,
    *,
    task: str | None,
    input: Input | None = None,  # noqa: A002 — prompt_toolkit's own name; tests pass a pipe
    output: Output | None = None,
) -> Picked | None:
    """Run the picker; the files and task chosen, or None when the user left.

    `task`: the task to offer (the last one), or None when `-t` gave it: Enter then starts at once.
    """
    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, VSplit, Window
    from prompt_toolkit.layout.controls import FormattedTextControl
    from prompt_toolkit.widgets import TextArea

    asking = {"task": False}
    on_files = _condition(lambda: not asking["task"])
    # The label is a window of its own: a long task scrolls the field sideways, never the label away.
    task_field = TextArea(text=task or "", multiline=False, focus_on_click=True)
    task_field.buffer.cursor_position = len(task_field.text)  # the last task is there to go on typing
    kb = KeyBindings()
    app: Application[Picked | None]

    def rows() -> StyleAndTextTuples:
        shown = state.visible()
        if not shown:
            return [("class:dim", "  (no file matches the filter)\n")]
        lines: StyleAndTextTuples = []
        for number, row in enumerate(shown):
            style = "reverse" if number == min(state.cursor, len(shown) - 1) else ""
            label = row.path if state.filter else "  " * row.depth + row.name
            lines.append((style, f"{state.mark(row)} {label}"))
            lines.append(("class:dim", f"  {state.size(row)}\n" if state.size(row) else "\n"))
        return lines

    def cursor_point() -> Any:
        from prompt_toolkit.data_structures import Point

        return Point(0, min(state.cursor, max(len(state.visible()) - 1, 0)))

    def width() -> int:
        from prompt_toolkit.application.current import get_app

        return max(get_app().output.get_size().columns, 20)

    def header_lines() -> list[str]:
        filtered = f"Filter: {state.filter}" if state.filter else "Filter: (type to filter)"
        return [*wrap_items(f"Pick files for the prompt — {HELP}", width()), filtered]

    def footer_lines() -> list[str]:
        hint = state.hint()
        return [*wrap_items(state.status(), width()), *(wrap_items(hint, width()) if hint else [])]

    listing = FormattedTextControl(rows, focusable=True, show_cursor=False, get_cursor_position=cursor_point)
    label = Window(FormattedTextControl("Task: "), width=len("Task: "), dont_extend_width=True)
    task_line = ConditionalContainer(VSplit([label, task_field]), filter=_condition(lambda: asking["task"]))
    body = HSplit(
        [
            Window(FormattedTextControl(lambda: "\n".join(header_lines())), height=lambda: len(header_lines())),
            Window(listing),
            Window(
                FormattedTextControl(lambda: "\n".join(footer_lines())),
                height=lambda: max(len(footer_lines()), 2),
                style="reverse",
            ),
            task_line,
        ]
    )

    @kb.add("up", filter=on_files)
    def _up(event: Any) -> None:
        state.move(-1)

    @kb.add("down", filter=on_files)
    def _down(event: Any) -> None:
        state.move(1)

    @kb.add("pageup", filter=on_files)
    def _page_up(event: Any) -> None:
        state.move(-10)

    @kb.add("pagedown", filter=on_files)
    def _page_down(event: Any) -> None:
        state.move(10)

    @kb.add("space", filter=on_files)
    def _tick(event: Any) -> None:
        state.toggle()

    @kb.add("c-o", filter=on_files)
    def _outline(event: Any) -> None:
        state.toggle_outline()

    @kb.add("backspace", filter=on_files)
    def _erase(event: Any) -> None:
        state.erase()

    @kb.add("<any>", filter=on_files)
    def _filter(event: Any) -> None:
        text = event.data
        if len(text) == 1 and text.isprintable() and text != " ":
            state.type(text)

    @kb.add("enter", filter=on_files)
    def _files_done(event: Any) -> None:
        if not state.ticked:
            state.notice = "Tick at least one file with space, then press Enter"
            return
        if task is None:
            event.app.exit(result=state.chosen())
            return
        asking["task"] = True
        event.app.layout.focus(task_field)

    @kb.add("enter", filter=_condition(lambda: asking["task"]))
    def _task_done(event: Any) -> None:
        chosen = state.chosen()
        event.app.exit(result=Picked(chosen.files, chosen.outline, task_field.text))

    @kb.add("escape", eager=True)
    def _escape(event: Any) -> None:
        if asking["task"]:
            asking["task"] = False
            event.app.layout.focus(listing)
        elif state.filter:
            state.filter, state.cursor = "", 0
        else:
            event.app.exit(result=None)

    @kb.add("c-c")
    @kb.add("c-d")
    def _leave(event: Any) -> None:
        event.app.exit(result=None)

    app = Application(
        layout=Layout(body, focused_element=listing),
        key_bindings=kb,
        full_screen=True,
        input=input,
        output=output,
    )
    return app.run()


def wrap_items(text: str, width: int) -> list[str]:
    """`text`'s lines broken to `width` between its " · " items, an item too long for a line
    between its words: never inside a word ("(chars/4)" stays whole)."""
    import textwrap

    lines: list[str] = []
    for item in text.split(_SEPARATOR):
        if lines and len(lines[-1]) + len(_SEPARATOR) + len(item) <= width:
            lines[-1] += _SEPARATOR + item
        else:
            lines.extend(textwrap.wrap(item, width, break_long_words=False, break_on_hyphens=False) or [""])
    return lines


def _condition(test: Any) -> Any:
    from prompt_toolkit.filters import Condition

    return Condition(test)


def _tree_order(path: str) -> tuple[str, ...]:
    """Folders before files at each level, as a tree lists them."""
    parts = path.split("/")
    return (*("0" + p for p in parts[:-1]), "1" + parts[-1])


def _tree_rows(files: Sequence[str]) -> list[Row]:
    rows: list[Row] = []
    seen: set[str] = set()
    for file in files:
        parts = file.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth]) + "/"
            if folder not in seen:
                seen.add(folder)
                rows.append(Row(folder, depth - 1))
        rows.append(Row(file, len(parts) - 1))
    return rows


def _fuzzy(query: str, path: str) -> bool:
    """Whether the query's characters occur in the path in order (case-insensitive), as fzf matches."""
    rest = iter(path.lower())
    return all(char in rest for char in query.lower())


def _closeness(query: str, path: str) -> tuple[bool, bool, int, str]:
    """How well a matching path matches, best first: the query in the file's name, then anywhere
    in the path, then the tightest stretch holding its characters in order."""
    query, lowered = query.lower(), path.lower()
    name = lowered.rsplit("/", 1)[-1]
    return (query not in name, query not in lowered, _tightest(query, lowered), path)


def _tightest(query: str, text: str) -> int:
    """The length of the shortest stretch of `text` holding `query`'s characters in order."""
    best = len(text) + 1
    start = text.find(query[:1])
    while start >= 0:
        at = start
        for char in query[1:]:
            at = text.find(char, at + 1)
            if at < 0:
                return best
        best = min(best, at - start + 1)
        start = text.find(query[:1], start + 1)
    return best
