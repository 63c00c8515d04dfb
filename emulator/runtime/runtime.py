"""The bare-metal runtime for Python build scripts (bench/, diff/).

``flags(build)`` builds the runtime's objects and the hardware description
for BUILD (``make -C emulator/runtime``) and returns the runtime's build
variables (runtime.mk, through ``make print-flags``): RT_CC, RT_CFLAGS (a
list), RT_LDFLAGS (a list), RT_OBJS (crt0.o lib.o mmu.o, a list), RT_DIR,
HWDIR.
"""
import os
import shlex
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
_CACHE = {}


def flags(build):
    build = os.path.abspath(build)
    if build not in _CACHE:
        r = subprocess.run(["make", "-s", "-C", HERE, "BUILD=" + build, "all", "print-flags"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode:
            raise RuntimeError("building the runtime failed:\n" + r.stdout + r.stderr)
        out = {}
        for line in r.stdout.splitlines():
            key, sep, value = line.partition("=")
            if sep and key.startswith(("RT_", "HWDIR")):
                out[key] = value
        for key in ("RT_CFLAGS", "RT_LDFLAGS", "RT_OBJS"):
            out[key] = shlex.split(out[key])
        _CACHE[build] = out
    return _CACHE[build]


def objs(build, with_mmu=True):
    """crt0.o lib.o [mmu.o]: first on the link line, in this order."""
    o = flags(build)["RT_OBJS"]
    return o if with_mmu else [p for p in o if not p.endswith("/mmu.o")]
