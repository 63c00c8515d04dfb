"""BusyBox's own testsuite on TSAR next to stock MIPS.

What runs where. testsuite/runtest of the unpacked Debian source (BusyBox
1.35.0, build/src/busybox/testsuite) runs in two systems with the same root
file system layout (scripts/bbsuite.py), as userland/bbsuite/testsuite.sh:
`runtest -v` for one batch of applets, with BusyBox ash as /bin/sh:

* TSAR: the musl-built busybox of the default kernel's root file system,
  in tsar-emu (4 CPUs): an ext4 image of the root with /bbtest, booted with
  init=/bbtest/run; the output is read back from the image.
* stock MIPS: the same source with the same .config built static for
  stock MIPS with Debian's mipsel-linux-gnu-gcc and glibc (`make
  busybox-ref`, build/busybox-mipsel), under qemu-mipsel-static in a chroot
  in a private user, mount and PID namespace (binfmt_misc runs every mipsel
  ELF file there, #! scripts and busybox's re-exec included, with qemu).

Every batch is a system of its own (one boot, one chroot), so the host runs
two batches at a time (bbsuite.run_batches: tsar-emu and each qemu-user
process use one host thread; this machine has 2 cores).

1. In `make test`: SUBSET, a fixed batch of .tests files that exercise
   musl's formatting, parsing, regex, sorting, time and file code, runs on
   TSAR (one boot: 5.9 G guest instructions, 17 s wall here at load 1,
   1.8 min at load 7-10) and is compared with the reference's results for
   the same batch, recorded in bbsuite-subset.ref beside this file. When
   the reference BusyBox is built (build/busybox-mipsel) and
   qemu-mipsel-static is installed, the batch also runs under qemu-mipsel
   (75 s here at load 1, 3.4 min under load) and must give the recorded
   results (CI installs neither: the reference build takes about 10
   minutes).
2. Opt-in (`make test-busybox`, which sets PORTKIT_BBSUITE=1): the whole
   suite on both sides in BATCHES, then the PASS/FAIL lists are compared:
   every difference must be one of KNOWN and every test that fails on both
   sides one of BOTH, each with its verified reason (how it was verified
   after the reason). The table is printed (pytest -s).

Why it is slow (measured on this 2-core machine, loaded). bc.tests is real
work, 406-408 G guest instructions on TSAR (65 min wall at load 9-10, 19
min of host CPU; 22 min wall in the last end-to-end run, at load 2-4,
which took 24.5 min in all; 5-7 min under qemu-mipsel): its "parsing of numbers" and "printing
of numbers" tests pipe about 5.1 million lines through `bc | bc | md5sum`; on TSAR that is about 65,000
guest instructions per line in bc alone (Debian's x86-64 busybox: about
35,000 per line, valgrind), a third of them in musl's mallocng, plus about
4,800 kernel instructions per pipe syscall; nothing spins (guestprof: user
code in bc's number routines and malloc/free, the kernel in pipe_read,
pipe_write and the scheduler). Under qemu-mipsel the cost is processes:
md5sum.tests and the sha*sum.tests start 3,000 processes each (a pipeline
of echo | head | sum per text length), and every fork of a qemu-user
process costs about 20 ms here, most of it in copy-on-write faults whose
TLB flushes this virtual machine's host makes expensive (perf).
"""
import collections
import os
import pathlib
import re
import sys

import pytest

from guest import EMU, guest_kernel
from kbuild import ROOT, run

pytestmark = pytest.mark.kernel

sys.path.insert(0, str(ROOT / "scripts"))
import bbsuite  # noqa: E402

SRC = ROOT / "build" / "src" / "busybox"
REF = ROOT / "build" / "busybox-mipsel"
JOB = ROOT / "userland" / "bbsuite" / "testsuite.sh"
SUBSET_REF = pathlib.Path(__file__).with_name("bbsuite-subset.ref")
FULL = os.environ.get("PORTKIT_BBSUITE") == "1"

# The make-test batch (applets, in runtest's order whatever the order here).
SUBSET = ["awk", "cp", "cut", "date", "expand", "fold", "grep", "ls", "od", "printf", "sed",
          "seq", "sort", "tar", "tr", "uniq", "xargs"]

# The whole suite in batches, the same on both sides: the two long ones
# alone, then the rest. Expected wall seconds per side (this machine,
# loaded) order the jobs, longest first, and give each its time limit.
SUMS = ["md5sum", "sha1sum", "sha256sum", "sha3sum", "sha512sum"]
BATCHES = [
    # name, applets, (TSAR s, stock s)
    ("bc", ["bc"], (3900, 450)),
    ("sums", SUMS, (120, 770)),
    ("rest", ["-", "bc", *SUMS], (480, 800)),
]

# Differences between the two runs, each verified (how: after the reason).
# test name -> (side that fails, reason)
MKNOD = ("stock", "the reference runs as root of an unprivileged user namespace, where "
         "mknod of a device node is EPERM; TSAR runs as real root (verified: each fails "
         "with \"mdev: can't create '<node>': Operation not permitted\" in the "
         "reference's output, and passes on TSAR)")
KNOWN = {
    "date-timezone": ("TSAR", "musl 1.2.3's strptime has no %z (src/time/strptime.c has "
                      "no case for it), so BusyBox's date -d formats with a zone never "
                      "match; glibc's strptime takes +hhmm and Z (verified on TSAR: date -d "
                      "'1999-1-2 3:4:5 +0600' and '... 3:4:5Z' say invalid date, "
                      "'1999-1-2 3:4:5' without the zone parses)"),
    **{name: MKNOD for name in (
        "mdev #maj,min and no explicit uid", "mdev $ENVVAR=regex match",
        "mdev add /block/sda", "mdev command", "mdev does not stop on dash-rule",
        "mdev move and command", "mdev move rule '=bar/baz/fname'",
        "mdev move/symlink rule '>bar/'", "mdev move/symlink rule '>bar/baz'",
        "mdev regexp substring match + replace", "mdev stops on first rule",
        "move rule does not delete node with name == device_name")},
}

# Tests that fail on both sides: test name -> reason (how verified).
KNOWN_BUG = ("a known BusyBox 1.35 bug: the .tests file runs it only when SKIP_KNOWN_BUGS "
             "is empty (verified: the same diff on both sides)")
NO_NET = ("needs the network (verified: wget: bad address 'www.google.com' on both sides; "
          "neither system has a network or DNS)")
BOTH = {
    "cpio lists hardlinks": KNOWN_BUG,
    "sed embedded NUL": KNOWN_BUG,
    "sed NUL in command": KNOWN_BUG,
    "sed nonexistent label": KNOWN_BUG,
    "hostname-d-works": ("hostname -f must resolve the host name: no DNS and no /etc/hosts "
                         "entry on either side (verified: hostname: ...: Non-recoverable "
                         "error on TSAR, Host name lookup failure on stock MIPS)"),
    "start-stop-daemon with both -x and -a": (
        "-a qwerty runs /bin/false with argv[0] qwerty, and /bin/false is a link to "
        "BusyBox here, which then has no applet of that name (verified: 'qwerty: applet "
        "not found', status 127, on both sides)"),
    "unzip (subdir only)": ("the test makes its archive with zip, which neither root "
                            "file system has (verified: 'zip: not found' on both sides)"),
    "wget--O-overrides--P": NO_NET,
    "wget-handles-empty-path": NO_NET,
    "wget-retrieves-google-index": NO_NET,
    "wget-supports--P": NO_NET,
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
        self.testsuite, self.job, self.applets = SRC / "testsuite", JOB, None
        self.bootargs, self.append, self.disk_size, self.timeout = "", "", "64M", 1800
        self.__dict__.update(kw)


def tsar_args():
    k = guest_kernel("tsar")
    args = Args(emu=EMU, dtb=k.dtb, vmlinux=k.vmlinux, busybox=k.out / "busybox" / "busybox",
                config=k.out / "busybox" / ".config", bootargs=k.console)
    args.lists = ",".join(map(str, [k.out / "userland" / "initramfs.list",
                                    k.out / "rootfs.list"]))
    return args


def reference_available():
    return (REF / "busybox").exists() and pathlib.Path(bbsuite.QEMU).exists()


def table(tsar, ref):
    """Lines of the comparison: every test whose result differs, and every
    test that fails on both, with the known reason if there is one."""
    lines = []
    for name in sorted(set(tsar) | set(ref)):
        t, r = tsar.get(name, "-"), ref.get(name, "-")
        if t == r and t != "FAIL":
            continue
        if t == r:
            what, reason = "both fail", BOTH.get(name, "")
        else:
            what = {"FAIL": "TSAR only"}.get(t) or {"FAIL": "stock only"}.get(r) or "differs"
            reason = KNOWN.get(name, ("", ""))[1]
        lines.append(f"{what:10} TSAR {t:8} stock {r:8} {name}"
                     + (f"\n{'':10} reason: {reason}" if reason else ""))
    return lines


def unexplained(tsar, ref):
    """(differences without a KNOWN reason, common failures without a BOTH
    reason, TSAR-only failures among the first)"""
    names = set(tsar) | set(ref)
    diff = sorted(n for n in names if tsar.get(n) != ref.get(n)
                  and "FAIL" in (tsar.get(n), ref.get(n)) and n not in KNOWN)
    both = sorted(n for n in names if tsar.get(n) == ref.get(n) == "FAIL" and n not in BOTH)
    return diff, both, [n for n in diff if tsar.get(n) == "FAIL"]


def check(tsar, ref):
    """The comparison's assertions."""
    lines = table(tsar, ref)
    print("\nBusyBox testsuite, TSAR (musl) vs stock MIPS (glibc, qemu-mipsel):")
    print("\n".join(lines) or "no difference, no common failure")
    diff, both, tsar_only = unexplained(tsar, ref)
    assert not tsar_only, ("TSAR-only failures without a known reason: "
                           f"{tsar_only}\n" + "\n".join(lines))
    assert not diff, f"differences without a known reason: {diff}\n" + "\n".join(lines)
    assert not both, f"common failures without a reason: {both}\n" + "\n".join(lines)


# -- 1. the make-test batch --------------------------------------------------

def recorded_subset():
    out = SUBSET_REF.read_text()
    return results(out)


@pytest.fixture(scope="module")
def subset_tsar(tmp_path_factory):
    args = tsar_args()
    args.applets, args.timeout = SUBSET, 600
    out, info = bbsuite.run_tsar(args, tmp_path_factory.mktemp("bbsuite-subset"))
    print(f"\nBusyBox testsuite subset on TSAR: {info['wall']:.0f} s wall, "
          f"{info['instructions']} guest instructions")
    return results(out)


def test_subset_recorded_reference_is_the_batch():
    ref = recorded_subset()
    assert len(ref) > 150 and "PASS" in ref.values()
    assert f"# applets: {' '.join(SUBSET)}" in SUBSET_REF.read_text()


def test_subset_compared_with_stock_mips(subset_tsar):
    ref = recorded_subset()
    assert set(subset_tsar) == set(ref), sorted(set(subset_tsar) ^ set(ref))
    check(subset_tsar, ref)


@pytest.mark.skipif(not reference_available(), reason="reference BusyBox not built "
                    "(make busybox-ref) or qemu-mipsel-static not installed")
def test_subset_reference_matches_its_record(tmp_path):
    args = Args(busybox_build=REF, applets=SUBSET, timeout=900)
    out, info = bbsuite.run_ref(args, tmp_path)
    print(f"\nBusyBox testsuite subset under qemu-mipsel: {info['wall']:.0f} s wall")
    assert results(out) == recorded_subset()


# -- 2. the whole suite (opt-in) ---------------------------------------------

full = pytest.mark.skipif(not FULL, reason="BusyBox testsuite comparison: opt-in "
                          "(make test-busybox), too slow for make test")


@pytest.fixture(scope="module")
def full_runs(tmp_path_factory):
    run(["make", "--no-print-directory", "busybox-ref"], timeout=3600, nice=True)
    tsar, ref = tsar_args(), Args(busybox_build=REF)
    jobs = []
    for name, applets, (t_tsar, t_ref) in BATCHES:
        jobs.append(((t_tsar, "tsar", name), "tsar",
                     bbsuite.batch_args(tsar, applets, timeout=2 * t_tsar + 300)))
        jobs.append(((t_ref, "ref", name), "ref",
                     bbsuite.batch_args(ref, applets, timeout=2 * t_ref + 300)))
    jobs.sort(key=lambda j: -j[0][0])
    done = bbsuite.run_batches(jobs, tmp_path_factory.mktemp("bbsuite-full"))
    runs = {}
    print("\nBusyBox testsuite batches (start and wall s on this host):")
    for side in ("tsar", "ref"):
        outs = []
        for name, _, _ in BATCHES:
            key = next(k for k in done if k[1:] == (side, name))
            out, info = done[key]
            insns = info.get("instructions")
            print(f"  {side:4} {name:5} start {info['start']:6.0f} wall {info['wall']:6.0f}"
                  + (f"  {insns / 1e9:.1f} G guest instructions" if insns else ""))
            if out is None:
                pytest.fail(f"{side} batch {name} failed: {info['error']}")
            outs.append(out)
        runs[side] = "\n".join(outs)
    return runs


@full
def test_both_runs_completed(full_runs):
    tsar, ref = results(full_runs["tsar"]), results(full_runs["ref"])
    # the whole suite ran on both sides: hundreds of results, the same tests
    assert len(tsar) > 800 and len(ref) > 800, (len(tsar), len(ref))
    assert set(tsar) == set(ref), sorted(set(tsar) ^ set(ref))
    counts = collections.Counter(tsar.values()), collections.Counter(ref.values())
    print(f"\nTSAR:  {dict(counts[0])}\nstock: {dict(counts[1])}")
    assert counts[0]["PASS"] > 800


@full
def test_same_configuration_on_both_sides():
    k = guest_kernel("tsar")
    run(["make", "--no-print-directory", "busybox-ref"], timeout=3600, nice=True)

    def options(path):
        return [ln for ln in path.read_text().splitlines() if not ln.startswith("# Automatically")
                and not re.match(r"# .*20\d\d", ln)]
    assert options(k.out / "busybox" / ".config") == options(REF / ".config")


@full
def test_every_difference_is_explained(full_runs):
    check(results(full_runs["tsar"]), results(full_runs["ref"]))


@full
def test_known_reasons_are_still_needed(full_runs):
    # a reason for a difference or a common failure that no longer happens is stale
    tsar, ref = results(full_runs["tsar"]), results(full_runs["ref"])
    stale = [n for n, (side, _) in KNOWN.items()
             if not (tsar.get(n) == "FAIL" if side == "TSAR" else ref.get(n) == "FAIL")
             or tsar.get(n) == ref.get(n)]
    stale += [n for n in BOTH if not tsar.get(n) == ref.get(n) == "FAIL"]
    assert not stale, stale


def test_batches_cover_the_suite_once():
    # every applet with tests is in exactly one batch: the named ones once,
    # the last batch all but those
    named = [a for _, applets, _ in BATCHES[:-1] for a in applets]
    assert len(named) == len(set(named))
    assert BATCHES[-1][1] == ["-", *named]
    if SRC.exists():
        assert all((SRC / "testsuite" / f"{a}.tests").exists() for a in named)
