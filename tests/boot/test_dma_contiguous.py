"""The contiguous memory allocator (CMA, DMA_CMA on the family's
HAVE_DMA_CONTIGUOUS): setup_arch reserves the area cma= asks for
(dma_contiguous_reserve in mm/mem_init.c), /proc/meminfo shows it, and
/bin/cma takes 16 pages out of it and gives them back through
CMA_DEBUGFS (CmaFree and the area's used pages). Without cma= the kernel has no area."""
import re

import pytest

from guest import check_results, guest_kernel, program_status

pytestmark = pytest.mark.kernel

CMA_KB = 4096


@pytest.fixture(scope="module")
def kernel():
    return guest_kernel()


@pytest.fixture(scope="module")
def run(kernel):
    return kernel.run_programs("cma", cmdline=f"cma={CMA_KB}K")


def test_area_reserved_at_boot(kernel, run):
    rc, out, err = run
    config = (kernel.out / ".config").read_text()
    assert "CONFIG_DMA_CMA=y" in config and "CONFIG_CMA_SIZE_MBYTES=0" in config
    m = re.search(rf"cma: Reserved {CMA_KB // 1024} MiB at 0x([0-9a-f]+)", out)
    assert m, out[:6000]
    # In lowmem, on a pageblock boundary.
    assert int(m.group(1), 16) % (CMA_KB * 1024) == 0 and int(m.group(1), 16) < 256 << 20
    assert rc == 0, err


def test_meminfo_and_an_allocation(run):
    _, out, _ = run
    assert program_status(out, "cma") == ("exited", 0), out[-3000:]
    res = check_results(out, "cma")
    assert all(status == "ok" for _, status in res.values()) and len(res) == 4, res
    total, free = map(int, re.fullmatch(r"total (\d+) free (\d+)", res["meminfo"][0]).groups())
    assert total == CMA_KB and 0 < free <= total, res
    # 16 pages of 4 KiB out of the area, then back.
    assert res["alloc"][0] == f"free {free - 64} after, {free} before", res
    assert res["alloc-used"][0] == "used 16 after, 0 before", res
    assert res["free"][0] == "used 0 after, 16 before", res


def test_no_area_without_cma_on_the_command_line(kernel):
    rc, out, err = kernel.default_boot()
    assert "cma: Reserved" not in out, out[:6000]
