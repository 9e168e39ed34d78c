"""Issue 18, item 8: an OS error met by a text patch is a one-line failure naming the
file and the reason, as for the other blocks — never "Internal error … this is a bug"."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from cli_process import kopipasta
from reliability import environment

LONG = "n" * 256 + ".py"

FORMS = {
    "delete": "*** Begin Patch\n*** Delete File: {path}\n*** End Patch\n",
    "update": "*** Begin Patch\n*** Update File: {path}\n@@\n-x = 1\n+x = 2\n*** End Patch\n",
    "add": "*** Begin Patch\n*** Add File: {path}\n+x = 2\n*** End Patch\n",
    "diff": "```diff\n--- a/{path}\n+++ b/{path}\n@@ -1 +1 @@\n-x = 1\n+x = 2\n```\n",
}
WHY = {
    "sock.py": "❌ Cannot read sock.py: it is not a regular file (a socket or a FIFO) — check the path",
    "a.py/x.py": "❌ Cannot read a.py/x.py: a.py is a file, not a folder — check the path and its permissions",
    LONG: f"❌ Cannot open {LONG}: the name is too long — use a shorter path",
}


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("path", sorted(WHY))
def test_text_patch_os_errors_name_the_file_and_the_reason(tmp_path: Path, form: str, path: str) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "sock.py"))
        result = kopipasta("apply", "--allow-delete", "-", cwd=tmp_path, stdin=FORMS[form].format(path=path),
                           env=environment())
    finally:
        server.close()
    assert result.returncode == 1, result.stdout + result.stderr
    assert WHY[path] in result.stdout.splitlines(), result.stdout
    assert "Internal error" not in result.stdout
    assert (tmp_path / "a.py").read_text() == "x = 1\n"
