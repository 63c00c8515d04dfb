"""Multi-cluster TSAR in tsar-emu (docs/multicluster.md): 40-bit physical
addresses, clusters read from the device tree (one RAM bank and one XICU
each), CPU ids (cluster_xy << 4) | l, IPIs and start-up across clusters, the
IOPIC, the access counters and the latency model, bad device trees, and the
host cost of idle CPUs.  The t_mc_* bare-metal programs check themselves
(exit status = failing check) and run on both execution tiers, which must
agree on instruction and cycle counts.  The device trees come from
mesh_dts.py.

Run: /usr/bin/python3 -m pytest tests/emulator/test_multicluster.py
"""
import re
import time
from pathlib import Path

import pytest

from mesh_dts import hwdesc, mesh_dts
from test_baremetal import (BUILD, SRC, build, compile_dts, elf, expect_126,  # noqa: F401
                            make_disk, run)

TIERS = ["jit", "interp"]
PROGRAMS = {"t_mc_boot", "t_mc_mem", "t_mc_iopic", "t_mc_idle", "t_mc_busy"}


@pytest.fixture(scope="module")
def hw():
    return hwdesc(BUILD / "hwdesc" / "hwdesc.h")


@pytest.fixture(scope="module")
def dtbs(hw, tmp_path_factory):
    d = tmp_path_factory.mktemp("mesh")
    meshes = {
        "4x4": dict(xs=4, ys=4),                                    # 64 CPUs
        "2x2": dict(xs=2, ys=2),                                    # 16 CPUs
        "3x2x1": dict(xs=3, ys=2, cpus=1),                          # 1 CPU per cluster
        "ram4": dict(xs=2, ys=2, cpus=1, cpu_clusters={(0, 0)}),    # one CPU, 4 banks
        "one": dict(xs=1, ys=1, cpus=1),
    }
    return {k: compile_dts(d, mesh_dts(hw, **v), k + ".dtb") for k, v in meshes.items()}


def test_every_mc_program_is_listed():
    assert {p.stem for p in SRC.glob("t_mc_*.[cS]")} == PROGRAMS


def summary(stderr):
    """(instructions, guest cycles, {(x, y): (local, remote)}) from -v."""
    n = int(re.search(rb"after (\d+) instructions", stderr).group(1))
    cyc = re.search(rb"(\d+) guest cycles", stderr)
    cl = {(int(x), int(y)): (int(lo), int(re_)) for x, y, lo, re_ in re.findall(
        rb"cluster \((\d+),(\d+)\): \d+ CPUs, (\d+) local and (\d+) remote", stderr)}
    return n, int(cyc.group(1)) if cyc else None, cl


def run_tiers(args, **kw):
    """Run on both tiers; they must agree (output, instructions, cycles, counters)."""
    out = []
    for accel in TIERS:
        r = run(["-accel", accel, "-v", "-timeout", "20"] + args, **kw)
        assert r.returncode == 0, f"{accel}: rc={r.returncode}\n{r.stdout}\n{r.stderr}"
        out.append((r.stdout, summary(r.stderr)))
    assert out[0] == out[1], out
    return out[0]


@pytest.mark.parametrize("mesh,cpus,clusters", [("4x4", 64, 16), ("2x2", 16, 4), ("3x2x1", 6, 6)])
def test_boot_ipis_and_lr_bits(dtbs, mesh, cpus, clusters):
    """Every CPU started through its own cluster's mailbox, EBase ids, a token
    round every CPU by cross-cluster IPIs, L/R set by the walker."""
    out, (n, cyc, cl) = run_tiers(["-dtb", dtbs[mesh], elf("t_mc_boot")])
    assert out == f"mc boot: {cpus} CPUs in {clusters} clusters, ring ok\n".encode()
    assert len(cl) == clusters
    # every CPU runs code from cluster (0,0): remote fetches everywhere else
    assert all(re_ > 0 for (x, y), (lo, re_) in cl.items() if (x, y) != (0, 0))


@pytest.mark.parametrize("seed", ["1", "5"])
def test_boot_randomized_interleavings(dtbs, seed):
    r = run(["-dtb", dtbs["4x4"], "-seed", seed, "-quantum", "50", "-timeout", "30",
             elf("t_mc_boot")])
    assert r.returncode == 0 and r.stdout.endswith(b"ring ok\n"), r.stdout + r.stderr


@pytest.mark.parametrize("mode", [[], ["-seed", "2"], ["-quantum", "37"]],
                         ids=lambda m: "_".join(m) or "default")
def test_every_cpu_busy_with_llsc_across_clusters(dtbs, mode):
    """64 CPUs compute at once and share two words of cluster (0,0) by ll/sc."""
    if mode:
        r = run(["-dtb", dtbs["4x4"], "-timeout", "20"] + mode + [elf("t_mc_busy")])
        assert r.returncode == 0, r.stdout + r.stderr
        out = r.stdout
    else:
        out, _ = run_tiers(["-dtb", dtbs["4x4"], elf("t_mc_busy")])
    assert out == b"mc busy: 64 CPUs\n"


@pytest.mark.parametrize("mesh", ["4x4", "ram4"])
def test_40bit_memory(dtbs, mesh):
    """RAM of every cluster through PADDR_EXT, 28-bit PPNs, PPN1, a remote
    PT1 and PT2, L/R/D bits, INST_PADDR_EXT, bus errors, the counters."""
    out, _ = run_tiers(["-dtb", dtbs[mesh], elf("t_mc_mem")])
    assert out == (b"paddr_ext ok\npage tables ok\nremote ptpr ok\ninst_paddr_ext ok\n"
                   b"counters ok\n")


def test_counters_and_latency(dtbs):
    """-remote-latency N adds N cycles per hop of each counted remote access:
    cycles grow linearly with N, instructions and counts do not change."""
    res = {lat: run_tiers(["-dtb", dtbs["ram4"], "-remote-latency", str(lat), elf("t_mc_mem")])[1]
           for lat in (0, 5, 10)}
    (n0, c0, k0), (n5, c5, k5), (n10, c10, k10) = res[0], res[5], res[10]
    assert n0 == n5 == n10 and k0 == k5 == k10
    assert c0 == n0                         # one cycle per instruction without the model
    lo, re_ = k0[(0, 0)]
    assert lo > 0 and re_ > 0
    # remote clusters (0,1), (1,0) are 1 hop away and (1,1) 2: between 1 and 2 hops each
    assert re_ * 5 <= c5 - c0 <= 2 * re_ * 5
    assert c10 - c0 == 2 * (c5 - c0)


def test_no_counter_line_on_one_cluster():
    r = run(["-v", elf("t_hello")])
    assert r.returncode == 0 and b"remote RAM accesses" not in r.stderr, r.stderr


def test_iopic(dtbs, tmp_path):
    """Rising edge: the input number written to the WTI of ADDRESS/EXTEND;
    falling edge: read back; error state until STATUS is read; MASK; the
    block device's DMA into another cluster (BUFFER_EXT)."""
    disk = make_disk(tmp_path / "disk.img")
    out, _ = run_tiers(["-dtb", dtbs["4x4"], "-disk", disk, elf("t_mc_iopic")])
    assert out == b"iopic edges ok\niopic error state ok\niopic mask ok\n"


def wall(args):
    best = None
    for _ in range(3):
        t0 = time.monotonic()
        r = run(args)
        t = time.monotonic() - t0
        assert r.returncode == 0, r.stderr
        best = t if best is None else min(best, t)
    return best


@pytest.mark.parametrize("accel", TIERS)
def test_idle_cpus_cost_little(dtbs, accel):
    """63 CPUs in `wait` while one computes ~200 M instructions and stores
    20000 times into its page tables: about the cost of a 1-CPU platform (they
    cost nothing until their interrupt; with every CPU's translations dropped
    at each page-table store it took 20 times as long)."""
    one = wall(["-accel", accel, "-dtb", dtbs["one"], elf("t_mc_idle")])
    mesh = wall(["-accel", accel, "-dtb", dtbs["4x4"], elf("t_mc_idle")])
    assert mesh < one * 3 + 0.2, (one, mesh)


REPO = SRC.parents[2]


@pytest.mark.skipif(not (REPO / "specs" / "tsar-4x4.yaml").exists(),
                    reason="no specs/tsar-4x4.yaml (the generator's mesh) in this tree")
def test_the_generated_4x4_platform(tmp_path):
    """The DTS the generator makes for specs/tsar-4x4.yaml runs the same
    programs (its simhelper window may be too small for the counters)."""
    import subprocess
    out = tmp_path / "hw"
    r = subprocess.run(["/usr/bin/python3", str(REPO / "generate.py"),
                        str(REPO / "specs" / "tsar-4x4.yaml"), "--hwdesc", str(out), "--quiet"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    dtb = compile_dts(tmp_path, (out / "tsar-4x4.dts").read_text(), "t44.dtb")
    out, _ = run_tiers(["-dtb", dtb, elf("t_mc_boot")])
    assert out == b"mc boot: 64 CPUs in 16 clusters, ring ok\n"
    out, _ = run_tiers(["-dtb", dtb, elf("t_mc_mem")])
    assert out.startswith(b"paddr_ext ok\npage tables ok\nremote ptpr ok\ninst_paddr_ext ok\n")
    disk = make_disk(tmp_path / "disk.img")
    out, _ = run_tiers(["-dtb", dtb, "-disk", disk, elf("t_mc_iopic")])
    assert out == b"iopic edges ok\niopic error state ok\niopic mask ok\n"


def test_1024_cpus_start(hw, tmp_path):
    """The hardware's largest mesh: 16 x 16 clusters of 4 CPUs, 256 x 256 MiB
    of RAM (costing only what is touched)."""
    dtb = compile_dts(tmp_path, mesh_dts(hw, 16, 16), "m16.dtb")
    r = run(["-dtb", dtb, "-timeout", "60", elf("t_mc_boot")], timeout=90)
    assert r.returncode == 0, r.stdout + r.stderr[-2000:]
    assert r.stdout == b"mc boot: 1024 CPUs in 256 clusters, ring ok\n"


def test_large_ram_starts_instantly(hw, tmp_path):
    """16 x 256 MiB and 64 CPUs: RAM costs what is touched."""
    import subprocess
    dtb = compile_dts(tmp_path, mesh_dts(hw, 4, 4), "m4.dtb")
    t0 = time.monotonic()
    r = run(["-dtb", dtb, elf("t_hello")])
    assert r.returncode == 0 and r.stdout == b"hello from tsar\n", r.stderr
    assert time.monotonic() - t0 < 2
    if Path("/usr/bin/time").exists():   # GNU time: the run's peak RSS
        t = subprocess.run(["/usr/bin/time", "-f", "%M", str(BUILD / "bin" / "tsar-emu"),
                            "-dtb", str(dtb), str(elf("t_hello"))],
                           capture_output=True, timeout=30)
        rss_kb = int(t.stderr.split()[-1])
        assert rss_kb < 64 * 1024, rss_kb


CPU330 = 'cpu@330 { device_type = "cpu"; reg = <0x330>; };'
BAD = {
    "overlap": (dict(extra='memory@1 { device_type = "memory"; reg = <0x1 0x0 0x1000>; };'),
                "memory banks overlap"),
    "ram_above_40_bits": (dict(extra='memory@f { device_type = "memory"; '
                                     'reg = <0x100 0x0 0x1000>; };'), "beyond 40-bit space"),
    "device_above_40_bits": (dict(extra='tty2 { compatible = "soclib,vci_multi_tty"; '
                                        'reg = <0x100 0x0 0x10>; };'),
                             "beyond the 40-bit physical space"),
    "xicu_without_cpus": (dict(cpu_clusters={(0, 0)}, extra='xicu@1 { compatible = '
                               '"soclib,vci_xicu"; reg = <0x1 0x10000000 0x1000>; };'),
                          "no CPU in its cluster (0,1)"),
    "cpu_without_xicu": (dict(extra=CPU330), "CPU id 0x330: its cluster (3,3) has no XICU"),
    "two_xicus": (dict(extra='xicu@2 { compatible = "soclib,vci_xicu"; '
                             'reg = <0x0 0x10001000 0x1000>; };'),
                  "two interrupt controllers in cluster (0,0)"),
    "nine_cpus_in_a_cluster": (dict(cpus=9), "more than 8 CPUs in cluster (0,0)"),
    "iopic_channel_count": (dict(iopic_props="soclib,channel-count = <33>;"),
                            "bad 'soclib,channel-count'"),
    "id_beyond_12_bits": (dict(extra='cpu@1000 { device_type = "cpu"; reg = <0x1000>; };'),
                          "does not fit EBase.CPUNum"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_mesh_dtbs_are_refused(hw, tmp_path, name):
    kw, msg = BAD[name]
    dtb = compile_dts(tmp_path, mesh_dts(hw, 2, 2, **kw), name + ".dtb")
    r = run(["-dtb", dtb, elf("t_hello")])
    expect_126(r, name + ".dtb", msg)
    assert r.stderr.count(b"\n") == 1, r.stderr


def test_more_than_1024_cpus_refused(hw, tmp_path):
    dtb = compile_dts(tmp_path, mesh_dts(hw, 16, 16, cpus=5), "big.dtb")
    expect_126(run(["-dtb", dtb, elf("t_hello")]), "more than 1024 CPUs")


def test_remote_latency_option_is_checked():
    expect_126(run(["-remote-latency", "x", elf("t_hello")]), "-remote-latency")
    expect_126(run(["-remote-latency", "2000000", elf("t_hello")]), "-remote-latency")
