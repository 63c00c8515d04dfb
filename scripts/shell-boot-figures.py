#!/usr/bin/env python3
"""Boot to the BusyBox shell prompt: guest instructions and wall
seconds, printed for the README's figures.

  shell-boot-figures.py EMU DTB VMLINUX BOOTARGS

Wall time: the emulator boots with BOOTARGS + portkit_shell=1 and the
clock runs until the prompt ("~ # ") shows on its console (best of 3).
Instructions: the smallest -icount-limit at which the prompt has been
printed, found by bisection (the batch emulator skips idle time, so a
boot is deterministic up to timer interleaving: the figure is +-0.1%).
"""
import subprocess
import sys
import time

PROMPT = b"~ # "


def wall(cmd):
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    seen = b""
    while PROMPT not in seen:
        chunk = p.stdout.read1(4096)
        if not chunk:
            p.wait()
            sys.exit(f"shell-boot-figures: no prompt (exit {p.returncode}):\n"
                     + seen[-2000:].decode(errors="replace"))
        seen += chunk
    t = time.monotonic() - start
    p.stdin.write(b"poweroff\n")
    p.stdin.flush()
    p.stdin.close()
    p.stdout.read()
    rc = p.wait()
    if rc != 0:
        sys.exit(f"shell-boot-figures: poweroff gave exit status {rc}")
    return t


def has_prompt(cmd, limit):
    out = subprocess.run(cmd[:1] + ["-icount-limit", str(limit)] + cmd[1:],
                         stdin=subprocess.DEVNULL, capture_output=True,
                         timeout=600).stdout
    return PROMPT in out


def main(argv):
    if len(argv) != 5:
        sys.exit("usage: shell-boot-figures.py EMU DTB VMLINUX BOOTARGS")
    emu, dtb, vmlinux, bootargs = argv[1:]
    cmd = [emu, "-dtb", dtb, "-timeout", "300", "-append",
           f"{bootargs} portkit_shell=1", vmlinux]
    best = min(wall(cmd) for _ in range(3))
    lo, hi = 1_000_000, 1_000_000
    while not has_prompt(cmd, hi):
        lo, hi = hi, hi * 2
        if hi > 10_000_000_000:
            sys.exit("shell-boot-figures: no prompt within 10 G instructions")
    while hi - lo > max(hi // 1000, 10_000):
        mid = (lo + hi) // 2
        if has_prompt(cmd, mid):
            hi = mid
        else:
            lo = mid
    print(f"boot to the shell prompt: {hi / 1e6:.1f} M guest instructions, "
          f"{best:.2f} s wall (best of 3)")


if __name__ == "__main__":
    main(sys.argv)
