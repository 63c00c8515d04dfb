"""Loadable modules on TSAR: test modules built out of tree against the
port (userland/modules/), put in the initramfs, loaded and unloaded by a
guest program (finit_module, delete_module); one oopses in its init and
the kernel stays up. The loaded module also checks the generic
page-table walker (vmalloc_to_page) on lowmem big pages and vmalloc."""
import re

import pytest

from guest import guest_kernel, program_status
from kbuild import SERIES_KEYS

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module", params=SERIES_KEYS)
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def boot(kernel):
    return kernel.run_programs("modules")


def test_module_loads_computes_with_kernel_symbols_and_unloads(boot):
    rc, out, err = boot
    assert "modules: load 0" in out, out[-3000:]
    assert "modules: listed 1" in out
    # isqrt(1000000) + isqrt(65536) + isqrt(99980001) = 1000 + 256 + 9999
    assert re.search(r"portkit_mod: loaded, sum of int_sqrt = 11255, strlen = 63, "
                     r"jiffies running", out), out[-3000:]
    assert "modules: unload 0" in out
    assert "portkit_mod: unloaded" in out
    assert "modules: listed-after-unload 0" in out


def test_generic_page_table_walker_on_lowmem_and_vmalloc(boot):
    assert "portkit_mod: walker lowmem ok vmalloc ok" in boot[1], boot[1][-3000:]


def test_module_that_oopses_on_load_leaves_the_kernel_up(boot):
    rc, out, err = boot
    assert "portkit_oops: about to oops" in out
    assert "Unable to handle kernel NULL pointer dereference" in out
    assert re.search(r"epc : [0-9a-f]{8} portkit_oops_init\+0x\w+/0x\w+ \[portkit_oops\]",
                     out), out[-3000:]
    assert "modules: oops-loader signal 11" in out
    assert program_status(out, "modules") == ("exited", 0)
    assert re.search(r"^portkit-init: \d+ passed, 0 failed$", out, re.M)
    assert rc == 0, err


def cpio_files(data):
    """name -> bytes of each regular file of a newc ("070701") cpio archive."""
    files, pos = {}, 0
    while data[pos:pos + 6] == b"070701":
        field = lambda i: int(data[pos + 6 + 8 * i:pos + 14 + 8 * i], 16)
        mode, size, namesize = field(1), field(6), field(11)
        name_at = pos + 110
        name = data[name_at:name_at + namesize - 1].decode()
        body = (name_at + namesize + 3) & ~3
        if name == "TRAILER!!!":
            break
        if mode & 0o170000 == 0o100000:
            files[name] = data[body:body + size]
        pos = (body + size + 3) & ~3
    return files


def test_initramfs_carries_the_modules_as_built(kernel):
    """vmlinux is linked before the modules are built: after a config change
    the initramfs must still be relinked with the new modules, not keep the
    ones built for the old config (their struct module no longer matches)."""
    k = kernel
    listed = re.findall(r"^file (/lib/modules/\S+\.ko) (\S+) ", (k.out / "modules.list").read_text(),
                        re.M)
    assert listed, "no module in modules.list"
    packed = cpio_files((k.out / "usr" / "initramfs_data.cpio").read_bytes())
    for name, path in listed:
        assert packed.get(name.lstrip("/")) == open(path, "rb").read(), (
            f"{name} in the initramfs is not {path}")
