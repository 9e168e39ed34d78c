"""Text patches never corrupt (PROTOCOL.md §8): the intended file, or an explicit failure.

For real files (every fixture's `before/` files of the kinds below, and a few of
kopipasta's own modules), seeded random edits are made — lines changed, lines
added, lines removed — and sent as a unified diff, as search/replace and as the
patch envelope, each plainly and with noise: the hunk's indentation shifted,
the file in CRLF, the edited region duplicated further down the file. Whatever
the engine reports, the file on disk must be the intended file (reported
`applied`), or the old bytes with the block reported `failed`. Never a third
file; never a silent no-op.

The second test takes the edits real replies made (every fixture's before/after
pair outside the text-patch cases), written as the three forms by difflib with
1–3 context lines, plainly, with shifted indentation and in CRLF.
Run with `-s` to see the counts of applied and refused cases.
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
OWN_MODULES = ("kopipasta/text/apply.py", "kopipasta/disk/journal.py", "kopipasta/intake/reader.py")
SEEDS_PER_FILE = 1
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


def _real_edits() -> list[tuple[str, str, str]]:
    """(name, before, after) for every file a fixture's reply changes: edits real replies made."""
    edits = []
    for case in sorted((REPO / "fixtures").iterdir()):
        if case.name.startswith("textpatch_") or not (case / "after").is_dir() or not (case / "before").is_dir():
            continue
        for after_path in sorted((case / "after").rglob("*")):
            before_path = case / "before" / after_path.relative_to(case / "after")
            if not after_path.is_file() or not before_path.is_file() or after_path.suffix not in SUFFIXES:
                continue
            try:
                before = before_path.read_bytes().decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
                after = after_path.read_bytes().decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
            except UnicodeDecodeError:
                continue
            if before != after and before.endswith("\n") and after.endswith("\n"):
                edits.append((after_path.name, before, after))
    return edits


def _hunks(before: list[str], after: list[str], context: int) -> list[tuple[int, list[tuple[str, str]]]]:
    """difflib's grouped opcodes as (old start, hunk lines)."""
    import difflib

    hunks = []
    for group in difflib.SequenceMatcher(None, before, after, autojunk=False).get_grouped_opcodes(context):
        body: list[tuple[str, str]] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                body += [(" ", line) for line in before[i1:i2]]
                continue
            body += [("-", line) for line in before[i1:i2]] + [("+", line) for line in after[j1:j2]]
        hunks.append((group[0][1], body))
    return hunks


def _multi_reply(form: str, path: str, hunks: list[tuple[int, list[tuple[str, str]]]]) -> str:
    if form == "search/replace":
        return "\n".join(_reply(form, path, start, body) for start, body in hunks)
    if form == "envelope":
        lines = ["*** Begin Patch", f"*** Update File: {path}"]
        for _, body in hunks:
            lines += ["@@"] + [op + text for op, text in body]
        return "`````\n" + "\n".join([*lines, "*** End Patch"]) + "\n`````\n"
    out = [f"--- a/{path}", f"+++ b/{path}"]
    for start, body in hunks:
        old = sum(1 for op, _ in body if op != "+")
        new = sum(1 for op, _ in body if op != "-")
        out += [f"@@ -{start + 1},{old} +{start + 1},{new} @@"] + [op + text for op, text in body]
    return "`````diff\n" + "\n".join(out) + "\n`````\n"


@pytest.mark.parametrize("noise", ("plain", "indentation", "crlf"))
def test_real_edits_as_text_patches(tmp_path: Path, noise: str) -> None:
    edits = _real_edits()
    assert len(edits) >= 50, "the property needs the fixtures' real edits"
    tally: Counter[str] = Counter()
    for number, (name, before_text, after_text) in enumerate(edits):
        before, after = before_text.split("\n")[:-1], after_text.split("\n")[:-1]
        for form in FORMS:
            rng = random.Random(f"{name}/{form}/{noise}/{number}")
            hunks = _hunks(before, after, rng.randint(1, 3))
            if any(text.lstrip().startswith(_AWKWARD) for _, body in hunks for _, text in body):
                continue
            if noise == "indentation":
                hunks = [(start, _indent_noise(body)) for start, body in hunks]
                shifted = [[text for op, text in body if op != "+"] for _, body in hunks]
                if any(before[k : k + len(old)] == old for old in shifted for k in range(len(before))):
                    continue  # shifted, a hunk stands verbatim elsewhere: it now means that place
            newline = "\r\n" if noise == "crlf" else "\n"
            old_bytes = (newline.join(before) + newline).encode()
            want = (newline.join(after) + newline).encode()
            root = tmp_path / f"{number}-{FORMS.index(form)}"
            (root / "src").mkdir(parents=True)
            path = f"src/{name}"
            (root / path).write_bytes(old_bytes)
            report = apply_reply(_multi_reply(form, path, hunks), root)
            got = (root / path).read_bytes()
            statuses = {o.status for o in report.outcomes}
            detail = f"{name} #{number} {form} {noise}: {[o.message for o in report.outcomes]}"
            if got == want:
                assert statuses == {Status.APPLIED}, detail
                tally[f"{form} applied"] += 1
            else:
                assert got == old_bytes, "a third file was written: " + detail
                assert Status.FAILED in statuses, "a silent no-op: " + detail
                tally[f"{form} refused"] += 1
    total = sum(tally.values())
    assert total >= 100
    print(f"\nreal edits, {noise}: {total} cases; " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
