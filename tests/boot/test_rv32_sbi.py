"""portkit's RV32 SBI shim (firmware/rv32-sbi) under the stock arch/riscv
Linux 6.12 rv32 kernel on QEMU virt: scripts/rv32-upstream-boot.sh boots it
to a nolibc /init that powers off, and QEMU must exit with status 0.

The upstream kernel is not built by ``make test`` (it is the reference
for the coming RV32 port, built with scripts/rv32-upstream-kernel.sh or
``scripts/rv32-upstream-boot.sh --build JOBS``): without it, these tests
skip. They build only the shim and /init (seconds).
"""
import os
import pathlib
import re
import shutil
import subprocess
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
KDIR = ROOT / "build" / "rv32-upstream"
SCRIPT = ROOT / "scripts" / "rv32-upstream-boot.sh"
TOOLS = ("qemu-system-riscv32", "riscv64-linux-gnu-gcc", "fdtput")

missing = [t for t in TOOLS if shutil.which(t) is None]
pytestmark = [
    pytest.mark.skipif(bool(missing), reason=f"no {', '.join(missing)} "
                       "(scripts/install-deps.sh rv32)"),
    pytest.mark.skipif(not (KDIR / "arch/riscv/boot/Image").is_file()
                       or not (KDIR / "usr-headers").is_dir(),
                       reason="the upstream rv32 kernel is not built "
                       "(scripts/rv32-upstream-kernel.sh build/rv32-upstream "
                       "build/linux-source-6.12 JOBS); make test does not build it"),
]


def boot(*args):
    start = time.monotonic()
    p = subprocess.run([str(SCRIPT), *args], capture_output=True, text=True,
                       timeout=300, env={**os.environ, "TIMEOUT": "120"})
    return p.returncode, p.stdout + p.stderr, time.monotonic() - start


def check(rc, out):
    assert "rv32-sbi: portkit SBI v2.0 shim, boot hart" in out, out[-3000:]
    assert re.search(r"SBI specification v2\.0 detected", out), out[-3000:]
    assert "SBI implementation ID=0x504b Version=0x1" in out
    for ext in ("TIME", "IPI", "RFENCE", "SRST", "DBCN", "HSM"):
        assert f"SBI {ext} extension detected" in out
    # no Sstc on the script's CPU: the timer goes through SBI TIME (mtimecmp,
    # MTIP -> STIP in the shim), IPIs through SBI IPI
    assert "via sstc" not in out
    assert "riscv: providing IPIs using SBI IPI extension" in out
    # the shim hid its 4 MiB from Linux's memory
    assert "node   0: [mem 0x0000000080400000-0x0000000087ffffff]" in out
    assert "rv32-sbi proof: /init running, powering off" in out, out[-3000:]
    assert "reboot() returned" not in out
    assert "unexpected trap" not in out
    assert rc == 0, out[-3000:]


def test_boots_to_init_and_powers_off():
    """QEMU's own device tree: Linux powers off through syscon."""
    rc, out, secs = boot()
    check(rc, out)
    print(f"rv32 upstream boot to power-off: {secs:.2f} s")


def test_power_off_through_sbi_srst():
    """No syscon power-off node: SRST is the kernel's only way out."""
    rc, out, _ = boot("--srst")
    check(rc, out)
    assert "syscon" not in out


def test_smp_hart_start_stop():
    """Two harts: HSM hart_start at boot, hart_stop and start again by
    CPU hotplug, IPIs and remote fences along the way."""
    rc, out, _ = boot("--smp", "2", "--append", "rv32_hotplug=1")
    check(rc, out)
    assert "smp: Brought up 1 node, 2 CPUs" in out
    assert "rv32-sbi proof: cpu1 offline and online again" in out
