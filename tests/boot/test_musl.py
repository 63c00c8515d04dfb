"""musl on TSAR: the port in userland/musl, built from Debian's
musl 1.2.3 source, checked by the guest program userland/musl-tests/
musl-abi.c (stdio and floating point, malloc, pthreads with TLS, signals
with SA_SIGINFO and ucontext, setjmp, fork/exec/wait, 64-bit time, stat,
dirent, errno per thread); this file boots the default kernel (whose
initramfs holds the BusyBox root file system and the musl programs) and
checks what it prints. The host-side tests check the generated files and
the soft-float build without booting."""
import re
import subprocess

import pytest

from guest import check_results, guest_kernel, program_status
from kbuild import ROOT

pytestmark = pytest.mark.kernel

OUT = ROOT / "build" / "tsar"


@pytest.fixture(scope="module")
def kernel():
    return guest_kernel("tsar")


@pytest.fixture(scope="module")
def run(kernel):
    return kernel.run_programs("musl-abi", timeout=600)


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


@pytest.mark.parametrize("binary", ["musl-tests/bin/musl-abi", "busybox/busybox"])
def test_userland_has_no_fpu_instructions(kernel, binary):
    """TSAR has no FPU: floating point goes through the soft-fp routines
    built from gcc-12's libgcc (Debian's mipsel libgcc.a is hard-float)."""
    dis = subprocess.run(["mipsel-linux-gnu-objdump", "-d", str(OUT / binary)],
                         capture_output=True, text=True, check=True).stdout
    bad = [line for line in dis.splitlines() if FPU_INSN.search(line)]
    assert not bad, bad[:10]
    if binary.startswith("musl-tests"):
        assert "<__adddf3>:" in dis
