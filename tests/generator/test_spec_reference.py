"""docs/spec-reference.md is what ./generate.py --spec-reference produces,
and the contract data (generator/contract.yaml) is consistent."""

from __future__ import annotations

from gen_helpers import ROOT
from generator.derive import SPEC_VALUES
from generator.layers import CONTRACT_KEYS, RESPONSIBILITIES, _load_contract
from generator.reference import COMMAND, spec_reference


def test_committed_spec_reference_is_current():
    committed = (ROOT / "docs" / "spec-reference.md").read_text(encoding="utf-8")
    assert committed == spec_reference(ROOT), \
        f"docs/spec-reference.md is stale: run {COMMAND}"


def test_spec_reference_covers_keys_values_and_layers():
    text = spec_reference(ROOT)
    flat = " ".join(text.split())  # as read, whatever the line breaks
    for needle in ("- `arch.name` (string: a lowercase identifier; required)",
                   "- `layout.kernel_link_address` (computed; derived, never stated: page_offset "
                   "+ kernel_phys_start - phys_offset)",
                   "- `layout.task_size` (integer >= 0; optional, default computed: "
                   "layout.page_offset)",
                   "- `platform.devices[].properties` (mapping of names to number",
                   "implemented values: overrides/mmu-cp2: hardware; overrides/mmu-r4k: software; "
                   "overrides/qmips: software; overrides/tsar: hardware.",
                   "- `smp` (SMP bring-up): stubs `kernel/stub_smp.c`; needed only when "
                   "`platform.cpus.count` >= 2",
                   "`cpu_irq_line` (int; optional; min 0; max 5; below `isa.cp0.hw_irq_lines`;",
                   "- `drivers/vci_block_device.o` only with `CONFIG_TSAR_VCI_BLOCK_DEVICE`"):
        assert needle in flat, needle
    for v in SPEC_VALUES:
        assert f"- `{v.path}` ({v.kind}): " in flat
    assert all(len(line) <= 100 for line in text.splitlines())


def test_contract_data_is_consistent(tmp_path):
    stubs = ROOT / "templates" / "_stubs"
    for r in RESPONSIBILITIES:
        for tmpl, out in r.stubs:
            assert (stubs / tmpl).is_file(), tmpl
            assert out.startswith("kernel/stub_"), out
    assert set(CONTRACT_KEYS["arch.kernel_series"]) == {r.key for r in RESPONSIBILITIES}
    bad = tmp_path / "contract.yaml"
    bad.write_text("responsibilities:\n  boot: {title: boot entry}\n"
                   "contract_keys:\n  isa.family: [boot, vectors]\n")
    try:
        _load_contract(bad)
    except ValueError as exc:
        assert "contract_keys: isa.family: unknown responsibility vectors" in str(exc)
    else:
        raise AssertionError("an unknown responsibility in contract.yaml was accepted")


def test_cli_writes_the_reference(proj, tmp_path):
    out = tmp_path / "ref.md"
    r = proj.run("--spec-reference", str(out))
    assert r.rc == 0, r.err
    assert out.read_text().startswith("# Spec reference\n")
