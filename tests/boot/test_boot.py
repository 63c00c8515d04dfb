"""Boot each board's kernel and check what the guest prints and how it
ends: the checks every board shares run on every board (the TSAR spec and
the 2G/2G one in the emulator, the sister qmips in QEMU) from one boot
each; the rest, which exercise the emulator's TSAR devices and extra boots,
on the TSAR boards (qmips' own checks: test_qmips.py)."""
import re

import pytest

from guest import NOLIBC_TEST, guest_kernel, guest_programs, nolibc_test_results, program_status
from kbuild import run

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module", params=["tsar", "tsar-6.1", "tsar-2g2g", "qmips", "qmips-6.1"])
def board(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module", params=["tsar", "tsar-6.1", "tsar-2g2g"])
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def boot(kernel):
    return kernel.default_boot()


def test_vmlinux_has_no_undefined_symbols(board):
    undefined = run(["mipsel-linux-gnu-nm", "-u", str(board.vmlinux)]).stdout
    assert undefined.strip() == ""


def test_boots_to_init_and_powers_off_cleanly(board):
    rc, out, err = board.default_boot()
    assert "Run /init as init process" in out, out[-3000:]
    assert "Kernel panic" not in out and "Oops" not in out, out[-3000:]
    assert "reboot: Power down" in out, out[-3000:]
    assert rc == 0, err[-2000:]


def test_init_banner_reports_uname_and_ram(board):
    _, out, _ = board.default_boot()
    m = re.search(r"portkit-init: Linux (\S+) (\S+), (\d+) KiB RAM", out)
    assert m, out[-3000:]
    assert m.group(1).startswith(board.spec["arch"]["kernel_series"] + ".")
    assert m.group(2) == board.spec["arch"]["uts_machine"]
    ram = sum(b["size"] for b in board.spec["platform"]["memory"]) // 1024
    # The kernel image and early allocations are not counted in totalram.
    assert 0.85 * ram < int(m.group(3)) <= ram


def test_every_smoke_check_passes(board):
    _, out, _ = board.default_boot()
    for name in board.smoke_checks:
        assert f"check {name}: ok" in out, out[-3000:]
    assert f"portkit-init: {len(board.smoke_checks)} passed, 0 failed" in out


def test_printk_times_are_finer_than_a_tick(board):
    """sched_clock() reads CP0 Count (GENERIC_SCHED_CLOCK), not jiffies:
    the console's time stamps fall between timer ticks."""
    _, out, _ = board.default_boot()
    tick_us = 1_000_000 // board.spec["kernel"]["hz"]
    times = [int(s) * 1_000_000 + int(us)
             for s, us in re.findall(r"^\[\s*(\d+)\.(\d{6})\]", out, re.M)]
    ticking = [t for t in times if t]
    assert len(ticking) > 10, out[:3000]
    between = [t for t in ticking if t % tick_us]
    assert len(between) > len(ticking) // 2, (tick_us, ticking[:40])


def test_user_faults_become_signals_and_the_kernel_survives(board):
    _, out, _ = board.default_boot()
    for name in [c for c in board.smoke_checks if c.startswith("sig")]:
        assert f"check {name}: ok" in out
    # Each faulting child was reported, none took the kernel down.
    assert "Oops" not in out and "Kernel panic" not in out


def test_earlycon_uses_the_spec_tty(kernel, boot):
    _, out, _ = boot
    tty = next(d for d in kernel.spec["platform"]["devices"] if d.get("stdout"))
    assert re.search(rf"earlycon: vci_tty0 at MMIO 0x0*{tty['base']:x} ", out), out[:2000]


def test_memory_and_devices_come_from_the_device_tree(kernel, boot):
    _, out, _ = boot
    bank = kernel.spec["platform"]["memory"][0]
    assert f"node   0: [mem 0x{bank['base']:016x}-" in out
    xicu = next(d for d in kernel.spec["platform"]["devices"]
                if d.get("interrupt_controller"))
    assert f"xicu@{xicu['base']:x}: " in out


def test_bootargs_from_the_loader_reach_the_kernel(kernel):
    rc, out, _ = kernel.boot("-append", "console=ttyVTTY0 portkit.marker=7q3")
    assert "Kernel command line: console=ttyVTTY0 portkit.marker=7q3" in out
    assert rc == 0


def test_console_input_reaches_the_guest(kernel):
    rc, out, _ = kernel.boot("-append", "console=ttyVTTY0 portkit_echo=1",
                             stdin="hello from the host\n")
    assert "portkit-init: echo [hello from the host]" in out, out[-2000:]
    assert "check console-read: ok" in out
    assert rc == 0


def test_kernel_oops_dumps_registers_and_a_backtrace_and_the_kernel_survives(kernel):
    # LKDTM's EXCEPTION writes through NULL in the kernel, in a child of init.
    rc, out, err = kernel.boot("-append", "console=ttyVTTY0 portkit_crash=EXCEPTION",
                               timeout=60)
    assert "Unable to handle kernel NULL pointer dereference" in out, out[-3000:]
    assert re.search(r"^\[[ .0-9]+\] epc : [0-9a-f]{8} lkdtm_EXCEPTION", out, re.M), out[-3000:]
    assert re.search(r"^\[[ .0-9]+\] Call Trace:", out, re.M)
    assert re.search(r"^\[[ .0-9]+\]  \[<[0-9a-f]{8}>\] \w+", out, re.M)
    # The crashing process was killed; init and the kernel went on.
    assert "portkit-init: crash child ended with status 0xb" in out
    assert f"portkit-init: {len(kernel.smoke_checks)} passed, 0 failed" in out
    assert rc == 0, err


def test_oops_with_oops_panic_ends_the_emulator_with_a_failure_status(kernel):
    rc, out, err = kernel.boot("-append",
                               "console=ttyVTTY0 portkit_crash=EXCEPTION oops=panic",
                               timeout=60)
    assert "Kernel panic - not syncing: Fatal exception" in out, out[-3000:]
    assert rc == 127, err


def test_nolibc_selftests_pass_in_the_guest(kernel):
    # The kernel tree's nolibc-test (tools/testing/selftests/nolibc), built
    # with portkit's TSAR nolibc support and run by /init.
    rc, out, _ = kernel.boot("-append", "console=ttyVTTY0 portkit_nolibc_test=1")
    # Some test names repeat: count results, not names.
    results = nolibc_test_results(out)
    failed = {name for name, r in results if r == "FAIL"}
    count, may_fail = NOLIBC_TEST[kernel.spec["arch"]["kernel_series"]]
    assert len(results) == count, out[-3000:]
    assert failed <= may_fail, failed
    assert sum(r == "OK" for _, r in results) >= count - len(may_fail)
    assert "Total number of errors: %d" % len(failed) in out
    assert rc == 0


def test_panic_ends_the_emulator_with_a_failure_status(kernel):
    # No init to run: the kernel panics, and must not hang.
    rc, out, err = kernel.boot("-append", "console=ttyVTTY0 rdinit=/missing init=/missing",
                               timeout=60)
    assert "Kernel panic" in out, out[-2000:]
    assert rc == 127, err



def test_initramfs_installs_every_guest_program(kernel):
    """userland/Makefile installs the programs guest_programs() names (the
    ones test_debug_kernel.py runs): userland/tests/<name>.c and the
    directories of several files, userland/tests/<name>/."""
    listed = re.findall(r"^file /bin/(\S+) ",
                        (kernel.out / "userland" / "initramfs.list").read_text(), re.M)
    programs = [n for n in listed if n != "nolibc-test" and not n.startswith("kst-")]
    assert sorted(programs) == guest_programs()


def test_portkit_run_reports_a_missing_program_as_a_failed_check(kernel):
    rc, out, _ = kernel.run_programs("no-such-program")
    assert "portkit-run: cannot execute /bin/no-such-program (errno 2)" in out, out[-2000:]
    assert program_status(out, "no-such-program") == ("exited", 127)
    assert f"portkit-init: {len(kernel.smoke_checks)} passed, 1 failed" in out
    assert rc == 1
