"""A generation killed at any point (SIGKILL) is finished by the next run
without --force, and never leaves files mistaken for hand edits."""

from __future__ import annotations

import subprocess
import sys

import pytest

DRIVER = r"""
import os, signal, sys
sys.path.insert(0, {root!r})
import generator.output as out
calls = {{"n": 0}}
real_write, real_unlink = out.atomic_write, out.Path.unlink
def counting(target, data, mode):
    calls["n"] += 1
    if calls["n"] == {kill_at}:
        # die mid-write: a temporary is on disk, the target not yet replaced
        open(str(target.parent / ("." + target.name + ".x" + out.TMP_SUFFIX)), "wb").write(data[:10])
        os.kill(os.getpid(), signal.SIGKILL)
    return real_write(target, data, mode)
out.atomic_write = counting
from generator.cli import main
sys.exit(main(sys.argv[1:], root={root!r}))
"""


def killed_run(proj, kill_at):
    script = proj.path / "killer.py"
    script.write_text(DRIVER.format(root=str(proj.path), kill_at=kill_at))
    p = subprocess.run([sys.executable, str(script), "spec.yaml"], cwd=proj.path,
                       capture_output=True, text=True, timeout=60)
    return p.returncode


@pytest.mark.parametrize("kill_at", [1, 2, 3, 4])  # journal, file, file, manifest
def test_killed_generation_is_recovered(built, kill_at):
    clean = built.files()
    built.edit("  hz: 100", "  hz: 250")
    built.edit("  clock_hz: 25000000", "  clock_hz: 50000000")
    assert killed_run(built, kill_at) == -9
    # the user changes the spec again before rerunning: files the killed run
    # wrote now match neither the manifest nor the new output
    built.edit("  hz: 250", "  hz: 300")
    built.edit("  clock_hz: 50000000", "  clock_hz: 40000000")
    # the next run: no --force needed, no drift reported
    r = built.run()
    assert r.rc == 0, r.err
    after = built.files()
    assert not [p for p in after if p.endswith(".portkit-tmp")]
    assert ".portkit-journal.json" not in after
    assert after != clean
    assert built.run("spec.yaml", "--check").rc == 0


def test_kill_after_every_file_written_but_before_manifest(built):
    built.edit("  hz: 100", "  hz: 250")
    # defconfig, dts, Makefile... : the manifest is the last write of the run
    n = len([1 for _ in built.run("spec.yaml", "--check").out.splitlines() if "would" in _])
    assert killed_run(built, n + 1) == -9   # journal + files, killed writing the manifest
    assert (built.outdir / ".portkit-journal.json").exists()
    r = built.run("spec.yaml", "--check")
    assert r.rc == 1 and "interrupted generation" in r.out
    assert built.run().rc == 0
    assert built.run("spec.yaml", "--check").rc == 0


def test_hand_edit_still_detected_after_interruption(built):
    built.edit("  hz: 100", "  hz: 250")
    assert killed_run(built, 2) == -9
    page = built.arch_dir / "include/asm/page.h"
    page.write_text(page.read_text() + "/* mine */\n")
    r = built.run()
    assert r.rc == 3 and "include/asm/page.h: edited by hand" in r.err


CONCURRENT_DRIVER = r"""
import os, sys, time
sys.path.insert(0, {root!r})
import generator.cli as cli
import generator.output as out
real_load = out.load_manifest
def load_then_meet(outdir):
    # Meet the other run between reading the manifest and writing it back
    # (up to 15 s: on a loaded machine the other interpreter may take
    # seconds to start): without the lock, both then read the same old
    # manifest. With the lock the first run waits the whole time.
    data = real_load(outdir)
    open(os.path.join({sync!r}, {me!r}), "w").close()
    deadline = time.monotonic() + 15
    while (not os.path.exists(os.path.join({sync!r}, {other!r}))
           and time.monotonic() < deadline):
        time.sleep(0.01)
    return data
out.load_manifest = load_then_meet
if {no_lock}:
    def no_lock(outdir):
        outdir.mkdir(parents=True, exist_ok=True)
        return os.open(os.devnull, os.O_RDONLY)
    cli.lock_outdir = no_lock
sys.exit(cli.main(sys.argv[1:], root={root!r}))
"""


def two_concurrent_generations(built, tmp_path, no_lock):
    """Generate tsar and tsar2 into one new output directory at once, the
    two runs meeting after reading the manifest; return its arches."""
    from gen_helpers import make_project
    other = built.path.parent / "other"
    if not other.exists():
        proj = make_project(other)
        proj.edit("  name: tsar\n", "  name: tsar2\n")
        (other / "overrides/tsar").rename(other / "overrides/tsar2")
    sync = tmp_path / ("sync-nolock" if no_lock else "sync-lock")
    sync.mkdir()
    shared = built.outdir / ("shared-nolock" if no_lock else "shared-lock")
    procs = []
    for me, path in (("a", built.path), ("b", other)):
        script = path / f"concurrent-{me}.py"
        script.write_text(CONCURRENT_DRIVER.format(
            root=str(path), sync=str(sync), me=me, other="b" if me == "a" else "a",
            no_lock=no_lock))
        procs.append(subprocess.Popen([sys.executable, str(script), "spec.yaml", "-o",
                                       str(shared), "-q"], cwd=path))
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    import json
    return set(json.loads((shared / ".portkit-manifest.json").read_text())["arches"])


def test_concurrent_generations_into_one_outdir(built, tmp_path):
    """Two arches generated into one output directory at the same time: the
    lock serializes them, so the manifest keeps both. The runs are made to
    overlap where it matters (between reading and writing the manifest),
    and the same race without the lock loses one arch: the check can fail."""
    assert two_concurrent_generations(built, tmp_path, no_lock=False) == {"tsar", "tsar2"}
    assert len(two_concurrent_generations(built, tmp_path, no_lock=True)) == 1
