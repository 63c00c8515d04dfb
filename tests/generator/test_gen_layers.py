"""Override layers, cross-layer extends, blocks, the spec/layer contract,
computed Kbuild lists and stubs of unported responsibilities."""

from __future__ import annotations

import pytest

from gen_helpers import ROOT

LAYERS = "  uts_machine: tsar\n"


def with_layers(proj, *names):
    """The spec's layers; a layer directory the test made gets its (empty) layer.yaml."""
    for name in names:
        layer = proj.path / "overrides" / name
        if layer.is_dir() and not (layer / "layer.yaml").exists():
            proj.write(f"overrides/{name}/layer.yaml", f"description: the {name} layer\n")
    proj.edit(LAYERS, LAYERS + f"  layers: [{', '.join(names)}]\n")


def test_later_layer_wins_and_lower_ones_fill_in(proj):
    proj.write("overrides/fam/include/asm/fam.h", "/* SPDX-License-Identifier: GPL-2.0 */\nfam\n")
    proj.write("overrides/fam/include/asm/io.h", "/* SPDX-License-Identifier: GPL-2.0 */\nfam io\n")
    proj.write("overrides/fam/include/asm/pte.h", "/* SPDX-License-Identifier: GPL-2.0 */\nfam pte\n")
    with_layers(proj, "fam", "tsar")
    r = proj.run()
    assert r.rc == 0, r.err
    assert proj.out("include/asm/fam.h").endswith("fam\n")              # only in the lower layer
    assert "an added hand-written header" in proj.out("include/asm/io.h")  # the arch layer wins
    assert proj.out("include/asm/pte.h").endswith("fam pte\n")          # layer beats template
    assert "Copied by portkit from overrides/fam/include/asm/fam.h" in proj.out("include/asm/fam.h")


def test_extends_parent_template_across_layers(proj):
    # fam extends the template; the arch layer extends fam's file through parent_template
    proj.write("overrides/fam/include/asm/page.h.j2",
               '{% extends "templates/include/asm/page.h.j2" %}\n'
               "{% block geometry %}\n#define FAMILY_GEOMETRY 1\n{% endblock %}\n")
    proj.write("overrides/tsar/include/asm/page.h.j2",
               "{% extends parent_template %}\n"
               "{% block layout %}\n#define ARCH_LAYOUT 2\n{% endblock %}\n")
    with_layers(proj, "fam", "tsar")
    r = proj.run()
    assert r.rc == 0, r.err
    page = proj.out("include/asm/page.h")
    assert "#define FAMILY_GEOMETRY 1" in page and "#define ARCH_LAYOUT 2" in page
    assert "PAGE_SHIFT" not in page and "PAGE_OFFSET" not in page
    assert "extending overrides/fam/include/asm/page.h.j2" in page.replace("\n * ", " ")


def test_extending_a_missing_block_is_an_error(proj):
    proj.write("overrides/tsar/include/asm/page.h.j2",
               '{% extends "templates/include/asm/page.h.j2" %}\n\n'
               "{% block layuot %}\nx\n{% endblock %}\n")
    r = proj.run()
    assert r.rc == 2
    assert ("error: overrides/tsar/include/asm/page.h.j2:3: block 'layuot' does not exist in "
            "templates/include/asm/page.h.j2 (blocks there: geometry, layout)") in r.err
    assert not proj.outdir.exists()


def test_parent_template_without_a_parent(proj):
    proj.write("overrides/tsar/include/asm/lonely.h.j2", "{% extends parent_template %}\n")
    r = proj.run()
    assert r.rc == 2 and "lonely.h.j2:1: extends parent_template, but no lower layer" in r.err


def test_missing_layer_directory_names_the_spec_line(proj):
    with_layers(proj, "nope", "tsar")
    r = proj.run()
    assert r.rc == 2
    assert f"spec.yaml:{proj.line_of('layers:')}: arch.layers[0]: override layer directory " \
           "overrides/nope/ does not exist" in r.err


# --- the contract -----------------------------------------------------------

def contract_layer(proj, text):
    """The fixture's layer.yaml (its bindings kept) with ``text`` added."""
    old = (proj.path / "overrides/tsar/layer.yaml").read_text()
    proj.write("overrides/tsar/layer.yaml", old + text)


def test_contract_refuses_unimplemented_value(proj):
    contract_layer(proj, "provides:\n  mmu: [include/asm/io.h]\nimplements:\n  mmu.walker: [hardware]\n"
                   "  mmu.tlb_coherent: [true]\n  arch.kernel_series: ['6.1']\n")
    assert proj.run().rc == 0
    proj.edit("  tlb_coherent: true", "  tlb_coherent: false")
    r = proj.run()
    assert r.rc == 2
    assert (f"error: spec.yaml:{proj.line_of('tlb_coherent: false')}: mmu.tlb_coherent: the spec "
            "asks for false, which no layer implements (overrides/tsar implements true)") in r.err


def test_contract_refuses_undeclared_key_of_a_provided_responsibility(proj):
    contract_layer(proj, "provides:\n  mmu: [include/asm/io.h]\n")
    r = proj.run()
    assert r.rc == 2 and "mmu.walker: the spec asks for hardware, but no layer states" in r.err
    assert "overrides/tsar provide(s) TLB/MMU fault handling" in r.err


def test_contract_relies_on_names_the_spec_line_and_layer(proj):
    contract_layer(proj, "relies_on:\n  mmu.pte_bits: [present, dirty]\n  abi.frame: [epc]\n")
    assert proj.run().rc == 0
    proj.edit("    dirty:", "    dirt:")
    r = proj.run()
    assert r.rc == 2
    assert (f"spec.yaml:{proj.line_of('pte_bits:')}: mmu.pte_bits: layer overrides/tsar relies on "
            "dirty (relies_on in overrides/tsar/layer.yaml), which the spec no longer has") in r.err


def test_contract_provided_file_must_exist(proj):
    contract_layer(proj, "provides:\n  console: [drivers/tty.c]\n")
    r = proj.run()
    assert r.rc == 2 and "provides console: file overrides/tsar/drivers/tty.c does not exist" in r.err


def test_malformed_layer_yaml(proj):
    contract_layer(proj, "provides:\n  teleport: [x.c]\nimplemnts: {}\n")
    r = proj.run()
    assert r.rc == 2 and "unknown key 'implemnts'" in r.err and "unknown responsibility 'teleport'" in r.err


# --- the real project: TSAR's layers ------------------------------------------

@pytest.mark.parametrize("delta,message", [
    # The sister spec on TSAR's layers: the CP2 walker's code cannot serve a software TLB.
    ("extends: ../specs/qmips.yaml\narch:\n  layers: [mips32, mmu-cp2, tsar]",
     "mmu.walker: the spec asks for software, which no layer implements (overrides/mmu-cp2 "
     "implements hardware; overrides/tsar implements hardware)"),
    ("isa:\n  fpu: hard", "isa.fpu: the spec asks for hard, which no layer implements "
                          "(overrides/mips32 implements none)"),
    ("isa:\n  endianness: big", "isa.endianness: the spec asks for big, which no layer implements"),
    ("mmu:\n  tlb_coherent: false", "mmu.tlb_coherent: the spec asks for false, which no layer "
                                    "implements (overrides/mmu-cp2 implements true)"),
    # 4 outputs per CPU, 5-bit output indexes: one XICU serves at most 8 CPUs
    ("platform:\n  cpus: {count: 9}", "platform.cpus.count: the spec asks for 9"),
    ("abi:\n  frame: !replace\n    - {name: regs, words: 32, user: true}",
     "abi.frame: layer overrides/mips32 relies on args, lo, hi, epc"),
])
def test_tsar_contract_refusals(tmp_path, delta, message):
    import shutil
    import subprocess
    import sys
    spec = ROOT / "tests" / f"_contract_{tmp_path.name}.yaml"
    spec.write_text(delta + "\n" if delta.startswith("extends:")
                    else f"extends: ../arch-spec.yaml\n{delta}\n")
    try:
        p = subprocess.run([sys.executable, str(ROOT / "generate.py"), str(spec), "-o",
                            str(tmp_path / "out")], capture_output=True, text=True)
    finally:
        spec.unlink()
    assert p.returncode == 2, p.stderr
    assert message in p.stderr and "nothing written" in p.stderr
    assert not (tmp_path / "out").exists()
    shutil.rmtree(tmp_path, ignore_errors=True)


# --- computed Kbuild lists and stubs -----------------------------------------

def real_project(tmp_path):
    """A copy of the real templates and layers (for the Kbuild and stub tests)."""
    import shutil
    dest = tmp_path / "real"
    for d in ("templates", "overrides", "generator"):
        shutil.copytree(ROOT / d, dest / d, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "arch-spec.yaml", dest / "arch-spec.yaml")
    return dest


def gen(dest, *args):
    from generator.cli import main
    import contextlib
    import io
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = main([str(dest / "arch-spec.yaml"), "-o", str(dest / "out"), *args], root=dest)
    return rc, err.getvalue()


def test_kbuild_lists_follow_the_files(tmp_path):
    dest = real_project(tmp_path)
    rc, err = gen(dest)
    assert rc == 0, err
    arch = dest / "out/arch/tsar"
    kmake = (arch / "kernel/Makefile").read_text()
    # head.o first (the image starts with it), then the rest sorted
    assert "\nobj-y += head.o\nobj-y += count_clocksource.o\n" in kmake
    assert "obj-y += entry.o" in kmake and "obj-y += reset.o" in kmake
    assert "obj-y += xicu.o" in (arch / "drivers/Makefile").read_text()
    # remove a file, add one, drop a whole directory: the lists follow
    (dest / "overrides/tsar/kernel/reset.c").unlink()
    (dest / "overrides/tsar/kernel/extra.c").write_text("// SPDX-License-Identifier: GPL-2.0\n")
    for f in (dest / "overrides/tsar/drivers").iterdir():
        f.unlink()
    (dest / "overrides/tsar/layer.yaml").write_text(
        (dest / "overrides/tsar/layer.yaml").read_text()
        .replace("  irqchip: [kernel/irq.c, drivers/xicu.c]\n", "  irqchip: [kernel/irq.c]\n")
        .replace("  timer: [kernel/time.c, drivers/xicu.c]\n", "  timer: [kernel/time.c]\n")
        .replace("  smp: [kernel/smp.c.j2, kernel/head.S.j2, drivers/xicu.c]\n",
                 "  smp: [kernel/smp.c.j2, kernel/head.S.j2]\n")
        .replace("  console: [drivers/vci_tty.c.j2]\n", "")
        .replace("  poweroff: [kernel/reset.c, drivers/simhelper.c]\n", "")
        .replace("  drivers/vci_block_device.o: TSAR_VCI_BLOCK_DEVICE\n", "")
        .replace("  drivers/vci_multi_nic.o: TSAR_VCI_MULTI_NIC\n", ""))
    rc, err = gen(dest, "--force")
    assert rc == 0, err
    kmake = (arch / "kernel/Makefile").read_text()
    assert "reset.o" not in kmake and "obj-y += extra.o" in kmake
    assert not (arch / "drivers").exists()
    assert "drivers/" not in (arch / "Kbuild").read_text()
    # the responsibilities nobody provides any more are stubs, listed like any file
    assert "obj-y += stub_console.o" in kmake and "obj-y += stub_poweroff.o" in kmake
    stub = (arch / "kernel/stub_poweroff.c").read_text()
    assert '#warning "portkit stub: power-off is not ported to tsar' in stub
    assert 'portkit_stub_message[] = "portkit stub: power-off is not ported to tsar' in stub
    assert "portkit_stub_poweroff(const char *msg)" in stub
    assert "void machine_power_off(void)" in stub


def test_generic_y_leaves_out_headers_the_arch_has(tmp_path):
    dest = real_project(tmp_path)
    (dest / "overrides/tsar/include/asm").mkdir(parents=True, exist_ok=True)
    (dest / "overrides/tsar/include/asm/string.h").write_text("/* SPDX-License-Identifier: GPL-2.0 */\n")
    rc, err = gen(dest)
    assert rc == 0, err
    kbuild = (dest / "out/arch/tsar/include/asm/Kbuild").read_text()
    assert "generic-y += string.h" not in kbuild and "generic-y += user.h" in kbuild
    # no lib/ sources: no lib/Makefile and no lib/ in the arch Kbuild
    for f in (dest / "overrides/mips32/lib").iterdir():
        f.unlink()
    (dest / "overrides/mips32/layer.yaml").write_text(
        (dest / "overrides/mips32/layer.yaml").read_text().replace("lib/uaccess.S, ", ""))
    rc, err = gen(dest, "--force")
    assert rc == 0, err
    assert not (dest / "out/arch/tsar/lib").exists()
    assert "lib/" not in (dest / "out/arch/tsar/Kbuild").read_text()


def test_tsar_has_no_stubs():
    files = [p.name for p in (ROOT / "generated/arch/tsar/kernel").iterdir()]
    assert not [f for f in files if f.startswith("stub_")]


def test_real_template_blocks_extendable_from_a_layer(tmp_path):
    # A chain: the MMU layer extends the family layer's page.h.j2, which
    # extends the template; each level's parent_template is the one below it.
    dest = real_project(tmp_path)
    rc, err = gen(dest)
    assert rc == 0, err
    before = (dest / "out/arch/tsar/include/asm/page.h").read_text()
    family_block = ("/* Word-at-a-time page routines in assembly (lib/memset.S, lib/memcpy.S). */\n"
                    "void clear_page(void *page);\nvoid copy_page(void *to, void *from);\n")
    assert family_block in before
    (dest / "overrides/mmu-cp2/include/asm/page.h.j2").write_text(
        "{% extends parent_template %}\n{% block clear_page %}\n"
        "void clear_page(void *page); /* mmu */\n{{ super() }}{% endblock %}\n")
    rc, err = gen(dest, "--force")
    assert rc == 0, err
    after = (dest / "out/arch/tsar/include/asm/page.h").read_text()
    body = lambda t: t.split("#ifndef _ASM_TSAR_PAGE_H")[1]  # noqa: E731
    assert body(after) == body(before).replace(
        family_block, "void clear_page(void *page); /* mmu */\n" + family_block)
