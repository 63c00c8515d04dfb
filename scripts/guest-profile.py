#!/usr/bin/env python3
"""Map a guestprof histogram (emulator/prof) to kernel functions.

Usage: guest-profile.py COUNTS VMLINUX [--per N] [--top K] [--func NAME]
  COUNTS   output of build/bin/guestprof ("PC COUNT" lines, "user"/"total")
  --per N  divide counts by N (operations in the window) to show per-op cost
  --func   also list that function's instructions (PC, count) in order
Prints functions by instructions executed, most first.
"""
import argparse
import bisect
import subprocess
import sys


def symbols(vmlinux):
    out = subprocess.run(["mipsel-linux-gnu-nm", "-n", vmlinux],
                         capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms.append((int(parts[0], 16) & 0xffffffff, parts[2]))
    return syms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("counts")
    ap.add_argument("vmlinux")
    ap.add_argument("--per", type=float, default=1.0)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--func", action="append", default=[])
    a = ap.parse_args()

    syms = symbols(a.vmlinux)
    addrs = [s[0] for s in syms]
    funcs, pcs, extra = {}, {}, {}
    for line in open(a.counts):
        k, v = line.split()
        if k in ("user", "total"):
            extra[k] = int(v)
            continue
        pc = int(k, 16)
        i = bisect.bisect_right(addrs, pc) - 1
        name = syms[i][1] if i >= 0 else "?"
        funcs[name] = funcs.get(name, 0) + int(v)
        pcs.setdefault(name, []).append((pc, int(v)))
    total = extra.get("total", sum(funcs.values()))
    print(f"total {total / a.per:,.1f}  user {extra.get('user', 0) / a.per:,.1f}"
          f"  kernel {sum(funcs.values()) / a.per:,.1f}  (per {a.per:g})")
    for name, n in sorted(funcs.items(), key=lambda x: -x[1])[:a.top]:
        print(f"{n / a.per:12,.1f} {100 * n / max(total, 1):5.1f}%  {name}")
    for f in a.func:
        print(f"--- {f}")
        for pc, n in pcs.get(f, []):
            print(f"  {pc:08x} {n / a.per:10,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
