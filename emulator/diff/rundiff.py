#!/usr/bin/env python3
"""Build and run differential tests: QEMU user mode vs tsar-emu (vs the model).

Usage (from anywhere):
  emulator/diff/rundiff.py [--seed N] [--batches B] [--seqs S] [--insns I]
                           [--variants kphys,kmmu,user] [--no-tsar] [--directed]
  emulator/diff/rundiff.py --repro build/emulator/diff/fail-....S

Each batch is one ELF per platform/variant.  QEMU (qemu-mipsel -cpu 24Kc) is the
oracle.  tsar-emu variants: kphys = kernel mode, MMU off; kmmu = kernel mode,
MMU on (identity page table, 2 MiB and 4 KiB pages); user = user mode, MMU on;
the *-chunk and *-step variants run the same ELFs through emulator/diff/
chunkrun.c, in random slices of 1..N instructions or single-stepping around
random breakpoints (execution must not depend on where runs stop).
On a mismatch the report names the seed, the sequence, the first differing
register/word, and a standalone reproducer .S is written under build/.
"""

import argparse
import concurrent.futures as cf
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen  # noqa: E402
import mipsmodel as M  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BUILD = os.environ.get("DIFF_BUILD", os.path.join(ROOT, "build", "emulator", "diff"))
HARNESS = os.path.join(HERE, "harness")
CC = os.environ.get("MIPS_CC", "mipsel-linux-gnu-gcc")
CFLAGS = ["-EL", "-march=mips32r2", "-mno-abicalls", "-fno-pic", "-fno-pie", "-no-pie",
          "-nostdlib", "-static", "-G0", "-msoft-float", "-Wa,-mno-fix-loongson3-llsc",
          "-Wl,--build-id=none", "-Wl,-z,norelro", "-Wl,-z,noexecstack",
          "-Wl,--no-warn-rwx-segments", "-Wl,-L," + HARNESS]
# QEMU: harness/link.ld; tsar-emu: the bare-metal runtime's (crt0, lib, link.ld,
# hwdesc.h from the spec) plus harness/tsar.ld, at gen.py's layout
QEMU_LD = ["-Wl,-T," + os.path.join(HARNESS, "link.ld")]
QEMU = os.environ.get("QEMU_MIPSEL", "qemu-mipsel")
QEMU_CPU = os.environ.get("QEMU_CPU", "24Kc")
TSAR_EMU = os.environ.get("TSAR_EMU", os.path.join(ROOT, "build", "bin", "tsar-emu"))
TSAR_ARGS = os.environ.get("TSAR_EMU_ARGS", "-serial stdio").split()
CRT = {"kphys": ["-DTSAR_MMU=0", "-DTSAR_USER=0"],
       "kmmu": ["-DTSAR_MMU=1", "-DTSAR_USER=0"],
       "user": ["-DTSAR_MMU=1", "-DTSAR_USER=1"]}
# variant -> (crt, runner): runner None = the tsar-emu CLI, else chunkrun args
# ("{lo}", "{hi}" = the .seqtext range, "{seed}" = a per-batch seed)
VARIANTS = {"kphys": ("kphys", None), "kmmu": ("kmmu", None), "user": ("user", None),
            "kphys-chunk": ("kphys", ["-c", "37", "-s", "{seed}"]),
            "user-chunk": ("user", ["-c", "11", "-s", "{seed}"]),
            "kmmu-step": ("kmmu", ["-b", "48", "-r", "{lo}:{hi}", "-s", "{seed}"])}
TSAR_LIB = os.environ.get("TSAR_LIB", os.path.join(os.path.dirname(os.path.dirname(TSAR_EMU)),
                                                   "emulator", "libtsaremu.a"))
HOST_CC = os.environ.get("HOST_CC", "gcc")
TIMEOUT = float(os.environ.get("DIFF_TIMEOUT", "120"))


class DiffError(Exception):
    pass


def sh(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=kw.pop("timeout", TIMEOUT), **kw)
    return r


def tsar_link_args():
    """Include directories, linker scripts and objects of the tsar-emu side."""
    sys.path.insert(0, os.path.join(ROOT, "emulator", "runtime"))
    import runtime  # noqa: E402
    build = os.path.dirname(os.path.dirname(os.path.abspath(TSAR_EMU)))
    rt = runtime.flags(build)
    inc = [f for f in rt["RT_CFLAGS"] if f.startswith("-I")]
    lay = ["-D%s=0x%x" % (k, getattr(gen, k)) for k in ("CRT_DATA", "CRT_TEXT", "INIT_BASE",
                                                       "STATE_BASE")]
    # (the symbols before the scripts: ld reads DEFINED() as it reads them)
    ld = ["-Wl,--defsym=RT_TEXT=0x%x" % gen.CRT_TEXT, "-Wl,--defsym=RT_DATA=0x%x" % gen.CRT_DATA] + \
        [f for f in rt["RT_LDFLAGS"] if f.startswith("-Wl,-T")] + \
        ["-Wl,-T," + os.path.join(HARNESS, "tsar.ld")]
    return inc + lay + ld, runtime.objs(build, with_mmu=False)


def build_elf(asm_path, platform, out):
    """Link crt_<platform> with the batch into ELF `out`."""
    if platform == "qemu":
        crt, defs, objs = "crt_qemu.S", QEMU_LD, []
    else:
        args, objs = tsar_link_args()
        crt, defs = "crt_tsar.S", CRT[platform] + args
    defs = defs + ["-DEXC_OFF=%d" % gen.EXC_OFF, "-DEXC_MAX=%d" % gen.EXC_MAX]
    cmd = [CC] + CFLAGS + defs + ["-o", out] + objs + [os.path.join(HARNESS, crt), asm_path]
    r = sh(cmd)
    if r.returncode:
        raise DiffError("build failed: %s\n%s" % (" ".join(cmd), r.stderr.decode()[-4000:]))
    return out


def check_symbols(elf, seqs):
    """The assembler must have put every body where the generator expected."""
    r = sh([CC.replace("gcc", "nm"), elf])
    syms = {}
    for line in r.stdout.decode().splitlines():
        p = line.split()
        if len(p) == 3:
            syms[p[2]] = int(p[0], 16)
    for s in seqs:
        a = syms.get("S%d" % s.index)
        if a != s.body_addr:
            raise DiffError("layout error: S%d at %s, expected 0x%08x"
                            % (s.index, a and hex(a), s.body_addr))


def run_qemu(elf):
    r = sh([QEMU, "-cpu", QEMU_CPU, elf])
    if r.returncode:
        raise DiffError("qemu-mipsel %s exited with %d (signal=trap/fault in guest?)\n%s"
                        % (elf, r.returncode, r.stderr.decode()[-2000:]))
    data = r.stdout
    return list(struct.unpack("<%dI" % (len(data) // 4), data[:len(data) // 4 * 4]))


HEX_RE = re.compile(rb"BEGIN\r?\n(.*?)END", re.S)
EXC_RE = re.compile(rb"UNEXPECTED EXCEPTION cause=([0-9a-f]{8}) epc=([0-9a-f]{8})"
                    rb" badvaddr=([0-9a-f]{8})")


class GuestException(DiffError):
    """The guest took an exception the generated code should never cause."""

    def __init__(self, cause, epc, bad, text):
        DiffError.__init__(self, text)
        self.cause, self.epc, self.bad = cause, epc, bad


def chunkrun():
    """Build (if needed) and return the path of the chunkrun driver."""
    out = os.path.join(BUILD, "chunkrun")
    srcf = os.path.join(HERE, "chunkrun.c")
    deps = [srcf, TSAR_LIB]
    if not os.path.exists(out) or any(os.path.getmtime(d) > os.path.getmtime(out)
                                      for d in deps):
        os.makedirs(BUILD, exist_ok=True)
        inc = os.path.join(ROOT, "emulator", "src")
        r = sh([HOST_CC, "-O2", "-g", "-I", inc, srcf, TSAR_LIB, "-lfdt", "-o",
                out + ".tmp%d" % os.getpid()])
        if r.returncode:
            raise DiffError("chunkrun build failed:\n" + r.stderr.decode()[-3000:])
        os.replace(out + ".tmp%d" % os.getpid(), out)
    return out


def run_tsar(elf, runner=None):
    if runner is None:
        cmd = [TSAR_EMU] + TSAR_ARGS + [elf]
    else:
        cmd = [chunkrun()] + runner + [elf]
    t = time.time()
    r = sh(cmd, stdin=subprocess.DEVNULL)
    dt = time.time() - t
    m = HEX_RE.search(r.stdout)
    x = EXC_RE.search(r.stdout)
    if x and not m:
        raise GuestException(int(x.group(1), 16), int(x.group(2), 16), int(x.group(3), 16),
                             r.stdout[x.start():].decode(errors="replace").strip())
    if not m:
        raise DiffError("tsar-emu produced no dump (exit %d): %s\nstdout tail: %r\n"
                        "stderr tail: %r" % (r.returncode, " ".join(cmd),
                                             r.stdout[-600:], r.stderr[-1500:]))
    words = [int(x, 16) for x in m.group(1).split()]
    if r.returncode != 0:
        raise DiffError("tsar-emu exited with %d after the dump: %s\nstderr tail: %r"
                        % (r.returncode, " ".join(cmd), r.stderr[-1500:]))
    return words, dt


# exception log entries hold a signal number (QEMU) or an ExcCode (tsar-emu);
# both are mapped to one class: 12 overflow, 13 trap/break, 4 address error
QEMU_CLASS = {8: 12, 5: 13, 10: 4}
TSAR_CLASS = {12: 12, 13: 13, 9: 13, 4: 4, 5: 4}


def split(words, seqs, classes=None):
    n = gen.REC_WORDS
    if len(words) != n * len(seqs):
        raise DiffError("dump has %d words, expected %d" % (len(words), n * len(seqs)))
    recs = [words[i * n:(i + 1) * n] for i in range(len(seqs))]
    if classes:
        base = gen.EXC_OFF // 4
        for r in recs:
            for k in range(min(r[base], gen.EXC_MAX)):
                r[base + 1 + 2 * k] = classes.get(r[base + 1 + 2 * k],
                                                  0x100 | r[base + 1 + 2 * k])
    return recs


def first_diff(a, b):
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return k
    return None


def write_repro(seqs, seq, tag):
    os.makedirs(BUILD, exist_ok=True)
    path = os.path.join(BUILD, "fail-%s-seq%d.S" % (tag, seq.index))
    with open(path, "w") as f:
        f.write("# Standalone reproducer: %s (sequence %d)\n" % (seq.name, seq.index))
        f.write("# Run: emulator/diff/rundiff.py --repro %s\n" % path)
        try:
            exp = seq.expected()
            f.write("# model expects: " + " ".join(
                "%s=%08x" % (n, v) for n, v in zip(gen.FIELD_NAMES, exp)) + "\n")
        except (M.Trap, M.Unpredictable) as e:
            f.write("# model: %s\n" % e)
        f.write(gen.batch_asm(seqs, only={seq.index}))
    return path


def compare(seqs, results, tag, seed):
    """results: {platform: [records]}. Returns a list of mismatch reports."""
    reports = []
    ref = results["qemu"]
    for i, s in enumerate(seqs):
        try:
            model = ref[i] if s.no_model else s.expected()
        except (M.Trap, M.Unpredictable) as e:
            reports.append("seed %s %s seq %d (%s): the model failed: %s" % (seed, tag, s.index, s.name, e))
            model = [0] * len(ref[i])
        k = first_diff(ref[i], model)
        if k is not None:
            reports.append(
                "seed %s %s seq %d (%s): MODEL vs qemu differ at %s: qemu=0x%08x model=0x%08x"
                " (generator/model bug, not an emulator bug)\n  reproducer: %s"
                % (seed, tag, s.index, s.name, gen.FIELD_NAMES[k], ref[i][k], model[k],
                   write_repro(seqs, s, tag)))
        for plat, recs in results.items():
            if plat == "qemu":
                continue
            k = first_diff(ref[i], recs[i])
            if k is not None:
                reports.append(
                    "seed %s %s seq %d (%s): tsar-emu[%s] differs at %s: qemu=0x%08x "
                    "tsar=0x%08x model=0x%08x\n  reproducer: %s"
                    % (seed, tag, s.index, s.name, plat, gen.FIELD_NAMES[k], ref[i][k],
                       recs[i][k], model[k], write_repro(seqs, s, tag + "-" + plat)))
    return reports


def run_batch(seqs, tag, seed, variants, use_tsar=True):
    """Build, run and compare one batch. Returns (reports, stats)."""
    os.makedirs(BUILD, exist_ok=True)
    asm = os.path.join(BUILD, tag + ".S")
    with open(asm, "w") as f:
        f.write(gen.batch_asm(seqs))
    stats = {"insns": sum(len(s.body) for s in seqs), "seqs": len(seqs)}
    elf = build_elf(asm, "qemu", os.path.join(BUILD, tag + "-qemu.elf"))
    check_symbols(elf, seqs)
    results = {"qemu": split(run_qemu(elf), seqs, QEMU_CLASS)}
    reports = []
    if use_tsar:
        elves = {}
        lo = seqs[0].code_addr
        hi = seqs[-1].body_addr + 4 * (len(seqs[-1].body) + gen.EPILOGUE)
        for v in variants:
            crt, runner = VARIANTS[v]
            if crt not in elves:
                elves[crt] = build_elf(asm, crt, os.path.join(BUILD, "%s-%s.elf" % (tag, crt)))
            elf = elves[crt]
            if runner:
                runner = [a.format(lo=lo, hi=hi, seed=zlib.crc32(("%s/%s" % (seed, v)).encode()) % 100000)
                          for a in runner]
            try:
                words, dt = run_tsar(elf, runner)
            except GuestException as e:
                reports.append(exception_report(seqs, e, tag, seed, v))
                continue
            stats["tsar_" + v + "_s"] = dt
            results[v] = split(words, seqs, TSAR_CLASS)
    return reports + compare(seqs, results, tag, seed), stats


EXC_NAMES = {0: "Int", 4: "AdEL", 5: "AdES", 6: "IBE", 7: "DBE", 8: "Sys", 9: "Bp",
             10: "RI", 11: "CpU", 12: "Ov", 13: "Tr"}


def exception_report(seqs, e, tag, seed, variant):
    code = (e.cause >> 2) & 31
    what = "tsar-emu[%s] took an unexpected %s exception (cause=0x%08x epc=0x%08x " \
           "badvaddr=0x%08x)" % (variant, EXC_NAMES.get(code, str(code)), e.cause, e.epc,
                                 e.bad)
    for s in seqs:
        end = s.body_addr + 4 * len(s.body)
        if s.code_addr <= e.epc < end + 4 * gen.EPILOGUE:
            k = (e.epc - s.body_addr) // 4
            insn = M.fmt(s.body[k], lambda t: "L%d" % t) if 0 <= k < len(s.body) \
                else "prologue/epilogue"
            return "seed %s %s seq %d (%s): %s at body[%d] '%s'%s\n  reproducer: %s" % (
                seed, tag, s.index, s.name, what, k, insn,
                " (branch delay slot)" if e.cause & 0x80000000 else "",
                write_repro(seqs, s, tag + "-" + variant))
    return "seed %s %s: %s outside the sequences\n  %s" % (seed, tag, what, e)


def gen_batch(seed, nseq, ninsn, exc=0.0):
    seqs = gen.random_batch(seed, nseq, ninsn, exc=exc)
    gen.check_online(seqs)
    return seqs


def run_random(seed, batches, nseq, ninsn, variants, use_tsar=True, jobs=2, exc=0.0):
    """Generate `batches` batches (seeds seed..seed+batches-1) and run them;
    exc > 0 mixes in deliberately trapping instructions (see gen.Gen.trapping)."""
    reports, stats = [], []
    with cf.ProcessPoolExecutor(jobs) as ex:
        futs = [ex.submit(_random_job, seed + b, nseq, ninsn, variants, use_tsar, exc)
                for b in range(batches)]
        for f in futs:
            r, st = f.result()
            reports += r
            stats.append(st)
    return reports, stats


def _random_job(seed, nseq, ninsn, variants, use_tsar, exc=0.0):
    seqs = gen_batch(seed, nseq, ninsn, exc)
    tag = ("exc-s%d" if exc else "rand-s%d") % seed
    return run_batch(seqs, tag, seed, variants, use_tsar)


def run_directed(variants, use_tsar=True):
    import directed
    seqs = directed.all_sequences()
    gen.place_all(seqs)
    return run_batch(seqs, "directed", "directed", variants, use_tsar)


def repro(path, variants, use_tsar=True):
    """Re-run a standalone reproducer: prints every platform's record."""
    recs = {}
    elf = build_elf(path, "qemu", path[:-2] + "-qemu.elf")
    recs["qemu"] = run_qemu(elf)
    if use_tsar:
        for v in variants:
            crt, runner = VARIANTS[v]
            elf = build_elf(path, crt, path[:-2] + "-%s.elf" % crt)
            if runner:
                runner = [a.format(lo=0x00420000, hi=0x01000000, seed=1) for a in runner]
            recs[v] = run_tsar(elf, runner)[0]
    names = gen.FIELD_NAMES
    plats = list(recs)
    print("%-10s " % "field" + " ".join("%-10s" % p for p in plats))
    bad = 0
    for k in range(min(len(r) for r in recs.values())):
        vals = [recs[p][k] for p in plats]
        mark = "" if len(set(vals)) == 1 else "   <-- differs"
        bad += bool(mark)
        print("%-10s " % names[k % len(names)] + " ".join("0x%08x" % v for v in vals) + mark)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batches", type=int, default=4)
    ap.add_argument("--seqs", type=int, default=300)
    ap.add_argument("--insns", type=int, default=250)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--no-tsar", action="store_true")
    ap.add_argument("--directed", action="store_true", help="run the directed set only")
    ap.add_argument("--exc", type=float, default=0.0,
                    help="probability of deliberately trapping instructions (e.g. 0.03)")
    ap.add_argument("--repro")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    variants = [v for v in a.variants.split(",") if v]
    use_tsar = not a.no_tsar
    if use_tsar and not os.path.exists(TSAR_EMU):
        sys.exit("tsar-emu not found at %s (build it or pass --no-tsar)" % TSAR_EMU)
    t0 = time.time()
    if a.repro:
        sys.exit(1 if repro(a.repro, variants, use_tsar) else 0)
    if a.directed:
        reports, st = run_directed(variants, use_tsar)
        stats = [st]
    else:
        reports, stats = run_random(a.seed, a.batches, a.seqs, a.insns, variants,
                                    use_tsar, a.jobs, a.exc)
    n = sum(s["insns"] for s in stats)
    print("%d sequences, %d body instructions, %d mismatches, %.1f s"
          % (sum(s["seqs"] for s in stats), n, len(reports), time.time() - t0))
    for r in reports[:20]:
        print(r)
    sys.exit(1 if reports else 0)


if __name__ == "__main__":
    main()
