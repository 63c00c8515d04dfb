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
real_write, real_unlink = out._atomic_write, out.Path.unlink
def counting(target, data, mode):
    calls["n"] += 1
    if calls["n"] == {kill_at}:
        # die mid-write: a temporary is on disk, the target not yet replaced
        open(str(target.parent / ("." + target.name + ".x" + out.TMP_SUFFIX)), "wb").write(data[:10])
        os.kill(os.getpid(), signal.SIGKILL)
    return real_write(target, data, mode)
out._atomic_write = counting
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


def test_concurrent_generations_into_one_outdir(built):
    """Two arches generated into one output directory at the same time: the
    lock serializes them, so the manifest keeps both."""
    from gen_helpers import make_project
    other = make_project(built.path.parent / "other")
    other.edit("  name: tsar\n", "  name: tsar2\n")
    (other.path / "overrides/tsar").rename(other.path / "overrides/tsar2")
    import json
    for _ in range(3):
        procs = [subprocess.Popen([sys.executable, str(p.path / "generate.py"), "spec.yaml", "-o",
                                   str(built.outdir / "shared"), "-q"], cwd=p.path)
                 for p in (built, other)]
        assert [p.wait(timeout=60) for p in procs] == [0, 0]
        m = json.loads((built.outdir / "shared/.portkit-manifest.json").read_text())
        assert set(m["arches"]) == {"tsar", "tsar2"}
