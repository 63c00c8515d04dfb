#!/usr/bin/env python3
"""Boot one kernel for bench-sister.sh and print its figures.

usage: bench-sister-figures.py NAME LOGFILE COMMAND...
Runs COMMAND (a QEMU boot with portkit_nolibc_test=1), keeps its console
output in LOGFILE, and prints the wall-clock time until the kernel prints
"Run /init", the kernel's own timestamp there, the time of the whole run
and the nolibc-test tally.
"""
import re
import subprocess
import sys
import time

name, log, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
start = time.monotonic()
to_init = None
lines = []
with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                      stdin=subprocess.DEVNULL) as proc:
    for raw in proc.stdout:
        line = raw.decode(errors="replace")
        lines.append(line)
        if to_init is None and "Run /init as init process" in line:
            to_init = time.monotonic() - start
total = time.monotonic() - start
out = "".join(lines).replace("\r\n", "\n")
with open(log, "w") as f:
    f.write(out)
m = re.search(r"\[\s*([\d.]+)\] Run /init as init process", out)
results = re.findall(r"^\s*\d+ \w+.*\[(OK|FAIL|SKIPPED)\]\s*$", out, re.M)
fails = re.findall(r"^\s*\d+ (\w+).*\[FAIL\]\s*$", out, re.M)
print(f"{name}: boot to 'Run /init' "
      + (f"{to_init:.2f} s wall clock, kernel timestamp {m.group(1)} s" if m and to_init
         else "not reached"))
print(f"{name}: nolibc-test {results.count('OK')}/{len(results)} passed"
      + (f" (failed: {', '.join(fails)})" if fails else "")
      + f"; whole run {total:.1f} s, exit status {proc.returncode}")
