"""The make fragment (generate.py --make-fragment): the spec's values the
Makefile uses, read once per make invocation instead of once per value."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from gen_helpers import ROOT
from generator.makefrag import fragment_text, make_quote, write_fragment
from generator.spec import load_spec


def _vars(text: str) -> dict[str, str]:
    out = {}
    for line in text.splitlines():
        if " :=" in line and not line.startswith("#"):
            name, _, value = line.partition(" :=")
            out[name] = value.strip()
    return out


def test_fragment_of_the_default_spec():
    v = _vars(fragment_text(load_spec(ROOT / "arch-spec.yaml", display="arch-spec.yaml")))
    assert v == {
        "SPEC_FILES": str(ROOT / "arch-spec.yaml"),
        "ARCH_NAME": "tsar", "KERNEL_SERIES": "6.12", "DEFCONFIG": "tsar_defconfig", "PLATFORM": "tsar-monocluster",
        "CROSS_LIST": "mipsel-linux-gnu- mipsel-unknown-elf- mipsel-elf-",
        "SYSCALL_ERRORS": "a3_flag", "MMU_WALKER": "hardware", "UTS_MACHINE": "tsar",
        "BOOTARGS": "console=ttyVTTY0 earlycon", "QEMU_MACHINE": "", "QEMU_CMD": "",
    }


def test_fragment_of_qmips_lists_its_extends_chain():
    v = _vars(fragment_text(load_spec(ROOT / "specs" / "qmips.yaml")))
    assert v["SPEC_FILES"].split() == [str(ROOT / "arch-spec.yaml"),
                                       str(ROOT / "specs" / "qmips.yaml")]
    assert (v["ARCH_NAME"], v["PLATFORM"], v["MMU_WALKER"], v["QEMU_MACHINE"]) == \
        ("qmips", "qmips-mipssim", "software", "mipssim")
    assert v["QEMU_CMD"] == ("qemu-system-mipsel -M mipssim -cpu 24Kc -m 128M -display none "
                             "-monitor none -serial stdio -no-reboot -semihosting")


@pytest.mark.parametrize("value,text", [
    ("console=ttyS0", "console=ttyS0"), ("a#b", r"a\#b"), ("a$b", "a$$b"),
    (" lead", "$() lead"), ("trail ", "trail $()"), ("", ""),
])
def test_make_quote(value, text):
    assert make_quote(value) == text


def test_written_only_when_it_changes(proj, tmp_path):
    target = tmp_path / "spec" / "x.mk"
    spec = load_spec(proj.spec)
    assert write_fragment(spec, target) is True
    inode = target.stat().st_ino
    os.utime(target, (1, 1))
    assert write_fragment(spec, target) is False
    assert target.stat().st_ino == inode and target.stat().st_mtime > 1  # touched, not rewritten
    proj.edit("  bootargs: ", "  bootargs: quiet ")
    assert write_fragment(load_spec(proj.spec), target) is True
    assert "BOOTARGS := quiet " in target.read_text()


def test_bad_spec_writes_nothing(proj, tmp_path):
    proj.edit("  hz: 100", "  hz: fast")
    target = tmp_path / "x.mk"
    r = proj.run("spec.yaml", "--make-fragment", str(target))
    assert r.rc == 2 and "spec.yaml:" in r.err and "kernel.hz" in r.err
    assert not target.exists()


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_makefile_reads_the_spec_once(tmp_path):
    """make includes the fragment (made by one generator run) and uses its values;
    a spec error stops make with the generator's message."""
    show = "show: ; $(info $(ARCH_NAME)|$(PLATFORM)|$(QEMU_RUN))"
    env = dict(os.environ, MAKEFLAGS="")
    run = lambda *a: subprocess.run(  # noqa: E731
        ["make", "-s", "--no-print-directory", f"BUILD={tmp_path}", f"PYTHON={sys.executable}",
         "--eval", show, *a], cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    r = run("show", "SPEC=specs/qmips.yaml")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == ("qmips|qmips-mipssim|qemu-system-mipsel -M mipssim -cpu "
                                        "24Kc -m 128M -display none -monitor none -serial stdio "
                                        f"-no-reboot -semihosting -kernel {tmp_path}/qmips/vmlinux")
    assert (tmp_path / "spec" / "qmips.mk").is_file()
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {ROOT / 'arch-spec.yaml'}\nkernel:\n  hz: fast\n")
    r = run("show", f"SPEC={bad}")
    assert r.returncode != 0
    assert f"{bad}:3: kernel.hz: expected one of 100, 250, 300, 1000" in r.stderr
    makefile = (ROOT / "Makefile").read_text()
    assert "spec-field.py" not in makefile and "qemu-cmd.py" not in makefile.replace(
        "see scripts/qemu-cmd.py", "")
