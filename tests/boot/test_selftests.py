"""The kernel tree's own selftests (tools/testing/selftests) in the guest.

userland/selftests.mk builds the ones that fit a nolibc userland (with the
compat layer userland/kselftest-compat/) as /bin/kst-<name>; one boot runs
them all and this file parses their kselftest output: TAP lines
("ok N ...", "not ok N ...", "# SKIP"), the "# Totals:" line, or the
program's own verdict. userland/SELFTESTS.md lists the selftests tried
that cannot build against nolibc yet. On each kernel series the programs
are that series' selftests: 6.12's posix_timers starts threads and is built
with musl (userland/musl-tests/), and several print TAP where 6.1's print
"[OK]" lines (SERIES_SELFTESTS).
"""
import re

import pytest

from guest import guest_kernel, program_status
from kbuild import SERIES_KEYS

# name -> (expected TAP plan or None, minimum number of passes, tests that
# may be skipped, with the reason the kernel gives on every arch)
SELFTESTS = {
    "peeksiginfo": (None, 0, set()),
    "get_syscall_info": (1, 1, set()),
    "futex_wait_wouldblock": (2, 2, set()),
    "posix_timers": (None, 0, set()),
    # clock_nanosleep refuses CPU-time, RAW, COARSE and ALARM clocks
    # (the last without an RTC wake alarm) on every arch.
    "nanosleep": (12, 4, {"CLOCK_PROCESS_CPUTIME_ID", "CLOCK_THREAD_CPUTIME_ID",
                          "CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME_COARSE",
                          "CLOCK_MONOTONIC_COARSE", "CLOCK_REALTIME_ALARM",
                          "CLOCK_BOOTTIME_ALARM", "UNKNOWN_CLOCKID"}),
    "nsleep-lat": (None, 0, set()),
    "set-timer-lat": (None, 0, set()),
    # 5 tests; the 3 other than these fail for the environment (below).
    "mincore": (5, 2, set()),
    "map_fixed_noreplace": (None, 0, set()),
    "proc-self-map-files-001": (None, 0, set()),
    "proc-self-map-files-002": (None, 0, set()),
    "proc-self-wchan": (None, 0, set()),
    "clone3_clear_sighand": (1, 1, set()),
    # 13 planned; the 3 SYNC_CORE ones run because the family layer selects
    # ARCH_HAS_MEMBARRIER_SYNC_CORE (stock MIPS does not).
    "membarrier": (13, 13, set()),
    # sigaltstack with SS_AUTODISARM and swapcontext out of the handler.
    "sas": (3, 3, set()),
}

# What a series' selftest expects where it differs from 6.1's (above).
SERIES_SELFTESTS = {
    "6.12": {
        # 18 TAP tests (threads, SIGEV_THREAD_ID, overruns), built with musl.
        "posix_timers": (18, 15, set()),
        "nsleep-lat": (9, 4, {"CLOCK_MONOTONIC_RAW", "CLOCK_REALTIME_COARSE",
                              "CLOCK_MONOTONIC_COARSE", "CLOCK_REALTIME_ALARM",
                              "CLOCK_BOOTTIME_ALARM"}),
        "map_fixed_noreplace": (9, 9, set()),
        # 18 planned: MEMBARRIER_CMD_GET_REGISTRATIONS (6.6) added five.
        "membarrier": (18, 18, set()),
        # 6.12's check_huge_pages skips where 6.1's fails (below).
        "mincore": (5, 2, {"No huge pages available or CONFIG_HUGETLB_PAGE disabled."}),
    },
}


def expected(series, name):
    return SERIES_SELFTESTS.get(series, {}).get(name, SELFTESTS[name])


# Subtests that fail in this userland for reasons that are not the
# kernel's (documented in userland/SELFTESTS.md): name -> {subtest}.
ENVIRONMENT_FAILURES = {
    "mincore": {
        "global.check_huge_pages",   # no HUGETLBFS: mmap gives EINVAL, test only skips ENOMEM
        "global.check_file_mmap",    # O_TMPFILE on the initramfs root: no read-ahead there
        "global.check_tmpfs_mmap",   # no /dev/shm in this userland
    },
}

# Programs that print "[OK]"/"[FAIL]" per check instead of TAP, per series.
OK_FAIL_LINES = {
    "6.1": {"nsleep-lat": 4, "set-timer-lat": 40, "posix_timers": 5},
    "6.12": {"set-timer-lat": 40},
}

# Subtests of a series' tree that its own kernel fails on every arch:
# (series, name) -> {subtest}. 6.12's posix_timers checks the signal rules
# of the later posix-timer rework (a signal of a reprogrammed, deleted or
# ignored timer is dropped, the overruns of an ignored one counted), which
# 6.12's kernel/signal.c does not have (no ignored_posix_timers, no signal
# sequence in the timer); the same binary fails them on 6.1's kernel too.
SERIES_KERNEL_FAILURES = {
    ("6.12", "posix_timers"): {"check_sig_ign SIGEV_SIGNAL", "check_rearm", "check_delete"},
}

# Known arch bugs: (series, name) -> reason (xfail strict, so a fix flips them).
XFAIL = {}

TAP = re.compile(r"^(not ok|ok) (\d+) ?(.*?)(?:\s*#\s*(SKIP|TODO|XFAIL)\b\s*(.*?))?\s*$")
TOTALS = re.compile(r"^# Totals: pass:(\d+) fail:(\d+) xfail:(\d+) xpass:(\d+) "
                    r"skip:(\d+) error:(\d+)$", re.M)


def program_output(out, name):
    """The console lines between the previous program's status line (or the
    smoke checks) and this program's status line."""
    end = re.search(rf"^portkit-run: {re.escape(name)} (exited|killed)", out, re.M)
    assert end, f"{name} did not run"
    start = max(out.rfind("\nportkit-run: ", 0, end.start()),
                out.rfind("\ncheck ", 0, end.start()))
    return out[start:end.start()].split("\n", 2)[-1] if start >= 0 else out[:end.start()]


def parse_tap(text):
    """(plan, [(ok, num, name, directive, reason)], totals dict or None)."""
    plan, results = None, []
    for line in text.split("\n"):
        m = re.match(r"^1\.\.(\d+)$", line)
        if m:
            plan = int(m.group(1))
            continue
        m = TAP.match(line)
        if m:
            results.append((m.group(1) == "ok", int(m.group(2)), m.group(3).strip(),
                            m.group(4) or "", (m.group(5) or "").strip()))
    m = TOTALS.search(text)
    totals = m and dict(zip(("pass", "fail", "xfail", "xpass", "skip", "error"),
                            map(int, m.groups())))
    return plan, results, totals


@pytest.fixture(scope="module", params=SERIES_KEYS)
def series_boot(request):
    """(kernel series, console output) of the boot that runs them all."""
    k = guest_kernel(request.param)
    rc, out, err = k.run_programs(*(f"kst-{n}" for n in SELFTESTS), timeout=300)
    return k.spec["arch"]["kernel_series"], out


@pytest.fixture(scope="module")
def selftests_boot(series_boot):
    return series_boot[1]


@pytest.mark.parametrize("name", list(SELFTESTS))
def test_selftest(request, series_boot, name):
    series, out = series_boot
    if (series, name) in XFAIL:
        request.applymarker(pytest.mark.xfail(reason=XFAIL[series, name], strict=True))
    prog = f"kst-{name}"
    text = program_output(out, prog)
    status = program_status(out, prog)
    plan, results, totals = parse_tap(text)
    want_plan, min_pass, may_skip = expected(series, name)

    env = ENVIRONMENT_FAILURES.get(name, set()) | SERIES_KERNEL_FAILURES.get((series, name), set())
    failed = [r for r in results if not r[0]]
    unexpected = [r for r in failed if r[2] not in env]
    assert not unexpected, f"{prog}: failing tests {unexpected}\n{text}"
    if totals:
        assert totals["fail"] == len(failed) and totals["error"] == 0, text
        assert totals["pass"] >= min_pass, text
    if want_plan is not None:
        assert plan >= len(results), text
        assert [r[1] for r in results] == list(range(1, len(results) + 1)), text
        passed = [r for r in results if r[0] and r[3] != "SKIP"]
        assert len(passed) >= min_pass, text
        skipped = {r[4] or r[2] for r in results if r[3] == "SKIP"}
        assert skipped <= may_skip, f"unexpected skips {skipped - may_skip}"
    ok_fail = OK_FAIL_LINES[series]
    if name in ok_fail:
        verdicts = re.findall(r"\[(OK|FAIL)\]\s*$", text, re.M)
        assert "FAIL" not in verdicts, text
        assert len(verdicts) >= ok_fail[name], text
    # kselftest programs exit 1 when any subtest failed.
    assert status == ("exited", 1 if failed else 0), f"{prog}: {status}\n{text}"


def test_peeksiginfo_verdict(selftests_boot):
    """peeksiginfo prints PASS, nothing TAP-like."""
    text = program_output(selftests_boot, "kst-peeksiginfo")
    assert re.search(r"^PASS$", text, re.M), text


def test_map_fixed_noreplace_verdict(series_boot):
    """6.1's prints OK; 6.12's prints TAP, all 9 passing."""
    series, out = series_boot
    text = program_output(out, "kst-map_fixed_noreplace")
    if series == "6.1":
        assert re.search(r"^OK$", text, re.M), text
    else:
        totals = parse_tap(text)[2]
        assert totals and totals["pass"] == 9 and totals["fail"] == 0, text


def test_parser_sees_failures():
    plan, results, totals = parse_tap(
        "TAP version 13\n1..3\nok 1 a\nnot ok 2 b\nok 3 # SKIP c\n"
        "# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0\n")
    assert plan == 3
    assert [r[0] for r in results] == [True, False, True]
    assert results[2][3] == "SKIP" and results[2][4] == "c"
    assert totals["fail"] == 1
