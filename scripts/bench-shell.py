#!/usr/bin/env python3
"""Shell-workload figures for `make bench`: the fixed BusyBox
workload userland/bbsuite/workload.sh (a file tree built by a shell loop,
tar + gzip, gunzip + untar + diff, sort/grep/sed/awk) on TSAR in the
emulator next to the same workload with the reference BusyBox (same source
and .config, glibc) under qemu-mipsel, both in the same root file system
layout (scripts/bbsuite.py). Figures, not thresholds.

TSAR: the emulator's wall seconds and guest instructions of the workload
are a boot that runs it minus a boot that runs an empty job (the same
kernel, image and power-off); the workload's own phase times there are
guest time. qemu-mipsel: the phase times the workload reads from
/proc/uptime (host time). Both runs must print the same checksum.

  bench-shell.py --emu E --dtb D --vmlinux V --lists L1,L2 --busybox B
                 --config C --busybox-build REF_DIR [--bootargs ARGS]
"""
import argparse
import pathlib
import re
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bbsuite  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORKLOAD = ROOT / "userland" / "bbsuite" / "workload.sh"


def phases(out, side):
    found = {m.group(1): int(m.group(2)) / 100
             for m in re.finditer(r"^workload: ([\w+]+) (\d+)$", out, re.M)}
    check = re.search(r"^workload: checksum (\w+)$", out, re.M)
    if "total" not in found or not check or "job status 0" not in out:
        sys.exit(f"bench-shell: the workload failed on {side}:\n{out[-2000:]}")
    return found, check.group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("emu", "dtb", "vmlinux", "busybox", "config", "busybox-build"):
        ap.add_argument(f"--{opt}", required=True, type=pathlib.Path)
    ap.add_argument("--lists", required=True)
    ap.add_argument("--bootargs", default="console=ttyVTTY0")
    ap.add_argument("--runs", type=int, default=2, help="best of N (default 2)")
    a = ap.parse_args()
    for p in (a.emu, a.dtb, a.vmlinux, a.busybox, a.config, a.busybox_build / "busybox"):
        if not p.is_file():
            sys.exit(f"bench-shell: {p}: no such file")

    with tempfile.TemporaryDirectory(prefix="bench-shell-") as tmp:
        tmp = pathlib.Path(tmp)
        empty = tmp / "empty.sh"
        empty.write_text("true\n")

        def args(job):
            return argparse.Namespace(
                emu=a.emu, dtb=a.dtb, vmlinux=a.vmlinux, lists=a.lists, busybox=a.busybox,
                config=a.config, busybox_build=a.busybox_build, testsuite=None, job=job,
                bootargs=a.bootargs, append="", disk_size="32M", timeout=1800)

        def run(fn, job, n):
            d = tmp / f"{fn.__name__}-{job.stem}-{n}"
            d.mkdir()
            try:
                return fn(args(job), d)
            except bbsuite.Error as e:
                sys.exit(f"bench-shell: {e}")

        tsar, base, ref = [], [], []
        for n in range(a.runs):
            tsar.append(run(bbsuite.run_tsar, WORKLOAD, n))
            base.append(run(bbsuite.run_tsar, empty, n))
            ref.append(run(bbsuite.run_ref, WORKLOAD, n))

    t_ph = [phases(out, "TSAR") for out, _ in tsar]
    r_ph = [phases(out, "qemu-mipsel") for out, _ in ref]
    sums = {c for _, c in t_ph} | {c for _, c in r_ph}
    if len(sums) != 1:
        sys.exit(f"bench-shell: the two sides' outputs differ (checksums {sorted(sums)})")
    wall = min(i["wall"] for _, i in tsar) - min(i["wall"] for _, i in base)
    insns = min(i["instructions"] for _, i in tsar) - min(i["instructions"] for _, i in base)
    guest = min(p["total"] for p, _ in t_ph)
    qemu = min(p["total"] for p, _ in r_ph)
    print(f"shell workload (userland/bbsuite/workload.sh, best of {a.runs}; "
          f"output checksum {sums.pop()} on both):")
    print(f"  TSAR in tsar-emu:      {wall:6.2f} s wall (boot with it minus boot without), "
          f"{insns / 1e6:.1f} M guest instructions, {guest:.2f} s guest time")
    print(f"  stock MIPS, qemu-mipsel: {qemu:6.2f} s wall (glibc static BusyBox, same .config)")
    print(f"  ratio TSAR emulator / qemu-mipsel wall: {wall / qemu:.2f}")
    print("  phases (guest s on TSAR / wall s under qemu-mipsel):")
    for name in t_ph[0][0]:
        if name == "total":
            continue
        t = min(p[name] for p, _ in t_ph)
        r = min(p[name] for p, _ in r_ph)
        print(f"    {name:22} {t:6.2f} / {r:6.2f}" + (f"  x{t / r:.2f}" if r else ""))


if __name__ == "__main__":
    main()
