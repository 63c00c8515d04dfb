#!/usr/bin/env python3
"""Host-side cost of the emulator's CPUs (figures only, no thresholds).

smp_work.c runs the t_perf loop on every CPU (each on its own buffer, MMU
on), on the test platforms of emulator/tests/dts with 1, 2, 4 and 8 CPUs:
the guest work grows with the CPU count, so aggregate MIPS at N CPUs over
MIPS at 1 CPU is the host-side cost of interleaving (1.0 = none).  A second
series runs the same work on CPU 0 only while the other CPUs sleep in
`wait` (cost of idle CPUs).  Each figure is the best of REPS runs of host
user+system time, minus a zero-iteration run.  Also run with -quantum 100.

Environment: TSAR_EMU, BENCH_BUILD, SMP_ITERS (default 2000), REPS (3).
"""
import os
import re
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BM = os.path.join(ROOT, "emulator", "tests", "baremetal")
DTS = os.path.join(ROOT, "emulator", "tests", "dts")
BUILD = os.environ.get("BENCH_BUILD", os.path.join(ROOT, "build", "emulator", "bench"))
EMU = os.environ.get("TSAR_EMU", os.path.join(ROOT, "build", "bin", "tsar-emu"))
CC = os.environ.get("MIPS_CC", "mipsel-linux-gnu-gcc")
ITERS = int(os.environ.get("SMP_ITERS", "2000"))
REPS = int(os.environ.get("REPS", "3"))
# smp_work.c's own flags (the runtime's objects come built: runtime.flags)
CFLAGS = ["-EL", "-march=mips32r2", "-msoft-float", "-G0", "-fno-pic", "-mno-abicalls",
          "-fno-pie", "-O2", "-ffreestanding", "-fno-builtin", "-nostdlib",
          "-fno-stack-protector", "-fno-asynchronous-unwind-tables", "-I", BM]
sys.path.insert(0, os.path.join(ROOT, "emulator", "runtime"))
import runtime  # noqa: E402  (the bare-metal runtime: crt0, lib, mmu, link.ld, hwdesc.h)


def build_elf(iters, workers):
    out = os.path.join(BUILD, f"smp-work-i{iters}-w{workers}.elf")
    if not os.path.exists(out):
        rt = runtime.flags(os.path.dirname(os.path.dirname(os.path.abspath(EMU))))
        inc = [f for f in rt["RT_CFLAGS"] if f.startswith("-I")]
        subprocess.run([CC] + CFLAGS + inc + rt["RT_LDFLAGS"] +
                       [f"-DITERS={iters}", f"-DWORKERS={workers}", "-o", out]
                       + rt["RT_OBJS"] + [os.path.join(HERE, "smp_work.c"), "-lgcc"], check=True)
    return out


def build_dtb(n):
    """tests/dts/smpN.dts with the spec's addresses (make -C emulator test-dtbs)."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(EMU)))
    subprocess.run(["make", "-s", "-C", os.path.join(ROOT, "emulator"), "BUILD=" + build,
                    "test-dtbs"], check=True)
    return os.path.join(build, "emulator", "tests", "dts", f"smp{n}.dtb")


def run(elf, dtb, extra):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([EMU, "-dtb", dtb, "-serial", "none", "-v"] + extra + [elf],
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=600)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit(f"smp_bench: {elf} failed ({p.returncode}): {p.stderr.decode()}")
    n = int(re.search(rb"after (\d+) instructions", p.stderr).group(1))
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), n


def best(elf, dtb, extra):
    return min(run(elf, dtb, extra) for _ in range(REPS))


def main():
    os.makedirs(BUILD, exist_ok=True)
    dtbs = {n: build_dtb(n) for n in (1, 2, 4, 8)}
    print(f"SMP host cost: t_perf loop x {ITERS} per working CPU (best of {REPS}, "
          "host CPU time)")
    print(f"{'series':24} {'cpus':>4} {'instructions':>13} {'seconds':>8} {'MIPS':>7} "
          f"{'cost/insn vs 1 CPU':>19}")
    for label, workers, extra in (("all CPUs work", 0, []),
                                  ("all CPUs work, q=100", 0, ["-quantum", "100"]),
                                  ("CPU 0 works, rest idle", 1, [])):
        full, zero = build_elf(ITERS, workers), build_elf(0, workers)
        base = None
        for n in (1, 2, 4, 8):
            t, ins = best(full, dtbs[n], extra)
            t0, ins0 = best(zero, dtbs[n], extra)
            dt, di = max(t - t0, 1e-6), ins - ins0
            mips = di / dt / 1e6
            base = base or mips
            print(f"{label:24} {n:4} {di:13} {dt:8.3f} {mips:7.1f} {base / mips:19.2f}")


if __name__ == "__main__":
    main()
