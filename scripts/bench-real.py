#!/usr/bin/env python3
"""Real-workload speed of two tsar-emu builds side by side (`make bench`):
the base emulator (built from an earlier commit, `--base-emu`) and this one
(`--emu`), each running the same guest work, runs interleaved (base, new,
base, new, ...) so that both see the same host load; best host CPU time
(user + system, which a loaded host inflates less than wall time) of
--runs each. Figures, not a test.

Workloads (the JIT tier, the default on x86-64):
* boot: the kernel boots to power-off (its own init, no disk);
* kmix: the kernel-heavy mix /bin/bench (userland/tests/bench.c: syscalls,
  pipe switches, sched_yield, fork/exit/wait, fork/exec, page faults),
  booted with portkit_run=bench and -idle skip;
* shell: the BusyBox shell workload of bench-shell.py
  (userland/bbsuite/workload.sh: file tree, tar + gzip, gunzip + untar +
  diff, sort/grep/sed/awk) from an ext4 disk image (scripts/bbsuite.py),
  -idle skip; each run on a fresh copy of one image. Needs --lists,
  --busybox, --config.

Each build must execute the same number of guest instructions in every run
(the counts are exact). The two builds may differ by a little (at most
MAX_DRIFT): the base emulator predates the performance counters, so the
kernel's perf probe takes its "no counters" path there. Prints each build's
instructions, best CPU seconds and MIPS, and the speed-up in MIPS (new/base).

  bench-real.py --base-emu B --emu E --dtb D --vmlinux V
                [--lists L1,L2 --busybox BB --config C] [--runs N] [--only W,...]
"""
import argparse
import pathlib
import re
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bbsuite  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORKLOAD = ROOT / "userland" / "bbsuite" / "workload.sh"
APPEND = "console=ttyVTTY0"
# The largest relative difference between the builds' instruction counts.
MAX_DRIFT = 0.01


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, check, what):
    """(host CPU seconds of the emulator, guest instructions)"""
    t0 = cpu_seconds()
    p = subprocess.run([str(c) for c in cmd], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, errors="replace", timeout=3600)
    cpu = cpu_seconds() - t0
    m = re.search(r"after (\d+) instructions", p.stderr)
    out = p.stdout.replace("\r\n", "\n")
    if p.returncode != 0 or not m or not check(out):
        sys.exit(f"bench-real: {what} failed (status {p.returncode}): {' '.join(map(str, cmd))}"
                 f"\n{out[-1500:]}\n{p.stderr[-800:]}")
    return cpu, int(m.group(1))


def workloads(a, tmp):
    """{name: function(emu, n) -> (CPU seconds, instructions)}"""
    base = ["-dtb", a.dtb, "-v", "-timeout", "1800"]
    w = {}
    w["boot"] = lambda emu, n: run([emu, *base, a.vmlinux],
                                   lambda o: "reboot: Power down" in o, "boot")
    w["kmix"] = lambda emu, n: run(
        [emu, *base, "-idle", "skip", "-append", f"{APPEND} portkit_run=bench", a.vmlinux],
        lambda o: "portkit-run: bench exited with status 0" in o, "kmix (/bin/bench)")
    if a.lists:
        tree, image = tmp / "tree", tmp / "shell.img"
        ns = argparse.Namespace(busybox=a.busybox, config=a.config, testsuite=None,
                                job=WORKLOAD)
        bbsuite.tsar_tree(tree, a.lists.split(","), ns)
        bbsuite.sh([ROOT / "scripts/make-disk.sh", tree, image, "32M"])
        append = f"{APPEND} root=/dev/ioc0 rw rootfstype=ext4 init=/bbtest/run"

        def shell(emu, n):
            img = tmp / f"run-{n}.img"
            shutil.copyfile(image, img)
            try:
                r = run([emu, *base, "-disk", img, "-idle", "skip", "-append", append,
                         a.vmlinux], lambda o: "bbsuite: job status 0" in o, "shell workload")
            finally:
                img.unlink()
            return r
        w["shell"] = shell
    return w


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("base-emu", "emu", "dtb", "vmlinux"):
        ap.add_argument(f"--{opt}", required=True, type=pathlib.Path)
    ap.add_argument("--lists", help="root file system lists, for the shell workload")
    ap.add_argument("--busybox", type=pathlib.Path)
    ap.add_argument("--config", type=pathlib.Path)
    ap.add_argument("--runs", type=int, default=3, help="best of N (default 3)")
    ap.add_argument("--only", help="comma-separated subset of boot,kmix,shell")
    a = ap.parse_args()
    for p in (a.base_emu, a.emu, a.dtb, a.vmlinux):
        if not p.is_file():
            sys.exit(f"bench-real: {p}: no such file")
    if a.lists and not (a.busybox and a.config):
        sys.exit("bench-real: --lists needs --busybox and --config")

    with tempfile.TemporaryDirectory(prefix="bench-real-") as tmp:
        w = workloads(a, pathlib.Path(tmp))
        names = a.only.split(",") if a.only else list(w)
        for name in names:
            if name not in w:
                sys.exit(f"bench-real: unknown or unavailable workload '{name}'")
        print(f"Real workloads, base {a.base_emu} vs new {a.emu}, best of {a.runs}, "
              "interleaved runs (host CPU seconds; the ratio is what counts):")
        print(f"  {'workload':<8} {'instructions':>13} {'base s':>8} {'base MIPS':>9} "
              f"{'new s':>8} {'new MIPS':>9} {'speed-up':>8}")
        status = 0
        for name in names:
            best = {"base": None, "new": None}
            counts = {"base": set(), "new": set()}
            for n in range(a.runs):
                for side, emu in (("base", a.base_emu), ("new", a.emu)):
                    secs, insns = w[name](emu, n)
                    counts[side].add(insns)
                    if best[side] is None or secs < best[side]:
                        best[side] = secs
            if any(len(c) != 1 for c in counts.values()):
                print(f"  bench-real: {name}: a build's runs differ: {counts}")
                status = 1
                continue
            ib, ie = counts["base"].pop(), counts["new"].pop()
            b, e = best["base"], best["new"]
            print(f"  {name:<8} {ie:>13,} {b:>8.2f} {ib / b / 1e6:>9.0f} "
                  f"{e:>8.2f} {ie / e / 1e6:>9.0f} {ie / e / (ib / b):>7.2f}x", flush=True)
            if ib != ie:
                print(f"  {'':<8} {ib:>13,} on the base build (the new one runs "
                      f"{(ie - ib) / ib:+.2%})")
            if abs(ie - ib) > MAX_DRIFT * ib:
                print(f"  bench-real: {name}: the builds ran different work "
                      f"({ib:,} and {ie:,} instructions)")
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
