"""The spec language of a software-refilled TLB (qmips): mmu.tlb, the fixed
windows of layout.windows, CPU-local devices, and their errors.

The specs are copies of the real specs/qmips.yaml (a delta over
arch-spec.yaml), edited one fact at a time.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gen_helpers import ROOT
from generator.derive import derive
from generator.errors import SpecError
from generator.spec import load_spec


@pytest.fixture
def qspec(tmp_path: Path):
    """Write a copy of specs/qmips.yaml (and its base) with edits; load it."""
    (tmp_path / "specs").mkdir()
    shutil.copy(ROOT / "arch-spec.yaml", tmp_path / "arch-spec.yaml")
    path = tmp_path / "specs" / "qmips.yaml"
    text = (ROOT / "specs" / "qmips.yaml").read_text()

    class Q:
        def edit(self, old: str, new: str) -> "Q":
            nonlocal text
            assert text.count(old) == 1, old
            text = text.replace(old, new)
            return self

        def line_of(self, needle: str) -> int:
            return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)

        def load(self):
            path.write_text(text)
            return load_spec(path, display="qmips.yaml")

        def errors(self) -> list[str]:
            path.write_text(text)
            with pytest.raises(SpecError) as exc:
                load_spec(path, display="qmips.yaml")
            return [str(d) for d in exc.value.diagnostics]

    return Q()


def only(errors: list[str]) -> str:
    assert len(errors) == 1, errors
    return errors[0]


def test_qmips_spec_loads_and_derives(qspec):
    spec = qspec.load()
    d = spec.data
    assert d["mmu"]["walker"] == "software"
    assert d["mmu"]["tlb"]["entries"] == 16
    assert d["mmu"]["tlb"]["asid_bits"] == 8          # derived from entryhi.asid
    assert d["mmu"]["pte1_ppn"] is None and d["mmu"]["fault_codes"] is None
    assert d["layout"]["task_size"] == 0x80000000
    assert d["layout"]["kernel_link_address"] == 0x80001000
    assert [w["name"] for w in d["layout"]["windows"]] == ["kseg0", "kseg1", "kseg2"]
    assert d["platform"]["devices"][0]["base"] is None          # CPU-local intc
    assert d["platform"]["devices"][1]["compatible"] == ["ns16550a"]
    dv = derive(d)
    assert dv["tlb"]["pte_to_entrylo_shift"] == 6
    assert dv["tlb"]["pte_cache_shift"] == 9
    assert dv["tlb"]["pte_cache_mask"] == 0xE00
    assert dv["tlb"]["asid_mask"] == 0xFF
    assert dv["tlb"]["pagemask_default"] == 0
    assert dv["vmalloc_start"] == 0xC0000000
    assert dv["max_lowmem_size"] == 512 << 20
    assert dv["pgdir_shift"] == 22 and dv["ptrs_per_pgd"] == 1024


def test_asid_bits_is_derived(qspec):
    qspec.edit("    entries: 16\n", "    entries: 16\n    asid_bits: 8\n")
    e = only(qspec.errors())
    assert e.startswith(f"qmips.yaml:{qspec.line_of('asid_bits: 8')}: mmu.tlb.asid_bits: "
                        "'asid_bits' is derived, not stated: tlb.entryhi.asid.width")


def test_software_walker_needs_tlb_and_windows(qspec):
    start = qspec.line_of("  tlb:")
    end = qspec.line_of("cache_attrs: {cached")
    lines = (ROOT / "specs" / "qmips.yaml").read_text().splitlines(keepends=True)
    qspec.edit("".join(lines[start - 1:end]), "")
    errs = qspec.errors()
    assert any(f"qmips.yaml:{qspec.line_of('walker: software')}: mmu.walker: mmu.walker: software "
               "needs mmu.tlb" in e for e in errs), errs


def test_hardware_walker_refuses_tlb(qspec):
    qspec.edit("  walker: software", "  walker: hardware")
    errs = qspec.errors()
    assert any("mmu.tlb: mmu.tlb describes a software-refilled TLB, but mmu.walker is hardware"
               in e for e in errs), errs
    assert any("missing mmu.pte1_ppn" in e for e in errs), errs


def test_hw_pte_bit_must_match_entrylo(qspec):
    qspec.edit("valid:    {bit: 7, hw: V}", "valid:    {bit: 5, hw: V}")
    qspec.edit("protnone: {bit: 5, software: true,", "protnone: {bit: 7, software: true,")
    e = only(qspec.errors())
    assert e.startswith(f"qmips.yaml:{qspec.line_of('valid:    {bit: 5')}: mmu.pte_bits.valid.bit: "
                        "hardware bit V is at PTE bit 5, but EntryLo.V (bit 1) << "
                        "(PAGE_SHIFT - EntryLo.PFN lsb = 6) is bit 7")


def test_pte_bit_in_cache_field_or_frame(qspec):
    qspec.edit("special:  {bit: 4,", "special:  {bit: 10,")
    e = only(qspec.errors())
    assert "mmu.pte_bits.special.bit: bit 10 is in the cache attribute field (PTE bits 9..11" in e
    qspec.edit("special:  {bit: 10,", "special:  {bit: 12,")
    e = only(qspec.errors())
    assert "mmu.pte_bits.special.bit: bit 12 lies in the page frame" in e


def test_vpn2_must_start_above_the_page_pair(qspec):
    qspec.edit("vpn2: {lsb: 13, width: 19}", "vpn2: {lsb: 12, width: 20}")
    errs = qspec.errors()
    line = qspec.line_of("vpn2: {lsb: 12")
    assert any(e.startswith(f"qmips.yaml:{line}: mmu.tlb.entryhi.vpn2.lsb: VPN2 starts at bit "
                            "12, but one TLB entry maps an even/odd pair of 4K pages, so VPN2 "
                            "must start at PAGE_SHIFT + 1 = 13") for e in errs), errs


def test_index_too_narrow_for_entries(qspec):
    qspec.edit("entries: 16", "entries: 32")
    errs = qspec.errors()
    assert any("mmu.tlb.index.index.width: 4 bits cannot hold entry numbers 0..31 (5 bits "
               "needed for 32 entries)" in e for e in errs), errs
    assert any("mmu.tlb.random.random.width" in e for e in errs), errs


def test_refill_vector_slot(qspec):
    qspec.edit("refill_vector_offset: 0x000", "refill_vector_offset: 0x40")
    e = only(qspec.errors())
    assert "mmu.tlb.refill_vector_offset: 0x40 is not a multiple of 0x80" in e
    qspec.edit("refill_vector_offset: 0x40", "refill_vector_offset: 0x200")
    e = only(qspec.errors())
    assert "must come before the general exception vector (0x180)" in e


def test_entrylo_fields_overlap(qspec):
    qspec.edit("c: {lsb: 3, width: 3}", "c: {lsb: 2, width: 3}")
    errs = qspec.errors()
    assert any("mmu.tlb.entrylo.d: EntryLo fields 'c' and 'd' overlap" in e for e in errs), errs


def test_page_offset_must_be_the_cached_window(qspec):
    qspec.edit("page_offset: 0x80000000", "page_offset: 0xC0000000")
    errs = qspec.errors()
    line = qspec.line_of("page_offset: 0xC0000000")
    assert any(e.startswith(f"qmips.yaml:{line}: layout.page_offset: PAGE_OFFSET 0xc0000000 is "
                            "not the base of the unmapped cached window 'kseg0' (0x80000000)")
               for e in errs), errs


def test_ram_beyond_the_cached_window(qspec):
    qspec.edit("{base: 0x0, size: 128M}", "{base: 0x0, size: 1G}")
    errs = qspec.errors()
    assert any("platform.memory: RAM ends at physical 0x40000000, beyond the 512M that window "
               "'kseg0' reaches" in e for e in errs), errs


def test_fixmap_outside_the_mapped_window(qspec):
    qspec.edit("fixmap_top: 0xFFFFF000", "fixmap_top: 0x9FFFF000")
    errs = qspec.errors()
    assert any("layout.fixmap_top: fixmap_top 0x9ffff000 is outside the mapped kernel window "
               "'kseg2' [0xc0000000, 0x100000000)" in e for e in errs), errs


def test_windows_overlap_and_alignment(qspec):
    qspec.edit("{name: kseg1, base: 0xA0000000, size: 512M",
               "{name: kseg1, base: 0x90000000, size: 512M")
    errs = qspec.errors()
    assert any("layout.windows[1]: window 'kseg1' [0x90000000, +512M) must have a power-of-two "
               "size and a base aligned to it" in e for e in errs), errs
    assert any("layout.windows[1].base: window 'kseg1' overlaps 'kseg0'" in e for e in errs), errs


def test_device_outside_the_uncached_window(qspec):
    qspec.edit("base: 0x1FD003F8", "base: 0x3FD003F8")
    e = only(qspec.errors())
    assert "platform.devices[1].base: device 'uart' at 0x3fd003f8 is beyond the 512M that " \
           "the uncached window 'kseg1' reaches" in e


def test_cpu_local_device_rules(qspec):
    qspec.edit("      size: 8\n", "")
    e = only(qspec.errors())
    assert e.startswith("qmips.yaml:") and "platform.devices[1].size: missing key 'size': " \
        "device 'uart' states base but not size" in e


def test_generic_compatibles(qspec):
    qspec.edit('compatible: ["ns16550a"]', 'compatible: ["ns16550x"]')
    e = only(qspec.errors())
    assert "platform.devices[1].compatible[0]" in e and "'vendor,model'" in e


# --- the real sister spec: --status ---------------------------------------------

def test_status_lists_every_responsibility_and_shared_lines():
    """Every responsibility of qmips is provided (no stub), and --status says
    how many source lines it shares with TSAR, by layer."""
    p = subprocess.run([sys.executable, str(ROOT / "generate.py"), "--status",
                        "specs/qmips.yaml"], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "11 of 11 needed responsibilities ported, 0 stubs" in p.stdout
    assert "STUB" not in p.stdout
    for resp, layer in (("TLB/MMU fault handling", "mmu-r4k"), ("syscall entry", "mips32"),
                        ("irqchip", "qmips"), ("power-off", "qmips")):
        assert re.search(rf"^\s+{re.escape(resp)}\s+overrides/{layer}\b", p.stdout, re.M), p.stdout
    rows = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in
            re.finditer(r"^  (templates|overrides/\S+)\s+(\d+)\s+(\d+)$", p.stdout, re.M)}
    assert set(rows) == {"templates", "overrides/mips32", "overrides/mmu-r4k",
                         "overrides/qmips"}, p.stdout
    assert rows["overrides/mips32"][1] == 0 and rows["overrides/mips32"][0] > 1000
    assert rows["overrides/mmu-r4k"][0] == 0 and rows["overrides/mmu-r4k"][1] > 0
    assert rows["overrides/qmips"][0] == 0 and rows["overrides/qmips"][1] > 0
    m = re.search(r"^  shared with tsar\s+(\d+) lines", p.stdout, re.M)
    assert m and int(m.group(1)) == sum(r[0] for r in rows.values()), p.stdout
