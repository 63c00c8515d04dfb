"""The uniprocessor kernel on a multi-CPU machine (SMP, emulator half).

The emulator now runs every CPU the device tree describes, and every CPU
starts at the kernel entry (hardware reference 5).  A UP kernel must still
boot there: its head.S parks CPUs whose EBase.CPUNum is not 0.  The DTB is
the kernel's own with three more cpu nodes (reg 1..3); the XICU counts stay
the DTB's (1 PTI, 1 WTI), so the UP drivers see the same XICU. The UP
kernel is the one-CPU 2g2g board's (the default spec is SMP with 4 CPUs).
"""
import re
import shutil
import subprocess

import pytest

from guest import guest_kernel

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def four_cpu_dtb(tmp_path_factory):
    if not shutil.which("dtc"):
        pytest.skip("dtc not installed")
    k = guest_kernel("tsar-2g2g")
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(k.dtb)],
                         capture_output=True, text=True, check=True).stdout
    m = re.search(r"(cpu@0 \{.*?\n(\t+)\};\n)", dts, re.S)
    assert m, dts
    extra = "".join(m.group(1).replace("cpu@0", f"cpu@{i}").replace("reg = <0x00>", f"reg = <{i}>")
                    .replace("reg = <0x0>", f"reg = <{i}>") for i in (1, 2, 3))
    dts = dts.replace(m.group(1), m.group(1) + m.group(2) + extra.lstrip("\t"))
    out = tmp_path_factory.mktemp("dtb") / "four.dtb"
    subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(out), "-"], input=dts,
                   text=True, check=True)
    return out


def test_up_kernel_boots_with_four_cpus_described(four_cpu_dtb):
    k = guest_kernel("tsar-2g2g")
    rc, out, err = k.boot("-dtb", str(four_cpu_dtb), "-v")
    assert "cpus=4" in err, err
    assert "Run /init as init process" in out, out[-3000:]
    assert "Kernel panic" not in out and "Oops" not in out, out[-3000:]
    assert "reboot: Power down" in out, out[-3000:]
    assert rc == 0, err
