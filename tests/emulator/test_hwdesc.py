"""The emulator's board comes from the spec, and its bare-metal programs share
one runtime.

* No hand-written file under emulator/ restates a platform fact the spec
  holds (device addresses, PTE bits, MMU fault codes, CP0/CP2 register
  numbers, device register offsets): they come from hwdesc.h
  (generate.py --hwdesc, generator/hwdesc.py), or from the DTB at run time.
* One bare-metal runtime (emulator/runtime): no other start-up code,
  exception vector or linker script for TSAR programs.
* A spec that moves a device gives an emulator whose built-in platform,
  runtime and tests follow it.
"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EMU_DIR = ROOT / "emulator"
sys.path.insert(0, str(ROOT))

from generator.spec import load_spec  # noqa: E402

SOURCE_SUFFIXES = (".c", ".h", ".S", ".ld", ".dts", ".dtsi", ".py", ".mk")
# (file, what the line says) that look like a platform fact and are not one
ALLOWED = [
    ("emulator/src/internal.h", r"#define ST_CU0 0x10000000u"),   # Status.CU0 (MIPS32)
    ("emulator/tests/baremetal/t_block.c", r"b_tgt = 0x10000000u \| 4u"),  # a branch target
]


def sources():
    for p in sorted(EMU_DIR.rglob("*")):
        if p.is_file() and (p.suffix in SOURCE_SUFFIXES or p.name == "Makefile") \
                and "__pycache__" not in p.parts:
            yield p


def allowed(rel, line):
    return any(rel == f and re.search(pat, line) for f, pat in ALLOWED)


def hits(patterns, only=None):
    out = []
    for p in sources():
        rel = p.relative_to(ROOT).as_posix()
        if only and not only(p):
            continue
        for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1):
            for what, rx in patterns:
                if rx.search(line) and not allowed(rel, line):
                    out.append(f"{rel}:{n}: {what}: {line.strip()}")
    return out


def test_no_hand_restated_device_address():
    """The spec's device bases (and RAM top) appear in no hand-written emulator
    file: code uses <DEVICE>_BASE from hwdesc.h, device trees too."""
    data = load_spec(ROOT / "arch-spec.yaml").data
    pats = []
    for dev in data["platform"]["devices"]:
        b = dev["base"]
        pats.append((f"{dev['name']} base", re.compile(rf"\b0x0*{b:x}\b|@{b:x}\b", re.I)))
    found = hits(pats)
    assert not found, "use hwdesc.h's <DEVICE>_BASE (generated from the spec):\n" + \
        "\n".join(found)


def test_no_hand_restated_mmu_or_register_fact():
    """PTE bits, MMU fault codes, MODE bits, CP2/CP0 register numbers and device
    register offsets are defined nowhere in emulator/ by hand."""
    names = (r"(PTE_\w+|MMU_(FAULT|MODE|READ|PT[12]|PRIVILEGE|ACCES|EXEC|UNDEF|DATA|PTPR|SYNC)\w*"
             r"|CP2_\w+|CP0_\w+|ET_\w+|SIM_\w+|SIMHELPER_\w+|BDEV_\w+|BLOCKDEVICE_\w+"
             r"|TTY_(BASE|WRITE|STATUS|READ|CONFIG)\b|XICU_(?!MAX\b|SPAN\b)\w+"
             r"|[RFX]_(SC_STOP|END_WITH|EXCEPT|PAUSE|CYCLES|SIGINT|BUFFER|LBA|COUNT|OP\b|STATUS"
             r"|IRQ_ENABLE|SIZE|BLOCK_SIZE|WTI|PTI|MSK|PRIO|CONFIG|PER\b|ACK|VAL\b)\w*)")
    prefixes = names
    number = r"(0x[0-9a-f]+|\d+)u?\b"
    pats = [
        ("a platform macro defined as a number",
         re.compile(rf"^\s*#\s*define\s+{prefixes}\w*\s+\(?{number}", re.I)),
        ("a platform enum constant given a number",
         re.compile(rf"\b{prefixes}\w+\s*=\s*{number}")),
        ("a one-letter PTE bit", re.compile(r"^\s*#\s*define\s+[VTLRCWXUGD]\s+0x", re.I)),
        ("a CP0 register by number", re.compile(r"\bcase\s+\d+\s*\*\s*8\s*\+")),
        ("a device register window by number", re.compile(r"\boff\s*>=\s*0x\d+")),
    ]
    found = hits(pats, only=lambda p: p.suffix != ".py")
    # assembler: CP2 and CP0 registers by number (use mtc2n/mfc0n with hwdesc.h names)
    # (not the executor fuzzer's seeds: instruction words, any register on purpose)
    found += hits([("a CP0/CP2 register by number in assembler",
                    re.compile(r"^\s*m[tf]c[02]\s+\$\w+\s*,\s*\$\d+"))],
                  only=lambda p: p.suffix == ".S" and not p.name.startswith("exec_"))
    assert not found, "these facts are the spec's (hwdesc.h):\n" + "\n".join(found)


def test_builtin_platform_is_generated():
    """platform.c builds no device tree by hand: the built-in DTB is the
    spec's (emulator/platform.yaml, compiled into hwdesc_dtb.c)."""
    text = (EMU_DIR / "src" / "platform.c").read_text()
    assert "fdt_begin_node" not in text and "hwdesc_dtb" in text


def test_one_bare_metal_runtime():
    """Start-up code, exception vectors and linker scripts of TSAR programs
    live in emulator/runtime only (QEMU's and Malta's sides are their own)."""
    others = {"emulator/bench/plat_malta.S", "emulator/bench/plat_user.S",
              "emulator/diff/harness/crt_qemu.S",
              # a minimal raw ELF for the ELF loader's fuzzer, not a program
              "emulator/fuzz/seeds/elf_hello.S"}
    starts, vectors, scripts = [], [], []
    for p in sources():
        rel = p.relative_to(ROOT).as_posix()
        if rel.startswith("emulator/runtime/") or rel in others:
            continue
        text = p.read_text(errors="replace")
        if p.suffix == ".S" and re.search(r"^\s*\.globl\s+_start\b", text, re.M):
            starts.append(rel)
        if p.suffix == ".S" and re.search(r"\.org\s+0x180|\.space\s+0x180", text):
            vectors.append(rel)
        if p.suffix == ".ld" and "ENTRY(_start)" in text and "harness/link.ld" not in rel \
                and "bench/malta.ld" not in rel and "bench/user.ld" not in rel:
            scripts.append(rel)
    assert not starts and not vectors and not scripts, (starts, vectors, scripts)
    for gone in ("tests/baremetal/regs.h", "tests/baremetal/crt0.S", "tests/baremetal/link.ld",
                 "bench/tsar.ld"):
        assert not (EMU_DIR / gone).exists(), gone


@pytest.mark.skipif(not (shutil.which("dtc") and shutil.which("mipsel-linux-gnu-gcc")),
                    reason="needs dtc and mipsel-linux-gnu-gcc")
def test_a_moved_device_moves_the_emulator_and_its_programs(tmp_path):
    """HW_SPEC with the TTY and the simhelper elsewhere: the emulator's
    built-in platform, the runtime and a bare-metal test all follow."""
    spec = tmp_path / "moved.yaml"
    spec.write_text(f"""extends: {EMU_DIR / 'platform.yaml'}
platform:
  devices:
    - name: tty
      base: 0x15000000
    - name: simhelper
      base: 0x1e000000
""")
    build = tmp_path / "build"
    for target in ("all", "tests"):
        r = subprocess.run(["make", "-s", "-j2", "-C", str(EMU_DIR), f"BUILD={build}",
                            f"HW_SPEC={spec}", target], capture_output=True, text=True,
                           timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([str(build / "bin" / "tsar-emu"), "-v",
                        str(build / "emulator" / "tests" / "t_hello.elf")],
                       capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"hello from tsar\n"
    assert b"tty@0x15000000+0x10" in r.stderr and b"simhelper@0x1e000000" in r.stderr
