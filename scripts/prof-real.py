#!/usr/bin/env python3
"""Run one real workload once, for profiling the emulator
(docs/emulator-speed.md): the command of bench-real.py's workload, run
under an optional wrapper (perf record, perf stat, valgrind), with the
emulator's -v summary (and, from tsar-emu-stats, its event counters).

Workloads (the kernel of K = build/tsar unless --kdir says otherwise):
* boot4: boot to power-off on the default 4-CPU DTB;
* boot1: the same kernel on the emulator's built-in one-CPU platform;
* kmix: /bin/bench (portkit_run=bench, -idle skip), 4 CPUs;
* shell: the shell workload (userland/bbsuite/workload.sh) from an ext4
  image, 4 CPUs, -idle skip (bench-real.py's and bench-shell.py's);
* bc: a slice of BusyBox's bc.tests (userland/bbsuite/bc-slice.sh) the
  same way.

  prof-real.py --emu E WORKLOAD [--wrap 'perf record -e cpu-clock -o x.data']
               [--kdir build/tsar] [--accel jit|interp] [--emu-args ARGS]
               [--keep-image F]

Prints the command, the console's last lines and the emulator's stderr;
exits with the emulator's status. Each run of shell and bc gets a fresh
image (a run writes to it).
"""
import argparse
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bbsuite  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
JOBS = {"shell": ROOT / "userland/bbsuite/workload.sh",
        "bc": ROOT / "userland/bbsuite/bc-slice.sh"}
APPEND = "console=ttyVTTY0"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workload", choices=["boot4", "boot1", "kmix", "shell", "bc"])
    ap.add_argument("--emu", required=True, type=pathlib.Path)
    ap.add_argument("--kdir", type=pathlib.Path, default=ROOT / "build/tsar")
    ap.add_argument("--wrap", default="", help="command prefix (perf, valgrind)")
    ap.add_argument("--accel", choices=["jit", "interp"])
    ap.add_argument("--keep-image", type=pathlib.Path, help="copy the image here after")
    ap.add_argument("--emu-args", default="", help="more emulator options ('-quantum 5000')")
    a = ap.parse_args()
    k = a.kdir
    dtb, vmlinux = k / "tsar-monocluster.dtb", k / "vmlinux"
    cmd = [str(a.emu), "-v", "-timeout", "3600"]
    if a.accel:
        cmd += ["-accel", a.accel]
    cmd += shlex.split(a.emu_args)
    with tempfile.TemporaryDirectory(prefix="prof-real-") as tmp:
        tmp = pathlib.Path(tmp)
        if a.workload == "boot4":
            cmd += ["-dtb", str(dtb), str(vmlinux)]
        elif a.workload == "boot1":
            cmd += [str(vmlinux)]
        elif a.workload == "kmix":
            cmd += ["-dtb", str(dtb), "-idle", "skip", "-append",
                    f"{APPEND} portkit_run=bench", str(vmlinux)]
        else:
            tree, image = tmp / "tree", tmp / "disk.img"
            ns = argparse.Namespace(busybox=k / "busybox/busybox", config=k / "busybox/.config",
                                    testsuite=None, job=JOBS[a.workload])
            bbsuite.tsar_tree(tree, [str(k / "userland/initramfs.list"), str(k / "rootfs.list")],
                              ns)
            bbsuite.sh([ROOT / "scripts/make-disk.sh", tree, image, "32M"])
            cmd += ["-dtb", str(dtb), "-disk", str(image), "-idle", "skip", "-append",
                    f"{APPEND} root=/dev/ioc0 rw rootfstype=ext4 init=/bbtest/run",
                    str(vmlinux)]
        cmd = shlex.split(a.wrap) + cmd
        print("prof-real:", shlex.join(cmd), flush=True)
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           errors="replace")
        wall = time.monotonic() - t0
        out = p.stdout.replace("\r\n", "\n")
        print("\n".join(out.splitlines()[-6:]))
        if a.workload in JOBS:
            r = subprocess.run([bbsuite.DEBUGFS, "-R", "cat /bbtest/out", str(tmp / "disk.img")],
                               capture_output=True, text=True, errors="replace")
            print(r.stdout[-1500:])
            if a.keep_image:
                shutil.copyfile(tmp / "disk.img", a.keep_image)
        sys.stderr.write(p.stderr)
        print(f"prof-real: {a.workload}: status {p.returncode}, {wall:.2f} s wall")
        return p.returncode


if __name__ == "__main__":
    sys.exit(main())
