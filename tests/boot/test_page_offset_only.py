"""Changing layout.page_offset alone (a one-line delta) gives a kernel that
builds and boots: the link address and TASK_SIZE are derived, not restated."""
import subprocess

import pytest

from kbuild import ROOT, load_spec, run

pytestmark = pytest.mark.kernel

SPEC = "tests/specs/tsar-page-offset.yaml"


def test_page_offset_alone_builds_and_boots():
    spec = load_spec(ROOT / SPEC)
    assert spec["layout"]["kernel_link_address"] == 0x80001000
    assert spec["layout"]["task_size"] == 0x80000000
    run(["make", "--no-print-directory", "kernel", "emulator", f"SPEC={SPEC}"], timeout=3600)
    out_dir = ROOT / "build" / "tsar-page-offset"
    nm = run(["mipsel-linux-gnu-nm", str(out_dir / "vmlinux")]).stdout
    entry = [int(line.split()[0], 16) & 0xFFFFFFFF for line in nm.splitlines()
             if line.endswith(" kernel_entry")]
    assert entry == [0x80001000], "kernel_entry not at the derived link address"
    dtb = out_dir / f"{spec['platform']['name']}.dtb"
    proc = subprocess.run([str(ROOT / "build/bin/tsar-emu"), "-dtb", str(dtb), "-timeout", "120",
                           str(out_dir / "vmlinux")], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, errors="replace", timeout=150)
    out = proc.stdout.replace("\r\n", "\n")
    assert "Run /init as init process" in out, out[-3000:]
    assert "portkit-init: 13 passed, 0 failed" in out, out[-3000:]
    assert proc.returncode == 0
