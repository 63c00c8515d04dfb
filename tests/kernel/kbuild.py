"""Drive the real Linux 6.1 tree with a generated arch directory.

The top-level Makefile owns unpacking the kernel and making each spec's own
hard-linked kernel tree, build/ktree/<spec stem>/, with arch/<name> linked to
that spec's generated output (make kernel-tree SPEC=...); these helpers run
kbuild there, in a per-spec output directory under build/tests/.
"""
import os
import pathlib
import subprocess
import sys


ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from generator.spec import load_spec as _load  # noqa: E402

KSRC0 = ROOT / "build" / "linux-source-6.1"


def ktree(spec_path):
    """The kernel tree of one spec (see the Makefile's KSRC)."""
    return ROOT / "build" / "ktree" / pathlib.Path(spec_path).stem
SPECS = {
    "tsar": ROOT / "arch-spec.yaml",
    "tsar-2g2g": ROOT / "tests" / "specs" / "tsar-2g2g.yaml",
}
# Specs of other architectures (guest_kernel accepts these keys too; the
# TSAR boot tests iterate over SPECS only). qmips: issue 9, booted in QEMU.
OTHER_SPECS = {
    "qmips": ROOT / "specs" / "qmips.yaml",
}


def load_spec(path):
    """The spec as the generator sees it: defaults filled, sizes in bytes."""
    return _load(path).data


def run(cmd, cwd=ROOT, timeout=1800, check=True, env=None):
    """Run a command, returning CompletedProcess with text output."""
    proc = subprocess.run(cmd, cwd=cwd, timeout=timeout, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          env=env)
    if check and proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} failed "
                             f"({proc.returncode}):\n{proc.stdout[-6000:]}")
    return proc


class KernelTree:
    """The kernel tree prepared for one spec, with its own O= directory."""

    def __init__(self, key):
        self.spec_path = SPECS[key]
        self.spec = load_spec(self.spec_path)
        self.arch = self.spec["arch"]["name"]
        self.out = ROOT / "build" / "tests" / key
        self.out.mkdir(parents=True, exist_ok=True)
        rel = os.path.relpath(self.spec_path, ROOT)
        run(["make", "--no-print-directory", "kernel-tree", f"SPEC={rel}"])

    def make(self, *targets, check=True, extra=()):
        jobs = str(os.cpu_count() or 2)
        cmd = ["make", "-C", str(ktree(self.spec_path)), f"O={self.out}", f"ARCH={self.arch}",
               f"-j{jobs}", *extra, *targets]
        return run(cmd, check=check)
