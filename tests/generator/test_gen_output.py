"""Safe regeneration: determinism, no-op runs, pruning, drift, --check/--diff, staging."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gen_helpers import make_project


def test_deterministic_across_outdirs(proj):
    assert proj.run("spec.yaml", "-o", "out1").rc == 0
    assert proj.run("spec.yaml", "-o", str(proj.path / "sub" / "out2")).rc == 0
    a, b = proj.files(proj.path / "out1"), proj.files(proj.path / "sub" / "out2")
    assert a == b and len(a) == 15
    blob = b"".join(a.values())
    assert str(proj.path).encode() not in blob and b"\r\n" not in blob


def _pythons() -> list[str]:
    found = []
    for exe in ("/usr/bin/python3", shutil.which("python3"), sys.executable):
        if not exe or any(Path(exe).resolve() == Path(f).resolve() for f in found):
            continue
        ok = subprocess.run([exe, "-c", "import jinja2, yaml"], capture_output=True).returncode == 0
        if ok:
            found.append(exe)
    return found


def test_deterministic_across_pythons(tmp_path):
    pythons = _pythons()
    trees = []
    for i, exe in enumerate(pythons):
        p = make_project(tmp_path / f"p{i}")
        r = p.run_subprocess("spec.yaml", "-q", python=exe)
        assert r.rc == 0 and r.out == "", (exe, r.err)
        trees.append(p.files())
    assert all(t == trees[0] for t in trees)
    if len(pythons) < 2:
        pytest.skip("only one Python with jinja2+yaml available")


def test_default_outdir_and_summary(proj):
    r = proj.run()
    assert r.rc == 0
    assert (proj.path / "generated/.portkit-manifest.json").exists()
    assert "created generated/arch/tsar/Makefile" in r.out
    assert r.out.strip().endswith("14 written, 0 unchanged, 0 removed")
    assert proj.run("spec.yaml", "--quiet").out == ""


def test_manifest(built):
    m = json.loads((built.outdir / ".portkit-manifest.json").read_text())
    entry = m["arches"]["tsar"]
    assert entry["spec"] == "spec.yaml" and entry["generator_version"]
    assert list(entry["files"]) == sorted(entry["files"])
    assert "arch/tsar/include/asm/page.h" in entry["files"]
    text = (built.outdir / ".portkit-manifest.json").read_text()
    assert str(built.path) not in text and "time" not in text


def test_noop_regeneration_touches_nothing(built):
    before = built.stats()
    r = built.run()
    assert r.rc == 0
    assert r.out.strip() == "0 written, 14 unchanged, 0 removed"
    assert built.stats() == before


def test_spec_change_rewrites_only_affected_files(built):
    before = built.stats()
    built.edit("  hz: 100", "  hz: 250")
    r = built.run()
    assert r.rc == 0
    after = built.stats()
    changed = {p for p in before if before[p] != after[p]}
    assert changed == {"arch/tsar/Kconfig", "arch/tsar/configs/tsar_defconfig", ".portkit-manifest.json"}
    assert "default 250" in built.out("Kconfig")
    assert "2 written, 12 unchanged, 0 removed" in r.out


def test_removed_files_are_pruned(built):
    built.write("templates/deep/dir/only.h.j2", "/* SPDX-License-Identifier: GPL-2.0 */\nx\n")
    assert built.run().rc == 0
    assert (built.arch_dir / "deep/dir/only.h").exists()
    (built.path / "templates/deep/dir/only.h.j2").unlink()
    built.edit("error_convention: a3_flag", "error_convention: negative_v0")
    r = built.run()
    assert r.rc == 0, r.err
    assert "removed generated/arch/tsar/deep/dir/only.h" in r.out
    assert "removed generated/arch/tsar/include/asm/a3flag.h" in r.out
    assert not (built.arch_dir / "deep").exists()      # empty dirs pruned
    assert not (built.arch_dir / "include/asm/a3flag.h").exists()
    m = json.loads((built.outdir / ".portkit-manifest.json").read_text())
    assert "arch/tsar/include/asm/a3flag.h" not in m["arches"]["tsar"]["files"]
    assert r.out.strip().endswith("2 removed")


def test_drift_hand_edit(built):
    page = built.arch_dir / "include/asm/page.h"
    page.write_text(page.read_text() + "/* my fix */\n")
    built.edit("  hz: 100", "  hz: 250")   # a pending change must not be applied either
    before = built.stats()
    r = built.run()
    assert r.rc == 3
    assert "generated/arch/tsar/include/asm/page.h: edited by hand" in r.err
    assert "overrides/tsar/include/asm/page.h" in r.err and "--force" in r.err
    assert "Traceback" not in r.err
    assert built.stats() == before
    r = built.run("spec.yaml", "--force")
    assert r.rc == 0
    assert "/* my fix */" not in page.read_text() and "default 250" in built.out("Kconfig")
    assert built.run().rc == 0


def test_drift_hand_added_file(built):
    extra = built.arch_dir / "kernel/mine.c"
    extra.write_text("int mine;\n")
    r = built.run()
    assert r.rc == 3
    assert "generated/arch/tsar/kernel/mine.c: added by hand" in r.err
    assert "move the change into overrides/tsar/kernel/mine.c" in r.err
    assert extra.exists()
    assert built.run("spec.yaml", "--force").rc == 0
    assert not extra.exists()


def test_hand_edit_of_a_file_about_to_be_removed_is_drift(built):
    a3 = built.arch_dir / "include/asm/a3flag.h"
    a3.write_text("edited\n")
    built.edit("error_convention: a3_flag", "error_convention: negative_v0")
    r = built.run()
    assert r.rc == 3 and "a3flag.h: edited by hand" in r.err and a3.exists()


def test_file_identical_to_output_is_not_drift(proj):
    # e.g. a previous run wrote files but died before the manifest
    assert proj.run().rc == 0
    (proj.outdir / ".portkit-manifest.json").unlink()
    r = proj.run()
    assert r.rc == 0 and "0 written" in r.out


def test_deleted_output_file_is_recreated(built):
    (built.arch_dir / "Makefile").unlink()
    r = built.run()
    assert r.rc == 0 and "created generated/arch/tsar/Makefile" in r.out


def test_other_arch_in_manifest_untouched(built):
    other = make_project(built.path.parent / "other")
    other.edit("  name: tsar\n", "  name: tsar2\n")
    (other.path / "overrides/tsar").rename(other.path / "overrides/tsar2")
    assert other.run("spec.yaml", "-o", str(built.outdir)).rc == 0
    assert built.run().rc == 0
    m = json.loads((built.outdir / ".portkit-manifest.json").read_text())
    assert set(m["arches"]) == {"tsar", "tsar2"}


def test_check(built):
    r = built.run("spec.yaml", "--check")
    assert r.rc == 0 and "up to date" in r.out
    built.edit("  hz: 100", "  hz: 250")
    before = built.stats()
    r = built.run("spec.yaml", "--check")
    assert r.rc == 1
    assert "would write arch/tsar/Kconfig" in r.out and "out of date" in r.out
    assert built.stats() == before
    (built.arch_dir / "kernel/mine.c").write_text("x\n")
    r = built.run("spec.yaml", "--check")
    assert r.rc == 1 and "drift   arch/tsar/kernel/mine.c (added by hand)" in r.out
    assert "would remove arch/tsar/kernel/mine.c" in r.out


def test_check_on_empty_outdir(proj):
    r = proj.run("spec.yaml", "--check")
    assert r.rc == 1 and "would create arch/tsar/Makefile" in r.out
    assert not proj.outdir.exists()


def test_diff(built):
    r = built.run("spec.yaml", "--diff")
    assert r.rc == 0 and "---" not in r.out
    built.edit("  hz: 100", "  hz: 250")
    built.edit("error_convention: a3_flag", "error_convention: negative_v0")
    before = built.stats()
    r = built.run("spec.yaml", "--diff")
    assert r.rc == 1
    assert "--- a/arch/tsar/Kconfig\n+++ b/arch/tsar/Kconfig\n" in r.out
    assert "-\tdefault 100\n+\tdefault 250\n" in r.out
    assert "--- a/arch/tsar/include/asm/a3flag.h\n+++ /dev/null\n" in r.out
    assert built.stats() == before


def test_staging_template_error_leaves_output_untouched(built):
    before_bytes, before = built.files(), built.stats()
    built.edit("  hz: 100", "  hz: 250")
    built.write("templates/include/asm/zz-broken.h.j2", "{{ undefined_thing }}\n")
    r = built.run()
    assert r.rc == 2 and "zz-broken.h.j2:1" in r.err
    assert built.files() == before_bytes and built.stats() == before


def test_cli_subprocess_errors_have_no_traceback(proj):
    proj.edit("  hz: 100", "  hz: fast")
    r = proj.run_subprocess("spec.yaml")
    assert r.rc == 2 and "spec.yaml:" in r.err and "Traceback" not in r.err
    r = proj.run_subprocess("missing.yaml")
    assert r.rc == 2 and "Traceback" not in r.err
