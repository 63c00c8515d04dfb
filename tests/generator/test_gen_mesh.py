"""platform.mesh: a 2D mesh of clusters (docs/multicluster.md).

The board's hardware description of specs/tsar-4x4.yaml (its DTS, compiled by
dtc), a mesh with the I/O cluster elsewhere, the spec errors of a mesh the
hardware cannot have, and the contract refusing a kernel for a mesh no layer
implements yet.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_gen_hwdesc import hwdesc, needs_dtc

ROOT = Path(__file__).resolve().parents[2]
MESH = ROOT / "specs" / "tsar-4x4.yaml"


def nodes(dts: str, kind: str) -> dict[str, str]:
    """unit address -> body of every `kind@addr { ... };` node (no nested nodes)."""
    return dict(re.findall(rf"\b{kind}@([0-9a-f]+) \{{(.*?)\n\t+\}};", dts, re.S))


def cells(body: str, prop: str) -> list[int]:
    m = re.search(rf"\b{prop} = <([^>]*)>;", body)
    assert m, (prop, body)
    return [int(v, 0) for v in m.group(1).split()]


@pytest.fixture(scope="module")
def mesh_dts(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("mesh")
    r = hwdesc(MESH, out)
    assert r.returncode == 0, r.stderr
    return (out / "tsar-4x4.dts").read_text()


@needs_dtc
def test_cpus_carry_their_hardware_id_and_node(mesh_dts):
    cpus = nodes(mesh_dts, "cpu")
    assert len(cpus) == 64
    for x in range(4):
        for y in range(4):
            for l in range(4):
                hwid = ((x << 4 | y) << 4) | l
                body = cpus[f"{hwid:x}"]
                assert cells(body, "reg") == [hwid]
                assert cells(body, "numa-node-id") == [x * 4 + y]


@needs_dtc
def test_every_cluster_has_its_memory_and_xicu_at_its_coordinates(mesh_dts):
    memory, xicus = nodes(mesh_dts, "memory"), nodes(mesh_dts, "xicu")
    assert len(memory) == 16 and len(xicus) == 16
    for x in range(4):
        for y in range(4):
            base = (x << 4 | y) << 32
            mem = memory[f"{base:x}"]
            assert cells(mem, "reg") == [base >> 32, 0, 256 << 20]
            assert cells(mem, "numa-node-id") == [x * 4 + y]
            xicu = xicus[f"{base | 0x10000000:x}"]
            assert cells(xicu, "reg") == [base >> 32, 0x10000000, 0x1000]
            assert cells(xicu, "numa-node-id") == [x * 4 + y]
            assert cells(xicu, "soclib,wti-count") == [16]
    # the label of cluster (0,0)'s XICU is the board's interrupt parent
    assert "interrupt-parent = <&xicu>;" in mesh_dts and "xicu_3_3: xicu@3310000000" in mesh_dts
    assert sum(cells(m, "reg")[2] for m in memory.values()) == 4 << 30


@needs_dtc
def test_distances_are_ten_per_hop_plus_ten(mesh_dts):
    m = re.search(r"distance-matrix = (.*?);", mesh_dts, re.S)
    triples = [tuple(map(int, t.split())) for t in re.findall(r"<([^>]*)>", m.group(1))]
    assert len(triples) == 16 * 16
    for a, b, dist in triples:
        (xa, ya), (xb, yb) = divmod(a, 4), divmod(b, 4)
        assert dist == 10 * (1 + abs(xa - xb) + abs(ya - yb))
    assert 'compatible = "numa-distance-map-v1";' in mesh_dts


@needs_dtc
def test_io_devices_sit_in_the_io_cluster_behind_the_iopic(mesh_dts):
    assert re.search(r"iopic: iopic@11000000 \{[^}]*interrupt-controller;[^}]*"
                     r"soclib,channel-count = <32>;", mesh_dts)
    for name, irqs in (("tty", "16"), ("blockdevice", "8"), ("nic", "0 2")):
        body = re.search(rf"\b{name}: {name}@([0-9a-f]+) \{{(.*?)\}};", mesh_dts, re.S)
        assert int(body.group(1), 16) < 1 << 32, name
        assert "interrupt-parent = <&iopic>;" in body.group(2)
        assert f"interrupts = <{irqs}>;" in body.group(2)
    assert mesh_dts.count("tty@") == 1 and mesh_dts.count("iopic@") == 1


@needs_dtc
def test_io_cluster_moves_the_devices(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"extends: {MESH}\nplatform:\n  mesh: {{io_cluster: {{x: 3, y: 2}}}}\n")
    r = hwdesc(spec, tmp_path / "out")
    assert r.returncode == 0, r.stderr
    dts = (tmp_path / "out" / "tsar-4x4.dts").read_text()
    assert "tty: tty@3214000000" in dts and "iopic: iopic@3211000000" in dts
    assert "simhelper: simhelper@321f000000" in dts and "tty@14000000" not in dts
    # memory and CPUs do not move
    assert "memory@0 {" in dts and "cpu@0 {" in dts


def run_errors(tmp_path: Path, delta: str, *argv: str) -> str:
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"extends: {MESH}\n{delta}")
    r = subprocess.run([sys.executable, str(ROOT / "generate.py"), str(spec), *argv],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "nothing written" in r.stderr
    return r.stderr


@pytest.mark.parametrize("delta, line, message", [
    ("platform:\n  cpus: {count: 60}\n", "spec.yaml:3: platform.cpus.count",
     "60 CPUs cannot be shared evenly by the 4 x 4 = 16 clusters"),
    ("platform:\n  mesh: {io_cluster: {x: 4}}\n", "spec.yaml:3: platform.mesh.io_cluster.x",
     "the I/O cluster's x = 4 is outside the mesh (columns: 4, so 0..3)"),
    ("platform:\n  mesh: {columns: 17}\n", "spec.yaml:3: platform.mesh.columns",
     "expected an integer in 1..16, found 17"),
    ("platform:\n  memory:\n    - {base: 0xF8000000, size: 256M}\n",
     "spec.yaml:4: platform.memory[0].base",
     "is not inside a cluster's 32-bit local address space"),
    ("platform:\n  devices:\n    - {name: tty, interrupt_parent: simhelper}\n",
     "spec.yaml:4: platform.devices[1].interrupt_parent",
     "'simhelper' is not an interrupt controller of the board (those are: iopic, xicu)"),
    ("platform:\n  devices:\n    - {name: tty, interrupts: [32]}\n",
     "spec.yaml:4: platform.devices[1].interrupts[0]",
     "input 32 of 'tty' does not exist: interrupt controller 'iopic' has channel_count 32"),
    ("mmu:\n  phys_addr_bits: 36\n", "tsar-4x4.yaml:14: platform.mesh.columns",
     "outside the 36-bit physical address space"),
], ids=["uneven", "io-outside", "too-wide", "bank-not-local", "parent", "iopic-input", "36-bit"])
def test_a_mesh_the_hardware_cannot_have_is_refused(tmp_path, delta, line, message):
    err = run_errors(tmp_path, delta, "--hwdesc", str(tmp_path / "out"))
    chunk = [c for c in err.split("error: ") if f"/{line}: " in c and message in c]
    assert chunk, err
    assert not (tmp_path / "out").exists()


def test_the_kernel_layers_do_not_implement_a_mesh_yet(tmp_path):
    """The board is described (hwdesc) before a kernel runs on it: generating the
    arch refuses the mesh, naming each key the tsar layer does not implement."""
    err = run_errors(tmp_path, "", "-o", str(tmp_path / "arch"))
    assert "platform.mesh.columns: the spec asks for 4, which no layer implements " \
           "(overrides/tsar implements 1)" in err
    assert "platform.cpus.count: the spec asks for 64" in err
    assert not (tmp_path / "arch").exists()
