"""Spec loading, normalization and every validation error class."""

from __future__ import annotations

import pytest

from generator.errors import SpecError
from generator.spec import load_spec, parse_int


# --- loading and normalization ---------------------------------------------

@pytest.mark.parametrize("text,units,value", [
    (4096, False, 4096), ("0x1000", False, 4096), ("4K", True, 4096), ("4k", True, 4096),
    ("2M", True, 2 << 20), ("256M", True, 256 << 20), ("1G", True, 1 << 30),
    ("4KiB", True, 4096), ("0x10K", True, 16 << 10), ("1_000", False, 1000),
    ("4K", False, None), ("4Q", True, None), (True, True, None), (1.5, True, None),
])
def test_parse_int(text, units, value):
    assert parse_int(text, allow_units=units) == value


def test_sizes_hex_and_defaults(proj):
    spec = load_spec(proj.spec)
    d = spec.data
    assert d["mmu"]["page_size"] == 4096
    assert d["mmu"]["big_page_size"] == 2 << 20
    assert d["mmu"]["levels"][0]["align"] == 8192
    assert d["platform"]["memory"][0]["size"] == 256 << 20
    assert d["layout"]["page_offset"] == 0xC0000000
    assert d["layout"]["vmalloc_min_size"] == 128 << 20
    assert d["abi"]["thread_size"] == 8192
    assert d["platform"]["devices"][1]["size"] == 0x10
    # defaults
    assert d["arch"]["overrides"] is None
    assert d["mmu"]["pte_bits"]["present"]["set_by_hw"] is False
    assert d["mmu"]["pte_bits"]["accessed"]["hw"] is None
    assert d["mmu"]["pte_bits"]["present"]["pte1"] is True
    assert d["abi"]["frame"][2]["words"] == 1
    assert d["abi"]["frame"][2]["doc"] is None
    assert d["platform"]["devices"][3]["interrupts"] == []
    assert d["platform"]["devices"][3]["stdout"] is False
    assert d["mmu"]["pte1_ppn"]["word"] == 0
    # the comma inside a quoted flow-mapping value is kept
    assert d["abi"]["frame"][8]["doc"].startswith("syscall number, or -1")
    assert spec.line_of("mmu.page_size") == proj.line_of("  page_size: 4K")
    assert spec.line_of("platform.devices[1].base") == proj.line_of("base: 0x14000000")


def test_size_spellings(proj):
    proj.edit("  page_size: 4K", '  page_size: "0x1000"')
    proj.edit("vmalloc_offset: 8M", "vmalloc_offset: 8388608")
    proj.edit("thread_size: 8K", "thread_size: 0x2000")
    d = load_spec(proj.spec).data
    assert (d["mmu"]["page_size"], d["layout"]["vmalloc_offset"], d["abi"]["thread_size"]) == \
        (4096, 8 << 20, 8192)


def test_dynamic_defaults(proj):
    proj.edit("  defconfig: tsar_defconfig\n", "")
    proj.edit("  uts_machine: tsar\n", "")
    d = load_spec(proj.spec).data
    assert d["arch"]["defconfig"] == "tsar_defconfig"
    assert d["arch"]["uts_machine"] == "tsar"


@pytest.mark.parametrize("conv,a3,neg", [("a3_flag", True, False), ("negative_v0", False, True)])
def test_both_error_conventions_load(proj, conv, a3, neg):
    proj.edit("error_convention: a3_flag", f"error_convention: {conv}")
    from generator.derive import derive
    spec = load_spec(proj.spec)
    assert spec.data["abi"]["syscall"]["error_convention"] == conv
    sc = derive(spec.data)["syscall"]
    assert (sc["a3_flag"], sc["negative_v0"]) == (a3, neg)
    assert proj.run().rc == 0


def test_derived_values(proj):
    from generator.derive import derive
    d = derive(load_spec(proj.spec).data)
    assert (d["page_shift"], d["pgdir_shift"], d["ptrs_per_pgd"], d["ptrs_per_pte"]) == (12, 21, 2048, 512)
    assert (d["pgd_order"], d["pte_bytes"], d["thread_shift"], d["thread_order"]) == (1, 8, 13, 1)
    assert d["phys_addr_mask"] == (1 << 40) - 1
    assert d["pte_mask"]["present"] == 1 << 31 and d["pte_mask"]["dirty"] == 1 << 22
    assert d["pte_sw_bits"] == ["accessed", "special", "protnone", "swap"]
    assert d["pte_hw_set_bits"] == ["local", "remote", "dirty"]
    assert d["pte_bits_sorted"][0][0] == "present"
    assert d["regnum"]["a3"] == 7 and d["regnum"]["fp"] == 30 and d["regnum"]["ra"] == 31
    assert d["kernel_load_phys"] == 0x1000 and d["ram_total"] == 256 << 20
    assert d["frame_offset"]["regs"] == 32 and d["frame_offset"]["orig_a3"] == 4 * 47
    assert d["frame_size"] == 4 * 48
    assert [s["name"] for s in d["user_slots"]] == ["regs", "lo", "hi", "epc", "badvaddr", "status", "cause"]
    assert d["user_words"] == 38 and d["user_offset"]["lo"] == 128
    assert d["pt_regs_reg_offset"]["a0"] == 32 + 16
    assert d["syscall"]["arg_regnums"] == [4, 5, 6, 7]
    assert d["syscall"]["stack_arg_offsets"] == [16, 20, 24, 28]
    assert d["dtb_regnum"] == 5
    assert d["irq_controller"]["name"] == "xicu" and d["stdout_device"]["name"] == "tty"
    assert d["elf_flag_values"] == {"EF_MIPS_ABI2": 0x20}
    assert d["mmu_mode_all"] == 0xF
    assert {"name": "CONFIG_VT", "value": "n", "line": "# CONFIG_VT is not set"} in d["kernel_config"]


@pytest.mark.parametrize("clobbers,clobbered,entry,static", [
    # Nothing clobbered: everything but the results is kept, C keeps s0-s7/fp.
    (None, [], [1, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 28, 31],
     [16, 17, 18, 19, 20, 21, 22, 23, 30]),
    # MIPS o32's caller-saved set (arch-spec.yaml's).
    ("[at, v1, t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, hi, lo]",
     [1, 3, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25], [4, 5, 6, 28, 31],
     [16, 17, 18, 19, 20, 21, 22, 23, 30]),
    # A callee-saved register may be clobbered too: then it is zeroed.
    ("[s0, ra, lo]", [16, 31], [1, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 28],
     [17, 18, 19, 20, 21, 22, 23, 30]),
])
def test_syscall_register_classes(proj, clobbers, clobbered, entry, static):
    from generator.derive import derive
    if clobbers:
        proj.edit("clone_order: backwards", f"clone_order: backwards\n    clobbers: {clobbers}")
    sc = derive(load_spec(proj.spec).data)["syscall"]
    assert sc["clobber_regnums"] == clobbered
    assert sc["entry_regnums"] == entry and sc["static_regnums"] == static
    assert sc["result_regnums"] == [2, 7]
    assert (sc["clobbers_hi"], sc["clobbers_lo"]) == (bool(clobbers and "hi" in clobbers),
                                                      bool(clobbers and "lo" in clobbers))
    # Every general register but zero, k0, k1 and sp is in exactly one class.
    every = sorted(clobbered + entry + static + sc["result_regnums"])
    assert every == [n for n in range(1, 32) if n not in (26, 27, 29)]


def test_negative_v0_keeps_a3(proj):
    from generator.derive import derive
    proj.edit("error_convention: a3_flag", "error_convention: negative_v0")
    proj.edit("clone_order: backwards", "clone_order: backwards\n    clobbers: [t0]")
    sc = derive(load_spec(proj.spec).data)["syscall"]
    assert sc["result_regnums"] == [2] and 7 in sc["entry_regnums"]


# --- errors ------------------------------------------------------------------

def spec_errors(proj) -> str:
    """Run the CLI, assert exit 2 with nothing written, return stderr."""
    r = proj.run()
    assert r.rc == 2, (r.rc, r.out, r.err)
    assert "Traceback" not in r.err
    assert "nothing written" in r.err
    assert not proj.outdir.exists()
    return r.err


def expect(err: str, proj, at: str, path: str, *messages: str) -> None:
    line = proj.line_of(at)
    head = f"spec.yaml:{line}: {path}: "
    matching = [chunk for chunk in err.split("error: ") if chunk.startswith(head)]
    assert matching, f"no error starting {head!r} in:\n{err}"
    for m in messages:
        assert any(m in chunk for chunk in matching), f"{m!r} not in {matching}"


# (edit old, edit new, line containing, key path, message fragments)
# A PMU section for the cases marked True below (the fixture spec has none).
PMU = """    pmu:
      counters: 1
      irq_line: 5
      control_fields:
        exl: {lsb: 0}
        k: {lsb: 1}
        u: {lsb: 3}
        ie: {lsb: 4}
        event: {lsb: 5, width: 6}
      events:
        cycles: 0
"""


CASES = {
    "misspelled key": (
        "  page_size: 4K", "  pagesize: 4K", "pagesize: 4K", "mmu.pagesize",
        ["unknown key 'pagesize' (did you mean 'page_size'?)"]),
    "unknown key": (
        "  hz: 100", "  hz: 100\n  frobnicate: 1", "frobnicate", "kernel.frobnicate",
        ["unknown key 'frobnicate'; allowed keys: hz, config"]),
    "duplicate key": (
        "  page_size: 4K", "  page_size: 4K\n  page_size: 8K", "page_size: 8K", "mmu.page_size",
        ["duplicate key 'page_size' (first given at line"]),
    "wrong type": (
        "  hz: 100", "  hz: fast", "hz: fast", "kernel.hz",
        ["expected one of 100, 250, 300, 1000, found string 'fast'"]),
    "HZ not a kernel choice": (
        "  hz: 100", "  hz: 123", "hz: 123", "kernel.hz", ["expected one of 100, 250, 300, 1000, found 123"]),
    "out of range": (
        "phys_addr_bits: 40", "phys_addr_bits: 80", "phys_addr_bits: 80", "mmu.phys_addr_bits",
        ["expected an integer in 32..64, found 80"]),
    "not a mapping": (
        "  stack_args: {count: 4, offset: 16}", "  stack_args: 4", "stack_args: 4",
        "abi.syscall.stack_args", ["expected a mapping with keys count, offset, found integer 4"]),
    "bool expected": (
        "tlb_coherent: true", "tlb_coherent: 1", "tlb_coherent: 1", "mmu.tlb_coherent",
        ["expected true or false, found integer 1"]),
    "unquoted version": (
        'kernel_series: "6.1"', "kernel_series: 6.1", "kernel_series", "arch.kernel_series",
        ['found number 6.1 (write it quoted: "6.1")']),
    "missing required key": (
        "  thread_size: 8K\n", "", "abi:", "abi.thread_size",
        ["missing required key 'thread_size' (kernel stack (THREAD_SIZE) in bytes) in 'abi'"]),
    "missing key in a list item": (
        "      base: 0x1C000000\n", "", "name: blockdevice", "platform.devices[2].base",
        ["missing key 'base': device 'blockdevice' states size but not base"]),
    "compatible split by a flow list": (
        '["tsar,vci_block_device"]', "[tsar,vci_block_device]", "[tsar,vci_block_device]",
        "platform.devices[2].compatible[0]",
        ["expected a 'vendor,model' string, found string 'tsar'", "quote each string"]),
    "value cut at a comma in a flow mapping": (
        'doc: "syscall number, or -1 when not in a syscall (restart logic)"',
        "doc: syscall number, or -1 when not in a syscall (restart logic)",
        "name: orig_v0", "abi.frame[8].or -1 when not in a syscall (restart logic)",
        ["unknown key", "cut at a comma inside a flow mapping"]),
    "word_bits": (
        "word_bits: 32", "word_bits: 64", "word_bits: 64", "isa.word_bits",
        ["only 32-bit processors are supported for now, found 64"]),
    "pte bits overlap": (
        "accessed:   {bit: 21", "accessed:   {bit: 20", "special:    {bit: 20", "mmu.pte_bits.special.bit",
        ["bit 20 is also used by 'accessed'", "why:"]),
    "pte bit beyond 31": (
        "special:    {bit: 20", "special:    {bit: 40", "special:    {bit: 40", "mmu.pte_bits.special.bit",
        ["bit 40 exceeds 31"]),
    "pte1_ppn overlaps a flag": (
        "swap:       {bit: 18, software: true, pte1: false,", "swap:       {bit: 18, software: true,",
        "pte1_ppn:", "mmu.pte1_ppn", ["PPN bits 0..18 overlap flag bits: swap (bit 18)", "pte1: false"]),
    "pte2_ppn in the flag word": (
        "pte2_ppn: {word: 1, lsb: 0, width: 28}", "pte2_ppn: {word: 0, lsb: 0, width: 28}",
        "pte2_ppn:", "mmu.pte2_ppn", ["of word 0 overlap flag bits"]),
    "ptd1_ptpn over V and T": (
        "ptd1_ptpn: {lsb: 0, width: 28}", "ptd1_ptpn: {lsb: 3, width: 28}", "ptd1_ptpn:",
        "mmu.ptd1_ptpn", ["PTPN bits 3..30 overlap ptd (bit 30)"]),
    "page_size not a power of two": (
        "  page_size: 4K", "  page_size: 3K", "page_size: 3K", "mmu.page_size",
        ["3072 (0xc00) is not a power of two"]),
    "pt2 does not fill a page": (
        "{name: pt2, entries: 512,", "{name: pt2, entries: 256,", "name: pt2", "mmu.levels[1].entries",
        ["a pt2 table is 256 x 8 bytes = 2048 bytes, but page_size is 4096"]),
    "big page size is derived": (
        "  page_size: 4K", "  page_size: 4K\n  big_page_size: 4M", "big_page_size: 4M", "mmu.big_page_size",
        ["'big_page_size' is derived, not stated: page_size x levels[1].entries"]),
    "pt1 does not cover the space": (
        "{name: pt1, entries: 2048,", "{name: pt1, entries: 1024,", "name: pt1", "mmu.levels[0].entries",
        ["pt1 entries x big_page_size = 1024 x 2M = 0x80000000, but the address space is 2^32"]),
    "ptpr_shift is derived": (
        "  page_size: 4K", "  page_size: 4K\n  ptpr_shift: 13", "ptpr_shift: 13", "mmu.ptpr_shift",
        ["'ptpr_shift' is derived, not stated: log2(levels[0].align)"]),
    "page_offset unaligned": (
        "page_offset: 0xC0000000", "page_offset: 0xC0100000", "page_offset: 0xC0100000",
        "layout.page_offset", ["PAGE_OFFSET 0xc0100000 is not aligned to big_page_size (2M)"]),
    "task_size above page_offset": (
        "  page_offset: 0xC0000000", "  page_offset: 0xC0000000\n  task_size: 0xD0000000",
        "task_size:", "layout.task_size",
        ["TASK_SIZE 0xd0000000 is above PAGE_OFFSET 0xc0000000"]),
    "phys_offset not a bank base": (
        "phys_offset: 0x0", "phys_offset: 0x200000", "phys_offset:", "layout.phys_offset",
        ["PHYS_OFFSET 0x200000 is not the base of a RAM bank (bank bases: 0x0)"]),
    "kernel outside RAM": (
        "kernel_phys_start: 0x1000", "kernel_phys_start: 0x20000000", "kernel_phys_start:",
        "layout.kernel_phys_start", ["kernel_phys_start 0x20000000 is not inside any RAM bank"]),
    "kernel not page aligned": (
        "kernel_phys_start: 0x1000", "kernel_phys_start: 0x1800", "kernel_phys_start:",
        "layout.kernel_phys_start", ["kernel_phys_start 0x1800 is not page aligned (4K)"]),
    "link address is derived": (
        "  page_offset: 0xC0000000", "  page_offset: 0xC0000000\n  kernel_link_address: 0xC0001000",
        "kernel_link_address:", "layout.kernel_link_address",
        ["'kernel_link_address' is derived, not stated: page_offset + kernel_phys_start - phys_offset"]),
    "endianness flag stated": (
        "cflags: [-mabi=32", "cflags: [-EL, -mabi=32", "cflags:", "isa.cflags[0]",
        ["'-EL' is derived from isa.endianness (little); remove it"]),
    "linker emulation stated": (
        "ldflags: [-G0]", "ldflags: [-m, elf32ltsmip, -G0]", "ldflags:", "isa.ldflags[0]",
        ["the linker emulation is derived from isa.endianness (little)"]),
    "cross prefix of the other byte order": (
        "  word_bits: 32", "  word_bits: 32\n  cross_compile: [mips-linux-gnu-]", "cross_compile:",
        "isa.cross_compile[0]", ["'mips-linux-gnu-' builds for the other byte order"]),
    "flag injecting make syntax": (
        "ldflags: [-G0]", "ldflags: [-G0, '$(shell touch /tmp/x)']", "ldflags:", "isa.ldflags[1]",
        ["expected a single compiler/linker flag"]),
    "description injecting a line": (
        "  description: TSAR", "  description: \"x\\ninjected := 1\"\n  x_description: TSAR",
        "description:", "arch.description", ["expected one line of text"]),
    "model closing a comment": (
        "  model: UPMC", "  model: \"x */ evil /*\"\n  x_model: UPMC", "model:", "platform.model",
        ["expected one line of text"]),
    "config value with a newline": (
        "    - CONFIG_TMPFS=y", "    - \"CONFIG_TMPFS=y\\nCONFIG_EVIL=y\"", "CONFIG_TMPFS", "kernel.config[10]",
        ["expected a CONFIG_NAME=value line"]),
    "RAM bank unaligned": (
        "- {base: 0x0, size: 256M}", "- {base: 0x0, size: 0x10001000}", "- {base: 0x0, size: 0x10001000}",
        "platform.memory[0].size", ["RAM bank size 0x10001000 is not aligned to big_page_size (2M)"]),
    "lowmem does not fit": (
        "- {base: 0x0, size: 256M}", "- {base: 0x0, size: 1G}", "memory:", "platform.memory",
        ["1G of RAM above phys_offset does not fit in [page_offset, fixmap_top - vmalloc_min_size"
         " - vmalloc_offset) = [0xc0000000, 0xf77ff000)"]),
    "device outside the physical space": (
        "base: 0x1F000000", "base: 0x10000000000", "base: 0x10000000000", "platform.devices[3].base",
        ["device 'simhelper' [0x10000000000, 0x10000000018) is outside the 40-bit physical address space"]),
    "devices overlap": (
        "base: 0x14000000", "base: 0x10000800", "base: 0x10000800", "platform.devices[1].base",
        ["device 'tty' [0x10000800, 0x10000810) overlaps device 'xicu' [0x10000000, 0x10001000)"]),
    "device overlaps RAM": (
        "base: 0x1F000000", "base: 0x100000", ("base: 0x100000", 2), "platform.devices[3].base",
        ["device 'simhelper' [0x100000, 0x100018) overlaps RAM bank 0 [0x0, 0x10000000)"]),
    "interrupt beyond hwi_count": (
        "interrupts: [1]", "interrupts: [3]", "interrupts: [3]", "platform.devices[2].interrupts[0]",
        ["input 3 of 'blockdevice' does not exist: interrupt controller 'xicu' has hwi_count 3"]),
    "no interrupt controller": (
        "interrupt_controller: true", "interrupt_controller: false", "devices:", "platform.devices",
        ["no device has interrupt_controller: true (the board needs one)"]),
    "two interrupt controllers": (
        "      stdout: true", "      stdout: true\n      interrupt_controller: true",
        ("interrupt_controller: true", 2), "platform.devices[1].interrupt_controller",
        ["a second interrupt controller that no device names as its interrupt_parent"]),
    "no stdout": (
        "stdout: true", "stdout: false", "devices:", "platform.devices",
        ["no device has stdout: true (exactly one is required)"]),
    "two stdout": (
        "      interrupts: [1]", "      interrupts: [1]\n      stdout: true", ("stdout: true", 2),
        "platform.devices[2].stdout", ["a second stdout device (the first is 'tty')"]),
    "duplicate device names": (
        "name: simhelper", "name: tty", ("name: tty", 2), "platform.devices[3].name",
        ["duplicate device name 'tty' (also platform.devices[1])"]),
    "thread_size not a power of two": (
        "thread_size: 8K", "thread_size: 12K", "thread_size:", "abi.thread_size",
        ["thread_size 12K must be a power of two >= page_size (4K)"]),
    "thread_size below page_size": (
        "thread_size: 8K", "thread_size: 2K", "thread_size:", "abi.thread_size",
        ["thread_size 2K must be a power of two >= page_size (4K)"]),
    "duplicate frame slot": (
        "{name: hi, user: true}", "{name: lo, user: true}", ("{name: lo, user: true}", 2), "abi.frame[3].name",
        ["duplicate frame slot 'lo' (also abi.frame[2])"]),
    "bad syscall argument register": (
        "arg_registers: [a0, a1, a2, a3]", "arg_registers: [a0, a1, a2, x9]", "arg_registers:",
        "abi.syscall.arg_registers[3]", ["'x9' is not a MIPS o32 register name (argument 4)",
                                         "valid names: zero at v0 v1"]),
    "bad syscall number register": (
        "number_register: v0", "number_register: r2", "number_register:",
        "abi.syscall.number_register", ["'r2' is not a MIPS o32 register name"]),
    "error convention": (
        "error_convention: a3_flag", "error_convention: a3flag", "error_convention:",
        "abi.syscall.error_convention",
        ["expected one of a3_flag, negative_v0, found string 'a3flag' (did you mean 'a3_flag'?)"]),
    "unknown clobbered register": (
        "clone_order: backwards", "clone_order: backwards\n    clobbers: [at, t0, x7, hi]",
        "clobbers:", "abi.syscall.clobbers[2]",
        ["'x7' is not a register a syscall can clobber", "valid names: zero at v0 v1",
         "hi, lo"]),
    "clobbered argument register": (
        "clone_order: backwards", "clone_order: backwards\n    clobbers: [t0, a2]",
        "clobbers:", "abi.syscall.clobbers[1]",
        ["'a2' cannot be clobbered by the syscall: it is argument 3"]),
    "clobbered result register": (
        "clone_order: backwards", "clone_order: backwards\n    clobbers: [v0]",
        "clobbers:", "abi.syscall.clobbers[0]",
        ["'v0' cannot be clobbered by the syscall: it holds the syscall number and the result"]),
    "clobbered stack pointer": (
        "clone_order: backwards", "clone_order: backwards\n    clobbers: [t9, sp]",
        "clobbers:", "abi.syscall.clobbers[1]",
        ["'sp' cannot be clobbered by the syscall: it is the stack pointer"]),
    "clobbered kernel register": (
        "clone_order: backwards", "clone_order: backwards\n    clobbers: [k0]",
        "clobbers:", "abi.syscall.clobbers[0]",
        ["'k0' cannot be clobbered by the syscall: it is reserved for the kernel"]),
    "clobbered register twice": (
        "clone_order: backwards", "clone_order: backwards\n    clobbers: [s8, lo, fp]",
        "clobbers:", "abi.syscall.clobbers[2]",
        ["register 'fp' is listed twice (also abi.syscall.clobbers[0])"]),
    "clobbers not a list of names": (
        "clone_order: backwards", "clone_order: backwards\n    clobbers: [t0, 7]",
        "clobbers:", "abi.syscall.clobbers[1]", ["a register name"]),
    "dtb register": (
        "dtb_register: a1", "dtb_register: a9", "dtb_register:", "boot.dtb_register",
        ["'a9' is not a MIPS o32 register name (DTB pointer)"]),
    "unknown ELF flag": (
        "flags_reject: [EF_MIPS_ABI2]",
        "flags_reject: [EF_MIPS_ABI9]", "flags_reject:", "abi.elf.flags_reject[0]",
        ["unknown e_flags name 'EF_MIPS_ABI9'"]),
    "config set twice": (
        "    - CONFIG_SYSVIPC=y", "    - CONFIG_SYSVIPC=y\n    - CONFIG_SYSVIPC=n", "CONFIG_SYSVIPC=n",
        "kernel.config[1]", ["CONFIG_SYSVIPC is set twice (also kernel.config[0])"]),
    "pmu irq line missing": (
        "      irq_line: 5\n", "", "pmu:", "isa.cp0.pmu.irq_line",
        ["is required when isa.cp0.pmu.counters is not 0"], True),
    "pmu irq line beyond the lines": (
        "hw_irq_lines: 6", "hw_irq_lines: 4", "irq_line: 5", "isa.cp0.pmu.irq_line",
        ["line 5 is not below isa.cp0.hw_irq_lines (4)"], True),
    "pmu event too wide": (
        "cycles: 0", "cycles: 64", "cycles: 64", "isa.cp0.pmu.events.cycles",
        ["64 does not fit the 6-bit event field"], True),
    "pmu control field missing": (
        "        ie: {lsb: 4}\n", "", "control_fields:", "isa.cp0.pmu.control_fields",
        ["has no 'ie' field"], True),
    "pmu counter register missing": (
        "counters: 1", "counters: 2", "registers:", "isa.cp0.registers",
        ["has no 'perfctl1' for counter 1 of isa.cp0.pmu.counters (2)"], True),
    "pmu counter register misplaced": (
        "perfcnt0: [25, 1]", "perfcnt0: [25, 2]", "perfcnt0:", "isa.cp0.registers.perfcnt0",
        ["must be [25, 1] (PerfCtl n at select 2n, PerfCnt n at 2n + 1 of one register)"], True),
}

def add_pmu(proj):
    proj.edit("general_vector_offset: 0x180", "general_vector_offset: 0x180\n" + PMU.rstrip("\n"))
    proj.edit("    registers:\n", "    registers:\n      perfctl0: [25, 0]\n      perfcnt0: [25, 1]\n")


def test_pmu_section_loads(proj):
    add_pmu(proj)
    d = load_spec(proj.spec).data
    assert d["isa"]["cp0"]["pmu"]["events"] == {"cycles": 0}


@pytest.mark.parametrize("case", sorted(CASES))
def test_validation_error(proj, case):
    old, new, at, path, messages, *with_pmu = CASES[case]
    if with_pmu:
        add_pmu(proj)
    proj.edit(old, new)
    err = spec_errors(proj)
    expect(err, proj, at, path, *messages)


def test_all_errors_reported_sorted_by_line(proj):
    proj.edit("  hz: 100", "  hz: fast")
    proj.edit("  page_size: 4K", "  pagesize: 4K")
    proj.edit("dtb_register: a1", "dtb_register: a9")
    err = spec_errors(proj)
    lines = [int(chunk.split(":")[1]) for chunk in err.split("error: ")[1:]]
    assert lines == sorted(lines) and len(lines) >= 4  # + missing mmu.page_size
    assert "errors in spec; nothing written." in err
    expect(err, proj, "mmu:", "mmu.page_size", "missing required key 'page_size'")


def test_yaml_syntax_error(proj):
    proj.edit("  hz: 100", "  hz: [100")
    err = spec_errors(proj)
    assert "spec.yaml:" in err and "YAML syntax error" in err


def test_missing_spec_file(proj):
    r = proj.run("nope.yaml")
    assert r.rc == 2 and "cannot read spec" in r.err and "Traceback" not in r.err


def test_spec_error_raises_specerror(proj):
    proj.edit("  hz: 100", "  hz: fast")
    with pytest.raises(SpecError) as exc:
        load_spec(proj.spec, display="x.yaml")
    d = exc.value.diagnostics[0]
    assert (d.file, d.line, d.path) == ("x.yaml", proj.line_of("hz: fast"), "kernel.hz")


def test_minimal_spec_without_optional_sections(proj):
    import yaml
    data = yaml.safe_load(proj.spec.read_text())
    del data["isa"]["cp0"], data["mmu"]["cp2_registers"], data["mmu"]["mode_bits"]
    del data["abi"]["syscall"]["stack_args"], data["arch"]["defconfig"]
    for key in ("cflags", "aflags", "ldflags", "fpu", "atomics"):
        del data["isa"][key]
    for dev in data["platform"]["devices"]:
        for key in ("pti_count", "wti_count", "cpu_irq_line"):
            dev.get("properties", {}).pop(key, None)
    proj.spec.write_text(yaml.safe_dump(data, sort_keys=False))
    r = proj.run()
    assert r.rc == 0, r.err
    assert "KBUILD_DEFCONFIG := tsar_defconfig" in proj.out("Makefile")


def test_nolibc_declares_the_spec_clobbers():
    """userland/nolibc/arch.h's syscall asm clobbers what arch-spec.yaml's
    abi.syscall.clobbers says the kernel clobbers (and nothing it keeps)."""
    import re
    from pathlib import Path
    from generator.derive import derive
    root = Path(__file__).resolve().parents[2]
    sc = derive(load_spec(root / "arch-spec.yaml").data)["syscall"]
    text = (root / "userland" / "nolibc" / "arch.h").read_text()
    macros = {name: body for name, body in
              re.findall(r"#define (__PORTKIT_SYSCALL_CLOBBERS\w*)((?:.*\\\n)*.*)", text)}
    assert "__PORTKIT_SYSCALL_CLOBBERS" in macros, "no __PORTKIT_SYSCALL_CLOBBERS in arch.h"

    def expand(name, seen=()):
        body = macros[name]
        names = re.findall(r'"([^"]+)"', body)
        for other in re.findall(r"\b(__PORTKIT_SYSCALL_CLOBBERS\w*)", body):
            assert other in macros and other not in seen, f"{name} uses {other}"
            names += expand(other, seen + (name,))
        return names

    names = expand("__PORTKIT_SYSCALL_CLOBBERS")
    regs = sorted(int(n[1:]) for n in names if re.fullmatch(r"\$\d+", n))
    assert regs == sc["clobber_regnums"]
    assert ("hi" in names, "lo" in names) == (sc["clobbers_hi"], sc["clobbers_lo"])
    assert "memory" in names
