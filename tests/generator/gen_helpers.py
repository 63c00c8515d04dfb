"""Helpers of the generator tests: a throw-away copy of a small project.

``make_project(dest)`` copies generate.py, the generator package and the
fixture templates/overrides/spec into ``dest``, so tests never touch the
real generated/ tree. ``Proj.run()`` calls the CLI in-process (fast);
``Proj.run_subprocess()`` runs generate.py with a given Python.
(A uniquely named module, not conftest, so imports cannot pick up another
directory's conftest.py.)
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.cli import main  # noqa: E402


@dataclass
class Result:
    rc: int
    out: str
    err: str


class Proj:
    def __init__(self, path: Path):
        self.path = path
        self.spec = path / "spec.yaml"
        self.outdir = path / "generated"
        self.arch_dir = self.outdir / "arch" / "tsar"

    # -- running -----------------------------------------------------------
    def run(self, *args: str) -> Result:
        out, err = io.StringIO(), io.StringIO()
        old = os.getcwd()
        os.chdir(self.path)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = main(list(args) if args else ["spec.yaml"], root=self.path)
        finally:
            os.chdir(old)
        return Result(rc, out.getvalue(), err.getvalue())

    def run_subprocess(self, *args: str, python: str = sys.executable) -> Result:
        p = subprocess.run([python, str(self.path / "generate.py"), *args], cwd=self.path,
                           capture_output=True, text=True, timeout=60)
        return Result(p.returncode, p.stdout, p.stderr)

    # -- editing -----------------------------------------------------------
    def edit(self, old: str, new: str, path: Path | None = None) -> None:
        """Replace exactly one occurrence of ``old`` in the spec (or ``path``)."""
        path = path or self.spec
        text = path.read_text()
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
        path.write_text(text.replace(old, new))

    def line_of(self, needle: str | tuple[str, int], path: Path | None = None) -> int:
        """Line number of the first (or, for (needle, n), the n-th) line containing needle."""
        needle, nth = needle if isinstance(needle, tuple) else (needle, 1)
        for n, line in enumerate((path or self.spec).read_text().splitlines(), 1):
            if needle in line:
                nth -= 1
                if nth == 0:
                    return n
        raise AssertionError(f"{needle!r} not in spec")

    def write(self, rel: str, text: str) -> Path:
        p = self.path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        return p

    # -- output ------------------------------------------------------------
    def files(self, root: Path | None = None) -> dict[str, bytes]:
        root = root or self.outdir
        return {p.relative_to(root).as_posix(): p.read_bytes()
                for p in sorted(root.rglob("*")) if p.is_file()}

    def stats(self) -> dict[str, tuple[int, int]]:
        return {p.relative_to(self.outdir).as_posix(): (p.stat().st_mtime_ns, p.stat().st_ino)
                for p in sorted(self.outdir.rglob("*")) if p.is_file()}

    def out(self, rel: str) -> str:
        return (self.arch_dir / rel).read_text()


def make_project(dest: Path) -> Proj:
    shutil.copytree(FIXTURES / "project", dest)
    shutil.copy2(ROOT / "generate.py", dest / "generate.py")
    shutil.copytree(ROOT / "generator", dest / "generator",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return Proj(dest)
