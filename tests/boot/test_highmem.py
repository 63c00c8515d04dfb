"""High memory on TSAR: RAM beyond the kernel's linear map.

One boot of the default kernel on a platform whose device tree gives it a
48 MiB bank at physical 0 (all of it lowmem) and a 64 MiB bank at 4 GiB,
in the 40-bit space only page tables reach (28-bit page numbers in the
PTEs, kmap for the kernel). BusyBox's root file system is on the block
device; /bin/highmem (userland/tests/highmem.c) fills more than lowmem from
four processes and checks every word, copy-on-write of highmem pages, a
file larger than lowmem written to and read back from the disk through the
page cache without bounce buffers, and 16 MiB through a pipe.
"""
import re

import pytest

from guest import DISK_ROOT_ARGS, SPLATS, busybox_disk, edited_dtb, guest_kernel, program_status
from kbuild import DEBUG_KEYS, SERIES_KEYS, debug_id

pytestmark = pytest.mark.kernel

LOW = 48 << 20
HIGH_BASE = 1 << 32
HIGH = 64 << 20
CHECKS = ("meminfo", "fill", "high-frames", "high-used", "verify", "cow", "pagecache",
          "no-bounce", "pipe", "release")


# Both series, and the debug kernel (DEBUG_HIGHMEM maps every kmap_local_page()
# through the fixmap, lowmem pages too; DEBUG_VM, lockdep, DEBUG_PAGEALLOC).
KERNELS = [(key, None) for key in SERIES_KEYS] + [(key, "debug") for key in DEBUG_KEYS]


@pytest.fixture(scope="module", params=KERNELS,
                ids=[debug_id(k) if v else k for k, v in KERNELS])
def kernel(request):
    return guest_kernel(*request.param)


@pytest.fixture(scope="module")
def highmem_dtb(kernel, tmp_path_factory):
    """The kernel's DTB with RAM in two banks: LOW at 0, HIGH at 4 GiB."""
    bank = (f"\tmemory@{HIGH_BASE:x} {{\n\t\tdevice_type = \"memory\";\n"
            f"\t\treg = <{HIGH_BASE >> 32:#x} 0x0 {HIGH:#x}>;\n\t}};\n")

    def two_banks(dts):
        dts, n = re.subn(r"(\tmemory@0 \{[^}]*?reg = <0x0+ 0x0+ )0x[0-9a-f]+>;(\s*\};\n)",
                         rf"\g<1>{LOW:#x}>;\g<2>{bank}", dts)
        assert n == 1, dts
        return dts

    return edited_dtb(kernel.dtb, tmp_path_factory.mktemp("dtb") / "highmem.dtb", two_banks)


@pytest.fixture(scope="module")
def highmem_boot(kernel, highmem_dtb, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("highmem")
    # A debug kernel's initramfs has no BusyBox: its series' default kernel's root.
    shell = next(s for s in map(guest_kernel, SERIES_KEYS) if s.series == kernel.series)
    disk = busybox_disk(kernel, tmp / "root.img", "96M", rootfs=shell)
    append = f"{kernel.console} {DISK_ROOT_ARGS} portkit_run=highmem"
    return kernel.boot("-dtb", str(highmem_dtb), "-disk", str(disk), "-v", "-append", append,
                       timeout=600)


def test_the_kernel_counts_the_bank_above_4g_as_highmem(highmem_boot):
    rc, out, err = highmem_boot
    m = re.search(r"Memory: (\d+)K/(\d+)K available .*?(\d+)K highmem", out)
    assert m, out[:8000]
    assert int(m.group(2)) * 1024 == LOW + HIGH and int(m.group(3)) * 1024 == HIGH
    assert "Ignoring RAM" not in out
    assert re.search(r"HighMem +\[mem 0x[0-9a-f]+-0x0*103ffffff\]", out), out[:8000]


def test_user_memory_page_cache_and_pipes_live_in_highmem(highmem_boot):
    rc, out, err = highmem_boot
    results = {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(
        r"^highmem: ([\w-]+): (.*): (ok|FAIL)$", out, re.M)}
    lines = [line for line in out.splitlines() if line.startswith("highmem:")]
    for check in CHECKS:
        assert results.get(check, ("", ""))[1] == "ok", (check, lines, out[-3000:])
    high_total = int(re.match(r"HighTotal (\d+) kB", results["meminfo"][0]).group(1))
    assert high_total * 1024 == HIGH
    filled = int(re.match(r"(\d+) kB filled", results["fill"][0]).group(1))
    assert filled * 1024 > LOW
    frames = re.match(r"(\d+) of (\d+) pages above 4 GiB", results["high-frames"][0])
    # Every page above lowmem is above 4 GiB: at least the part that did not fit in LOW.
    assert int(frames.group(1)) * 4096 >= filled * 1024 - LOW
    print("\n".join(lines))


def test_highmem_boot_ends_clean(highmem_boot):
    rc, out, err = highmem_boot
    assert program_status(out, "highmem") == ("exited", 0), out[-4000:]
    for splat in SPLATS + ["Out of memory"]:
        assert splat not in out, out[-4000:]
    assert rc == 0, err[-2000:]
    m = re.search(r"(\d+) instructions", err)
    print("highmem boot:", m.group(0) if m else err[-300:])
