"""Kernel infrastructure on TSAR: exact user-copy fault counts, stack
unwinding (/proc/<pid>/wchan and /proc/<pid>/stack of sleeping tasks),
BUG()/WARN() through a break instruction and the bug table, the stack
protector's canary check."""
import re
import subprocess

import pytest

from guest import EMU, guest_kernel, program_status
from kbuild import SERIES_KEYS

pytestmark = pytest.mark.kernel

TRACE_LINE = r"^\[[ .0-9]+\]  \[<[0-9a-f]{8}>\] "


@pytest.fixture(scope="module", params=SERIES_KEYS)
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def programs(kernel):
    return kernel.run_programs("wchan", "usercopy")


def wchan_line(out, what):
    m = re.search(rf"^wchan: {what} pid \d+ wchan (\S+) stack (\S*)$", out, re.M)
    assert m, out[-3000:]
    return m.group(1), m.group(2).split(",")


def test_user_copies_stop_exactly_at_an_inaccessible_page(programs):
    rc, out, err = programs
    for what in ("read", "write", "zero"):
        assert re.search(rf"^usercopy: {what} ok 76$", out, re.M), out[-3000:]
    assert program_status(out, "usercopy") == ("exited", 0)


def test_wchan_and_stack_of_a_task_blocked_in_a_pipe_read(programs):
    wchan, stack = wchan_line(programs[1], "pipe")
    assert wchan == "pipe_read"
    assert stack[:3] == ["pipe_read", "vfs_read", "ksys_read"]


def test_wchan_and_stack_of_a_task_in_nanosleep(programs):
    wchan, stack = wchan_line(programs[1], "nanosleep")
    assert wchan in ("hrtimer_nanosleep", "do_nanosleep")
    assert "common_nsleep" in stack
    assert stack.index("common_nsleep") > stack.index(wchan)


def test_wchan_and_stack_of_a_task_in_wait4(programs):
    wchan, stack = wchan_line(programs[1], "wait4")
    assert wchan == "do_wait"
    # Without the time32 calls (abi.syscall.time32_syscalls: false, as
    # riscv32) there is no wait4 syscall: libc waits through waitid.
    assert stack[:2] in (["do_wait", "kernel_wait4"], ["do_wait", "kernel_waitid"])
    assert program_status(programs[1], "wchan") == ("exited", 0)


def test_bug_reports_file_and_line_with_a_backtrace(kernel):
    rc, out, err = kernel.boot("-append", "console=ttyVTTY0 portkit_crash=BUG",
                               timeout=60)
    assert re.search(r"kernel BUG at drivers/misc/lkdtm/bugs.c:\d+!", out), out[-3000:]
    assert "Oops - BUG" in out
    trace = re.findall(TRACE_LINE + r"(\w+)", out, re.M)
    assert trace[:3] == ["lkdtm_BUG", "lkdtm_do_action", "direct_entry"], trace
    assert "vfs_write" in trace
    assert "portkit-init: crash child ended with status 0xb" in out
    assert rc == 0, err


def test_warn_reports_and_the_task_goes_on(kernel):
    rc, out, err = kernel.boot("-append", "console=ttyVTTY0 portkit_crash=WARNING",
                               timeout=60)
    assert re.search(r"WARNING: CPU: \d+ PID: \d+ at drivers/misc/lkdtm/bugs.c:\d+ "
                     r"lkdtm_WARNING", out), out[-3000:]
    trace = re.findall(TRACE_LINE + r"(\w+)", out, re.M)
    assert trace[:2] == ["lkdtm_WARNING", "lkdtm_do_action"], trace
    assert "end trace" in out
    # The write returned: the crashing child exited normally.
    assert "portkit-init: crash child ended with status 0x0" in out
    assert rc == 0, err


def test_stack_protector_catches_a_smashed_canary(kernel):
    """HAVE_STACKPROTECTOR: LKDTM's CORRUPT_STACK writes past a char array
    over its frame's canary; the check before the return panics."""
    config = (kernel.out / ".config").read_text().splitlines()
    assert "CONFIG_STACKPROTECTOR=y" in config
    rc, out, err = kernel.boot("-append", "console=ttyVTTY0 portkit_crash=CORRUPT_STACK",
                               timeout=60)
    assert re.search(r"Kernel panic - not syncing: stack-protector: Kernel stack is "
                     r"corrupted in: lkdtm_CORRUPT_STACK", out), out[-3000:]
    assert rc == 127, err


def test_ram_beyond_lowmem_and_a_device_tree_above_it(kernel, tmp_path):
    # 1.5 GiB of RAM from 0 (the devices move to 0x7x000000 to make room):
    # the loader puts the DTB at the top, far above what the linear map
    # reaches; the kernel copies it into lowmem and uses the RAM above
    # lowmem as highmem.
    dts = subprocess.run(["dtc", "-I", "dtb", "-O", "dts", str(kernel.dtb)],
                         capture_output=True, text=True, check=True).stdout
    dts, n = re.subn(r"(memory@0 \{[^}]*reg = <0x00 0x00 )0x10000000>",
                     r"\g<1>0x60000000>", dts)
    assert n == 1, dts
    dts = re.sub(r"<0x00 0x1([0-9a-f])000000 ", r"<0x00 0x7\g<1>000000 ", dts)
    dts = re.sub(r"@1([0-9a-f])000000\b", r"@7\g<1>000000", dts)
    big = tmp_path / "big-ram.dtb"
    subprocess.run(["dtc", "-I", "dts", "-O", "dtb", "-o", str(big), "-"],
                   input=dts, text=True, check=True, capture_output=True)
    cmd = [str(EMU), "-dtb", str(big), "-timeout", "60", "-append",
           "console=ttyVTTY0 earlycon portkit_run=wchan", str(kernel.vmlinux)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    out = proc.stdout.replace("\r\n", "\n")
    m = re.search(r"Device tree at 0x([0-9a-f]+) is outside lowmem: copied into lowmem", out)
    assert m and int(m.group(1), 16) >= 0x50000000, out[:4000]
    # The RAM the linear map does not reach is highmem.
    m = re.search(r"Memory: \d+K/(\d+)K available .*?(\d+)K highmem\)", out)
    assert m and int(m.group(1)) == 0x60000000 >> 10, out[:4000]
    assert 0x60000000 - (900 << 20) <= int(m.group(2)) << 10 < 0x60000000 - (800 << 20)
    assert "Ignoring RAM" not in out
    assert program_status(out, "wchan") == ("exited", 0), out[-3000:]
    assert re.search(r"^portkit-init: \d+ passed, 0 failed$", out, re.M), out[-3000:]
    assert proc.returncode == 0, proc.stderr
