#!/usr/bin/env python3
"""Block-device throughput figures for `make bench-disk`.

Boots the kernel with the root file system on a copy of the disk image and
runs /bin/disk-bench: a sequential write of --mib MiB followed by fsync,
then (page cache dropped) a sequential read of the same file. Reports

* MiB/s of guest time (the guest's CLOCK_MONOTONIC around each phase), and
* guest instructions per MiB: the emulator is deterministic, so three boots
  (no I/O, write only, write and read) differ only by the phases; the
  instruction counts of `tsar-emu -v` are subtracted.

Figures, not a test; the boots take a few seconds each.
"""
import argparse
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile


def boot(args, image, extra):
    append = (f"{args.bootargs} root=/dev/ioc0 rw portkit_run=disk-bench "
              f"disk_bench_chunk={args.chunk} {extra}")
    cmd = [str(args.emu), "-dtb", str(args.dtb), "-disk", str(image), "-idle", "skip",
           "-timeout", "600", "-v", "-append", append, str(args.vmlinux)]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace", timeout=900)
    out = proc.stdout.replace("\r\n", "\n")
    if proc.returncode != 0 or "portkit-run: disk-bench exited with status 0" not in out:
        sys.exit(f"bench-disk: the guest run failed (status {proc.returncode}):\n"
                 f"{out[-2000:]}\n{proc.stderr[-500:]}")
    m = re.search(r"after (\d+) instructions", proc.stderr)
    if not m:
        sys.exit(f"bench-disk: no instruction count from tsar-emu -v: {proc.stderr[-500:]}")
    phases = {name: (int(nbytes), int(us)) for name, nbytes, us in
              re.findall(r"^disk-bench: (write\+fsync|read) (\d+) bytes in (\d+) us$", out, re.M)}
    return int(m.group(1)), phases


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--emu", required=True, type=pathlib.Path)
    ap.add_argument("--dtb", required=True, type=pathlib.Path)
    ap.add_argument("--vmlinux", required=True, type=pathlib.Path)
    ap.add_argument("--disk", required=True, type=pathlib.Path,
                    help="root file system image (copied, never written)")
    ap.add_argument("--bootargs", default="console=ttyVTTY0")
    ap.add_argument("--mib", type=int, default=8, help="file size (default 8 MiB)")
    ap.add_argument("--chunk", type=int, default=64, help="KiB per write()/read()")
    args = ap.parse_args()
    for p in (args.emu, args.dtb, args.vmlinux, args.disk):
        if not p.is_file():
            sys.exit(f"bench-disk: {p}: no such file")

    with tempfile.TemporaryDirectory(prefix="bench-disk-") as tmp:
        image = pathlib.Path(tmp) / "disk.img"
        runs = {}
        for name, extra in (("none", "disk_bench_mib=0"),
                            ("write", f"disk_bench_mib={args.mib} disk_bench_read=0"),
                            ("both", f"disk_bench_mib={args.mib}")):
            shutil.copyfile(args.disk, image)     # the same starting state each time
            runs[name] = boot(args, image, extra)
            print(f"  boot with disk_bench ({name}): {runs[name][0]:,} instructions",
                  flush=True)

    phases = runs["both"][1]
    if "write+fsync" not in phases or "read" not in phases:
        sys.exit("bench-disk: disk-bench printed no figures")
    insns = {"write+fsync": runs["write"][0] - runs["none"][0],
             "read": runs["both"][0] - runs["write"][0]}
    print(f"\nblock device, {args.mib} MiB sequential through ext4, "
          f"{args.chunk} KiB per call:")
    print("| phase | guest time | MiB/s (guest time) | guest instructions | per MiB |")
    print("|---|---|---|---|---|")
    for name in ("write+fsync", "read"):
        nbytes, us = phases[name]
        mib = nbytes / 2**20
        print(f"| {name} | {us / 1e6:.3f} s | {mib / (us / 1e6):.1f} | "
              f"{insns[name] / 1e6:.1f} M | {insns[name] / mib / 1e6:.2f} M |")


if __name__ == "__main__":
    main()
