"""The kernel runs the same in both of the emulator's execution tiers
(interpreter, JIT): a boot that runs the ABI, fault, SMP and TLB test programs and
the nolibc test suite gives, under -accel interp and -accel jit, the same
exit status, the same console output byte for byte (the kernel's
timestamps included) and the same guest instruction count. The guest clock
follows retired instructions, so any instruction the translated code
retires differently, any exception raised at another point or any
interrupt taken at another instruction shows up here.

Both TSAR specs: the 4-CPU SMP kernel and the one-CPU (UP) 2G/2G one."""
import re

import pytest

from guest import guest_kernel, program_lines, program_status
from kbuild import SPECS

pytestmark = pytest.mark.kernel

PROGRAMS = ["abi-traps", "abi-llsc", "abi-clobbers", "abi-nx", "hostile-faults",
            "smp-stress", "tlb-stress", "usercopy"]


@pytest.fixture(scope="module", params=list(SPECS))
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def boots(kernel):
    append = (f"{kernel.console} portkit_run={','.join(PROGRAMS)} "
              "portkit_nolibc_test=1")
    return {tier: kernel.boot("-accel", tier, "-v", "-append", append, timeout=600)
            for tier in ("interp", "jit")}


def instructions(err):
    m = re.search(r"guest exit status (\d+) after (\d+) instructions", err)
    assert m, err[-2000:]
    return int(m.group(1)), int(m.group(2))


def test_the_boot_passes_in_both_tiers(boots):
    for tier, (rc, out, err) in boots.items():
        assert rc == 0, (tier, out[-3000:], err[-1000:])
        for name in PROGRAMS:
            assert program_status(out, name) == ("exited", 0), \
                (tier, name, program_lines(out, name)[-6000:], out[-3000:])
        assert len(re.findall(r"\[OK\]\s*$", out, re.M)) >= 70, (tier, out[-3000:])
    assert "accel interp" in boots["interp"][2]
    assert re.search(r"accel jit: [1-9]\d* blocks translated", boots["jit"][2]), \
        boots["jit"][2][-1000:]


def test_same_instruction_count_in_both_tiers(boots):
    assert instructions(boots["interp"][2]) == instructions(boots["jit"][2])


def test_same_console_in_both_tiers(boots):
    a, b = boots["interp"][1], boots["jit"][1]
    if a != b:
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        pytest.fail(f"consoles differ at byte {i}:\ninterp: {a[max(0, i - 300):i + 300]!r}\n"
                    f"jit:    {b[max(0, i - 300):i + 300]!r}")
