"""The porting guide (docs/porting-guide.md), followed word for word on a
copy of the kit, as a porter would, from a clean output:

1. ``./generate.py --new mysoc`` writes the spec and the empty layer, with
   no path of this machine in them;
2. the spec's platform gets one CPU (the guide's advice for a first
   bring-up), which leaves SMP bring-up out of what is needed;
3. ``./generate.py --status mysoc.yaml`` lists the five stubs;
4. ``make kernel SPEC=mysoc.yaml`` (the whole target: userland, initramfs)
   links a vmlinux, each stub warning at compile time;
   ``make run SPEC=mysoc.yaml`` boots it in the emulator and stops at once
   in the boot-entry stub, naming it;
5. the TSAR board's layer added to ``arch.layers`` below the new one: the
   new arch boots to /init in the emulator and its smoke checks pass.

A change that breaks a step of the guide fails here. The kit's copy gets
the kernel source unpacked (make setup's result, hard links) and nothing
else: every output is made by the guide's own commands.
"""
import os
import re
import shutil
import subprocess
import sys

import pytest

from kbuild import DEFAULT_SERIES, KSRC0, ROOT, run

pytestmark = pytest.mark.kernel

ARCH = "mysoc"
STUBS = ["boot entry", "irqchip", "timer and clocksource", "console", "power-off"]


def kit_files():
    """The kit as a porter has it: the tracked files (and new ones not
    ignored, in a working tree), never build/ or generated output."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                         capture_output=True, check=True).stdout.decode()
    return [f for f in out.split("\0") if f and (ROOT / f).is_file()]


def make_env():
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    # compiled objects are the same whichever copy of the kit built them
    env["CCACHE_DIR"] = str(ROOT / "build" / "ccache")
    return env


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    if not (KSRC0 / "Makefile").is_file():
        run(["make", "--no-print-directory", f"{KSRC0}/Makefile"])
    kit = tmp_path_factory.mktemp("guide")
    for rel in kit_files():
        (kit / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, kit / rel)
    (kit / "build").mkdir()
    subprocess.run(["cp", "-al", str(KSRC0), str(kit / "build" / KSRC0.name)], check=True)
    yield kit
    shutil.rmtree(kit / "build", ignore_errors=True)


def guide(kit, *cmd, check=True, timeout=3600):
    if cmd[0].endswith(".py"):
        cmd = (sys.executable, *cmd)
    return run(list(cmd), cwd=kit, check=check, env=make_env(), timeout=timeout)


def test_step1_new_writes_a_spec_and_an_empty_layer(kit):
    res = guide(kit, "./generate.py", "--new", ARCH)
    assert f"created {ARCH}.yaml" in res.stdout
    spec = (kit / f"{ARCH}.yaml").read_text()
    layer = (kit / "overrides" / ARCH / "layer.yaml").read_text()
    assert "extends: arch-spec.yaml" in spec
    assert f"layers: [mips32, mmu-cp2, {ARCH}]" in spec
    assert "provides: {}" in layer
    # the porter commits these files: nothing of this machine in them
    for text in (spec, layer):
        assert str(kit) not in text and str(ROOT) not in text
        assert not re.search(r"(^|[\s=`(])/(?!/)[\w.-]+/", text, re.M), text


def test_step2_one_cpu_first(kit):
    spec = kit / f"{ARCH}.yaml"
    # as the scaffold's commented platform block suggests
    assert "#   cpus: {count: 1}" in spec.read_text()
    spec.write_text(spec.read_text() + "\nplatform:\n  cpus: {count: 1}\n")


def test_step3_status_lists_the_stubs(kit):
    out = guide(kit, "./generate.py", "--status", f"{ARCH}.yaml").stdout
    assert "6 of 11 needed responsibilities ported, 5 stubs" in out
    assert re.search(r"^  SMP bring-up +not needed", out, re.M), out
    for title in STUBS:
        assert any(line.startswith(f"  {title} ") and " STUB " in line
                   for line in out.splitlines()), (title, out)


def test_step4_make_kernel_links_a_vmlinux(kit):
    res = guide(kit, "make", "kernel", f"SPEC={ARCH}.yaml")
    kout = kit / "build" / ARCH
    assert (kout / "vmlinux").is_file() and "KERNEL" in res.stdout
    assert "CONFIG_MYSOC=y" in (kout / ".config").read_text()
    for title in STUBS:
        assert f'#warning "portkit stub: {title} is not ported to {ARCH}' in res.stdout, title
    # the userland and its initramfs were built for the new arch's names
    arch_h = (kout / "userland" / "arch-include" / "portkit-arch.h").read_text()
    assert "#define PORTKIT_AUDIT_ARCH AUDIT_ARCH_MYSOC" in arch_h
    assert (kout / "userland" / "bin" / "abi-ptrace").is_file()
    assert "/bin/abi-ptrace" in (kout / "userland" / "initramfs.list").read_text()
    # after a build, --status still lists the same stubs
    out = guide(kit, "./generate.py", "--status", f"{ARCH}.yaml",
                "--build", str(kout)).stdout
    assert "5 stubs" in out


def test_step4_make_run_names_the_first_stub(kit):
    res = guide(kit, "make", "run", f"SPEC={ARCH}.yaml", "BOOT_TIMEOUT=120", check=False)
    out = res.stdout
    assert res.returncode != 0, out
    # the boot entry cannot print: the emulator names it from where it spins
    m = re.search(r"cpu\d stopped in a porting stub at 0x[0-9a-f]{8} <portkit_stub_boot> "
                  r"after \d+ instructions: "
                  rf"portkit stub: boot entry is not ported to {ARCH} \(add it to "
                  rf"overrides/{ARCH}/ and list it under provides: in its layer.yaml\)", out)
    assert m, out
    assert "timeout after" not in out and "Error 123" in out


def test_step5_with_the_tsar_board_layer_boots_to_init(kit):
    spec = kit / f"{ARCH}.yaml"
    text = spec.read_text()
    spec.write_text(text.replace(f"layers: [mips32, mmu-cp2, {ARCH}]",
                                 f"layers: [mips32, mmu-cp2, tsar, {ARCH}]"))
    out = guide(kit, "./generate.py", "--status", f"{ARCH}.yaml").stdout
    assert "12 of 12 needed responsibilities ported, 0 stubs" in out
    res = guide(kit, "make", "run", f"SPEC={ARCH}.yaml", "BOOT_TIMEOUT=300", check=False)
    out = res.stdout
    assert res.returncode == 0, out[-6000:]
    series = re.escape(DEFAULT_SERIES)
    assert re.search(rf"portkit-init: Linux {series}\.\S+ {ARCH}, \d+ KiB RAM", out), out[-6000:]
    m = re.search(r"portkit-init: (\d+) passed, (\d+) failed", out)
    assert m and int(m.group(1)) > 0 and m.group(2) == "0", out[-6000:]
    # one CPU: the board's SMP code is there, the kernel uniprocessor
    assert "CONFIG_SMP=y" not in (kit / "build" / ARCH / ".config").read_text()


def test_step5_programs_use_the_new_arch_names(kit):
    """abi-ptrace, which named TSAR's UAPI constants, checks the new arch's
    AUDIT_ARCH and thread-pointer note against the running kernel."""
    kout = kit / "build" / ARCH
    bootargs = guide(kit, "./scripts/spec-field.py", f"{ARCH}.yaml",
                     "boot.bootargs").stdout.strip()
    dtb = next(kout.glob("*.dtb"))     # the platform's, named after it
    res = guide(kit, "build/bin/tsar-emu", "-dtb", str(dtb),
                "-timeout", "300", "-append", f"{bootargs} portkit_run=abi-ptrace",
                str(kout / "vmlinux"), check=False)
    out = res.stdout
    assert res.returncode == 0, out[-6000:]
    assert "portkit-run: abi-ptrace exited with status 0" in out, out[-6000:]
    assert f"abi-ptrace: audit-arch-not-o32: {ARCH} " in out, out[-6000:]
    assert "abi-ptrace: core-dump-tls-note:" in out and ": FAIL" not in out, out[-6000:]
