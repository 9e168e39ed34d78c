"""TARGET_PATH in YAML files (PROTOCOL.md §5): the exact text after a set, the exact failures."""

from __future__ import annotations

import pytest

from kopipasta.data import set_value
from kopipasta.errors import AmbiguousTarget, PayloadError, SyntaxCheckError, TargetNotFound

COMPOSE = """\
%YAML 1.1
---
# Local development stack.
x-env: &env
  LOG_LEVEL: info   # debug when needed
  RETRIES: 0x10

services:
  web:
    image: "nginx:1.25"
    ports:
    - "8080:80"
    command: ['nginx', '-g', 'daemon off;']
    environment: *env
    labels: {tier: front, team: web}
    healthcheck:

  worker:
    image: 'shop/worker:2'
    script: |
      ./migrate
      ./run
"""


def apply(path: str, payload: str, source: str = COMPOSE) -> str:
    return set_value(source, path, payload, file="compose.yml")


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    """(old, new) line pairs, for a change that keeps the number of lines."""
    old, new = before.splitlines(), after.splitlines()
    assert len(old) == len(new), after
    return [(a, b) for a, b in zip(old, new, strict=True) if a != b]


# --- scalars and the quotes they keep ----------------------------------------------------------


def test_scalar_keeps_the_double_quotes_of_the_value_it_replaces() -> None:
    after = apply("services.web.image", "nginx:1.27")
    assert changed_lines(COMPOSE, after) == [('    image: "nginx:1.25"', '    image: "nginx:1.27"')]


def test_scalar_keeps_single_quotes_and_a_restated_key_is_read_as_the_value() -> None:
    after = apply("services.worker.image", 'image: "shop/worker:3"')
    assert changed_lines(COMPOSE, after) == [("    image: 'shop/worker:2'", "    image: 'shop/worker:3'")]


def test_hex_comment_and_directive_outside_the_value_are_kept() -> None:
    after = apply("x-env.LOG_LEVEL", "debug")
    assert changed_lines(COMPOSE, after) == [("  LOG_LEVEL: info   # debug when needed",
                                              "  LOG_LEVEL: debug   # debug when needed")]
    assert after.startswith("%YAML 1.1\n---\n") and "RETRIES: 0x10" in after


def test_same_value_leaves_the_file_untouched() -> None:
    assert apply("services.web.image", '"nginx:1.25"') == COMPOSE
    assert apply("x-env.RETRIES", "16") == COMPOSE  # 0x10 is 16: nothing to change


def test_payload_sent_as_a_document_leaves_its_markers_out() -> None:
    after = apply("services.web.ports", '---\n- "9000:80"\n...\n')
    assert '    ports:\n    - "9000:80"\n    command:' in after
    assert after.count("---") == 1


def test_flow_item_that_would_split_on_its_comma_is_quoted() -> None:
    after = apply("services.web.labels.team", "web, ops")
    assert "    labels: {tier: front, team: \"web, ops\"}\n" in after


# --- collections: block and flow, the file's indentation ---------------------------------------


def test_block_sequence_lands_in_the_files_unindented_sequence_style() -> None:
    after = apply("services.web.ports", '  - "9000:80"\n  - "9443:443"')
    assert '    ports:\n    - "9000:80"\n    - "9443:443"\n    command:' in after


def test_block_payload_for_a_flow_sequence_is_written_in_flow_style() -> None:
    after = apply("services.web.command", "- nginx\n- '-g'\n- 'daemon off;'\n- -q")
    assert "    command: [nginx, '-g', 'daemon off;', -q]\n" in after


def test_flow_payload_for_a_block_mapping_is_written_as_a_block() -> None:
    after = apply("x-env", "{LOG_LEVEL: warn, RETRIES: 3}")
    assert after.startswith("%YAML 1.1\n---\n# Local development stack.\nx-env: &env\n"
                            "  LOG_LEVEL: warn\n  RETRIES: 3\n\nservices:\n")


def test_mapping_payload_at_four_spaces_takes_the_files_two() -> None:
    after = apply("services.worker", "image: shop/worker:3\nresources:\n    limits:\n        cpus: '0.5'\n")
    assert after.endswith("  worker:\n    image: shop/worker:3\n    resources:\n      limits:\n        cpus: '0.5'\n")


def test_block_scalar_is_replaced_with_its_lines_at_the_values_depth() -> None:
    after = apply("services.worker.script", "|\n  ./migrate --check\n  ./run")
    assert after.endswith("    script: |\n      ./migrate --check\n      ./run\n")


def test_empty_value_gets_a_block_mapping_under_its_key() -> None:
    after = apply("services.web.healthcheck", "test: [CMD, curl, -f, localhost]\ninterval: 10s")
    assert "    healthcheck:\n      test: [CMD, curl, -f, localhost]\n      interval: 10s\n\n  worker:" in after


def test_replacing_an_alias_replaces_the_alias_only() -> None:
    after = apply("services.web.environment", "LOG_LEVEL: error")
    assert "    environment:\n      LOG_LEVEL: error\n" in after
    assert "x-env: &env\n  LOG_LEVEL: info" in after


def test_anchored_value_keeps_its_anchor_and_its_aliases_follow() -> None:
    after = apply("x-env", "LOG_LEVEL: info\nRETRIES: 3")
    assert "x-env: &env\n  LOG_LEVEL: info\n  RETRIES: 3\n" in after
    assert "environment: *env" in after


# --- new keys ------------------------------------------------------------------------------------


def test_new_key_goes_after_the_last_pair_and_its_comment() -> None:
    after = apply("x-env.TZ", "UTC")
    assert "  RETRIES: 0x10\n  TZ: UTC\n\nservices:" in after


def test_new_key_in_a_flow_mapping() -> None:
    after = apply("services.web.labels.env", "dev")
    assert "    labels: {tier: front, team: web, env: dev}\n" in after


def test_new_key_holding_a_sequence() -> None:
    after = apply("services.worker.depends_on", "- web")
    assert after.endswith("      ./run\n    depends_on:\n    - web\n")


def test_crlf_file_stays_crlf() -> None:
    source = COMPOSE.replace("\n", "\r\n")
    after = apply("services.worker", "image: shop/worker:3\nreplicas: 2", source)
    assert after.endswith("  worker:\r\n    image: shop/worker:3\r\n    replicas: 2\r\n")
    assert "\n" not in after.replace("\r\n", "")


# --- several documents --------------------------------------------------------------------------

MANIFEST = "kind: Deployment\nspec:\n  replicas: 2\n---\nkind: Service\nspec:\n  type: ClusterIP\n"


def test_document_index_selects_the_document() -> None:
    after = set_value(MANIFEST, "[1].spec.type", "NodePort", file="k8s.yaml")
    assert after == MANIFEST.replace("ClusterIP", "NodePort")


def test_without_an_index_the_one_document_that_has_the_value() -> None:
    after = set_value(MANIFEST, "spec.replicas", "3", file="k8s.yaml")
    assert after == MANIFEST.replace("replicas: 2", "replicas: 3")


def test_without_an_index_a_key_every_document_has_is_ambiguous() -> None:
    with pytest.raises(AmbiguousTarget) as failure:
        set_value(MANIFEST, "kind", "Job", file="k8s.yaml")
    assert str(failure.value) == ("Path 'kind' is ambiguous in k8s.yaml: documents 0 and 1 both have it — "
                                  "start the path with the document's index, e.g. [0].kind")


# --- failures ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "payload", "error", "message"),
    [
        ("services.db.image", "postgres", TargetNotFound,
         "Path 'services.db.image' not found in compose.yml: no key 'db' at $.services (keys: web, worker)"),
        ("services.web.ports[3]", '"1:1"', TargetNotFound,
         "Path 'services.web.ports[3]' not found in compose.yml: index 3 is out of range at "
         "$.services.web.ports (1 item)"),
        ("services.web.image.tag", "x", TargetNotFound,
         "Path 'services.web.image.tag' not found in compose.yml: $.services.web.image is a scalar, not a mapping"),
        ("services.web.environment.LOG_LEVEL", "x", TargetNotFound,
         "Path 'services.web.environment.LOG_LEVEL' not found in compose.yml: $.services.web.environment "
         "is the alias *env (line 14) — set the value where &env is defined; every alias of it follows"),
        ("services.web.ports", '["8080:80"', PayloadError,
         "Payload for 'services.web.ports' in compose.yml is not valid YAML: expected ',' or ']', "
         "but got '<stream end>' at line 1, column 11"),
        ("services.web.ports", "", PayloadError,
         "Payload for 'services.web.ports' in compose.yml is empty — give the YAML value to set (null for an empty one)"),
        ("services.web.labels.tier", "- a  # first\n- b", PayloadError,
         "Payload for 'services.web.labels.tier' in compose.yml is a block collection, but the value sits in "
         "a flow collection — send it in flow style ({a: 1} or [a, b])"),
        ("x-env", "LOG_LEVEL: info", PayloadError, None),
    ],
)
def test_failures_name_the_file_the_path_and_the_reason(path: str, payload: str, error: type,
                                                        message: str | None) -> None:
    if message is None:  # the anchor dropped: the payload brings a tag without it
        with pytest.raises(error) as failure:
            apply(path, "!!map\nLOG_LEVEL: info")
        assert str(failure.value) == ("Setting 'x-env' in compose.yml would remove the anchor &env, which *env "
                                      "uses at line 14 — keep &env in the payload, where the value had it")
        return
    with pytest.raises(error) as failure:
        apply(path, payload)
    assert str(failure.value) == message


def test_a_file_that_is_not_yaml_fails_before_anything() -> None:
    with pytest.raises(SyntaxCheckError) as failure:
        set_value("a: [1, 2\nb: 3\n", "b", "4", file="bad.yml")
    assert str(failure.value).startswith("bad.yml is not valid YAML: ")


# --- the comment ending the replaced value's last line -----------------------------------------

COMMENTED = """\
cache:  # filled in by the deploy job
mode: fast  # see docs/modes.md
hosts:
  - web-1  # primary
  - web-2  # standby
tags: [a, b]  # sorted
"""


def test_a_block_collection_for_an_empty_value_leaves_the_key_comment_on_the_key() -> None:
    after = set_value(COMMENTED, "cache", "- redis\n- memcached", file="deploy.yml")
    assert after.startswith("cache:  # filled in by the deploy job\n  - redis\n  - memcached\nmode:")


def test_a_block_scalar_keeps_the_key_comment_after_its_header() -> None:
    after = set_value(COMMENTED, "mode", "|\n  fast\n  safe", file="deploy.yml")
    assert "mode: |  # see docs/modes.md\n  fast\n  safe\nhosts:" in after


def test_a_quoted_payload_keeps_its_own_comment_instead_of_the_old_one() -> None:
    after = set_value(COMMENTED, "mode", '"safe"  # slower, never loses data', file="deploy.yml")
    assert 'mode: "safe"  # slower, never loses data\n' in after and "modes.md" not in after


def test_a_new_last_item_does_not_take_the_old_last_items_comment() -> None:
    after = set_value(COMMENTED, "hosts", "- web-1  # primary\n- web-2  # standby\n- web-3", file="deploy.yml")
    assert after.count("# standby") == 1
    assert "  - web-2  # standby\n  - web-3\ntags:" in after


def test_an_item_replaced_by_a_mapping_drops_the_items_comment() -> None:
    after = set_value(COMMENTED, "hosts[1]", "name: web-2\nzone: b", file="deploy.yml")
    assert "  - name: web-2\n    zone: b\ntags:" in after and "standby" not in after


def test_a_flow_value_spread_over_lines_keeps_the_comment_after_it() -> None:
    after = set_value(COMMENTED, "tags", "[a, b,\n c]", file="deploy.yml")
    assert after.endswith("tags: [a, b,\n   c]  # sorted\n")
