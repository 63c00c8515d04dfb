"""System calls made with a wild stack pointer (unmapped, misaligned, in
kernel space) do on TSAR what they do on MIPS o32 Linux 6.1
(arch/mips/kernel/scall32-o32.S, do_ade for the kernel's misaligned loads):

- sp + 32, the end of the o32 argument area, computed modulo 2^32, at or
  above the start of kernel space (TASK_SIZE here, kseg0 on MIPS): EFAULT,
  the call not run, whatever it is (getpid too);
- otherwise the call runs: each stack word (sp+16..sp+31) that cannot be
  read is 0, a misaligned sp is read as it is;
- no signal either way.

The guest program userland/tests/abi-wild-sp.c makes getpid, write and
mmap2 (fd and page offset on the stack) with each sp, on the fast syscall
path and under a seccomp filter (the full entry path). The same source,
built for stock MIPS, also runs under qemu-mipsel: QEMU's user-mode o32
emulation reads only the stack words a call takes and fails the call with
EFAULT when it cannot, and knows no kernel space, so it is the reference
only where it follows the kernel; where it does not is checked too.
The stock build also passes every check as /init of a stock arch/mips 6.1
kernel on QEMU Malta (24Kc, 16 KiB pages; configured as
scripts/bench-sister.sh did then, now scripts/malta-kernel.sh, plus
SECCOMP_FILTER): the rule is the real kernel's, not only a reading of its
source."""
import re
import shutil
import subprocess

import pytest

from guest import guest_kernel, program_status
from kbuild import KSRC0, ROOT

pytestmark = pytest.mark.kernel

PROGRAM = "abi-wild-sp"
SOURCE = ROOT / "userland" / "tests" / f"{PROGRAM}.c"

# sp + 32 in kernel space.
KERNEL_SP = ["kernel", "kernel-misaligned", "kernel-top-page", "user-top-32"]
# What mmap2 maps with each sp in user space: file B (fd at sp+16), unit 1
# (offset at sp+20); a word that cannot be read is 0 (fd 0 is file Z).
MAP = {
    "aligned": "map B1", "misaligned-1": "map B1", "misaligned-2": "map B1",
    "misaligned-3": "map B1",
    "unmapped": "map Z0", "unmapped-misaligned": "map Z0", "null": "map Z0",
    "straddle": "map B0", "straddle-misaligned": "map B0",
    "wrap-16": "map Z0", "wrap-32": "map Z0", "wrap-misaligned": "map Z0",
    "user-top-33": None,        # the words are the stack's: not checked
}
CASES = list(MAP) + KERNEL_SP
PASSES = ["", "seccomp-"]


def expected(case, call):
    if case in KERNEL_SP:
        return {"getpid": "err 14", "write": "err 14 pipe empty", "mmap2": "err 14"}[call]
    return {"getpid": "pid", "write": "wrote 6 read wildsp", "mmap2": MAP[case]}[call]


CHECKS = [(p, case, call) for p in PASSES for case in CASES
          for call in ("getpid", "write", "mmap2")
          if not (call == "mmap2" and case in MAP and MAP[case] is None)]

# Where qemu-mipsel's o32 emulation is not the kernel's: an unreadable
# stack word fails mmap2 with EFAULT (cpu_loop.c: get_user_ual), and an sp
# in kernel space does not stop register-only calls.
QEMU_DIFFERS = (
    {f"{case}-mmap2" for case, m in MAP.items() if m and m != "map B1"}
    | {f"{case}-{call}" for case in KERNEL_SP for call in ("getpid", "write")})


def results(out):
    """{check: (got, want, 'ok'|'FAIL')} from 'abi-wild-sp: check: got (want w): ok'."""
    return {m.group(1): (m.group(2), m.group(3), m.group(4)) for m in re.finditer(
        rf"^{PROGRAM}: ([\w-]+): (.*) \(want (.*)\): (ok|FAIL)$", out, re.M)}


@pytest.fixture(scope="module")
def run():
    return guest_kernel("tsar").run_programs(PROGRAM, timeout=300)


def test_kernel_stays_up(run):
    rc, out, _ = run
    assert "Oops" not in out and "Kernel panic" not in out and "BUG" not in out, out[-3000:]
    assert "reboot: Power down" in out, out[-3000:]


def test_program_exits_zero_without_a_signal(run):
    _, out, _ = run
    assert program_status(out, PROGRAM) == ("exited", 0), out[-4000:]
    assert f"{PROGRAM}: seccomp-pass: status 0" in out, out[-4000:]


def test_kernel_space_starts_at_task_size(run):
    _, out, _ = run
    assert f"{PROGRAM}: kernel space from c0000000" in out, out[-4000:]


@pytest.mark.parametrize("pass_,case,call", CHECKS)
def test_follows_the_mips_rule(run, pass_, case, call):
    _, out, _ = run
    got, want, status = results(out)[f"{pass_}{case}-{call}"]
    assert want == expected(case, call)
    assert got == want and status == "ok", got


@pytest.fixture(scope="module")
def qemu_out(tmp_path_factory):
    """The program built for stock MIPS (the kernel tree's nolibc, o32
    numbers), run under qemu-mipsel in a directory of its own."""
    if not (shutil.which("qemu-mipsel") and shutil.which("mipsel-linux-gnu-gcc")):
        pytest.skip("needs qemu-mipsel and mipsel-linux-gnu-gcc")
    nolibc = KSRC0 / "tools" / "include" / "nolibc"
    if not (nolibc / "nolibc.h").exists():
        pytest.skip(f"no kernel source at {KSRC0} (make setup)")
    work = tmp_path_factory.mktemp("wild-sp-qemu")
    exe = work / PROGRAM
    subprocess.run(
        ["mipsel-linux-gnu-gcc", "-Os", "-static", "-nostdlib", "-fno-pie", "-no-pie",
         "-fno-pic", "-mno-abicalls", "-EL", "-march=mips32", "-msoft-float",
         "-fno-asynchronous-unwind-tables", "-fno-stack-protector", "-ffreestanding",
         "-fno-builtin", "-DPORTKIT_STOCK_MIPS", f"-I{nolibc}", "-o", str(exe),
         str(SOURCE), "-lgcc"], check=True, capture_output=True, text=True)
    proc = subprocess.run(["qemu-mipsel", str(exe)], cwd=work, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    return proc.stdout


def test_qemu_user_agrees_where_it_follows_the_kernel(run, qemu_out):
    _, out, _ = run
    tsar, qemu = results(out), results(qemu_out)
    plain = {check for check in tsar if not check.startswith("seccomp-")}
    assert plain <= set(qemu), sorted(plain - set(qemu))
    differ = {check for check in plain if tsar[check][0] != qemu[check][0]}
    assert differ == QEMU_DIFFERS, (
        f"differ only on TSAR: {sorted(differ - QEMU_DIFFERS)}; "
        f"expected to differ: {sorted(QEMU_DIFFERS - differ)}")
    # Where they differ, QEMU fails the call (EFAULT) or runs it anyway.
    for check in QEMU_DIFFERS:
        assert qemu[check][0] in ("err 14", "pid", "wrote 6 read wildsp"), (check, qemu[check])
