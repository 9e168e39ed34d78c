"""New lines in a file that mixes CRLF and LF: each new line takes the style of what it replaces.

The pipeline writes new lines in the file's style (that of its first line).
In a mixed file that would turn a LF region CRLF; so after the edit, lines
that are unchanged get back their own ending, and changed or inserted lines
take the ending most common among the lines they replace (for a pure
insertion, that of the line above).
"""

from __future__ import annotations

# Above this many changed lines, difflib's matching costs too much: the changed
# region takes the ending most common in the region it replaces, as a whole.
_MATCH_LIMIT = 5000


def is_mixed(data: bytes) -> bool:
    crlf = data.count(b"\r\n")
    return 0 < crlf < data.count(b"\n")


def _lines(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _body(line: bytes) -> bytes:
    if line.endswith(b"\r\n"):
        return line[:-2]
    return line[:-1] if line.endswith(b"\n") else line


def _ending(line: bytes) -> bytes:
    return line[len(_body(line)) :]


def _majority(lines: list[bytes], fallback: bytes) -> bytes:
    crlf = sum(1 for line in lines if line.endswith(b"\r\n"))
    lf = sum(1 for line in lines if line.endswith(b"\n")) - crlf
    if crlf == lf == 0:
        return fallback
    return b"\r\n" if crlf > lf else b"\n"


def _restyle(line: bytes, ending: bytes) -> bytes:
    return _body(line) + ending if _ending(line) else line


def keep_styles(before: bytes, after: bytes) -> bytes:
    """`after`, with each line's ending chosen as the module says; `before` must be mixed."""
    old, new = _lines(before), _lines(after)
    old_bodies, new_bodies = [_body(x) for x in old], [_body(x) for x in new]
    prefix = 0
    while prefix < min(len(old), len(new)) and old_bodies[prefix] == new_bodies[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(old), len(new)) - prefix
        and old_bodies[len(old) - 1 - suffix] == new_bodies[len(new) - 1 - suffix]
    ):
        suffix += 1
    out = old[:prefix]
    old_mid, new_mid = old[prefix : len(old) - suffix], new[prefix : len(new) - suffix]
    above = old[prefix - 1] if prefix else (old[0] if old else b"\n")
    if len(old_mid) + len(new_mid) > _MATCH_LIMIT:
        ending = _majority(old_mid, _ending(above) or b"\n")
        out.extend(_restyle(line, ending) for line in new_mid)
    else:
        import difflib

        matcher = difflib.SequenceMatcher(
            None, [_body(x) for x in old_mid], [_body(x) for x in new_mid], autojunk=False
        )
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                out.extend(old_mid[i1:i2])
                continue
            near = old_mid[i1 - 1] if i1 > 0 else above
            ending = _majority(old_mid[i1:i2], _ending(near) or b"\n")
            out.extend(_restyle(line, ending) for line in new_mid[j1:j2])
    # The unchanged tail keeps its own endings; the last line's ending comes from `after`.
    tail = old[len(old) - suffix :]
    if tail and not _ending(new[-1]):
        tail[-1] = _body(tail[-1])
    elif tail and not _ending(tail[-1]):
        tail[-1] = tail[-1] + _ending(new[-1])
    out.extend(tail)
    return b"".join(out)
