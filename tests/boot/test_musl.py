"""musl on TSAR: the port in userland/musl, built from Debian's
musl 1.2.3 source, checked by the guest program userland/musl-tests/
musl-abi.c (stdio and floating point, malloc, pthreads with TLS, signals
with SA_SIGINFO and ucontext, setjmp, fork/exec/wait, 64-bit time, stat,
dirent, errno per thread), and the vDSO by userland/musl-tests/musl-vdso.c
(found from AT_SYSINFO_EHDR and called directly, its clocks against the
system call and across CPUs, musl's clock_gettime under a seccomp filter
that kills on the clock system calls); this file boots the default kernel
(whose initramfs holds the BusyBox root file system and the musl programs)
once for both and checks what they print. The host-side tests check the generated files and
the soft-float build without booting."""
import re
import subprocess

import pytest

from guest import check_results, guest_kernel, program_status
from kbuild import ROOT, SERIES_KEYS

pytestmark = pytest.mark.kernel

OUT = ROOT / "build" / "tsar"
# The kernel tree's vDSO selftests, built with musl (userland/musl-tests/Makefile).
KST_VDSO = ("kst-vdso_test_abi", "kst-vdso_test_gettimeofday", "kst-vdso_test_clock_getres")


@pytest.fixture(scope="module", params=SERIES_KEYS)
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def run(kernel):
    return kernel.run_programs("musl-abi", "musl-vdso", *KST_VDSO, timeout=600)


def test_kernel_stays_up(run):
    rc, out, _ = run
    assert "Oops" not in out and "Kernel panic" not in out, out[-3000:]
    assert "reboot: Power down" in out, out[-3000:]


def test_musl_abi_exits_zero(run):
    _, out, _ = run
    assert program_status(out, "musl-abi") == ("exited", 0), out[-5000:]


def test_every_check_passes(run):
    _, out, _ = run
    res = check_results(out, "musl-abi")
    failed = {k: v[0] for k, v in res.items() if v[1] != "ok"}
    assert not failed, failed
    assert len(res) >= 80, sorted(res)
    m = re.search(r"^musl-abi: (\d+) passed, (\d+) failed$", out, re.M)
    assert m and int(m.group(1)) == len(res) and m.group(2) == "0", out[-3000:]


@pytest.mark.parametrize("name,want", [
    # soft-float addition must round to nearest: fmt_fp rounds through
    # "round + small != round" (2^53 + 1.5), which a truncating add breaks
    ("printf-f3", '"3.142"'),
    ("printf-f-round-to-nearest", '"3.14159"'),
    ("printf-sum", '"0.30000000000000004"'),
    ("printf-half-even", '"2 4"'),
])
def test_floating_point_output(run, name, want):
    _, out, _ = run
    details, status = check_results(out, "musl-abi")[name]
    assert status == "ok" and details.startswith(want), details


@pytest.mark.parametrize("name", [
    "tls-per-thread", "errno-per-thread", "mutex", "atomic-llsc", "condvar",
    "pthread-cancel", "ucontext-segv", "sa-siginfo", "sigaltstack",
    "sigfpe-divzero-siglongjmp", "fork-execve", "posix-spawn", "waitpid-stopped",
    "waitpid-continued", "wait4-signaled", "clock-settime-y2100", "utimensat-y2038",
    "large-file", "stat", "readdir", "time-t-64", "popen",
])
def test_named_check(run, name):
    _, out, _ = run
    assert check_results(out, "musl-abi").get(name, ("missing", ""))[1] == "ok", check_results(out, "musl-abi").get(name)


# --- the vDSO (musl-vdso) -------------------------------------------------

def test_vdso_program_exits_zero(run):
    _, out, _ = run
    lines = "\n".join(l for l in out.splitlines() if l.startswith("musl-vdso:"))
    assert program_status(out, "musl-vdso") == ("exited", 0), lines or out[-3000:]
    m = re.search(r"^musl-vdso: (\d+) passed, 0 failed$", out, re.M)
    assert m and int(m.group(1)) == len(check_results(out, "musl-vdso")) >= 20, lines


@pytest.mark.parametrize("name", [
    # the image: AT_SYSINFO_EHDR, [vdso] and [vvar] in /proc/self/maps, the
    # three symbols at LINUX_2.6 (and not at another version)
    "auxv", "maps-vdso", "maps-vvar", "symbols", "no-other-version",
    # each vDSO reading between two system call readings
    "realtime", "monotonic", "boottime", "monotonic-raw", "tai", "realtime-coarse",
    "monotonic-coarse", "gettimeofday",
    "getres-realtime", "getres-monotonic", "getres-boottime", "getres-monotonic-coarse",
    # clocks outside the data page reach the system call; bad ids EINVAL
    "fallback-cputime", "bad-clock", "bad-clock-getres",
    # never backwards, over many calls and from CPU to CPU (4 CPUs)
    "monotonic-calls", "monotonic-across-cpus",
    # the filter kills the system call, and musl's clocks still work under it
    "seccomp-kills-syscall", "musl-no-syscall",
])
def test_vdso_check(run, name):
    _, out, _ = run
    got = check_results(out, "musl-vdso").get(name, ("missing", ""))
    assert got[1] == "ok", got


def test_vdso_moves_across_all_cpus(run, kernel):
    _, out, _ = run
    details = check_results(out, "musl-vdso")["monotonic-across-cpus"][0]
    assert details.startswith(f"{kernel.spec['platform']['cpus']['count']} CPUs, 200 moves"), details


def test_vdso_selftests(run):
    """vdso_test_abi: gettimeofday, then clock_gettime and clock_getres of
    the vDSO against the system call for every clock (16 tests);
    vdso_test_clock_getres: libc against the system call;
    vdso_test_gettimeofday: the vDSO's gettimeofday."""
    _, out, _ = run
    for prog in KST_VDSO:
        assert program_status(out, prog) == ("exited", 0), (prog, out[-4000:])
    assert "The time is " in out
    # vdso_test_abi: 15 pass, __vdso_time skipped (the vDSO has none)
    totals = re.findall(r"^# Totals: pass:(\d+) fail:(\d+) xfail:0 xpass:0 skip:(\d+) error:0$",
                        out, re.M)
    assert totals == [("15", "0", "1")], totals
    # (6.1 and 6.12 word the skip differently)
    assert re.search(r"(Could not|Couldn't) find __vdso_time", out)
    # vdso_test_clock_getres: every clock it tries
    for clk in ("REALTIME", "BOOTTIME", "TAI", "REALTIME_COARSE", "MONOTONIC",
                "MONOTONIC_RAW", "MONOTONIC_COARSE"):
        assert f"clock_id: CLOCK_{clk} [PASS]" in out, clk


VDSO = OUT / "arch" / "tsar" / "vdso" / "vdso.so"


def test_vdso_image_is_position_independent(kernel):
    """No dynamic relocations, no $gp (the GOT), no call through $t9; the
    entry points exported at LINUX_2.6 and nothing else."""
    readelf = subprocess.run(["mipsel-linux-gnu-readelf", "-W", "-r", "--dyn-syms", "-V",
                              str(VDSO)], capture_output=True, text=True, check=True).stdout
    assert "There are no relocations in this file." in readelf, readelf
    syms = sorted(re.findall(r"\sFUNC\s+GLOBAL\s+DEFAULT\s+\d+\s+(\w+@@?LINUX_2\.6)", readelf))
    assert syms == ["__vdso_clock_getres@@LINUX_2.6", "__vdso_clock_gettime64@@LINUX_2.6",
                    "__vdso_clock_gettime@@LINUX_2.6", "__vdso_gettimeofday@@LINUX_2.6"], readelf
    dis = subprocess.run(["mipsel-linux-gnu-objdump", "-d", str(VDSO)],
                         capture_output=True, text=True, check=True).stdout
    # rdhwr $2 (CC), which objdump names hwr_cc
    assert re.search(r"\brdhwr\s+\w+,\s*hwr_cc\b", subprocess.run(
        ["mipsel-linux-gnu-objdump", "-d", "-m", "mips:isa32r2", str(VDSO)],
        capture_output=True, text=True, check=True).stdout)
    assert not re.search(r"\bgp\b|jalr\s+t9", dis), dis


def test_musl_looks_up_the_vdso(kernel):
    text = (OUT / "musl" / "gen" / "syscall_arch.h").read_text()
    assert '#define VDSO_CGT_SYM "__vdso_clock_gettime"' in text
    assert '#define VDSO_CGT_VER "LINUX_2.6"' in text
    assert "VDSO_CGT32" not in text


# --- host side: what the build generated ---------------------------------

def test_syscall_numbers_come_from_the_uapi_headers(kernel):
    text = (OUT / "musl" / "gen" / "syscall.h.in").read_text()
    nums = dict(re.findall(r"^#define __NR_(\w+)\s+(\d+)$", text, re.M))
    # asm-generic numbers, TSAR's set_thread_area in the arch-specific slot
    assert nums["read"] == "63" and nums["clone"] == "220" and nums["exit"] == "93"
    assert nums["set_thread_area"] == "244" and nums["_llseek"] == "62"
    assert nums["clock_gettime64"] == "403" and nums["statx"] == "291"
    # the y2038-safe ABI: no time32, stat or wait4 calls
    for gone in ("wait4", "gettimeofday", "fstatat64", "fstat64", "clock_gettime",
                 "nanosleep", "getrlimit", "llseek"):
        assert gone not in nums, gone


def test_syscall_convention_comes_from_the_spec(kernel):
    text = (OUT / "musl" / "gen" / "syscall_arch.h").read_text()
    assert "errors a3_flag" in text
    assert "return r7 && r2 > 0 ? -r2 : r2;" in text
    # o32: at, v1, t0-t9, hi, lo may be clobbered by the kernel; t0-t2
    # carry the stack arguments into the asm (in-out operands, never sp)
    assert '"$1", "$3", "$11", "$12", "$13", "$14", "$15"' in text
    assert ': SYSCALL_CLOBBERLIST, "$8", "$9", "$10");' in text      # 0-4 arguments
    assert 'register long r8 __asm__("$8") = e;' in text
    assert ': "+r"(r2), "+r"(r7), "+r"(r8), "+r"(r9)' in text        # 6 arguments
    assert "#define SYSCALL_A3_FLAG 1" in (OUT / "musl" / "gen" / "syscall_conv.h").read_text()


def test_gen_syscall_rejects_a_bad_spec(tmp_path):
    spec = tmp_path / "bad.yaml"
    spec.write_text((ROOT / "arch-spec.yaml").read_text().replace(
        "error_convention: a3_flag", "error_convention: carry_flag"))
    proc = subprocess.run(["/usr/bin/python3", str(ROOT / "userland/musl/gen-syscall.py"),
                           "convention", str(spec), str(tmp_path / "out.h")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and not (tmp_path / "out.h").exists()
    assert "error_convention" in proc.stderr


FPU_INSN = re.compile(r"\s(add|sub|mul|div|abs|neg|mov|cvt|trunc|round|sqrt)\.[sdw]\s|"
                      r"\s(c\.\w+\.[sd]|[ls][wd]c1|m[tf]c1|m[tf]hc1|[cC][tf]c1|bc1[tf])\s")


@pytest.mark.parametrize("binary", ["musl-tests/bin/musl-abi", "busybox/busybox",
                                    "dropbear/dropbearmulti"])
def test_userland_has_no_fpu_instructions(kernel, binary):
    """TSAR has no FPU: floating point goes through the soft-fp routines
    built from gcc-12's libgcc (Debian's mipsel libgcc.a is hard-float)."""
    dis = subprocess.run(["mipsel-linux-gnu-objdump", "-d", str(OUT / binary)],
                         capture_output=True, text=True, check=True).stdout
    bad = [line for line in dis.splitlines() if FPU_INSN.search(line)]
    assert not bad, bad[:10]
    if binary.startswith("musl-tests"):
        assert "<__adddf3>:" in dis
