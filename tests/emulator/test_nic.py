"""The NIC (SoCLib vci_multi_nic) and tsar-emu's network options.

Bare-metal programs (emulator/tests/baremetal/t_nic*.c) send real frames
through the NIC to libslirp and check its replies; the rest covers -net,
-net-dump, their errors, the flood bounds and the guest-forward relay.
docs/network.md describes the model.
"""
import re
import socket
import struct
import subprocess
import threading
import time

import pytest

from test_baremetal import BUILD, EMU, build, elf, run  # noqa: F401 (build: fixture)
from test_smp import dtbs  # noqa: F401 (fixture)

SMP1_DTB = BUILD / "emulator" / "tests" / "dts" / "smp1.dtb"


@pytest.fixture(scope="module", autouse=True)
def smp1_dtb(dtbs):  # noqa: F811 (the imported fixture)
    """SMP1_DTB (a board without a NIC), made by the emulator's Makefile
    whichever test module runs first."""
    return dtbs[1]
ETH_ARP, ETH_IP = 0x0806, 0x0800
MY_MAC = bytes.fromhex("525400123456")


def insns(stderr):
    m = re.search(rb"after (\d+) instructions", stderr)
    assert m, stderr
    return int(m.group(1))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("accel", ["jit", "interp"])
def test_arp_and_icmp_echo_through_slirp(accel):
    # the default network: -net user,restrict=on
    r = run(["-accel", accel, "-v", "-timeout", "20", elf("t_nic")])
    assert r.returncode == 0, r
    assert r.stdout == b"link=1 arp and icmp echo ok\n"
    assert b"nic: rx 2 frames (2 delivered, 0 dropped" in r.stderr
    assert b"tx 4 frames (2 sent, 2 dropped)" in r.stderr


def test_net_none_is_a_nic_without_carrier():
    r = run(["-net", "none", "-v", "-timeout", "20", elf("t_nic")])
    assert r.returncode == 0, r
    assert r.stdout == b"link=0\n"
    assert b"tx 3 frames (0 sent, 3 dropped)" in r.stderr


def read_pcap(path):
    data = path.read_bytes()
    magic, major, minor, _, _, snap, link = struct.unpack("<IHHiIII", data[:24])
    assert (magic, major, minor, link) == (0xA1B2C3D4, 2, 4, 1)  # LINKTYPE_ETHERNET
    frames, off = [], 24
    while off < len(data):
        _, _, cap, length = struct.unpack("<IIII", data[off:off + 16])
        assert cap == length <= snap
        frames.append(data[off + 16:off + 16 + cap])
        off += 16 + cap
    assert off == len(data)
    return frames


def test_net_dump_records_both_directions(tmp_path):
    dump = tmp_path / "nic.pcap"
    r = run(["-net-dump", dump, "-timeout", "20", elf("t_nic")])
    assert r.returncode == 0, r
    frames = read_pcap(dump)
    kinds = [(struct.unpack(">H", f[12:14])[0], f[:6] == MY_MAC, f[6:12] == MY_MAC)
             for f in frames]
    # ARP request (broadcast, from us), its reply (to us), echo request, echo reply
    assert kinds == [(ETH_ARP, False, True), (ETH_ARP, True, False),
                     (ETH_IP, False, True), (ETH_IP, True, False)], kinds
    assert frames[3][34] == 0 and frames[2][34] == 8  # ICMP echo reply / request
    assert frames[2][42:74] == frames[3][42:74]


def test_net_dump_with_no_cable_holds_no_frames(tmp_path):
    dump = tmp_path / "nic.pcap"
    r = run(["-net", "none", "-net-dump", dump, "-timeout", "20", elf("t_nic")])
    assert r.returncode == 0, r
    assert read_pcap(dump) == []


def test_network_leaves_instruction_counts_alone():
    # a guest that never touches the NIC runs the same instructions whatever
    # the network options, and with no NIC at all
    counts = set()
    for args in ([], ["-net", "none"], ["-net", "user,restrict=off"],
                 ["-dtb", SMP1_DTB]):
        r = run(args + ["-v", "-timeout", "20", elf("t_perf")])
        assert r.returncode == 0, r
        counts.add(insns(r.stderr))
    assert len(counts) == 1, counts


def test_hang_detection_with_the_network_on():
    # libslirp's descriptors do not keep a guest that cannot receive alive
    t0 = time.monotonic()
    r = run(["-net", "user,hostfwd=tcp::%d-:22" % free_port(), "-timeout", "20",
             elf("t_hang")])
    assert r.returncode == 124 and b"guest hang" in r.stderr, r
    assert time.monotonic() - t0 < 5


BAD_NET = [
    (["-net", "tap"], b"-net: expected 'user[,OPTION]...' or 'none', got 'tap'"),
    (["-net", "user,foo=1"], b"-net: unknown option 'foo'"),
    (["-net", "user,restrict"], b"-net: option 'restrict' has no value"),
    (["-net", "user,restrict=maybe"], b"-net: restrict=maybe: expected on or off"),
    (["-net", "user,hostfwd=tcp::22x-:22"], b"-net: hostfwd=tcp::22x-:22: expected"),
    (["-net", "user,hostfwd=tcp::2222"], b"-net: hostfwd=tcp::2222: expected"),
    (["-net", "user,hostfwd=tcp::0-:22"], b"-net: hostfwd=tcp::0-:22: expected"),
    (["-net", "user,hostfwd=tcp:1.2.3:2222-:22"], b"-net: hostfwd=tcp:1.2.3:2222-:22: expected"),
    (["-net", "user,hostfwd=sctp::2222-:22"], b"-net: hostfwd=sctp::2222-:22: expected"),
    (["-net", "user,guestfwd=tcp:10.0.2.100:80"], b"-net: guestfwd=tcp:10.0.2.100:80: expected"),
    (["-net", "user,guestfwd=tcp:10.0.2.100:80-cmd:ls"], b"-net: guestfwd="),
    (["-net", "user,guestfwd=udp:10.0.2.100:80-tcp:127.0.0.1:80"],
     b"only tcp guest forwards exist"),
    (["-net", "user,guestfwd=tcp:10.0.2.2:80-tcp:127.0.0.1:80"],
     b"the guest address must be in 10.0.2.0/24, not the gateway"),
    (["-net", "user,guestfwd=tcp:192.168.1.1:80-tcp:127.0.0.1:80"],
     b"the guest address must be in 10.0.2.0/24"),
    (["-net", "user", "-net", "none"], b"-net: given twice"),
    (["-net-dump", "/x", "-net-dump", "/y"], b"-net-dump: given twice"),
    (["-net"], b"option -net needs an argument"),
    (["-net", "user", "-dtb", SMP1_DTB], b"has no NIC"),
    (["-net", "none", "-dtb", SMP1_DTB], b"has no NIC"),
    (["-net-dump", "/tmp/never.pcap", "-dtb", SMP1_DTB], b"has no NIC"),
    (["-net-dump", "/"], b"-net-dump: /: cannot open for writing"),
]


@pytest.mark.parametrize("args,message", BAD_NET, ids=[" ".join(map(str, a)) for a, _ in BAD_NET])
def test_bad_network_options(args, message):
    r = run(["-timeout", "10", elf("t_hello")] + args, timeout=10)
    assert r.returncode == 126, r
    assert message in r.stderr, r.stderr
    assert r.stdout == b""  # refused before the guest runs
    assert b"Traceback" not in r.stderr and r.stderr.count(b"\n") <= 3


def test_host_forward_to_a_port_in_use():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = run(["-net", f"user,hostfwd=tcp:127.0.0.1:{port}-:22", elf("t_hello")])
    assert r.returncode == 126, r
    assert (f"-net: hostfwd=tcp:127.0.0.1:{port}-10.0.2.15:22: cannot listen on 127.0.0.1 "
            f"port {port}: Address already in use").encode() in r.stderr


def test_host_forward_listens_while_the_guest_runs():
    port = free_port()
    p = subprocess.Popen([str(EMU), "-net", f"user,hostfwd=tcp::{port}-:22,"
                          f"hostfwd=udp::{port}-:7", "-timeout", "20", str(elf("t_loop"))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and p.poll() is None
                time.sleep(0.05)
    finally:
        p.kill()
        p.communicate()


def test_floods_are_bounded():
    # TX: 2000 containers as fast as the guest fills them; RX: a UDP forward
    # flooded while the guest never gives a container back.  The FIFO peaks
    # at its capacity, the rest is dropped and counted, memory stays flat.
    port = free_port()
    p = subprocess.Popen([str(EMU), "-v", "-timeout", "60", "-net",
                          f"user,hostfwd=udp:127.0.0.1:{port}-:7", str(elf("t_nic_flood"))],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def rss_kib():
        with open(f"/proc/{p.pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))

    try:
        assert p.stdout.readline() == b"tx done\n"
        assert p.stdout.readline() == b"ready\n"
        before = peak = rss_kib()
        sent = 0
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            while p.poll() is None and sent < 2_000_000:
                for _ in range(100):
                    s.sendto(bytes(range(256)) * 4, ("127.0.0.1", port))
                    sent += 1
                try:
                    peak = max(peak, rss_kib())
                except (OSError, StopIteration):
                    break
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 0, (out, err)
    assert out == b"flooded\n"
    m = re.search(rb"nic: rx (\d+) frames \((\d+) delivered, (\d+) dropped, (\d+) with the FIFO "
                  rb"full, FIFO peak (\d+) of (\d+)\), tx (\d+) frames \((\d+) sent", err)
    assert m, err
    rx, delivered, dropped, full, fifo_peak, cap, tx, tx_sent = map(int, m.groups())
    assert full >= 500 and fifo_peak == cap == 256
    assert delivered + dropped <= rx <= delivered + dropped + cap  # the rest waits
    assert tx == tx_sent == 4001
    assert peak - before < 4096, f"RSS grew from {before} to {peak} KiB"


def test_guest_forward_relay_copies_both_ways():
    # what libslirp starts for each guest connection of a guestfwd: the
    # connection on stdin/stdout, a TCP connection to the host's server
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    port = srv.getsockname()[1]
    got = []

    def serve():
        c, _ = srv.accept()
        data = b""
        while True:
            b = c.recv(65536)
            if not b:
                break
            data += b
        got.append(data)
        c.sendall(data[::-1])
        c.close()

    t = threading.Thread(target=serve)
    t.start()
    guest, relay_end = socket.socketpair()
    p = subprocess.Popen([str(EMU), "--net-relay", f"127.0.0.1:{port}"], stdin=relay_end,
                         stdout=relay_end, stderr=relay_end)
    relay_end.close()
    payload = bytes(range(256)) * 1000
    guest.sendall(payload)
    guest.shutdown(socket.SHUT_WR)
    back = b""
    guest.settimeout(20)
    while True:
        b = guest.recv(65536)
        if not b:
            break
        back += b
    assert p.wait(timeout=20) == 0
    t.join(timeout=20)
    srv.close()
    assert got == [payload] and back == payload[::-1]


def test_guest_forward_relay_to_a_closed_port():
    guest, relay_end = socket.socketpair()
    p = subprocess.Popen([str(EMU), "--net-relay", f"127.0.0.1:{free_port()}"], stdin=relay_end,
                         stdout=relay_end, stderr=relay_end)
    relay_end.close()
    guest.settimeout(20)
    assert guest.recv(10) == b""  # closed at once, nothing said
    assert p.wait(timeout=20) == 1
