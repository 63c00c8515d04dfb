"""The guest speed program (/bin/bench, userland/tests/bench.c) runs and
prints plausible figures; `make bench` (scripts/bench-guest.py) tabulates
them with the guest speed targets. Figures, not thresholds: only sanity here.
The SMP figures (scripts/bench_smp.py): the parallel workload
(/bin/smp-speedup) runs pinned and speeds up on the spec's CPUs, and the
bench's 1/2/4/8-CPU device trees are what the generator makes for a spec
with that many CPUs."""
import importlib.util
import re
import subprocess
import sys

import pytest

from guest import guest_kernel, program_status
from kbuild import ROOT, load_spec

_spec = importlib.util.spec_from_file_location(
    "bench_guest", ROOT / "scripts" / "bench-guest.py")
bench_guest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_guest)
bench_smp = bench_guest.bench_smp


@pytest.fixture(scope="module")
def bench_boot():
    """One boot for both guest speed programs."""
    k = guest_kernel("tsar")
    return k, k.run_programs("bench", "smp-speedup", timeout=300)


def test_bench_program(bench_boot):
    k, (rc, out, err) = bench_boot
    assert program_status(out, "bench") == ("exited", 0), out[-3000:]
    figs = bench_guest.parse_bench(out)
    names = [n for n, _, _ in bench_guest.FIGURES]
    assert sorted(figs) == sorted(names), figs
    for name, (insns, unit, how) in figs.items():
        print(f"{name}: {insns} per {unit}")
        assert insns > 0, name
    # Orders of magnitude that any working kernel shows: a syscall costs
    # more than a loop iteration and less than a fork; exec adds to fork;
    # a write fault clears a page, a read fault maps the zero page.
    f = {n: v[0] for n, v in figs.items()}
    assert f["empty_loop"] < 20
    assert f["empty_loop"] < f["null_syscall"] < 20_000
    assert f["null_syscall"] < f["sched_yield_pair"] < f["fork_exit_wait"]
    assert f["null_syscall"] < f["pipe_switch"] < f["fork_exit_wait"]
    assert f["null_syscall"] < f["fifo_yield_switch"] < f["fork_exit_wait"]
    assert f["fork_exit_wait"] < f["fork_exec_exit_wait"] < 50_000_000
    assert f["anon_read_fault"] < f["anon_write_fault"] < 1_000_000
    # the vDSO answers without entering the kernel: cheaper than any call
    assert f["empty_loop"] < f["clock_gettime_vdso"] < f["null_syscall"]
    assert f["clock_gettime_vdso"] < f["clock_gettime_syscall"]
    assert "bench: done" in out


def test_smp_speedup_pins_workers_and_runs_them_in_parallel(bench_boot):
    k, (rc, out, err) = bench_boot
    cpus = k.spec["platform"]["cpus"]["count"]
    lines = "\n".join(l for l in out.splitlines() if l.startswith("smp-speedup:"))
    assert program_status(out, "smp-speedup") == ("exited", 0), lines or out[-3000:]
    assert f"smp-speedup: cpus {cpus} workers {cpus} iters 100000" in out, lines
    phase = {}
    for name in ("one", "spread"):
        m = re.search(rf"^smp-speedup: {name} (\d+) us guest, pinned (\d+) of (\d+), "
                      r"cpus ([0-9a-f]+)$", out, re.M)
        assert m, lines
        assert int(m.group(2)) == int(m.group(3)) == cpus, lines
        phase[name] = (int(m.group(1)), int(m.group(4), 16))
    # every worker where it was pinned: all on CPU 0, then one per CPU
    assert phase["one"][1] == 1 and phase["spread"][1] == (1 << cpus) - 1, lines
    # the same work on 4 CPUs at once takes well under half the guest time
    speedup = phase["one"][0] / phase["spread"][0]
    print(f"speed-up {speedup:.2f} on {cpus} CPUs")
    assert speedup > cpus / 2, lines
    m = re.search(r"^smp-speedup: speedup (\d+\.\d\d) \(one / spread\)$", out, re.M)
    assert m and abs(float(m.group(1)) - speedup) < 0.011, lines


def _dts(dtb):
    return subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(dtb)],
                          capture_output=True, text=True, check=True).stdout


def _compile(dts, out):
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(out), str(dts)],
                   check=True)
    return out


def test_bench_device_trees_follow_the_spec(tmp_path):
    """make_dtb(spec's DTB, n): n cpu nodes with ids 0..n-1 in order and n
    PTI timers and WTI mailboxes (hw ref 3.2); for 4 the spec's own DTB,
    for 8 the one generated from specs/tsar-smp8.yaml."""
    dts = "arch/tsar/boot/dts/tsar-monocluster.dts"
    base = _compile(ROOT / "generated" / dts, tmp_path / "base.dtb")
    subprocess.run([sys.executable, str(ROOT / "generate.py"),
                    str(ROOT / "specs" / "tsar-smp8.yaml"), "-o", str(tmp_path / "gen8")],
                   check=True, capture_output=True)
    gen8 = _compile(tmp_path / "gen8" / dts, tmp_path / "gen8.dtb")
    xicu = next(d for d in load_spec(ROOT / "arch-spec.yaml")["platform"]["devices"]
                if d["name"] == "xicu")
    hwi = xicu["properties"]["hwi_count"]
    for n in bench_smp.CPU_COUNTS:
        text = _dts(bench_smp.make_dtb(base, n, tmp_path / f"smp{n}.dtb"))
        regs = re.findall(r"cpu@(\w+) \{\s*device_type = \"cpu\";.*?reg = <(\w+)>;",
                          text, re.S)
        assert [(int(a, 16), int(b, 16)) for a, b in regs] == [(i, i) for i in range(n)], text
        for prop, value in (("pti-count", n), ("wti-count", n), ("hwi-count", hwi)):
            assert re.search(rf"soclib,{prop} = <{value:#04x}>;", text), (prop, text)
        if n == 4:
            assert text == _dts(base)
        if n == 8:
            assert text == _dts(gen8)
