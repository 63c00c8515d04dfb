"""Multi-CPU tests of tsar-emu: the t_smp_* bare-metal programs on the test
DTBs of emulator/tests/dts (1, 2, 4 and 8 CPUs), deterministic and with
randomized interleavings, plus the CLI options and bad inputs that come with
them (-quantum, -seed, CPU nodes), and the command-line defects found with them
(-timeout inf, FIFOs and other non-regular files as inputs).

Run: /usr/bin/python3 -m pytest tests/emulator/test_smp.py
"""
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from test_baremetal import (BUILD, EMU, SRC, build, compile_dts, elf, expect_126,  # noqa: F401
                            free_port, run)

DTS_DIR = Path(__file__).resolve().parents[2] / "emulator" / "tests" / "dts"

# program -> (expected stdout line pattern, extra checks)
SMP_PROGRAMS = {
    "t_smp_boot": rb"smp boot: 4 CPUs started\n",
    "t_smp_llsc": rb"llsc counter 12000\n",
    "t_smp_ipi": rb"ipi: 3 messages\n",
    "t_smp_timer": rb"(cpu \d elapsed \d+ wakeups \d\n){4}",
    "t_smp_mmu": rb"smp mmu coherent\n",
    "t_smp_order": rb"order hash 0x[0-9a-f]{8} switches \d+\n",
    "t_smp_wake": rb"wake: 3 pulses seen\n",
    "t_smp_handoff": rb"handoff: CPU 1 ran after \d+ spins\n",
}
MODES = [[], ["-seed", "1"], ["-seed", "2"], ["-quantum", "3"], ["-seed", "7", "-quantum", "40"]]


@pytest.fixture(scope="module")
def dtbs():
    """emulator/tests/dts/smpN.dts, preprocessed with hwdesc.h (the spec's
    addresses) and compiled by the emulator's Makefile."""
    if not shutil.which("dtc"):
        pytest.skip("dtc not installed")
    r = subprocess.run(["make", "-s", "-C", str(DTS_DIR.parents[1]), f"BUILD={BUILD}", "test-dtbs"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return {n: BUILD / "emulator" / "tests" / "dts" / f"smp{n}.dtb" for n in (1, 2, 4, 8)}


def test_every_smp_program_is_listed():
    names = {p.stem for p in SRC.glob("t_smp_*.[cS]")}
    assert names == set(SMP_PROGRAMS)


def insns(stderr):
    m = re.search(rb"after (\d+) instructions", stderr)
    assert m, stderr
    return int(m.group(1))


@pytest.mark.parametrize("mode", MODES, ids=lambda m: "_".join(m) or "default")
@pytest.mark.parametrize("name", sorted(SMP_PROGRAMS))
def test_smp_program(name, mode, dtbs):
    r = run(["-dtb", dtbs[4], "-v", "-timeout", "20"] + mode + [elf(name)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.fullmatch(SMP_PROGRAMS[name], r.stdout), r.stdout
    assert b"cpus=4" in r.stderr
    if "-seed" in mode:
        seed = mode[mode.index("-seed") + 1].encode()
        assert b"seed " + seed + b" (replay with -seed " + seed + b")" in r.stderr


def test_timer_elapsed_per_cpu(dtbs):
    """Each CPU's PTI ticks at its own period on the shared time base."""
    r = run(["-dtb", dtbs[4], elf("t_smp_timer")])
    assert r.returncode == 0, r.stdout + r.stderr
    for i, (cpu, el) in enumerate(re.findall(rb"cpu (\d) elapsed (\d+)", r.stdout)):
        assert int(cpu) == i
        assert abs(int(el) - 5 * 200000 * (i + 1)) < 2000, r.stdout


def test_deterministic_and_seeded_interleavings(dtbs):
    def once(*extra):
        r = run(["-dtb", dtbs[4], "-v"] + list(extra) + [elf("t_smp_order")])
        assert r.returncode == 0, r.stderr
        return r.stdout, insns(r.stderr)

    a, b = once(), once()
    assert a == b                                   # same output, same instruction count
    s1, s1b, s2, s3 = once("-seed", "1"), once("-seed", "1"), once("-seed", "2"), once("-seed", "3")
    assert s1 == s1b                                # a seed replays exactly
    logs = {a[0], s1[0], s2[0], s3[0]}
    assert len(logs) == 4, logs                     # different interleavings
    q = once("-quantum", "10")
    assert q[0] != a[0]


def test_seed_random_is_printed_and_replays(dtbs):
    r = run(["-dtb", dtbs[4], "-seed", "random", elf("t_smp_order")])
    assert r.returncode == 0
    seed = re.search(rb"seed (\d+) \(replay with -seed \1\)", r.stderr).group(1).decode()
    r2 = run(["-dtb", dtbs[4], "-seed", seed, elf("t_smp_order")])
    assert r2.stdout == r.stdout


@pytest.mark.parametrize("n", [1, 2, 8])
def test_cpu_counts(n, dtbs):
    """A program that parks the secondaries runs on any CPU count; the
    XICU has one PTI and WTI per CPU and 4 outputs per CPU."""
    r = run(["-dtb", dtbs[n], "-v", elf("t_hello")])
    assert r.returncode == 0 and r.stdout == b"hello from tsar\n", r.stderr
    assert f"cpus={n}".encode() in r.stderr


def test_hang_reports_every_cpu(dtbs):
    r = run(["-dtb", dtbs[2], elf("t_hang")])
    assert r.returncode == 124 and b"guest hang" in r.stderr
    # each PC with the ELF symbol it is in
    assert re.search(rb"cpu0 \(id 0\): pc=0x[0-9a-f]{8} <main\+0x[0-9a-f]+> \(waiting\)",
                     r.stderr), r.stderr
    assert re.search(rb"cpu1 \(id 1\): pc=0x[0-9a-f]{8} <\w+(\+0x[0-9a-f]+)?> \(waiting\)",
                     r.stderr), r.stderr


def smp_dts(cpus, xicu_extra=""):
    nodes = "".join(f'cpu@{i} {{ device_type = "cpu"; reg = <{r}>; }};\n' for i, r in cpus)
    return f"""/dts-v1/;
/ {{ #address-cells = <2>; #size-cells = <1>;
  cpus {{ #address-cells = <1>; #size-cells = <0>; {nodes} }};
  memory@0 {{ device_type = "memory"; reg = <0x0 0x0 0x10000000>; }};
  xicu@10000000 {{ compatible = "soclib,vci_xicu"; reg = <0x0 0x10000000 0x1000>; {xicu_extra} }};
  simhelper@1f000000 {{ compatible = "soclib,vci_simhelper"; reg = <0x0 0x1f000000 0x1000>; }};
  tty@14000000 {{ compatible = "soclib,vci_multi_tty"; reg = <0x0 0x14000000 0x10>; }};
}};
"""


def test_bad_cpu_nodes(tmp_path):
    nine = compile_dts(tmp_path, smp_dts([(i, i) for i in range(9)]), "nine.dtb")
    expect_126(run(["-dtb", nine, elf("t_hello")]), "nine.dtb", "more than 8 CPUs")
    dup = compile_dts(tmp_path, smp_dts([(0, 0), (1, 0)]), "dup.dtb")
    expect_126(run(["-dtb", dup, elf("t_hello")]), "dup.dtb", "two cpu nodes have the id 0")
    big = compile_dts(tmp_path, smp_dts([(0, 0), (1, 0x1000)]), "big.dtb")
    expect_126(run(["-dtb", big, elf("t_hello")]), "big.dtb", "does not fit EBase.CPUNum")
    # id 0x400 = cluster (4,0), local 0: a cluster without an XICU
    far = compile_dts(tmp_path, smp_dts([(0, 0), (1, 0x400)]), "far.dtb")
    expect_126(run(["-dtb", far, elf("t_hello")]), "far.dtb", "CPU id 0x400: its cluster (4,0) "
               "has no XICU")
    bad = compile_dts(tmp_path, smp_dts([(0, 0)], "soclib,pti-count = <33>;"), "cnt.dtb")
    expect_126(run(["-dtb", bad, elf("t_hello")]), "cnt.dtb", "soclib,pti-count")


def test_dtb_xicu_counts(tmp_path):
    """The DTB's resource counts win over the per-CPU defaults: t_smp_boot
    checks CONFIG = 16 outputs, 4 WTI, the spec's HWIs, 4 PTI (its check 5)."""
    cpus = [(i, i) for i in range(4)]
    same = compile_dts(tmp_path, smp_dts(cpus, "soclib,pti-count = <4>; soclib,wti-count = <4>; "
                                         "soclib,hwi-count = <4>;"), "same.dtb")
    r = run(["-dtb", same, elf("t_smp_boot")])
    assert r.returncode == 0, r.stdout + r.stderr
    other = compile_dts(tmp_path, smp_dts(cpus, "soclib,pti-count = <4>; soclib,wti-count = <6>; "
                                          "soclib,hwi-count = <4>;"), "other.dtb")
    r = run(["-dtb", other, elf("t_smp_boot")])
    assert r.returncode == 5 and b"FAIL check 5" in r.stdout, r.stdout + r.stderr


def test_bad_quantum_and_seed():
    for q in ["0", "-5", "x", "100000001"]:
        expect_126(run(["-quantum", q, elf("t_hello")]), "-quantum")
    expect_126(run(["-seed", "abc", elf("t_hello")]), "-seed")
    expect_126(run(["-seed"]), "needs an argument")


# ---------------------------------------------- command-line defects (SMP work)

@pytest.mark.parametrize("t", ["inf", "1e30", "18446744073.8", "1e9"])
def test_huge_timeout_means_no_limit(t):
    r = run(["-timeout", t, elf("t_hello")])
    assert r.returncode == 0 and r.stdout == b"hello from tsar\n", r.stderr


def test_huge_timeout_with_gdb_wait():
    # -S waits for gdb bounded by -timeout: a huge one must not be 0 ms
    p = subprocess.Popen([str(EMU), "-gdb", f"tcp::{free_port()}", "-S", "-timeout", "inf", str(elf("t_hello"))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            p.wait(timeout=1.0)
    finally:
        p.kill()
        p.wait()


def test_non_regular_inputs_are_rejected(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for opt, what in (["-kernel", "ELF image"], ["-dtb", "device tree"]):
        args = [opt, fifo] + ([elf("t_hello")] if opt != "-kernel" else [])
        r = run(args, timeout=10)
        expect_126(r, str(fifo), what, "a FIFO")
    expect_126(run(["-disk", fifo, elf("t_hello")], timeout=10), str(fifo), "not a regular file")
    expect_126(run(["-kernel", tmp_path], timeout=10), str(tmp_path), "a directory")
    expect_126(run(["-kernel", "/dev/null"], timeout=10), "/dev/null", "a character device")
    # outputs: a FIFO nobody reads is refused at once instead of blocking
    expect_126(run(["-serial", f"file:{fifo}", elf("t_hello")], timeout=10), "no reader")
    expect_126(run(["-D", fifo, "-d", "int", elf("t_hello")], timeout=10), "no reader")


# ------------------------------------------------ GDB: CPUs as threads

def test_gdb_threads_protocol(dtbs):
    from test_baremetal import Rsp, connect
    port = free_port()
    p = subprocess.Popen([str(EMU), "-dtb", str(dtbs[4]), "-gdb", f"tcp::{port}", "-S",
                          "-timeout", "20", str(elf("t_smp_ipi"))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        g = Rsp(connect(port))
        assert g.cmd("?") == "T05thread:1;"
        assert g.cmd("qfThreadInfo") == "m1,2,3,4"
        assert g.cmd("qsThreadInfo") == "l"
        assert g.cmd("qC") == "QC1"
        assert g.cmd("T4") == "OK" and g.cmd("T5").startswith("E")
        assert g.cmd("Hg9").startswith("E")
        assert bytes.fromhex(g.cmd("qThreadExtraInfo,3")) == b"CPU 2 (id 2)"
        assert g.cmd("Hc3") == "OK"
        assert g.cmd("s") == "T05thread:3;"          # only CPU 2 stepped
        assert g.cmd("Hg3") == "OK" and g.cmd("p25") == "04000100"
        assert g.cmd("Hg1") == "OK" and g.cmd("p25") == "00000100"
        assert g.cmd("Hg2") == "OK" and g.cmd("p25") == "00000100"
        assert g.cmd("Pa=78563412") == "OK"         # CPU 1's t2 only
        assert g.cmd("pa") == "78563412"
        assert g.cmd("Hg1") == "OK" and g.cmd("pa") == "00000000"
        g.send("k")
        p.communicate(timeout=10)
    finally:
        p.kill()
        p.wait()


@pytest.mark.skipif(not shutil.which("gdb-multiarch"), reason="gdb-multiarch not installed")
def test_gdb_multiarch_threads(dtbs):
    port = free_port()
    p = subprocess.Popen([str(EMU), "-dtb", str(dtbs[4]), "-gdb", f"tcp::{port}", "-S",
                          "-timeout", "30", str(elf("t_smp_ipi"))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        import time
        time.sleep(0.3)
        g = subprocess.run(
            ["gdb-multiarch", "-nx", "-q", "-batch", str(elf("t_smp_ipi")),
             "-ex", "set architecture mips:isa32", "-ex", "set endian little",
             "-ex", f"target remote 127.0.0.1:{port}", "-ex", "info threads",
             "-ex", "break secondary_main", "-ex", "continue", "-ex", "p $_thread",
             "-ex", "p/x $a0", "-ex", "thread 1", "-ex", "p $_thread", "-ex", "p/x $a0",
             "-ex", "delete", "-ex", "continue"],
            capture_output=True, text=True, timeout=60)
        out = g.stdout + g.stderr
        for i in range(4):
            assert f"Thread {i + 1} (CPU {i} (id {i}))" in out, out
        m = re.search(r"Thread (\d) hit Breakpoint 1[.\d]*, secondary_main \(id=(\d)\)", out)
        assert m and int(m.group(1)) == int(m.group(2)) + 1, out
        assert f"$2 = 0x{m.group(2)}" in out, out      # a0 = id on that CPU
        assert "[Switching to thread 1 (Thread 1)]" in out and "$3 = 1" in out, out
        assert "exited normally" in out, out
        p.wait(timeout=10)
        assert p.returncode == 0
    finally:
        p.kill()
        p.wait()
