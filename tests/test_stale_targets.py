"""Issue 11, item 7: a block whose target the user changed since the prompt fails, unless --force."""

from __future__ import annotations

from pathlib import Path

from cli_process import kopipasta

AUTH = '''\
import hmac


def make_token(user):
    return f"{user}:token"


def verify_token(token, secret):
    """Check a token."""
    if not token:
        return False
    user, _, signature = token.partition(":")
    expected = hmac.new(secret, user.encode(), "sha256").hexdigest()
    return hmac.compare_digest(signature, expected)
'''

VERIFY_REPLY = '''\
```python
# FILE: auth.py
# TARGET_NODE: function verify_token
def verify_token(token, secret):
    """Check a token, in constant time."""
    if not token:
        return False
    user, _, signature = token.partition(":")
    expected = hmac.new(secret, user.encode(), "sha256").hexdigest()
    return hmac.compare_digest(signature, expected)
```
'''

MAKE_REPLY = '''\
```python
# FILE: auth.py
# TARGET_NODE: function make_token
def make_token(user):
    return f"{user}:v2"
```
'''

USER_EDIT = AUTH.replace("    if not token:\n", "    if not token or \":\" not in token:\n")


def _prompted(tmp_path: Path) -> Path:
    (tmp_path / "auth.py").write_text(AUTH)
    (tmp_path / "verify.md").write_text(VERIFY_REPLY)
    (tmp_path / "make.md").write_text(MAKE_REPLY)
    shown = kopipasta("prompt", "auth.py", "--stdout", "-t", "harden it", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    return tmp_path


def test_a_target_edited_since_the_prompt_fails_and_keeps_the_edit(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(USER_EDIT)
    result = kopipasta("apply", "verify.md", cwd=root)
    assert result.returncode == 1
    assert (
        "❌ `verify_token` changed since the prompt (lines 8–14): applying would drop your edit"
        " — re-prompt, or `--force`"
    ) in result.stdout
    assert (root / "auth.py").read_text() == USER_EDIT


def test_force_applies_a_stale_target(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(USER_EDIT)
    result = kopipasta("apply", "verify.md", "--force", cwd=root)
    assert result.returncode == 0
    assert "in constant time" in (root / "auth.py").read_text()


def test_an_edit_elsewhere_in_the_file_does_not_matter(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(USER_EDIT)
    result = kopipasta("apply", "make.md", cwd=root)
    assert result.returncode == 0, result.stdout
    assert (root / "auth.py").read_text() == USER_EDIT.replace(':token"', ':v2"')


def test_a_whole_file_block_on_a_changed_file_is_stale(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(USER_EDIT)
    # The whole file as the model last saw it, with one change (the reading says "whole file").
    reply = "```python\n# FILE: auth.py\n" + AUTH.replace(':token"', ':v2"') + "```\n"
    result = kopipasta("apply", "-", cwd=root, stdin=reply)
    assert result.returncode == 1
    assert "auth.py changed since the prompt: the whole-file block would drop your edit" in result.stdout
    assert (root / "auth.py").read_text() == USER_EDIT


def test_without_a_prompt_nothing_is_checked(tmp_path: Path) -> None:
    (tmp_path / "auth.py").write_text(USER_EDIT)
    result = kopipasta("apply", "-", cwd=tmp_path, stdin=VERIFY_REPLY)
    assert result.returncode == 0


def test_our_own_applies_and_undo_are_not_the_users_edits(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    assert kopipasta("apply", "verify.md", cwd=root).returncode == 0
    # A second reply on the definition the first one changed: the model knows that version.
    second = VERIFY_REPLY.replace("in constant time", "in constant time, twice")
    assert kopipasta("apply", "-", cwd=root, stdin=second).returncode == 0
    assert kopipasta("undo", cwd=root).returncode == 0
    assert kopipasta("undo", cwd=root).returncode == 0
    assert (root / "auth.py").read_text() == AUTH
    again = kopipasta("apply", "verify.md", cwd=root)
    assert again.returncode == 0, again.stdout


def test_a_users_edit_stays_stale_after_an_apply_elsewhere(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(USER_EDIT)
    assert kopipasta("apply", "make.md", cwd=root).returncode == 0
    result = kopipasta("apply", "verify.md", cwd=root)
    assert result.returncode == 1
    assert "`verify_token` changed since the prompt" in result.stdout


# Issue 21, item 5: the record must not change how a file block is read.
MAKE_FRAGMENT = '''\
Here is the updated function:

```python
# FILE: auth.py
def make_token(user):
    return f"{user}:v2"
```
'''


def test_a_fragment_of_an_unchanged_definition_applies_beside_an_edit(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(USER_EDIT)
    result = kopipasta("apply", "-", cwd=root, stdin=MAKE_FRAGMENT)
    assert result.returncode == 0, result.stdout
    assert "inferred fragment" in result.stdout
    assert (root / "auth.py").read_text() == USER_EDIT.replace(':token"', ':v2"')


def test_a_fragment_of_a_changed_definition_is_stale_and_named(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(USER_EDIT)
    fragment = VERIFY_REPLY.replace("# TARGET_NODE: function verify_token\n", "")
    result = kopipasta("apply", "-", cwd=root, stdin=fragment)
    assert result.returncode == 1
    assert (
        "❌ `verify_token` changed since the prompt (lines 8–14): the inferred fragment block would drop your edit"
        " — re-prompt, or `--force`"
    ) in result.stdout
    assert "whole-file" not in result.stdout
    assert (root / "auth.py").read_text() == USER_EDIT


def test_an_old_record_does_not_turn_a_fragment_into_a_whole_file(tmp_path: Path) -> None:
    """The same fragment reads the same with and without a record from an earlier session."""
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(AUTH.replace("import hmac\n", "import hmac\nimport os\n"))
    with_record = kopipasta("apply", "-", cwd=root, stdin=MAKE_FRAGMENT)
    assert with_record.returncode == 0, with_record.stdout
    assert "inferred fragment" in with_record.stdout and "whole-file" not in with_record.stdout


def test_the_correction_for_a_stale_target_carries_its_current_code(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(USER_EDIT)
    result = kopipasta("apply", "verify.md", "--feedback", cwd=root)
    assert result.returncode == 1
    message = result.stdout
    assert "- block 1 (FILE: auth.py, TARGET_NODE: function verify_token): `verify_token` changed since the prompt (lines 8–14): applying would drop your edit\n" in message
    current = USER_EDIT[USER_EDIT.index("def verify_token") :].rstrip("\n")
    assert (
        "The user changed this code since you saw it; write your blocks on it, as it is now:\n\n"
        f"auth.py, function verify_token:\n```python\n{current}\n```\n"
    ) in message
    assert "--force" not in message and "def make_token" not in message
    # The model has the current code now: a reply written on it is not stale.
    again = kopipasta("apply", "verify.md", cwd=root)
    assert again.returncode == 0, again.stdout


def test_a_whole_file_block_that_leaves_the_users_file_as_it_is_is_not_stale(tmp_path: Path) -> None:
    root = _prompted(tmp_path)
    (root / "auth.py").write_text(USER_EDIT)
    reply = "```python\n# FILE: auth.py\n" + USER_EDIT + "```\n"
    result = kopipasta("apply", "-", cwd=root, stdin=reply)
    assert result.returncode == 0, result.stdout
    assert "unchanged" in result.stdout
    assert (root / "auth.py").read_text() == USER_EDIT


def test_files_put_back_as_an_earlier_prompt_showed_them_are_not_stale(tmp_path: Path) -> None:
    """prompt, apply, prompt again, then `git checkout .`: the files are as the first prompt
    showed them, so that prompt's reply applies (a new prompt adds to what is known)."""
    _prompted(tmp_path)
    assert kopipasta("apply", "verify.md", cwd=tmp_path).returncode == 0
    again = kopipasta("prompt", "auth.py", "--stdout", "-t", "harden it", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    (tmp_path / "auth.py").write_text(AUTH)  # what `git checkout .` does
    result = kopipasta("apply", "verify.md", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert "changed since the prompt" not in result.stdout
    assert '"""Check a token, in constant time."""' in (tmp_path / "auth.py").read_text()


def test_a_users_edit_is_still_stale_after_a_second_prompt_of_another_version(tmp_path: Path) -> None:
    _prompted(tmp_path)
    assert kopipasta("apply", "verify.md", cwd=tmp_path).returncode == 0
    assert kopipasta("prompt", "auth.py", "--stdout", "-t", "x", cwd=tmp_path).returncode == 0
    (tmp_path / "auth.py").write_text(USER_EDIT)
    result = kopipasta("apply", "verify.md", cwd=tmp_path)
    assert result.returncode == 1
    assert "❌ `verify_token` changed since the prompt (lines 8–14): applying would drop your edit" in result.stdout
    assert (tmp_path / "auth.py").read_text() == USER_EDIT
