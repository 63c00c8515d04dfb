#!/usr/bin/env python3
"""Where tsar-emu's host time goes, by category, from `perf record` data
(docs/emulator-speed.md). Record with the translated code named:

  TSAR_EMU_PERF_MAP=1 perf record -e cpu-clock -F 10000 -o DATA tsar-emu ...
  host-profile.py --emu build/bin/tsar-emu DATA [DATA...] [--top N]

(scripts/prof-real.py --wrap runs the real workloads that way.) Each
sample's function is put in a category by the source file that defines it
(nm -l on the emulator binary), translated code by its perf map name
(jit:dispatcher, k:<kernel symbol>, u:<user PC>); prints the share of
samples per category, then the top functions. Several DATA files are
summed (repeated runs of a short workload).
"""
import argparse
import collections
import pathlib
import re
import subprocess
import sys

# source file -> category (the rest: "emulator, other")
FILES = {
    "cpu.c": "interpreter (cpu_exec: ops, lookup, L_jit entry)",
    "decode.c": "decode (words, block lengths)",
    "jit_translate.c": "translation", "jit_mem.c": "translation",
    "jit_branch.c": "translation", "jit_region.c": "translation",
    "jit_x86.h": "translation",
    "mmu.c": "MMU walker, TLB clears",
    "mem.c": "memory slow paths (mem.c), LL/SC, code pages",
    "cp0.c": "exceptions, eret, CP0", "pmu.c": "exceptions, eret, CP0",
    "machine.c": "run loop, devices, interrupts", "bus.c": "run loop, devices, interrupts",
    "main.c": "run loop, devices, interrupts", "net_slirp.c": "run loop, devices, interrupts",
}
# functions of jit_runtime.c
RUNTIME = {"jit_run": "jit entry/exit (jit_run)",
           "jit_install": "decode (words, block lengths)",
           "plain_handler": "decode (words, block lengths)",
           "jit_drop_page": "memory slow paths (mem.c), LL/SC, code pages",
           "jit_flush": "translation", "jit_h_link": "jit helpers (slow paths, mfc0/mtc0, link)",
           # cpu.c's decoding
           "decode_at": "decode (words, block lengths)",
           "decode_word": "decode (words, block lengths)",
           "decode_store": "decode (words, block lengths)",
           "fuse": "decode (words, block lengths)",
           "dpage_reset": "decode (words, block lengths)"}


def func_files(emu):
    out = subprocess.run(["nm", "-l", "--defined-only", str(emu)], capture_output=True,
                         text=True).stdout
    files = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 4 and f[1] in "tT":
            files[f[2]] = pathlib.Path(f[3].rsplit(":", 1)[0]).name
    return files


def category(dso, sym, files):
    if dso.startswith("[JIT]") or dso.startswith("perf-") or sym.startswith(("jit:", "k:", "u:")):
        if sym == "jit:dispatcher":
            return "jit dispatcher (block-end lookup)"
        if sym in ("jit:trampoline", "jit:epilogue"):
            return "jit entry/exit (jit_run)"
        if sym.startswith("u:"):
            return "translated code: guest user"
        return "translated code: guest kernel"
    if dso.startswith("[kernel"):
        return "host kernel (page faults, syscalls, timers)"
    if "libc" in dso or "ld-linux" in dso:
        return "libc (memset, memcpy, ...)"
    base = sym.split(".")[0]
    if base.startswith("jit_h_"):
        return "jit helpers (slow paths, mfc0/mtc0, link)"
    if base in RUNTIME:
        return RUNTIME[base]
    if base in ("perf_map_region", "temu_symbol"):
        return "profiling (the perf map itself)"
    f = files.get(base) or files.get(sym)
    if f and f.startswith("dev_"):
        return "run loop, devices, interrupts"
    if f in FILES:
        return FILES[f]
    if f == "jit_runtime.c":
        return "jit helpers (slow paths, mfc0/mtc0, link)"
    return "emulator, other" if dso.startswith("tsar-emu") else f"other ({dso})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", type=pathlib.Path)
    ap.add_argument("--emu", required=True, type=pathlib.Path)
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()
    files = func_files(a.emu)
    cats, syms = collections.Counter(), collections.Counter()
    total = 0
    for d in a.data:
        out = subprocess.run(["perf", "report", "-i", str(d), "-n", "--stdio", "-q",
                              "--no-children", "--sort", "dso,sym"], capture_output=True,
                             text=True, errors="replace").stdout
        for line in out.splitlines():
            m = re.match(r"\s*[\d.]+%\s+(\d+)\s+(.+?)\s+\[[.k]\]\s+(.*\S)", line)
            if not m:
                continue
            n, dso, sym = int(m.group(1)), m.group(2).strip(), m.group(3)
            total += n
            c = category(dso, sym, files)
            cats[c] += n
            key = sym if not sym.startswith(("k:", "u:")) else sym.split("+")[0]
            syms[(c, key)] += n
    if not total:
        sys.exit("host-profile: no samples")
    print(f"{total} samples ({len(a.data)} file(s))")
    print(f"  {'category':<52} {'share':>6}")
    for c, n in cats.most_common():
        print(f"  {c:<52} {100 * n / total:5.1f}%")
    print(f"top {a.top} functions:")
    for (c, s), n in syms.most_common(a.top):
        print(f"  {100 * n / total:5.1f}%  {s:<40} {c}")


if __name__ == "__main__":
    main()
