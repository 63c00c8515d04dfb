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
With PORTKIT_SERIES_DEBUG=1 (make test-series-debug) the tests run on the
other series' debug kernel too; what differs between the series (self-tests that
became KUnit suites, new cases) is in the tables below, by
arch.kernel_series.

Cost (measured, JIT, machine loaded): one boot of about 23 G guest
instructions on 4 CPUs, 55-70 s of emulator time.
"""
import re

import pytest

from guest import by_series, guest_kernel
from kbuild import DEBUG_KEYS, debug_id

# Every KUnit suite the variant builds in (KTAP top-level names).
_BUILTIN_SUITES = [
    "hash", "list_sort", "lib_sort", "bitfields", "list-kunit-test", "hlist",
    "bits-test", "cmdline", "memcpy", "is_signed_type", "overflow",
    # kprobes and kretprobes (the family's kernel/kprobes.c)
    "kprobes_test",
]
KUNIT_SUITES = {
    "6.1": _BUILTIN_SUITES,
    # LIST_KUNIT_TEST has klist's cases too; TEST_SIPHASH became the
    # siphash suite.
    "6.12": _BUILTIN_SUITES + ["klist", "siphash"],
}
# KUnit suites in the modules /bin/kernel-selftest-modules loads, a KTAP
# document each: 6.12's string suite (STRING_SELFTEST with TEST_STRSCPY's
# cases) and usercopy (TEST_USER_COPY).
MODULE_SUITES = {"6.1": [], "6.12": ["string", "usercopy"]}

# The cases of the suites whose every case must run: kprobes_test's (6.1
# and 6.12 build the two stack-trace cases only with
# ARCH_CORRECT_STACKTRACE_ON_KRETPROBE, which the port does not claim), and
# on 6.12 those of the suites that took over 6.1's self-tests.
_KPROBES_CASES = ["test_kprobe", "test_kprobes", "test_kretprobe", "test_kretprobes"]
CASES = {
    "6.1": {"kprobes_test": _KPROBES_CASES},
    "6.12": {
        "kprobes_test": _KPROBES_CASES + ["test_kprobe_missed"],
        "siphash": ["siphash_test"],
        "string": ["string_test_memset16", "string_test_memset32", "string_test_memset64",
                   "string_test_strchr", "string_test_strnchr", "string_test_strspn",
                   "string_test_strcmp", "string_test_strcmp_long_strings",
                   "string_test_strncmp", "string_test_strncmp_long_strings",
                   "string_test_strcasecmp", "string_test_strcasecmp_long_strings",
                   "string_test_strncasecmp", "string_test_strncasecmp_long_strings",
                   "string_test_strscpy", "string_test_strcat", "string_test_strncat",
                   "string_test_strlcat", "string_test_strtomem", "string_test_memtostr"],
        "usercopy": ["usercopy_test_valid", "usercopy_test_invalid",
                     "usercopy_test_check_nonzero_user",
                     "usercopy_test_copy_struct_from_user"],
    },
}

# The cases KUnit marks slow, which the boots of 6.12's debug kernel skip
# (guest.VARIANT_PARAMS: kunit.filter=speed>slow). memmove_test, which 6.1
# runs in every boot, runs in a boot of its own (kunit.filter_glob); the
# others, new in 6.12, copy every size at every offset of a 1-2 KiB buffer
# with byte-wise compares: about 1000 s each at 25 MHz.
SKIPPED = {
    "6.1": {},
    "6.12": {"memcpy": ["memcpy_large_test", "memmove_test", "memmove_large_test",
                        "memmove_overlap_test"]},
}
RUN_ALONE = {"6.1": [], "6.12": ["memcpy.memmove_test"]}

# Non-KUnit self-tests: (what, line printed on success, line on failure).
_SELFTESTS = [
    ("TEST_HEXDUMP", r"test_hexdump: all \d+ tests passed", r"test_hexdump: failed"),
    ("TEST_MIN_HEAP", r"min_heap_test: test passed", r"min_heap_test: (error|test failed)"),
    # SLUB debugging (debug variant) turns pointer hashing off, so the two
    # plain %p tests are skipped: "skipped 2 tests", "remaining N tests passed".
    ("TEST_PRINTF", r"test_printf: (all|remaining) \d+ tests passed", r"test_printf: failed"),
    ("TEST_BITMAP", r"test_bitmap: all \d+ tests passed", r"test_bitmap: failed"),
    ("TEST_DIV64", r"test_div64: Completed 64bit/32bit division and modulo test",
     r"test_div64: ERROR"),
    # A failure is a BUG_ON, so the boot would not get further.
    ("ATOMIC64_SELFTEST", r"atomic64_test: passed", r"atomic64_test: .*(fail|BUG)"),
    # mark_rodata_ro(): rodata is read-only, its bounds page-aligned.
    ("DEBUG_RODATA_TEST", r"rodata_test: all tests were successful", r"rodata_test: "
     r"(?!all tests were successful)"),
    # A module, loaded by /bin/kernel-selftest-modules.
    ("TEST_BITOPS", r"test_bitops: Completed bitops test",
     r"test_bitops: (.* wrong for |ERROR)"),
]
SELFTESTS = {
    "6.1": _SELFTESTS + [
        ("TEST_STRSCPY", r"test_strscpy: all \d+ tests passed", r"test_strscpy: failed"),
        # Aligned and unaligned inputs (get_unaligned on a strict-alignment CPU).
        ("TEST_SIPHASH", r"test_siphash: self-tests: pass", r"test_siphash: .*FAIL"),
        # Modules, loaded by /bin/kernel-selftest-modules.
        ("STRING_SELFTEST", r"String selftests succeeded", r"String selftest failure"),
        # test_user_copy: every failed check is a "[<line>] ..." warning.
        ("TEST_USER_COPY", r"test_user_copy: tests passed\.", r"test_user_copy: \[\d+\]"),
    ],
    # The four are KUnit suites there (MODULE_SUITES, KUNIT_SUITES).
    "6.12": _SELFTESTS,
}

# What /bin/kernel-selftest-modules loads, and what each load returns.
_MODULES = [
    ("test_bitops", 0),
    # test_vmalloc's init always fails with -EAGAIN once its tests ran.
    ("test_vmalloc", -11),
    # test_static_keys' init returns -EINVAL if a static branch (patched
    # text: kernel/jump_label.c) disagrees with its key's state; it uses
    # test_static_key_base's keys, which stays loaded until after it.
    ("test_static_keys", 0), ("test_static_key_base", 0),
]
MODULES = {
    "6.1": [("test_string", 0), ("test_user_copy", 0)] + _MODULES,
    # A KUnit module's init returns 0 whatever its suite's results.
    "6.12": [("string_kunit", 0), ("usercopy_kunit", 0)] + _MODULES,
}

# test_vmalloc's cases the guest program runs (run_test_mask=0x3b).
VMALLOC_TESTS = ["fix_size_alloc_test", "full_fit_alloc_test", "random_size_alloc_test",
                 "fix_align_alloc_test", "random_size_align_alloc_test"]

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ", re.M)
RESULT = re.compile(r"^( *)(not ok|ok) (\d+) ([^#]*?)\s*(?:#\s*(\w+)(.*))?$")
SUBTEST = re.compile(r"^( *)# Subtest: (.*)$")
PLAN = re.compile(r"^( *)1\.\.(\d+)$")


def parse_ktap_documents(console):
    """Every KTAP document of the console log: the built-in suites' at
    boot, then one for each KUnit module loaded. A list of (plan,
    results): plan is the top-level "1..N" count; results is a list of
    dicts {depth, path, ok, directive, reason}, path being the test's
    name preceded by the names of the (sub)tests it is nested in."""
    lines = TIMESTAMP.sub("", console).split("\n")
    starts = [i for i, line in enumerate(lines) if line == "KTAP version 1"]
    return [_parse_ktap(lines[a + 1:b]) for a, b in zip(starts, starts[1:] + [len(lines)])]


def parse_ktap(console):
    """(plan, results) of the console log's first KTAP document."""
    documents = parse_ktap_documents(console)
    return documents[0] if documents else (None, [])


def _parse_ktap(lines):
    plan, stack, results = None, [], []
    for line in lines:
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


@pytest.fixture(scope="module", params=DEBUG_KEYS, ids=debug_id)
def kernel(request):
    return guest_kernel(request.param, "debug")


@pytest.fixture(scope="module")
def kunit_boot(kernel):
    return kernel.once("kunit", lambda: kernel.boot(
        "-v", "-append", kernel.cmdline("portkit_run=kernel-selftest-modules"), timeout=600))


def series_params(argnames, table):
    """Parametrize a test by the kernel (indirect) and each entry of its
    series in one of the tables above: what differs between the series."""
    return pytest.mark.parametrize(f"kernel,{argnames}", by_series(table, DEBUG_KEYS, "debug"),
                                   indirect=["kernel"], scope="module")


def run_alone(kernel, case):
    """(plan, results) of the one KUnit case "suite.case" run in a boot of
    its own: no other suite, no kunit.filter."""
    rc, out, err = kernel.once(f"kunit:{case}", lambda: kernel.boot(
        "-append", f"{kernel.console} kunit.filter_glob={case}", timeout=600))
    assert rc == 0, err
    return parse_ktap(out)


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


def test_ktap_parsed(kernel, kunit_boot):
    _, out, _ = kunit_boot
    documents = parse_ktap_documents(out)
    assert documents, out[-3000:]
    plan, results = documents[0]
    top = [r for r in results if r["depth"] == 0]
    assert plan == len(KUNIT_SUITES[kernel.series]), f"KTAP plan 1..{plan}"
    assert [r["num"] for r in top] == list(range(1, plan + 1))
    # then one document of one suite for each KUnit module
    modules = [[r["path"][0] for r in results if r["depth"] == 0]
               for plan, results in documents[1:] if plan]
    assert modules == [[s] for s in MODULE_SUITES[kernel.series]], modules



@series_params("suite", {s: KUNIT_SUITES[s] + MODULE_SUITES[s] for s in KUNIT_SUITES})
def test_kunit_suite(kernel, kunit_boot, suite):
    _, out, _ = kunit_boot
    documents = parse_ktap_documents(out)
    # built in: the boot's document; in a module: the module's own
    found = documents[:1] if suite in KUNIT_SUITES[kernel.series] else documents[1:]
    results = next((results for _, results in found
                    if any(r["depth"] == 0 and r["path"][0] == suite for r in results)), [])
    top = {r["path"][0]: r for r in results if r["depth"] == 0}
    ran = sorted(r["path"][0] for _, rs in documents for r in rs if r["depth"] == 0)
    assert suite in top, f"KUnit suite {suite} did not run (ran: {ran})"
    cases = [r for r in results if r["depth"] >= 1 and r["path"][0] == suite]
    failed = [" / ".join(r["path"]) for r in cases if not r["ok"]]
    assert not failed, f"failing cases: {failed}"
    assert top[suite]["ok"], f"suite {suite} not ok"
    assert top[suite]["directive"] != "SKIP", f"suite {suite} skipped: {top[suite]['reason']}"
    assert cases, f"suite {suite} reported no test case"
    names = [r["path"][1] for r in cases if r["depth"] == 1]
    if suite in CASES[kernel.series]:
        assert sorted(names) == sorted(CASES[kernel.series][suite]), names
    skipped = [r["path"][1] for r in cases if r["depth"] == 1 and r["directive"] == "SKIP"]
    assert sorted(skipped) == sorted(SKIPPED[kernel.series].get(suite, [])), \
        [(r["path"], r["reason"]) for r in cases if r["directive"] == "SKIP"]
    for case in skipped:
        if f"{suite}.{case}" not in RUN_ALONE[kernel.series]:
            continue
        plan, alone = run_alone(kernel, f"{suite}.{case}")
        assert plan == 1 and [(r["path"], r["ok"], r["directive"]) for r in alone] == \
            [((suite, case), True, ""), ((suite,), True, "")], alone



@series_params("name,ok,bad", SELFTESTS)
def test_selftest(kunit_boot, name, ok, bad):
    _, out, _ = kunit_boot
    text = TIMESTAMP.sub("", out)
    assert not re.search(bad, text, re.M), f"{name} reported a failure"
    assert re.search(rf"^{ok}", text, re.M), f"{name}: no {ok!r} line"



@series_params("module,load", MODULES)
def test_selftest_module_loaded(kunit_boot, module, load):
    _, out, _ = kunit_boot
    unload = 0 if load == 0 else -1
    assert f"kernel-selftest-modules: {module} load {load} unload {unload}" in out, \
        out[-3000:]


def test_static_keys_are_jump_labels(kernel):
    """test_static_keys checks static branches against their keys; with
    JUMP_LABEL off they would be plain loads of the key and pass anyway."""
    config = (kernel.out / ".config").read_text()
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


def test_parser_reads_each_module_document():
    """A KUnit module's suite is a KTAP document of its own, after the
    boot's; a document that stops short does not take the next one's
    results."""
    log = "\n".join([
        "[    1.000000] KTAP version 1",
        "[    1.000000] 1..2",
        "[    1.000000]     # Subtest: alpha",
        "[    1.000000]     1..1",
        "[    1.000000]     ok 1 first",
        "[    1.000000] ok 1 alpha",
        "[    9.000000] kernel-selftest-modules: test_bitops load 0 unload 0",
        "[    9.000000] KTAP version 1",
        "[    9.000000] 1..1",
        "[    9.000000]     # Subtest: gamma",
        "[    9.000000]     1..1",
        "[    9.000000]     not ok 1 only",
        "[    9.000000] not ok 1 gamma",
    ])
    (plan, boot), (mplan, module) = parse_ktap_documents(log)
    assert plan == 2 and [r["path"] for r in boot] == [("alpha", "first"), ("alpha",)]
    assert mplan == 1 and [(r["path"], r["ok"]) for r in module] == \
        [(("gamma", "only"), False), (("gamma",), False)]
