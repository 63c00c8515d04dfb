#!/usr/bin/env python3
"""Host instructions per guest instruction of tsar-emu on the bench kernels.

For each kernel of kernels.S (the tsar platform of bench.py: kernel mode,
MMU on, 2 MiB pages), tsar-emu runs under valgrind's cachegrind with the
cache simulation off, which counts the host instructions executed (`I
refs`).  The count of a zero-iteration build (start-up, loading, set-up
code) is subtracted from that of an N-iteration build, and the difference is
divided by the guest instructions of the N iterations (exact, see kernels.S).
Hardware counters are not needed (perf often has none in a VM).

    python3 emulator/bench/hostcost.py      # TSAR_EMU=path, HOSTCOST_INSNS=guest insns,
                                            # HOSTCOST_ACCEL=interp,jit (the tiers)
Prints figures only.  Exit 2 when valgrind or the emulator is missing.
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

TARGET = int(os.environ.get("HOSTCOST_INSNS", "20000000"))


def host_insns(cmd):
    r = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                        "--cachegrind-out-file=/dev/null", "--smc-check=all-non-file"] + cmd,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    err = r.stderr.decode(errors="replace")
    m = re.search(r"I\s+refs:\s+([\d,]+)", err)
    if r.returncode != 0 or not m:
        raise RuntimeError("valgrind run failed (exit %d): %s\n%s"
                           % (r.returncode, " ".join(cmd), err[-1500:]))
    return int(m.group(1).replace(",", ""))


def main():
    if not shutil.which("valgrind"):
        print("hostcost: valgrind not found", file=sys.stderr)
        sys.exit(2)
    if not os.path.exists(bench.TSAR_EMU):
        print("hostcost: %s not found; build the emulator first" % bench.TSAR_EMU,
              file=sys.stderr)
        sys.exit(2)
    plat = bench.Tsar()
    want = os.environ.get("BENCH_KERNELS", "alu19,memcpy,crc32").split(",")
    modes = os.environ.get("HOSTCOST_ACCEL", "interp,jit").split(",")
    print("host instructions per guest instruction (valgrind cachegrind, %s):"
          % bench.TSAR_EMU)
    print("  %-7s %s" % ("", "".join("%14s" % ("-accel " + a) for a in modes)))
    for name, k, per in bench.KERNELS:
        if name not in want:
            continue
        n = max(1, TARGET // per)
        figs = []
        for a in modes:
            plat.accel = a
            h0 = host_insns(plat.cmd(plat.build(k, 0)))
            hn = host_insns(plat.cmd(plat.build(k, n)))
            figs.append((hn - h0) / (n * per))
        print("  %-7s %s   (%d guest instructions)" % (name, "".join("%14.2f" % f for f in figs),
                                                       n * per), flush=True)


if __name__ == "__main__":
    main()
