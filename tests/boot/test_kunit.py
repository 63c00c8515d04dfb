"""KUnit suites and the kernel's built-in self-tests, run at boot.

The debug variant (variants/debug.config) builds the suites that exercise
arch code (string and copy routines, bit operations, 64-bit atomics and
division, overflow helpers, ...) into the kernel; they run once during the
boot. This test boots it once, parses KUnit's KTAP output and the
non-KUnit self-tests' own success lines, and checks that every expected
suite ran (a suite that silently does not run fails) and that none failed.

The variant is the debug one (lockdep, SLUB debugging, ...), built from the
page-offset spec (tests/specs/tsar-page-offset.yaml): the debug, torture,
KUnit and page-offset tests share that one kernel build. STRING_SELFTEST
(3.9 G instructions of memset16/32/64 loops on a plain kernel) is a module
loaded in this boot only, so the other boots of the kernel do not pay for it.

Cost (measured, JIT, machine loaded): one boot of about 23 G guest
instructions on 4 CPUs, 55-70 s of emulator time.
"""
import re

import pytest

from guest import guest_kernel

# Every KUnit suite the variant builds in (KTAP top-level names).
KUNIT_SUITES = [
    "hash", "list_sort", "lib_sort", "bitfields", "list-kunit-test", "hlist",
    "bits-test", "cmdline", "memcpy", "is_signed_type", "overflow",
    # kprobes and kretprobes (the family's kernel/kprobes.c)
    "kprobes_test",
]

# The cases kprobes_test must run (6.1 builds its two stack-trace cases only
# with ARCH_CORRECT_STACKTRACE_ON_KRETPROBE, which the port does not claim).
KPROBES_CASES = ["test_kprobe", "test_kprobes", "test_kretprobe", "test_kretprobes"]

# Non-KUnit self-tests: (what, line printed on success, line on failure).
SELFTESTS = [
    ("TEST_HEXDUMP", r"test_hexdump: all \d+ tests passed", r"test_hexdump: failed"),
    ("TEST_MIN_HEAP", r"min_heap_test: test passed", r"min_heap_test: (error|test failed)"),
    # SLUB debugging (debug variant) turns pointer hashing off, so the two
    # plain %p tests are skipped: "skipped 2 tests", "remaining N tests passed".
    ("TEST_PRINTF", r"test_printf: (all|remaining) \d+ tests passed", r"test_printf: failed"),
    ("TEST_BITMAP", r"test_bitmap: all \d+ tests passed", r"test_bitmap: failed"),
    ("TEST_STRSCPY", r"test_strscpy: all \d+ tests passed", r"test_strscpy: failed"),
    ("TEST_DIV64", r"test_div64: Completed 64bit/32bit division and modulo test",
     r"test_div64: ERROR"),
    # Aligned and unaligned inputs (get_unaligned on a strict-alignment CPU).
    ("TEST_SIPHASH", r"test_siphash: self-tests: pass", r"test_siphash: .*FAIL"),
    # A failure is a BUG_ON, so the boot would not get further.
    ("ATOMIC64_SELFTEST", r"atomic64_test: passed", r"atomic64_test: .*(fail|BUG)"),
    # mark_rodata_ro(): rodata is read-only, its bounds page-aligned.
    ("DEBUG_RODATA_TEST", r"rodata_test: all tests were successful", r"rodata_test: "
     r"(?!all tests were successful)"),
    # Self-tests built as modules, loaded by /bin/kernel-selftest-modules.
    ("STRING_SELFTEST", r"String selftests succeeded", r"String selftest failure"),
    # test_user_copy: every failed check is a "[<line>] ..." warning.
    ("TEST_USER_COPY", r"test_user_copy: tests passed\.", r"test_user_copy: \[\d+\]"),
    ("TEST_BITOPS", r"test_bitops: Completed bitops test",
     r"test_bitops: (.* wrong for |ERROR)"),
]

# test_vmalloc's cases the guest program runs (run_test_mask=0x3b).
VMALLOC_TESTS = ["fix_size_alloc_test", "full_fit_alloc_test", "random_size_alloc_test",
                 "fix_align_alloc_test", "random_size_align_alloc_test"]

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ", re.M)
RESULT = re.compile(r"^( *)(not ok|ok) (\d+) ([^#]*?)\s*(?:#\s*(\w+)(.*))?$")
SUBTEST = re.compile(r"^( *)# Subtest: (.*)$")
PLAN = re.compile(r"^( *)1\.\.(\d+)$")


def parse_ktap(console):
    """KTAP results from the console log.

    Returns (plan, results): plan is the top-level "1..N" count; results is a
    list of dicts {depth, path, ok, directive, reason}, path being the test's
    name preceded by the names of the (sub)tests it is nested in."""
    text = TIMESTAMP.sub("", console)
    lines = text.split("\n")
    try:
        start = lines.index("KTAP version 1")
    except ValueError:
        return None, []
    plan, stack, results = None, [], []
    for line in lines[start + 1:]:
        m = PLAN.match(line)
        if m and len(m.group(1)) == 0 and plan is None:
            plan = int(m.group(2))
            continue
        m = SUBTEST.match(line)
        if m:
            depth = len(m.group(1)) // 4
            del stack[depth - 1:]
            stack.append(m.group(2).strip())
            continue
        m = RESULT.match(line)
        if m:
            depth = len(m.group(1)) // 4
            name = m.group(4).strip()
            results.append({
                "depth": depth,
                "num": int(m.group(3)),
                "path": tuple(stack[:depth]) + (name,),
                "ok": m.group(2) == "ok",
                "directive": (m.group(5) or "").upper(),
                "reason": (m.group(6) or "").strip(),
            })
            if depth == 0 and plan is not None and \
                    sum(r["depth"] == 0 for r in results) == plan:
                break
    return plan, results


@pytest.fixture(scope="module")
def kunit_boot():
    k = guest_kernel("tsar-page-offset", "debug")
    rc, out, err = k.boot("-v", "-append",
                          "console=ttyVTTY0 portkit_run=kernel-selftest-modules", timeout=600)
    return rc, out, err


def test_boot_completes(kunit_boot):
    rc, out, err = kunit_boot
    assert "Run /init as init process" in out, out[-3000:]
    assert re.search(r"^portkit-init: \d+ passed, 0 failed$", out, re.M), out[-3000:]
    assert rc == 0, err
    for bad in ("Oops", "Kernel panic", "kernel BUG", "WARNING:", "Unable to handle"):
        assert bad not in out, f"{bad!r} in the boot log"
    m = re.search(r"after (\d+) instructions in ([\d.]+) s", err)
    assert m, err
    print(f"kunit boot: {int(m.group(1)) / 1e9:.2f} G instructions, "
          f"{float(m.group(2)):.1f} s")


def test_ktap_parsed(kunit_boot):
    _, out, _ = kunit_boot
    plan, results = parse_ktap(out)
    top = [r for r in results if r["depth"] == 0]
    assert plan == len(KUNIT_SUITES), f"KTAP plan 1..{plan}"
    assert [r["num"] for r in top] == list(range(1, plan + 1))


@pytest.mark.parametrize("suite", KUNIT_SUITES)
def test_kunit_suite(kunit_boot, suite):
    _, out, _ = kunit_boot
    _, results = parse_ktap(out)
    top = {r["path"][0]: r for r in results if r["depth"] == 0}
    assert suite in top, f"KUnit suite {suite} did not run (ran: {sorted(top)})"
    cases = [r for r in results if r["depth"] >= 1 and r["path"][0] == suite]
    failed = [" / ".join(r["path"]) for r in cases if not r["ok"]]
    assert not failed, f"failing cases: {failed}"
    assert top[suite]["ok"], f"suite {suite} not ok"
    assert top[suite]["directive"] != "SKIP", f"suite {suite} skipped: {top[suite]['reason']}"
    assert cases, f"suite {suite} reported no test case"


@pytest.mark.parametrize("name,ok,bad", SELFTESTS, ids=[s[0] for s in SELFTESTS])
def test_selftest(kunit_boot, name, ok, bad):
    _, out, _ = kunit_boot
    text = TIMESTAMP.sub("", out)
    assert not re.search(bad, text, re.M), f"{name} reported a failure"
    assert re.search(rf"^{ok}", text, re.M), f"{name}: no {ok!r} line"


@pytest.mark.parametrize("module,load", [
    ("test_string", 0), ("test_user_copy", 0), ("test_bitops", 0),
    # test_vmalloc's init always fails with -EAGAIN once its tests ran.
    ("test_vmalloc", -11),
    # test_static_keys' init returns -EINVAL if a static branch (patched
    # text: kernel/jump_label.c) disagrees with its key's state; it uses
    # test_static_key_base's keys, which stays loaded until after it.
    ("test_static_keys", 0), ("test_static_key_base", 0),
])
def test_selftest_module_loaded(kunit_boot, module, load):
    _, out, _ = kunit_boot
    unload = 0 if load == 0 else -1
    assert f"kernel-selftest-modules: {module} load {load} unload {unload}" in out, \
        out[-3000:]


def test_static_keys_are_jump_labels():
    """test_static_keys checks static branches against their keys; with
    JUMP_LABEL off they would be plain loads of the key and pass anyway."""
    config = (guest_kernel("tsar-page-offset", "debug").out / ".config").read_text()
    assert "CONFIG_JUMP_LABEL=y" in config.splitlines()
    assert "CONFIG_TEST_STATIC_KEYS=m" in config.splitlines()


@pytest.mark.parametrize("case", VMALLOC_TESTS)
def test_vmalloc_selftest(kunit_boot, case):
    text = TIMESTAMP.sub("", kunit_boot[1])
    m = re.search(rf"^Summary: {case} passed: (\d+) failed: (\d+) repeat: 1 loops: 50 ",
                  text, re.M)
    assert m, f"no summary for {case}"
    assert (int(m.group(1)), int(m.group(2))) == (1, 0), m.group(0)


def test_parser_sees_failures():
    """The parser reports nested failures and skips (so a failure cannot
    slip through as a pass)."""
    log = "\n".join([
        "[    1.000000] KTAP version 1",
        "[    1.000000] 1..2",
        "[    1.000000]     KTAP version 1",
        "[    1.000000]     # Subtest: alpha",
        "[    1.000000]     1..2",
        "[    1.000000]     ok 1 first",
        "[    1.000000]     not ok 2 second",
        "[    1.000000] not ok 1 alpha",
        "[    1.000000]     # Subtest: beta",
        "[    1.000000]     1..1",
        "[    1.000000]     ok 1 only # SKIP no hardware",
        "[    1.000000] ok 2 beta # SKIP no hardware",
    ])
    plan, results = parse_ktap(log)
    assert plan == 2
    by_path = {r["path"]: r for r in results}
    assert by_path[("alpha", "second")]["ok"] is False
    assert by_path[("alpha",)]["ok"] is False
    assert by_path[("beta", "only")]["directive"] == "SKIP"
    assert by_path[("beta",)]["reason"] == "no hardware"


def test_kprobes_suite_runs_its_kretprobe_cases(kunit_boot):
    _, out, _ = kunit_boot
    _, results = parse_ktap(out)
    cases = {r["path"][1]: r for r in results
             if r["depth"] == 1 and r["path"][0] == "kprobes_test"}
    assert sorted(cases) == sorted(KPROBES_CASES), cases
    for name, r in cases.items():
        assert r["ok"] and r["directive"] != "SKIP", (name, r)
