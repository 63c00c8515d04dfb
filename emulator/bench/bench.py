#!/usr/bin/env python3
"""Guest-MIPS benchmark: tsar-emu (MMU on) vs qemu-system-mipsel (Malta,
bare metal, kseg0) vs qemu-mipsel (user mode), same compute kernels.

For every workload and platform: the wall time of a zero-iteration run is
subtracted from a run calibrated to take about BENCH_TIME seconds (default
1.5), instructions = exact per-iteration count x iterations (see kernels.S),
MIPS = instructions / (t(N) - t(0)).  Checksums printed by the guest are
verified (against Python for memcpy/crc32, across platforms for alu19), and
tsar-emu's own instruction counter (-v) is checked against the analytic
count when it prints one.  Prints figures only; there are no thresholds.

tsar-emu runs three times: with the block interpreter (-accel interp) and
with the translating tier (tsar-emu-jit, -accel jit), code and data in 2 MiB
PTE1 big pages (the figures used for the ratios), and through PT2s of 4 KiB
pages (tsar-emu-4K, interpreter).  The two last columns are the speed of
tsar-emu (interpreter) and of tsar-emu-jit relative to each platform.

Environment: BENCH_TIME (s), TSAR_EMU (path), BENCH_PLATFORMS (comma list of
tsar,tsarjit,tsar4k,qsys,quser), BENCH_KERNELS (comma list of alu19,memcpy,crc32).
"""

import os
import re
import statistics
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BUILD = os.environ.get("BENCH_BUILD", os.path.join(ROOT, "build", "emulator", "bench"))
CC = os.environ.get("MIPS_CC", "mipsel-linux-gnu-gcc")
CFLAGS = ["-EL", "-march=mips32r2", "-mno-abicalls", "-fno-pic", "-fno-pie", "-no-pie",
          "-nostdlib", "-static", "-G0", "-msoft-float", "-Wl,--build-id=none",
          "-Wl,-z,norelro"]
TSAR_EMU = os.environ.get("TSAR_EMU", os.path.join(ROOT, "build", "bin", "tsar-emu"))
TSAR_ARGS = os.environ.get("TSAR_EMU_ARGS", "-serial stdio -v").split()
TARGET = float(os.environ.get("BENCH_TIME", "1.5"))
M32 = 0xFFFFFFFF

MEM_BYTES, CRC_BYTES = 16384, 1024
KERNELS = [  # name, KERNEL number, instructions per iteration
    ("alu19", 1, 19),
    ("memcpy", 2, 8 + 15 * MEM_BYTES // 16),
    ("crc32", 3, 9 + 70 * CRC_BYTES),
]


def expected_checksum(kernel, n):
    if kernel == 2:
        src = [(i * 2654435761 + 12345) & M32 for i in range(MEM_BYTES // 4)]
        return (n * sum(src) + (src[-1] if n else 0)) & M32 if n else 0
    if kernel == 3:
        buf = bytes((i * i * 7 + i * 13 + 5) & 0xFF for i in range(CRC_BYTES))
        return (n * zlib.crc32(buf)) & M32
    return None


class Platform:
    name = ""
    plat = ""
    ld = ""

    defs = []
    tag = ""

    def link_args(self):
        """Linker script and start-up objects (before the sources)."""
        return ["-Wl,-T," + os.path.join(HERE, self.ld)], []

    def build(self, kernel, iters):
        os.makedirs(BUILD, exist_ok=True)
        out = os.path.join(BUILD, "%s%s-k%d-n%d.elf" % (self.plat, self.tag, kernel, iters))
        if not os.path.exists(out):
            ld, objs = self.link_args()
            cmd = [CC] + CFLAGS + self.defs + ["-DKERNEL=%d" % kernel, "-DITERS=%d" % iters] + \
                ld + [os.path.join(HERE, "plat_%s.S" % self.plat),
                      os.path.join(HERE, "common.S"),
                      os.path.join(HERE, "kernels.S")] + objs + ["-o", out + ".tmp"]
            subprocess.run(cmd, check=True)
            os.replace(out + ".tmp", out)
        return out

    def cmd(self, elf):
        raise NotImplementedError

    def run(self, kernel, iters):
        """Returns (wall seconds, checksum, emulator-reported insn count or None)."""
        elf = self.build(kernel, iters)
        t = time.perf_counter()
        r = subprocess.run(self.cmd(elf), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=300)
        dt = time.perf_counter() - t
        out = r.stdout.decode(errors="replace") + r.stderr.decode(errors="replace")
        m = re.search(r"CHK ([0-9a-f]{8})", out)
        if r.returncode != 0 or not m:
            raise RuntimeError("%s failed (exit %d): %s\n%s" % (self.name, r.returncode,
                                                               " ".join(self.cmd(elf)),
                                                               out[-1500:]))
        return dt, int(m.group(1), 16), self.insn_count(out)

    def insn_count(self, out):
        return None


# The TSAR platform part (plat_tsar.S) is main() for the bare-metal runtime
# (emulator/runtime: crt0, lib, link.ld, hwdesc.h from the spec), linked at
# this layout: code, data (and the runtime's stacks), page tables.
TSAR_LAYOUT = {"BENCH_TEXT": 0x00400000, "BENCH_DATA": 0x00800000, "BENCH_PT": 0x00200000}


def tsar_build_dir():
    """The build directory tsar-emu lives in (its bin/'s parent)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(TSAR_EMU)))


class Tsar(Platform):
    name, plat = "tsar-emu", "tsar"
    accel = "interp"

    def link_args(self):
        sys.path.insert(0, os.path.join(ROOT, "emulator", "runtime"))
        import runtime  # noqa: E402
        rt = runtime.flags(tsar_build_dir())
        lay = ["-D%s=0x%x" % kv for kv in TSAR_LAYOUT.items()] + [
            "-Wl,--defsym=RT_TEXT=0x%x" % TSAR_LAYOUT["BENCH_TEXT"],
            "-Wl,--defsym=RT_DATA=0x%x" % TSAR_LAYOUT["BENCH_DATA"],
            "-Wl,--defsym=RT_PT=0x%x" % TSAR_LAYOUT["BENCH_PT"]]
        inc = [f for f in rt["RT_CFLAGS"] if f.startswith("-I")]
        return inc + lay + [f for f in rt["RT_LDFLAGS"] if f.startswith("-Wl,-T")], \
            runtime.objs(tsar_build_dir(), with_mmu=False) + ["-lgcc"]

    def cmd(self, elf):
        return [TSAR_EMU, "-accel", self.accel] + TSAR_ARGS + [elf]

    def insn_count(self, out):
        m = re.search(r"(\d+)\s+instructions", out) or \
            re.search(r"instructions\D{0,10}(\d+)", out, re.I) or \
            re.search(r"insns\D{0,10}(\d+)", out, re.I)
        return int(m.group(1)) if m else None


class TsarJit(Tsar):
    name, accel = "tsar-emu-jit", "jit"


class Tsar4K(Tsar):
    name, defs, tag = "tsar-emu-4K", ["-DPAGES4K=1"], "4k"


class QemuSystem(Platform):
    name, plat, ld = "qemu-system", "malta", "malta.ld"

    def cmd(self, elf):
        return ["qemu-system-mipsel", "-M", "malta", "-m", "256", "-nographic",
                "-no-reboot", "-net", "none", "-vga", "none", "-kernel", elf]


class QemuUser(Platform):
    name, plat, ld = "qemu-user", "user", "user.ld"

    def cmd(self, elf):
        return ["qemu-mipsel", "-cpu", "24Kc", elf]


def measure(p, kernel, per_iter, log):
    """Calibrate the iteration count, then measure. Returns a result dict."""
    zero = [p.run(kernel, 0) for _ in range(2)]
    t0 = min(z[0] for z in zero)
    n = max(1, int(2e6 / per_iter))
    while True:
        dt, chk, cnt = p.run(kernel, n)
        if dt - t0 >= 0.25 or n > 4e9 / per_iter:
            break
        n = int(n * min(50, max(2.0, 0.35 / max(dt - t0, 1e-3))))
    n = max(1, int(n * TARGET / max(dt - t0, 1e-3)))
    n = min(n, (1 << 32) - 1)
    runs = [p.run(kernel, n)]
    dt, chk, cnt = runs[0]
    insns = per_iter * n
    el = max(dt - t0, 1e-6)
    res = {"n": n, "insns": insns, "secs": el, "mips": insns / el / 1e6, "chk": chk,
           "t0": t0}
    exp = expected_checksum(kernel, n)
    if exp is not None and chk != exp:
        res["error"] = "checksum 0x%08x, expected 0x%08x" % (chk, exp)
    if cnt is not None and zero[0][2] is not None:
        diff = cnt - zero[0][2]
        res["count_check"] = (diff == insns)
        if diff != insns:
            res["error"] = "emulator counted %d instructions, analytic %d" % (diff, insns)
    log("  %-11s %-7s n=%-10d %.3f s (startup %.3f s) %8.1f MIPS%s" % (
        p.name, "", n, el, t0, res["mips"],
        "  ERROR: " + res["error"] if "error" in res else ""))
    return res


def main():
    plats = {"tsar": Tsar(), "tsarjit": TsarJit(), "tsar4k": Tsar4K(), "qsys": QemuSystem(),
             "quser": QemuUser()}
    want = os.environ.get("BENCH_PLATFORMS", "tsar,tsarjit,tsar4k,qsys,quser").split(",")
    if "tsar" in want and not os.path.exists(TSAR_EMU):
        print("bench: %s not found; build the emulator first" % TSAR_EMU, file=sys.stderr)
        sys.exit(2)
    kern = os.environ.get("BENCH_KERNELS", ",".join(k[0] for k in KERNELS)).split(",")
    plats = [plats[w] for w in want if w in plats]
    log = lambda s: print(s, flush=True)
    log("tsar-emu benchmark: guest MIPS, kernel mode, MMU on (2 MiB pages; tsar-emu-4K: 4 KiB pages); "
        "target %.1f s per run" % TARGET)
    results = {}
    errors = 0
    for name, k, per in KERNELS:
        if name not in kern:
            continue
        log("%s (%d instructions per iteration):" % (name, per))
        # correctness cross-check at a small fixed count
        chks = {p.name: p.run(k, 1000)[1] for p in plats}
        if len(set(chks.values())) != 1:
            log("  CHECKSUM MISMATCH at n=1000: %s" % chks)
            errors += 1
        for p in plats:
            results[(name, p.name)] = r = measure(p, k, per, log)
            errors += "error" in r
    # table: one row per workload and platform
    log("")
    has_tsar = any(p.name == "tsar-emu" for p in plats)
    has_jit = any(p.name == "tsar-emu-jit" for p in plats)
    hdr = "%-8s  %-12s %14s %8s %9s  %13s  %s" % ("workload", "platform", "instructions",
                                                  "seconds", "MIPS",
                                                  "tsar-emu/this" if has_tsar else "",
                                                  "jit/this" if has_jit else "")
    log(hdr)
    log("-" * len(hdr))
    for name, k, per in KERNELS:
        if name not in kern:
            continue
        for p in plats:
            r = results[(name, p.name)]
            ratio = jratio = ""
            if has_tsar and p.name != "tsar-emu":
                ratio = "%.2f" % (results[(name, "tsar-emu")]["mips"] / r["mips"])
            if has_jit and p.name != "tsar-emu-jit":
                jratio = "%.2f" % (results[(name, "tsar-emu-jit")]["mips"] / r["mips"])
            log("%-8s  %-12s %14d %8.3f %9.1f  %13s  %s" % (name, p.name, r["insns"], r["secs"],
                                                           r["mips"], ratio, jratio))
    if has_tsar:
        cc = [r.get("count_check") for (n, pn), r in results.items()
              if pn.startswith("tsar-emu")]
        if all(c is True for c in cc):
            log("tsar-emu instruction counter agrees exactly with the analytic counts.")
        elif all(c is None for c in cc):
            log("(tsar-emu printed no instruction count; counts are analytic)")
    if errors:
        log("bench: %d error(s) above" % errors)
        sys.exit(1)


if __name__ == "__main__":
    main()
