"""Helpers shared by the emulator differential and fuzz tests."""
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("TSAR_BUILD") or os.environ.get("PORTKIT_BUILD") or ROOT / "build")
TSAR_EMU = BUILD / "bin" / "tsar-emu"
DIFF_DIR = ROOT / "emulator" / "diff"

if str(DIFF_DIR) not in sys.path:
    sys.path.insert(0, str(DIFF_DIR))


def have(tool):
    return shutil.which(tool) is not None


def build_emulator(timeout=900):
    """Build tsar-emu with the project's emulator Makefile; returns its path."""
    r = subprocess.run(["make", "-C", str(ROOT / "emulator"), "BUILD=%s" % BUILD],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    assert r.returncode == 0, "emulator build failed:\n" + r.stdout.decode()[-3000:]
    assert TSAR_EMU.exists(), "make did not produce %s" % TSAR_EMU
    return TSAR_EMU
