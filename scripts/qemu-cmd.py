#!/usr/bin/env python3
"""Print the QEMU command line that boots a spec's kernel (platform.qemu).

usage: qemu-cmd.py [--exec] SPEC VMLINUX [KERNEL COMMAND LINE...]
Exits 1 without output when the spec names no QEMU machine (the board runs
in portkit's own emulator); with --exec, runs it instead. The binary follows from the byte order, -m from
the RAM banks; the console is the first serial port on stdio.
"""
import os
import pathlib
import shlex
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from generator.makefrag import qemu_base_command  # noqa: E402
from generator.spec import load_spec  # noqa: E402


def qemu_command(spec, vmlinux, cmdline=""):
    """The argument list, or None when the spec has no platform.qemu."""
    cmd = qemu_base_command(spec)
    if cmd is None:
        return None
    cmd += ["-kernel", str(vmlinux)]
    if cmdline:
        cmd += ["-append", cmdline]
    return cmd


if __name__ == "__main__":
    args = sys.argv[1:]
    run = args[:1] == ["--exec"]
    args = args[1:] if run else args
    if len(args) < 2:
        sys.exit("usage: qemu-cmd.py [--exec] SPEC VMLINUX [CMDLINE...]")
    cmd = qemu_command(load_spec(args[0]).data, args[1], " ".join(args[2:]))
    if cmd is None:
        sys.exit(1)
    if run:
        os.execvp(cmd[0], cmd)
    print(shlex.join(cmd))
