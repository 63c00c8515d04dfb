#!/usr/bin/env python3
"""Guest speed figures of the TSAR port (`make bench`): figures, not pass/fail.

* Boot instructions to "Run /init": the smallest -icount-limit at which the
  kernel has printed "Run /init as init process", found by bisection (each
  try is a boot stopped at the limit; the emulator counts instructions
  exactly, idle time excluded).
* Per-operation instruction counts printed by the guest program /bin/bench
  (userland/tests/bench.c, CP0 Count via rdhwr: one count per instruction).

* SMP figures (scripts/bench_smp.py): boot instructions and
  wall time to /init on 1, 2, 4 and 8 CPUs, a parallel workload's speed-up
  in guest time, the emulator's host cost per CPU added.

Usage: bench-guest.py [--emu E] [--dtb D] [--vmlinux V] [--vmlinux8 V8]
                      [--no-boot] [--no-smp | --smp-only]
Prints a table with the guest speed targets beside the figures, then the
SMP figures, one per line.
"""
import argparse
import re
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import bench_smp  # noqa: E402
INIT_LINE = "Run /init as init process"
APPEND = "console=ttyVTTY0"

# name printed by the guest -> (what, target); None: no target set.
FIGURES = [
    ("null_syscall", "null syscall (getppid)", "<= 150"),
    ("clock_gettime_vdso", "clock_gettime, vDSO (CLOCK_MONOTONIC)", None),
    ("clock_gettime_syscall", "clock_gettime, system call (CLOCK_MONOTONIC)", None),
    ("pipe_switch", "context switch (pipe ping-pong, per hop)", "<= 600"),
    ("sched_yield_pair", "sched_yield pair (CFS: mostly no switch)", None),
    ("fifo_yield_switch", "context switch (sched_yield, SCHED_FIFO)", "<= 600"),
    ("fork_exit_wait", "fork + exit + wait", "<= 150,000"),
    ("fork_exec_exit_wait", "fork + exec + exit + wait", None),
    ("anon_write_fault", "anonymous page write fault", "<= 5,000"),
    ("anon_read_fault", "anonymous page read fault (zero page)", None),
    ("empty_loop", "empty loop iteration (noise floor)", None),
]

BENCH_RE = re.compile(r"^bench: (\w+) (\d+) per (\w+) \((.*)\)$", re.M)


def parse_bench(out):
    """{name: (instructions, unit, how)} from /bin/bench's output."""
    return {m.group(1): (int(m.group(2)), m.group(3), m.group(4))
            for m in BENCH_RE.finditer(out)}


def emu_cmd(args, *extra):
    return [str(args.emu), "-dtb", str(args.dtb), *extra, str(args.vmlinux)]


def reaches_init(args, limit):
    proc = subprocess.run(emu_cmd(args, "-idle", "skip", "-icount-limit",
                                  str(limit), "-timeout", "120",
                                  "-append", APPEND),
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, errors="replace", timeout=200)
    if proc.returncode not in (0, 125):
        sys.exit(f"bench-guest: boot failed ({proc.returncode}): "
                 f"{proc.stderr.strip()[-300:]}")
    return INIT_LINE in proc.stdout


def boot_instructions(args, hi=400_000_000, precision=50_000):
    """Instructions executed until "Run /init" is printed (to +-precision)."""
    if not reaches_init(args, hi):
        return None
    lo = 0
    while hi - lo > precision:
        mid = (lo + hi) // 2
        if reaches_init(args, mid):
            hi = mid
        else:
            lo = mid
    return hi


def run_bench(args):
    proc = subprocess.run(emu_cmd(args, "-idle", "skip", "-timeout", "300",
                                  "-append", f"{APPEND} portkit_run=bench"),
                          stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, errors="replace", timeout=400)
    out = proc.stdout.replace("\r\n", "\n")
    if "portkit-run: bench exited with status 0" not in out:
        sys.exit("bench-guest: /bin/bench failed:\n" + out[-2000:])
    return parse_bench(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--emu", default=ROOT / "build/bin/tsar-emu")
    ap.add_argument("--dtb", default=ROOT / "build/tsar/tsar-monocluster.dtb")
    ap.add_argument("--vmlinux", default=ROOT / "build/tsar/vmlinux")
    ap.add_argument("--no-boot", action="store_true",
                    help="skip the boot-to-/init bisection (about 12 boots)")
    ap.add_argument("--vmlinux8", default=ROOT / "build/tsar-smp8/vmlinux",
                    help="kernel with NR_CPUS=8 (specs/tsar-smp8.yaml) for 8 CPUs")
    ap.add_argument("--no-smp", action="store_true", help="skip the SMP figures")
    ap.add_argument("--smp-only", action="store_true", help="only the SMP figures")
    args = ap.parse_args()

    status = 0 if args.smp_only else table(args)
    if not args.no_smp:
        def boot_insns(emu, dtb, vmlinux):
            return boot_instructions(SimpleNamespace(emu=emu, dtb=dtb, vmlinux=vmlinux))
        status |= bench_smp.run(args.emu, args.dtb,
                                [Path(args.vmlinux), Path(args.vmlinux8)],
                                boot_insns, Path(args.vmlinux).parent / "bench-smp",
                                no_boot=args.no_boot)
    return status


def table(args):
    t0 = time.time()
    figs = run_bench(args)
    boot = None if args.no_boot else boot_instructions(args)

    rows = [("what", "guest instructions", "target")]
    if not args.no_boot:
        rows.append(("boot to \"Run /init\"",
                     "not reached" if boot is None else f"{boot / 1e6:.2f} M",
                     "< 30 M"))
    for name, what, target in FIGURES:
        if name in figs:
            rows.append((what, f"{figs[name][0]:,}", target or "-"))
        else:
            rows.append((what, "missing", target or "-"))
    w = [max(len(r[i]) for r in rows) for i in range(3)]
    print("Guest figures (tsar-emu: CP0 Count = instructions executed)")
    for i, r in enumerate(rows):
        print(f"  {r[0]:<{w[0]}}  {r[1]:>{w[1]}}  {r[2]}")
        if i == 0:
            print(f"  {'-' * w[0]}  {'-' * w[1]}  {'-' * w[2]}")
    print(f"({time.time() - t0:.0f} s of host time)")
    return 0 if all(n in figs for n, _, _ in FIGURES) else 1


if __name__ == "__main__":
    sys.exit(main())
