"""Issue 18, item 7: a TARGET_PATH block on a value the user changed since the prompt is
refused like a stale TARGET_NODE (same message shape, `--force` overrides); values the
user did not touch, and values our own applies wrote, are not stale."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import environment

FILES = {
    "package.json": ('{\n  "name": "demo",\n  "dependencies": {\n    "react": "^18.2.0",\n    "zod": "^3.0.0"\n  }\n}\n',
                     ("18.2.0", "18.3.1"), "dependencies.react", '"^19.0.0"', "dependencies.zod", '"^3.22.0"'),
    "compose.yaml": ("services:\n  web:\n    image: nginx:1.25\n    replicas: 2\n",
                     ("nginx:1.25", "nginx:1.26"), "services.web.image", "nginx:1.27", "services.web.replicas", "3"),
    "pyproject.toml": ('[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.ruff]\nline-length = 100\n',
                       ('"0.1.0"', '"0.2.0"'), "project.version", '"1.0.0"', "tool.ruff.line-length", "120"),
}


def _reply(name: str, path: str, value: str) -> str:
    return f"```\n# FILE: {name}\n# TARGET_PATH: {path}\n{value}\n```\n"


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_value_changed_since_the_prompt_is_refused_unless_forced(tmp_path: Path, name: str) -> None:
    text, (old, new), path, value, other_path, other_value = FILES[name]
    (tmp_path / name).write_text(text)
    assert kopipasta("prompt", name, "-t", "bump", "--stdout", cwd=tmp_path, env=environment()).returncode == 0
    edited = text.replace(old, new)
    (tmp_path / name).write_text(edited)

    refused = kopipasta("apply", "-", cwd=tmp_path, stdin=_reply(name, path, value), env=environment())
    assert refused.returncode == 1
    assert (f"❌ `{path}` in {name} changed since the prompt: applying would drop your edit — "
            "re-prompt, or `--force`") in refused.stdout
    assert (tmp_path / name).read_text() == edited

    elsewhere = kopipasta("apply", "-", cwd=tmp_path, stdin=_reply(name, other_path, other_value), env=environment())
    assert elsewhere.returncode == 0, elsewhere.stdout
    assert new in (tmp_path / name).read_text(), "the user's edit is kept"

    forced = kopipasta("apply", "--force", "-", cwd=tmp_path, stdin=_reply(name, path, value), env=environment())
    assert forced.returncode == 0, forced.stdout
    assert new not in (tmp_path / name).read_text()
    again = kopipasta("apply", "-", cwd=tmp_path, stdin=_reply(name, path, value), env=environment())
    assert again.returncode == 0 and "unchanged" in again.stdout, again.stdout


def test_values_our_applies_wrote_are_not_stale(tmp_path: Path) -> None:
    text, _, path, value, _, _ = FILES["package.json"]
    (tmp_path / "package.json").write_text(text)
    kopipasta("prompt", "package.json", "-t", "bump", "--stdout", cwd=tmp_path, env=environment())
    first = kopipasta("apply", "-", cwd=tmp_path, stdin=_reply("package.json", path, value), env=environment())
    assert first.returncode == 0, first.stdout
    second = kopipasta("apply", "-", cwd=tmp_path, stdin=_reply("package.json", path, '"^19.1.0"'), env=environment())
    assert second.returncode == 0, second.stdout
    assert '"react": "^19.1.0"' in (tmp_path / "package.json").read_text()
