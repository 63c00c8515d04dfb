"""Differential tests: tsar-emu against QEMU (qemu-mipsel -cpu 24Kc) as the
oracle for MIPS32 user-level instruction semantics.

The same generated sequences (emulator/diff) run as a static Linux ELF under
qemu-mipsel and as bare-metal ELFs under tsar-emu in three variants (kernel
mode MMU off, kernel mode MMU on, user mode MMU on), each also run through
libtsaremu in random slices or single-stepped around random breakpoints.  All 31 GPRs, HI, LO and
a 64-byte data region must match exactly after every sequence.  A Python
model of the ISA is a third opinion (it must agree with QEMU too).
On failure the message names the seed, the sequence, the first differing
register/word and a standalone reproducer .S under build/emulator/diff/.
One test also mixes in deliberately trapping instructions: both platforms log
each exception (class and EPC) in the state record and resume after it.
"""
import os
import time

import pytest

import diff_support as ds

pytestmark = pytest.mark.skipif(
    not (ds.have("qemu-mipsel") and ds.have("mipsel-linux-gnu-gcc")),
    reason="needs qemu-mipsel and mipsel-linux-gnu-gcc")

import gen  # noqa: E402  (emulator/diff, put on sys.path by diff_support)
import rundiff  # noqa: E402

SEED = int(os.environ.get("DIFF_SEED", "20240601"))
BATCHES = int(os.environ.get("DIFF_BATCHES", "4"))
SEQS = int(os.environ.get("DIFF_SEQS", "300"))
INSNS = int(os.environ.get("DIFF_INSNS", "250"))
VARIANTS = list(rundiff.VARIANTS)


@pytest.fixture(scope="module")
def tsar_emu():
    path = ds.build_emulator()
    rundiff.TSAR_EMU = str(path)
    rundiff.TSAR_LIB = str(ds.BUILD / "emulator" / "libtsaremu.a")
    return path


def _fail(reports):
    return "%d mismatches; first ones:\n%s" % (len(reports), "\n".join(reports[:10]))


def test_model_agrees_with_qemu_on_random_code():
    """The generator's model must predict QEMU exactly (no emulator involved):
    otherwise the generated code may hit UNPREDICTABLE or trapping cases."""
    seqs = rundiff.gen_batch(SEED + 1000, 150, 200)
    reports, stats = rundiff.run_batch(seqs, "model-check", SEED + 1000, [], use_tsar=False)
    assert stats["insns"] >= 150 * 200
    assert not reports, _fail(reports)


def test_comparator_reports_first_difference(tmp_path, monkeypatch):
    """A doctored tsar-emu result must be reported with the field name, the
    seed and a reproducer file, so a real mismatch cannot go unnoticed."""
    monkeypatch.setattr(rundiff, "BUILD", str(tmp_path))
    seqs = rundiff.gen_batch(7, 3, 40)
    good = [s.expected() for s in seqs]
    bad = [list(r) for r in good]
    bad[1][gen.FIELD_NAMES.index("lo")] ^= 0x100
    reports = rundiff.compare(seqs, {"qemu": good, "kphys": bad}, "t", 7)
    assert len(reports) == 1
    assert "seq 1" in reports[0] and "differs at lo" in reports[0] and "seed 7" in reports[0]
    repro = reports[0].split("reproducer: ")[1].strip()
    assert os.path.exists(repro)
    text = open(repro).read()
    assert "seq_start" in text and "S1:" in text and "S0:" not in text


def test_directed_sequences(tsar_emu):
    """Hand-written edge cases for every instruction class, all variants."""
    reports, stats = rundiff.run_directed(VARIANTS)
    assert stats["seqs"] >= 10 and stats["insns"] > 3000
    assert not reports, _fail(reports)


def test_random_sequences(tsar_emu):
    """A few hundred thousand random instructions, fixed seed, zero mismatches."""
    t = time.time()
    reports, stats = rundiff.run_random(SEED, BATCHES, SEQS, INSNS, VARIANTS)
    n = sum(s["insns"] for s in stats)
    print("random diff: seed %d, %d sequences, %d instructions x %d variants, %.1f s"
          % (SEED, sum(s["seqs"] for s in stats), n, len(VARIANTS), time.time() - t))
    assert n >= BATCHES * SEQS * INSNS
    assert not reports, _fail(reports)


def test_random_sequences_with_exceptions(tsar_emu):
    """Random code with deliberately trapping instructions (add/sub/addi
    overflow, taken conditional traps, break, unaligned loads/stores): both
    platforms log (class, EPC) of every exception and resume at EPC + 4; the
    logs must match exactly, as must all registers and memory."""
    reports, stats = rundiff.run_random(SEED + 77, 2, 250, 250, VARIANTS, exc=0.03)
    n = sum(s["insns"] for s in stats)
    assert n >= 2 * 250 * 250
    assert not reports, _fail(reports)
