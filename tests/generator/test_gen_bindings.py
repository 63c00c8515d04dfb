"""Device properties (platform.devices[].properties) and the layers'
bindings: and kbuild: sections; nothing generic names a board."""

from __future__ import annotations

import re

from gen_helpers import ROOT
from generator.bindings import Binding, Prop, dts_lines
from test_gen_layers import gen, real_project
from test_gen_spec import expect, spec_errors


def test_unknown_property_names_file_line_and_key(proj):
    proj.edit("        pti_count: 1", "        pti_cnt: 1")
    err = spec_errors(proj)
    expect(err, proj, "pti_cnt: 1", "platform.devices[0].properties.pti_cnt",
           "unknown property 'pti_cnt' of soclib,vci_xicu (did you mean 'pti_count'?); "
           "overrides/tsar/layer.yaml declares: pti_count, hwi_count, wti_count, cpu_irq_line")


def test_missing_required_property(proj):
    proj.edit("        hwi_count: 3\n", "")
    err = spec_errors(proj)
    expect(err, proj, "      properties:", "platform.devices[0].properties",
           "missing required property 'hwi_count' (hardware interrupt inputs) of device "
           "'xicu' (soclib,vci_xicu, overrides/tsar/layer.yaml)")


def test_properties_of_a_device_no_layer_binds(proj):
    proj.edit("      stdout: true", "      stdout: true\n      properties: {baud: 9600}")
    err = spec_errors(proj)
    expect(err, proj, "properties: {baud: 9600}", "platform.devices[1].properties",
           "device 'tty': no layer declares properties of soclib,vci_multi_tty")


def test_property_type_range_and_spec_limit(proj):
    proj.edit("        pti_count: 1", "        pti_count: many")
    proj.edit("        cpu_irq_line: 0", "        cpu_irq_line: 7")
    err = spec_errors(proj)
    expect(err, proj, "pti_count: many", "platform.devices[0].properties.pti_count",
           "expected an integer >= 0, found 'many'")
    expect(err, proj, "cpu_irq_line: 7", "platform.devices[0].properties.cpu_irq_line",
           "expected an integer in 0..5, found 7")
    proj.edit("        pti_count: many", "        pti_count: 1")
    proj.edit("        cpu_irq_line: 7", "        cpu_irq_line: 3")
    proj.edit("    hw_irq_lines: 6", "    hw_irq_lines: 2")
    err = spec_errors(proj)
    expect(err, proj, "cpu_irq_line: 3", "platform.devices[0].properties.cpu_irq_line",
           "cpu_irq_line 3 does not exist: isa.cp0.hw_irq_lines is 2")


def test_interrupts_counted_by_the_binding(proj):
    proj.edit("        hwi_count: 3", "        hwi_count: 1")
    err = spec_errors(proj)
    expect(err, proj, "interrupts: [1]", "platform.devices[2].interrupts[0]",
           "input 1 of 'blockdevice' does not exist: interrupt controller 'xicu' has "
           "hwi_count 1 (inputs 0..0)")


def test_property_error_in_a_delta_names_the_delta(proj):
    (proj.path / "board.yaml").write_text(
        "extends: spec.yaml\nplatform:\n  devices:\n"
        "    - {name: xicu, properties: {pti_count: 1, wti_cnt: 2}}\n")
    r = proj.run("board.yaml")
    assert r.rc == 2
    assert ("error: board.yaml:4: platform.devices[0].properties.wti_cnt: unknown property "
            "'wti_cnt'") in r.err


def test_malformed_binding_is_a_layer_error(proj):
    path = proj.path / "overrides/tsar/layer.yaml"
    path.write_text(path.read_text().replace("{type: int, min: 0, dts: \"soclib,pti-count\"",
                                             "{type: integer, min: 0, dts: \"soclib,pti-count\""))
    r = proj.run()
    assert r.rc == 2
    line = proj.line_of("pti_count: {type: integer", path)
    assert f"overrides/tsar/layer.yaml:{line}: bindings.soclib,vci_xicu.properties.pti_count.type: " \
           "expected one of int, bool, string, int-list, found string 'integer'" in r.err


def test_dts_lines_follow_the_binding():
    b = Binding("v,dev", "overrides/x", {
        "n": Prop("n", "int", dts="v,n"), "flag": Prop("flag", "bool", dts="v,flag"),
        "off": Prop("off", "bool", dts="v,off"), "label": Prop("label", "string", dts="label"),
        "lst": Prop("lst", "int-list", dts="v,list"), "code_only": Prop("code_only", "int")})
    dev = {"compatible": ["v,dev"], "properties": {"lst": [1, 2], "label": "a b", "n": 3,
                                                   "flag": True, "off": False, "code_only": 1}}
    assert dts_lines({"v,dev": b}, dev) == ["v,n = <3>;", "v,flag;", 'label = "a b";',
                                             "v,list = <1 2>;"]


def test_layer_kbuild_options(tmp_path):
    dest = real_project(tmp_path)
    rc, err = gen(dest)
    assert rc == 0, err
    drivers = (dest / "out/arch/tsar/drivers/Makefile").read_text()
    assert "obj-$(CONFIG_TSAR_VCI_BLOCK_DEVICE) += vci_block_device.o" in drivers
    assert "obj-y += xicu.o" in drivers
    layer = dest / "overrides/tsar/layer.yaml"
    layer.write_text(layer.read_text().replace(": TSAR_VCI_BLOCK_DEVICE", ": TSAR_DISK"))
    rc, err = gen(dest)
    assert rc == 2
    line = next(n for n, text in enumerate(layer.read_text().splitlines(), 1) if "TSAR_DISK" in text)
    assert (f"overrides/tsar/layer.yaml:{line}: kbuild.drivers/vci_block_device.o: option TSAR_DISK "
            "is not defined in a Kconfig file of overrides/tsar") in err


def test_generic_parts_name_no_board():
    """Board devices and options belong to the layers, not to templates/ or generator/."""
    boards = re.compile(r"tsar|soclib|xicu|vci_|simhelper|mipssim|qmips", re.IGNORECASE)
    hits = []
    for base in ("templates", "generator"):
        for p in sorted((ROOT / base).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts:
                for n, line in enumerate(p.read_text(errors="replace").splitlines(), 1):
                    if boards.search(line) or boards.search(p.name):
                        hits.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)
