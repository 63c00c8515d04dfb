"""SMP on TSAR (kernel side).

The default spec describes 4 CPUs, so the default kernel is SMP: every
other boot test already runs on 4 CPUs. Here:

* the guest sees the CPUs (/proc/cpuinfo, sched_getaffinity = nproc) and
  /bin/smp-stress passes: pinning, parallel fork/exec/exit, futex
  contention, pipes between CPUs, concurrent page faults, and the
  no-TLB-shootdown check (mprotect/munmap while a thread on another CPU
  keeps storing to the page), deterministically and with randomized CPU
  interleavings (the emulator's -seed), on the default and on the
  preemptible debug kernel;
* the same SMP kernel on a 1-CPU and a 2-CPU device tree;
* the uniprocessor kernel (SMP=n: the 2g2g board has one CPU);
* the kernel's own locktorture, rcutorture and scftorture, built as
  modules in the debug variant (lockdep, preemption), for a bounded time
  on 4 CPUs, deterministic and randomized, on the debug kernel of each of
  kbuild.DEBUG_KEYS (the other series with PORTKIT_SERIES_DEBUG=1: make
  test-series-debug).
"""
import re
import subprocess

import pytest

from guest import EMU, guest_kernel, program_status
from kbuild import DEBUG_KEYS, SERIES_KEYS, debug_id

pytestmark = pytest.mark.kernel

SEEDS = (1, 2)


def stress_lines(out):
    return "\n".join(l for l in out.splitlines() if l.startswith("smp-stress:"))


def assert_stress_passed(rc, out, err, cpus):
    lines = stress_lines(out)
    assert program_status(out, "smp-stress") == ("exited", 0), lines or out[-4000:]
    assert f"smp-stress: cpus affinity {cpus} cpuinfo {cpus}" in out, lines
    assert f"smp-stress: pin {cpus} of {cpus} cpus honoured" in out, lines
    assert re.search(r"forkexec (\d+) of \1 children exited right", out), lines
    assert re.search(r"futex counter (\d+) expected \1 ", out), lines
    assert re.search(r"pipe (\d+) of \1 round trips right", out), lines
    assert re.search(r"faults (\d+) of \1 words right", out), lines
    if cpus > 1:
        for name, code in (("mprotect", 2), ("munmap", 1)):
            m = re.search(rf"tlb {name} writer on cpu 1, (\d+) stores before, value at "
                          rf"return (\d+), later (\d+), signal 11 code {code} at page", out)
            assert m, lines
            assert int(m.group(1)) >= 2000 and m.group(2) == m.group(3), lines
    assert "smp-stress: 0 failures" in out, lines
    assert rc == 0, err[-2000:]


@pytest.fixture(scope="module", params=SERIES_KEYS)
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def smp_boot(kernel):
    return kernel.run_programs("smp-stress")


def test_all_cpus_of_the_device_tree_come_up(kernel, smp_boot):
    rc, out, err = smp_boot
    cpus = kernel.spec["platform"]["cpus"]["count"]
    assert cpus == 4
    assert f"smp: Brought up 1 node, {cpus} CPUs" in out, out[-4000:]
    assert "failed to come online" not in out


def test_smp_stress_passes_on_4_cpus(smp_boot):
    assert_stress_passed(*smp_boot, cpus=4)


def test_stress_spreads_work_and_ipis_over_the_cpus(smp_boot):
    out = smp_boot[1]
    m = re.search(r"futex counter \d+ expected \d+ waits (\d+) cpus ([0-9a-f]+)", out)
    assert m, stress_lines(out)
    # the contended lock really made threads sleep in the kernel
    assert int(m.group(1)) > 0, stress_lines(out)
    assert bin(int(m.group(2), 16)).count("1") >= 2, stress_lines(out)
    m = re.search(r"ipi resched (\d+) call (\d+)", out)
    assert m and int(m.group(1)) > 0, stress_lines(out)


@pytest.mark.parametrize("seed", SEEDS)
def test_smp_stress_passes_in_randomized_interleavings(kernel, seed):
    rc, out, err = kernel.boot("-seed", str(seed), "-append",
                               "console=ttyVTTY0 portkit_run=smp-stress")
    assert f"seed {seed}" in err
    assert_stress_passed(rc, out, err, cpus=4)


# The preemptible debug kernel, where an interrupt between a fault and its
# handler's reading of the CPU's fault registers can migrate the task (the
# registers are now read before interrupts come back on). Under -seed 1, a
# kernel that read them later killed init with SIGBUS during its boot.
@pytest.mark.parametrize("seed", SEEDS)
def test_smp_stress_passes_in_randomized_interleavings_preemptible(debug_kernel, seed):
    rc, out, err = debug_kernel.boot("-seed", str(seed), "-append",
                                     debug_kernel.cmdline("portkit_run=smp-stress"), timeout=600)
    assert f"seed {seed}" in err
    assert "bus error" not in out, out[-4000:]
    assert_stress_passed(rc, out, err, cpus=4)


def dtb_with_cpus(kernel, n, tmp_path):
    """The spec's DTB with only CPUs 0..n-1."""
    dtb = tmp_path / f"cpus{n}.dtb"
    dtb.write_bytes(kernel.dtb.read_bytes())
    for cpu in range(n, kernel.spec["platform"]["cpus"]["count"]):
        subprocess.run(["fdtput", "-r", str(dtb), f"/cpus/cpu@{cpu}"], check=True)
    return dtb


@pytest.mark.parametrize("n", (1, 2))
def test_smp_kernel_on_fewer_cpus(kernel, tmp_path, n):
    dtb = dtb_with_cpus(kernel, n, tmp_path)
    proc = subprocess.run([str(EMU), "-dtb", str(dtb), "-timeout", "120", "-append",
                           "console=ttyVTTY0 portkit_run=smp-stress", str(kernel.vmlinux)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace", timeout=150)
    out = proc.stdout.replace("\r\n", "\n")
    assert f"smp: Brought up 1 node, {n} CPU" in out, out[-3000:]
    assert_stress_passed(proc.returncode, out, proc.stderr, cpus=n)


def test_uniprocessor_kernel_still_works():
    k = guest_kernel("tsar-2g2g")
    assert k.spec["platform"]["cpus"]["count"] == 1
    config = (k.out / ".config").read_text()
    # SMP has no prompt: an unset one is absent from .config.
    assert "CONFIG_SMP=y" not in config and "CONFIG_NR_CPUS=1\n" in config
    rc, out, err = k.run_programs("smp-stress")
    assert_stress_passed(rc, out, err, cpus=1)
    assert "smp-stress: tlb skipped, one cpu" in out


TORTURES = ("locktorture", "rcutorture", "scftorture")


def assert_torture_passed(rc, out, err):
    assert program_status(out, "torture") == ("exited", 0), out[-5000:]
    for name in TORTURES:
        assert re.search(rf"torture: load {name} .*: 0$", out, re.M), out[-5000:]
        assert re.search(rf"torture: unload {name} after \d+s: 0$", out, re.M), out[-5000:]
    # locktorture runs twice (spin_lock, rw_lock), each ending in SUCCESS
    assert len(re.findall(r"spin_lock-torture:.*End of test: SUCCESS", out)) >= 1, out[-5000:]
    assert len(re.findall(r"rw_lock-torture:.*End of test: SUCCESS", out)) >= 1, out[-5000:]
    assert re.search(r"rcu-torture:.*End of test: SUCCESS", out), out[-5000:]
    assert re.search(r"scftorture: --- End of test: SUCCESS", out), out[-5000:]
    assert "End of test: FAILURE" not in out
    # the lock torture really contended on 4 CPUs: writes counted, none lost
    m = re.findall(r"Writes:\s+Total:\s+(\d+)\s+Max/Min:\s+(\d+)/(\d+)\s+(\S*)\s+Fail:\s+(\d+)", out)
    assert m and int(m[-1][0]) > 0 and all(f[4] == "0" for f in m), out[-5000:]
    assert "BUG:" not in out and "WARNING:" not in out, out[-5000:]
    assert rc == 0, err[-2000:]


@pytest.fixture(scope="module", params=DEBUG_KEYS, ids=debug_id)
def debug_kernel(request):
    return guest_kernel(request.param, "debug")


@pytest.mark.parametrize("seed", (None,) + SEEDS)
def test_kernel_torture_tests_on_4_cpus(debug_kernel, seed):
    extra = ("-seed", str(seed)) if seed is not None else ()
    rc, out, err = debug_kernel.boot(*extra, "-append",
                                     debug_kernel.cmdline("portkit_run=torture"), timeout=600)
    assert "smp: Brought up 1 node, 4 CPUs" in out, out[-4000:]
    assert_torture_passed(rc, out, err)
