"""generate.py SPEC --hwdesc DIR: the board's hardware description
(generator/hwdesc.py) follows the spec and the layers' register maps."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def hwdesc(spec: Path, out: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "generate.py"), str(spec), "--hwdesc",
                           str(out), "--quiet"], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def macros(header: str) -> dict[str, str]:
    return dict(re.findall(r"^#define (\w+) (.*?)(?:\s+/\*.*)?$", header, re.M))


needs_dtc = pytest.mark.skipif(not shutil.which("dtc"), reason="needs dtc")


@needs_dtc
def test_header_and_dtb_of_the_emulator_platform(tmp_path):
    r = hwdesc(ROOT / "emulator" / "platform.yaml", tmp_path)
    assert r.returncode == 0, r.stderr
    m = macros((tmp_path / "hwdesc.h").read_text())
    # devices (spec), their registers (overrides/tsar/_registers.yaml), mmu, cp0
    assert m["TTY_BASE"] == "HWDESC_U(0x14000000)" and m["TTY_IRQ"] == "0"
    assert m["SIMHELPER_END_WITH_RETVAL"] == "0x4"
    assert m["XICU_PTI_COUNT"] == "1" and m["XICU_DT_PTI_COUNT"] == '"soclib,pti-count"'
    assert m["PTE_V"] == "HWDESC_U(0x80000000)" and m["PTE_SW_SWAP"] == "HWDESC_U(0x40000)"
    assert m["MMU_FAULT_READ"] == "HWDESC_U(0x1000)" and m["CP2_DEBUG_MASK"] == "30"
    assert m["CP0_EBASE_REG"] == "15" and m["CP0_EBASE_SEL"] == "1"
    assert m["HW_CPUS"] == "1"
    dts = (tmp_path / "tsar-monocluster.dts").read_text()
    assert 'bootargs = "console=ttyVTTY0";' in dts
    assert "tty@14000000" in dts
    assert "hwdesc_dtb[]" in (tmp_path / "hwdesc_dtb.c").read_text()


def test_header_is_c_and_assembler(tmp_path):
    if not shutil.which("dtc"):
        pytest.skip("needs dtc")
    assert hwdesc(ROOT / "emulator" / "platform.yaml", tmp_path).returncode == 0
    c = tmp_path / "t.c"
    c.write_text('#include "hwdesc.h"\n_Static_assert(PTE_V == 0x80000000u, "");\n'
                 "_Static_assert((~PTE_W >> 31) == 1u, \"unsigned\");\n"
                 "unsigned long long m = (1ull << MMU_PHYS_ADDR_BITS) - 1;\n")
    r = subprocess.run(["gcc", "-fsyntax-only", "-Wall", "-Wextra", "-I", str(tmp_path), str(c)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    s = tmp_path / "t.S"
    s.write_text('#include "hwdesc.h"\n\t.word PTE_V | PTE_C, TTY_BASE + TTY_WRITE, CP2_MODE\n')
    r = subprocess.run(["gcc", "-c", "-o", str(tmp_path / "t.o"), "-I", str(tmp_path), str(s)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@needs_dtc
def test_a_moved_device_flows_into_header_and_dtb(tmp_path):
    """A spec that moves the TTY and renumbers a PTE bit gets a header and a
    built-in DTB that say so (nothing else restates them)."""
    spec = tmp_path / "moved.yaml"
    spec.write_text(f"""extends: {ROOT / 'emulator' / 'platform.yaml'}
platform:
  devices:
    - name: tty
      base: 0x15000000
""")
    out = tmp_path / "hw"
    r = hwdesc(spec, out)
    assert r.returncode == 0, r.stderr
    m = macros((out / "hwdesc.h").read_text())
    assert m["TTY_BASE"] == "HWDESC_U(0x15000000)"
    assert m["XICU_BASE"] == "HWDESC_U(0x10000000)"
    assert "tty@15000000" in (out / "tsar-monocluster.dts").read_text()
    data = (out / "hwdesc_dtb.c").read_text()
    assert "0x15, 0x00, 0x00, 0x00" in data.replace("\n    ", " ")


@needs_dtc
def test_register_maps_come_from_the_layer(tmp_path):
    """A register offset changed in the layer's _registers.yaml changes the
    header; a malformed map or two facts with one macro name are refused."""
    proj = tmp_path / "p"
    for d in ("generator", "templates", "overrides"):
        shutil.copytree(ROOT / d, proj / d, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "generate.py", proj)
    shutil.copy(ROOT / "arch-spec.yaml", proj)
    (proj / "emulator").mkdir()
    shutil.copy(ROOT / "emulator" / "platform.yaml", proj / "emulator")
    regs = proj / "overrides" / "tsar" / "_registers.yaml"
    regs.write_text(regs.read_text().replace("end_with_retval: {offset: 0x04",
                                             "end_with_retval: {offset: 0x24"))
    r = subprocess.run([sys.executable, "generate.py", "emulator/platform.yaml", "--hwdesc",
                        str(tmp_path / "hw"), "-q"], cwd=proj, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert macros((tmp_path / "hw" / "hwdesc.h").read_text())["SIMHELPER_END_WITH_RETVAL"] == "0x24"
    regs.write_text(regs.read_text().replace("sigint: {offset: 0x14", "base: {offset: 0x14"))
    r = subprocess.run([sys.executable, "generate.py", "emulator/platform.yaml", "--hwdesc",
                        str(tmp_path / "hw2"), "-q"], cwd=proj, capture_output=True, text=True)
    assert r.returncode == 2
    assert "macro SIMHELPER_BASE is also" in r.stderr
    assert not (tmp_path / "hw2" / "hwdesc.h").exists()


def _copy_project(dest: Path) -> Path:
    for d in ("generator", "templates", "overrides"):
        shutil.copytree(ROOT / d, dest / d, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "generate.py", dest)
    shutil.copy(ROOT / "arch-spec.yaml", dest)
    return dest


def test_kernel_drivers_get_the_register_maps(tmp_path):
    """The kernel tree's asm/device-registers.h carries every register map of
    the layers with the names hwdesc.h gives the emulator, and follows a
    changed offset; a duplicate key in a _registers.yaml is refused with the
    file and line, nothing written."""
    proj = _copy_project(tmp_path / "p")
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "generate.py", "arch-spec.yaml", "-o", str(out), "-q"],
                       cwd=proj, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    header = out / "arch" / "tsar" / "include" / "asm" / "device-registers.h"
    kernel = dict(re.findall(r"^#define (\w+)\t+(\S+)", header.read_text(), re.M))
    assert kernel["BDEV_BUFFER_EXT"] == "0x20" and kernel["XICU_FUNC_SHIFT"] == "7"
    assert kernel["SIMHELPER_END_WITH_RETVAL"] == "0x4" and kernel["TTY_STATUS_RX"] == "1"

    regs = proj / "overrides" / "tsar" / "_registers.yaml"
    regs.write_text(regs.read_text().replace("buffer_ext: {offset: 0x20",
                                             "buffer_ext: {offset: 0x28"))
    r = subprocess.run([sys.executable, "generate.py", "arch-spec.yaml", "-o", str(out), "-q"],
                       cwd=proj, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "#define BDEV_BUFFER_EXT\t\t\t\t0x28" in header.read_text()

    before = header.read_text()
    text = regs.read_text()
    line = text[:text.index("    lba: {offset: 0x04")].count("\n") + 2
    regs.write_text(text.replace("    lba: {offset: 0x04", "    lba: {offset: 0x04}\n    lba: "
                                 "{offset: 0x04", 1))
    r = subprocess.run([sys.executable, "generate.py", "arch-spec.yaml", "-o", str(out), "-q"],
                       cwd=proj, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert f"overrides/tsar/_registers.yaml:{line}" in r.stderr and "duplicate key 'lba'" in \
        r.stderr, r.stderr
    assert "Traceback" not in r.stderr and header.read_text() == before


def test_no_driver_restates_a_register_offset():
    """No hand-written kernel file of a layer defines a device register's
    offset itself: drivers use asm/device-registers.h."""
    from generator.hwdesc import REGISTERS_FILE
    import yaml
    offsets = {}
    for regs in ROOT.glob(f"overrides/*/{REGISTERS_FILE}"):
        for body in (yaml.safe_load(regs.read_text()) or {}).values():
            for name, item in (body.get("registers") or {}).items():
                off = item["offset"] if isinstance(item, dict) else item
                offsets.setdefault(name.upper(), set()).add(off)
    assert offsets
    found = []
    for src in sorted(ROOT.glob("overrides/**/*.[chS]")):
        for n, line in enumerate(src.read_text(errors="replace").splitlines(), 1):
            m = re.match(r"\s*#\s*define\s+\w*?_?([A-Z][A-Z0-9_]*)\s+\(?(0x[0-9a-fA-F]+|\d+)\b",
                         line)
            if not m:
                continue
            value = int(m.group(2), 0)
            name = re.match(r"\s*#\s*define\s+(\w+)", line).group(1)
            for reg, offs in offsets.items():
                if (name == reg or name.endswith("_" + reg)) and value in offs:
                    found.append(f"{src.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "use asm/device-registers.h (the layer's _registers.yaml):\n" + \
        "\n".join(found)
