"""Both system call error conventions of the spec render and compile:
a3_flag (MIPS o32: a3 = 0/1, positive errno) and negative_v0 (the
2013-2015 port: -errno in v0, a3 untouched)."""
import re

import pytest
from kbuild import ROOT, drop_other_series, ktree, run, series

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module", params=["a3_flag", "negative_v0"])
def convention_tree(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("spec") / f"tsar-{request.param}.yaml"
    # A delta over the real spec; its layers are the project's overrides/<name>.
    path.write_text(f"extends: {ROOT / 'arch-spec.yaml'}\n"
                    f"abi:\n  syscall:\n    error_convention: {request.param}\n")
    key = f"conv-{request.param}"
    out = ROOT / "build" / "tests" / key
    drop_other_series(out, series("tsar"))
    out.mkdir(parents=True, exist_ok=True)
    run(["make", "--no-print-directory", "kernel-tree", f"SPEC={path}"])
    gen = ROOT / "build" / "gen" / path.stem / "arch" / "tsar"

    def kmake(*targets, extra=()):
        return run(["make", "-C", str(ktree(path)), f"O={out}", "ARCH=tsar", "-j2",
                    *extra, *targets])
    kmake("tsar_defconfig")
    return request.param, gen, kmake


def test_convention_renders(convention_tree):
    convention, gen, _ = convention_tree
    syscall_h = (gen / "include" / "asm" / "syscall.h").read_text()
    entry_s = (gen / "kernel" / "entry.S").read_text()
    if convention == "a3_flag":
        assert "regs->regs[7] ? -(long)regs->regs[SYSCALL_RET_REG] : 0" in syscall_h
        assert re.search(r"li\s+t0, -4096", entry_s)
    else:
        assert "IS_ERR_VALUE(regs->regs[SYSCALL_RET_REG])" in syscall_h
        assert not re.search(r"li\s+t0, -4096", entry_s)
        assert "leaves a3 alone" in entry_s


def test_convention_compiles_warning_free(convention_tree):
    _, _, kmake = convention_tree
    kmake("prepare")
    res = kmake("arch/tsar/kernel/", extra=["W=1"])
    warnings = [line for line in res.stdout.splitlines()
                if "warning:" in line or "error:" in line]
    assert not warnings, "\n".join(warnings)
