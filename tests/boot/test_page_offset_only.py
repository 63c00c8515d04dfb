"""Changing layout.page_offset alone (a one-line delta) gives a kernel that
builds and boots: the link address and TASK_SIZE are derived, not restated.

The test suite builds this spec only with the debug variant, which the debug,
KUnit and torture tests boot as well: one kernel build serves all of them."""
import pytest

from guest import guest_kernel
from kbuild import ROOT, load_spec, run

pytestmark = pytest.mark.kernel

SPEC = ROOT / "tests" / "specs" / "tsar-page-offset.yaml"


def test_page_offset_alone_builds_and_boots():
    spec = load_spec(SPEC)
    assert spec["layout"]["kernel_link_address"] == 0x80001000
    assert spec["layout"]["task_size"] == 0x80000000
    k = guest_kernel("tsar-page-offset", "debug")
    nm = run(["mipsel-linux-gnu-nm", str(k.vmlinux)]).stdout
    entry = [int(line.split()[0], 16) & 0xFFFFFFFF for line in nm.splitlines()
             if line.endswith(" kernel_entry")]
    assert entry == [0x80001000], "kernel_entry not at the derived link address"
    rc, out, _ = k.boot()
    assert "Run /init as init process" in out, out[-3000:]
    assert f"portkit-init: {len(k.smoke_checks)} passed, 0 failed" in out, out[-3000:]
    assert rc == 0
