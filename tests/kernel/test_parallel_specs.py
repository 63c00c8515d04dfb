"""Two specs with the same arch name get their own kernel trees, so they can
be generated, configured and built at the same time."""
import os
import subprocess

import pytest

from kbuild import KSRC0, MAKE_LOCK, ROOT, SPECS, ktree

pytestmark = pytest.mark.kernel


def test_kernel_trees_are_per_spec():
    with MAKE_LOCK:
        procs = [subprocess.Popen(["make", "--no-print-directory", "kernel-tree",
                                   f"SPEC={os.path.relpath(SPECS[k], ROOT)}"], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for k in ("tsar", "tsar-2g2g")]
        for p in procs:
            out, _ = p.communicate(timeout=600)
            assert p.returncode == 0, out
    a = ktree(SPECS["tsar"]) / "arch" / "tsar"
    b = ktree(SPECS["tsar-2g2g"]) / "arch" / "tsar"
    assert a.resolve() == (ROOT / "generated" / "arch" / "tsar").resolve()
    assert b.resolve() == (ROOT / "build" / "gen" / "tsar-2g2g" / "arch" / "tsar").resolve()
    # the shared pristine tree has no arch/tsar at all
    assert not (KSRC0 / "arch" / "tsar").exists()
    # hard links, not copies
    assert (ktree(SPECS["tsar"]) / "Makefile").stat().st_ino == \
        (KSRC0 / "Makefile").stat().st_ino
