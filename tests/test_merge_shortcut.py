"""The shortcut that keeps `merge` out of a plain TARGET_NODE apply (issue 9) decides nothing.

`operations` asks `parsed.only_its_target` before `merge.merge_targeted`: a
payload with no placeholder whose top-level definitions are all named as the
target is replaced plainly, without importing the merge. That is right only
where `merge_targeted` itself answers None (and does not fail): it asks the
same test first, and nothing after it may decide otherwise. Checked three
ways: on the TARGET_NODE blocks of every fixture reply; on payloads made from
every definition of the corpus (fixture files, identity samples and corpus):
as written, with a sibling restated, and inside their container (an elided
one never reaches the merge: it is read line by line, issue 24); and
by applying every fixture reply with the shortcut forced off, which must give
the same report, byte for byte.
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from kopipasta.code.edit import merge, operations
from kopipasta.code.find.definitions import Definition
from kopipasta.code.find.document import Document, in_memory, open_document
from kopipasta.code.find.resolve import parse_target, resolve_with_payload_in
from kopipasta.code.read.embedded import code_view
from kopipasta.code.read.parsed import only_its_target, read_target_payload
from kopipasta.disk.workspace import load
from kopipasta.engine import apply_reply
from kopipasta.errors import PatchError
from kopipasta.intake.plan import plan
from kopipasta.intake.reader import read_reply
from kopipasta.model import Operation
from kopipasta.syntax.languages import has_syntax_error, language_for_path, parse

TESTS = Path(__file__).resolve().parent
FIXTURES = TESTS.parent / "fixtures"
CASES = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and (p / "reply.md").is_file())
DEFINITIONS_PER_FILE = 12  # spread over the file; every definition of a smaller one


def _merge_answer(document: Document, payload: str, target: Definition) -> str:
    """What merge_targeted does with the payload: "plain" (None), "merged", or "fails"."""
    try:
        merged = merge.merge_targeted(document, payload, target, file="f", label=target.qualified_name)
    except PatchError:
        return "fails"
    return "plain" if merged is None else "merged"


def _check(document: Document, payload: str, target: Definition, seen: Counter[tuple[bool, str]], where: str) -> None:
    parsed = read_target_payload(document, payload, target)
    if parsed.placeholders:
        return  # read line by line (`operations`, issue 24): never asked of the merge
    shortcut = only_its_target(parsed, target)
    answer = _merge_answer(document, payload, target)
    seen[(shortcut, answer)] += 1
    if shortcut:
        assert answer == "plain", f"{where}: the shortcut skips a merge that {answer}\n{payload}"


def test_the_shortcut_agrees_with_merge_on_every_fixture_target_node_block() -> None:
    seen: Counter[tuple[bool, str]] = Counter()
    for case in CASES:
        root = case / "before"
        if not root.is_dir():
            continue
        for block in read_reply((case / "reply.md").read_text(encoding="utf-8")).blocks:
            try:
                patch = plan(block)
            except PatchError:
                continue
            if patch is None or patch.operation is not Operation.REPLACE_NODE or patch.target is None:
                continue
            try:
                document = open_document(load(root, patch.file), root)
                if document.spec is None or document.spec.embedding is not None or not document.source.exists:
                    continue
                target = parse_target(patch.target, patch.file)
                definition, _ = resolve_with_payload_in(
                    target, document, patch.file, patch.payload, overloads=document.spec.has_overloads
                )
            except PatchError:
                continue
            _check(document, patch.payload, definition, seen, f"{case.name}: {patch.directive}")
    assert seen[(True, "plain")] > 100  # most fixture blocks are plain: the shortcut is taken
    assert seen[(False, "merged")] > 3  # and the ones that merge (siblings, containers) reach the merge


def _distinct_sources() -> list[Path]:
    paths = [
        *FIXTURES.glob("*/before/**/*"),
        *(TESTS / "identity_samples").iterdir(),
        *(TESTS / "identity_corpus").iterdir(),
    ]
    seen: dict[tuple[str, bytes], Path] = {}
    for path in sorted(paths):
        if path.is_file() and not path.is_symlink() and language_for_path(path.name) is not None:
            seen.setdefault((path.suffix, path.read_bytes()), path)
    return sorted(seen.values())


def _corpus_document(path: Path) -> Document | None:
    spec = language_for_path(path.name)
    assert spec is not None
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf") or b"\r" in data:
        return None
    if spec.embedding is not None:
        view = code_view(spec, data)  # a Vue/Svelte component: TARGET_NODE runs on its <script>
        if view is None:
            return None
        spec, data = view.spec, view.data
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if has_syntax_error(spec, parse(spec, data).root_node):
        return None
    return in_memory(spec, data)


def _text(data: bytes, start: int, end: int) -> str:
    """The definition's lines as a model copies them: from its line's start, at its own indentation."""
    line_start = data.rfind(b"\n", 0, start) + 1
    if data[line_start:start].strip():
        line_start = start  # other code before it on its line
    return data[line_start:end].decode("utf-8")


def _payloads(document: Document, definition: Definition) -> dict[str, str]:
    """Payloads a model sends under `TARGET_NODE: <definition>`, plain and not."""
    data = document.data
    own = _text(data, definition.outer_start, definition.end)
    payloads = {"as written": own}
    siblings = [
        d
        for d in document.definitions
        if d.container == definition.container and d.start > definition.end and d.name != definition.name
    ]
    if siblings:
        payloads["with a sibling"] = own + "\n\n" + _text(data, siblings[0].outer_start, siblings[0].end)
    containers = [
        d
        for d in document.definitions
        if d.outer_start <= definition.outer_start and definition.end <= d.end and d is not definition
    ]
    if containers:
        inner = max(containers, key=lambda d: d.outer_start)
        payloads["its container"] = _text(data, inner.outer_start, inner.end)
    return payloads


def test_the_shortcut_agrees_with_merge_on_payloads_made_from_the_corpus() -> None:
    seen: Counter[tuple[bool, str]] = Counter()
    files = 0
    for path in _distinct_sources():
        document = _corpus_document(path)
        if document is None:
            continue
        files += 1
        definitions = document.definitions
        step = max(1, len(definitions) // DEFINITIONS_PER_FILE)
        for definition in definitions[::step]:
            for form, payload in _payloads(document, definition).items():
                _check(document, payload, definition, seen, f"{path} {definition.qualified_name} ({form})")
    assert files > 150
    assert seen[(True, "plain")] > 500
    assert seen[(False, "merged")] > 100  # siblings and containers reach the merge
    assert seen[(False, "fails")] > 0


def _reports(tmp_path: Path) -> list[object]:
    out: list[object] = []
    for case in CASES:
        project = tmp_path / case.name
        if (case / "before").is_dir():
            shutil.copytree(case / "before", project, symlinks=True)
        else:
            project.mkdir()
        out.append(apply_reply((case / "reply.md").read_text(encoding="utf-8"), project, dry_run=True))
    return out


def test_every_fixture_reply_applies_the_same_with_the_shortcut_forced_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_shortcut = _reports(tmp_path / "on")
    monkeypatch.setattr(operations, "only_its_target", lambda payload, target: False)
    without = _reports(tmp_path / "off")
    assert without == with_shortcut
    assert sum(1 for report in with_shortcut if report.changes) > 300  # type: ignore[attr-defined]
