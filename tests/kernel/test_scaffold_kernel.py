"""A fresh scaffold (generate.py --new) configures in the real Linux 6.1 tree
and its arch objects compile, each stub announcing itself with a #warning.
Only the arch's own directories are compiled (not a whole vmlinux)."""
import shutil
import subprocess
import sys

import pytest

from kbuild import KSRC0, ROOT, run

pytestmark = pytest.mark.kernel

STUBS = ["boot entry", "irqchip", "timer and clocksource", "console", "power-off",
         "SMP bring-up"]


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory):
    if not (KSRC0 / "Makefile").is_file():
        run(["make", "--no-print-directory", f"{KSRC0}/Makefile"])
    kit = tmp_path_factory.mktemp("kit")
    for d in ("templates", "overrides", "generator"):
        shutil.copytree(ROOT / d, kit / d, ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("generate.py", "arch-spec.yaml"):
        shutil.copy2(ROOT / f, kit / f)
    gen = [sys.executable, str(kit / "generate.py")]
    run([*gen, "--new", "newsoc"], cwd=kit)
    run([*gen, "newsoc.yaml", "-o", "out", "-q"], cwd=kit)
    tree = kit / "ktree"
    run(["cp", "-al", str(KSRC0), str(tree)])
    (tree / "arch" / "newsoc").symlink_to(kit / "out" / "arch" / "newsoc")
    out = kit / "build"
    out.mkdir()

    def kmake(*targets):
        return run(["make", "-C", str(tree), f"O={out}", "ARCH=newsoc", "-j2", *targets])
    kmake("newsoc_defconfig")
    yield kit, out, kmake
    shutil.rmtree(tree, ignore_errors=True)


def test_scaffold_configures(scaffold):
    _, out, _ = scaffold
    config = (out / ".config").read_text()
    assert "CONFIG_NEWSOC=y" in config and "CONFIG_MMU=y" in config


def test_scaffold_arch_objects_compile_with_stub_warnings(scaffold):
    kit, out, kmake = scaffold
    res = kmake("arch/newsoc/kernel/", "arch/newsoc/mm/", "arch/newsoc/lib/")
    errors = [line for line in res.stdout.splitlines() if "error:" in line]
    assert not errors, "\n".join(errors)
    for title in STUBS:
        assert f'#warning "portkit stub: {title} is not ported to newsoc' in res.stdout, title
    objs = {p.name for p in (out / "arch/newsoc/kernel").glob("*.o")}
    assert {"stub_boot.o", "stub_setup.o", "stub_irqchip.o", "stub_timer.o",
            "stub_console.o", "stub_poweroff.o", "stub_smp.o", "entry.o", "traps.o"} <= objs
    # the status report of the fresh scaffold lists exactly these stubs
    p = subprocess.run([sys.executable, str(kit / "generate.py"), "--status", "newsoc.yaml",
                        "--build", str(out)], cwd=kit, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "6 of 12 needed responsibilities ported, 6 stubs" in p.stdout
