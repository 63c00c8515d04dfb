"""Kernel integration: the generated arch/<name> configures, installs its
headers, builds its device tree and compiles core kernel files in the real
Linux tree, for the TSAR spec (on each kernel series) and for a deliberately
different one."""
import re
import subprocess

import pytest

from kbuild import KernelTree, run

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module", params=["tsar", "tsar-6.1", "tsar-2g2g"])
def tree(request):
    t = KernelTree(request.param)
    t.make(t.spec["arch"]["defconfig"])
    return t


def config_lines(text):
    """The settings of a defconfig/.config, ignoring comments that are not
    '# CONFIG_X is not set'."""
    keep = set()
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("#") and not re.match(r"# CONFIG_\w+ is not set", line):
            continue
        keep.add(line)
    return keep


def test_defconfig_sets_spec_values(tree):
    config = (tree.out / ".config").read_text()
    name = tree.arch.upper()
    assert f"CONFIG_{name}=y" in config
    assert "CONFIG_MMU=y" in config
    assert f"CONFIG_HZ={tree.spec['kernel']['hz']}\n" in config
    page_offset = tree.spec["layout"]["page_offset"]
    assert f"CONFIG_PAGE_OFFSET=0x{page_offset:08x}\n" in config
    assert "CONFIG_PGTABLE_LEVELS=2" in config
    # 40-bit physical addresses need a 64-bit phys_addr_t.
    assert "CONFIG_PHYS_ADDR_T_64BIT=y" in config


def test_olddefconfig_is_stable(tree):
    before = (tree.out / ".config").read_text()
    tree.make("olddefconfig")
    assert (tree.out / ".config").read_text() == before


def test_savedefconfig_round_trips(tree):
    tree.make("savedefconfig")
    saved = config_lines((tree.out / "defconfig").read_text())
    gen = (tree.out / "source" / "arch" / tree.arch / "configs" /
           tree.spec["arch"]["defconfig"])
    generated = config_lines(gen.read_text())
    assert saved == generated, (
        f"only in savedefconfig: {sorted(saved - generated)}; "
        f"only in the generated defconfig: {sorted(generated - saved)}")


def test_config_listing_has_no_unanswered_symbols(tree):
    # The non-interactive equivalent of walking menuconfig: every symbol
    # of the arch's Kconfig tree has a value, none is new.
    out = tree.make("listnewconfig").stdout
    assert not re.search(r"^CONFIG_", out, re.M), out


def test_headers_install_gives_a_usable_uapi(tree, tmp_path):
    tree.make("headers_install", extra=[f"INSTALL_HDR_PATH={tmp_path}"])
    inc = tmp_path / "include"
    assert (inc / "asm" / "unistd.h").is_file()
    prog = tmp_path / "abi.c"
    # The legacy calls exist only with abi.syscall.time32_syscalls.
    if tree.spec["abi"]["syscall"]["time32_syscalls"]:
        legacy = "int x = __NR_fstatat64 + __NR_wait4 + __NR_gettimeofday;"
    else:
        legacy = ("#if defined(__NR_fstatat64) || defined(__NR_wait4) || defined(__NR_gettimeofday)\n"
                  "#error legacy calls\n#endif\nint x = __NR_statx + __NR_waitid + __NR_clock_gettime64;")
    # The user register set is the spec's frame slots marked user: true.
    user_words = sum(s.get("words", 1) for s in tree.spec["abi"]["frame"]
                     if s["user"])
    prog.write_text(f"""
#include <asm/unistd.h>
#include <asm/ptrace.h>
#include <asm/sigcontext.h>
#include <asm/stat.h>
_Static_assert(sizeof(struct user_regs_struct) == {user_words} * 4, "regs");
_Static_assert(sizeof(struct sigcontext) >= sizeof(struct user_regs_struct), "sc");
_Static_assert(__NR_openat == 56 && __NR_clone == 220 && __NR_exit == 93, "asm-generic numbers");
_Static_assert(__NR_clone3 == 435, "clone3");
_Static_assert(__NR_set_thread_area == 244, "TLS call in the arch-specific range");
{legacy}
""")
    run(["mipsel-linux-gnu-gcc", "-nostdinc", "-isystem", str(inc),
         "-fsyntax-only", str(prog)])


def test_dtbs_build_from_spec(tree):
    tree.make("dtbs")
    platform = tree.spec["platform"]
    dtb = tree.out / "arch" / tree.arch / "boot" / "dts" / f"{platform['name']}.dtb"
    dts = subprocess.run(["dtc", "-I", "dtb", "-O", "dts", str(dtb)],
                         check=True, capture_output=True, text=True).stdout
    for dev in platform["devices"]:
        assert f"{dev['name']}@{dev['base']:x} {{" in dts
    assert f"clock-frequency = <0x{platform['clock_hz']:x}>" in dts


def test_prepare_and_core_files_compile_warning_free(tree):
    tree.make("prepare")
    res = tree.make("init/main.o", "kernel/fork.o", extra=["W=1"])
    assert (tree.out / "init" / "main.o").is_file()
    assert (tree.out / "kernel" / "fork.o").is_file()
    arch_warnings = [line for line in res.stdout.splitlines()
                     if f"arch/{tree.arch}/" in line and "warning" in line]
    assert not arch_warnings, "\n".join(arch_warnings)


def test_arch_code_compiles_warning_free_with_W1(tree):
    tree.make("prepare")
    res = tree.make(f"arch/{tree.arch}/", extra=["W=1"])
    warnings = [line for line in res.stdout.splitlines()
                if "warning:" in line or "error:" in line]
    assert not warnings, "\n".join(warnings)


def test_contract_kernel_options_exist_in_the_tree():
    """The kernel options generator/contract.yaml lets a layer's kbuild:
    table name (objects built only with them) are the tree's own options,
    defined outside arch/."""
    from kbuild import KSRC0
    from generator.layers import KERNEL_OPTIONS

    defined = set()
    for kconfig in KSRC0.rglob("Kconfig*"):
        if kconfig.relative_to(KSRC0).parts[0] == "arch" and len(kconfig.relative_to(KSRC0).parts) > 2:
            continue
        defined |= set(re.findall(r"^\s*(?:menu)?config\s+(\w+)\s*$",
                                  kconfig.read_text(errors="replace"), re.M))
    assert KERNEL_OPTIONS and KERNEL_OPTIONS <= defined, KERNEL_OPTIONS - defined
