"""Kernel memory protections (STRICT_KERNEL_RWX and non-executable kernel
data), checked with the kernel's LKDTM crash types from a guest program
(userland/tests/kernel-rwx.c) in one boot of the default kernel: each
write to read-only kernel memory and each execution of kernel data must
oops in the triggering process, which is killed, and the kernel goes on.

TSAR has no SMEP/SMAP equivalent (the U bit restricts user mode only, as
on MIPS), so EXEC_USERSPACE and ACCESS_USERSPACE run: the test checks
that LKDTM reports it and that the kernel is unharmed.
"""
import re

import pytest

from guest import guest_kernel, program_status

pytestmark = pytest.mark.kernel

# LKDTM type -> (the line LKDTM prints before the bad access, the access the
# oops must report: "write", "fetch" or "read").
FAULTING = {
    "WRITE_RO": (r"attempting bad rodata write at ([0-9a-f]{8})", "write"),
    "WRITE_RO_AFTER_INIT": (r"attempting bad ro_after_init write at ([0-9a-f]{8})", "write"),
    "WRITE_KERN": (r"attempting bad \d+ byte write at ([0-9a-f]{8})", "write"),
    "EXEC_DATA": (r"attempting bad execution at ([0-9a-f]{8})", "fetch"),
    "EXEC_STACK": (r"attempting bad execution at ([0-9a-f]{8})", "fetch"),
    "EXEC_KMALLOC": (r"attempting bad execution at ([0-9a-f]{8})", "fetch"),
    "EXEC_VMALLOC": (r"attempting bad execution at ([0-9a-f]{8})", "fetch"),
    "EXEC_RODATA": (r"attempting bad execution at ([0-9a-f]{8})", "fetch"),
    "EXEC_NULL": (r"attempting bad execution at (00000000)", "fetch"),
    "ACCESS_NULL": (r"attempting bad read at (00000000)", "read"),
}


@pytest.fixture(scope="module")
def boot():
    return guest_kernel("tsar").run_programs("kernel-rwx")


def section(out, crash):
    """The console output between the start of one crash type and the next."""
    m = re.search(rf"^kernel-rwx: start {crash}\n(.*?)^kernel-rwx: (start|kernel still up)",
                  out, re.M | re.S)
    assert m, f"no output for {crash}: {out[-3000:]}"
    return m.group(1)


def test_kernel_text_and_rodata_are_write_protected_at_boot(boot):
    rc, out, err = boot
    m = re.search(r"Write protected kernel text: (\d+)k, read-only data: (\d+)k", out)
    assert m, out[:5000]
    assert int(m.group(1)) > 1000 and int(m.group(2)) > 100, m.group(0)


@pytest.mark.parametrize("crash", list(FAULTING))
def test_bad_kernel_access_oopses_and_kills_the_process(boot, crash):
    rc, out, err = boot
    text = section(out, crash)
    attempt, access = FAULTING[crash]
    m = re.search(attempt, text)
    assert m, text
    addr = int(m.group(1), 16)
    oops = re.search(r"Unable to handle kernel (?:NULL pointer dereference|paging request) "
                     r"at virtual address ([0-9a-f]{8}) \((\w+)\)", text)
    assert oops, text
    assert oops.group(2) == access, oops.group(0)
    # WRITE_KERN's memcpy may fault on any word of the function it overwrites.
    fault = int(oops.group(1), 16)
    assert fault == addr or (crash == "WRITE_KERN" and 0 <= fault - addr < 256), oops.group(0)
    assert "FAIL" not in text, text
    assert f"kernel-rwx: {crash} killed by signal 11" in text, text


@pytest.mark.parametrize("crash,fail", [
    ("EXEC_USERSPACE", "FAIL: func returned"),
    ("ACCESS_USERSPACE", "FAIL: survived bad write"),
])
def test_user_memory_is_reachable_from_the_kernel_without_smep_smap(boot, crash, fail):
    text = section(boot[1], crash)
    assert fail in text, text
    assert "Unable to handle kernel" not in text, text
    assert f"kernel-rwx: {crash} returned" in text, text


def test_kernel_stays_up(boot):
    rc, out, err = boot
    assert "kernel-rwx: kernel still up after 12 types" in out, out[-3000:]
    assert program_status(out, "kernel-rwx") == ("exited", 0)
    assert re.search(r"^portkit-init: \d+ passed, 0 failed$", out, re.M), out[-3000:]
    assert rc == 0, err
