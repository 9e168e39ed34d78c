"""Where `prompt` records what it showed the model, and whether a project has that record.

The record is `.kopipasta/prompted.json` under the project root; `staleness.py`
reads it, checks targets against it and keeps it current. Without the record
there is nothing to check and nothing to keep (staleness reads an absent
record as empty), so the engine asks `recorded` first and imports staleness
only for a project a prompt has recorded (issue 9: a plain apply does not pay
for it).
"""

from __future__ import annotations

import os
from pathlib import Path

STATE_DIR = ".kopipasta"
RECORD = "prompted.json"


def recorded(root: Path) -> bool:
    """False only when the record certainly does not exist; anything else is staleness's to read."""
    try:
        os.stat(os.path.join(root, STATE_DIR, RECORD), follow_symlinks=False)
    except FileNotFoundError:
        return False  # staleness would read no record either: its folder or the file is missing
    except OSError:
        return True  # not a plain absence: staleness reads it (and decides) as before
    return True
