"""The kernel's own ftrace startup tests (FTRACE_STARTUP_TEST) on the
ftrace-startup variant (variants/ftrace-startup.config: the default kernel
plus the function tracer, dynamic ftrace, the graph tracer, syscall
tracepoints and kprobe events): every tracer's self-test passes at boot.
Opt-in (make test-ftrace-startup): the kernel is built only for this, and
the tests trace every function of the kernel for a while at each boot.
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
