"""The R4K software-refilled TLB layer (overrides/mmu-r4k) on qmips in QEMU.

One boot runs userland/tests/tlb-stress.c with only 4 ASIDs per generation
(r4k_asid_bits=2), so that its fork storm rolls the ASID generation over
many times while a long-lived process checks its own pages; the other
checks (more pages than TLB entries, stale entries after mprotect and
munmap, copy-on-write after fork, SIGBUS past the end of a file) run
under that pressure too. The statistics come from /debug/r4k_tlb.
"""
import re

import pytest

from guest import guest_kernel, program_status
from kbuild import QMIPS_SERIES_KEYS

PROGRAM = "tlb-stress"


@pytest.fixture(scope="module", params=QMIPS_SERIES_KEYS)
def run(request):
    k = guest_kernel(request.param)
    rc, out, err = k.run_programs(PROGRAM, cmdline="r4k_asid_bits=2")
    return rc, out, err


def lines(out):
    return [line for line in out.splitlines() if line.startswith("tlb: ")]


def test_program_passes(run):
    rc, out, _ = run
    assert program_status(out, PROGRAM) == ("exited", 0), "\n".join(lines(out))[-3000:]
    assert "tlb: 0 failures" in out
    assert not re.search(r"Oops|Kernel panic|BUG:", out)


def test_boot_reports_tlb(run):
    _, out, _ = run
    m = re.search(r"TLB: (\d+) entries, (\d+)-bit ASIDs \((\d+) in use\), "
                  r"refill handler (\d+) bytes", out)
    assert m, out[:3000]
    entries, asid_bits, in_use, size = map(int, m.groups())
    assert (entries, asid_bits, in_use) == (16, 8, 4)
    # Both paths (user, kernel) fit before the cache-error vector.
    assert 0 < size <= 0x100


def test_every_check_ran(run):
    _, out, _ = run
    for check in ("many-pages", "mprotect-ro store", "mprotect-none load",
                  "munmap load", "munmap then fresh page reads 0 (no stale frame)",
                  "mprotect-large-range", "mprotect-small-range",
                  "cow: child keeps the pre-fork data, parent its own",
                  "sigbus past end of file",
                  "asid roll-over keeps every process's pages its own"):
        assert f"tlb: {check}: ok" in out, check


def test_fault_signals(run):
    _, out, _ = run
    # SIGSEGV (11) with SEGV_ACCERR (2) after mprotect, SEGV_MAPERR (1) after munmap.
    assert re.search(r"tlb: mprotect-ro store: sig 11 code 2 ", out)
    assert re.search(r"tlb: mprotect-none load: sig 11 code 2 ", out)
    assert re.search(r"tlb: munmap load: sig 11 code 1 ", out)
    # SIGBUS (7: the asm-generic numbers) with BUS_ADRERR (2) at the exact address.
    assert re.search(r"tlb: sigbus: ret 1 sig 7 code 2 addr-offset 10$", out, re.M)


def test_every_page_of_a_range_faults_after_mprotect(run):
    _, out, _ = run
    for pages in (96, 4):
        m = re.search(rf"tlb: mprotect-\w+-range: {pages} pages, (\d+) write faults, 0 bad", out)
        assert m and int(m.group(1)) == pages


def test_asid_rollovers_happened(run):
    _, out, _ = run
    m = re.search(r"tlb: asid: (\d+) forks, rollovers (-?\d+) -> (-?\d+), "
                  r"generation (\d+), (\d+) ASIDs per generation", out)
    assert m, "\n".join(lines(out))
    forks, before, after, _, per_gen = map(int, m.groups())
    assert per_gen == 4
    # Every fork is a new mm and takes an ASID: at least forks / 4 new generations.
    assert after - before >= forks // per_gen
    assert "tlb: asid: bad children 0, bad rounds 0" in out
