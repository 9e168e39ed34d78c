"""The never-corrupts promise for C, C++, Ruby, PHP, Lua, Bash, Vue and Svelte.

The same seeded damage as test_never_corrupts.py, done to a real payload of
each language's fixture project: the file on disk is either the old bytes or
parses cleanly, a failed block leaves it byte for byte, and a component's
template and style are never touched.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_never_corrupts import damage

from kopipasta.code.read.embedded import code_view
from kopipasta.engine import apply_reply
from kopipasta.model import Status
from kopipasta.syntax.languages import language_for_path, parse

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# (fixture whose before/ holds the file, file, target, the payload the damage starts from)
CASES = [
    ("c_kinds_replaced", "src/strbuf.c", "function strbuf_view",
     "strview_t\nstrbuf_view(const struct strbuf *sb)\n{\n    strview_t view = { sb->data, sb->len };\n\n"
     "    if (sb->len == 0)\n        view.ptr = \"\";\n    return view;\n}"),
    ("cpp_out_of_class_methods_replaced", "src/inventory.cpp", "method Inventory.remove",
     "bool Inventory::remove(const std::string& sku, int quantity) {\n    auto it = stock_.find(sku);\n"
     "    if (it == stock_.end() || it->second < quantity) {\n        return false;\n    }\n"
     "    it->second -= quantity;\n    return true;\n}"),
    ("rb_rails_model_kinds_replaced", "app/models/user.rb", "method User.send_digest!",
     "def send_digest!\n  return if digest_opt_out?\n\n  if posts.any?\n"
     "    UserMailer.with(user: self).weekly_digest.deliver_later\n  end\nend"),
    ("php_laravel_controller_methods_replaced", "app/Http/Controllers/PostController.php",
     "method PostController.show",
     "public function show(Post $post): JsonResponse\n{\n    $post->load(['author', 'comments']);\n\n"
     "    return response()->json($post);\n}"),
    ("lua_module_kinds_replaced", "lua/todo/init.lua", "function M.toggle",
     "function M.toggle(index)\n  local item = state.items[index]\n  if item then\n"
     "    item.done = not item.done\n    render()\n  end\n  return item\nend"),
    ("sh_deploy_script_kinds_replaced", "scripts/deploy.sh", "function cleanup",
     "cleanup() {\n    if [[ -n \"$TMP_DIR\" && -d \"$TMP_DIR\" ]]; then\n        rm -rf \"$TMP_DIR\"\n"
     "    fi\n    log \"cleaned up\"\n}"),
    ("vue_script_setup_kinds_replaced", "src/components/TodoList.vue", "function toggle",
     "function toggle(id: number) {\n  const todo = todos.value.find((t) => t.id === id)\n"
     "  if (todo) {\n    todo.done = !todo.done\n  }\n}"),
    ("svelte_kinds_replaced", "src/lib/Counter.svelte", "function reset",
     "function reset() {\n  count = start;\n  dispatch('change', { value: count });\n}"),
]


def parses_cleanly(file: str, data: bytes) -> bool:
    spec = language_for_path(file)
    assert spec is not None
    if parse(spec, data).root_node.has_error:
        return False
    if spec.embedding is not None:
        view = code_view(spec, data)
        return view is not None and not parse(view.spec, view.data).root_node.has_error
    return True


def outside_scripts(file: str, data: bytes) -> bytes:
    """A component's bytes outside its <script> elements (the whole file for other languages)."""
    spec = language_for_path(file)
    assert spec is not None
    view = code_view(spec, data) if spec.embedding is not None else None
    if view is None:
        return b""
    kept, cursor = [], 0
    for region in view.regions:
        kept.append(data[cursor : region.start])
        cursor = region.end
    kept.append(data[cursor:])
    return b"\0".join(kept)


@pytest.mark.parametrize(("fixture", "file", "target", "payload"), CASES, ids=[c[0].split("_")[0] for c in CASES])
def test_damaged_payloads_never_corrupt(tmp_path: Path, fixture: str, file: str, target: str, payload: str) -> None:
    rng = random.Random(20261126)
    original = (FIXTURES / fixture / "before" / file).read_bytes()
    assert parses_cleanly(file, original)
    path = tmp_path / file
    path.parent.mkdir(parents=True)
    applied = failed = 0
    for _ in range(80):
        path.write_bytes(original)
        broken = damage(payload, rng)
        fence = "`" * 4
        reply = f"{fence}\n// FILE: {file}\n// TARGET_NODE: {target}\n{broken}\n{fence}\n"
        (outcome,) = apply_reply(reply, tmp_path).outcomes
        after = path.read_bytes()
        assert "Internal error" not in outcome.message, (broken, outcome.message)
        if outcome.status is Status.FAILED:
            failed += 1
            assert after == original, broken
        else:
            applied += 1
            assert parses_cleanly(file, after), f"applied but broken:\n{broken}\n---\n{after.decode()}"
            assert outside_scripts(file, after) == outside_scripts(file, original), broken
    assert applied > 5 and failed > 5, (applied, failed)
