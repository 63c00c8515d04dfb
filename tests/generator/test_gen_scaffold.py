"""--new (scaffold) and --status (porting report)."""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

from gen_helpers import ROOT

from generator.cli import main


def real_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "kit"
    for d in ("templates", "overrides", "generator"):
        shutil.copytree(ROOT / d, dest / d, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "arch-spec.yaml", dest / "arch-spec.yaml")
    return dest


def run(root: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    import os
    old = os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(list(args), root=root)
    finally:
        os.chdir(old)
    return rc, out.getvalue(), err.getvalue()


def test_status_tsar_complete(tmp_path):
    root = real_copy(tmp_path)
    rc, out, err = run(root, "--status", "arch-spec.yaml", "--build", str(tmp_path / "none"),
                       "--markdown", "status.md")
    assert rc == 0, err
    assert "12 of 12 needed responsibilities ported, 0 stubs" in out
    for line in ("boot entry               overrides/tsar",
                 "exception vectors        overrides/mips32",
                 "TLB/MMU fault handling   overrides/mmu-cp2",
                 "SMP bring-up             overrides/tsar       kernel/smp.c.j2"):
        assert line in out
    assert "mmu.walker                     hardware                 spec: hardware" in out
    md = (root / "status.md").read_text()
    assert "| boot entry | `overrides/tsar` | `kernel/head.S.j2`, `kernel/setup.c.j2` |" in md


def test_new_scaffold_generates_with_stubs(tmp_path):
    root = real_copy(tmp_path)
    rc, out, err = run(root, "--new", "tsoc")
    assert rc == 0, err
    spec = (root / "tsoc.yaml").read_text()
    assert spec.startswith("# tsoc.yaml: the tsoc port, as a delta over")
    assert "extends: arch-spec.yaml" in spec and "layers: [mips32, mmu-cp2, tsoc]" in spec
    assert (root / "overrides/tsoc/layer.yaml").is_file()
    # refuses to overwrite
    rc, _, err = run(root, "--new", "tsoc")
    assert rc == 2 and "exists; not overwriting it" in err
    rc, _, err = run(root, "--new", "My-SoC")
    assert rc == 2 and "lowercase identifier" in err

    rc, out, err = run(root, "tsoc.yaml", "-o", "out", "-q")
    assert rc == 0, err
    kdir = root / "out/arch/tsoc/kernel"
    stubs = sorted(p.name for p in kdir.glob("stub_*"))
    # the scaffold inherits TSAR's 4 CPUs, so SMP bring-up is needed too
    assert stubs == ["stub_boot.S", "stub_console.c", "stub_irqchip.c", "stub_poweroff.c",
                     "stub_setup.c", "stub_smp.c", "stub_timer.c"]
    assert "obj-y += stub_timer.o" in (kdir / "Makefile").read_text()
    assert not (root / "out/arch/tsoc/drivers").exists()      # no drivers yet, no Makefile
    assert "head.S" not in (kdir / "Makefile").read_text()
    timer = (kdir / "stub_timer.c").read_text()
    assert 'portkit_stub_message[] = "portkit stub: timer and clocksource is not ported to tsoc' in timer
    assert "void __init time_init(void)\n{\n\tPORTKIT_STUB_REACHED();" in timer
    # a reached stub stops in portkit_stub_<key> (where tsar-emu names it)
    assert "portkit_stub_timer(portkit_stub_message)" in timer
    boot = (kdir / "stub_boot.S").read_text()
    assert "SYM_CODE_START_LOCAL(portkit_stub_boot)" in boot
    # nothing machine-specific in the files a porter commits: relative paths only
    for text in (spec, (root / "overrides/tsoc/layer.yaml").read_text()):
        assert str(root) not in text and str(tmp_path) not in text
        assert not re.search(r"(^|[\s=`(])/(?!/)[\w.-]+/", text, re.M), text

    # absolute paths given to --new do not reach the file either
    rc, _, err = run(root, "--new", "asoc", "--from", str(root / "arch-spec.yaml"),
                     str(root / "ports" / "asoc.yaml"))
    assert rc == 0, err
    text = (root / "ports" / "asoc.yaml").read_text()
    assert str(root) not in text and "extends: ../arch-spec.yaml" in text
    assert "make kernel SPEC=ports/asoc.yaml" in text

    rc, out, err = run(root, "--status", "tsoc.yaml", "--build", str(tmp_path / "none"))
    assert rc == 0, err
    assert "6 of 12 needed responsibilities ported, 6 stubs" in out
    for title in ("boot entry", "irqchip", "timer and clocksource", "console", "power-off",
                  "SMP bring-up"):
        assert any(line.startswith(f"  {title}") and "STUB" in line for line in out.splitlines())


def test_status_maps_undefined_symbols(tmp_path):
    root = real_copy(tmp_path)
    build = tmp_path / "b"
    build.mkdir()
    (build / "build.log").write_text(
        "ld: init/main.o: in function `start_kernel':\n"
        "main.c:(.init.text+0x1c): undefined reference to `init_IRQ'\n"
        "ld: main.c:(.init.text+0x24): undefined reference to `time_init'\n"
        "ld: x.o: undefined reference to `mystery_symbol'\n")
    rc, out, err = run(root, "--status", "arch-spec.yaml", "--build", str(build))
    assert rc == 0, err
    assert "irqchip                  init_IRQ" in out
    assert "timer and clocksource    time_init" in out
    assert "(other)                  mystery_symbol" in out


def test_status_shows_contract_violations(tmp_path):
    root = real_copy(tmp_path)
    (root / "hardfpu.yaml").write_text("extends: arch-spec.yaml\nisa:\n  fpu: hard\n")
    rc, out, err = run(root, "--status", "hardfpu.yaml", "--build", str(tmp_path / "none"))
    assert rc == 2
    assert "isa.fpu                        none                     spec: hard  <- NOT IMPLEMENTED" in out
    assert "hardfpu.yaml:3: isa.fpu: the spec asks for hard, which no layer implements" in err
