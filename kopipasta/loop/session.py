"""`kopipasta session`: the copy-paste loop.

The prompt goes onto the clipboard; then single keys, read without Enter,
drive everything: `p` applies the reply on the clipboard, `d` dry-runs it,
`u` undoes the last apply, `r` re-copies the prompt with the files' current
contents, `q` (or Ctrl-C, Ctrl-D) quits.

The terminal is put in cbreak mode only while a key is awaited and restored
right after, in a `finally`, so actions, the paste area, a crash or Ctrl-C
all see (and leave) the terminal as it was. Without a terminal on stdin the
session reads one reply from stdin and behaves exactly like `apply` (with no
FILES and nothing on stdin, it says what to pass).

Where there is no clipboard mechanism, `p` and `d` read the reply from a
paste area in the terminal instead (ended with Ctrl-D), and the loop says
once why and what to install; a reply pasted at the key prompt there is kept
and is the one `p` applies.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kopipasta.disk import journal
from kopipasta.errors import PatchError
from kopipasta.loop.keys import read_key, signals_exit
from kopipasta.loop.settings import DEFAULT_TOKEN_WARNING
from kopipasta.model import Status
from kopipasta.plain import visible
from kopipasta.report import error_text

if TYPE_CHECKING:
    from rich.console import Console

    from kopipasta.code.find.document import DocumentCache
    from kopipasta.model import Report

KEY_HELP = "Keys: p apply the clipboard · d dry run · u undo · r re-copy the prompt · q quit"
# Without a clipboard tool, p reads the reply from the paste area.
KEY_HELP_PASTE = "Keys: p paste a reply and apply it · d dry run · u undo · r re-copy the prompt · q quit"
_CTRL_C, _CTRL_D, _ESC = "\x03", "\x04", "\x1b"


def run_session(
    files: Sequence[str],
    *,
    task: str,
    root: Path,
    template: Path | None = None,
    outline: Collection[str] = (),
    token_warning: int = DEFAULT_TOKEN_WARNING,
) -> int:
    """Run the loop on a terminal, or apply stdin once without one; returns the exit status.

    `outline`: files sent as their definitions; `token_warning`: warn above this many tokens.
    """
    from kopipasta.report import make_console

    console = make_console()
    stdin = sys.stdin
    if stdin is None or not stdin.isatty():
        return apply_stdin_once(root, console, files_named=bool(files))
    if importlib.util.find_spec("termios") is None:
        console.print("❌ The key loop needs a Unix terminal: pipe the reply to `kopipasta apply` instead", markup=False)
        return 1
    from kopipasta.startup.shortrun import pace_for_a_long_run

    pace_for_a_long_run()  # the loop runs for minutes: the collector's usual pace
    return Session(
        files, task=task, root=root, template=template, console=console, outline=outline, token_warning=token_warning
    ).run()


def apply_stdin_once(root: Path, console: Console, *, files_named: bool = True) -> int:
    """No terminal: the reply is on stdin; apply it as `kopipasta apply` would."""
    from kopipasta.disk import limits
    from kopipasta.engine import apply_reply
    from kopipasta.report import EXIT_FAILED, EXIT_NO_PATCH, exit_status, print_report

    try:
        data = limits.read_bounded(sys.stdin.buffer) if sys.stdin is not None else b""
    except limits.ReplyTooLarge as error:
        console.print(f"❌ {error}", markup=False)
        return EXIT_NO_PATCH
    except OSError as error:
        console.print(f"❌ Cannot read reply: {error_text(error)}", markup=False)
        return EXIT_NO_PATCH
    if not files_named and not data.strip():
        # Bare `kopipasta` from a script or cron: neither files for a prompt nor a reply to apply.
        console.print(
            "❌ No files given and no reply on stdin: name the files for the prompt "
            "(`kopipasta app/ -t TASK`, in a terminal), or pipe a reply to apply (`kopipasta apply reply.md`)",
            markup=False,
        )
        return EXIT_NO_PATCH
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        console.print(f"❌ Cannot read reply: it is not UTF-8 text (byte {error.start})", markup=False)
        return EXIT_NO_PATCH
    try:
        report = apply_reply(text, root)
    except (OSError, journal.JournalError) as error:
        console.print(f"❌ Cannot write the patched files: {error_text(error)}", markup=False)
        return EXIT_FAILED
    from kopipasta.loop.applylog import record_apply

    record_apply(root, text, report)
    print_report(console, report, dry_run=False, show_diff=False)
    return exit_status(report)


def _document_cache() -> DocumentCache:
    from kopipasta.code.find.document import DocumentCache

    return DocumentCache()


class Session:
    """The interactive loop: one prompt, any number of replies."""

    def __init__(
        self,
        files: Sequence[str],
        *,
        task: str,
        root: Path,
        template: Path | None,
        console: Console,
        outline: Collection[str] = (),
        token_warning: int = DEFAULT_TOKEN_WARNING,
    ) -> None:
        self.files = tuple(files)
        self.task = task
        self.root = root
        self.template = template
        self.console = console
        self.fd = sys.stdin.fileno()
        self.prompt: str | None = None  # the text last put on the clipboard
        self.paste_area_reason: str | None = None  # set once the clipboard proved unusable
        self.clipboard_told = False  # the one line saying why there is no clipboard was printed
        self.no_clipboard = False  # copying failed: p reads the paste area
        self.copy_problem = ""  # why copying failed
        # The files' Documents between applies: `p`, `d` and `w` on the same files parse and list
        # each file once per version, not once per key (code/find/document.py, issue 20).
        self.documents = _document_cache()
        self.last_reply: str | None = None  # the reply p or d read last, for w
        self.last_report: Report | None = None  # its report, for f and w
        self.feedback: str | None = None  # the correction message last copied
        self.outline = frozenset(outline)  # files sent as their definitions
        self.token_warning = token_warning  # warn before copying a prompt above this many tokens
        # Alternatives the last reply offers for one definition (intake/alternatives.py): the
        # blocks to choose from, by key 1, 2, …; and the blocks already chosen against.
        self.choice: tuple[int, ...] = ()
        self.left_out: tuple[int, ...] = ()
        # Text pasted at the key prompt where there is no clipboard: the reply p (or d) uses next.
        self.pasted: str | None = None
        self.reply_source = "on the clipboard"  # where the reply p or d read last came from

    # --- the loop ---------------------------------------------------------------

    def run(self) -> int:
        import termios

        with signals_exit():
            try:
                if not self.copy_prompt(first=True):
                    return 1
                self.say(self.key_help())
                while True:
                    key = read_key(self.fd)
                    if not self.handle(key):
                        return 0
            except KeyboardInterrupt:
                self.say("Bye.")
                return 0
            except termios.error as error:
                self.say(f"❌ Cannot read single keys from this terminal ({error}): use `kopipasta apply` instead")
                return 1

    def handle(self, key: str) -> bool:
        """Act on one key; False when the loop should end."""
        if key in ("q", "Q", _CTRL_C, _CTRL_D, ""):
            self.say("Bye.")
            return False
        actions = {
            "p": self.apply,
            "d": self.dry_run,
            "u": self.undo,
            "r": self.recopy,
            "f": self.copy_feedback,
            "w": self.write_partial,
        }
        action = actions.get(key.lower()) if len(key) == 1 else None
        if action is None and len(key) == 1 and key.isdigit() and 1 <= int(key) <= len(self.choice):
            chosen = self.choice[int(key) - 1]
            action = lambda: self.choose(chosen)  # noqa: E731 — one key, one call
        if action is None:
            if len(key) > 1 and not key.startswith(_ESC) and (self.no_clipboard or self.paste_area_reason):
                # No clipboard to read it from: the paste is the reply (a long one arrives in bursts).
                self.pasted = (self.pasted or "") + key
                lines = self.pasted.count("\n") + (not self.pasted.endswith("\n"))
                self.say(f"📋 Pasted text kept ({lines} line{'s' if lines != 1 else ''}): p applies it, d dry-runs it.")
            elif len(key) > 1 and not key.startswith(_ESC):
                self.say("That was pasted text, not a key: copy the reply and press p. " + self.key_help())
            else:
                self.say(self.key_help())
            return True
        try:
            action()
        except KeyboardInterrupt:
            self.say("Interrupted. " + self.key_help())
        except Exception as error:  # noqa: BLE001 — the loop must survive a bug, in one line
            self.say(f"❌ Internal error ({type(error).__name__}: {error}) — this is a bug in kopipasta; please report it")
        return True

    # --- keys -------------------------------------------------------------------

    def apply(self) -> None:
        self.apply_reply(dry_run=False, heading=lambda where: f"▶ p: applying the reply {where}")

    def dry_run(self) -> None:
        self.apply_reply(dry_run=True, heading=lambda where: f"▶ d: dry run of the reply {where}")

    def undo(self) -> None:
        from kopipasta.disk.undo import undo_newest
        from kopipasta.loop.verify import undo_line

        self.say("▶ u: undo the last apply")
        try:
            result = undo_newest(self.root)
        except journal.ChangedSince as refused:
            self.say(f"❌ {refused} — review them, then `kopipasta undo --force` puts the apply's previous bytes back")
            return
        except journal.JournalError as error:
            self.say(f"❌ {error}")
            return
        from kopipasta.loop.applylog import record_undo

        record_undo(self.root)
        self.say(f"↩ {undo_line(result)}")

    def copy_feedback(self) -> None:
        from kopipasta.loop.feedback import feedback_message

        self.say("▶ f: correction message for the model")
        if self.last_report is None:
            self.say("Nothing to correct yet: press p to apply a reply first.")
            return
        message = feedback_message(self.last_report, self.root)
        if message is None:
            self.say("Nothing to correct: no block of the last reply failed.")
            return
        self.feedback = message
        failed = sum(1 for o in self.last_report.outcomes if o.status is Status.FAILED)
        what = f"{failed} failed block{'s' if failed != 1 else ''}" if failed else "no patch"
        how = self.copy(message)
        if how == "clipboard":
            self.say(f"📋 Correction copied ({what}): paste it into your chat, copy the model's new reply, then press p.")
        elif how == "osc52":
            self.say(f"⚠ Correction printed above ({what}) and {_osc52_note()}: paste it into your chat, then press p for the new reply.")
        else:
            self.say(f"⚠ Correction printed above, not copied ({what}): paste it into your chat, then press p for the new reply.")

    def write_partial(self) -> None:
        from kopipasta.engine import apply_reply
        from kopipasta.report import print_report

        self.say("▶ w: write the blocks of the last reply that succeeded")
        if self.last_reply is None or self.last_report is None:
            self.say("Nothing to write yet: press p to apply a reply first.")
            return
        if not _held_back(self.last_report):
            self.say("Nothing held back: every block of the last reply that succeeded is already written (or nothing succeeded).")
            return
        try:
            report = _with_session_hints(apply_reply(self.last_reply, self.root, partial=True, documents=self.documents))
        except (OSError, journal.JournalError) as error:
            self.say(f"❌ Cannot write the patched files: {error_text(error)}")
            return
        from kopipasta.loop.applylog import record_apply

        record_apply(self.root, self.last_reply, report, partial=True)
        self.last_report = report
        print_report(self.console, report, dry_run=False, show_diff=True)
        if report.written:
            self.say("u undoes this apply. f copies a correction for the blocks that failed.")

    def recopy(self) -> None:
        self.say("▶ r: re-rendering the prompt with the files' current contents")
        self.copy_prompt(first=False)

    # --- the parts --------------------------------------------------------------

    def copy_prompt(self, *, first: bool) -> bool:
        """Render and copy the prompt (print it where there is no clipboard); False on failure."""
        from kopipasta.loop.prompt import render_prompt
        from kopipasta.loop.tokens import count_tokens, warning_line

        try:
            text = render_prompt(self.files, task=self.task, root=self.root, template=self.template, outline=self.outline)
        except PatchError as error:
            self.say(f"❌ Cannot render the prompt: {error}")
            return False
        self.prompt = text
        what = _files_label(self.files)
        tokens = count_tokens(text)
        size = tokens.label()
        warning = warning_line(tokens, self.token_warning)
        if warning:
            self.say(warning)
        how = self.copy(text)
        verb = "copied" if first else "re-copied"
        if how == "clipboard":
            self.say(f"📋 Prompt {verb}: {what}, {size}. Paste it into your chat, copy the model's whole reply, then press p.")
        elif how == "osc52":
            self.say(f"⚠ Prompt printed above ({what}, {size}) and {_osc52_note()}: {self.copy_problem}.")
        else:
            self.say(f"⚠ Prompt printed above, not copied ({what}, {size}): {self.copy_problem}.")
        if first and not self.task.strip():
            self.say("No task given (-t): the prompt ends with an empty task; write yours after it in the chat.")
        return True

    def copy(self, text: str) -> str:
        """Copy `text`: "clipboard"; else it is printed, and "osc52" when the terminal was also asked to copy it."""
        from kopipasta.loop.clipboard import copy_osc52, copy_text

        problem = copy_text(text)
        if problem is None:
            return "clipboard"
        self.no_clipboard = True
        self.copy_problem = problem
        self.clipboard_told = True
        # Printed as well: nothing confirms that the terminal honours OSC 52.
        # Made visible (plain.visible): the prompt holds file text, the correction reply text.
        self.console.file.write(visible(text if text.endswith("\n") else text + "\n"))
        return "osc52" if copy_osc52(text, self.console.file) else "printed"

    def key_help(self) -> str:
        return KEY_HELP_PASTE if self.no_clipboard or self.paste_area_reason else KEY_HELP

    def choose(self, block: int) -> None:
        """Apply the last reply with the chosen alternative, the others left out."""
        if self.last_reply is None:
            return
        others = tuple(i for i in self.choice if i != block)
        self.say(f"▶ {self.choice.index(block) + 1}: applying block {block}, leaving out block{'s' if len(others) > 1 else ''} "
                 + ", ".join(map(str, others)))
        self.apply_text(self.last_reply, dry_run=False, leave_out=(*self.left_out, *others))

    def apply_reply(self, *, dry_run: bool, heading: Callable[[str], str]) -> None:
        text = self.read_reply(heading)
        if text is None:
            return
        if not dry_run:
            self.pasted = None  # applied: the next p asks for the next reply
        self.apply_text(text, dry_run=dry_run)

    def apply_text(self, text: str, *, dry_run: bool, leave_out: tuple[int, ...] = ()) -> None:
        from kopipasta.engine import apply_reply
        from kopipasta.report import print_report

        self.choice, self.left_out = (), leave_out
        try:
            report = apply_reply(text, self.root, dry_run=dry_run, documents=self.documents, leave_out=leave_out)
            report = _with_session_hints(report, _alternatives(text, report, leave_out))
        except (OSError, journal.JournalError) as error:
            self.say(f"❌ Cannot write the patched files: {error_text(error)}")
            return
        if not dry_run:
            from kopipasta.loop.applylog import record_apply

            record_apply(self.root, text, report)
        self.last_reply, self.last_report = text, report
        if report.reply_error:
            self.say(
                f"❌ No patch {self.where()} ({_lower_first(report.reply_error)}): copy the model's whole reply, "
                "code blocks included, then press p (f copies a reminder of the reply format for the model)."
            )
            return
        if _already_applied(report):
            count = report.patch_count
            self.say(f"＝ Already applied: {'its' if count == 1 else 'all ' + str(count)} patch{'es are' if count != 1 else ' is'} already in place; nothing written.")
            return
        print_report(self.console, report, dry_run=dry_run, show_diff=True)
        self.choice = _alternatives(text, report, leave_out)
        self.say(self.next_step(report, dry_run=dry_run))

    def next_step(self, report: Report, *, dry_run: bool) -> str:
        """What to press after a report: the loop never ends on a dead end."""
        failed = report.failed
        held = len(_held_back(report))
        steps: list[str] = []
        if dry_run and not failed:
            again = (
                "it is kept here" if self.pasted is not None
                else "paste it again" if self.paste_area_reason else "it is still on the clipboard"
            )
            steps.append(f"Nothing written. p applies this reply ({again})")
        elif dry_run:
            steps.append("Nothing written")
        elif report.written:
            steps.append("u undoes this apply")
        if any(o.failure_kind == STALE for o in report.outcomes):
            steps.append("r re-copies the prompt with the current code")
        if self.choice:
            keys = ", ".join(f"{k} applies block {b}" for k, b in enumerate(self.choice, 1))
            steps.append(f"The reply offers alternatives: {keys} (the other left out)")
        if failed:
            steps.append("f copies a correction message for the model")
            if held:
                steps.append(f"w writes the {held} block{'s' if held != 1 else ''} that succeeded")
        if not steps:
            steps.append("Nothing written")
        return " · ".join(steps) + "."

    def read_reply(self, heading: Callable[[str], str]) -> str | None:
        """The reply pasted at the key prompt, from the clipboard or, without one, the paste
        area; None when there is none. `heading(where)` is said once where it comes from is known."""
        from kopipasta.loop.clipboard import ClipboardUnavailable, paste_text

        self.reply_source = "pasted here"
        if self.pasted is not None:
            self.say(heading("pasted here"))
            return self.pasted
        if self.paste_area_reason is None:
            try:
                text = paste_text()
            except ClipboardUnavailable as error:
                self.say(heading("pasted here"))
                self.paste_area_reason = error.reason
                if self.clipboard_told:
                    self.say("⚠ No clipboard (as above): paste replies here instead.")
                else:
                    self.say(f"⚠ {_upper_first(error.reason)} — paste replies here instead.")
                self.clipboard_told = True
            else:
                self.reply_source = "on the clipboard"
                self.say(heading("on the clipboard"))
                if not text.strip():
                    self.say("The clipboard is empty: copy the model's whole reply, then press p.")
                    return None
                if self.prompt is not None and _same_text(text, self.prompt):
                    self.say("The clipboard still holds the prompt: paste it into your chat, copy the model's reply, then press p.")
                    return None
                if self.feedback is not None and _same_text(text, self.feedback):
                    self.say("The clipboard still holds the correction message: paste it into your chat, copy the model's new reply, then press p.")
                    return None
                return text
        else:
            self.say(heading("pasted here"))
        pasted = self.paste_area()
        if pasted is None:
            return None
        if not pasted.strip():
            self.say("Nothing was pasted. " + self.key_help())
            return None
        return pasted

    def paste_area(self) -> str | None:
        """Read pasted lines in the terminal's normal mode until Ctrl-D; None when cancelled."""
        self.say("Paste the model's reply, then press Ctrl-D (Ctrl-C cancels):")
        chunks: list[bytes] = []
        try:
            while True:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    break
                chunks.append(chunk)
                # The terminal hands over one line per read; a read that does not end a
                # line is Ctrl-D pressed after a last line without a newline: that ends it too.
                if not chunk.endswith(b"\n"):
                    self.say("")
                    break
        except KeyboardInterrupt:
            self.say("\nPaste cancelled. " + self.key_help())
            return None
        return b"".join(chunks).decode("utf-8", "replace")

    def where(self) -> str:
        return self.reply_source

    def say(self, line: str) -> None:
        # Written straight to the stream, not through rich: a plain line needs
        # nothing from rich, and a Ctrl-C landing inside rich's print (its buffer
        # state, its lock) must not be able to hold back the lines after it, "Bye." first.
        stream = self.console.file
        stream.write(visible(line) + "\n")
        stream.flush()


STALE = "StaleTarget"  # staleness.StaleTarget's name, as Outcome.failure_kind holds it
# In the session the fix for a stale target is a key, not a flag: the model needs the current code.
STALE_HINT = "press r to re-copy the prompt with the current code, or f to send the model just that code"


def _with_session_hints(report: Report, choice: tuple[int, ...] = ()) -> Report:
    """The report, its hints naming the session's keys: for a stale target instead of `--force`,
    for alternatives (`choice`, the blocks keys 1, 2, … apply) instead of editing the reply."""
    from kopipasta.intake.alternatives import ALTERNATIVES_OFFERED

    keys = " or ".join(str(k) for k in range(1, len(choice) + 1))
    hints = {STALE: STALE_HINT, **({ALTERNATIVES_OFFERED: f"press {keys} to apply the one you want"} if choice else {})}
    if not any(o.failure_kind in hints for o in report.outcomes):
        return report
    from dataclasses import replace

    outcomes = tuple(
        replace(o, hint=hints[o.failure_kind]) if o.failure_kind in hints else o for o in report.outcomes
    )
    return replace(report, outcomes=outcomes)


def _alternatives(text: str, report: Report, leave_out: tuple[int, ...]) -> tuple[int, ...]:
    """The blocks of the first set of alternatives the report refused, to choose from by key."""
    from kopipasta.intake.alternatives import ALTERNATIVES_OFFERED, find_alternatives

    if not any(o.failure_kind == ALTERNATIVES_OFFERED for o in report.outcomes):
        return ()
    from kopipasta.intake.reader import read_reply

    blocks = [b for b in read_reply(text).blocks if b.index not in leave_out]
    found = find_alternatives(blocks)
    first = min(found, default=None)
    return found[first].blocks if first is not None else ()


def _held_back(report: Report) -> list[int]:
    """Blocks that succeeded but were not written because another block on their file failed."""
    return [
        o.block_index
        for o in report.outcomes
        if o.status is Status.SKIPPED and o.file is not None and o.message.startswith("not written: block")
    ]


def _osc52_note() -> str:
    from kopipasta.loop.clipboard import osc52_note

    return osc52_note()


def _already_applied(report: Report) -> bool:
    return not report.failed and not report.changes and report.patch_count > 0


def _same_text(a: str, b: str) -> bool:
    return a.replace("\r\n", "\n").strip() == b.replace("\r\n", "\n").strip()


def _files_label(files: Sequence[str]) -> str:
    if not files:
        return "no files"
    shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
    return f"{len(files)} file{'s' if len(files) != 1 else ''} ({shown})"


def _lower_first(text: str) -> str:
    text = text.rstrip(".")
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]

