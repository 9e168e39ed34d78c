"""The correction message for the model after a failed apply (`apply --feedback`, session key `f`).

Instead of retyping why a block failed, the user pastes this into the chat.
It holds what the model needs to fix its reply and nothing else: each failed
block's one-line reason and hint, the blocks held back with it (they must come
again, or the next apply loses them), what the files involved really define
now (the inventory `kopipasta nodes` shows), and the instruction to resend
only those blocks, in the protocol. No file contents: the model has them in
the conversation, and the names are what it got wrong; except for a block
that failed because the user changed its target since the prompt: the model's
copy is out of date, so the current code of what changed goes with it (and the
prompt record learns that the model has seen it).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kopipasta.errors import PatchError
from kopipasta.model import DIRECTIVE_OF_OPERATION, Operation, Outcome, Report, Status
from kopipasta.report import failure_line

if TYPE_CHECKING:
    from kopipasta.code.find.definitions import Definition

_HELD_BACK = "not written:"  # engine._hold_back: held back by a failure on its file, or by --strict
_STALE = "StaleTarget"  # staleness.StaleTarget, as Outcome.failure_kind names it


def feedback_message(report: Report, root: Path) -> str | None:
    """The message for the model, or None when there is nothing to correct."""
    if report.reply_error:
        return _no_patch_message(report.reply_error)
    failed = [o for o in report.outcomes if o.status is Status.FAILED]
    if not failed:
        return None
    held = [o for o in report.outcomes if o.status is Status.SKIPPED and o.message.startswith(_HELD_BACK)]
    patches = sum(1 for o in report.outcomes if o.file is not None or o.operation is not None)
    lines = [
        f"kopipasta could not apply {_count(len(failed), 'block')} of the {_count(patches, 'patch block')} "
        "in your last reply. Please correct them.",
        "",
        "Failed:",
    ]
    lines += [f"- block {o.block_index} ({_header(o)}): {_reason(o)}" for o in failed]
    if held:
        lines += ["", "Correct, but not written because a block on the same file failed (send them again, unchanged):"]
        lines += [f"- block {o.block_index} ({_header(o)})" for o in held]
    files = list(dict.fromkeys(o.file for o in [*failed, *held] if o.file))
    if files:
        lines += ["", "What these files define now (target exactly these names):"]
        lines += [f"- {_inventory_line(root, file)}" for file in files]
    stale = list(dict.fromkeys(o.file for o in failed if o.failure_kind == _STALE and o.file))
    if stale:
        lines += ["", "The user changed this code since you saw it; write your blocks on it, as it is now:"]
        lines += _current_code(root, stale)
    if any(o.failure_kind == "TargetNotFound" and o.operation is Operation.REPLACE_NODE for o in failed):
        lines += ["", "TARGET_NODE replaces a definition that exists; to add a new one, use `INSERT_AFTER: kind name` of an existing one."]
    lines += [
        "",
        "Resend only these blocks, not the ones that applied. Put each in its own fenced code block "
        "whose first lines are comments: `FILE: path`, then `TARGET_NODE: kind name` "
        "(`TARGET_PATH: key` in JSON), then the whole new definition.",
    ]
    return "\n".join(lines) + "\n"


def _current_code(root: Path, files: list[str]) -> list[str]:
    """The current code the stale blocks touched: each changed definition, or the whole file when the
    change is outside them; marked as shown in the prompt record, since the model now has it."""
    from kopipasta.code.read import staleness
    from kopipasta.disk.workspace import load
    from kopipasta.loop.fences import fence_for, info_string

    lines: list[str] = []
    for file in files:
        try:
            source = load(root, file)
        except (PatchError, OSError):
            continue
        changed = staleness.changed_since_prompt(root, source)
        if changed is None:
            continue
        names = list(changed.spans)
        parts = [(f"{file}, {_kind_name(changed.named(name), name)}", changed.code_of(name)) for name in names]
        parts = parts or [(file, source.data)]
        for title, code in parts:
            text = code.decode("utf-8", "replace").replace("\r\n", "\n").rstrip("\n")
            fence = fence_for(text)
            lines += ["", f"{title}:", f"{fence}{info_string(file)}", text, fence]
        staleness.shown_again(root, source, names, whole=not names)
    return lines


def _kind_name(definition: Definition | None, name: str) -> str:
    return name if definition is None else f"{definition.kind} {name}"


def _reason(outcome: Outcome) -> str:
    """The failure line, without hints that speak to the user (`kopipasta nodes …`, `--force`) rather than the model."""
    if "kopipasta " in outcome.hint or outcome.failure_kind == _STALE:
        return outcome.message
    return failure_line(outcome)


def _no_patch_message(reason: str) -> str:
    return (
        f"kopipasta found no patch in your last reply ({reason.rstrip('.')}).\n\n"
        "Send each change as its own fenced code block whose first lines are comments: "
        "`FILE: path`, then `TARGET_NODE: kind name` (`TARGET_PATH: key` in JSON), "
        "then the whole new definition.\n"
    )


def _header(outcome: Outcome) -> str:
    parts = [f"FILE: {outcome.file}" if outcome.file else "no FILE"]
    if outcome.operation is Operation.TEXT_PATCH:
        parts.append(outcome.target or "text patch")  # a diff or search/replace block (PROTOCOL.md §8)
    elif outcome.operation is not None and outcome.target is not None:
        parts.append(f"{DIRECTIVE_OF_OPERATION.get(outcome.operation, outcome.operation.name)}: {outcome.target}")
    elif outcome.operation is not None:
        parts.append("whole file")
    return ", ".join(parts)


def _inventory_line(root: Path, file: str) -> str:
    """One file's targets as the prompt lists them: `path: function f, method C.m`."""
    from kopipasta import data as data_formats
    from kopipasta.code.read.inventory import definitions_of, load_existing, target_names

    try:
        source = load_existing(root, file)
        definitions = definitions_of(source)
    except PatchError as error:
        return f"{file}: {error.message}"
    if not definitions:
        return f"{file}: no definitions (send the whole file with FILE and no target)"
    names = target_names(definitions, source)
    if data_formats.format_of(file):
        return f"{file} (TARGET_PATH keys): {', '.join(names)}"
    return f"{file}: {', '.join(f'{d.kind} {name}' for d, name in zip(definitions, names, strict=True))}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' if n != 1 else ''}"
