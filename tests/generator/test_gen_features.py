"""The arch feature table (generate.py --features, make features): each
feature of a kernel tree's Documentation/features, the arch's status from
its rendered Kconfig, next to peer arches."""

from __future__ import annotations

from pathlib import Path

import pytest

from gen_helpers import ROOT
from generator.kernelsrc import tree_dir
from generator.spec import load_spec
from generator.features import (FeaturesError, arch_symbols, close_selects, evaluate,
                                feature_table, format_table, generic_selects, read_features)


def _feature(root: Path, sub: str, name: str, kconfig: str, status: dict) -> None:
    d = root / sub / name
    d.mkdir(parents=True)
    rows = "".join(f"    | {a:>12}: | {s:^4} |\n" for a, s in status.items())
    (d / "arch-support.txt").write_text(
        "#\n"
        f"# Feature name:          {name}\n"
        f"#         Kconfig:       {kconfig}\n"
        f"#         description:   the {name} feature\n"
        "#\n"
        "    -----------------------\n"
        "    |         arch |status|\n"
        "    -----------------------\n"
        f"{rows}"
        "    -----------------------\n")


@pytest.fixture
def features_dir(tmp_path: Path) -> Path:
    root = tmp_path / "features"
    _feature(root, "core", "jump-labels", "HAVE_ARCH_JUMP_LABEL",
             {"mips": "ok", "nios2": "TODO", "riscv": "ok"})
    _feature(root, "locking", "lockdep", "LOCKDEP_SUPPORT",
             {"mips": "ok", "nios2": "TODO", "riscv": "ok"})
    _feature(root, "time", "clockevents", "!LEGACY_TIMER_TICK",
             {"mips": "ok", "nios2": "ok", "riscv": "ok"})
    _feature(root, "vm", "THP", "HAVE_ARCH_TRANSPARENT_HUGEPAGE",
             {"mips": "ok", "nios2": "..", "riscv": "TODO"})
    _feature(root, "vm", "ELF-ASLR", "ARCH_HAS_ELF_RANDOMIZE",
             {"mips": "TODO", "nios2": "N/A", "riscv": "ok"})
    return root


KCONFIG = """\
config FOO
	def_bool y
	select HAVE_ARCH_JUMP_LABEL
	select ARCH_HAS_ELF_RANDOMIZE if MMU

config LOCKDEP_SUPPORT
	def_bool y

config THP_OFF
	def_bool n
	select HAVE_ARCH_TRANSPARENT_HUGEPAGE

source "arch/foo/drivers/Kconfig"
source "kernel/Kconfig.hz"
"""


def test_reads_every_feature_file(features_dir: Path):
    feats = read_features(features_dir)
    assert [(f.subsystem, f.name, f.kconfig) for f in feats] == [
        ("core", "jump-labels", "HAVE_ARCH_JUMP_LABEL"),
        ("locking", "lockdep", "LOCKDEP_SUPPORT"),
        ("time", "clockevents", "!LEGACY_TIMER_TICK"),
        ("vm", "ELF-ASLR", "ARCH_HAS_ELF_RANDOMIZE"),
        ("vm", "THP", "HAVE_ARCH_TRANSPARENT_HUGEPAGE"),
    ]
    assert feats[3].status == {"mips": "TODO", "nios2": "N/A", "riscv": "ok"}
    assert feats[3].description == "the ELF-ASLR feature"


def test_symbols_follow_selects_def_bool_and_arch_sources():
    files = {"arch/foo/Kconfig": KCONFIG,
             "arch/foo/drivers/Kconfig": "config FOO_UART\n\tbool\n\tselect SERIAL_CORE\n"}
    syms = arch_symbols(files, "foo")
    assert {"FOO", "HAVE_ARCH_JUMP_LABEL", "ARCH_HAS_ELF_RANDOMIZE", "LOCKDEP_SUPPORT",
            "SERIAL_CORE"} <= syms
    assert "THP_OFF" not in syms and "FOO_UART" not in syms
    # A select is a select even under a def_bool n symbol: the arch supports it
    # when that symbol is set (arch options are selected that way).
    assert "HAVE_ARCH_TRANSPARENT_HUGEPAGE" in syms


def test_generic_selects_are_followed(tmp_path: Path):
    """A feature symbol the arch gets through a generic symbol it selects
    (ARCH_WANT_DEFAULT_TOPDOWN_MMAP_LAYOUT selects ARCH_HAS_ELF_RANDOMIZE);
    a generic select with a condition is not followed."""
    kconfig = tmp_path / "Kconfig"
    kconfig.write_text("config ARCH_WANT_TOPDOWN\n\tbool\n\tdepends on MMU\n"
                       "\tselect ARCH_HAS_ELF_RANDOMIZE\n\nconfig ELF_RANDOMIZE_HELPER\n"
                       "\tbool\n\nconfig ARCH_HAS_ELF_RANDOMIZE\n\tbool\n"
                       "\tselect ELF_RANDOMIZE_HELPER\n\tselect FOO if BAR\n")
    sel = generic_selects(kconfig)
    assert sel == {"ARCH_WANT_TOPDOWN": {"ARCH_HAS_ELF_RANDOMIZE"},
                   "ARCH_HAS_ELF_RANDOMIZE": {"ELF_RANDOMIZE_HELPER"}}
    assert close_selects({"ARCH_WANT_TOPDOWN"}, sel) == {
        "ARCH_WANT_TOPDOWN", "ARCH_HAS_ELF_RANDOMIZE", "ELF_RANDOMIZE_HELPER"}
    assert close_selects({"OTHER"}, sel) == {"OTHER"}


def test_expressions():
    assert evaluate("A", {"A"}) and not evaluate("A", set())
    assert evaluate("!LEGACY_TIMER_TICK", set())
    assert not evaluate("!LEGACY_TIMER_TICK", {"LEGACY_TIMER_TICK"})
    assert evaluate("A && !B", {"A"}) and not evaluate("A && !B", {"A", "B"})
    assert evaluate("A || B", {"B"})
    with pytest.raises(FeaturesError):
        evaluate("A(B)", set())


def test_table_statuses_and_count_line(features_dir: Path):
    files = {"arch/foo/Kconfig": KCONFIG}
    table = feature_table(read_features(features_dir), arch_symbols(files, "foo"), "foo",
                          ["nios2", "mips"])
    got = {f.name: st for f, st in table.rows}
    assert got == {"jump-labels": "ok", "lockdep": "ok", "clockevents": "ok",
                   "ELF-ASLR": "ok", "THP": "ok"}
    text = format_table(table)
    assert text.splitlines()[-1] == "foo 5/5, nios2 1, mips 4"
    line = next(ln for ln in text.splitlines() if ln.startswith("vm/THP"))
    assert line.split()[2:] == ["ok", "..", "ok"]

    table = feature_table(read_features(features_dir), {"LEGACY_TIMER_TICK"}, "foo", ["riscv"])
    assert format_table(table).splitlines()[-1] == "foo 0/5, riscv 4"


def test_bad_input_is_a_clear_error(features_dir: Path, tmp_path: Path):
    with pytest.raises(FeaturesError, match="no such directory"):
        read_features(tmp_path / "nowhere")
    with pytest.raises(FeaturesError, match="peer arch sparc"):
        feature_table(read_features(features_dir), set(), "foo", ["sparc"])
    with pytest.raises(FeaturesError, match="no arch/foo/Kconfig"):
        arch_symbols({}, "foo")
    bad = tmp_path / "bad" / "core" / "x"
    bad.mkdir(parents=True)
    (bad / "arch-support.txt").write_text("no header here\n")
    with pytest.raises(FeaturesError, match="not a feature file"):
        read_features(tmp_path / "bad")


KTREE = tree_dir(ROOT, load_spec(ROOT / "arch-spec.yaml").data["arch"]["kernel_series"]) \
    / "Documentation" / "features"


@pytest.mark.skipif(not KTREE.is_dir(), reason="kernel source not unpacked (make setup)")
def test_cli_on_the_tsar_spec():
    import contextlib
    import io

    from generator.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["arch-spec.yaml", "--features"], root=ROOT)
    assert rc == 0, err.getvalue()
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("tsar ") and "/41, nios2 3, openrisc " in lines[-1]
    rows = {ln.split()[0]: ln.split()[2] for ln in lines[2:-2]}
    assert len(rows) == 41
    # Features the TSAR Kconfig has selected since the first port.
    for feat in ("core/tracehook", "locking/lockdep", "time/clockevents", "vm/pte_special",
                 "seccomp/seccomp-filter"):
        assert rows[feat] == "ok", feat


@pytest.mark.skipif(not KTREE.is_dir(), reason="kernel source not unpacked (make setup)")
def test_kprobes_features_on_the_tsar_spec():
    """The family layer's kprobes, kretprobes and register/stack access API
    (kernel/kprobes.c, kernel/ptrace.c) turn their three rows ok."""
    import contextlib
    import io

    from generator.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["arch-spec.yaml", "--features"], root=ROOT) == 0
    rows = {ln.split()[0]: ln.split()[2] for ln in out.getvalue().splitlines()[2:-2]}
    for feat in ("debug/kprobes", "debug/kretprobes", "perf/kprobes-event"):
        assert rows[feat] == "ok", feat
    # ARCH_SUPPORTS_UPROBES, def_bool y in the family layer (kernel/uprobes.c).
    assert rows["debug/uprobes"] == "ok"
