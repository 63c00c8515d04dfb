"""Kernel infrastructure on TSAR: exact user-copy fault counts, stack
unwinding (/proc/<pid>/wchan and /proc/<pid>/stack of sleeping tasks),
BUG()/WARN() through a break instruction and the bug table."""
import re

import pytest

from guest import guest_kernel, program_status

pytestmark = pytest.mark.kernel

TRACE_LINE = r"^\[[ .0-9]+\]  \[<[0-9a-f]{8}>\] "


@pytest.fixture(scope="module")
def kernel():
    return guest_kernel("tsar")


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
    assert stack[:2] == ["do_wait", "kernel_wait4"]
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
    assert re.search(r"WARNING: CPU: 0 PID: \d+ at drivers/misc/lkdtm/bugs.c:\d+ "
                     r"lkdtm_WARNING", out), out[-3000:]
    trace = re.findall(TRACE_LINE + r"(\w+)", out, re.M)
    assert trace[:2] == ["lkdtm_WARNING", "lkdtm_do_action"], trace
    assert "end trace" in out
    # The write returned: the crashing child exited normally.
    assert "portkit-init: crash child ended with status 0x0" in out
    assert rc == 0, err
