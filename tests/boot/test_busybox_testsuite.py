"""BusyBox's own testsuite on TSAR next to stock MIPS (issue 10).

testsuite/runtest of the unpacked Debian source (BusyBox 1.35.0) runs on
TSAR in the emulator (the musl-built busybox of the root file system) and,
for the reference, the same source with the same .config built for stock
MIPS with Debian's mipsel-linux-gnu-gcc (static, glibc: `make busybox-ref`)
under qemu-mipsel, in the same root file system layout
(scripts/bbsuite.py). Each side runs once per session; the tests compare
the PASS/FAIL lists: every difference must be one of KNOWN below, each
with its verified reason, and no test may fail on TSAR alone without one.
The comparison table is printed (pytest -s, or in the failure message).

Not part of `make test` (opt-in: `make test-busybox`, which sets
PORTKIT_BBSUITE=1): on this 2-core machine under load, the reference run
under qemu-mipsel did not finish within 30 minutes (every process of the
suite is a new qemu-user instance; md5sum.tests alone starts 2,000 per
checksum applet) and the TSAR run hit its 1,500 s limit in bc.tests after
197 G guest instructions, far beyond CI's budget. KNOWN is still empty: no full pair of runs has been compared yet,
so every difference is reported as unexplained until one is verified.
"""
import os
import collections
import re
import sys

import pytest

from guest import EMU, guest_kernel
from kbuild import ROOT, run

pytestmark = [pytest.mark.kernel,
              pytest.mark.skipif(os.environ.get("PORTKIT_BBSUITE") != "1",
                                 reason="BusyBox testsuite comparison: opt-in "
                                 "(make test-busybox), too slow for make test")]

sys.path.insert(0, str(ROOT / "scripts"))
import bbsuite  # noqa: E402

SRC = ROOT / "build" / "src" / "busybox"
REF = ROOT / "build" / "busybox-mipsel"
JOB = ROOT / "userland" / "bbsuite" / "testsuite.sh"

# Differences between the two runs, each verified (how: after the reason).
# test name -> (side that fails, reason)
KNOWN = {
}


def results(out):
    """{test: 'PASS'|'FAIL'|'SKIPPED'|'UNTESTED'} from runtest's output; a
    name that occurs more than once gets '#2', '#3' ... appended."""
    seen, res = collections.Counter(), {}
    for m in re.finditer(r"^(PASS|FAIL|SKIPPED|UNTESTED): (.*?)\s*$", out, re.M):
        name = m.group(2)
        seen[name] += 1
        if seen[name] > 1:
            name = f"{name}#{seen[name]}"
        res[name] = m.group(1)
    return res


class Args:
    """What bbsuite's command line would give (one side's settings)."""

    def __init__(self, **kw):
        self.testsuite, self.job = SRC / "testsuite", JOB
        self.bootargs, self.append, self.disk_size, self.timeout = "", "", "64M", 1800
        self.__dict__.update(kw)


@pytest.fixture(scope="session")
def tsar_run(tmp_path_factory):
    k = guest_kernel("tsar")
    args = Args(emu=EMU, dtb=k.dtb, vmlinux=k.vmlinux, busybox=k.out / "busybox" / "busybox",
                config=k.out / "busybox" / ".config", bootargs=k.console)
    lists = [k.out / "userland" / "initramfs.list", k.out / "rootfs.list"]
    args.lists = ",".join(map(str, lists))
    out, info = bbsuite.run_tsar(args, tmp_path_factory.mktemp("bbsuite-tsar"))
    print(f"\nBusyBox testsuite on TSAR: {info['wall']:.0f} s wall, "
          f"{info['instructions']} guest instructions")
    return out, info


@pytest.fixture(scope="session")
def ref_run(tmp_path_factory):
    run(["make", "--no-print-directory", "busybox-ref"], timeout=3600, nice=True)
    args = Args(busybox_build=REF)
    out, info = bbsuite.run_ref(args, tmp_path_factory.mktemp("bbsuite-ref"))
    print(f"\nBusyBox testsuite under qemu-mipsel: {info['wall']:.0f} s wall")
    return out, info


def table(tsar, ref):
    """Lines of the comparison: every test whose result differs, and every
    test that fails on both, with the known reason if there is one."""
    lines = []
    for name in sorted(set(tsar) | set(ref)):
        t, r = tsar.get(name, "-"), ref.get(name, "-")
        if t == r and t != "FAIL":
            continue
        side, reason = KNOWN.get(name, ("", ""))
        if t == r:
            what = "both fail"
        elif t == "FAIL":
            what = "TSAR only"
        elif r == "FAIL":
            what = "stock only"
        else:
            what = "differs"
        lines.append(f"{what:10} TSAR {t:8} stock {r:8} {name}"
                     + (f"\n{'':10} reason: {reason}" if reason else ""))
    return lines


def test_both_runs_completed(tsar_run, ref_run):
    tsar, ref = results(tsar_run[0]), results(ref_run[0])
    # the whole suite ran on both sides: hundreds of results, the same tests
    assert len(tsar) > 300 and len(ref) > 300, (len(tsar), len(ref))
    assert set(tsar) == set(ref), sorted(set(tsar) ^ set(ref))
    counts = collections.Counter(tsar.values()), collections.Counter(ref.values())
    print(f"\nTSAR:  {dict(counts[0])}\nstock: {dict(counts[1])}")
    assert counts[0]["PASS"] > 300


def test_same_configuration_on_both_sides():
    k = guest_kernel("tsar")
    run(["make", "--no-print-directory", "busybox-ref"], timeout=3600, nice=True)

    def options(path):
        return [ln for ln in path.read_text().splitlines() if not ln.startswith("# Automatically")
                and not re.match(r"# .*20\d\d", ln)]
    assert options(k.out / "busybox" / ".config") == options(REF / ".config")


def test_every_difference_is_explained(tsar_run, ref_run):
    tsar, ref = results(tsar_run[0]), results(ref_run[0])
    lines = table(tsar, ref)
    print("\nBusyBox testsuite, TSAR (musl) vs stock MIPS (glibc, qemu-mipsel):")
    print("\n".join(lines) or "no difference, no common failure")
    unexplained = [n for n in set(tsar) | set(ref)
                   if tsar.get(n) != ref.get(n) and "FAIL" in (tsar.get(n), ref.get(n))
                   and n not in KNOWN]
    tsar_only = [n for n in unexplained if tsar.get(n) == "FAIL"]
    assert not tsar_only, ("TSAR-only failures without a known reason: "
                           f"{sorted(tsar_only)}\n" + "\n".join(lines))
    assert not unexplained, ("differences without a known reason: "
                             f"{sorted(unexplained)}\n" + "\n".join(lines))


def test_known_reasons_are_still_needed(tsar_run, ref_run):
    # a reason for a difference that no longer happens is stale
    tsar, ref = results(tsar_run[0]), results(ref_run[0])
    stale = [n for n, (side, _) in KNOWN.items()
             if not (tsar.get(n) == "FAIL" if side == "TSAR" else ref.get(n) == "FAIL")
             or tsar.get(n) == ref.get(n)]
    assert not stale, stale
