"""kopipasta as people have it: installed from the checkout into a venv of its own, not editable.

Timing the checkout in place flatters every ratio. An editable install runs a
path finder from a `.pth` file when `site` starts, and that finder imports
pathlib, re, enum, urllib.parse, fnmatch and contextlib in *every* process of
that venv: `python -c "import tree_sitter"` then pays for modules kopipasta
would have imported anyway, so the floor rises and our quotient falls. Measured
on the bench machine: `python -c pass` 23 ms in the editable venv, 10.5 ms in a
plain one; a one-block apply went from 3.1× to 3.9× `import tree_sitter`.

So the bench makes a venv without pip, installs the checkout into it the way
`pip install .` does (no dependencies), and reaches the dependencies through a
`.pth` line naming this interpreter's own site-packages folders: a folder named
in a `.pth` file is put on `sys.path`, but the `.pth` files inside it are not
run, so the editable finder stays out. Every tool the bench times (ours, the
import floors, the bare splice) runs on that venv's interpreter.
"""

from __future__ import annotations

import site
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent


def installed_python(folder: Path, checkout: Path = CHECKOUT) -> str:
    """A venv in `folder` holding `checkout` installed as a package; its interpreter's path."""
    venv.create(folder, with_pip=False, symlinks=True)
    python = folder / "bin" / "python"
    site_packages = Path(
        sysconfig.get_path("purelib", vars={"base": str(folder), "platbase": str(folder)})
    )
    ours = {str(Path(path).resolve()) for path in site.getsitepackages()}
    (site_packages / "_bench_dependencies.pth").write_text("".join(f"{path}\n" for path in sorted(ours)))
    installing = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(checkout)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    if installing.returncode != 0:
        raise SystemExit(
            f"cannot install {checkout} into the bench's venv (pip 22.3 or later and the package index, or pip's "
            f"cache, are needed; --in-place times this interpreter's kopipasta instead):\n{installing.stderr[-2000:]}"
        )
    # The installed copy must be what runs, not the checkout's folder by accident.
    where = subprocess.run(
        [str(python), "-c", "import kopipasta, sys; sys.stdout.write(kopipasta.__file__)"],
        capture_output=True, text=True, check=True, cwd=folder,
    ).stdout
    if not Path(where).resolve().is_relative_to(folder.resolve()):
        raise SystemExit(f"the bench venv imports kopipasta from {where}, not from its own install")
    return str(python)
