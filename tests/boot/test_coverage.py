"""Kernel code coverage on the coverage variant (variants/coverage.config:
kcov and GCOV_PROFILE_ALL over the whole kernel), checked by
userland/tests/coverage.c in one boot. Opt-in (make test-coverage): the
kernel is built only for this, and every basic block of it is instrumented.
"""
import os
import re

import pytest

from guest import check_results, guest_kernel, program_lines, program_status

if not os.environ.get("PORTKIT_COVERAGE"):
    pytest.skip("the coverage kernel is opt-in: make test-coverage", allow_module_level=True)

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def run():
    return guest_kernel("tsar", "coverage").run_programs("coverage", timeout=900)


def test_boots_and_the_program_passes(run):
    rc, out, _ = run
    assert "Oops" not in out and "BUG" not in out and "WARNING" not in out, out[-3000:]
    assert program_status(out, "coverage") == ("exited", 0), program_lines(out, "coverage")


@pytest.mark.parametrize("name", ["kcov-enable", "kcov-pcs", "kcov-pcs-in-ksys_read",
                                  "kcov-disabled", "kcov-cmp-whence", "gcov-fork-arcs-grow",
                                  "gcov-reset"])
def test_coverage_checks(run, name):
    _, out, _ = run
    details, status = check_results(out, "coverage").get(name, (None, None))
    assert status == "ok", (details, program_lines(out, "coverage"))


def test_kcov_pcs_are_the_read_path(run):
    """The PCs of read(-1) are named kernel text: the read syscall's own
    functions among them, and none of the syscalls the program makes
    around it (lseek, getpid, clone)."""
    _, out, _ = run
    names = set(re.findall(r"^coverage: kcov-pc [0-9a-f]+ (\S+)$", out, re.M))
    assert "ksys_read" in names, names
    assert "?" not in names, names
    assert not names & {"ksys_lseek", "__do_sys_getpid", "kernel_clone"}, names
