"""The sister architecture qmips: generated from specs/qmips.yaml,
built once, booted in QEMU (-M mipssim -cpu 24Kc -semihosting), checked from
the host on what the guest prints and how QEMU ends.

Two boots: the default one (the device tree's bootargs), whose smoke
checks, banner and power-off test_boot.py checks as on every board, and one
with a command line through QEMU's -append that runs the kernel tree's
nolibc-test and a missing program (so init fails one check and QEMU must
exit with status 1).
"""
import re

import pytest

from guest import guest_kernel
from kbuild import QMIPS_SERIES_KEYS
from kbuild import run

pytestmark = pytest.mark.kernel

@pytest.fixture(scope="module", params=QMIPS_SERIES_KEYS)
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def boot(kernel):
    return kernel.default_boot()


@pytest.fixture(scope="module")
def boot_nolibc(kernel):
    return kernel.boot("-append", "console=ttyS0 portkit_nolibc_test=1 "
                                  "portkit_run=no-such-program portkit.marker=q9")


def test_vmlinux_is_linked_at_kseg0(kernel):
    header = run(["mipsel-linux-gnu-readelf", "-h", str(kernel.vmlinux)]).stdout
    entry = int(re.search(r"Entry point address:\s+0x([0-9a-f]+)", header).group(1), 16)
    assert 0x80000000 <= entry < 0xA0000000          # kseg0: QEMU enters there
    syms = run(["mipsel-linux-gnu-nm", str(kernel.vmlinux)]).stdout
    assert re.search(r"^[0-9a-f]+ [DdRr] __dtb_start$|^[0-9a-f]+ \S __dtb_start$", syms, re.M)


def test_devices_come_from_the_builtin_device_tree(kernel, boot):
    _, out, _ = boot
    uart = next(d for d in kernel.spec["platform"]["devices"] if d["stdout"])
    # The kernel's own 8250 driver (of_serial), probed from the DT node.
    m = re.search(rf"{uart['base']:x}\.{uart['name']}: ttyS0 at MMIO 0x{uart['base']:x} "
                  r"\(irq = (\d+), base_baud = (\d+)\) is a 16550A", out)
    assert m, out[:6000]
    assert int(m.group(2)) == uart["clock_hz"] // 16
    assert "QEMU MIPSsim (portkit qmips): 0x08000000 bytes of RAM at 0x00000000" in out
    assert "Kernel command line: console=ttyS0" in out        # the DT's bootargs
    bank = kernel.spec["platform"]["memory"][0]
    assert f"node   0: [mem 0x{bank['base']:016x}-0x{bank['base'] + bank['size'] - 1:016x}]" in out


def test_cp0_timer_and_cpu_interrupt_lines(boot):
    _, out, _ = boot
    # 12 MHz CPU clock over CCRes 2; the timer line from IntCtl.IPTI (IP7).
    assert "cp0-compare: Count at 6000000 Hz, timer on CPU line 5" in out, out[:6000]
    assert "clocksource: Switched to clocksource cp0-count" in out


def test_command_line_through_semihosting(boot_nolibc):
    _, out, _ = boot_nolibc
    assert "Kernel command line: console=ttyS0 portkit_nolibc_test=1 " \
           "portkit_run=no-such-program portkit.marker=q9" in out, out[:4000]


# The series' nolibc-test: (results, the tests that may fail). 6.1's
# chmod_net fails everywhere, stock arch/mips on Malta included; 6.12's has
# none, and its count includes the stack-protector check ("-fstackprotector").
NOLIBC_TEST = {
    "6.1": (75, {"chmod_net"}),
    "6.12": (195, set()),
}


def test_nolibc_selftests(kernel, boot_nolibc):
    _, out, _ = boot_nolibc
    results = re.findall(r"^\s*\d+ (-?\w+)\b.*\[(OK|FAIL|SKIPPED)\]\s*$", out, re.M)
    failed = {name for name, r in results if r == "FAIL"}
    count, may_fail = NOLIBC_TEST[kernel.spec["arch"]["kernel_series"]]
    assert len(results) == count, out[-3000:]
    assert failed <= may_fail, failed
    assert sum(r == "OK" for _, r in results) >= count - len(may_fail)


def test_power_off_carries_inits_failure_count(kernel, boot_nolibc):
    rc, out, _ = boot_nolibc
    assert "portkit-run: no-such-program exited with status 127" in out
    assert f"portkit-init: {len(kernel.smoke_checks)} passed, 1 failed" in out
    assert rc == 1
