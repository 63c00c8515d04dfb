"""Spec inheritance (extends:), derived fields and hostile input."""

from __future__ import annotations

import time

from generator.spec import load_spec


def delta(proj, text, name="board.yaml"):
    return proj.write(name, "extends: spec.yaml\n" + text)


def test_delta_inherits_and_overrides(proj):
    delta(proj, "kernel:\n  hz: 250\nplatform:\n  name: board2\n")
    d = load_spec(proj.path / "board.yaml").data
    assert d["kernel"]["hz"] == 250
    assert d["kernel"]["config"][0] == "CONFIG_SYSVIPC=y"   # inherited list
    assert d["platform"]["name"] == "board2"
    assert d["platform"]["model"].startswith("UPMC")        # sibling key kept
    assert d["mmu"]["page_size"] == 4096


def test_named_list_items_merge_by_name(proj):
    delta(proj, "platform:\n  devices:\n    - {name: tty, base: 0x15000000}\n"
                "    - {name: extra, compatible: [\"a,b\"], base: 0x16000000, size: 4K}\n")
    devs = load_spec(proj.path / "board.yaml").data["platform"]["devices"]
    assert [d["name"] for d in devs] == ["xicu", "tty", "blockdevice", "simhelper", "extra"]
    tty = devs[1]
    assert tty["base"] == 0x15000000 and tty["stdout"] is True and tty["interrupts"] == [0]


def test_error_in_delta_names_the_delta(proj):
    delta(proj, "kernel:\n  hz: 123\n")
    r = proj.run("board.yaml")
    assert r.rc == 2
    assert "error: board.yaml:3: kernel.hz: expected one of 100, 250, 300, 1000, found 123" in r.err


def test_error_in_base_names_the_base(proj):
    proj.edit("dtb_register: a1", "dtb_register: a9")
    delta(proj, "kernel:\n  hz: 250\n")
    r = proj.run("board.yaml")
    assert r.rc == 2
    assert f"error: spec.yaml:{proj.line_of('dtb_register: a9')}: boot.dtb_register:" in r.err


def test_cross_field_error_names_the_file_of_the_value(proj):
    # phys_offset stated in the delta but not a bank base: the delta's line
    delta(proj, "layout:\n  phys_offset: 0x200000\n")
    r = proj.run("board.yaml")
    assert "error: board.yaml:3: layout.phys_offset: PHYS_OFFSET 0x200000" in r.err
    # a bank stated in the base overlapping a device stated in the delta: the delta's line
    proj.write("board.yaml", "extends: spec.yaml\nplatform:\n  devices:\n"
               "    - {name: tty, base: 0x100000}\n")
    r = proj.run("board.yaml")
    assert "error: board.yaml:4: platform.devices[1].base: device 'tty'" in r.err


def test_extends_problems(proj):
    proj.write("a.yaml", "extends: b.yaml\n")
    proj.write("b.yaml", "extends: a.yaml\n")
    r = proj.run("a.yaml")
    assert r.rc == 2 and "circular extends" in r.err and "Traceback" not in r.err
    proj.write("c.yaml", "kernel: {hz: 250}\nextends: missing.yaml\n")
    r = proj.run("c.yaml")
    assert r.rc == 2 and "c.yaml:2: extends: base spec 'missing.yaml' not found" in r.err


def test_base_in_another_directory(proj):
    proj.write("boards/x/board.yaml", "extends: ../../spec.yaml\nkernel:\n  hz: 300\n")
    r = proj.run("boards/x/board.yaml", "-o", "out")
    assert r.rc == 0, r.err


# --- derived values ---------------------------------------------------------

def test_derived_values(proj):
    d = load_spec(proj.spec).data
    assert d["layout"]["kernel_link_address"] == 0xC0001000
    assert d["layout"]["task_size"] == 0xC0000000
    assert d["mmu"]["ptpr_shift"] == 13
    assert d["mmu"]["big_page_size"] == 2 << 20
    assert d["abi"]["elf"]["data"] == "lsb"
    assert d["isa"]["cross_compile"][0] == "mipsel-linux-gnu-"
    assert d["isa"]["endian"]["flag"] == "-EL"


def test_page_offset_alone_moves_everything(proj):
    delta(proj, "layout:\n  page_offset: 0x80000000\n")
    d = load_spec(proj.path / "board.yaml").data
    assert d["layout"]["kernel_link_address"] == 0x80001000
    assert d["layout"]["task_size"] == 0x80000000


def test_big_endian_flips_every_dependent_item(proj):
    delta(proj, "isa:\n  endianness: big\n")
    d = load_spec(proj.path / "board.yaml").data
    assert d["abi"]["elf"]["data"] == "msb"
    assert d["isa"]["endian"] == {"flag": "-EB", "ld_emulation": "elf32btsmip", "elf_data": "msb",
                                  "cpp": "__MIPSEB__"}
    assert d["isa"]["cross_compile"][0] == "mips-linux-gnu-"


def test_geometry_derives_ptpr_and_big_page(proj):
    proj.edit("{name: pt1, entries: 2048, entry_bits: 32, align: 8K}",
              "{name: pt1, entries: 2048, entry_bits: 32, align: 16K}")
    assert load_spec(proj.spec).data["mmu"]["ptpr_shift"] == 14


# --- hostile input ----------------------------------------------------------

def test_huge_spec_refused_quickly(proj):
    with open(proj.spec, "a") as fh:
        fh.write(("# " + "x" * 1000 + "\n") * 30000)   # ~30 MB
    t = time.monotonic()
    r = proj.run()
    assert time.monotonic() - t < 5
    assert r.rc == 2 and "the limit is" in r.err


def test_error_flood_capped(proj):
    text = proj.spec.read_text()
    proj.spec.write_text(text.replace("arch:\n", "arch:\n" + "".join(
        f"  junk{i}: 1\n" for i in range(500)), 1))
    r = proj.run()
    assert r.rc == 2
    assert r.err.count("error: ") == 50 and "... and 450 more errors not shown" in r.err


def test_encoding_error_names_the_real_line(proj):
    raw = proj.spec.read_bytes()
    n = proj.line_of("  hz: 100")
    proj.spec.write_bytes(raw.replace(b"  hz: 100", b"  hz: 100 # \xff\xfe"))
    r = proj.run()
    assert r.rc == 2 and f"spec.yaml:{n}: not UTF-8: byte 0xff" in r.err


def test_alias_bomb_refused_quickly(proj):
    # nested aliases: refused without expanding (the schema stops at the first mismatch)
    bomb = "a0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" + "".join(
        f"a{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}]\n"
        for i in range(1, 9))
    proj.spec.write_text(proj.spec.read_text().replace(
        "    - CONFIG_SYSVIPC=y\n", "    - CONFIG_SYSVIPC=y\n    - *a8\n").replace(
        "arch:\n", "x_bomb:\n" + "".join("  " + line + "\n" for line in bomb.splitlines()) + "arch:\n", 1))
    t = time.monotonic()
    r = proj.run()
    assert time.monotonic() - t < 10
    assert r.rc == 2 and "Traceback" not in r.err


def test_value_count_capped(proj):
    # 40000 aliases of one device: a 320 KB file that would walk into ~10^6 values
    text = proj.spec.read_text().replace("  devices:\n    - name: xicu\n",
                                         "  devices:\n    - &d\n      name: xicu\n", 1)
    text = text.replace("\nboot:\n", "\n" + "    - *d\n" * 40000 + "\nboot:\n", 1)
    proj.spec.write_text(text)
    t = time.monotonic()
    r = proj.run()
    assert time.monotonic() - t < 10
    assert r.rc == 2 and "expands to more than 100000 values" in r.err
