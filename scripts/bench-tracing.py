#!/usr/bin/env python3
"""What tracing and perf counting cost (`make bench-tracing`, part of `make
bench`): figures, not pass/fail.

Two kernels of the same spec: the default one (no ftrace) and the tracing
variant (variants/tracing.config: function tracer, dynamic ftrace, function
graph tracer, syscall tracepoints, nothing enabled at boot). /bin/trace-cost
(userland/tests/trace-cost.c) measures, in guest instructions (CP0 Count
through rdhwr: one per instruction in tsar-emu, plus idle time; everything
pinned to CPU 0), a null system call (getppid), a round of a make-like job
without the compiler (per unit: make's stats, fork + exec of a "compiler"
that reads a source and a header, writes and reads back a temporary, writes
an object; then a "link" and "make clean"), the fewest of several rounds,
and what the interrupts take from a user-mode loop, in these modes:

* default kernel: nothing on; a perf counting event (instructions, user +
  kernel, inherit=1) on the task;
* tracing kernel: nothing on; the function tracer on every function;
  function_graph on every function with funcgraph-irqs off (with it on,
  the graph tracer's work in the traced tick outgrows the CPU: RCU stalls,
  minutes of guest time per system call); the raw_syscalls sys_enter and
  sys_exit events.

It also boots each kernel to power-off with the smoke checks alone
(tsar-emu -v), and prints one table with the ratios: tracing kernel off
against the default kernel (what having tracing compiled in costs), each
tracing mode against tracing off on the same kernel, perf against none.

Usage: bench-tracing.py [--emu E] [--dtb D] [--vmlinux V]
                        [--vmlinux-tracing VT] [--rounds R] [--units U]
                        [--calls N] [--loop N] [--timeout S]
"""
import argparse
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPEND = "console=ttyVTTY0"
PROG = "trace-cost"

LINE_RE = re.compile(rf"^{PROG}: (\w+) (\w+) (\d+) ", re.M)
ICOUNT_RE = re.compile(r"guest exit status (\d+) after (\d+) instructions")
# Kernel reports that say the traced work outgrew the CPU.
STALL_RE = re.compile(r"rcu: INFO: .*stall|hrtimer: interrupt took \d+ ns")

# (row label, kernel, mode, the row its ratios are against: (kernel, mode))
ROWS = [
    ("default kernel", "default", "off", None),
    ("tracing kernel, tracing off", "tracing", "off", ("default", "off")),
    ("  function tracer, every function", "tracing", "function", ("tracing", "off")),
    ("  function_graph, every function, funcgraph-irqs off", "tracing",
     "function_graph_noirqs", ("tracing", "off")),
    ("  raw_syscalls sys_enter + sys_exit events", "tracing", "raw_syscalls",
     ("tracing", "off")),
    ("default kernel, perf counting instructions", "default", "perf", ("default", "off")),
]
MODES = {"default": "off,perf",
         "tracing": "off,function,function_graph_noirqs,raw_syscalls"}
FIGURES = [("null_syscall", "null syscall"), ("build", "build round"),
           ("user_loop", "user loop")]


def emu_cmd(args, kernel, append):
    vmlinux = args.vmlinux if kernel == "default" else args.vmlinux_tracing
    return [str(args.emu), "-dtb", str(args.dtb), "-idle", "skip", "-v",
            "-timeout", str(args.timeout), "-append", append, str(vmlinux)]


def boot(cmd, timeout):
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, errors="replace", timeout=timeout + 60)
    out = proc.stdout.replace("\r\n", "\n")
    m = ICOUNT_RE.search(proc.stderr)
    if proc.returncode != 0 or not m:
        sys.exit(f"bench-tracing: {shlex.join(cmd)}\n  failed ({proc.returncode}):\n"
                 f"{out[-2500:]}\n{proc.stderr[-500:]}")
    return out, int(m.group(2))


def figures(args, kernel):
    """{(mode, figure): value} printed by /bin/trace-cost on one kernel, the
    command, the kernel's stall reports."""
    append = (f"{APPEND} portkit_run={PROG} trace_cost_modes={MODES[kernel]} "
              f"trace_cost_rounds={args.rounds} trace_cost_units={args.units} "
              f"trace_cost_calls={args.calls} trace_cost_loop={args.loop}")
    cmd = emu_cmd(args, kernel, append)
    out, _ = boot(cmd, args.timeout)
    if f"portkit-run: {PROG} exited with status 0" not in out:
        sys.exit(f"bench-tracing: /bin/{PROG} failed on the {kernel} kernel:\n"
                 + "\n".join(ln for ln in out.splitlines() if ln.startswith(PROG))
                 + "\n" + out[-1500:])
    found = {(m.group(1), m.group(2)): int(m.group(3)) for m in LINE_RE.finditer(out)}
    return found, cmd, STALL_RE.findall(out)


def relative(cmd):
    """cmd with the paths under the top directory made relative to it."""
    out = []
    for word in cmd:
        path = Path(word)
        if path.is_absolute() and path.is_relative_to(ROOT):
            word = str(path.relative_to(ROOT))
        out.append(word)
    return out


def fmt(n):
    return "-" if n is None else f"{n:,}"


def ratio(a, b):
    return "-" if a is None or not b else f"x{a / b:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--emu", default=ROOT / "build/bin/tsar-emu")
    ap.add_argument("--dtb", default=ROOT / "build/tsar/tsar-monocluster.dtb")
    ap.add_argument("--vmlinux", default=ROOT / "build/tsar/vmlinux")
    ap.add_argument("--vmlinux-tracing", default=ROOT / "build/tsar-tracing/vmlinux")
    ap.add_argument("--rounds", type=int, default=5, help="measured rounds per figure")
    ap.add_argument("--units", type=int, default=8, help="sources per build round")
    ap.add_argument("--calls", type=int, default=1000, help="getppid() per round")
    ap.add_argument("--loop", type=int, default=1000000,
                    help="iterations of the 3-instruction user loop")
    ap.add_argument("--timeout", type=int, default=1800, help="per boot, seconds")
    args = ap.parse_args()

    t0 = time.time()
    figs, cmds, stalls, boots = {}, {}, {}, {}
    for kernel in ("default", "tracing"):
        found, cmds[kernel], stalls[kernel] = figures(args, kernel)
        for (mode, what), n in found.items():
            figs[kernel, mode, what] = n
        # The boot alone: smoke checks and power-off, no program.
        _, boots[kernel] = boot(emu_cmd(args, kernel, APPEND), args.timeout)

    print("What tracing and perf counting cost, in guest instructions (CP0 Count:"
          " instructions, plus idle time;\nfewest of the rounds; x = ratio to the"
          " row named in 'against')")
    head = ["", "null syscall", "", f"build round, {args.units} units", "",
            "user loop /1000", "", "CPU 0 idle", "against"]
    rows = [head]
    for label, kernel, mode, base in ROWS:
        cells = [label]
        for what, _ in FIGURES:
            n = figs.get((kernel, mode, what))
            cells += [fmt(n), ratio(n, figs.get((*base, what))) if base else ""]
        idle = figs.get((kernel, mode, "cpu0_idle"))
        cells.append("-" if idle is None else f"{idle * 10} ms")
        cells.append("" if not base else
                     next(lbl.strip() for lbl, k, m, _ in ROWS if (k, m) == base))
        rows.append(cells)
    rows.append(["boot, smoke checks, power-off: default kernel", "", "",
                 f"{boots['default']:,}", "", "", "", "", ""])
    rows.append(["boot, smoke checks, power-off: tracing kernel", "", "",
                 f"{boots['tracing']:,}", ratio(boots["tracing"], boots["default"]),
                 "", "", "", "default kernel"])
    w = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for i, r in enumerate(rows):
        print("  " + "  ".join(c.ljust(w[j]) if j in (0, len(head) - 1) else c.rjust(w[j])
                               for j, c in enumerate(r)).rstrip())
        if i == 0:
            print("  " + "  ".join("-" * x for x in w))
    print(f"null syscall: instructions per getppid(), best of {args.rounds} x {args.calls};"
          f" build round: best of {args.rounds} after a warm-up;\nuser loop: Count per 1000"
          f" user instructions of {args.rounds} runs of a {3 * args.loop:,}-instruction"
          f" loop (what the interrupts take);\nCPU 0 idle: /proc/stat over the {args.rounds} build rounds"
          f" (10 ms ticks).")
    counted = figs.get(("default", "perf", "counted"))
    if counted:
        print(f"perf's own count of its best build round: {counted:,} instructions"
              f" (user + kernel, the children's inherited)")
    for kernel in ("default", "tracing"):
        if stalls[kernel]:
            print(f"{kernel} kernel reported {len(stalls[kernel])} stall(s):"
                  f" {'; '.join(sorted(set(stalls[kernel])))}")
        times = ", ".join(f"{m} {figs[kernel, m, 'guest_time'] / 1000:.1f} s"
                          for m in MODES[kernel].split(",")
                          if (kernel, m, "guest_time") in figs)
        print(f"{kernel} kernel, guest time per mode: {times}")
    print("Commands (from the top directory):")
    for cmd in [cmds["default"], cmds["tracing"],
                *(emu_cmd(args, k, APPEND) for k in ("default", "tracing"))]:
        print(f"  {shlex.join(relative(cmd))}")
    print(f"({time.time() - t0:.0f} s of host time)")
    missing = [(k, m, w) for _, k, m, _ in ROWS for w, _ in FIGURES
               if (k, m, w) not in figs]
    if missing:
        print(f"bench-tracing: missing figures: {missing}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
