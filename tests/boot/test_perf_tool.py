"""The kernel tree's own perf tool in the guest (userland/perf-tool/,
make perf-tool): tools/perf of the default spec's kernel tree built static with
the TSAR musl port and libelf, on the BusyBox disk root with its workload
/usr/bin/perf-loops (9N iterations of hot_loop, N of cold_loop, three
instructions each). One boot runs perf list, perf stat, perf record and
perf report; the checks read what perf printed. Opt-in (make
test-perf-tool): perf and its libraries take minutes to build.
"""
import os
import re
import shutil
import subprocess

import pytest

from guest import DISK_ROOT_ARGS, guest_kernel
from kbuild import ROOT, run

if not os.environ.get("PORTKIT_PERF_TOOL"):
    pytest.skip("the perf tool is opt-in: make test-perf-tool", allow_module_level=True)

pytestmark = pytest.mark.kernel

DEBUGFS = shutil.which("debugfs") or "/sbin/debugfs"
N = 100000                  # perf-loops N: 30N user instructions in its loops
STEP_TIMEOUT = 120          # guest seconds per perf command

# init= on the disk root: runs the job, keeps its output in /perftest/out
# (read from the image afterwards: no kernel messages in between), powers off.
RUN = """#!/bin/sh
mount -t tmpfs tmpfs /tmp
mkdir -p /sys && mount -t sysfs sysfs /sys
cd /tmp
PATH=/usr/bin:/bin:/sbin /bin/sh /perftest/job </dev/null >/perftest/out 2>&1
echo "perftest: job status $?" >>/perftest/out
sync
mount -o remount,ro /
poweroff -f
"""

# Each step's output between "=== <name>" and "=== <name>: status <n>";
# a step still running after STEP_TIMEOUT is killed (and says so).
STEPS = [
    ("list", "perf list hw"),
    ("stat", f"perf stat -e cycles:u,instructions:u perf-loops {N}"),
    ("stat-n", f"perf stat -x, -e instructions:u perf-loops {N}"),
    ("stat-2n", f"perf stat -x, -e instructions:u perf-loops {2 * N}"),
    ("stat-raw", f"perf stat -x, -e r1:u perf-loops {N}"),
    ("record", f"perf record -e instructions:u perf-loops {10 * N}"),
    ("report", "perf report --stdio"),
]
JOB = """step() {
	name=$1; shift
	echo "=== $name"
	"$@" & pid=$!
	( sleep %d; kill -9 $pid 2>/dev/null && echo "perftest: $name: killed after %d s" ) &
	watchdog=$!
	wait $pid
	echo "=== $name: status $?"
	kill $watchdog 2>/dev/null
}
""" % (STEP_TIMEOUT, STEP_TIMEOUT) + "".join(f"step {name} {cmd}\n" for name, cmd in STEPS)


@pytest.fixture(scope="module")
def guest(tmp_path_factory):
    """(console, {step: (status, output)}, job output) of one boot."""
    k = guest_kernel("tsar")
    run(["make", "--no-print-directory", "perf-tool"], timeout=3600)
    work = tmp_path_factory.mktemp("perf-tool")
    tree, image = work / "tree", work / "disk.img"
    subprocess.run([ROOT / "scripts/stage-rootfs.sh", k.out / "userland" / "initramfs.list",
                    k.out / "rootfs.list", k.out / "perf-tool" / "perf-tool.list", tree],
                   check=True, capture_output=True)
    (tree / "perftest").mkdir()
    for name, text in (("run", RUN), ("job", JOB)):
        (tree / "perftest" / name).write_text(text)
        (tree / "perftest" / name).chmod(0o755)
    subprocess.run([ROOT / "scripts/make-disk.sh", tree, image, "64M"], check=True,
                   capture_output=True)
    assert "init=/init" in DISK_ROOT_ARGS, DISK_ROOT_ARGS
    append = (f"{k.spec['boot']['bootargs']} "
              f"{DISK_ROOT_ARGS.replace('init=/init', 'init=/perftest/run')}")
    rc, console, err = k.boot("-disk", str(image), "-append", append, timeout=900)
    out = subprocess.run([DEBUGFS, "-R", "cat /perftest/out", str(image)],
                         capture_output=True, text=True, errors="replace").stdout
    assert rc == 0 and "perftest: job status" in out, \
        f"status {rc}\n{console[-3000:]}\n{err[-1000:]}\n{out[-3000:]}"
    steps = {m.group(1): (int(m.group(3)), m.group(2)) for m in re.finditer(
        r"^=== ([\w-]+)\n(.*?)^=== \1: status (\d+)$", out, re.M | re.S)}
    return console, steps, out


def step(guest, name):
    """What the step printed; it must have exited with status 0."""
    _, steps, out = guest
    assert name in steps, out[-3000:]
    status, text = steps[name]
    assert status == 0 and "killed after" not in text, text[-3000:]
    return text


def csv_count(text, event):
    """The count of one event in perf stat -x, output (count,unit,event,...)."""
    m = re.search(rf"^(\d+),[^,]*,{re.escape(event)},", text, re.M)
    assert m, text
    return int(m.group(1))


def test_kernel_stays_up(guest):
    console, _, _ = guest
    assert "Oops" not in console and "BUG" not in console, console[-3000:]
    assert "WARNING" not in console, console[-3000:]


def test_every_step_ran(guest):
    _, steps, out = guest
    assert sorted(steps) == sorted(name for name, _ in STEPS), out[-3000:]


def test_list_names_the_hardware_events(guest):
    text = step(guest, "list")
    assert re.search(r"^\s*cpu-cycles OR cycles\s+\[Hardware event\]$", text, re.M), text
    assert re.search(r"^\s*instructions\s+\[Hardware event\]$", text, re.M), text


def test_stat_counts_cycles_and_instructions(guest):
    """User instructions: the loops' 30N and musl's start and exit (a few
    thousand); a user-mode cycle per instruction, give or take the cycles
    the counter runs while an exception is taken."""
    text = step(guest, "stat")
    counts = {ev: int(n.replace(",", "")) for n, ev in re.findall(
        r"^\s*([\d,]+)\s+(cycles:u|instructions:u)\b", text, re.M)}
    assert set(counts) == {"cycles:u", "instructions:u"}, text
    insns, cycles = counts["instructions:u"], counts["cycles:u"]
    assert 30 * N <= insns <= 30 * N + 20000, text
    assert insns <= cycles <= insns * 1.01, text
    assert "insn per cycle" in text, text


def test_stat_user_instructions_are_exact(guest):
    """perf-loops 2N minus perf-loops N: the loops' 30N more instructions,
    to the instruction (the same code outside them: N of six digits)."""
    one, two = csv_count(step(guest, "stat-n"), "instructions:u"), \
        csv_count(step(guest, "stat-2n"), "instructions:u")
    assert two - one == 30 * N, (one, two)


def test_raw_event_1_is_instructions(guest):
    """r1 (the core's event 1, instructions) counts what the generic
    instructions event counted for the same run."""
    assert csv_count(step(guest, "stat-raw"), "r1:u") == \
        csv_count(step(guest, "stat-n"), "instructions:u")


def test_record_writes_samples(guest):
    text = step(guest, "record")
    m = re.search(r"Captured and wrote [\d.]+ MB perf\.data \((\d+) samples\)", text)
    assert m and int(m.group(1)) >= 100, text


def test_report_names_the_hot_function(guest):
    """perf report resolves the samples' addresses to perf-loops' symbols
    (libelf): hot_loop first with 90% of the user instructions, cold_loop
    10%, and nothing else above 1%."""
    text = step(guest, "report")
    assert re.search(r"^# Samples: .* of event 'instructions:u'$", text, re.M), text
    rows = re.findall(r"^\s+([\d.]+)%\s+perf-loops\s+perf-loops\s+\[\.\] (\S+)\s*$", text, re.M)
    assert rows and rows[0][1] == "hot_loop", text
    share = {sym: float(p) for p, sym in rows}
    assert 88 <= share["hot_loop"] <= 92, text
    assert 8 <= share.get("cold_loop", 0) <= 12, text
    assert all(p < 1 for sym, p in share.items() if sym not in ("hot_loop", "cold_loop")), text
