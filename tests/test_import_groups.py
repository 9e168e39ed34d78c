"""A payload's new imports land where a formatter would put them (issue 21, item 7).

Python: in the file's isort section (standard library, third party, first
party, relative), at the sorted place; a section the file lacks becomes a
block of its own. TS: packages before relative paths, when the file keeps
them so. A file that keeps no such order gets them after its last import.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest


def apply(root: Path, reply: str) -> subprocess.CompletedProcess[str]:
    (root.parent / "reply.md").write_text(reply)
    return subprocess.run(
        [sys.executable, "-m", "kopipasta", "apply", str(root.parent / "reply.md"), "--root", str(root)],
        capture_output=True, text=True, check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("")
    return root


VIEWS = '"""Views."""\n\nimport os\n\nimport click\n\nfrom app import models\n\nfrom .util import slug\n\n\ndef show():\n    return 1\n'
VIEWS_REPLY = (
    "```python\n# FILE: app/views.py\n# TARGET_NODE: show\n"
    "import json\nimport yaml\nfrom app.db import session\nfrom . import helpers\nfrom .. import top\n"
    "import zlib\nfrom collections import OrderedDict\n"
    "def show():\n    return 2\n```\n"
)
VIEWS_AFTER = (
    '"""Views."""\n\nimport json\nimport os\nimport zlib\nfrom collections import OrderedDict\n\n'
    "import click\nimport yaml\n\nfrom app import models\nfrom app.db import session\n\n"
    "from .. import top\nfrom . import helpers\nfrom .util import slug\n\n\ndef show():\n    return 2\n"
)


def test_python_imports_join_their_isort_sections(project: Path) -> None:
    (project / "app" / "views.py").write_text(VIEWS)
    result = apply(project, VIEWS_REPLY)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (project / "app" / "views.py").read_text() == VIEWS_AFTER


def test_ruff_finds_nothing_to_sort_after_the_merge(project: Path) -> None:
    pytest.importorskip("ruff")
    (project / "app" / "views.py").write_text(VIEWS)
    apply(project, VIEWS_REPLY)
    ruff = f"{shlex.quote(sys.executable)} -m ruff check --isolated --select I app/views.py"
    checked = subprocess.run(ruff, shell=True, cwd=project, capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout


def test_a_missing_section_becomes_its_own_block_between_its_neighbours(project: Path) -> None:
    (project / "app" / "v.py").write_text("import os\n\nfrom .util import slug\n\n\ndef show():\n    return 1\n")
    reply = (
        "```python\n# FILE: app/v.py\n# TARGET_NODE: show\n"
        "import requests\nimport abc\nfrom . import a\ndef show():\n    return 2\n```\n"
    )
    assert apply(project, reply).returncode == 0
    assert (project / "app" / "v.py").read_text() == (
        "import abc\nimport os\n\nimport requests\n\nfrom . import a\nfrom .util import slug\n\n\n"
        "def show():\n    return 2\n"
    )


def test_first_party_and_relative_in_one_block_stay_one_block(project: Path) -> None:
    (project / "app" / "v.py").write_text(
        "import sys\n\nfrom app import models\nfrom .util import slug\n\n\ndef show():\n    return 1\n"
    )
    reply = "```python\n# FILE: app/v.py\n# TARGET_NODE: show\nfrom app.db import session\ndef show():\n    return 2\n```\n"
    assert apply(project, reply).returncode == 0
    assert (project / "app" / "v.py").read_text() == (
        "import sys\n\nfrom app import models\nfrom app.db import session\nfrom .util import slug\n\n\n"
        "def show():\n    return 2\n"
    )


def test_a_file_without_isort_sections_gets_the_import_after_its_last(project: Path) -> None:
    # `click` and `os` in one block: not grouped the isort way, so nothing is guessed.
    (project / "app" / "v.py").write_text("import click\nimport os\n\n\ndef show():\n    return 1\n")
    reply = "```python\n# FILE: app/v.py\n# TARGET_NODE: show\nimport json\ndef show():\n    return 2\n```\n"
    assert apply(project, reply).returncode == 0
    assert (project / "app" / "v.py").read_text() == "import click\nimport os\nimport json\n\n\ndef show():\n    return 2\n"


TS_REPLY = (
    "```ts\n// FILE: {file}\n// TARGET_NODE: function A\n"
    'import lodash from "lodash";\nimport {{ other }} from "../other";\n'
    "export function A() {{\n  return 2;\n}}\n```\n"
)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (  # packages, then relative paths: a new package joins the packages
            'import React from "react";\nimport { helper } from "./helper";\n',
            'import React from "react";\nimport lodash from "lodash";\nimport { helper } from "./helper";\n'
            'import { other } from "../other";\n',
        ),
        (  # only relative paths: a package goes before them
            'import { helper } from "./helper";\n',
            'import lodash from "lodash";\nimport { helper } from "./helper";\nimport { other } from "../other";\n',
        ),
        (  # a package after a relative path: the file keeps no such order, so after the last import
            'import { helper } from "./helper";\nimport React from "react";\n',
            'import { helper } from "./helper";\nimport React from "react";\nimport lodash from "lodash";\n'
            'import { other } from "../other";\n',
        ),
    ],
)
def test_ts_packages_before_relative_paths_where_the_file_keeps_them_so(
    project: Path, before: str, after: str
) -> None:
    body = "\nexport function A() {\n  return 1;\n}\n"
    (project / "a.ts").write_text(before + body)
    assert apply(project, TS_REPLY.format(file="a.ts")).returncode == 0
    assert (project / "a.ts").read_text() == after + body.replace("return 1", "return 2")
