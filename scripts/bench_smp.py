"""SMP figures of `make bench` (the SMP speed figures): measured, never stated.

Called by scripts/bench-guest.py. For 1, 2, 4 and 8 CPUs:

* DTBs made from the spec's DTB as the hardware contract describes a
  linux_monocluster with n CPUs (hw ref 3.1-3.2): n cpu nodes (copies of the
  first one, hardware ids 0..n-1, read by the emulator and the kernel alike),
  XICU PTI count = WTI count = n; everything else unchanged.
* The kernel: the spec's (NR_CPUS = platform.cpus.count, 4) while n fits,
  the 8-CPU spec's (specs/tsar-smp8.yaml) for more.
* Boot: guest instructions until the kernel prints "Run /init" (bisection
  on -icount-limit; all CPUs together, idle time excluded) and the wall
  time to that line (best of 3), after checking that the kernel brought
  up n CPUs.
* Parallel speed-up: /bin/smp-speedup (userland/tests/smp-speedup.c) runs
  WORKERS CPU-bound processes, worker i pinned to CPU i mod n; its guest
  time (guest clock) on n CPUs against 1 CPU.
* Host cost: the same runs, minus the same boot with zero iterations: host
  CPU seconds (user + system) per guest instruction of the workload, for
  each n, against 1 CPU.
"""
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

CPU_COUNTS = (1, 2, 4, 8)
INIT_LINE = "Run /init as init process"
APPEND = "console=ttyVTTY0"
WORKERS = 8
ITERS = 4_000_000
REPS = 3
BROUGHT_UP_RE = re.compile(r"smp: Brought up \d+ nodes?, (\d+) CPUs?")
SPREAD_RE = re.compile(r"^smp-speedup: spread (\d+) us guest, pinned (\d+) of (\d+), "
                       r"cpus ([0-9a-f]+)$", re.M)
INSNS_RE = re.compile(r"after (\d+) instructions")


def fail(msg):
    sys.exit(f"bench-guest (smp): {msg}")


# ---------------------------------------------------------------- DTBs

def _fdtget(dtb, *args, opts=()):
    return subprocess.run(["fdtget", *opts, str(dtb), *args], capture_output=True,
                          text=True, check=True).stdout.split()


def _fdtput(dtb, *args, opts=()):
    subprocess.run(["fdtput", *opts, str(dtb), *args], check=True)


def _nodes(dtb, path="/"):
    """Every node path under `path`, in DTB order."""
    out = []
    for sub in _fdtget(dtb, path, opts=["-l"]):
        child = path.rstrip("/") + "/" + sub
        out.append(child)
        out.extend(_nodes(dtb, child))
    return out


def _prop_bytes(dtb, node, prop):
    return _fdtget(dtb, node, prop, opts=["-tbx"])


def make_dtb(base, n, out):
    """`base` (the spec's DTB) rewritten for n CPUs: n cpu nodes, ids 0..n-1,
    XICU with n PTI timers and n WTI mailboxes (hw ref 3.2)."""
    shutil.copyfile(base, out)
    cpus = [f"/cpus/{c}" for c in _fdtget(out, "/cpus", opts=["-l"])
            if _fdtget(out, f"/cpus/{c}", "device_type", opts=["-d", "", "-ts"]) == ["cpu"]]
    if not cpus:
        fail(f"{base}: no cpu node under /cpus")
    if _fdtget(out, "/cpus", "#address-cells") != ["1"]:
        fail(f"{base}: /cpus must have #address-cells = 1")
    # libfdt adds a node before its siblings and a property before the
    # others: rebuild the cpu nodes last to first, properties in reverse,
    # so that the result lists CPUs 0..n-1 in order, as the generator does.
    for node in cpus:
        _fdtput(out, node, opts=["-r"])
    for i in reversed(range(n)):
        src = cpus[i] if i < len(cpus) else cpus[0]
        node = src if i < len(cpus) else f"/cpus/cpu@{i:x}"
        _fdtput(out, node, opts=["-c"])
        for prop in reversed(_fdtget(base, src, opts=["-p"])):
            if prop == "reg" and src != node:
                _fdtput(out, node, prop, str(i), opts=["-tu"])
            else:
                _fdtput(out, node, prop, *_prop_bytes(base, src, prop), opts=["-tbx"])
    xicus = [p for p in _nodes(out)
             if "soclib,vci_xicu" in _fdtget(out, p, "compatible", opts=["-d", "", "-ts"])]
    if len(xicus) != 1:
        fail(f"{base}: expected one soclib,vci_xicu node, found {len(xicus)}")
    for prop in ("soclib,pti-count", "soclib,wti-count"):
        _fdtput(out, xicus[0], prop, str(n), opts=["-tu"])
    return out


# ---------------------------------------------------------------- runs

def _cmd(emu, dtb, vmlinux, *extra):
    return [str(emu), "-dtb", str(dtb), "-idle", "skip", *extra, str(vmlinux)]


def boot_wall(emu, dtb, vmlinux, n):
    """Seconds from start to "Run /init" (the kernel having brought up n
    CPUs); the run is stopped there."""
    t0 = time.monotonic()
    proc = subprocess.Popen(_cmd(emu, dtb, vmlinux, "-timeout", "120", "-append", APPEND),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, errors="replace")
    up, took = None, None
    try:
        for line in proc.stdout:
            m = BROUGHT_UP_RE.search(line)
            if m:
                up = int(m.group(1))
            if INIT_LINE in line:
                took = time.monotonic() - t0
                break
    finally:
        proc.kill()
        proc.wait()
    if took is None:
        fail(f"{n} CPUs: the kernel never printed \"{INIT_LINE}\"")
    if up != n:
        fail(f"{n} CPUs: the kernel brought up {up} CPUs")
    return took


def workload(emu, dtb, vmlinux, n, iters):
    """One boot running /bin/smp-speedup: (guest us, host s, instructions)."""
    append = (f"{APPEND} portkit_run=smp-speedup smp_speedup_workers={WORKERS} "
              f"smp_speedup_iters={iters} smp_speedup_phases=spread")
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(_cmd(emu, dtb, vmlinux, "-v", "-timeout", "600", "-append", append),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace", timeout=900)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = proc.stdout.replace("\r\n", "\n")
    m = SPREAD_RE.search(out)
    insns = INSNS_RE.search(proc.stderr)
    if ("portkit-run: smp-speedup exited with status 0" not in out or not m
            or not insns):
        fail(f"{n} CPUs: /bin/smp-speedup failed:\n{out[-2000:]}\n{proc.stderr[-500:]}")
    if int(m.group(2)) != WORKERS or bin(int(m.group(4), 16)).count("1") != n:
        fail(f"{n} CPUs: workers not spread over the {n} CPUs: {m.group(0)}")
    host = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return int(m.group(1)), host, int(insns.group(1))


# ---------------------------------------------------------------- figures

def nr_cpus(vmlinux):
    """CONFIG_NR_CPUS of the kernel built beside `vmlinux` (1 without SMP)."""
    config = Path(vmlinux).parent / ".config"
    m = re.search(r"^CONFIG_NR_CPUS=(\d+)$", config.read_text(), re.M)
    return int(m.group(1)) if m else 1


def run(emu, base_dtb, vmlinuxes, boot_instructions, workdir, no_boot=False):
    """vmlinuxes: kernels to pick from (the first whose NR_CPUS fits n).
    boot_instructions(emu, dtb, vmlinux) -> instructions to "Run /init" or
    None. Prints one figure per line."""
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    kernels = {}
    for v in vmlinuxes:
        if Path(v).exists():
            kernels.setdefault(nr_cpus(v), v)

    def kernel_for(n):
        fits = [k for k in sorted(kernels) if k >= n]
        return kernels[fits[0]] if fits else None

    print(f"SMP figures (DTBs from {base_dtb} with n cpu nodes and n PTI/WTI)")
    runs = {}
    for n in CPU_COUNTS:
        vmlinux = kernel_for(n)
        if vmlinux is None or not Path(vmlinux).exists():
            print(f"smp: {n} CPUs: no kernel with NR_CPUS >= {n} "
                  f"(make kernel SPEC=specs/tsar-smp8.yaml): skipped")
            continue
        dtb = make_dtb(base_dtb, n, workdir / f"smp{n}.dtb")
        runs[n] = (dtb, vmlinux)
        nr = [k for k in sorted(kernels) if kernels[k] == vmlinux][0]
        if not no_boot:
            insns = boot_instructions(emu, dtb, vmlinux)
            print(f"smp: boot to \"Run /init\", {n} CPU(s), NR_CPUS={nr} kernel: "
                  + ("not reached" if insns is None else f"{insns / 1e6:.2f} M guest instructions"))
            wall = min(boot_wall(emu, dtb, vmlinux, n) for _ in range(3))
            print(f"smp: boot to \"Run /init\", {n} CPU(s), NR_CPUS={nr} kernel: "
                  f"{wall:.2f} s wall (best of 3)")

    figs = {}
    for n, (dtb, vmlinux) in runs.items():
        work = [workload(emu, dtb, vmlinux, n, ITERS) for _ in range(REPS)]
        zero = [workload(emu, dtb, vmlinux, n, 0) for _ in range(REPS)]
        guest = min(w[0] for w in work)
        insns = work[0][2] - zero[0][2]
        host = max(min(w[1] for w in work) - min(z[1] for z in zero), 1e-6)
        figs[n] = (guest, host, insns)
    one = figs.get(1)
    for n, (guest, host, insns) in figs.items():
        line = (f"smp: {WORKERS} pinned workers x {ITERS:,} iterations on {n} CPU(s): "
                f"{guest / 1e6:.3f} s guest time")
        print(line + (f", speed-up {one[0] / guest:.2f} over 1 CPU" if one else ""))
    for n, (guest, host, insns) in figs.items():
        cost = host / insns * 1e9
        line = (f"smp: host cost on {n} CPU(s): {cost:.2f} ns per guest instruction "
                f"({insns / 1e6:.1f} M instructions in {host:.2f} s host CPU, "
                f"{insns / host / 1e6:.0f} MIPS)")
        if one:
            line += f", {cost / (one[1] / one[2] * 1e9):.2f} x 1 CPU"
        print(line)
    print(f"(SMP figures: {time.time() - t0:.0f} s of host time)")
    return 0 if len(figs) == len(CPU_COUNTS) else 1
