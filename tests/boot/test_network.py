"""eth0 on the NIC (arch/tsar/drivers/vci_multi_nic.c) with libslirp behind
it, from BusyBox's shell (portkit_shell=1, commands on the console), on
both kernel series.

One boot with `-net user`, two guest forwards to servers this test runs
on 127.0.0.1 and a host forward: eth0 is configured statically (10.0.2.15/24, gateway
10.0.2.2), pings the gateway, fetches a file over HTTP through one forward
(BusyBox wget), sends it back through the other (nc), receives a file
through a host forward (`nc -l` in the guest), fetches the first eight
times at once (the default kernel has 4 CPUs), pings the gateway's IPv6
address, goes down and up again with another MAC, and its carrier
and statistics are read from sysfs and ifconfig (both read the driver's
ndo_get_stats64). The same boot on the debug kernel (kbuild.DEBUG_KEYS)
must report nothing. A second boot with `-net none`: eth0 comes up without
a carrier. The boots use the default
`-idle auto`: with eth0 receiving, the guest idles in wall-clock time
(docs/network.md).
"""
import hashlib
import os
import re
import socket
import threading

import pytest

from guest import DISK_ROOT_ARGS, SPLATS, busybox_disk, guest_kernel
from hostnet import BlobServer
from kbuild import DEBUG_KEYS, SERIES_KEYS, debug_id

pytestmark = pytest.mark.kernel

BLOB = os.urandom(200_000)
PUSHED = os.urandom(100_000)
HTTP_ADDR, SINK_ADDR = "10.0.2.100", "10.0.2.101"

SCRIPT = f"""ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2
echo "net-carrier: $(cat /sys/class/net/eth0/carrier)"
echo "net-before: $(cat /sys/class/net/eth0/statistics/rx_packets) \\
$(cat /sys/class/net/eth0/statistics/tx_packets)"
ping -c 3 10.0.2.2
wget -q -O /tmp/blob http://{HTTP_ADDR}/blob; echo "net-wget-status: $?"
echo "net-wget-sha: $(sha256sum /tmp/blob)"
echo "net-nc-reply: $(nc {SINK_ADDR} 9000 < /tmp/blob)"
nc -l -p 7777 < /dev/null > /tmp/in; echo "net-hostfwd: $(sha256sum /tmp/in)"
for i in 1 2 3 4 5 6 7 8; do
    (wget -q -O /tmp/p$i http://{HTTP_ADDR}/blob && sha256sum /tmp/p$i | sed 's/^/net-par: /') &
done; wait
echo "net-after: $(cat /sys/class/net/eth0/statistics/rx_packets) \\
$(cat /sys/class/net/eth0/statistics/tx_packets) \\
$(cat /sys/class/net/eth0/statistics/rx_bytes) $(cat /sys/class/net/eth0/statistics/tx_bytes)"
ifconfig eth0
ping6 -c 2 fec0::2 | sed -n 's/^2 packets transmitted, \\(.\\) packets received.*/net-ping6: \\1/p'
ip link set eth0 down
ip link set eth0 address 52:54:00:aa:bb:cc
ip link set eth0 up
ip route add default via 10.0.2.2
ping -c 2 10.0.2.2 | sed -n 's/^2 packets transmitted, \\(.\\) packets received.*/net-reup: \\1/p'
echo "net-mac: $(cat /sys/class/net/eth0/address)"
echo net-done
poweroff -f
"""

NONE_SCRIPT = """ip link set eth0 up
sleep 1
echo "net-carrier: $(cat /sys/class/net/eth0/carrier) $(cat /sys/class/net/eth0/operstate)"
ip link show eth0
poweroff -f
"""


def _sink(srv, got):
    """Take one upload of len(BLOB) bytes, answer with its SHA-256."""
    srv.settimeout(300)
    try:
        c, _ = srv.accept()
    except OSError:
        return
    with c:
        c.settimeout(120)
        data = b""
        while len(data) < len(BLOB):
            b = c.recv(65536)
            if not b:
                break
            data += b
        got.append(data)
        c.sendall(hashlib.sha256(data).hexdigest().encode() + b"\n")


def _pusher(port, stop):
    """Send PUSHED to the host forward again and again: the connections
    before the guest's `nc -l` listens are refused or reset."""
    while not stop.is_set():
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
                c.sendall(PUSHED)
                c.shutdown(socket.SHUT_WR)
                while c.recv(4096):
                    pass
        except OSError:
            pass
        stop.wait(0.3)


def boot_with_traffic(k, *extra, root=""):
    """Boot k with the servers and forwards SCRIPT uses, and run it."""
    httpd = BlobServer(BLOB)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    sink = socket.socket()
    sink.bind(("127.0.0.1", 0))
    sink.listen()
    got = []
    t = threading.Thread(target=_sink, args=(sink, got), daemon=True)
    t.start()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    stop = threading.Event()
    threading.Thread(target=_pusher, args=(port, stop), daemon=True).start()
    net = (f"user,guestfwd=tcp:{HTTP_ADDR}:80-tcp:127.0.0.1:{httpd.server_address[1]},"
           f"guestfwd=tcp:{SINK_ADDR}:9000-tcp:127.0.0.1:{sink.getsockname()[1]},"
           f"hostfwd=tcp:127.0.0.1:{port}-:7777")
    try:
        rc, out, err = k.boot("-net", net, "-v", *extra, "-append",
                              k.cmdline(root, "portkit_shell=1"), stdin=SCRIPT, timeout=600)
    finally:
        stop.set()
        httpd.shutdown()
        sink.close()
    t.join(timeout=10)
    return rc, out, err, got


@pytest.fixture(scope="module", params=SERIES_KEYS)
def net_boot(request):
    return boot_with_traffic(guest_kernel(request.param))


@pytest.fixture(scope="module", params=DEBUG_KEYS, ids=debug_id)
def debug_net_boot(request, tmp_path_factory):
    k = guest_kernel(request.param, "debug")
    # Its initramfs has /init and the test programs only: BusyBox comes on
    # a disk, from the root file system of the series' default kernel.
    shell = next(s for s in map(guest_kernel, SERIES_KEYS) if s.series == k.series)
    image = busybox_disk(k, tmp_path_factory.mktemp("debug-net") / "root.img", rootfs=shell)
    return boot_with_traffic(k, "-disk", str(image), root=DISK_ROOT_ARGS)


def test_debug_kernel_under_network_load(debug_net_boot):
    """The same traffic on the debug kernel (lockdep, DEBUG_ATOMIC_SLEEP,
    DEBUG_PAGEALLOC, SLUB debugging...): the driver's interrupt, NAPI,
    transmit, statistics and stop/open paths under load, reported by
    nothing."""
    rc, out, err, got = debug_net_boot
    assert "net-done" in out and rc == 0, (err, out[-4000:])
    assert line(out, "net-wget-sha").split()[0] == hashlib.sha256(BLOB).hexdigest()
    assert got == [BLOB]
    assert len(re.findall(r"^net-par: ", out, re.M)) == 8, out[-4000:]
    assert line(out, "net-reup") == "2"
    found = [s for s in SPLATS if s in out]
    assert not found, (found, out[-6000:])


def line(out, key):
    m = re.search(rf"^{key}: (.*)$", out, re.M)
    assert m, f"no '{key}:' line in:\n{out[-4000:]}"
    return m.group(1).strip()


def test_driver_probes(net_boot):
    rc, out, err, _ = net_boot
    assert re.search(r"eth0: SoCLib multi-NIC at \[mem 0x18000000-0x1807ffff\], "
                     r"MAC 52:54:00:12:34:56, irq \d+ \(RX\) \d+ \(TX\)$", out, re.M), out[:6000]
    assert "net-done" in out, out[-4000:]
    assert rc == 0, err


def test_carrier_up(net_boot):
    assert line(net_boot[1], "net-carrier") == "1"


def test_ping_the_gateway(net_boot):
    out = net_boot[1]
    assert re.search(r"^3 packets transmitted, 3 packets received, 0% packet loss$", out,
                     re.M), out[-4000:]
    rtt = re.search(r"^round-trip min/avg/max = ([\d.]+)/([\d.]+)/([\d.]+) ms$", out, re.M)
    assert rtt, out[-4000:]


def test_http_through_a_guest_forward(net_boot):
    out = net_boot[1]
    assert line(out, "net-wget-status") == "0"
    assert line(out, "net-wget-sha").split()[0] == hashlib.sha256(BLOB).hexdigest()


def test_upload_through_a_guest_forward(net_boot):
    out, got = net_boot[1], net_boot[3]
    assert got == [BLOB]
    assert line(out, "net-nc-reply") == hashlib.sha256(BLOB).hexdigest()


def test_host_forward_into_the_guest(net_boot):
    # what ssh from the host does: a host port forwarded to a guest server
    assert line(net_boot[1], "net-hostfwd").split()[0] == hashlib.sha256(PUSHED).hexdigest()


def test_parallel_connections_on_four_cpus(net_boot):
    # eight fetches at once, from the shell's children on the 4 CPUs
    sums = re.findall(r"^net-par: (\w+)  /tmp/p(\d)$", net_boot[1], re.M)
    assert sorted(n for _, n in sums) == [str(i) for i in range(1, 9)], net_boot[1][-4000:]
    assert {h for h, _ in sums} == {hashlib.sha256(BLOB).hexdigest()}


def test_statistics_move(net_boot):
    out = net_boot[1]
    rx0, tx0 = map(int, line(out, "net-before").split())
    rx1, tx1, rxb, txb = map(int, line(out, "net-after").split())
    # the file both ways in 1460-byte segments, and their acknowledgements
    assert rx1 - rx0 > len(BLOB) // 1500 and tx1 - tx0 > len(BLOB) // 1500
    assert rxb > len(BLOB) and txb > len(BLOB)
    # ifconfig shows the driver's counters (ndo_get_stats64), no errors
    m = re.search(r"RX packets:(\d+) errors:(\d+) dropped:(\d+) overruns:(\d+)", out)
    assert m and int(m.group(1)) >= rx1 and m.group(2, 3, 4) == ("0", "0", "0"), out[-3000:]
    m = re.search(r"TX packets:(\d+) errors:(\d+) dropped:(\d+)", out)
    assert m and int(m.group(1)) >= tx1 and m.group(2, 3) == ("0", "0"), out[-3000:]
    # the NIC's side agrees: nothing dropped for want of room
    m = re.search(r"nic: rx (\d+) frames \((\d+) delivered, (\d+) dropped, (\d+) with the FIFO",
                  net_boot[2])
    assert m and int(m.group(4)) == 0, net_boot[2]


def test_ipv6_to_the_gateway(net_boot):
    # SLAAC from libslirp's router advertisement (fec0::/64), multicast
    # received with the broadcasts
    assert line(net_boot[1], "net-ping6") == "2"


def test_down_up_and_a_new_mac(net_boot):
    # stop/open keep the driver on the NIC's containers; the NIC's address
    # filter follows the new MAC
    out = net_boot[1]
    assert line(out, "net-mac") == "52:54:00:aa:bb:cc"
    assert line(out, "net-reup") == "2"


@pytest.fixture(scope="module", params=SERIES_KEYS)
def none_boot(request):
    k = guest_kernel(request.param)
    return k.boot("-net", "none", "-append", k.cmdline("portkit_shell=1"), stdin=NONE_SCRIPT,
                  timeout=300)


def test_no_carrier_without_a_cable(none_boot):
    rc, out, err = none_boot
    assert line(out, "net-carrier") == "0 down"
    assert re.search(r"eth0: <NO-CARRIER,BROADCAST,MULTICAST,UP>", out), out[-3000:]
    assert "no link" in out
    assert rc == 0, err


@pytest.mark.parametrize("key", SERIES_KEYS)
def test_boots_stay_reproducible_with_the_nic(key):
    """A boot that leaves eth0 down runs the same instructions every time,
    on libslirp's network (the default) and without a cable."""
    k = guest_kernel(key)
    for net in ([], ["-net", "none"]):
        counts = set()
        for _ in range(2):
            rc, out, err = k.boot(*net, "-v")
            assert rc == 0, err
            counts.add(re.search(r"after (\d+) instructions", err).group(1))
        assert len(counts) == 1, (net, counts)
