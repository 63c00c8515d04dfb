"""The device tree of a multi-cluster TSAR mesh, following docs/multicluster.md,
for the emulator's multi-cluster tests (test_multicluster.py).

One place on purpose: the generator's DTS for specs/tsar-4x4.yaml is meant to
replace mesh_dts() here.  Addresses, sizes and compatible strings are the
spec's, read from the generated hwdesc.h (the single-cluster local map, which
every cluster repeats).
"""
import re
from pathlib import Path


def hwdesc(path):
    """The #defines of hwdesc.h: numbers as int, strings as str."""
    out = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r'#define (\w+) (?:HWDESC_U\()?(0x[0-9a-fA-F]+|\d+|"[^"]*")\)?', line)
        if m:
            v = m.group(2)
            out[m.group(1)] = v.strip('"') if v.startswith('"') else int(v, 0)
    return out


# IOPIC inputs of the I/O devices (docs/multicluster.md, the LETI/IOB map)
IOPIC_IN = {"nic_rx": 0, "nic_tx": 2, "bdev": 8, "tty_rx": 16}
IOPIC_LOCAL = 0x1100_0000


def cluster_xy(x, y):
    return (x << 4) | y


def mesh_dts(hw, xs, ys, cpus=4, io=(0, 0), iopic=True, ram=None, sim_size=0x1000,
             nic=False, cpu_clusters=None, extra="", iopic_props=""):
    """A mesh of xs columns x ys rows, `cpus` CPUs in each cluster (or only in
    cpu_clusters, a set of (x, y)), RAM of `ram` bytes per cluster (the spec's
    by default), an XICU per cluster with CPUs, the I/O devices in cluster
    `io`, wired to the IOPIC there (or to that cluster's XICU HWIs when
    iopic=False).  Node order: ascending physical address (nid = x * ys + y)."""
    ram = ram or hw["HW_RAM0_SIZE"]
    clusters = [(x, y) for x in range(xs) for y in range(ys)]
    with_cpus = [c for c in clusters if cpu_clusters is None or c in cpu_clusters]
    nid = {c: i for i, c in enumerate(clusters)}
    cl_io = cluster_xy(*io)
    cpu_nodes = []
    for (x, y) in with_cpus:
        for l in range(cpus):
            hid = (cluster_xy(x, y) << 4) | l
            cpu_nodes.append(f'cpu@{hid:x} {{ device_type = "cpu"; compatible = "soclib,mips32el"; '
                             f'reg = <0x{hid:x}>; numa-node-id = <{nid[(x, y)]}>; }};')
    per_cluster = []
    for (x, y) in clusters:
        cl = cluster_xy(x, y)
        per_cluster.append(f'memory@{cl:x}00000000 {{ device_type = "memory"; '
                           f'reg = <0x{cl:x} 0x0 0x{ram:x}>; numa-node-id = <{nid[(x, y)]}>; }};')
        if (x, y) in with_cpus:
            label = f"xicu_{x}_{y}: " if (x, y) != io else "xicu_io: "
            per_cluster.append(
                f'{label}xicu@{cl:x}{hw["XICU_BASE"]:08x} {{ '
                f'compatible = "{hw["XICU_COMPATIBLE"]}"; '
                f'reg = <0x{cl:x} 0x{hw["XICU_BASE"]:x} 0x{hw["XICU_SIZE"]:x}>; '
                f'interrupt-controller; #interrupt-cells = <1>; '
                f'clock-frequency = <{hw["HW_CLOCK_HZ"]}>; numa-node-id = <{nid[(x, y)]}>; }};')
    parent = "&iopic" if iopic else "&xicu_io"
    irq = (lambda k: IOPIC_IN[k]) if iopic else \
        (lambda k: {"bdev": hw["BLOCKDEVICE_IRQ"], "tty_rx": hw["TTY_IRQ"],
                    "nic_rx": hw["NIC_IRQ_RX"] if "NIC_IRQ_RX" in hw else 2,
                    "nic_tx": hw["NIC_IRQ_TX"] if "NIC_IRQ_TX" in hw else 3}[k])
    io_nodes = [
        f'tty@{cl_io:x}{hw["TTY_BASE"]:08x} {{ compatible = "{hw["TTY_COMPATIBLE"]}"; '
        f'reg = <0x{cl_io:x} 0x{hw["TTY_BASE"]:x} 0x{hw["TTY_SIZE"]:x}>; '
        f'interrupt-parent = <{parent}>; interrupts = <{irq("tty_rx")}>; }};',
        f'block@{cl_io:x}{hw["BLOCKDEVICE_BASE"]:08x} {{ compatible = "{hw["BDEV_COMPATIBLE"]}"; '
        f'reg = <0x{cl_io:x} 0x{hw["BLOCKDEVICE_BASE"]:x} 0x{hw["BLOCKDEVICE_SIZE"]:x}>; '
        f'interrupt-parent = <{parent}>; interrupts = <{irq("bdev")}>; }};',
        f'simhelper@{cl_io:x}{hw["SIMHELPER_BASE"]:08x} {{ '
        f'compatible = "{hw["SIMHELPER_COMPATIBLE"]}"; '
        f'reg = <0x{cl_io:x} 0x{hw["SIMHELPER_BASE"]:x} 0x{sim_size:x}>; }};',
    ]
    if nic:
        io_nodes.append(
            f'nic@{cl_io:x}{hw["NIC_BASE"]:08x} {{ compatible = "{hw["NIC_COMPATIBLE"]}"; '
            f'reg = <0x{cl_io:x} 0x{hw["NIC_BASE"]:x} 0x{hw["NIC_SIZE"]:x}>; '
            f'interrupt-parent = <{parent}>; interrupts = <{irq("nic_rx")} {irq("nic_tx")}>; }};')
    if iopic:
        io_nodes.append(
            f'iopic: iopic@{cl_io:x}{IOPIC_LOCAL:08x} {{ compatible = "soclib,vci_iopic"; '
            f'reg = <0x{cl_io:x} 0x{IOPIC_LOCAL:x} 0x1000>; interrupt-controller; '
            f'#interrupt-cells = <1>; {iopic_props} }};')
    dist = []
    for a in clusters:
        for b in clusters:
            d = 10 * (1 + abs(a[0] - b[0]) + abs(a[1] - b[1]))
            dist.append(f"{nid[a]} {nid[b]} {d}")
    nl = "\n    "
    return f"""/dts-v1/;
/ {{
    #address-cells = <2>;
    #size-cells = <1>;
    model = "tsar-emu mesh test platform {xs}x{ys}";
    compatible = "tsar,multicluster";
    chosen {{ bootargs = "mesh-test"; }};
    cpus {{
        #address-cells = <1>;
        #size-cells = <0>;
        {nl.join(cpu_nodes)}
    }};
    distance-map {{
        compatible = "numa-distance-map-v1";
        distance-matrix = <{" ".join(dist)}>;
    }};
    {nl.join(per_cluster)}
    {nl.join(io_nodes)}
    {extra}
}};
"""
