"""Two specs with the same arch name get their own kernel trees, so they can
be generated, configured and built at the same time."""
import os
import subprocess

import pytest

from kbuild import (DEFAULT_SERIES, KSRC0, MAKE_LOCK, OTHER_SPECS, ROOT, SPECS, ksrc0, ktree,
                    load_spec, run)

pytestmark = pytest.mark.kernel


def test_kernel_trees_are_per_spec():
    with MAKE_LOCK:
        procs = [subprocess.Popen(["make", "--no-print-directory", "kernel-tree",
                                   f"SPEC={os.path.relpath(SPECS[k], ROOT)}"], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for k in ("tsar", "tsar-2g2g")]
        for p in procs:
            out, _ = p.communicate(timeout=600)
            assert p.returncode == 0, out
    a = ktree(SPECS["tsar"]) / "arch" / "tsar"
    b = ktree(SPECS["tsar-2g2g"]) / "arch" / "tsar"
    assert a.resolve() == (ROOT / "generated" / "arch" / "tsar").resolve()
    assert b.resolve() == (ROOT / "build" / "gen" / "tsar-2g2g" / "arch" / "tsar").resolve()
    # the shared pristine tree has no arch/tsar at all
    assert not (KSRC0 / "arch" / "tsar").exists()
    # hard links, not copies
    assert (ktree(SPECS["tsar"]) / "Makefile").stat().st_ino == \
        (KSRC0 / "Makefile").stat().st_ino


def test_each_series_has_its_own_tree_and_both_configure_side_by_side():
    """The default spec and the same spec on the other series: their trees
    link to the pristine tree of their own series, and both configure in
    parallel from their own output directories."""
    keys = {"tsar": SPECS["tsar"], "tsar-6.1": OTHER_SPECS["tsar-6.1"]}
    with MAKE_LOCK:
        procs = [subprocess.Popen(["make", "--no-print-directory", "kconfig",
                                   f"SPEC={os.path.relpath(p, ROOT)}"], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                 for p in keys.values()]
        for p in procs:
            out, _ = p.communicate(timeout=900)
            assert p.returncode == 0, out
    for key, path in keys.items():
        series = load_spec(path)["arch"]["kernel_series"]
        assert (ktree(path) / "Makefile").stat().st_ino == \
            (ksrc0(series) / "Makefile").stat().st_ino
        config = (ROOT / "build" / key / ".config").read_text()
        assert f"Linux/{load_spec(path)['arch']['name']} {series}." in config


def test_an_arch_generated_for_one_series_refuses_the_other_tree(tmp_path):
    """generated/ (the default spec's series) linked into the other
    series' tree: the arch Makefile stops with what to do."""
    other = next(s for s in ("6.1", "6.12") if s != DEFAULT_SERIES)
    if not (ksrc0(other) / "Makefile").is_file():
        run(["make", "--no-print-directory", "kconfig",
             f"SPEC={os.path.relpath(OTHER_SPECS['tsar-6.1'], ROOT)}"])
    tree = tmp_path / "tree"
    subprocess.run(["cp", "-al", str(ksrc0(other)), str(tree)], check=True)
    (tree / "arch" / "tsar").symlink_to(ROOT / "generated" / "arch" / "tsar")
    p = subprocess.run(["make", "-s", "-C", str(tree), f"O={tmp_path / 'out'}", "ARCH=tsar",
                        "tsar_defconfig"], capture_output=True, text=True, timeout=300)
    assert p.returncode != 0
    assert f"arch/tsar was generated for Linux {DEFAULT_SERIES}." in p.stderr
    assert f"this tree is {other}." in p.stderr


def test_a_spec_that_changes_series_starts_its_build_afresh(tmp_path):
    """The same spec file moved from 6.1 to 6.12: the second kconfig uses
    the 6.12 tree and empties the output directory the 6.1 kernel left
    (scripts/drop-other-series.sh), rather than mixing the two."""
    spec = tmp_path / "series-switch.yaml"
    out = ROOT / "build" / "series-switch"
    try:
        for series in ("6.1", "6.12"):
            spec.write_text(f"extends: {ROOT / 'arch-spec.yaml'}\n"
                            f"arch:\n  kernel_series: \"{series}\"\n")
            res = run(["make", "--no-print-directory", "kconfig", f"SPEC={spec}"])
            assert f"Linux/tsar {series}." in (out / ".config").read_text()
            assert (ktree(spec) / "Makefile").stat().st_ino == \
                (ksrc0(series) / "Makefile").stat().st_ino
            if series == "6.1":
                (out / "left-by-6.1").write_text("")
        assert "built for Linux 6.1, the spec says 6.12" in res.stdout
        assert not (out / "left-by-6.1").exists()
    finally:
        for d in (out, ROOT / "build" / "gen" / "series-switch",
                  ROOT / "build" / "ktree" / "6.1" / "series-switch",
                  ROOT / "build" / "ktree" / "6.12" / "series-switch"):
            subprocess.run(["rm", "-rf", str(d)], check=False)
