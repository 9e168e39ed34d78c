"""Imports a payload brings (PROTOCOL.md §4b): split off the payload, merged into the file's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from kopipasta.code.imports.import_merge import merge_imports, plan_imports
from kopipasta.code.imports.imports import TextEdit, apply_edits, split_imports
from kopipasta.engine import apply_reply
from kopipasta.errors import PatchError
from kopipasta.model import Status
from kopipasta.syntax.languages import JAVASCRIPT, PYTHON, TSX, TYPESCRIPT, LanguageSpec, parse


def merge(spec: LanguageSpec, source: str, *imports: str, newline: str = "\n") -> str:
    data = source.encode("utf-8")
    return merge_imports(spec, data, parse(spec, data), list(imports), newline).decode("utf-8")


# --- split_imports -------------------------------------------------------------------


def test_payload_without_imports_is_unchanged() -> None:
    payload = "def f():\n    import os\n    return os.sep\n"
    assert split_imports(PYTHON, payload) == ([], payload)


def test_python_import_forms_are_split_off() -> None:
    payload = (
        "from __future__ import annotations\n"
        "import os, sys as system\n"
        "from .models import (\n    User,\n    Group,\n)\n"
        "\n\n"
        "def f():\n    pass\n"
    )
    imports, rest = split_imports(PYTHON, payload)
    assert imports == [
        "from __future__ import annotations",
        "import os, sys as system",
        "from .models import (\n    User,\n    Group,\n)",
    ]
    assert rest == "def f():\n    pass\n"


def test_imports_separated_by_blank_lines_are_all_imports() -> None:
    imports, rest = split_imports(PYTHON, "import os\n\nimport sys\n\n\nclass A:\n    pass\n")
    assert imports == ["import os", "import sys"]
    assert rest == "class A:\n    pass\n"


def test_comment_directly_above_definition_stays_with_it() -> None:
    payload = "import os\n# about the imports\n\n# Reads the config.\n# Twice.\ndef f():\n    pass\n"
    imports, rest = split_imports(PYTHON, payload)
    assert imports == ["import os"]
    assert rest == "# Reads the config.\n# Twice.\ndef f():\n    pass\n"


def test_comment_right_under_the_imports_and_above_the_definition_is_the_definitions() -> None:
    imports, rest = split_imports(PYTHON, "import os\n# Reads the config.\ndef f():\n    pass\n")
    assert imports == ["import os"]
    assert rest == "# Reads the config.\ndef f():\n    pass\n"


def test_indented_payload_is_split_and_keeps_its_indentation() -> None:
    imports, rest = split_imports(PYTHON, "    from typing import Optional\n\n    def f(self):\n        pass\n")
    assert imports == ["from typing import Optional"]
    assert rest == "    def f(self):\n        pass\n"


def test_python_method_after_column_0_import_is_split() -> None:
    imports, rest = split_imports(PYTHON, "import hmac\n\n    def check(self):\n        return hmac\n")
    assert imports == ["import hmac"]
    assert rest == "    def check(self):\n        return hmac\n"


def test_only_imports_leaves_an_empty_rest() -> None:
    assert split_imports(PYTHON, "import os\n# nothing else\n") == (["import os"], "")


def test_js_multiline_and_type_imports_are_split_off() -> None:
    payload = 'import {\n  a,\n  b\n} from "x";\nimport type { User } from "./types";\n\nexport function f() {}\n'
    imports, rest = split_imports(TYPESCRIPT, payload)
    assert imports == ['import {\n  a,\n  b\n} from "x";', 'import type { User } from "./types";']
    assert rest == "export function f() {}\n"


def test_js_class_member_payload_is_split() -> None:
    payload = 'import { format } from "date-fns";\n\nrender() {\n  return format(this.date, "P");\n}\n'
    imports, rest = split_imports(TSX, payload)
    assert imports == ['import { format } from "date-fns";']
    assert rest.startswith("render() {")


def test_code_on_an_import_line_is_not_split() -> None:
    payload = 'import x from "x"; export function f() {}\n'
    assert split_imports(JAVASCRIPT, payload) == ([], payload)


# --- merge_imports: Python -----------------------------------------------------------

PY_FILE = '"""Doc."""\n\nimport os\nfrom typing import Any\n\n\ndef f():\n    pass\n'


def test_import_already_present_is_dropped() -> None:
    assert merge(PYTHON, PY_FILE, "import os", "from  typing  import Any") == PY_FILE


def test_name_joins_single_line_statement() -> None:
    assert "from typing import Any, Optional\n" in merge(PYTHON, PY_FILE, "from typing import Optional, Any")


def test_alias_must_match_to_count_as_present() -> None:
    out = merge(PYTHON, PY_FILE, "from typing import Any as A")
    assert "from typing import Any, Any as A\n" in out


def test_new_statement_joins_its_sorted_section() -> None:
    # The file's one block is the standard library, sorted: new statements take their sorted places (issue 21).
    out = merge(PYTHON, PY_FILE, "from collections import Counter", "import sys")
    assert out.startswith('"""Doc."""\n\nimport os\nimport sys\nfrom collections import Counter\nfrom typing import Any\n\n\ndef f')


def test_new_statement_goes_after_the_last_import_when_the_file_keeps_no_sections() -> None:
    source = "import os\nimport click\n\n\ndef f():\n    pass\n"  # stdlib and third party in one block
    assert merge(PYTHON, source, "import sys").startswith("import os\nimport click\nimport sys\n\n\ndef f")


def test_plain_import_is_narrowed_to_missing_modules() -> None:
    assert "import os\nimport sys\nfrom typing import Any\n" in merge(PYTHON, PY_FILE, "import os, sys")


def test_parenthesized_statement_keeps_its_layout() -> None:
    source = "from typing import (\n    Any,\n    Dict,\n)\n\nx = 1\n"
    out = merge(PYTHON, source, "from typing import Optional, List")
    assert out == "from typing import (\n    Any,\n    Dict,\n    Optional,\n    List,\n)\n\nx = 1\n"


def test_parenthesized_statement_without_trailing_comma_keeps_its_comment() -> None:
    source = "from typing import (\n    Any,\n    Dict  # for the cache\n)\n"
    out = merge(PYTHON, source, "from typing import Optional")
    assert out == "from typing import (\n    Any,\n    Dict,  # for the cache\n    Optional\n)\n"


def test_wildcard_statement_is_not_merged_into() -> None:
    out = merge(PYTHON, "from os.path import *\n", "from os.path import join")
    assert out == "from os.path import *\nfrom os.path import join\n"


def test_type_checking_import_counts_as_present() -> None:
    source = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from app.models import User\n"
    assert merge(PYTHON, source, "from app.models import User") == source


def test_future_import_goes_before_the_other_imports() -> None:
    out = merge(PYTHON, PY_FILE, "from __future__ import annotations")
    assert out.startswith('"""Doc."""\n\nfrom __future__ import annotations\n\nimport os\n')


def test_future_name_joins_the_future_statement() -> None:
    source = "from __future__ import annotations\n\nimport os\n"
    assert merge(PYTHON, source, "from __future__ import division").startswith(
        "from __future__ import annotations, division\n"
    )


def test_file_without_imports_gets_them_after_docstring() -> None:
    out = merge(PYTHON, '"""Doc."""\n\n\ndef f():\n    pass\n', "import os")
    assert out == '"""Doc."""\n\nimport os\n\n\ndef f():\n    pass\n'


def test_file_without_imports_keeps_shebang_and_coding_first() -> None:
    source = "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\ndef main():\n    pass\n"
    out = merge(PYTHON, source, "import sys")
    assert out == "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n\nimport sys\n\ndef main():\n    pass\n"


def test_file_without_header_gets_imports_at_the_top() -> None:
    out = merge(PYTHON, "# Helper.\ndef f():\n    pass\n", "import os")
    assert out == "import os\n\n\n# Helper.\ndef f():\n    pass\n"


def test_future_and_others_into_a_file_without_imports() -> None:
    out = merge(PYTHON, '"""Doc."""\n\nX = 1\n', "import os", "from __future__ import annotations")
    assert out == '"""Doc."""\n\nfrom __future__ import annotations\n\nimport os\n\nX = 1\n'


def test_crlf_file_gets_crlf_lines() -> None:
    source = "from typing import (\r\n    Any,\r\n)\r\nimport os\r\n"
    out = merge(PYTHON, source, "from typing import Optional", "import sys", newline="\r\n")
    assert out == "from typing import (\r\n    Any,\r\n    Optional,\r\n)\r\nimport os\r\nimport sys\r\n"


def test_same_import_twice_in_a_payload_is_added_once() -> None:
    out = merge(PYTHON, PY_FILE, "import sys", "import sys", "from typing import Optional", "from typing import Optional")
    assert out.count("import sys") == 1
    assert "from typing import Any, Optional\n" in out


def test_plan_counts_added_and_present() -> None:
    data = PY_FILE.encode()
    plan = plan_imports(PYTHON, data, parse(PYTHON, data), ["import os", "import sys"], "\n")
    assert (plan.added, plan.present, plan.note) == (1, 1, "+1 import, 1 already present")
    plan = plan_imports(PYTHON, data, parse(PYTHON, data), ["import os"], "\n")
    assert (plan.edits, plan.note) == ((), "import already present")


# --- merge_imports: JS / TS ----------------------------------------------------------

TSX_FILE = 'import React, { useState } from "react";\nimport { api } from "./api";\n\nexport function A() {}\n'


def test_js_named_import_joins_the_braces() -> None:
    out = merge(TSX, TSX_FILE, 'import { useEffect, useState } from "react";')
    assert out.startswith('import React, { useState, useEffect } from "react";\n')


def test_js_present_default_and_named_are_dropped() -> None:
    assert merge(TSX, TSX_FILE, "import React, {useState} from 'react'") == TSX_FILE


def test_js_multiline_braces_keep_layout() -> None:
    source = 'import {\n  a,\n  b,\n} from "x";\n'
    assert merge(TYPESCRIPT, source, 'import { c } from "x";') == 'import {\n  a,\n  b,\n  c,\n} from "x";\n'


def test_js_new_statement_takes_the_file_quotes_and_semicolons() -> None:
    source = "import { api } from './api'\n\nexport const x = 1\n"
    out = merge(JAVASCRIPT, source, 'import dayjs from "dayjs";')
    # A package goes before the relative paths (issue 21), in the file's quotes, without `;`.
    assert out == "import dayjs from 'dayjs'\nimport { api } from './api'\n\nexport const x = 1\n"


def test_js_missing_default_becomes_its_own_narrowed_statement() -> None:
    source = 'import { useState } from "react";\n'
    out = merge(TSX, source, 'import React, { useState } from "react";')
    assert out == 'import { useState } from "react";\nimport React from "react";\n'


def test_ts_type_import_is_satisfied_by_a_value_import() -> None:
    source = 'import { User } from "./types";\n'
    assert merge(TYPESCRIPT, source, 'import type { User } from "./types";') == source


def test_ts_value_import_is_not_satisfied_by_a_type_import() -> None:
    source = 'import type { User } from "./types";\n'
    out = merge(TYPESCRIPT, source, 'import { User } from "./types";')
    assert out == 'import type { User } from "./types";\nimport { User } from "./types";\n'


def test_ts_type_names_join_only_a_type_import() -> None:
    source = 'import type { User } from "./types";\nimport { api } from "./api";\n'
    out = merge(TYPESCRIPT, source, 'import type { Group } from "./types";')
    assert out.startswith('import type { User, Group } from "./types";\n')


def test_side_effect_import_present_when_module_imported() -> None:
    source = 'import "./styles.css";\nimport { x } from "./x";\n'
    assert merge(JAVASCRIPT, source, "import './styles.css';", 'import "./x";') == source


def test_js_directive_and_license_header_stay_first() -> None:
    source = '// Copyright ACME.\n\n"use client";\nexport function A() {}\n'
    out = merge(JAVASCRIPT, source, 'import { useRef } from "react";')
    assert out == '// Copyright ACME.\n\n"use client";\n\nimport { useRef } from "react";\n\nexport function A() {}\n'


def test_js_doc_comment_of_first_function_is_not_a_header() -> None:
    source = "/** The app. */\nexport function App() {}\n"
    out = merge(JAVASCRIPT, source, 'import { useRef } from "react";')
    assert out == 'import { useRef } from "react";\n\n/** The app. */\nexport function App() {}\n'


# --- apply_edits ---------------------------------------------------------------------


def test_apply_edits_spans_all_edits_in_one_change() -> None:
    data, change = apply_edits(b"abcdef", [TextEdit(4, 5, b"XY"), TextEdit(1, 1, b"--")])
    assert data == b"a--bcdXYf"
    assert change is not None and (change.start, change.old_end, change.new_end) == (1, 5, 8)


def test_apply_edits_refuses_overlaps() -> None:
    with pytest.raises(PatchError):
        apply_edits(b"abcdef", [TextEdit(1, 4, b""), TextEdit(3, 5, b"")])


# --- through the engine --------------------------------------------------------------


def apply(tmp_path: Path, name: str, source: str, target: str, payload: str) -> tuple[Status, str, str]:
    (tmp_path / name).write_text(source, encoding="utf-8")
    comment = "#" if name.endswith(".py") else "//"
    reply = f"```\n{comment} FILE: {name}\n{comment} TARGET_NODE: {target}\n{payload}```\n"
    (outcome,) = apply_reply(reply, tmp_path).outcomes
    return outcome.status, outcome.message, (tmp_path / name).read_text(encoding="utf-8")


def test_method_import_never_lands_in_the_class(tmp_path: Path) -> None:
    source = "import os\n\n\nclass A:\n    def f(self):\n        return 1\n"
    payload = "import sys\n\ndef f(self):\n    return sys.maxsize\n"
    status, note, text = apply(tmp_path, "m.py", source, "method A.f", payload)
    assert status is Status.APPLIED and note == "+1 import"
    assert text == "import os\nimport sys\n\n\nclass A:\n    def f(self):\n        return sys.maxsize\n"
    # Applying the same reply again finds everything in place.
    status, note, again = apply(tmp_path, "m.py", text, "method A.f", payload)
    assert status is Status.UNCHANGED and again == text


def test_rename_note_and_import_note_together(tmp_path: Path) -> None:
    source = "import os\n\n\ndef f():\n    return 1\n"
    status, note, _ = apply(tmp_path, "m.py", source, "function f", "import sys\n\ndef g():\n    return 2\n")
    assert status is Status.APPLIED
    assert note == "renamed 'f' to 'g'; +1 import"


def test_broken_definition_after_imports_still_fails_the_check(tmp_path: Path) -> None:
    source = "import os\n\n\ndef f():\n    return 1\n"
    status, message, text = apply(tmp_path, "m.py", source, "function f", "import sys\n\ndef f(:\n    return 2\n")
    assert status is Status.FAILED and "would break the syntax" in message
    assert text == source


def test_method_in_its_class_with_imports_is_read_by_definition(tmp_path: Path) -> None:
    # The class around the target restates more than it (§4 + §6): only `get` changes, the import merges.
    source = "import os\n\n\nclass Repo:\n    def get(self):\n        return 1\n"
    payload = "import sys\n\nclass Repo:\n    def get(self):\n        return 2\n"
    status, _, text = apply(tmp_path, "m.py", source, "method Repo.get", payload)
    assert status is Status.APPLIED
    assert text == "import os\nimport sys\n\n\nclass Repo:\n    def get(self):\n        return 2\n"
