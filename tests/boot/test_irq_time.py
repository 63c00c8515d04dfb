"""IRQ time accounting (IRQ_TIME_ACCOUNTING, the family's
HAVE_IRQ_TIME_ACCOUNTING): /proc/stat's irq and softirq columns measured
from sched_clock (CP0 Count) at every interrupt entry and exit.

/bin/irq-time prints /proc/stat's cpu lines and /proc/uptime, reads the
whole disk 4 times (dropping the page cache in between) and sleeps 400
times for 1 ms, and prints them again; this file
checks that the irq and softirq times moved, that each column of the total
is the sum of the CPUs' columns, and that the CPUs' times add up to the
elapsed time: irq time is taken out of the system (or idle) time it
interrupted, not counted twice."""
import re

import pytest

from guest import guest_kernel, program_status

pytestmark = pytest.mark.kernel

COLUMNS = ["user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"]
USER_HZ = 100
DISK_BYTES = 4 << 20


@pytest.fixture(scope="module")
def kernel():
    return guest_kernel()


@pytest.fixture(scope="module")
def run(kernel, tmp_path_factory):
    disk = tmp_path_factory.mktemp("irqtime") / "disk.img"
    disk.write_bytes(bytes(range(256)) * (DISK_BYTES // 256))
    append = f"{kernel.console} portkit_run=irq-time"
    return kernel.boot("-disk", str(disk), "-append", append)


def snapshot(out, when):
    """({'cpu': [...], 'cpu0': [...], ...}, uptime seconds) printed at `when`."""
    stat = {}
    for m in re.finditer(rf"^irq-time: {when}: (cpu\d*) ([\d ]+)$", out, re.M):
        stat[m.group(1)] = [int(v) for v in m.group(2).split()][:len(COLUMNS)]
    up = re.search(rf"^irq-time: {when}: uptime ([\d.]+) ", out, re.M)
    assert stat and up, out[-3000:]
    return stat, float(up.group(1))


def test_program_ran_with_the_disk(kernel, run):
    rc, out, err = run
    assert program_status(out, "irq-time") == ("exited", 0), out[-3000:]
    assert f"irq-time: read {4 * DISK_BYTES} bytes of /dev/ioc0 in 4 passes, 400 naps" in out, \
        out[-3000:]
    assert "CONFIG_IRQ_TIME_ACCOUNTING=y" in (kernel.out / ".config").read_text()
    assert rc == 0, err


def test_irq_and_softirq_time_move(run):
    _, out, _ = run
    before, _ = snapshot(out, "before")
    after, _ = snapshot(out, "after")
    irq, softirq = COLUMNS.index("irq"), COLUMNS.index("softirq")
    assert after["cpu"][irq] > before["cpu"][irq], (before["cpu"], after["cpu"])
    assert after["cpu"][softirq] > before["cpu"][softirq], (before["cpu"], after["cpu"])


@pytest.mark.parametrize("when", ["before", "after"])
def test_total_is_the_sum_of_the_cpus(run, when):
    _, out, _ = run
    stat, _ = snapshot(out, when)
    cpus = [v for k, v in stat.items() if k != "cpu"]
    assert len(cpus) == 4
    for i, name in enumerate(COLUMNS):
        # The total converts the sum of nanoseconds, each CPU its own (each
        # may round down by a tick), and /proc/stat reads the CPUs' live idle
        # time again for their own lines, a little later.
        parts = sum(c[i] for c in cpus)
        assert abs(stat["cpu"][i] - parts) <= len(cpus), (name, stat)


def test_cpu_times_add_up_to_the_elapsed_time(run):
    """Over the run, user+system+idle+iowait+irq+softirq of all CPUs is the
    elapsed time times the CPUs: interrupt time counted twice (as irq and
    as the system time it interrupted) would exceed it."""
    _, out, _ = run
    before, up0 = snapshot(out, "before")
    after, up1 = snapshot(out, "after")
    ncpus = len(before) - 1
    elapsed = (up1 - up0) * USER_HZ * ncpus
    spent = sum(after["cpu"]) - sum(before["cpu"])
    # 400 naps of 1 ms at least, on each CPU.
    assert elapsed >= 0.4 * USER_HZ * ncpus, (up0, up1)
    # In ticks (10 ms): each CPU's busy time is accounted at its ticks (up
    # to one behind at each reading), each column's difference rounds to a
    # tick, and so does each uptime reading (times the CPUs).
    slack = 2 * ncpus + 2 * len(COLUMNS) + 2 * ncpus
    assert abs(spent - elapsed) <= slack, (spent, elapsed, before, after)
