"""Text patches never corrupt (PROTOCOL.md §8): the intended file, or an explicit failure.

For real files (every fixture's `before/` files of the kinds below, and a few of
kopipasta's own modules), seeded random edits are made — lines changed, lines
added, lines removed — and sent as a unified diff, as search/replace and as the
patch envelope, each plainly and with noise: the hunk's indentation shifted,
the file in CRLF, the edited region duplicated further down the file. Whatever
the engine reports, the file on disk must be the intended file (reported
`applied`), or the old bytes with the block reported `failed`. Never a third
file; never a silent no-op.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from kopipasta.engine import apply_reply
from kopipasta.model import Status

REPO = Path(__file__).resolve().parent.parent
SUFFIXES = (".py", ".ts", ".tsx", ".js", ".md", ".css", ".json", ".yaml")
OWN_MODULES = ("kopipasta/text/apply.py", "kopipasta/journal.py", "kopipasta/intake.py")
SEEDS_PER_FILE = 2
FORMS = ("diff", "search/replace", "envelope")
NOISES = ("plain", "indentation", "crlf", "duplicate")
# Lines our own marker syntax or a fence would misread; a window holding one is not used.
_AWKWARD = ("```", "~~~", "<<<", ">>>", "===", "***", "--- ", "+++ ", "@@")


def _real_files() -> list[tuple[str, str]]:
    seen: set[str] = set()
    files: list[tuple[str, str]] = []
    candidates = sorted((REPO / "fixtures").glob("*/before/**/*")) + [REPO / m for m in OWN_MODULES]
    for path in candidates:
        if not path.is_file() or path.suffix not in SUFFIXES:
            continue
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        text = text.removeprefix("\ufeff").replace("\r\n", "\n")
        if text in seen or len(text.splitlines()) < 6 or not text.endswith("\n"):
            continue
        seen.add(text)
        files.append((path.name if path.suffix != ".py" or "fixtures" in path.parts else path.name, text))
    return files


def _comment(name: str) -> str:
    return "#" if name.endswith((".py", ".yaml")) else "//" if name.endswith((".ts", ".tsx", ".js")) else ""


def _edit(rng: random.Random, lines: list[str], name: str) -> tuple[int, int, list[str]] | None:
    """A random edit: replace lines[i:j] with new lines (i == j: a pure addition)."""
    for _ in range(20):
        i = rng.randrange(len(lines))
        kind = rng.choice(("change", "add", "remove"))
        j = min(len(lines), i + rng.randint(1, 3)) if kind != "add" else i
        window = lines[max(0, i - 3) : j + 3]
        if any(line.lstrip().startswith(_AWKWARD) for line in window):
            continue
        mark = _comment(name)
        if kind == "change":
            changed = [line + (f" {mark} edited" if mark and line.strip() else "") if k == 0 else line for k, line in enumerate(lines[i:j])]
            if name.endswith((".md", ".css", ".json")):
                changed = [line.replace("a", "A", 1) for line in lines[i:j]]
            if changed == lines[i:j]:
                continue
            return i, j, changed
        if kind == "add":
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())] if i < len(lines) else ""
            return i, i, [f"{indent}{mark} added line".rstrip() if mark else f"{indent}added line"]
        return i, j, []
    return None


def _hunk_lines(lines: list[str], i: int, j: int, new: list[str], context: int) -> tuple[int, list[tuple[str, str]]]:
    start = max(0, i - context)
    end = min(len(lines), j + context)
    body = [(" ", line) for line in lines[start:i]] + [("-", line) for line in lines[i:j]]
    body += [("+", line) for line in new] + [(" ", line) for line in lines[j:end]]
    return start, body


def _indent_noise(body: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Dedent the hunk to its own margin (a model sending a method at column 0), or indent it."""
    texts = [text for _, text in body if text.strip()]
    margin = min((len(t) - len(t.lstrip(" ")) for t in texts), default=0)
    if margin and all(t[:margin].strip(" ") == "" for t in texts):
        return [(op, text[margin:] if text.strip() else text) for op, text in body]
    return [(op, "  " + text if text.strip() else text) for op, text in body]


def _reply(form: str, path: str, start: int, body: list[tuple[str, str]]) -> str:
    fence = "`````"
    if form == "diff":
        old = sum(1 for op, _ in body if op != "+")
        new = sum(1 for op, _ in body if op != "-")
        lines = [f"--- a/{path}", f"+++ b/{path}", f"@@ -{start + 1},{old} +{start + 1},{new} @@"]
        lines += [op + text for op, text in body]
        return f"{fence}diff\n" + "\n".join(lines) + f"\n{fence}\n"
    if form == "envelope":
        lines = ["*** Begin Patch", f"*** Update File: {path}", "@@"] + [op + text for op, text in body] + ["*** End Patch"]
        return f"{fence}\n" + "\n".join(lines) + f"\n{fence}\n"
    search = [text for op, text in body if op != "+"]
    replace = [text for op, text in body if op != "-"]
    lines = [path, fence, "<<<<<<< SEARCH", *search, "=======", *replace, ">>>>>>> REPLACE", fence]
    return "\n".join(lines) + "\n"


def _cases() -> list[tuple[str, str, int, str, str]]:
    cases = []
    for name, text in _real_files():
        for seed in range(SEEDS_PER_FILE):
            for form in FORMS:
                cases.append((name, text, seed, form, NOISES[(seed + FORMS.index(form)) % len(NOISES)]))
    return cases


TALLY: Counter[str] = Counter()


@pytest.mark.parametrize("noise", NOISES)
def test_text_patches_apply_exactly_or_fail_cleanly(tmp_path: Path, noise: str) -> None:
    files = _real_files()
    assert len(files) >= 20, "the property needs real files to work on"
    count = 0
    for number, (name, text) in enumerate(files):
        for seed in range(SEEDS_PER_FILE):
            for form in FORMS:
                rng = random.Random(f"{name}/{seed}/{form}/{noise}/{number}")
                lines = text.split("\n")[:-1]
                edit = _edit(rng, lines, name)
                if edit is None:
                    continue
                i, j, new = edit
                context = rng.randint(1, 3) if i == j else rng.randint(0, 3)
                start, body = _hunk_lines(lines, i, j, new, context)
                intended = lines[:i] + new + lines[j:]
                original = list(lines)
                if noise == "duplicate":
                    copy = [text for op, text in body if op != "+"]
                    original, intended = original + ["", *copy], intended + ["", *copy]
                if noise == "indentation":
                    if not any(text.strip() for op, text in body if op != "+"):
                        continue  # no old line to show the shift: the added lines' indentation is as sent
                    body = _indent_noise(body)
                    shifted = [text for op, text in body if op != "+"]
                    if any(original[k : k + len(shifted)] == shifted for k in range(len(original))):
                        continue  # shifted, the hunk stands verbatim elsewhere: it now means that place
                newline = "\r\n" if noise == "crlf" else "\n"
                before = (newline.join(original) + newline).encode()
                want = (newline.join(intended) + newline).encode()
                root = tmp_path / f"{number}-{seed}-{FORMS.index(form)}"
                path = f"src/{name}"
                (root / "src").mkdir(parents=True)
                (root / path).write_bytes(before)
                report = apply_reply(_reply(form, path, start, body), root)
                after = (root / path).read_bytes()
                statuses = {o.status for o in report.outcomes}
                detail = f"{name} seed {seed} {form} {noise}: {[o.message for o in report.outcomes]}"
                if after == want and want != before:
                    assert statuses == {Status.APPLIED}, detail
                    TALLY[f"{form}/{noise}/applied"] += 1
                else:
                    assert after == before, "a third file was written: " + detail
                    assert Status.FAILED in statuses or report.reply_error, "a silent no-op: " + detail
                    TALLY[f"{form}/{noise}/refused"] += 1
                count += 1
    assert count >= 100
    print(f"\n{noise}: {count} cases; " + ", ".join(f"{k} {v}" for k, v in sorted(TALLY.items()) if f"/{noise}/" in k))
