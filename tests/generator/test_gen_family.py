"""The ISA family as a contract axis: a second family (rv32) from the generic parts.

The kit is copied with specs/rv32-base.yaml and a tiny fake family layer
(fixtures/family-fakerv: only the family parts the generic templates include);
its output must hold none of the MIPS family's names. Also: the family's
register file, syscall instructions, byte orders and ELF flags in the spec
checks, a family layer missing a part (contract error naming file, line and
key), --new from the family base, and the family table's own errors.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from gen_helpers import FIXTURES, ROOT

from generator import families
from generator.makefrag import qemu_base_command
from generator.spec import load_spec
from test_gen_scaffold import run

FAKE = FIXTURES / "family-fakerv"

SPEC = """\
extends: specs/rv32-base.yaml
arch:
  name: fakerv
  layers: [fakerv]
"""

#: MIPS names that must not reach a second family's generic output: the ISA,
#: its o32 ABI, CP0/CP2, numbered-register syntax, its instructions.
MIPS_NAMES = re.compile(
    r"mips|o32|\bcp[02]\b|CP0|\$(?:[0-9]+|sp|gp|fp|ra|zero|v[01]|a[0-3]|k[01])\b"
    r"|^\s*syscall\b|\"syscall|\b(?:mtc0|mfc0|eret|rdhwr|noreorder)\b|UserLocal|EBase"
    r"|orig_v0|orig_a3|user_regs_mips|elf32[lb]tsmip|-E[LB]\b|kseg"
    r"|PTPR|PTE[12]|PTD1|EntryLo",
    re.IGNORECASE | re.MULTILINE)


def kit(tmp_path: Path) -> Path:
    dest = tmp_path / "kit"
    for d in ("templates", "overrides", "generator"):
        shutil.copytree(ROOT / d, dest / d, ignore=shutil.ignore_patterns("__pycache__"))
    (dest / "specs").mkdir()
    shutil.copy2(ROOT / "specs/rv32-base.yaml", dest / "specs/rv32-base.yaml")
    shutil.copytree(FAKE, dest / "overrides/fakerv")
    (dest / "fakerv.yaml").write_text(SPEC)
    return dest


def test_second_family_output_names_no_mips(tmp_path):
    root = kit(tmp_path)
    rc, out, err = run(root, "fakerv.yaml", "-o", "out")
    assert rc == 0, err
    arch = root / "out/arch/fakerv"
    leaks = []
    for f in sorted(arch.rglob("*")):
        if f.is_file():
            for n, line in enumerate(f.read_text().splitlines(), 1):
                if MIPS_NAMES.search(line):
                    leaks.append(f"{f.relative_to(arch)}:{n}: {line.strip()}")
    assert not leaks, "\n".join(leaks)
    # ... and the family's own values are there.
    makefile = (arch / "Makefile").read_text()
    assert "KBUILD_LDFLAGS += -m elf32lriscv" in makefile
    assert "riscv64-linux-gnu-" in makefile and "CHECKFLAGS += -D__riscv" in makefile
    assert "KBUILD_CFLAGS += -march=rv32ima" in makefile       # no byte-order flag first
    assert "OUTPUT_ARCH(riscv)" in (arch / "kernel/vmlinux.lds.S").read_text()
    assert "select MODULES_USE_ELF_RELA" in (arch / "Kconfig").read_text()
    assert not (arch / "include/asm/cp0.h").exists()         # no isa.cp0
    assert not (arch / "include/asm/regdef.h").exists()      # the assembler knows a0...
    thread_info = (arch / "include/asm/thread_info.h").read_text()
    assert '__asm__("tp")' in thread_info and '__asm__("sp")' in thread_info
    assert "unsigned long s[12];" in (arch / "include/asm/processor.h").read_text()
    offsets = (arch / "kernel/asm-offsets.c").read_text()
    assert "THREAD_S11" in offsets and "TI_TP_VALUE" not in offsets
    page = (arch / "include/asm/page.h").read_text()
    assert "typedef struct { unsigned long pte; } pte_t;" in page
    # The stubs spin in the family's way, the message in a0.
    stub = (arch / "kernel/stub_boot.S").read_text()
    assert "la\ta0, portkit_stub_boot_message" in stub and "j\tportkit_stub_boot" in stub
    assert '"mv\\ta0, %0\\n\\t"' in (arch / "kernel/stub_timer.c").read_text()


def test_the_mips_family_keeps_its_parts():
    """The TSAR tree still gets the MIPS text, now from overrides/mips32/_family/."""
    arch = ROOT / "generated/arch/tsar"
    assert "OUTPUT_ARCH(mips)" in (arch / "kernel/vmlinux.lds.S").read_text()
    assert '__asm__("$28")' in (arch / "include/asm/thread_info.h").read_text()
    assert "struct user_regs_mips" in (arch / "include/uapi/asm/ptrace.h").read_text()


def test_a_missing_family_part_is_a_contract_error(tmp_path):
    root = kit(tmp_path)
    (root / "overrides/fakerv/_family/ptrace/user_mode.j2").unlink()
    rc, out, err = run(root, "fakerv.yaml", "-o", "out")
    assert rc == 2
    tline = next(n for n, line in enumerate(
        (root / "templates/include/asm/ptrace.h.j2").read_text().splitlines(), 1)
        if 'family_part("ptrace/user_mode")' in line)
    lline = next(n for n, line in enumerate(
        (root / "overrides/fakerv/layer.yaml").read_text().splitlines(), 1)
        if "isa.family:" in line)
    assert (f"templates/include/asm/ptrace.h.j2:{tline}: family_part ptrace/user_mode: no layer "
            "of the stack has _family/ptrace/user_mode.j2") in err
    assert f"overrides/fakerv/layer.yaml:{lline}: implements.isa.family" in err
    assert "Traceback" not in err and not (root / "out").exists()


def test_new_from_the_family_base(tmp_path):
    root = kit(tmp_path)
    rc, out, err = run(root, "--new", "myrv", "--from", "specs/rv32-base.yaml", "myrv.yaml")
    assert rc == 0, err
    text = (root / "myrv.yaml").read_text()
    assert "extends: specs/rv32-base.yaml" in text and "layers: [rv32, myrv]" in text
    assert load_spec(root / "myrv.yaml").data["isa"]["family"] == "rv32"
    # The rv32 family layer has no parts yet: generating says what it lacks.
    rc, out, err = run(root, "myrv.yaml", "-o", "out")
    assert rc == 2
    assert "family_part syscall/nr" in err and "overrides/rv32/layer.yaml:" in err
    # --status lists what the family and MMU-design layers still owe.
    rc, out, err = run(root, "--status", "myrv.yaml", "--build", str(tmp_path / "none"))
    assert rc == 2
    assert "0 of 11 family and MMU parts the generic templates need provided, missing:" in out
    assert "    family_part ptrace/user_mode" in out and "    mmu_part page/pte_types" in out
    rc, out, err = run(root, "myrv.yaml", "-o", "out")
    # ... and that an MMU-design layer (Sv32's) is missing.
    assert ("mmu_part page/pte_types: no layer of the stack has _mmu/page/pte_types.j2" in err
            and "the MMU-design layer (no layer of the stack implements mmu.walker yet)" in err), \
        err


def _rv32(tmp_path: Path, delta: str):
    root = kit(tmp_path)
    (root / "board.yaml").write_text(SPEC + delta)
    return root / "board.yaml"


def test_rv32_register_file(tmp_path):
    d = load_spec(_rv32(tmp_path, "")).data
    from generator.derive import derive
    v = derive(d)
    assert v["dtb_regnum"] == 11                   # a1 is x11, not o32's $5
    assert v["syscall"]["number_regnum"] == 17     # a7
    assert v["syscall"]["arg_regnums"] == [10, 11, 12, 13, 14, 15]
    assert v["frame_size_aligned"] % 16 == 0       # the RISC-V psABI's alignment
    assert v["syscall"]["static_regnums"] == [8, 9, *range(18, 28)]   # s0-s11
    assert d["isa"]["endian"] == {"flag": None, "ld_emulation": "elf32lriscv",
                                  "elf_data": "lsb", "cpp": None}


@pytest.mark.parametrize("delta, path, words", [
    ("abi:\n  syscall:\n    number_register: v0\n", "abi.syscall.number_register",
     ["'v0' is not a RISC-V (ilp32) register name (syscall number)", "valid names: zero ra sp"]),
    ("abi:\n  syscall:\n    instruction: syscall\n", "abi.syscall.instruction",
     ["'syscall' is not a system call instruction of isa.family rv32 (it has: ecall)"]),
    ("abi:\n  syscall:\n    error_convention: a3_flag\n", "abi.syscall.error_convention",
     ["a3_flag needs an error flag register; isa.family rv32 has none"]),
    ("abi:\n  tls:\n    hwrena: [ulr]\n", "abi.tls.hwrena[0]",
     ["isa.family rv32 has no user-readable hardware register 'ulr' (it has: none)"]),
    ("isa:\n  endianness: big\n", "isa.endianness",
     ["isa.family rv32 has no big-endian variant (it has: little)"]),
    ("isa:\n  cflags: [-mlittle-endian]\n", "isa.cflags[0]",
     ["'-mlittle-endian' is derived from isa.endianness"]),
    ("abi:\n  elf:\n    flags_reject: [EF_MIPS_ABI2]\n", "abi.elf.flags_reject[0]",
     ["unknown e_flags name 'EF_MIPS_ABI2'; known: EF_RISCV_FLOAT_ABI"]),
    ("abi:\n  syscall:\n    arg_registers: !replace [a0, a1, a2, a3]\n",
     "abi.syscall.arg_registers",
     ["isa.family rv32 passes 6 syscall arguments in registers, found 4"]),
])
def test_rv32_spec_errors(tmp_path, delta, path, words):
    from generator.errors import SpecError
    spec = _rv32(tmp_path, delta)
    with pytest.raises(SpecError) as exc:
        load_spec(spec)
    text = str(exc.value)
    line = next(n for n, ln in enumerate(spec.read_text().splitlines(), 1)
                if ln.strip() and ln.strip().split(":")[0] == path.split(".")[-1].split("[")[0])
    assert f"board.yaml:{line}: {path}:" in text, text
    for w in words:
        assert w in text, text


def test_qemu_binary_follows_the_family(tmp_path):
    spec = _rv32(tmp_path, "platform:\n  qemu: {machine: virt, cpu: rv32}\n")
    assert qemu_base_command(load_spec(spec).data)[0] == "qemu-system-riscv32"
    mips = load_spec(ROOT / "specs/qmips.yaml").data
    assert qemu_base_command(mips)[0] == "qemu-system-mipsel"


def test_a_broken_family_table_names_the_key(tmp_path):
    table = (ROOT / "generator/families.yaml").read_text()
    broken = tmp_path / "families.yaml"
    broken.write_text(table.replace("  stack_align: 16\n", "", 1))
    with pytest.raises(ValueError, match=r"families.yaml: rv32: missing stack_align"):
        families._load(broken)
    broken.write_text(table.replace("roles: {sp: sp, fp: fp, ra: ra, zero: zero}\n"
                                    "  kernel_reserved: []",
                                    "roles: {sp: x2, fp: fp, ra: ra, zero: zero}\n"
                                    "  kernel_reserved: []", 1))
    with pytest.raises(ValueError, match=r"rv32: roles.sp: not a register name"):
        families._load(broken)


def test_boot_firmware_is_a_contract_key(tmp_path):
    root = kit(tmp_path)
    shutil.copy2(ROOT / "arch-spec.yaml", root / "arch-spec.yaml")
    (root / "sbi.yaml").write_text("extends: arch-spec.yaml\nboot:\n  firmware: sbi\n")
    rc, out, err = run(root, "sbi.yaml", "-o", "out")
    assert rc == 2
    assert ("sbi.yaml:3: boot.firmware: the spec asks for sbi, which no layer implements "
            "(overrides/tsar implements none)") in err, err


def test_the_generic_templates_state_what_they_rely_on(tmp_path):
    root = kit(tmp_path)
    base = root / "specs/rv32-base.yaml"
    base.write_text(base.read_text().replace("{name: epc, ", "{name: pc, "))
    rc, out, err = run(root, "fakerv.yaml", "-o", "out")
    assert rc == 2
    line = next(n for n, ln in enumerate(base.read_text().splitlines(), 1) if ln == "  frame:")
    assert (f"specs/rv32-base.yaml:{line}: abi.frame: the generic templates (templates/) rely "
            "on epc (generic_relies_on in generator/contract.yaml)") in err, err


def test_the_contract_tells_cp2_from_sv32(tmp_path):
    """Both walk in hardware (mmu.walker: hardware); the CP2 layer's relies_on
    refuses an Sv32 spec, which has no CP2 registers, fault codes or CP0."""
    root = kit(tmp_path)
    (root / "cp2.yaml").write_text(SPEC.replace("name: fakerv", "name: cprv")
                                   .replace("[fakerv]", "[fakerv, mmu-cp2]"))
    rc, out, err = run(root, "cp2.yaml", "-o", "out")
    assert rc == 2
    assert ("mmu.cp2_registers: layer overrides/mmu-cp2 relies on ptpr, mode (relies_on in "
            "overrides/mmu-cp2/layer.yaml)") in err, err
    assert "mmu.tlb_coherent: the spec asks for false, which no layer implements" in err
