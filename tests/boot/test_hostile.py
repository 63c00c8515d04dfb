"""Hostile user space (the user-ABI test suite): userland/tests/hostile-*.c
attack the kernel from user mode; every case must end in the right signal
or errno and the kernel must stay up (and power off cleanly)."""
import re

import pytest

from guest import check_results, guest_kernel, program_status
from kbuild import SERIES_KEYS

pytestmark = pytest.mark.kernel

PROGRAMS = ["hostile-faults", "hostile-forkstorm", "hostile-oom"]
SIGILL, SIGKILL, SIGSEGV = 4, 9, 11
SEGV_MAPERR, SEGV_ACCERR = 1, 2


@pytest.fixture(scope="module", params=SERIES_KEYS)
def run(request):
    return guest_kernel(request.param).run_programs(*PROGRAMS, timeout=400)


def test_kernel_stays_up_and_powers_off(run):
    rc, out, _ = run
    assert "Oops" not in out and "Kernel panic" not in out, out[-3000:]
    assert "reboot: Power down" in out, out[-3000:]
    assert rc == 0


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_passes(run, name):
    _, out, _ = run
    assert program_status(out, name) == ("exited", 0), out[-4000:]


@pytest.mark.parametrize("name,signo,code", [
    ("load-kernel-address", SIGSEGV, None), ("store-kernel-address", SIGSEGV, None),
    ("jump-kernel-address", SIGSEGV, None), ("store-readonly", SIGSEGV, SEGV_ACCERR),
    ("load-unmapped", SIGSEGV, SEGV_MAPERR), ("exec-non-executable", SIGSEGV, SEGV_ACCERR),
    ("store-text", SIGSEGV, SEGV_ACCERR), ("call-null", SIGSEGV, SEGV_MAPERR),
    ("mfc0", SIGILL, None), ("mtc0", SIGILL, None), ("eret", SIGILL, None),
    ("cache", SIGILL, None), ("di", SIGILL, None), ("wait", SIGILL, None),
    ("tlbwi", SIGILL, None), ("mtc2", SIGILL, None), ("mfc2", SIGILL, None),
])
def test_fault_ends_in_the_right_signal(run, name, signo, code):
    _, out, _ = run
    details, status = check_results(out, "hostile")[name]
    m = re.match(r"sig (\d+) code (\d+) addr (\w+)", details)
    assert m and int(m.group(1)) == signo, details
    if code is not None:
        assert int(m.group(2)) == code, details
    assert status == "ok", details


@pytest.mark.parametrize("name", [
    "syscall-nr-minus-1", "syscall-nr-bit31", "syscall-nr-huge", "read-into-kernel",
    "read-pipe-into-kernel", "read-pipe-into-readonly", "write-from-kernel",
    "write-from-unmapped", "openat-kernel-path", "clock-gettime-kernel",
    "uname-odd-pointer", "pipe2-readonly", "waitid-info-kernel", "rt-sigaction-kernel",
    "mmap-kernel-fixed", "munmap-kernel", "mprotect-kernel"])
def test_bad_syscall_gives_the_right_errno(run, name):
    _, out, _ = run
    details, status = check_results(out, "hostile")[name]
    assert status == "ok", details


@pytest.mark.parametrize("name", [
    "sigreturn-null-frame", "sigreturn-frame-past-stack-top",
    "sigreturn-zero-frame", "sigreturn-kernel-pc", "stack-overflow"])
def test_corrupt_context_kills_only_the_process(run, name):
    _, out, _ = run
    details, status = check_results(out, "hostile")[name]
    assert details.endswith(f"(want signal {SIGSEGV})") and status == "ok", details


def test_sigreturn_with_kernel_sp_fails_like_any_call(run):
    # sp in kernel space: the syscall entry gives EFAULT before the call
    # runs, and no signal, as on MIPS (test_wild_sp.py has the whole rule).
    _, out, _ = run
    details, status = check_results(out, "hostile")["sigreturn-kernel-frame"]
    assert details.endswith("(want exit 0)") and status == "ok", details


def test_fork_storm_is_survived_and_reaped(run):
    _, out, _ = run
    m = re.search(r"hostile-forkstorm: (\d+) children forked, (\d+) processes running", out)
    assert m and int(m.group(1)) == 32 and int(m.group(2)) >= 32 * 8, out[-3000:]
    assert "hostile-forkstorm: reaped 256 processes (want 256)" in out


def test_allocation_beyond_ram_ends_in_the_oom_killer(run):
    _, out, _ = run
    assert "hostile-oom: child status 9 (killed by SIGKILL)" in out, out[-3000:]
    assert re.search(r"Out of memory: Killed process \d+ \(hostile-oom\)", out), out[-3000:]
