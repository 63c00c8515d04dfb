"""Tests of tsar-emu's block-level interpreter (and of the JIT against it).

Blocks are decoded on first entry and charged to the instruction budget as a
whole; a stop marker ends a run inside a block when the budget is smaller
than the block.  These tests check that this is invisible:

* t_block (bare metal) checks its own instruction counts through Count;
  it also runs with `-d exec`, where every run is one instruction long;
* `-icount-limit N` stops exactly where single-stepping (`-d exec`) says
  the (N+1)-th instruction is, for every N over windows of t_block that hold
  long blocks, superinstructions, delay slots across pages, faults and
  self-modifying code;
* LL/SC between CPUs with many interleavings (t_smp_llsc, tiny quanta);
* gdb: single steps follow the trace, a breakpoint on the second word of a
  superinstruction stops there;
* the PAIR_HIST=1 build prints an instruction-pair histogram.

Run: /usr/bin/python3 -m pytest tests/emulator/test_block_interp.py
"""
import os
import re
import shutil
import subprocess

import pytest

from test_baremetal import (BUILD, EMU, EMU_DIR, Rsp, build, connect, elf,  # noqa: F401
                            free_port, run)
from test_smp import dtbs  # noqa: F401

NM = shutil.which("mipsel-linux-gnu-nm") or shutil.which("nm")


def symbols(name):
    out = subprocess.run([NM, str(elf(name))], capture_output=True, text=True,
                         check=True).stdout
    return {f[2]: int(f[0], 16) for f in (l.split() for l in out.splitlines()) if len(f) == 3}


def trace(name, limit, tmp_path, extra=()):
    """PCs of the first `limit` instructions, single-stepped (-d exec)."""
    log = tmp_path / "exec.log"
    r = run(["-d", "exec", "-D", log, "-icount-limit", limit] + list(extra) + [elf(name)])
    assert r.returncode == 125, r.stderr
    pcs = {}
    for m in re.finditer(r"exec: pc=0x([0-9a-f]{8}) icount=(\d+)", log.read_text()):
        pcs[int(m.group(2))] = int(m.group(1), 16)
    assert len(pcs) == limit and sorted(pcs) == list(range(limit))
    return [pcs[i] for i in range(limit)]


def stop_pc(name, n):
    r = run(["-icount-limit", n, elf(name)])
    assert r.returncode == 125, r.stderr
    m = re.search(rb"instruction limit reached \((\d+) instructions, pc=0x([0-9a-f]{8})",
                  r.stderr)
    assert m, r.stderr
    return int(m.group(1)), int(m.group(2), 16)


def test_t_block():
    r = run(["-v", elf("t_block")])
    assert r.returncode == 0, r.stdout + r.stderr


def test_t_block_single_stepped(tmp_path):
    """-d exec runs one instruction per cpu_exec call: a stop marker on
    nearly every entry, superinstructions made plain."""
    r = run(["-d", "exec", "-D", tmp_path / "log", "-v", elf("t_block")])
    assert r.returncode == 0, r.stdout + r.stderr
    fast = run(["-v", elf("t_block")])
    count = re.compile(rb"after (\d+) instructions")
    assert count.search(r.stderr).group(1) == count.search(fast.stderr).group(1)


def test_icount_limit_exact_inside_blocks(tmp_path):
    sym = symbols("t_block")
    total = int(re.search(rb"after (\d+) instructions",
                          run(["-v", elf("t_block")]).stderr).group(1))
    pcs = trace("t_block", total - 1, tmp_path)

    def first(label):
        return pcs.index(sym[label])

    windows = [
        (first("blk_long") - 2, 210),        # one 200-instruction block
        (first("blk_fused"), 40),            # addiu + bne + nop loop
        (first("blk_likely"), 16),           # beql nullified, branch + nop
        (first("blk_lchain") - 4, 16),       # beql chain, each nullifying the next
        (first("blk_pagecross"), 20),        # a block running off its page
        (first("blk_dspage"), 18),           # delay slot on the next page
        (first("smc_blk"), 10),              # store into the running block
        (first("smc_br"), 10),
        (first("flt_mid"), 40),              # fault in the middle of a block
        (first("flt_ds_taken"), 30),         # fault in a delay slot
    ]
    checked = 0
    for start, length in windows:
        assert start > 0
        for n in range(start, start + length):
            count, pc = stop_pc("t_block", n)
            assert count == n
            assert pc == pcs[n], "limit %d: pc 0x%08x, single-stepping says 0x%08x" % (
                n, pc, pcs[n])
            checked += 1
    assert checked > 350


def test_icount_limit_exact_in_if_converted_branches(tmp_path):
    """t_select's loop, hot and translated (the JIT is the default tier on
    x86-64): a limit anywhere in its if-converted branches stops where
    single-stepping says, whichever side the data picked."""
    top = symbols("t_select")["sel_top"]
    pcs = trace("t_select", 250000, tmp_path)  # crt0 clears memory for 138 k
    tops = [i for i, pc in enumerate(pcs) if pc == top]
    assert len(tops) > 2000
    checked = 0
    for start in (tops[1000], tops[2000]):
        for n in range(start, start + 70):  # two iterations and more
            count, pc = stop_pc("t_select", n)
            assert (count, pc) == (n, pcs[n]), "limit %d: pc 0x%08x, single-stepping says 0x%08x" % (
                n, pc, pcs[n])
            checked += 1
    assert checked == 140


@pytest.mark.parametrize("quantum", [1, 2, 3, 5, 13])
def test_llsc_between_cpus_tiny_quanta(dtbs, quantum):  # noqa: F811
    """A store by another CPU breaks a reservation, one to another word
    does not; an ll/sc counter on 4 CPUs loses nothing, with CPU switches
    every few instructions (between almost every ll and sc)."""
    for seed in ([], ["-seed", str(quantum)]):
        r = run(["-dtb", dtbs[4], "-quantum", quantum, "-v", "-timeout", "60"] + seed +
                [elf("t_smp_llsc")], timeout=90)
        assert r.returncode == 0, r.stdout + r.stderr
        assert b"llsc counter 12000\n" in r.stdout


def test_smp_icount_limit_is_exact(dtbs):  # noqa: F811
    for n in (1, 999, 1000, 1001, 4321, 77777):
        r = run(["-dtb", dtbs[4], "-quantum", "7", "-icount-limit", n, elf("t_smp_llsc")])
        assert r.returncode == 125, r.stderr
        assert b"instruction limit reached (%d instructions" % n in r.stderr


def test_gdb_single_step_and_breakpoint_in_superinstruction(tmp_path):
    sym = symbols("t_block")
    steps = 120
    pcs = trace("t_block", steps + 1, tmp_path)
    port = free_port()
    p = subprocess.Popen([str(EMU), "-gdb", f"tcp::{port}", "-S", "-timeout", "60",
                          str(elf("t_block"))], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        g = Rsp(connect(port))
        assert g.cmd("?") == "S05"
        for i in range(steps):
            pc = int.from_bytes(bytes.fromhex(g.cmd("p25")), "little")
            assert pc == pcs[i], "step %d" % i
            assert g.cmd("s") == "S05"
        # blk_fused: "1: addiu v0; addiu t2, t2, -1; bnez t2, 1b; nop": at
        # full speed the second addiu, the bnez and the nop run as one
        # superinstruction; a breakpoint on the bnez must still stop there
        bnez = sym["blk_fused"] + 5 * 4
        assert g.cmd("Z0,%x,4" % bnez) == "OK"
        t2 = []
        for _ in range(3):
            assert g.cmd("c") == "S05"
            assert int.from_bytes(bytes.fromhex(g.cmd("p25")), "little") == bnez
            t2.append(int.from_bytes(bytes.fromhex(g.cmd("pa")), "little"))
        assert t2 == [49, 48, 47]
        assert g.cmd("z0,%x,4" % bnez) == "OK"
        g.send("c")
        out, err = p.communicate(timeout=30)
        assert p.returncode == 0, err
    finally:
        p.kill()
        p.wait()


def test_pair_hist_build(tmp_path):
    r = subprocess.run(["make", "-s", "-C", str(EMU_DIR), f"BUILD={BUILD}", "PAIR_HIST=1"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    ph = BUILD / "bin" / "tsar-emu-pairhist"
    r = subprocess.run([str(ph), str(elf("t_block"))], capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    m = re.search(rb"instruction pairs \(PAIR_HIST\): (\d+) executed, top (\d+):\n", r.stderr)
    assert m, r.stderr
    fast = run(["-v", elf("t_block")])
    assert int(m.group(1)) == int(re.search(rb"after (\d+) instructions",
                                            fast.stderr).group(1)) - 1
    rows = re.findall(rb"\n +([\d.]+)% +(\d+)  (\w+) -> (\w+)", r.stderr)
    assert len(rows) == int(m.group(2)) == 40
    counts = [int(c) for _, c, _, _ in rows]
    assert counts == sorted(counts, reverse=True)
    pairs = {(a, b): int(c) for _, c, a, b in rows}
    # blk_fused runs its addiu -> bne -> nop loop 50 times, twice
    assert pairs.get((b"addiu", b"bne"), 0) >= 100
    assert pairs.get((b"bne", b"nop"), 0) >= 100
    # a normal build prints no histogram
    assert b"instruction pairs" not in fast.stderr


# ---- the translating tier against the interpreter ----

from test_baremetal import PROGRAMS, make_disk  # noqa: E402

JIT_HOST = __import__("platform").machine() in ("x86_64", "AMD64")


def run_tier(accel, name, tmp_path):
    exp = PROGRAMS[name]
    args = [str(EMU), "-accel", accel, "-v", "-timeout", "20"] + list(exp.get("args", []))
    if exp.get("disk"):
        args += ["-disk", str(make_disk(tmp_path / ("disk-%s.img" % accel)))]
    env = dict(os.environ, TEMU_JIT_HOT="2")  # translate on the second entry
    # console input from a file: all of it is there at the first poll, so
    # the guest's instruction count does not depend on when a pipe is written
    stdin = tmp_path / ("stdin-%s" % accel)
    stdin.write_bytes(exp.get("stdin", b""))
    with open(stdin, "rb") as f:
        r = subprocess.run(args + [str(elf(name))], stdin=f, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60, env=env)
    m = re.search(rb"(\d+) instructions", r.stderr)
    pc = re.search(rb"pc=(0x[0-9a-f]+)", r.stderr)
    return (r.returncode, r.stdout, int(m.group(1)) if m else None, pc and pc.group(1),
            r.stderr)


@pytest.mark.skipif(not JIT_HOST, reason="the JIT is for x86-64 hosts")
@pytest.mark.parametrize("name", sorted(n for n in PROGRAMS if "own_test" not in PROGRAMS[n]
                                        and not n.startswith("t_smp")))
def test_jit_runs_every_program_as_the_interpreter(name, tmp_path):
    """Same exit status, output and exact instruction count in both tiers
    (blocks translated on their second entry, so nearly all code is JIT)."""
    i = run_tier("interp", name, tmp_path)
    j = run_tier("jit", name, tmp_path)
    assert i[0] == PROGRAMS[name].get("rc", 0), i[4]
    assert i[2] is not None, i[4]
    assert b"accel jit:" in j[4] and b" 0 blocks translated" not in j[4], j[4]
    assert j[:4] == i[:4], "interp %r\njit %r" % (i, j)


def test_accel_option_is_checked():
    r = subprocess.run([str(EMU), "-accel", "fast", str(elf("t_hello"))],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    assert r.returncode == 126 and b"-accel" in r.stderr
    r = subprocess.run([str(EMU), str(elf("t_hello"))], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=30, env=dict(os.environ, TEMU_ACCEL="x"))
    assert r.returncode == 126 and b"TEMU_ACCEL" in r.stderr


@pytest.mark.skipif(not JIT_HOST, reason="the JIT is for x86-64 hosts")
@pytest.mark.parametrize("mode", [[], ["-seed", "3"], ["-quantum", "7"]])
def test_jit_smp_programs_as_the_interpreter(dtbs, mode, tmp_path):
    """4 CPUs: every t_smp_* program gives the same output and instruction
    count in both tiers, with the default, randomized and tiny slots."""
    names = sorted(p.stem for p in (EMU_DIR / "tests" / "baremetal").glob("t_smp_*.[cS]"))
    assert names
    for name in names:
        res = []
        for accel in ("interp", "jit"):
            r = subprocess.run([str(EMU), "-accel", accel, "-dtb", str(dtbs[4]), "-v",
                                "-timeout", "20"] + mode + [str(elf(name))],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60,
                               env=dict(os.environ, TEMU_JIT_HOT="2"))
            m = re.search(rb"after (\d+) instructions", r.stderr)
            res.append((r.returncode, r.stdout, m and int(m.group(1))))
        assert res[0][0] == 0 and res[0][2], (name, res[0])
        assert res[1] == res[0], (name, mode, res)
