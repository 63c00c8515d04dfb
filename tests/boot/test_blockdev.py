"""The TSAR block device and a root file system on it.

The guest's driver (overrides/tsar/drivers/vci_block_device.c) is exercised
from user space: raw reads and writes of /dev/ioc0 (/bin/blockdev-raw), a
boot with root= on an ext4 image made by scripts/make-disk.sh, data that
persists across boots (/bin/disk-persist), an emulator killed in the middle
of synced writes (/bin/disk-writer) with e2fsck on the host afterwards, the
emulator's -disk-ro and -disk-error, init's fallback to the initramfs, and
the emulator's clear errors for bad images.
"""
import array
import re
import shutil
import signal
import subprocess
import time

import pytest

from guest import DISK_ROOT_ARGS, EMU, busybox_disk, guest_kernel, program_status
from kbuild import ROOT, SERIES_KEYS, SPECS

pytestmark = pytest.mark.kernel

RAW_BLOCKS = 8192                      # 4 MiB raw test image
ROOT_ARGS = "root=/dev/ioc0"
E2FSCK = shutil.which("e2fsck") or "/usr/sbin/e2fsck"
DEBUGFS = shutil.which("debugfs") or "/usr/sbin/debugfs"
N_CHECKS = 14                          # init's smoke checks (test_boot.CHECKS)


def raw_image(path):
    """Word k of block b = 0x10000000 + 128 * b + k (what blockdev-raw expects)."""
    path.write_bytes(array.array("I", range(0x10000000, 0x10000000 + RAW_BLOCKS * 128))
                     .tobytes())
    return path


def block_words(data, block, count=1):
    return array.array("I", data[block * 512:(block + count) * 512])


def expected_words(block, count, tag):
    return array.array("I", range(tag + block * 128, tag + (block + count) * 128))


@pytest.fixture(scope="module", params=SERIES_KEYS)
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def root_image(kernel, tmp_path_factory):
    """ext4 image of the nolibc userland, made as `make disk` makes it."""
    tmp = tmp_path_factory.mktemp("rootfs")
    rootfs, image = tmp / "rootfs", tmp / "disk.img"
    subprocess.run([ROOT / "scripts/stage-rootfs.sh",
                    kernel.out / "userland" / "initramfs.list", rootfs], check=True)
    subprocess.run([ROOT / "scripts/make-disk.sh", rootfs, image, "32M"], check=True,
                   capture_output=True)
    return image


@pytest.fixture
def disk(root_image, tmp_path):
    """A fresh copy of the root image for one test."""
    path = tmp_path / "disk.img"
    shutil.copyfile(root_image, path)
    return path


def boot(kernel, image, cmdline="", *emu_args, timeout=120):
    append = f"{kernel.console} {cmdline}".strip()
    return kernel.boot("-disk", str(image), *emu_args, "-append", append, timeout=timeout)


def fsck(image, *flags):
    return subprocess.run([E2FSCK, *flags, str(image)], capture_output=True, text=True,
                          timeout=120)


def debugfs_cat(image, path):
    return subprocess.run([DEBUGFS, "-R", f"cat {path}", str(image)], capture_output=True,
                          timeout=60).stdout


def all_checks_passed(out):
    """init's smoke checks (and the programs it ran) all passed."""
    m = re.search(r"^portkit-init: (\d+) passed, 0 failed$", out, re.M)
    return bool(m) and int(m.group(1)) >= N_CHECKS


# ------------------------------------------------------------ raw device

@pytest.fixture(scope="module", params=list(SPECS))
def any_kernel(request):
    return guest_kernel(request.param)


def test_raw_reads_and_writes_through_the_device(any_kernel, tmp_path):
    image = raw_image(tmp_path / "raw.img")
    before = image.read_bytes()
    rc, out, err = boot(any_kernel, image, "portkit_run=blockdev-raw")
    assert program_status(out, "blockdev-raw") == ("exited", 0), out[-3000:]
    assert rc == 0, err
    assert f"blockdev-raw: size {RAW_BLOCKS} blocks, read-write" in out
    assert "blockdev-raw: reads ok" in out and "blockdev-raw: writes ok" in out
    # What the guest wrote is in the image file, and nothing else changed.
    after = image.read_bytes()
    assert block_words(after, 2, 8) == expected_words(2, 8, 0xB0000000)
    assert block_words(after, 1000, 128) == expected_words(1000, 128, 0xC0000000)
    assert after[:2 * 512] == before[:2 * 512]
    assert after[10 * 512:1000 * 512] == before[10 * 512:1000 * 512]
    assert after[1128 * 512:] == before[1128 * 512:]


def test_driver_reports_the_disk_from_the_device_registers(kernel, tmp_path):
    rc, out, _ = boot(kernel, raw_image(tmp_path / "raw.img"))
    assert re.search(rf"ioc0: {RAW_BLOCKS} blocks of 512 bytes \(4096 KiB\), irq \d+", out), \
        out[:6000]
    assert all_checks_passed(out) and rc == 0


def test_no_disk_no_driver_complaint(kernel):
    # The DT node is there but the device holds no image (SIZE 0): the
    # driver registers an empty disk, the boot is unaffected.
    rc, out, _ = kernel.boot()
    assert "ioc0: 0 blocks" in out
    assert all_checks_passed(out) and rc == 0


def test_disk_ro_makes_a_read_only_device(kernel, tmp_path):
    image = raw_image(tmp_path / "raw.img")
    before = image.read_bytes()
    rc, out, err = boot(kernel, image, "portkit_run=blockdev-raw blockdev_raw=ro", "-disk-ro")
    assert program_status(out, "blockdev-raw") == ("exited", 0), out[-3000:]
    assert "blockdev-raw: size 8192 blocks, read-only" in out
    assert re.search(r"ioc0: .*, read-only, irq", out)
    assert "blockdev-raw: write refused (errno 1)" in out      # EPERM from the block layer
    assert image.read_bytes() == before
    assert rc == 0, err


def test_disk_error_gives_eio_and_the_kernel_stays_up(kernel, tmp_path):
    image = raw_image(tmp_path / "raw.img")
    rc, out, err = boot(kernel, image, "portkit_run=blockdev-raw blockdev_raw=eio:100",
                        "-disk-error", "100-100")
    assert program_status(out, "blockdev-raw") == ("exited", 0), out[-3000:]
    assert "blockdev-raw: read block 100: EIO" in out
    assert "blockdev-raw: write block 100: EIO" in out
    assert re.search(r"vci_block_device \S+: read error at block 100", out), out[-4000:]
    assert "Oops" not in out and "Kernel panic" not in out
    assert all_checks_passed(out)
    assert rc == 0, err


# ------------------------------------------------------------ root file system

def test_boot_with_root_on_the_image(kernel, disk):
    rc, out, err = boot(kernel, disk, f"{ROOT_ARGS} rw")
    assert "portkit-init: root /dev/ioc0 (ext4, rw): executing /init" in out, out[-3000:]
    assert re.search(r"EXT4-fs \(ioc0\): mounted filesystem", out)
    assert all_checks_passed(out), out[-3000:]
    assert rc == 0, err
    # init synced and remounted / read-only before powering off: clean.
    r = fsck(disk, "-fn")
    assert r.returncode == 0, r.stdout + r.stderr


def test_make_run_boots_the_busybox_disk_root(kernel, tmp_path):
    # `make disk` for the default spec: the BusyBox root file system with
    # the nolibc /init; `make run` without a terminal: the smoke checks
    # from the disk, rootfstype given (no ext3/ext2 attempts in the log).
    image = busybox_disk(kernel, tmp_path / "bb.img")
    assert debugfs_cat(image, "/bin/busybox")[:4] == b"\x7fELF"
    stat = subprocess.run([DEBUGFS, "-R", "stat /sbin/init", str(image)],
                          capture_output=True, text=True).stdout
    assert "Type: symlink" in stat and "../bin/busybox" in stat, stat
    rc, out, err = boot(kernel, image, DISK_ROOT_ARGS)
    assert "portkit-init: root /dev/ioc0 (ext4, rw): executing /init" in out, out[-3000:]
    assert "couldn't mount as ext" not in out and "VFS: Can't find" not in out, out[-4000:]
    assert all_checks_passed(out), out[-3000:]
    assert rc == 0, err
    r = fsck(image, "-fn")
    assert r.returncode == 0, r.stdout + r.stderr


def test_root_is_read_only_without_rw(kernel, disk):
    before = disk.read_bytes()
    rc, out, err = boot(kernel, disk, f"{ROOT_ARGS} portkit_run=disk-persist "
                        "disk_persist=write disk_token=x")
    assert "portkit-init: root /dev/ioc0 (ext4, ro): executing /init" in out, out[-3000:]
    assert "disk-persist: cannot write /persist.txt (errno 30)" in out   # EROFS
    assert disk.read_bytes() == before           # a read-only mount writes nothing
    assert rc == 1                               # the failed program is a failed check


def test_root_on_a_read_only_disk_is_mounted_read_only(kernel, disk):
    rc, out, _ = boot(kernel, disk, f"{ROOT_ARGS} rw portkit_run=disk-persist "
                      "disk_persist=write disk_token=x", "-disk-ro")
    assert "portkit-init: /dev/ioc0 is read-only: mounted read-only" in out, out[-3000:]
    assert "portkit-init: root /dev/ioc0 (ext4, ro): executing /init" in out
    assert "disk-persist: cannot write /persist.txt (errno 30)" in out
    assert rc == 1


def test_data_persists_across_two_boots(kernel, disk):
    token = f"t{time.time_ns() % 10**9}"
    rc, out, err = boot(kernel, disk, f"{ROOT_ARGS} rw portkit_run=disk-persist "
                        f"disk_persist=write disk_token={token}")
    assert f"disk-persist: wrote {token}" in out, out[-3000:]
    assert rc == 0, err
    assert debugfs_cat(disk, "/persist.txt") == f"token={token}\n".encode()
    rc, out, err = boot(kernel, disk, f"{ROOT_ARGS} rw portkit_run=disk-persist "
                        f"disk_persist=check disk_token={token}")
    assert f"disk-persist: found token={token}" in out, out[-3000:]
    assert program_status(out, "disk-persist") == ("exited", 0)
    assert rc == 0, err


def record(r):
    """Record r as /bin/disk-writer writes it (64 bytes)."""
    x = (r * 2654435761 + 12345) & 0xFFFFFFFF
    letters = []
    for _ in range(50):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        letters.append(chr(ord("a") + (x >> 16) % 26))
    return f"rec {r:08d} {''.join(letters)}\n".encode()


def test_kill_during_writes_loses_no_synced_record(kernel, disk):
    append = (f"{kernel.console} {ROOT_ARGS} rw portkit_run=disk-writer "
              "disk_writer_sync=8 disk_writer_records=100000")
    cmd = [str(EMU), "-dtb", str(kernel.dtb), "-disk", str(disk), "-timeout", "300",
           "-append", append, str(kernel.vmlinux)]
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace")
    acked, lines = 0, []
    try:
        for line in proc.stdout:
            lines.append(line)
            m = re.match(r"disk-writer: acked (\d+)", line)
            if m:
                acked = int(m.group(1))
                if acked >= 200:
                    break       # in the middle of the writes: kill now
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert acked >= 200, "".join(lines)[-3000:]
    # The kill left the journal to replay: e2fsck recovers the file system...
    r = fsck(disk, "-fy")
    assert r.returncode in (0, 1), r.stdout + r.stderr
    r = fsck(disk, "-fn")
    assert r.returncode == 0, r.stdout + r.stderr
    # ...and every record acknowledged after fsync() is there, intact.
    data = debugfs_cat(disk, "/records")
    assert len(data) >= acked * 64
    expected = b"".join(record(r) for r in range(acked))
    assert data[:acked * 64] == expected


def test_missing_root_device_falls_back_to_the_initramfs(kernel, disk):
    rc, out, err = boot(kernel, disk, "root=/dev/ioc7 rw")
    assert ("portkit-init: cannot use root /dev/ioc7: no such device (errno 2); "
            "staying on the initramfs") in out, out[-3000:]
    assert all_checks_passed(out) and rc == 0, err


def test_a_disk_without_a_file_system_falls_back_to_the_initramfs(kernel, tmp_path):
    rc, out, err = boot(kernel, raw_image(tmp_path / "raw.img"), f"{ROOT_ARGS} rw")
    assert re.search(r"portkit-init: cannot use root /dev/ioc0: mount \(\S*ext4\S*\) failed: .*; "
                     r"staying on the initramfs", out), out[-3000:]
    assert all_checks_passed(out) and rc == 0, err


def test_unknown_rootfstype_falls_back_to_the_initramfs(kernel, disk):
    rc, out, _ = boot(kernel, disk, f"{ROOT_ARGS} rootfstype=nosuchfs")
    assert ("cannot use root /dev/ioc0: mount (nosuchfs) failed: no such file system type "
            "(errno 19)") in out, out[-3000:]
    assert all_checks_passed(out) and rc == 0


def test_rootfstype_and_init_are_honoured(kernel, disk):
    rc, out, err = boot(kernel, disk, f"{ROOT_ARGS} rw rootfstype=ext4 init=/init")
    assert "portkit-init: root /dev/ioc0 (ext4, rw): executing /init" in out, out[-3000:]
    assert all_checks_passed(out) and rc == 0, err


def test_rootflags_reach_the_file_system(kernel, disk):
    # ext4 refuses an option it does not know: the mount fails, init says so.
    rc, out, _ = boot(kernel, disk, f"{ROOT_ARGS} rw rootflags=portkit_bogus")
    assert "Unknown parameter 'portkit_bogus'" in out, out[-4000:]
    assert re.search(r"cannot use root /dev/ioc0: mount \(\S*ext4\S*\) failed: .*"
                     r"staying on the initramfs", out)
    assert all_checks_passed(out) and rc == 0


def test_missing_init_on_the_root_falls_back_to_the_initramfs(kernel, disk):
    rc, out, _ = boot(kernel, disk, f"{ROOT_ARGS} init=/sbin/nope")
    assert ("portkit-init: cannot use root /dev/ioc0: no init program (/sbin/nope) in it; "
            "staying on the initramfs") in out, out[-3000:]
    assert all_checks_passed(out) and rc == 0


# ------------------------------------------------------------ bad images

@pytest.mark.parametrize("kind", ["missing", "truncated", "empty", "too-large"])
def test_bad_images_get_a_clear_error_from_the_emulator(kernel, tmp_path, kind):
    image = tmp_path / f"{kind}.img"
    if kind == "truncated":
        image.write_bytes(b"\0" * (512 * 100 + 77))
        needle = "not a positive multiple of 512"
    elif kind == "empty":
        image.write_bytes(b"")
        needle = "not a positive multiple of 512"
    elif kind == "too-large":
        with open(image, "wb") as f:      # sparse: 2 TiB is 2^32 blocks, one too many
            f.truncate(512 << 32)
        needle = "larger than the block device can address"
    else:
        needle = "cannot open disk image"
    t0 = time.monotonic()
    rc, out, err = boot(kernel, image, f"{ROOT_ARGS} rw", timeout=60)
    assert rc == 126, (rc, err)
    assert str(image) in err and needle in err, err
    assert time.monotonic() - t0 < 30        # refused at once, never a hang


# ------------------------------------------------------------ make disk

def test_make_disk_rebuilds_only_when_its_inputs_change(tmp_path):
    tree = tmp_path / "tree"
    (tree / "etc").mkdir(parents=True)
    (tree / "etc" / "motd").write_text("hello\n")
    image = tmp_path / "d.img"
    make = [ROOT / "scripts/make-disk.sh", tree, image, "8M"]
    first = subprocess.run(make, capture_output=True, text=True, check=True).stdout
    assert "ext4, 8M" in first
    assert image.stat().st_size == 8 << 20
    assert fsck(image, "-fn").returncode == 0
    assert debugfs_cat(image, "/etc/motd") == b"hello\n"
    mtime = image.stat().st_mtime_ns
    again = subprocess.run(make, capture_output=True, text=True, check=True).stdout
    assert "is up to date" in again and image.stat().st_mtime_ns == mtime
    (tree / "etc" / "motd").write_text("changed\n")
    subprocess.run(make, capture_output=True, text=True, check=True)
    assert debugfs_cat(image, "/etc/motd") == b"changed\n"


def test_stage_rootfs_merges_lists_and_restages_only_on_change(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("one\n")
    b.write_text("two\n")
    l1, l2, out = tmp_path / "1.list", tmp_path / "2.list", tmp_path / "tree"
    l1.write_text(f"dir /bin 0755 0 0\nfile /init {a} 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n")
    l2.write_text(f"file /bin/b {b} 0644 0 0\nslink /sbin/init ../bin/b 0777 0 0\n"
                  f"file /init {b} 0700 0 0\n")
    stage = [ROOT / "scripts/stage-rootfs.sh", l1, l2, out]
    assert "STAGE" in subprocess.run(stage, capture_output=True, text=True, check=True).stdout
    assert (out / "init").read_text() == "two\n"            # the later list wins
    assert (out / "init").stat().st_mode & 0o777 == 0o700
    assert (out / "bin" / "b").read_text() == "two\n"
    assert str((out / "sbin" / "init").readlink()) == "../bin/b"
    assert (out / "dev").is_dir() and not (out / "dev" / "console").exists()
    again = subprocess.run(stage, capture_output=True, text=True, check=True).stdout
    assert "STAGE" not in again                              # nothing changed
    b.write_text("TWO\n")                                    # same size, same second
    subprocess.run(stage, capture_output=True, text=True, check=True)
    assert (out / "bin" / "b").read_text() == "TWO\n"       # a named file changed


def test_make_disk_and_stage_rootfs_refuse_bad_input(tmp_path):
    r = subprocess.run([ROOT / "scripts/make-disk.sh", tmp_path / "nodir", tmp_path / "x.img"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "nodir: no such directory" in r.stderr
    r = subprocess.run([ROOT / "scripts/stage-rootfs.sh", tmp_path / "out"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "usage:" in r.stderr
    r = subprocess.run([ROOT / "scripts/stage-rootfs.sh", tmp_path / "none.list",
                        tmp_path / "out"], capture_output=True, text=True)
    assert r.returncode != 0 and "none.list: no such initramfs list" in r.stderr
    bad = tmp_path / "bad.list"
    bad.write_text("dir /bin 0755 0 0\npipe /x 0644 0 0\n")
    r = subprocess.run([ROOT / "scripts/stage-rootfs.sh", bad, tmp_path / "out"],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "bad.list:2: unknown entry 'pipe'" in r.stderr
    assert not (tmp_path / "out").exists()
