"""The user ABI: guest programs userland/tests/abi-*.c check
ll/sc atomicity, non-executable data, trap codes, exact fault addresses,
the signal frame, invalid syscall numbers, TLS, misaligned kernel
accesses, ptrace and seccomp, userland/tests/aslr.c the address-space
layout (randomized, top-down mmap), userland/tests/perf-sample.c perf
samples with the user's registers and stack, userland/tests/perf-hw.c the
performance counters through perf (exact counts, sampling, multiplexing),
and userland/tests/devmem-access.c
a debugger's access to another process's /dev/mem mapping (ioremap_prot);
this file checks what they print."""
import re

import pytest

from guest import check_results, guest_kernel, program_lines, program_status
from kbuild import SERIES_KEYS

pytestmark = pytest.mark.kernel

PROGRAMS = ["abi-llsc", "abi-nx", "abi-traps", "abi-syscalls", "abi-ptrace", "abi-clobbers",
            "aslr", "perf-sample", "perf-hw", "devmem-access"]

# si_code values (asm-generic/siginfo.h) and signal numbers (MIPS = generic here).
SIGTRAP, SIGBUS, SIGFPE, SIGSEGV = 5, 7, 8, 11
TRAP_BRKPT, FPE_INTDIV, FPE_INTOVF, SI_KERNEL = 1, 1, 2, 0x80
SEGV_MAPERR, SEGV_ACCERR, BUS_ADRALN = 1, 2, 1


@pytest.fixture(scope="module", params=SERIES_KEYS)
def run(request):
    rc, out, err = guest_kernel(request.param).run_programs(*PROGRAMS, timeout=300)
    return rc, out, err


def test_kernel_stays_up(run):
    rc, out, _ = run
    assert "Oops" not in out and "Kernel panic" not in out and "BUG" not in out, out[-3000:]
    assert "reboot: Power down" in out


@pytest.mark.parametrize("name", PROGRAMS)
def test_program_passes(run, name):
    _, out, _ = run
    assert program_status(out, name) == ("exited", 0), out[-4000:]


def test_llsc_counter_is_exact_across_context_switches(run):
    _, out, _ = run
    m = re.search(r"abi-llsc: expected (\d+) got (\d+) lost (\d+) retries (\d+)\+(\d+)", out)
    assert m, out[-3000:]
    expected, got, lost, r0, r1 = map(int, m.groups())
    assert got == expected and lost == 0
    # Interrupts and switches did land between ll and sc: the sc failed
    # and was retried (without LL_RESET those retries were lost updates).
    assert r0 + r1 > 0


def test_data_is_not_executable(run):
    _, out, _ = run
    res = check_results(out, "abi-nx")
    for name in ("bss", "brk", "stack", "mmap-rw"):
        details, status = res[name]
        assert status == "ok", details
        assert details.startswith(f"sig {SIGSEGV} code {SEGV_ACCERR} ")
    assert "abi-nx: returned 42" in out
    assert re.search(r"^abi-nx: mmap-rwx: ok", out, re.M)


@pytest.mark.parametrize("name,signo,code", [
    ("break", SIGTRAP, TRAP_BRKPT), ("break-5", SIGTRAP, TRAP_BRKPT),
    ("break-6", SIGFPE, FPE_INTOVF), ("break-7", SIGFPE, FPE_INTDIV),
    ("break-0-7", SIGFPE, FPE_INTDIV), ("teq-7", SIGFPE, FPE_INTDIV),
    ("teq-6", SIGFPE, FPE_INTOVF), ("teq-3", SIGTRAP, SI_KERNEL),
    ("lb-unmapped+3", SIGSEGV, SEGV_MAPERR), ("lbu-unmapped+7ff", SIGSEGV, SEGV_MAPERR),
    ("lh-unmapped+6", SIGSEGV, SEGV_MAPERR), ("lwl-unmapped+13", SIGSEGV, SEGV_MAPERR),
    ("lwr-unmapped+21", SIGSEGV, SEGV_MAPERR), ("sb-readonly+5", SIGSEGV, SEGV_ACCERR),
    ("sh-readonly+a", SIGSEGV, SEGV_ACCERR), ("swr-readonly+37", SIGSEGV, SEGV_ACCERR),
    ("lw-misaligned-unmapped+1", SIGBUS, BUS_ADRALN), ("lw-misaligned+2", SIGBUS, BUS_ADRALN),
    ("sw-misaligned+43", SIGBUS, BUS_ADRALN), ("lh-misaligned+11", SIGBUS, BUS_ADRALN),
])
def test_trap_codes_and_exact_fault_addresses(run, name, signo, code):
    _, out, _ = run
    details, status = check_results(out, "abi-traps")[name]
    m = re.match(r"sig (\d+) code (\d+) addr (\w+) \(want \d+ \d+ (\w+)\)", details)
    assert m, details
    assert (int(m.group(1)), int(m.group(2))) == (signo, code), details
    # The exact byte address, not DBVAR's word address.
    assert m.group(3) == m.group(4), details
    assert status == "ok"


def test_divide_by_zero_is_sigfpe_intdiv(run):
    _, out, _ = run
    details, status = check_results(out, "abi-traps")["divide-by-zero"]
    assert details == f"sig {SIGFPE} code {FPE_INTDIV}" and status == "ok"


def test_signal_frame_has_the_o32_argument_save_area(run):
    _, out, _ = run
    details, status = check_results(out, "abi-traps")["signal-frame-O0"]
    assert status == "ok", details


@pytest.mark.parametrize("nr", ["ffffffff", "fffffffe", "fffff000", "80000000",
                                "80000001", "7fffffff", "table-end", "3e8", "fa0", "fa1"])
def test_invalid_syscall_numbers_give_enosys(run, nr):
    _, out, _ = run
    details, status = check_results(out, "abi-syscalls")[f"enosys-{nr}"]
    # a3_flag convention: v0 = ENOSYS (38, asm-generic errno), a3 = 1.
    assert details == "v0 38 a3 1" and status == "ok", details


@pytest.mark.parametrize("name", ["tls-initial", "tls-set", "tls-context-switch",
                                  "tls-fork-inherits", "tls-exec-resets",
                                  "tls-clone-settls", "tls-parent-kept"])
def test_thread_pointer(run, name):
    _, out, _ = run
    details, status = check_results(out, "abi-syscalls")[name]
    assert status == "ok", details


@pytest.mark.parametrize("name", ["stack-args-pselect6", "stack-args-usleep"])
def test_stack_arguments_reach_the_kernel(run, name):
    """Arguments 5 and 6 travel on the user stack. The fifth of pselect6 is
    the address of a local at 0(sp), as in nolibc's usleep(): the syscall
    macro once handed it over in sp itself and stored it after moving sp
    (a garbage timeout: the call returned at once or slept for good)."""
    _, out, _ = run
    details, status = check_results(out, "abi-syscalls")[name]
    assert status == "ok", details


CLOBBER_CASES = ["fast-path-ok", "fast-path-error", "signal-interrupted-read",
                 "signal-restarted-read", "fork-parent", "fork-child"]


@pytest.mark.parametrize("name", CLOBBER_CASES)
def test_syscall_clobbers_zeroed_and_keeps_the_rest(run, name):
    """abi.syscall.clobbers: at, v1, t0-t9, hi, lo come back zero (no kernel
    value), s0-s7, fp, gp, ra and a0-a2 as they were, v0/a3 the result; on
    the fast way out, after a signal handler (EINTR and SA_RESTART) and
    through the full-frame wrapper (fork, both sides)."""
    _, out, _ = run
    details, status = check_results(out, "abi-clobbers")[name]
    assert status == "ok" and "first wrong register none" in details, details
    m = re.match(r"v0 (-?\d+) a3 (\d) t0 (\w+) s0 (\w+) hi (\w+),", details)
    assert m, details
    assert m.group(3) == "0" and m.group(5) == "0" and m.group(4) == "5a101010", details
    want = {"fast-path-error": ("9", "1"), "signal-interrupted-read": ("4", "1"),
            "signal-restarted-read": ("1", "0"), "fork-child": ("0", "0")}
    if name in want:
        assert (m.group(1), m.group(2)) == want[name], details


@pytest.mark.parametrize("name", ["eintr-handler", "restart-handler"])
def test_syscall_interrupted_by_the_handler(run, name):
    _, out, _ = run
    details, status = check_results(out, "abi-clobbers")[name]
    assert status == "ok", details


@pytest.mark.parametrize("name", ["waitid-misaligned-info", "put-user-misaligned",
                                  "get-user-misaligned", "put-user-misaligned-unmapped"])
def test_kernel_access_to_misaligned_user_address(run, name):
    _, out, _ = run
    details, status = check_results(out, "abi-syscalls")[name]
    assert status == "ok", details


@pytest.mark.parametrize("name", [
    "stopped", "getregset-prstatus", "peekusr-sp", "peekusr-pc", "peekusr-lo",
    "peekusr-cause", "peekusr-fpr-eio", "pokeusr-s0", "pokeusr-cause-eio",
    "getregs-mips-layout", "setregs-mips-layout", "getregset-tls", "get-thread-area",
    "changed-call-result", "tracee-saw-results", "seccomp-arch-and-nr", "audit-arch-not-o32",
    "core-dump-tls-note", "fork-event-peekusr-s0", "fork-event-pokeusr-s0"])
def test_ptrace_and_seccomp(run, name):
    _, out, _ = run
    details, status = check_results(out, "abi-ptrace")[name]
    assert status == "ok", details


def test_syscall_stops_report_the_tsar_audit_arch(run):
    _, out, _ = run
    stops = re.findall(r"^abi-ptrace: (entry|exit) stop: sig (\w+) op (\d) arch (\w+) nr (-?\d+)",
                       out, re.M)
    # getpid entry (changed to getppid), its exit, getuid entry (skipped), its exit.
    assert [s[0] for s in stops] == ["entry", "exit", "entry", "exit"], stops
    assert all(s[1] == "85" and s[3] == "50000008" for s in stops), stops
    assert [s[2] for s in stops] == ["1", "2", "1", "2"]
    assert (stops[0][4], stops[2][4]) == ("172", "174")   # __NR_getpid, __NR_getuid


def aslr_runs(out):
    """{setting: [{stack, mmap, mmap2, brk} of run 1, of run 2]} from aslr's lines."""
    runs = {}
    for m in re.finditer(r"^aslr: (\w+) (\d) stack (0x[0-9a-f]+) mmap (0x[0-9a-f]+) "
                         r"mmap2 (0x[0-9a-f]+) brk (0x[0-9a-f]+)$", out, re.M):
        runs.setdefault(m.group(1), []).append(dict(zip(
            ("stack", "mmap", "mmap2", "brk"), (int(v, 16) for v in m.groups()[2:]))))
    return runs


def test_aslr_runs_differ(run):
    """Stack, mmap base and brk are randomized at each exec (vm/ELF-ASLR,
    HAVE_ARCH_MMAP_RND_BITS). The mmap base has 8 random bits (mmap_rnd_bits'
    default): two runs draw the same one time in 256, three runs all the
    same one time in 65536, so the test asks for two values of each among
    three runs."""
    _, out, _ = run
    # Full randomization (brk too) by default: COMPAT_BRK is off.
    assert re.search(r"^aslr: randomize_va_space 2$", out, re.M), out[-3000:]
    runs = aslr_runs(out)
    assert len(runs.get("random", [])) == 3, out[-3000:]
    for area in ("stack", "mmap", "brk"):
        seen = {r[area] for r in runs["random"]}
        assert len(seen) > 1, f"{area} at {seen.pop():#x} in every run"


@pytest.mark.parametrize("setting", ["off", "personality"])
def test_aslr_off_gives_equal_layouts(run, setting):
    """randomize_va_space=0, or the ADDR_NO_RANDOMIZE personality: the same
    addresses in both runs."""
    _, out, _ = run
    runs = aslr_runs(out)
    assert len(runs.get(setting, [])) == 2, out[-3000:]
    assert runs[setting][0] == runs[setting][1]


@pytest.mark.parametrize("setting", ["random", "off", "personality"])
def test_mmap_is_top_down_below_the_stack(run, setting):
    """ARCH_WANT_DEFAULT_TOPDOWN_MMAP_LAYOUT: the mmap area starts below the
    stack (stack rlimit plus gap) and grows down, far above the brk heap."""
    _, out, _ = run
    for r in aslr_runs(out)[setting]:
        assert r["brk"] < r["mmap2"] < r["mmap"] < r["stack"], {k: hex(v) for k, v in r.items()}
        # Not the bottom-up layout, which starts at TASK_SIZE / 3.
        assert r["mmap"] > r["stack"] // 2, hex(r["mmap"])


@pytest.mark.parametrize("name", ["open", "mmap", "samples", "abi", "ip", "pc-in-spin",
                                  "sp-of-spin", "stack-canary"])
def test_perf_samples_carry_user_registers_and_stack(run, name):
    """task-clock samples of a loop (PERF_SAMPLE_REGS_USER with the MIPS
    register numbering, PERF_SAMPLE_STACK_USER): PC in the loop, the SP
    the loop runs with, the canary it wrote on its stack in the dump."""
    _, out, _ = run
    details, status = check_results(out, "perf-sample")[name]
    assert status == "ok", (details, out[-3000:])


@pytest.mark.parametrize("name", [
    "open-instructions", "instructions-exact", "instructions-overhead", "open-group",
    "cycles-with-instructions", "open-raw-exceptions", "exceptions-exact", "open-kernel",
    "kernel-instructions", "open-sampling", "samples-per-period", "samples-in-loops",
    "open-three", "multiplexed", "unsupported-hw-event", "unknown-raw-event"])
def test_perf_counts_and_samples_with_the_counters(run, name):
    """The core's counters as perf's cpu PMU (kernel/perf_event.c on the
    emulator's exact counters): user instructions of a loop exact to the
    instruction, user-mode exceptions exact to the syscall, samples one
    per period landing in the loops in proportion to their work, more
    events than counters multiplexed, unknown events refused."""
    _, out, _ = run
    details, status = check_results(out, "perf-hw").get(name, (None, None))
    assert status == "ok", (details, program_lines(out, "perf-hw"))


@pytest.mark.parametrize("name", ["pagemap-pfn", "child-maps-dev-mem", "ram-access",
                                  "proc-mem-read", "proc-mem-write", "ptrace-peekdata",
                                  "ptrace-pokedata", "child-saw-writes", "vdso-page",
                                  "reserved-maps-dev-mem", "reserved-proc-mem-read",
                                  "reserved-write-refused", "reserved-peekdata"])
def test_debugger_reads_and_writes_a_dev_mem_mapping(run, name):
    """/proc/<pid>/mem and PTRACE_PEEKDATA/POKEDATA on a process's mapping
    of /dev/mem (VM_IO | VM_PFNMAP: no page to pin) go through
    generic_access_phys() and the family's ioremap_prot(): a reserved page
    (the vDSO's, in the kernel image) reads as the process's own vDSO does,
    and a write through a read-only mapping is refused; a page of RAM in
    use is read and written (the writes show up in the page the parent
    filled, the same physical page) or refused whole, as the series' rule
    says (below)."""
    _, out, _ = run
    details, status = check_results(out, "devmem-access").get(name, (None, None))
    assert status == "ok", (details, program_lines(out, "devmem-access"))


# generic_access_phys() of 6.12 refuses a pfn of online RAM that is not
# reserved ("anything that looks like ordinary RAM"); 6.1's ioremaps it.
RAM_ACCESS = {"6.1": "ioremapped", "6.12": "refused"}


def test_dev_mem_access_to_ram_follows_the_series_rule(run):
    _, out, _ = run
    series = re.search(r"Linux version (\d+\.\d+)\.", out).group(1)
    details, status = check_results(out, "devmem-access")["ram-access"]
    assert details.split()[0] == RAM_ACCESS[series], details
