"""The debug kernel (variants/debug.config: PREEMPT, lockdep with
PROVE_LOCKING, DEBUG_ATOMIC_SLEEP, DEBUG_VM, DEBUG_LIST, DEBUG_PAGEALLOC,
SLUB debugging, ...) boots, runs every guest check and the nolibc test
suite, and the kernel reports nothing. Its boot also checks the MMU
layer's page-table helpers (DEBUG_VM_PGTABLE)."""
import re

import pytest

from guest import guest_kernel, program_status
from kbuild import ROOT

pytestmark = pytest.mark.kernel

# Programs whose test is a kernel report on purpose: an oops (modules,
# kernel-rwx's LKDTM crashes) or the OOM killer's report with its stack
# dump (hostile-oom).
ON_PURPOSE_OOPS = {"modules", "hostile-oom", "kernel-rwx"}
# Run by test_kunit.py in a boot of its own: the self-test modules.
OTHER_KERNEL = {"kernel-selftest-modules"}
# Programs that need a disk image attached (tests/boot/test_blockdev.py).
NEEDS_DISK = {"blockdev-raw", "disk-bench", "disk-persist", "disk-writer", "powercut"}
PROGRAMS = sorted(p.stem for p in (ROOT / "userland" / "tests").glob("*.c")
                  if p.stem not in ON_PURPOSE_OOPS | OTHER_KERNEL | NEEDS_DISK)

SPLATS = ["WARNING:", "BUG:", "Oops", "Call Trace:", "possible recursive locking",
          "inconsistent lock state", "possible circular locking",
          "sleeping function called from invalid context", "suspicious RCU usage",
          "scheduling while atomic", "lock held when returning",
          "list_add corruption", "list_del corruption", "Poison overwritten",
          "Redzone", "Bad page state", "INFO: ", "Kernel panic",
          "turning off the locking correctness validator"]


@pytest.fixture(scope="module")
def kernel():
    return guest_kernel("tsar-page-offset", "debug")


@pytest.fixture(scope="module")
def boot(kernel):
    return kernel.run_programs(*PROGRAMS, cmdline="portkit_nolibc_test=1",
                               timeout=600)


def test_debug_options_are_active(kernel, boot):
    rc, out, err = boot
    config = (kernel.out / ".config").read_text()
    for option in ("PREEMPT", "PROVE_LOCKING", "DEBUG_ATOMIC_SLEEP", "DEBUG_VM",
                   "DEBUG_LIST", "DEBUG_PAGEALLOC", "DEBUG_PAGEALLOC_ENABLE_DEFAULT",
                   "SLUB_DEBUG_ON", "DEBUG_SPINLOCK", "DEBUG_MUTEXES"):
        assert f"CONFIG_{option}=y" in config, option
    assert "Lock dependency validator" in out, out[:3000]
    assert re.search(r"Linux version .* PREEMPT ", out), out[:3000]
    assert "Preemptible hierarchical RCU implementation" in out


def test_every_check_passes_on_the_debug_kernel(boot):
    rc, out, err = boot
    for name in PROGRAMS:
        assert program_status(out, name) == ("exited", 0), (name, out[-3000:])
    assert re.search(r"^portkit-init: \d+ passed, 0 failed$", out, re.M), out[-3000:]
    results = re.findall(r"^\s*\d+ (\w+)\b.*\[(OK|FAIL|SKIPPED)\]\s*$", out, re.M)
    failed = {name for name, r in results if r == "FAIL"}
    assert len(results) == 75, out[-3000:]
    assert failed <= {"chmod_net", "link_cross"}, failed
    assert rc == 0, err


def test_no_splat_on_the_debug_kernel(boot):
    rc, out, err = boot
    found = [s for s in SPLATS if s in out]
    assert not found, (found, out[-6000:])


def test_page_table_helpers_validated(kernel, boot):
    """mm/debug_vm_pgtable.c ran on the MMU layer's pgtable.h at boot
    (every WARN it could raise is a splat test_no_splat... rejects)."""
    rc, out, err = boot
    assert "CONFIG_DEBUG_VM_PGTABLE=y" in (kernel.out / ".config").read_text()
    assert re.search(r"debug_vm_pgtable: \[debug_vm_pgtable *\]: Validating architecture "
                     r"page table helpers", out), out[:6000]

