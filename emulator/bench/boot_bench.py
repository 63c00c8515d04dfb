#!/usr/bin/env python3
"""Boot time of the TSAR kernel in each tsar-emu tier (`make bench`).

Boots VMLINUX (single CPU platform DTB, no disk) to its power-off with
-accel interp and with -accel jit, best wall time of BOOT_RUNS (default 3)
runs each, and prints: guest instructions (the same in both tiers: the
count is exact), wall seconds, MIPS, and for the JIT the blocks translated,
host code size, direct links and the host time spent translating (the
translation overhead, also as a share of the boot).  Figures, not a test.

    boot_bench.py --emu build/bin/tsar-emu --dtb build/tsar/tsar-monocluster.dtb \
                  --vmlinux build/tsar/vmlinux
"""
import argparse
import os
import re
import subprocess
import sys
import time

RUNS = int(os.environ.get("BOOT_RUNS", "3"))


def boot(emu, dtb, vmlinux, accel):
    cmd = [emu, "-accel", accel, "-v", "-timeout", "600", "-dtb", dtb, vmlinux]
    t = time.perf_counter()
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=900)
    dt = time.perf_counter() - t
    err = r.stderr.decode(errors="replace")
    out = r.stdout.decode(errors="replace")
    m = re.search(r"after (\d+) instructions", err)
    if r.returncode != 0 or not m or "reboot: Power down" not in out:
        raise RuntimeError("boot failed (exit %d): %s\n%s" % (r.returncode, " ".join(cmd),
                                                             (out + err)[-2000:]))
    j = re.search(r"accel jit: (\d+) blocks translated in ([\d.]+) s, (\d+) bytes of host "
                  r"code, (\d+) links, (\d+) flushes", err)
    return dt, int(m.group(1)), j


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--emu", required=True)
    ap.add_argument("--dtb", required=True)
    ap.add_argument("--vmlinux", required=True)
    a = ap.parse_args()
    for f in (a.emu, a.dtb, a.vmlinux):
        if not os.path.exists(f):
            print("boot_bench: %s not found" % f, file=sys.stderr)
            sys.exit(2)
    print("TSAR kernel boot to power-off, best of %d (%s):" % (RUNS, a.vmlinux))
    print("  %-7s %12s %9s %8s" % ("tier", "instructions", "seconds", "MIPS"))
    counts = {}
    for accel in ("interp", "jit"):
        best = None
        for _ in range(RUNS):
            res = boot(a.emu, a.dtb, a.vmlinux, accel)
            if best is None or res[0] < best[0]:
                best = res
        dt, n, j = best
        counts[accel] = n
        print("  %-7s %12d %9.3f %8.1f" % (accel, n, dt, n / dt / 1e6), flush=True)
        if j:
            tr = float(j.group(2))
            print("          JIT: %s blocks translated in %.3f s (%.1f %% of the boot), "
                  "%s bytes of host code, %s links, %s flushes"
                  % (j.group(1), tr, 100.0 * tr / dt, j.group(3), j.group(4), j.group(5)))
    if len(set(counts.values())) == 1:
        print("  the instruction counts of both tiers are identical")
    else:
        print("  INSTRUCTION COUNTS DIFFER: %s" % counts)
        sys.exit(1)


if __name__ == "__main__":
    main()
