"""The interactive shell, used as a person uses it: the emulator
runs in a tmux pane (a real terminal: the emulator puts it in raw mode, so
Ctrl-C and Enter reach the guest), booted as `make run` boots it from a
terminal (the spec's bootargs plus portkit_shell=1: /init execs BusyBox
init, which starts a login shell on ttyVTTY0 as its controlling terminal).
The test types commands and reads the screen."""
import itertools
import os
import re
import shutil
import subprocess
import time

import pytest

from guest import DISK_ROOT_ARGS, EMU, busybox_disk, guest_kernel
from kbuild import SERIES_KEYS

pytestmark = pytest.mark.kernel

SOCKET = f"portkit-shell-{os.getpid()}"
# "~ # " (ash's \w \$ for root); tmux trims the trailing space
PROMPT = re.compile(r"^\S* #\s*$")


class Pane:
    """One tmux session (private server) running a command in 80x24."""

    made = itertools.count()

    def __init__(self, command, socket=None):
        # A server of its own: the previous pane's server may still be
        # exiting after its kill-server when the next pane starts.
        self.tmux = ["tmux", "-L", socket or f"{SOCKET}-{next(Pane.made)}"]
        self.count = 0
        subprocess.run(self.tmux + ["new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                                    f"{command}; echo PORTKIT-EXIT=$?; sleep 600"],
                       check=True)

    def screen(self):
        return subprocess.run(self.tmux + ["capture-pane", "-p", "-t", "t"],
                              capture_output=True, text=True, check=True).stdout

    def history(self):
        return subprocess.run(self.tmux + ["capture-pane", "-p", "-t", "t", "-S", "-2000"],
                              capture_output=True, text=True, check=True).stdout

    def keys(self, *keys):
        subprocess.run(self.tmux + ["send-keys", "-t", "t", *keys], check=True)

    def text(self, text):
        subprocess.run(self.tmux + ["send-keys", "-t", "t", "-l", text], check=True)

    def type(self, text):
        self.text(text)
        self.keys("Enter")

    def wait(self, pattern, timeout=60, where="screen"):
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen() if where == "screen" else self.history()
            m = re.search(pattern, text, re.M)
            if m:
                return m
            if time.monotonic() > deadline:
                raise AssertionError(f"no {pattern!r} after {timeout} s:\n{text}")
            time.sleep(0.3)

    def prompt(self, timeout=60):
        """Wait until the last non-empty line is the shell's prompt."""
        deadline = time.monotonic() + timeout
        while True:
            lines = [ln for ln in self.screen().splitlines() if ln.strip()]
            if lines and PROMPT.match(lines[-1]):
                return
            if time.monotonic() > deadline:
                raise AssertionError("no prompt:\n" + "\n".join(lines))
            time.sleep(0.3)

    def run(self, command, expect, timeout=60):
        """Type a command with a marker echo after it, wait for the marker
        (on the same line: typing ahead would be echoed into the output)."""
        self.count += 1
        # the typed line shows "$((n+1000))", only the output the number
        self.type(f"{command}; echo marker-$(({self.count}+1000))")
        self.wait(rf"^marker-{self.count + 1000}$", timeout, where="history")
        text = self.history()
        assert re.search(expect, text, re.M), text[-3000:]
        return text

    def close(self):
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)


@pytest.fixture(scope="module", params=SERIES_KEYS)
def pane(request):
    if not shutil.which("tmux"):
        pytest.fail("tmux is not installed (scripts/install-deps.sh test)")
    k = guest_kernel(request.param)
    append = f"{k.spec['boot']['bootargs']} portkit_shell=1"
    p = Pane(f"{EMU} -dtb {k.dtb} -timeout 900 -append '{append}' {k.vmlinux}")
    try:
        p.prompt(timeout=180)
        yield p
    finally:
        p.close()


def test_boots_to_a_shell_prompt(pane):
    assert PROMPT.match([ln for ln in pane.screen().splitlines() if ln.strip()][-1])


def test_ls_proc(pane):
    text = pane.run("ls /proc", r"cpuinfo")
    assert re.search(r"\bself\b", text) and re.search(r"\bmeminfo\b", text)


def test_cpuinfo_names_tsar(pane):
    pane.run("cat /proc/cpuinfo", r"TSAR")


def test_ps_shows_init_and_the_shell(pane):
    text = pane.run("ps", r"PID\s+USER")
    assert re.search(r"^\s*1 root .*init", text, re.M), text[-2000:]
    assert re.search(r"^\s*\d+ root\s+-/bin/sh$", text, re.M), text[-2000:]


def test_dmesg(pane):
    pane.run("dmesg | grep -c 'Linux version'", r"^1$")


def test_ctrl_c_interrupts_a_running_command(pane):
    pane.type("sleep 100")
    time.sleep(2)
    pane.keys("C-c")
    pane.prompt(timeout=10)
    pane.run("echo status=$?", r"^status=130$")


def test_vi_full_screen_and_quit(pane):
    pane.type("vi /tmp/vi-test")
    # full screen: the empty buffer's "~" lines fill the terminal
    pane.wait(r"(?:^~\s*$\n){15,}", timeout=30)
    pane.text("ihello from vi")
    time.sleep(0.5)
    # vi waits a moment after ESC for the rest of an escape sequence (an
    # arrow key); a person types ":" later than that
    pane.keys("Escape")
    time.sleep(1)
    pane.type(":wq")
    pane.prompt(timeout=15)
    pane.run("cat /tmp/vi-test", r"^hello from vi$")


def test_top_redraws_and_quits(pane):
    pane.type("top")
    pane.wait(r"^Mem: .*used", timeout=30)
    pane.wait(r"PID\s+PPID\s+USER", timeout=10)
    pane.keys("q")
    pane.prompt(timeout=15)


def test_poweroff_ends_the_emulator_with_status_0(pane):
    pane.type("poweroff")
    pane.wait(r"^PORTKIT-EXIT=0$", timeout=60, where="history")


def test_shell_on_the_disk_root_keeps_files_across_boots(tmp_path):
    # `make run` from a terminal once `make disk` made the image: the
    # initramfs /init switches to the disk, whose /init starts BusyBox init
    # there; a file written in one boot is there in the next.
    k = guest_kernel("tsar")
    image = busybox_disk(k, tmp_path / "disk.img")
    append = f"{k.spec['boot']['bootargs']} {DISK_ROOT_ARGS} portkit_shell=1"
    token = f"kept-{time.time_ns() % 10**9}"
    for boot in ("write", "read"):
        p = Pane(f"{EMU} -dtb {k.dtb} -disk {image} -timeout 900 -append '{append}' "
                 f"{k.vmlinux}")
        try:
            p.prompt(timeout=180)
            history = p.history()
            assert "portkit-init: root /dev/ioc0 (ext4, rw): executing /init" in history
            assert "couldn't mount as ext" not in history
            p.run("grep ' / ' /proc/mounts", r"^/dev/root / ext4 rw|^/dev/ioc0 / ext4 rw")
            if boot == "write":
                p.run(f"echo {token} > /root/note && sync", r"^marker")
            else:
                p.run("cat /root/note", rf"^{token}$")
            p.type("poweroff")
            p.wait(r"^PORTKIT-EXIT=0$", timeout=60, where="history")
        finally:
            p.close()
        # BusyBox init's shutdown remounted the root read-only: clean.
        r = subprocess.run([shutil.which("e2fsck") or "/usr/sbin/e2fsck", "-fn", str(image)],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
