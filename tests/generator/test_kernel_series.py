"""The kernel series as a spec axis: arch.kernel_series, the exact version
templates see (linux_version, linux_has), and the layers' contract."""

from __future__ import annotations

import pytest

from gen_helpers import ROOT, Proj
from generator.kernelsrc import CHANGES, SERIES, has_change

PROBE = ("{{ 'novma' if linux_has('pte_mkwrite_novma') else 'mkwrite' }}\n"
         "{{ 'dt_phys' if linux_has('early_init_dt_phys') else 'dt_virt' }}\n"
         "{{ linux_version_text }}\n")


def probe(proj: Proj, monkeypatch, version: str, series: str) -> list[str]:
    monkeypatch.setenv("PORTKIT_LINUX_VERSION", version)
    proj.edit('kernel_series: "6.1"', f'kernel_series: "{series}"')
    proj.write("templates/include/asm/series-probe.h.j2", PROBE)
    r = proj.run()
    assert r.rc == 0, r.err
    return proj.out("include/asm/series-probe.h").split("\n")[-4:-1]


@pytest.mark.parametrize("version,series,want", [
    ("6.1.192", "6.1", ["mkwrite", "dt_virt", "6.1.192"]),
    ("6.12.1", "6.12", ["novma", "dt_virt", "6.12.1"]),
    ("6.12.118", "6.12", ["novma", "dt_phys", "6.12.118"]),
])
def test_templates_see_the_exact_version_sublevel_included(proj, monkeypatch, version, series,
                                                           want):
    assert probe(proj, monkeypatch, version, series) == want


def test_a_series_the_kit_does_not_know_is_refused_with_file_line_and_key(proj):
    proj.edit('kernel_series: "6.1"', 'kernel_series: "6.6"')
    r = proj.run()
    assert r.rc == 2
    assert f"spec.yaml:{proj.line_of('kernel_series')}: arch.kernel_series" in r.err
    assert "6.1" in r.err and "6.12" in r.err and "Traceback" not in r.err


def test_a_series_no_layer_implements_is_refused_naming_the_layer(proj, monkeypatch):
    monkeypatch.setenv("PORTKIT_LINUX_VERSION", "6.12.118")
    old = (proj.path / "overrides/tsar/layer.yaml").read_text()
    proj.write("overrides/tsar/layer.yaml", old + "provides:\n  mmu: [include/asm/io.h]\n"
               "implements:\n  mmu.walker: [hardware]\n  mmu.tlb_coherent: [true]\n"
               "  arch.kernel_series: ['6.1']\n")
    proj.edit('kernel_series: "6.1"', 'kernel_series: "6.12"')
    r = proj.run()
    assert r.rc == 2
    assert (f"spec.yaml:{proj.line_of('kernel_series')}: arch.kernel_series: the spec asks for "
            "6.12, which no layer implements (overrides/tsar implements 6.1)") in r.err


def test_a_version_of_another_series_is_refused(proj, monkeypatch):
    monkeypatch.setenv("PORTKIT_LINUX_VERSION", "6.12.118")
    r = proj.run()
    assert r.rc == 2
    assert "arch.kernel_series" in r.err and "6.12.118, not of the 6.1 series" in r.err


def test_a_malformed_forced_version_is_refused(proj, monkeypatch):
    monkeypatch.setenv("PORTKIT_LINUX_VERSION", "6.1")
    r = proj.run()
    assert r.rc == 2 and "is not a version such as 6.12.118" in r.err


def test_an_unknown_interface_change_names_the_template(proj, monkeypatch):
    monkeypatch.setenv("PORTKIT_LINUX_VERSION", "6.1.192")
    proj.write("templates/include/asm/series-probe.h.j2", "{% if linux_has('no_such') %}x{% endif %}\n")
    r = proj.run()
    assert r.rc == 2
    assert "templates/include/asm/series-probe.h.j2" in r.err
    assert "no such interface change" in r.err and "Traceback" not in r.err


def test_every_change_is_dated_after_6_1_and_no_later_than_6_12():
    for name, (version, what) in CHANGES.items():
        assert (6, 1) < version <= (6, 12, 999), name
        assert what
    assert has_change((6, 12, 118), "set_ptes") and not has_change((6, 1, 192), "set_ptes")
    assert SERIES == ("6.1", "6.12")


def test_the_generated_makefile_names_its_version_and_refuses_another_tree():
    text = (ROOT / "generated" / "arch" / "tsar" / "Makefile").read_text()
    assert "ifneq ($(VERSION).$(PATCHLEVEL).$(SUBLEVEL),6.12." in text
    assert "$(error arch/tsar was generated for Linux 6.12." in text


def test_the_series_guide_lists_every_interface_change_with_its_release():
    text = (ROOT / "docs" / "kernel-series.md").read_text()
    for name, (version, _) in CHANGES.items():
        assert f"- `{name}`, since {'.'.join(map(str, version))}:" in text, name
