"""Swap on TSAR: a swap file of the ext4 root and a swap partition.

One boot of the default kernel on the platform with 24 MiB of RAM (the
kernel's own DTB with a smaller /memory node) and a disk with an MBR
partition table: partition 1 the BusyBox root file system `make disk`
makes, partition 2 left for swap. /bin/swap (userland/tests/swap.c) runs
BusyBox dd, mkswap, swapon and swapoff, fills anonymous memory half as
large again as MemTotal with a pattern of each page and word, reads every
page back, forks (copy-on-write of swapped pages) and checks that swapoff
brings everything back; first on /swapfile of the root, then on
/dev/ioc0p2. The disk image lives in /dev/shm when there is one: the
emulator fdatasyncs every write before it completes, and the boot writes
about 120 MiB (31 s instead of 6 s for one area here).
"""
import os
import re
import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

import pytest

from guest import DISK_ROOT_ARGS, busybox_disk, edited_dtb, guest_kernel, program_status

pytestmark = pytest.mark.kernel

RAM = 24 << 20
SECTOR = 512
ROOT_START = 2048                       # partition 1 at 1 MiB, as fdisk puts it
ROOT_SIZE = 64 << 20                    # room for the rootfs and a swap file
SWAP_SIZE = 48 << 20
E2FSCK = shutil.which("e2fsck") or "/usr/sbin/e2fsck"
AREAS = ("file", "dev")
CHECKS = ("mkswap", "swapon", "size", "fill", "readback", "fork", "swapoff", "swapoff-in",
          "resident")


def mbr(parts):
    """A DOS partition table of (type, first sector, sectors) entries."""
    table = b"".join(struct.pack("<B3sB3sII", 0, b"\xfe\xff\xff", ptype, b"\xfe\xff\xff",
                                 first, count) for ptype, first, count in parts)
    return bytes(446) + table.ljust(64, b"\0") + b"\x55\xaa"


@pytest.fixture(scope="module")
def kernel():
    return guest_kernel()


@pytest.fixture(scope="module")
def small_dtb(kernel, tmp_path_factory):
    def shrink(dts):
        dts, n = re.subn(r"(memory@0 \{[^}]*?reg = <0x0+ 0x0+ )0x[0-9a-f]+>", rf"\g<1>{RAM:#x}>",
                         dts)
        assert n == 1, dts
        return dts

    return edited_dtb(kernel.dtb, tmp_path_factory.mktemp("dtb") / "ram24m.dtb", shrink)


@pytest.fixture(scope="module")
def swap_boot(kernel, small_dtb, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("swap")
    root = busybox_disk(kernel, tmp / "root.img", f"{ROOT_SIZE >> 20}M")
    assert root.stat().st_size == ROOT_SIZE
    swap_start = ROOT_START + ROOT_SIZE // SECTOR
    shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=shm or tmp) as where:
        disk = Path(where) / "disk.img"
        return boot_swap(kernel, small_dtb, tmp, root, disk, swap_start)


def boot_swap(kernel, small_dtb, tmp, root, disk, swap_start):
    with open(disk, "wb") as f:
        f.write(mbr([(0x83, ROOT_START, ROOT_SIZE // SECTOR),
                     (0x82, swap_start, SWAP_SIZE // SECTOR)]))
        f.seek(ROOT_START * SECTOR)
        with open(root, "rb") as r:
            shutil.copyfileobj(r, f)
        f.truncate((swap_start * SECTOR) + SWAP_SIZE)
    append = (f"{kernel.console} {DISK_ROOT_ARGS.replace('/dev/ioc0', '/dev/ioc0p1')} "
              "portkit_run=swap swap=file,/dev/ioc0p2")
    rc, out, err = kernel.boot("-dtb", str(small_dtb), "-disk", str(disk), "-v",
                               "-append", append, timeout=300)
    # The root partition, for e2fsck on the host.
    data = disk.read_bytes()
    part1 = tmp / "part1.img"
    part1.write_bytes(data[ROOT_START * SECTOR:ROOT_START * SECTOR + ROOT_SIZE])
    return rc, out, err, part1, data[swap_start * SECTOR:swap_start * SECTOR + 4096]


def test_the_kernel_sees_the_partitions_and_the_small_ram(swap_boot):
    rc, out, err, _, _ = swap_boot
    assert re.search(r"^\[[ \d.]+\]  ioc0: p1 p2$", out, re.M), out[:8000]
    assert "portkit-init: root /dev/ioc0p1 (ext4, rw): executing /init" in out, out[-3000:]
    m = re.search(r"Memory: (\d+)K/(\d+)K available", out)
    assert m and int(m.group(2)) * 1024 <= RAM, out[:8000]


@pytest.mark.parametrize("area", AREAS)
def test_swap_area_fills_more_than_ram_and_gives_every_page_back(swap_boot, area):
    rc, out, err, _, _ = swap_boot
    lines = [line for line in out.splitlines() if line.startswith(f"swap: {area}")]
    results = {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(
        rf"^swap: {area}\.([\w-]+): (.*): (ok|FAIL)$", out, re.M)}
    for check in CHECKS + (("dd",) if area == "file" else ()):
        assert results.get(check, ("", ""))[1] == "ok", (check, lines, out[-4000:])
    m = re.search(rf"^swap: {area}: \S+, MemTotal (\d+) kB, filling (\d+) pages.*$", out, re.M)
    assert m and int(m.group(2)) * 4096 > RAM, lines
    fill = re.match(r"pswpout (\d+), pswpin (\d+)", results["fill"][0])
    readback = re.match(r"(\d+) bad pages, pswpin (\d+)", results["readback"][0])
    assert int(fill.group(1)) > 0 and readback.group(1) == "0" and int(readback.group(2)) > 0
    swapoff = re.match(r"VmSwap (\d+) kB before, (\d+) kB after", results["swapoff"][0])
    # VmSwap lags by what the task has not folded into its mm yet.
    assert int(swapoff.group(1)) >= 256 and int(swapoff.group(2)) < 256
    # Each page VmSwap counted was in the swap cache or swapoff read it in.
    swapoff_in = re.match(r"pswpin (\d+), SwapCached (\d+) kB", results["swapoff-in"][0])
    pswpin, cached = int(swapoff_in.group(1)), int(swapoff_in.group(2))
    assert pswpin > 0 and pswpin * 4 + cached >= int(swapoff.group(1)) - 256
    resident = re.match(r"(\d+) bad pages of (\d+)", results["resident"][0])
    assert resident.groups()[0] == "0" and int(resident.group(2)) >= 64, results["resident"]
    traffic = re.search(rf"^swap: {area}: traffic: pswpout (\d+) pswpin (\d+)$", out, re.M)
    print(area, m.group(0), traffic.group(0))
    # More pages went out than the whole fill minus all of RAM.
    assert int(traffic.group(1)) > int(m.group(2)) - RAM // 4096


def test_swap_boot_ends_clean(swap_boot):
    rc, out, err, part1, swap_part = swap_boot
    assert program_status(out, "swap") == ("exited", 0), out[-4000:]
    assert "swap: 0 failed" in out
    for bad in ("Oops", "BUG:", "WARNING:", "Kernel panic", "Out of memory", "Bad swap"):
        assert bad not in out, out[-4000:]
    assert rc == 0, err
    # mkswap wrote its signature at the end of the partition's first page.
    assert swap_part[-10:] == b"SWAPSPACE2"
    # The swap file came and went: the root file system is clean.
    r = subprocess.run([E2FSCK, "-fn", str(part1)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    m = re.search(r"(\d+) instructions", err)
    print("swap boot:", m.group(0) if m else err[-300:])
