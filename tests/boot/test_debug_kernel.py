"""The debug kernel (variants/debug.config: PREEMPT, lockdep with
PROVE_LOCKING, DEBUG_ATOMIC_SLEEP, DEBUG_VM, DEBUG_LIST, DEBUG_PAGEALLOC,
SLUB debugging, ...) boots, runs every guest check and the nolibc test
suite, and the kernel reports nothing. Its boot also checks the MMU
layer's page-table helpers (DEBUG_VM_PGTABLE) and runs the kernel's KGDB
test suite, kgdbts, against the family layer's kernel/kgdb.c; a second boot
with kmemleak=on finds the leaks of the kernel's kmemleak test module.
It runs on the debug kernel of each of kbuild.DEBUG_KEYS (the other series with
PORTKIT_SERIES_DEBUG=1: make test-series-debug)."""
import re
import subprocess

import pytest

from guest import (NOLIBC_TEST, SPLATS, check_results, guest_kernel, guest_programs,
                   nolibc_test_results, program_lines, program_status)
from kbuild import DEBUG_KEYS, debug_id

pytestmark = pytest.mark.kernel

# Programs whose test is a kernel report on purpose: an oops (modules,
# kernel-rwx's LKDTM crashes) or the OOM killer's report with its stack
# dump (hostile-oom).
ON_PURPOSE_OOPS = {"modules", "hostile-oom", "kernel-rwx"}
# Run by test_kunit.py in a boot of its own: the self-test modules.
OTHER_KERNEL = {"kernel-selftest-modules"}
# Programs that need a disk image attached (tests/boot/test_blockdev.py,
# test_swap.py: BusyBox's dd and mkswap, and a partition; test_highmem.py,
# which also gives the debug kernel RAM above 4 GiB).
NEEDS_DISK = {"blockdev-raw", "disk-bench", "disk-persist", "disk-writer", "powercut", "swap",
              "highmem"}
PROGRAMS = [p for p in guest_programs() if p not in ON_PURPOSE_OOPS | OTHER_KERNEL | NEEDS_DISK]

# Checks of the programs that a series' kernel refuses by design, by
# program (FAIL lines expected): none at present. 6.12's
# generic_access_phys() turns away ordinary RAM, but devmem-access checks
# that every access to its RAM page follows the one rule the kernel
# applied (its "ram-access" line names it, test_abi.py checks it per
# series) and reaches a reserved page (the vDSO's) on either series.
REFUSED = {
    "6.1": {},
    "6.12": {},
}



@pytest.fixture(scope="module", params=DEBUG_KEYS, ids=debug_id)
def kernel(request):
    return guest_kernel(request.param, "debug")


# kgdbts (drivers/misc/kgdbts.c): V1 runs its core tests with their names
# on the console (a breakpoint planted and detached, a breakpoint hit, reads
# of a bad address, 1000 single steps); F100 then keeps a breakpoint on
# kernel_clone for 100 forks of the boot, stepping each one.
KGDBTS = "V1F100"
KGDBTS_FORKS = 100


@pytest.fixture(scope="module")
def boot(kernel):
    return kernel.once("programs", lambda: kernel.run_programs(
        *PROGRAMS, cmdline=f"portkit_nolibc_test=1 kgdbts={KGDBTS}", timeout=600))


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


def test_every_check_passes_on_the_debug_kernel(kernel, boot):
    rc, out, err = boot
    refused = REFUSED[kernel.series]
    for name in PROGRAMS:
        if name in refused:
            checks = check_results(out, name)
            assert sorted(c for c, (_, r) in checks.items() if r == "FAIL") == \
                sorted(refused[name]), program_lines(out, name)
            assert program_status(out, name) == ("exited", len(refused[name])), \
                program_lines(out, name)
            continue
        assert program_status(out, name) == ("exited", 0), \
            (name, program_lines(out, name)[-6000:], out[-3000:])
    assert re.search(rf"^portkit-init: \d+ passed, {len(refused)} failed$", out, re.M), \
        out[-3000:]
    # kmemleak is off without kmemleak=on: its program only says so (EPERM)
    assert "kmemleak: off (errno 1)" in out, program_lines(out, "kmemleak")
    results = nolibc_test_results(out)
    failed = {name for name, r in results if r == "FAIL"}
    count, may_fail = NOLIBC_TEST[kernel.series]
    assert len(results) == count, out[-3000:]
    assert failed <= may_fail, failed
    # init's status: the number of failed checks
    assert rc == len(refused), err


def test_no_splat_on_the_debug_kernel(boot):
    rc, out, err = boot
    found = [s for s in SPLATS if s in out]
    assert not found, (found, out[-6000:])


# Kprobe events (KPROBE_EVENTS, this variant only): /bin/kprobe-events
# defines entry and return probes through tracefs, does an open and an mmap
# whose arguments and results it knows, and prints the trace.
def kpe_lines(out):
    return re.findall(r"^kprobe-events: (.*)$", out, re.M)


def kpe_trace(out, event):
    """The fields name=value of each trace line of one kpe event, from the
    program's own task (the line names it as <comm>-<pid>)."""
    pid = re.search(r"^kprobe-events: pid (\d+)$", out, re.M)
    assert pid, out[-3000:]
    found = []
    for line in re.findall(r"^kprobe-events: trace: (.*)$", out, re.M):
        m = re.match(rf"\s*\S+-{pid.group(1)}\s+.*?\s{event}: \(([^)]*)\)(.*)$", line)
        if m:
            fields = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', m.group(2)))
            found.append((m.group(1), fields))
    return found


def test_kprobe_events_are_defined_and_enabled(boot):
    rc, out, err = boot
    lines = kpe_lines(out)
    defines = [ln for ln in lines if ln.startswith(("define ", "enable:"))]
    assert len(defines) == 4, lines
    assert all(ln.endswith("errno 0") for ln in defines), defines
    assert program_status(out, "kprobe-events") == ("exited", 0), lines


def test_kprobe_event_fetches_arguments_by_register_name_and_position(boot):
    rc, out, err = boot
    m = re.search(r"^kprobe-events: open /init fd (\d+) flags (0x[0-9a-f]+)$", out, re.M)
    assert m, kpe_lines(out)
    opens = [f for where, f in kpe_trace(out, "open")
             if where.startswith("do_sys_openat2+0x0/")]
    paths = [f.get("path") for f in opens]
    assert '"/init"' in paths and '"/kprobe-events/missing"' in paths, opens
    hit = opens[paths.index('"/init"')]
    # AT_FDCWD, by o32 name, by number and as the first argument.
    assert hit["dfd"] == hit["r4"] == hit["arg1"] == "-100", hit
    # open() adds O_LARGEFILE (MIPS: 0x2000) where off_t is 64-bit only.
    assert int(hit["flags"], 16) & ~0x2000 == int(m.group(2), 16), hit


def test_kretprobe_event_returns_the_syscall_result(boot):
    rc, out, err = boot
    fd = re.search(r"^kprobe-events: open /init fd (\d+) ", out, re.M)
    missing = re.search(r"^kprobe-events: open /kprobe-events/missing fd -1 errno (\d+)$",
                        out, re.M)
    assert fd and missing, kpe_lines(out)
    rets = kpe_trace(out, "openret")
    # A return event names where it returned to, then the function.
    assert rets and all(where.endswith(" <- do_sys_openat2") for where, _ in rets), rets
    values = [f["ret"] for _, f in rets]
    # The two opens, in order: the descriptor, then -ENOENT.
    i = values.index(fd.group(1))
    assert values[i + 1] == f"-{missing.group(1)}", values


def test_kprobe_event_fetches_stack_arguments(boot):
    """do_mmap's 5th and 6th arguments are on the stack (o32): $arg5 and
    $stack4 are the same word."""
    rc, out, err = boot
    m = re.search(r"^kprobe-events: mmap len (\d+) prot (0x[0-9a-f]+) flags (0x[0-9a-f]+) ok$",
                  out, re.M)
    assert m, kpe_lines(out)
    hits = [f for _, f in kpe_trace(out, "mmap") if f.get("len") == m.group(1)]
    assert hits, kpe_trace(out, "mmap")
    f = hits[-1]
    assert int(f["prot"], 16) == int(m.group(2), 16), f
    assert int(f["flags"], 16) == int(m.group(3), 16) == int(f["stack4"], 16), f
    assert f["pgoff"] == "0", f


# MIPS32 instructions that cannot run out of line (the family's
# kernel/kprobes.c), by objdump's name.
NOT_STEPPABLE = {"ll", "sc", "syscall", "break", "eret", "deret"}


def has_delay_slot(mnemonic):
    return mnemonic in ("j", "jal", "jr", "jalr", "jalr.hb", "jr.hb") or \
        (mnemonic.startswith("b") and mnemonic != "break")


def test_probes_on_branches_and_delay_slots_are_refused(kernel, boot):
    """A probe at each word of do_sys_openat2: exactly the branches, jumps,
    their delay slots (and ll/sc, syscall, break, eret) are refused, with
    EINVAL and no oops (test_no_splat_on_the_debug_kernel); every other
    word is accepted."""
    rc, out, err = boot
    scan = {int(o): int(e) for o, e in
            re.findall(r"^kprobe-events: offset (\d+) errno (\d+)$", out, re.M)}
    assert scan, kpe_lines(out)
    nm = subprocess.run(["mipsel-linux-gnu-nm", "-S", str(kernel.vmlinux)],
                        capture_output=True, text=True, check=True).stdout
    # (nm prints the addresses sign-extended to 64 bits)
    addr, size = next((int(a, 16) & 0xffffffff, int(s, 16)) for a, s, _, name in
                      (ln.split() for ln in nm.splitlines() if len(ln.split()) == 4)
                      if name == "do_sys_openat2")
    dis = subprocess.run(["mipsel-linux-gnu-objdump", "-d", "--no-show-raw-insn",
                          f"--start-address={addr:#x}", f"--stop-address={addr + size:#x}",
                          str(kernel.vmlinux)], capture_output=True, text=True,
                         check=True).stdout
    insns = {int(a, 16) - addr: m for a, m in
             re.findall(r"^\s*([0-9a-f]+):\s+(\S+)", dis, re.M)}
    assert len(insns) == size // 4, dis
    refused = accepted = 0
    for off, errno in scan.items():
        if off >= size:
            continue
        if errno == 16:
            # EBUSY: the two words of a static branch (jump_label_text_reserved)
            # (a nop or b, then a nop).
            assert insns[off] in ("nop", "b"), (off, insns[off - 4], insns[off])
            continue
        expect_refused = (has_delay_slot(insns[off]) or has_delay_slot(insns[off - 4])
                          or insns[off] in NOT_STEPPABLE)
        assert errno == (22 if expect_refused else 0), (off, insns[off - 4], insns[off], errno)
        refused += expect_refused
        accepted += not expect_refused
    assert refused >= 2 and accepted >= 2, (refused, accepted)
def test_page_table_helpers_validated(kernel, boot):
    """mm/debug_vm_pgtable.c ran on the MMU layer's pgtable.h at boot
    (every WARN it could raise is a splat test_no_splat... rejects)."""
    rc, out, err = boot
    assert "CONFIG_DEBUG_VM_PGTABLE=y" in (kernel.out / ".config").read_text()
    assert re.search(r"debug_vm_pgtable: \[debug_vm_pgtable *\]: Validating architecture "
                     r"page table helpers", out), out[:6000]


@pytest.fixture(scope="module")
def kmemleak_boot(kernel):
    # no_hash_pointers: the module's %p lines give the addresses kmemleak reports.
    return kernel.once("kmemleak", lambda: kernel.run_programs(
        "kmemleak", cmdline="kmemleak=on no_hash_pointers", timeout=600))


def kmemleak_objects(out):
    """{address: (size, the report's lines)} of the unreferenced objects."""
    lines = re.findall(r"^kmemleak: \| (.*)$", out, re.M)
    objects, current = {}, None
    for line in lines:
        m = re.match(r"unreferenced object 0x([0-9a-f]+) \(size (\d+)\):", line)
        if m:
            current = objects[int(m.group(1), 16)] = (int(m.group(2)), [])
        elif current:
            current[1].append(line)
    return objects


def test_kmemleak_finds_the_test_module_leaks(kmemleak_boot):
    rc, out, err = kmemleak_boot
    assert program_status(out, "kmemleak") == ("exited", 0), out[-3000:]
    assert "kmemleak: kmemleak-test load 0" in out and "kmemleak: scan 2: 4" in out, out[-3000:]
    assert "kmemleak: stack=off 9" in out, program_lines(out, "kmemleak")
    # What the module leaked on purpose: kmalloc(N) = <address>, twice for each N.
    leaked = [(int(size), int(addr, 16)) for size, addr in re.findall(
        r"\] kmemleak: kmalloc\((32|1024|2048|4096)\) = ([0-9a-f]{8})$", out, re.M)]
    assert len(leaked) == 8, out[-6000:]
    objects = kmemleak_objects(out)
    # A scan can miss a leak (documented): a stale copy of the pointer in
    # scanned memory still refers to it. Task stacks, where one was seen,
    # are not scanned; each size must be found, and 6 of the 8 leaks.
    found = [(size, addr) for size, addr in leaked if addr in objects]
    assert len(found) >= 6 and {s for s, _ in found} == {s for s, _ in leaked}, \
        ([hex(a) for _, a in leaked], sorted(map(hex, objects)), out[-6000:])
    for size, addr in found:
        got_size, report = objects[addr]
        # kmemleak gives the slab object's size: kmalloc(32) comes from
        # kmalloc-64, the smallest cache when DMA alignment is a 64-byte line.
        assert got_size == size or size < got_size <= 64, (hex(addr), got_size, size)
        text = "\n".join(report)
        # Allocated by the test program's child in the module's init.
        assert 'comm "kmemleak"' in text and "do_init_module" in text, text
    assert rc == 0, err


def test_kgdbts_passes(kernel, boot):
    """kgdbts plays gdb against the debug core and kernel/kgdb.c: register
    reads and writes, breakpoints written into read-only text, bad memory
    reads answered with an error, single steps (a break at the next pc),
    other CPUs rounded up by IPI. Each failure prints a "kgdbts: ERROR" line
    and a WARN (test_no_splat_on_the_debug_kernel); the kernel_clone test
    unregisters its I/O driver only after its last breakpoint was acked."""
    rc, out, err = boot
    config = (kernel.out / ".config").read_text()
    assert "CONFIG_KGDB=y" in config and "CONFIG_KGDB_TESTS=y" in config
    # (from the prefix on: a guest program's output may precede it on its line)
    lines = [ln.strip() for ln in re.findall(r"((?:KGDB: |kgdbts:).*)$", out, re.M)]
    expected = ["KGDB: Registered I/O driver kgdbts",
                "kgdbts:RUN plant and detach test",
                "kgdbts:RUN sw breakpoint test",
                "kgdbts:RUN bad memory access test",
                "kgdbts:RUN singlestep test 1000 iterations",
                *[f"kgdbts:RUN singlestep [{i}/1000]" for i in range(0, 1000, 100)],
                f"kgdbts:RUN kernel_clone for {KGDBTS_FORKS} breakpoints",
                "KGDB: Unregistered I/O driver kgdbts, debugger disabled"]
    assert lines == expected, lines
    assert "Timed out waiting for secondary CPUs" not in out

# Uprobe events (UPROBE_EVENTS, this variant only): /bin/uprobe-events
# probes functions of its own binary through tracefs, calls them with
# values it prints, and prints the trace (userland/tests/uprobe-events.c).
def upe_lines(out):
    return re.findall(r"^uprobe-events: (.*)$", out, re.M)


def upe_events(out, events):
    """(event, where, fields) of the program's own trace lines of the
    given upe events, in trace order."""
    pid = re.search(r"^uprobe-events: pid (\d+) ", out, re.M)
    assert pid, out[-3000:]
    found = []
    for line in re.findall(r"^uprobe-events: trace: (.*)$", out, re.M):
        m = re.match(rf"\s*\S+-{pid.group(1)}\s+.*?\s(\w+): \(([^)]*)\)(.*)$", line)
        if m and m.group(1) in events:
            fields = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', m.group(3)))
            found.append((m.group(1), m.group(2), fields))
    return found


def upe_binary_symbols(kernel):
    """name -> address of the guest binary's functions (nm), the binary
    the userland build installed as /bin/uprobe-events."""
    base = kernel.out.name.removesuffix(f"-{kernel.variant}")
    binary = kernel.out.parent / base / "userland" / "bin" / "uprobe-events"
    nm = subprocess.run(["mipsel-linux-gnu-nm", "-S", str(binary)], capture_output=True,
                        text=True, check=True).stdout
    return binary, {name: (int(a, 16), int(size, 16)) for a, size, _, name in
                    (ln.split() for ln in nm.splitlines() if len(ln.split()) == 4)}


def test_uprobe_events_are_defined_enabled_and_leave_results_unchanged(boot):
    rc, out, err = boot
    lines = upe_lines(out)
    defines = [ln for ln in lines if ln.startswith(("define ", "enable:"))]
    assert len(defines) == 5, lines
    assert all(ln.endswith("errno 0") for ln in defines), defines
    assert "results unchanged under probes: yes" in lines, lines
    assert program_status(out, "uprobe-events") == ("exited", 0), lines


def test_uprobe_event_fetches_arguments_and_return_values(kernel, boot):
    """Each of the 5 calls of upe_mix: one entry event with its
    arguments (by register number, o32 name, a user string) and one
    return event with its value, at the function's address."""
    rc, out, err = boot
    calls = re.findall(r"^uprobe-events: mix a (-?\d+) b (-?\d+) tag (\S+) ret (-?\d+)$",
                       out, re.M)
    assert len(calls) == 5, upe_lines(out)
    _, syms = upe_binary_symbols(kernel)
    entries = upe_events(out, {"mix"})
    assert [(f["a"], f["b"], f["tag"]) for _, _, f in entries] == \
        [(a, b, f'"{tag}"') for a, b, tag, _ in calls], entries
    mix, (main, main_size) = syms["upe_mix"][0], syms["main"]
    assert all(int(where, 16) == mix for _, where, _ in entries), entries
    rets = upe_events(out, {"mixret"})
    assert [f["ret"] for _, _, f in rets] == [ret for *_, ret in calls], rets
    # A return event names where it returned to (in main), then the function.
    for _, where, _ in rets:
        to, func = (int(x, 16) for x in where.split(" <- "))
        assert func == mix and main < to < main + main_size, where


def test_nested_return_probes(boot):
    """upe_fact(5) recurses: 5 entries, then 5 returns through the XOL
    page's trampoline, innermost first, each with its own value; the
    program's other upe_fact calls (n = 2..6) balance too."""
    rc, out, err = boot
    assert re.search(r"^uprobe-events: fact n 5 ret 120$", out, re.M), upe_lines(out)
    seq = [(ev, int(f.get("n", f.get("ret")))) for ev, _, f in
           upe_events(out, {"fact", "factret"})]
    want = [("fact", n) for n in (5, 4, 3, 2, 1)] + \
        [("factret", r) for r in (1, 2, 6, 24, 120)]
    assert any(seq[i:i + len(want)] == want for i in range(len(seq))), seq
    entries = sum(ev == "fact" for ev, _ in seq)
    assert entries == sum(ev == "factret" for ev, _ in seq) == 5 + sum(range(2, 7)), seq


# What /bin/uprobe-events probes in upe_atomic_inc and upe_getpid, and
# the errno the enable write must fail with (ENOTSUPP is the kernel's 524).
UPE_REFUSED = {("ll", 0): ("ll", 22), ("sc", 8): ("sc", 22), ("beqz", 12): ("beqz", 22),
               ("delay-slot-of-beqz", 16): ("nop", 22), ("jr", 20): ("jr", 22),
               ("delay-slot-of-jr", 24): ("lw", 22), ("syscall", 4): ("syscall", 524)}


def test_uprobes_on_unsteppable_instructions_are_refused(kernel, boot):
    """Probes on ll, sc, a branch, a jump, their delay slots (EINVAL) and
    a syscall (ENOTSUPP) are refused when enabled; the words are what the
    program thinks they are, and the functions still work afterwards."""
    rc, out, err = boot
    got = {(what, int(off)): int(e) for what, off, e in
           re.findall(r"^uprobe-events: refused (\S+) \+(\d+) errno (\d+)$", out, re.M)}
    assert set(got) == set(UPE_REFUSED), upe_lines(out)
    binary, syms = upe_binary_symbols(kernel)
    dis = subprocess.run(["mipsel-linux-gnu-objdump", "-d", "--no-show-raw-insn",
                          str(binary)], capture_output=True, text=True, check=True).stdout
    insns = {int(a, 16): m for a, m in re.findall(r"^\s*([0-9a-f]+):\s+(\S+)", dis, re.M)}
    for (what, off), (mnemonic, errno) in UPE_REFUSED.items():
        func = syms["upe_getpid" if what == "syscall" else "upe_atomic_inc"][0]
        assert insns[func + off] == mnemonic, (what, off, insns[func + off])
        assert got[(what, off)] == errno, (what, off, got[(what, off)])
    assert "atomic_inc 3 getpid 1" in upe_lines(out), upe_lines(out)


# The function tracers (kernel/ftrace.c, kernel/mcount.S) and the system
# call tracepoints: /bin/ftrace through tracefs (userland/tests/ftrace.c),
# in parts, each followed by its trace. (Not FTRACE_STARTUP_TEST: see
# variants/debug.config.)
def test_ftrace_sites_converted_at_boot(boot):
    """ftrace_init() turned every recorded call site into a nop (any site
    that did not hold what kernel/ftrace.c expects is an ftrace_bug)."""
    rc, out, err = boot
    m = re.search(r"ftrace: allocating (\d+) entries", out)
    assert m and int(m.group(1)) > 10000, out[:5000]
    assert not re.search(r"ftrace (failed|faulted)|ftrace record flags|ftrace_bug|"
                         r"FTRACE_WARN|ftrace: .*bug", out, re.I), \
        [ln for ln in out.splitlines() if "ftrace" in ln.lower()]


def ftrace_part(out, part):
    """The trace lines /bin/ftrace printed for one part."""
    m = re.search(rf"^ftrace: part {part}\n(.*?)(?=^ftrace: part |^ftrace: done)", out,
                  re.M | re.S)
    assert m, program_lines(out, "ftrace")
    return re.findall(r"^ftrace: trace: (.*)$", m.group(1), re.M)


def ftrace_pid(out):
    m = re.search(r"^ftrace: pid (\d+)$", out, re.M)
    assert m, program_lines(out, "ftrace")
    return m.group(1)


def test_ftrace_program_runs(boot):
    rc, out, err = boot
    assert program_status(out, "ftrace") == ("exited", 0), program_lines(out, "ftrace")
    assert "ftrace: load portkit_mod: errno 0" in out, program_lines(out, "ftrace")


def test_function_tracer_with_a_filter(boot):
    """Exactly the three getppid() calls of the program, from the syscall
    entry code, and no other function (the filter)."""
    rc, out, err = boot
    pid = ftrace_pid(out)
    calls = [re.match(r"\s*(\S+)-(\d+)\s+\[\d+\].*?\s(\w+) <-(\S+)$", ln)
             for ln in ftrace_part(out, "function")]
    calls = [m.groups() for m in calls if m]
    assert [(c[1], c[2]) for c in calls] == [(pid, "sys_getppid")] * 3, calls
    assert all(c[3] != "0" for c in calls), calls


def test_function_tracer_traces_module_text(boot):
    """A filter on a module that is not loaded yet: once it is, the
    functions its init calls are traced (module call sites)."""
    rc, out, err = boot
    # (gcc's clones keep their suffix: sum_of_roots.constprop.0)
    funcs = [m.group(1).split(".")[0] for m in
             (re.match(r".*\s(\S+) <-(\S+)$", ln) for ln in ftrace_part(out, "module")) if m]
    assert "portkit_mod_init" in funcs and "sum_of_roots" in funcs, funcs
    assert "ftrace: unload portkit_mod: errno 0" in out, program_lines(out, "ftrace")


def test_function_graph_tracer_shows_nested_calls_with_durations(boot):
    """sys_getppid() { the calls it makes, each with its duration; } with
    the whole call's duration, at least that of any call inside. An
    interrupt may come in between, and its return preempt the task:
    preempt_schedule_irq() { ... } is then one of the calls inside."""
    rc, out, err = boot
    lines = ftrace_part(out, "graph")
    dur = r"[+!#*@$ ]?\s*(\d+\.\d+) us"
    opens = [i for i, ln in enumerate(lines) if re.search(r"\|\s+sys_getppid\(\) \{$", ln)]
    assert len(opens) == 1, lines
    inner, close, nested = [], None, []
    for ln in lines[opens[0] + 1:]:
        m = re.search(r"\|\s+(\w+)\(\) \{$", ln)
        if m:
            nested.append(m.group(1))
            continue
        m = re.search(dur + r"\s+\|\s+(\w+)\(\);$", ln)
        if m:
            if not nested:
                inner.append((m.group(2), float(m.group(1))))
            continue
        m = re.search(dur + r"\s+\|\s+\}", ln)
        if m and nested:
            name = nested.pop()
            if not nested:
                inner.append((name, float(m.group(1))))
        elif m:
            close = float(m.group(1))
            break
    assert inner and close is not None, lines
    assert close > 0 and close >= max(d for _, d in inner), (inner, close)
    assert "__task_pid_nr_ns" in [name for name, _ in inner], inner


def test_syscall_tracepoints_record_arguments_and_results(boot):
    rc, out, err = boot
    pid = ftrace_pid(out)
    lines = [ln for ln in ftrace_part(out, "syscalls") if re.match(rf"\s*\S+-{pid}\s", ln)]
    events = [re.search(r"\s(sys_\w+(?:\(.*\)| -> 0x[0-9a-f]+))$", ln) for ln in lines]
    events = [m.group(1) for m in events if m]
    missing = re.search(r"^ftrace: kill (\d+) 0 = -1 errno (\d+)$", out, re.M)
    fd = re.search(r"^ftrace: mmap fd (\d+) pgoff 2 ok$", out, re.M)
    assert missing and fd, program_lines(out, "ftrace")
    errno = int(missing.group(2))
    assert events[:4] == [f"sys_kill(pid: {int(pid):x}, sig: 0)", "sys_kill -> 0x0",
                          f"sys_kill(pid: {int(missing.group(1)):x}, sig: 0)",
                          f"sys_kill -> 0x{(-errno) & 0xffffffff:x}"], events
    mmaps = [e for e in events if e.startswith("sys_mmap_pgoff(")]
    assert len(mmaps) == 1, events
    args = dict(re.findall(r"(\w+): ([0-9a-f]+)", mmaps[0]))
    # the 5th and 6th arguments come from the user stack (o32)
    assert (args["len"], args["prot"], args["fd"], args["pgoff"]) == \
        ("1000", "1", f"{int(fd.group(1)):x}", "2"), mmaps
    # the calls entered through an entry.S wrapper have their events too
    assert "ftrace: event sys_enter_execve errno 0" in out
    assert "ftrace: event sys_enter_clone errno 0" in out
