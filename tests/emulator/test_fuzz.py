"""libFuzzer smoke runs of the emulator library (emulator/fuzz).

Builds the three targets (instruction decoder/executor, ELF loader, DTB
platform loader) with clang-14 + ASan/UBSan and runs each for a short, fixed
time on a scratch copy of its generated seed corpus.  Any crash, sanitizer
report, leak or timeout fails the test.
"""
import base64
import os
import re
import shutil
import subprocess

import pytest

import diff_support as ds

FUZZ_TIME = int(os.environ.get("FUZZ_TIME", "15"))
OUT = ds.BUILD / "emulator" / "fuzz"

pytestmark = pytest.mark.skipif(
    not (ds.have("clang-14") and ds.have("mipsel-linux-gnu-gcc") and ds.have("dtc")),
    reason="needs clang-14, mipsel-linux-gnu-gcc and dtc")


@pytest.fixture(scope="module")
def fuzz_build():
    r = subprocess.run(["make", "-C", str(ds.ROOT / "emulator" / "fuzz"), "-j2",
                        "BUILD=%s" % ds.BUILD], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=900)
    assert r.returncode == 0, "fuzz build failed:\n" + r.stdout.decode()[-4000:]
    return OUT


@pytest.mark.parametrize("target", ["exec", "elf", "dtb"])
def test_fuzz_target(fuzz_build, target):
    seeds = fuzz_build / "seeds" / target
    assert seeds.is_dir() and len(list(seeds.iterdir())) >= 3, "seed corpus missing"
    corpus = fuzz_build / "corpus" / target
    shutil.rmtree(corpus, ignore_errors=True)
    shutil.copytree(seeds, corpus)
    for old in fuzz_build.glob("crash-%s-*" % target):
        old.unlink()
    # A fixed seed: every run explores the same inputs first, so a failure
    # reproduces and CI does not turn red on a lucky new find.
    cmd = [str(fuzz_build / ("fuzz_" + target)), "-seed=1", "-max_total_time=%d" % FUZZ_TIME,
           "-timeout=10", "-rss_limit_mb=4096", "-print_final_stats=1",
           "-artifact_prefix=%s/crash-%s-" % (fuzz_build, target), str(corpus)]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=FUZZ_TIME + 120)
    out = r.stdout.decode(errors="replace")
    crashes = list(fuzz_build.glob("crash-%s-*" % target))
    assert r.returncode == 0 and not crashes, (
        "fuzz_%s failed (exit %d), artifacts %s:\n%s" % (target, r.returncode,
                                                          crashes, out[-6000:]))
    m = re.search(r"stat::number_of_executed_units:\s*(\d+)", out)
    assert m, out[-2000:]
    runs = int(m.group(1))
    print("fuzz_%s: %d executions in %d s" % (target, runs, FUZZ_TIME))
    assert runs >= 50, "fuzzer barely ran:\n" + out[-2000:]


# fuzz_exec inputs that once failed (FINDINGS.md), with the per-run budget
# at which each showed: (finding, budget, option byte + code, base64)
EXEC_REGRESSIONS = [
    # F6: interpreter and JIT differed on BD/EPC after a not-taken beql in
    # the slot of a not-taken beqz (the budget the fuzzer ran it with)
    ("F6", 3000, "dUAJBAUhIIEAACFUMwAAAAEAIBgAAAAAAQBAXAAAAAAS6c1QUP5/AABI4AMAAAAAAAAPjAAAAAlI4AMAAB"
                 "AAAGAIQABgiEAAaAAUITrl"),
    # F5: a run overran its budget at 47 instructions (the same stale state)
    ("F5", 47, "BwAAqFhYWFhYWFhYACNAKsHgDABwAAAABAAAAFhYWFhYNzc3Nzc3Nzc3Nzc3Nzc3OSE5OTk5OTk5Nzk5OTk5"
               "KRIAAAA5OTk5OTk5OVgAB0ABWA=="),
    # F7: `j .` with interrupts off stops with TEMU_STOP_SPIN at a host poll;
    # the harness took that for an impossible stop (a budget past the poll)
    ("F7", 250000, "DCFA"),
]


@pytest.mark.parametrize("finding,budget,data", EXEC_REGRESSIONS, ids=[r[0] for r in EXEC_REGRESSIONS])
def test_fuzz_exec_regressions(fuzz_build, tmp_path, finding, budget, data):
    """Inputs fuzz_exec once failed on pass now: both tiers agree and no run
    overruns its budget."""
    path = tmp_path / finding
    path.write_bytes(base64.b64decode(data))
    r = subprocess.run([str(fuzz_build / "fuzz_exec"), str(path)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120,
                       env=dict(os.environ, FUZZ_EXEC_BUDGET=str(budget)))
    out = r.stdout.decode(errors="replace")
    assert r.returncode == 0, out[-3000:]
    assert "Executed %s" % path in out, out[-3000:]


def test_pre_v16_dtb_is_rejected_cleanly(tmp_path):
    """Regression test for FINDINGS.md F1 (found by fuzz_dtb): tsar-emu -dtb
    with a version-15 blob must fail with a message, not crash in libfdt."""
    emu = ds.build_emulator()
    good = fuzz_seed("dtb/tsar_min")  # seeds/tsar_min.dts, with the spec's addresses
    blob = bytearray(good.read_bytes())
    blob[20:28] = (15).to_bytes(4, "big") + (2).to_bytes(4, "big")  # version, last_comp
    bad = tmp_path / "v15.dtb"
    bad.write_bytes(bytes(blob))
    elf = fuzz_elf_seed()
    r = subprocess.run([str(emu), "-dtb", str(bad), "-timeout", "5", str(elf)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert r.returncode > 0, "tsar-emu died with signal %d" % -r.returncode
    assert b"dtb" in r.stderr.lower() or b"device tree" in r.stderr.lower()


def fuzz_elf_seed():
    """A tiny valid guest ELF (built by the fuzz Makefile's seed rules)."""
    return fuzz_seed("elf/hello")


def fuzz_seed(name):
    """A seed the fuzz Makefile builds (seeds/<name>)."""
    out = OUT / "seeds" / name
    if not out.exists():
        subprocess.run(["make", "-C", str(ds.ROOT / "emulator" / "fuzz"),
                        "BUILD=%s" % ds.BUILD, str(out)], check=True, timeout=300,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return out
