"""Power cuts at random points of a file-system workload.

/bin/powercut (userland/tests/powercut.c) mounts a fresh ext4 data disk
and runs seven processes at once on the 4 CPUs: appends with fsync(), with
fdatasync() and without either, atomic replaces (write, fsync, rename
over) with and without fsync(), shrink/grow/write steps, and directory
churn. It prints each thing it synced, numbered, before moving on.

The emulator is stopped at a random guest instruction (-icount-limit: a
power cut; the block device writes through, so the image holds exactly
the writes the device completed) with a random interleaving of the CPUs
(-seed). On the host, e2fsck replays the journal, then must find the file
system clean, and every file must be consistent with the console up to
the cut (tests/boot/powercut_model.py): what was synced is there, and
nothing else is half-written.

Seed number n gives both the emulator's -seed and where the cut falls
between the end of the boot and the end of the workload, measured by two
uncut runs (the calibration); each seed prints its command line, and
POWERCUT_SEEDS=n replays it. POWERCUT_SEEDS takes a list and ranges
("3,9,20-29"); without it, POWERCUT_COUNT seeds from POWERCUT_FIRST, or
else DEFAULT_SEEDS (make test). `make test-stress` runs many.
"""
import hashlib
import os
import pathlib
import random
import re
import shutil
import subprocess
import tempfile

import pytest

import powercut_model as model
from guest import EMU, guest_kernel
from kbuild import ROOT

pytestmark = pytest.mark.kernel

E2FSCK = shutil.which("e2fsck") or "/usr/sbin/e2fsck"
DEBUGFS = shutil.which("debugfs") or "/usr/sbin/debugfs"
IMAGE_SIZE = "16M"
DEFAULT_SEEDS = "1-10"
CALIBRATION_SEED = 1           # the emulator's -seed of the two uncut runs
EARLY = 0.03                   # cuts start this share of the workload before it
TIMEOUT = 600


def seed_numbers():
    spec = os.environ.get("POWERCUT_SEEDS", "").strip()
    if not spec and os.environ.get("POWERCUT_COUNT"):
        first = int(os.environ.get("POWERCUT_FIRST", "1"))
        return list(range(first, first + int(os.environ["POWERCUT_COUNT"])))
    seeds = []
    for part in (spec or DEFAULT_SEEDS).split(","):
        lo, _, hi = part.strip().partition("-")
        seeds += range(int(lo), int(hi or lo) + 1)
    return seeds


@pytest.fixture(scope="module")
def kernel():
    return guest_kernel()


@pytest.fixture(scope="module")
def workdir():
    """Images live in memory when the host has /dev/shm: the emulator
    fdatasync()s every write, which costs nothing there (the test stops
    the emulator, never the host)."""
    shm = pathlib.Path("/dev/shm")
    base = shm if shm.is_dir() and os.access(shm, os.W_OK) else None
    path = pathlib.Path(tempfile.mkdtemp(prefix="portkit-powercut-", dir=base))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def blank(workdir):
    """An empty ext4 file system, made as `make disk` makes images."""
    tree, image = workdir / "empty", workdir / "blank.img"
    tree.mkdir()
    subprocess.run([ROOT / "scripts/make-disk.sh", tree, image, IMAGE_SIZE], check=True,
                   capture_output=True)
    return image


def command(kernel, image, seed, limit=None, scale=1):
    append = f"{kernel.console} portkit_run=powercut powercut_scale={scale}"
    return [str(EMU), "-dtb", str(kernel.dtb), "-disk", str(image), "-seed", str(seed),
            *(["-icount-limit", str(limit)] if limit else []), "-timeout", str(TIMEOUT),
            "-v", "-append", append, str(kernel.vmlinux)]


def run(cmd):
    """(exit status, console, stderr, guest instructions) of one run."""
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       errors="replace", timeout=TIMEOUT + 60)
    m = re.search(r"after (\d+) instructions|limit reached \((\d+) instructions", p.stderr)
    insns = int(m.group(1) or m.group(2)) if m else None
    return p.returncode, p.stdout.replace("\r\n", "\n"), p.stderr, insns


def replay_and_fsck(image):
    """Replay the journal and nothing else, then e2fsck -fn must find the
    file system clean: (ok, what e2fsck said)."""
    r = subprocess.run([E2FSCK, "-E", "journal_only", "-y", str(image)], capture_output=True,
                       text=True, timeout=120)
    said = f"$ e2fsck -E journal_only -y: {r.returncode}\n{r.stdout}{r.stderr}"
    if r.returncode not in (0, 1):
        return False, said
    r = subprocess.run([E2FSCK, "-fn", str(image)], capture_output=True, text=True,
                       timeout=120)
    return r.returncode == 0, f"{said}$ e2fsck -fn: {r.returncode}\n{r.stdout}{r.stderr}"


def dump(image, into):
    """The whole file system, as read_tree gives it."""
    into.mkdir()
    subprocess.run([DEBUGFS, "-R", f"rdump / {into}", str(image)], check=True,
                   capture_output=True, timeout=120)
    return model.read_tree(into)


def verify(image, out, scale=1):
    """Problems found in the image after a run that printed out."""
    ok, said = replay_and_fsck(image)
    if not ok:
        return ["e2fsck after the journal replay:\n" + said]
    tmp = pathlib.Path(tempfile.mkdtemp(dir=image.parent))
    try:
        return model.check_image(dump(image, tmp / "fs"), out, scale)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def calibration(kernel, workdir, blank):
    """Guest instructions at the end of a run without the workload (the
    boot, the setup, the unmount and the power-off) and with it, both
    uncut; the second run's image must hold the whole final state."""
    image = workdir / "calibrate.img"
    counts = []
    for scale in (0, 1):
        shutil.copyfile(blank, image)
        rc, out, err, insns = run(command(kernel, image, CALIBRATION_SEED, scale=scale))
        assert rc == 0 and insns and "powercut: done, 0 failed" in out, \
            f"uncut run (powercut_scale={scale}): exit {rc}\n{out[-3000:]}\n{err[-2000:]}"
        problems = verify(image, out, scale)
        assert not problems, "\n".join(problems)
        counts.append(insns)
    print(f"powercut: calibration: {counts[0]} instructions without the workload, "
          f"{counts[1]} with it")
    assert counts[1] > counts[0]
    return counts


def test_uncut_workload_leaves_the_whole_final_state(calibration):
    # The calibration itself: both uncut runs ended cleanly and their
    # images hold exactly what the program wrote.
    assert calibration[1] - calibration[0] > 10_000_000


def plan(n, calibration):
    """Seed number n -> (emulator -seed, instruction of the cut)."""
    rng = random.Random(n)
    emu_seed = rng.randrange(1, 1 << 31)
    t0, t1 = calibration
    span = t1 - t0
    return emu_seed, t0 + int((rng.random() * (1 + EARLY) - EARLY) * span)


RESULTS = {}                   # seed number -> (digest of the cut image, console)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("n", seed_numbers())
def test_power_cut(kernel, workdir, blank, calibration, n, tmp_path):
    emu_seed, cut = plan(n, calibration)
    image = workdir / f"cut-{n}.img"
    shutil.copyfile(blank, image)
    cmd = command(kernel, image, emu_seed, cut)
    rc, out, err, insns = run(cmd)
    RESULTS[n] = (digest(image), out)
    ready, last, done, errors, finished = model.progress(out)
    where = ", ".join(f"{r} {last[r]}" for r in model.ROLES)
    print(f"powercut: seed {n}: -seed {emu_seed} -icount-limit {cut}: exit {rc}, "
          f"{'ready' if ready else 'not ready'}; {where}")
    replay = (f"replay: POWERCUT_SEEDS={n} (the cut image is kept in {tmp_path}); "
              f"{' '.join(cmd)}")
    assert rc in (0, 125), f"exit {rc}\n{out[-3000:]}\n{err[-2000:]}\n{replay}"
    shutil.copyfile(image, workdir / f"cut-{n}.orig")
    problems = verify(image, out)
    if problems:
        shutil.move(workdir / f"cut-{n}.orig", tmp_path / "cut.img")
        (tmp_path / "console.txt").write_text(out)
    else:
        (workdir / f"cut-{n}.orig").unlink()
    image.unlink()
    assert not problems, "\n".join(problems) + f"\n{out[-1500:]}\n{replay}"


def test_a_cut_replays_exactly(kernel, workdir, blank, calibration):
    """The first seed again, with the device accesses traced: the same
    console and, byte for byte, the same image (what makes POWERCUT_SEEDS=n
    a replay of a failure), and no sector of it changed but those of the
    writes the block device completed before the cut (dev_blockdev.c
    writes each transfer through when it completes, nothing later)."""
    n = seed_numbers()[0]
    if n not in RESULTS:
        pytest.skip(f"seed {n} did not run in this session")
    emu_seed, cut = plan(n, calibration)
    image, trace = workdir / "replay.img", workdir / "replay.trace"
    shutil.copyfile(blank, image)
    cmd = command(kernel, image, emu_seed, cut)
    rc, out, err, _ = run([*cmd[:-1], "-d", "dev", "-D", str(trace), cmd[-1]])
    assert rc in (0, 125), err[-2000:]
    assert (digest(image), out) == RESULTS[n]
    written = set()
    for m in re.finditer(r"^dev: blockdev write lba=(\d+) count=(\d+) .*-> ok$",
                         trace.read_text(), re.M):
        written.update(range(int(m.group(1)), int(m.group(1)) + int(m.group(2))))
    old, new = blank.read_bytes(), image.read_bytes()
    changed = {s for s in range(len(new) // 512)
               if new[s * 512:(s + 1) * 512] != old[s * 512:(s + 1) * 512]}
    assert changed <= written, sorted(changed - written)[:20]
    image.unlink()
    trace.unlink()
