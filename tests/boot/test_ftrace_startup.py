"""The kernel's own ftrace startup tests (FTRACE_STARTUP_TEST) on the
ftrace-startup variant (variants/ftrace-startup.config: the default kernel
plus the function tracer, dynamic ftrace, the graph tracer, syscall
tracepoints and kprobe events): every tracer's self-test passes at boot.
A second boot hands the machine to BusyBox's shell, as `make run` does,
and uses the function tracer through tracefs from there. Opt-in (make
test-ftrace-startup): the kernel is built only for this, and the tests
trace every function of the kernel for a while at each boot.
"""
import os
import re

import pytest

from guest import guest_kernel

if not os.environ.get("PORTKIT_FTRACE_STARTUP"):
    pytest.skip("the ftrace startup tests are opt-in: make test-ftrace-startup",
                allow_module_level=True)

pytestmark = pytest.mark.kernel

# What the self-tests of kernel/trace/trace_selftest.c print for this
# configuration; "regs" is the ops-with-registers test, which passes
# trivially without DYNAMIC_FTRACE_WITH_REGS (it checks the ops is refused).
EXPECTED = ["tracer function", "dynamic ftrace", "dynamic ftrace ops #1",
            "dynamic ftrace ops #2", "ftrace recursion", "ftrace recursion safe",
            "ftrace regs", "tracer nop", "tracer function_graph", "ftrace filter",
            "kprobe tracing"]


@pytest.fixture(scope="module")
def boot():
    return guest_kernel("tsar", "ftrace-startup").run_programs("ftrace", timeout=900)


def results(out):
    """{test name: verdict} from the "Testing <name>: ... PASSED" lines; a
    verdict may come on a later line when the test printed in between."""
    found = {}
    for m in re.finditer(r"(?:trace_kprobe: )?Testing ([^:\n]+?)(?:\(no arch support\))?:"
                         r"(.*?)(PASSED|FAILED|OK|\.\.\. failed|skipped)",
                         out, re.S):
        found[m.group(1).strip()] = m.group(3)
    return found


def test_kernel_boots_to_power_off(boot):
    rc, out, _ = boot
    assert "reboot: Power down" in out, out[-3000:]
    assert "Kernel panic" not in out and "Oops" not in out, out[-3000:]


@pytest.mark.parametrize("name", EXPECTED)
def test_startup_test_passes(boot, name):
    _, out, _ = boot
    verdict = results(out).get(name)
    assert verdict in ("PASSED", "OK"), (name, verdict, re.findall(r".*Testing.*", out))


def test_no_startup_test_failed(boot):
    _, out, _ = boot
    assert "FAILED" not in out and "Ftrace startup test is disabled" not in out, \
        re.findall(r".*(?:Testing|FAILED|disabled).*", out)
    assert "WARNING:" not in out, out[-3000:]


# Typed into the shell of a portkit_shell=1 boot (BusyBox init's console
# shell): the function tracer on one function, a command that calls it,
# the trace read back once tracing is off (a change of tracer would clear
# it).
SHELL_INPUT = """mount -t tracefs nodev /sys/kernel/tracing
cd /sys/kernel/tracing
echo do_sys_openat2 > set_ftrace_filter
echo function > current_tracer
cat /proc/version > /dev/null
echo 0 > tracing_on
echo "tracer-lines: $(grep -c do_sys_openat2 trace)"
grep do_sys_openat2 trace | grep -m 1 cat-
echo nop > current_tracer
poweroff -f
"""


@pytest.fixture(scope="module")
def shell_boot():
    # ftrace=nop, a boot-time tracer, turns the startup tests off for this boot.
    k = guest_kernel("tsar", "ftrace-startup")
    return k.boot("-append", f"{k.console} portkit_shell=1 ftrace=nop", stdin=SHELL_INPUT,
                  timeout=300)


def test_function_tracer_from_the_busybox_shell(shell_boot):
    """tracefs from BusyBox's shell: the calls of do_sys_openat2 that cat
    made are in the trace, with the task that made them."""
    rc, out, _ = shell_boot
    m = re.search(r"^tracer-lines: (\d+)", out, re.M)
    assert m and int(m.group(1)) >= 1, out[-3000:]
    assert re.search(r"^\s*cat-\d+\s+\[\d+\].*do_sys_openat2 <-", out, re.M), out[-3000:]
