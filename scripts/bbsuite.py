#!/usr/bin/env python3
"""Run a BusyBox shell script on TSAR (in the emulator) and on stock MIPS
(the reference BusyBox under qemu-mipsel), in the same root file system
layout, for the BusyBox testsuite comparison and the shell-workload bench.

Both sides get the same tree: a BusyBox root file system (/bin/busybox and
its applet links, userland/rootfs/etc) plus /bbtest, which holds a copy of
the BusyBox binary and the .config it was built with (the `bindir` that
BusyBox's testsuite/runtest expects one directory above it), optionally a
copy of the unpacked source's testsuite/, and the script to run, /bbtest/job.

* TSAR: the tree (with the nolibc /init beside it) becomes an ext4 image
  (scripts/make-disk.sh); the kernel boots with root= on it and init=
  /bbtest/run, which mounts /tmp, runs the job as a child (not as pid 1,
  whose signals the kernel treats specially), records its output in
  /bbtest/out and its status, syncs, remounts / read-only and powers off.
  The host reads /bbtest/out from the image (debugfs): no console
  interleaving with kernel messages.
* stock MIPS: the same tree with the reference busybox, entered with
  chroot in a private user, mount and PID namespace (unshare, no root on
  the host needed) whose own binfmt_misc instance (Linux 6.7+) runs mipsel
  ELF files with qemu-mipsel-static (package qemu-user-static; flags F and
  P: every exec, argv[0] kept), so
  the job's children, #! scripts and BusyBox's re-exec of itself all run
  the reference BusyBox. The job's environment is the same on both sides.

Usage (also a module: tests/boot/test_busybox_testsuite.py, bench):
  bbsuite.py tsar --emu E --dtb D --vmlinux V --lists L1,L2 --busybox B
             --config C [--testsuite DIR] --job SCRIPT --out FILE
  bbsuite.py ref --busybox-build DIR [--testsuite DIR] --job SCRIPT --out FILE
"""
import argparse
import concurrent.futures
import copy
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
# statically linked: the kernel starts it inside the chroot, where the
# host's dynamic loader and libraries are not
QEMU = shutil.which("qemu-mipsel-static") or "/usr/bin/qemu-mipsel-static"
DEBUGFS = shutil.which("debugfs") or "/sbin/debugfs"
# SHELL: taskset.tests runs "$SHELL -c ..."; LANG: BusyBox (FEATURE_CHECK_UNICODE_IN_ENV)
# handles UTF-8 only when the environment names it, as the unicode tests of
# expand, unexpand, fold and ls expect
ENV = "HOME=/ TERM=linux SHELL=/bin/sh LANG=C.UTF-8 PATH=/sbin:/usr/sbin:/bin:/usr/bin"
# binfmt_misc entry for 32-bit little-endian MIPS executables (ELF class 1,
# data 1, e_machine 8, e_type 2 EXEC or 3 DYN).
BINFMT = (r":bbsuite-mipsel:M::\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00"
          r"\x02\x00\x08\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff"
          r"\xff\xff\xfe\xff\xff\xff:" + QEMU + ":FP")

# /bbtest/run: init= on TSAR, the chroot's first program on stock MIPS.
RUN = f"""#!/bin/sh
# portkit (scripts/bbsuite.py): run /bbtest/job, record its output and status
mount -t tmpfs tmpfs /tmp 2>/dev/null
cd /bbtest
t0=$(date +%s)
env -i {ENV} /bin/sh /bbtest/job </dev/null >/bbtest/out 2>&1
status=$?
t1=$(date +%s)
echo "bbsuite: job status $status, $((t1 - t0)) s" >>/bbtest/out
echo "bbsuite: job status $status, $((t1 - t0)) s"
sync
if [ $$ = 1 ]; then
	umount /tmp 2>/dev/null
	mount -o remount,ro / || echo "bbsuite: cannot remount / read-only"
	poweroff -f
fi
exit $status
"""


class Error(Exception):
    pass


def sh(cmd, **kw):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise Error(f"{' '.join(map(str, cmd))}: status {r.returncode}\n{r.stdout[-2000:]}"
                    f"{r.stderr[-2000:]}")
    return r.stdout


def add_bbtest(tree, busybox, config, testsuite, job, applets=None):
    """/bbtest in TREE: busybox, .config, testsuite/ (a copy), job, run,
    and applets (the batch's applet list, when there is one)."""
    d = tree / "bbtest"
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    shutil.copy2(busybox, d / "busybox")
    shutil.copy2(config, d / ".config")
    if testsuite:
        shutil.copytree(testsuite, d / "testsuite", symlinks=True)
    shutil.copy2(job, d / "job")
    (d / "run").write_text(RUN)
    if applets:
        (d / "applets").write_text(" ".join(applets) + "\n")
    for f in ("busybox", "job", "run"):
        (d / f).chmod(0o755)


def tsar_tree(tree, lists, args):
    sh([ROOT / "scripts/stage-rootfs.sh", *lists, tree])
    add_bbtest(tree, args.busybox, args.config, args.testsuite, args.job,
               getattr(args, "applets", None))


def ref_tree(tree, build, args):
    """The reference root file system, staged by userland/rootfs/build.sh
    (what TSAR's rootfs is made with) from the reference BusyBox build."""
    with tempfile.TemporaryDirectory(dir=tree.parent) as tmp:
        progs = pathlib.Path(tmp) / "none"
        progs.mkdir()
        sh([ROOT / "userland/rootfs/build.sh", tree, build, progs,
            pathlib.Path(tmp) / "list"])
    add_bbtest(tree, build / "busybox", build / ".config", args.testsuite, args.job,
               getattr(args, "applets", None))


def run_tsar(args, work):
    tree, image = work / "tree", work / "disk.img"
    tsar_tree(tree, args.lists.split(","), args)
    sh([ROOT / "scripts/make-disk.sh", tree, image, args.disk_size])
    append = (f"{args.bootargs} root=/dev/ioc0 rw rootfstype=ext4 init=/bbtest/run "
              f"{args.append}").strip()
    cmd = [str(args.emu), "-dtb", str(args.dtb), "-disk", str(image), "-idle", "skip",
           "-timeout", str(args.timeout), "-v", "-append", append, str(args.vmlinux)]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace", timeout=args.timeout + 60)
    wall = time.monotonic() - t0
    console = proc.stdout.replace("\r\n", "\n")
    r = subprocess.run([DEBUGFS, "-R", "cat /bbtest/out", str(image)], capture_output=True,
                       text=True, errors="replace")
    out = r.stdout
    m = re.search(r"after (\d+) instructions", proc.stderr)
    if proc.returncode != 0 or "bbsuite: job status" not in out:
        raise Error(f"TSAR run failed (emulator status {proc.returncode}):\n"
                    f"{console[-3000:]}\n{proc.stderr[-1000:]}\n{out[-2000:]}")
    return out, {"wall": wall, "instructions": int(m.group(1)) if m else None,
                 "console": console}


def run_ref(args, work):
    tree = work / "tree"
    ref_tree(tree, pathlib.Path(args.busybox_build), args)
    script = f"""set -e
mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
printf '%s\\n' '{BINFMT}' > /proc/sys/fs/binfmt_misc/register
mount -t proc proc {tree}/proc
mount --rbind /dev {tree}/dev
exec chroot {tree} /bbtest/run
"""
    t0 = time.monotonic()
    proc = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "--pid",
                           "--fork", "sh", "-c", script], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, errors="replace",
                          timeout=args.timeout)
    wall = time.monotonic() - t0
    outf = tree / "bbtest" / "out"
    out = outf.read_text(errors="replace") if outf.exists() else ""
    if "bbsuite: job status" not in out:
        raise Error(f"qemu-mipsel run failed (status {proc.returncode}):\n"
                    f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}\n{out[-2000:]}")
    return out, {"wall": wall}


def run_batches(jobs, work, workers=None):
    """Run JOBS, a list of (key, side, args): side "tsar" or "ref", args as
    for run_tsar/run_ref (args.applets: the batch), each in a directory of
    its own under WORK, WORKERS at a time (default: one per host CPU; the
    emulator and each qemu-user process use one host thread). Jobs start in
    the order given: list the longest first. Returns {key: (out, info)}
    where info also has "start" (s after the first job started); a failed
    job's entry is (None, {"error": message, ...})."""
    workers = workers or os.cpu_count() or 1
    t0 = time.monotonic()

    def one(i, key, side, args):
        start = time.monotonic() - t0
        d = pathlib.Path(work) / f"{i:02d}-{side}"
        d.mkdir(parents=True, exist_ok=True)
        try:
            out, info = (run_tsar if side == "tsar" else run_ref)(args, d)
        except (Error, subprocess.TimeoutExpired) as e:
            out, info = None, {"error": str(e)[-4000:], "wall": time.monotonic() - t0 - start}
        finally:
            shutil.rmtree(d, ignore_errors=True)
        info["start"] = start
        info.pop("console", None)
        return key, (out, info)

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futs = [pool.submit(one, i, key, side, args) for i, (key, side, args) in enumerate(jobs)]
        return dict(f.result() for f in futs)


def batch_args(args, applets, **kw):
    """A copy of ARGS for one batch."""
    a = copy.copy(args)
    a.applets = applets
    a.__dict__.update(kw)
    return a


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("side", choices=["tsar", "ref"])
    ap.add_argument("--emu", type=pathlib.Path)
    ap.add_argument("--dtb", type=pathlib.Path)
    ap.add_argument("--vmlinux", type=pathlib.Path)
    ap.add_argument("--lists", help="initramfs lists of the TSAR root, comma separated")
    ap.add_argument("--busybox", type=pathlib.Path, help="TSAR busybox")
    ap.add_argument("--config", type=pathlib.Path, help="TSAR busybox .config")
    ap.add_argument("--busybox-build", type=pathlib.Path, help="reference build directory")
    ap.add_argument("--testsuite", type=pathlib.Path)
    ap.add_argument("--applets", type=str.split, help="the batch: applets (words), or "
                    "'- A B': all but A B (userland/bbsuite/testsuite.sh)")
    ap.add_argument("--job", required=True, type=pathlib.Path)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    ap.add_argument("--bootargs", default="console=ttyVTTY0")
    ap.add_argument("--append", default="")
    ap.add_argument("--disk-size", default="64M")
    ap.add_argument("--timeout", type=int, default=1800)
    args = ap.parse_args()
    need = (["emu", "dtb", "vmlinux", "lists", "busybox", "config"] if args.side == "tsar"
            else ["busybox_build"])
    for n in need:
        if getattr(args, n) is None:
            sys.exit(f"bbsuite: {args.side} needs --{n.replace('_', '-')}")
    with tempfile.TemporaryDirectory(prefix="bbsuite-") as tmp:
        try:
            out, info = (run_tsar if args.side == "tsar" else run_ref)(args, pathlib.Path(tmp))
        except (Error, subprocess.TimeoutExpired) as e:
            sys.exit(f"bbsuite: {e}")
    args.out.write_text(out)
    print(f"bbsuite: {args.side}: {info['wall']:.1f} s wall"
          + (f", {info['instructions']} guest instructions" if info.get("instructions") else ""))


if __name__ == "__main__":
    main()
