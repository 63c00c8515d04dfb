#!/usr/bin/env python3
"""Network figures for `make bench-net`: TSAR next to stock MIPS.

The same workload, driven the same way, on TSAR in tsar-emu and on a stock
arch/mips kernel (scripts/malta-kernel.sh --net) on qemu-system-mipsel -M
malta, both behind libslirp's user-mode network with restrict=off, so that
the gateway 10.0.2.2 is this machine's loopback, and with host forwards of
127.0.0.1 ports into the guest:

* guest to host: the guest pipes N MiB of zeros into `nc 10.0.2.2 PORT`; a
  sink of this script on 127.0.0.1:PORT counts the bytes and times the
  first byte to EOF (wall clock) -> MB/s (10^6 bytes a second);
* host to guest: this script sends N MiB through a host forward to `nc -l
  -e dd of=/dev/null bs=64k iflag=fullblock` in the guest, from the
  first byte to dd's record count coming back;
* round trip: through another host forward to a TCP echo in the guest (`nc
  -l -e cat`), one byte sent and read back, ROUNDS times after a warm-up:
  median and 90th percentile in microseconds of wall time;
* the guest's own `ping -c 20 10.0.2.2` (ICMP echo answered by libslirp).

Each system boots to its BusyBox shell (TSAR: portkit_shell=1, the root
file system's BusyBox init and network start; Malta: the reference BusyBox
of `make busybox-ref`, the same source, .config and patches built with
glibc for stock MIPS, in an initramfs with the same /etc and a /init that
mounts what TSAR's /init mounts before starting BusyBox init): TSAR's own
BusyBox cannot run on a stock kernel (musl for TSAR makes asm-generic
system calls: its first, set_thread_area 244, fails on MIPS o32, whose
numbers start at 4000). The commands are typed on the serial console.

TSAR runs on its default 4-CPU board and on the same board with one CPU
(the DTB rewritten as scripts/bench_smp.py does); malta_defconfig is a
uniprocessor kernel, on one 24Kc. Figures, not a test: the script stops
with a message, non-zero, when a side fails (no network, a transfer that
did not complete, a wrong byte count, lost pings).

  bench-net.py --emu E --dtb D --vmlinux V --malta-vmlinux MV
               --gen-init-cpio G --busybox-ref DIR [--bootargs ARGS]
"""
import argparse
import pathlib
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_smp  # noqa: E402
from guest_console import Console, ConsoleError  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
GATEWAY = "10.0.2.2"
ECHO_PORT, SINK_PORT = 7, 5001     # guest ports behind the host forwards
BOOT_TIMEOUT = 600                 # seconds until the guest's network line
PINGS = 20


def fail(msg):
    sys.exit(f"bench-net: {msg}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sink:
    """One connection on 127.0.0.1: its bytes counted (and those that are
    not zero), first byte to EOF timed in wall-clock time; the count is
    sent back before closing."""

    def __init__(self):
        self.srv = socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(1)
        self.port = self.srv.getsockname()[1]
        self.nbytes, self.nonzero, self.seconds, self.error = 0, 0, None, None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        self.srv.settimeout(300)
        try:
            conn, _ = self.srv.accept()
            with conn:
                conn.settimeout(300)
                first = None
                while chunk := conn.recv(1 << 16):
                    if first is None:
                        first = time.monotonic()
                    self.nbytes += len(chunk)
                    self.nonzero += len(chunk) - chunk.count(0)
                if first is not None:
                    self.seconds = time.monotonic() - first
                conn.sendall(f"{self.nbytes}\n".encode())
        except OSError as e:
            self.error = e
        finally:
            self.srv.close()


def guest_to_host(con, nbytes):
    sink = Sink()
    count = nbytes >> 16
    rc, out = con.run(f"dd if=/dev/zero bs=64k count={count} 2>/dev/null | "
                      f"nc {GATEWAY} {sink.port}", timeout=900)
    sink.thread.join(timeout=30)
    if rc != 0 or sink.error or sink.nbytes != nbytes or sink.nonzero or not sink.seconds:
        fail(f"{con.name}: guest to host: {sink.nbytes} of {nbytes} bytes arrived, "
             f"{sink.nonzero} not zero (nc status {rc}, "
             f"{sink.error or 'no socket error'}):\n{out[-1500:]}")
    return nbytes / sink.seconds / 1e6


def connect(port, tries=20):
    """A connection through a host forward (libslirp listens for the guest
    from the start: a refusal is rare, a reset comes later)."""
    for _ in range(tries):
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=300)
        except OSError:
            time.sleep(0.5)
    fail(f"no connection to 127.0.0.1:{port}")


def host_to_guest(con, port, nbytes):
    """The guest's sink is dd, as its source is in guest_to_host: 64 KiB
    blocks, its record count (stderr) sent back at EOF (BusyBox's dd,
    configured without its byte count line, counts full and partial
    blocks: iflag=fullblock makes them N full ones)."""
    chunk = bytes(1 << 16)
    for _ in range(5):
        # libslirp accepts the host's connection at once and resets it
        # if the guest refuses: the listener gets a second to start, and
        # a connection that brought no answer is tried again
        con.run(f"nc -l -p {SINK_PORT} -e sh -c "
                "'dd of=/dev/null bs=64k iflag=fullblock 2>&1' </dev/null >/dev/null 2>&1 "
                "& sleep 1")
        with connect(port) as s:
            start = time.monotonic()
            reply = b""
            try:
                for _ in range(nbytes >> 16):
                    s.sendall(chunk)
                s.shutdown(socket.SHUT_WR)
                while data := s.recv(4096):
                    reply += data
            except OSError:
                pass
            took = time.monotonic() - start
        con.run("kill $! 2>/dev/null; wait")
        if reply:
            break
    if not re.search(rb"^%d\+0 records in$" % (nbytes >> 16), reply, re.M):
        fail(f"{con.name}: host to guest: the guest's dd said {reply!r} for {nbytes} "
             f"bytes:\n{con.tail()}")
    return nbytes / took / 1e6


def round_trips(con, port, rounds, warmup=20):
    con.run(f"nc -l -p {ECHO_PORT} -e cat </dev/null >/dev/null 2>&1 & sleep 1")
    times = []
    with connect(port) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for i in range(warmup + rounds):
            start = time.monotonic()
            s.sendall(b"x")
            if s.recv(1) != b"x":
                fail(f"{con.name}: the TCP echo ended after {i} round trips:\n{con.tail()}")
            if i >= warmup:
                times.append((time.monotonic() - start) * 1e6)
    con.run("kill $! 2>/dev/null; wait")
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))]


def ping(con):
    rc, out = con.run(f"ping -c {PINGS} {GATEWAY}", timeout=120)
    got = re.search(rf"^{PINGS} packets transmitted, (\d+) packets received", out, re.M)
    rtt = re.search(r"^round-trip min/avg/max = ([\d.]+)/([\d.]+)/([\d.]+) ms$", out, re.M)
    if rc != 0 or not got or int(got.group(1)) != PINGS or not rtt:
        fail(f"{con.name}: ping {GATEWAY} lost packets or failed:\n{out[-1500:]}")
    return tuple(float(v) for v in rtt.groups())


def measure(name, cmd_for, nbytes, rounds, repeat):
    """Boot one system (cmd_for(echo host port, sink host port) gives its
    command line), run the workload, return its figures: each transfer
    repeat times, its median (the wall clock follows the machine's load)."""
    echo, sink = free_port(), free_port()
    print(f"  {name}: boot", flush=True)
    con = Console(cmd_for(echo, sink), name)
    try:
        t0 = time.monotonic()
        up = con.wait(r"^network: (eth0 .*)$", BOOT_TIMEOUT).group(1)
        con.ready()
        _, out = con.run("echo \"@@cpus $(cat /sys/devices/system/cpu/online)\"")
        cpus = re.search(r"^@@cpus (\S+)$", out, re.M)
        print(f"  {name}: CPUs {cpus and cpus.group(1)} online, {up} "
              f"({time.monotonic() - t0:.1f} s)", flush=True)
        ups = [guest_to_host(con, nbytes) for _ in range(repeat)]
        downs = [host_to_guest(con, sink, nbytes) for _ in range(repeat)]
        figures = {"up": statistics.median(ups), "down": statistics.median(downs)}
        figures["rtt"] = round_trips(con, echo, rounds)
        figures["ping"] = ping(con)
        print(f"  {name}: MB/s up {' '.join(f'{v:.2f}' for v in ups)}, down "
              f"{' '.join(f'{v:.2f}' for v in downs)}; round trip median "
              f"{figures['rtt'][0]:.0f} us", flush=True)
    finally:
        con.close()
    return figures


def malta_initramfs(ref, gen_init_cpio, tmp):
    """The reference BusyBox in the root file system layout of TSAR's
    (userland/rootfs/build.sh: applet links, the same /etc), its console
    on ttyS0, with a /init that mounts what TSAR's /init mounts for
    portkit_shell=1 and starts BusyBox init."""
    root, lst, progs = tmp / "rootfs", tmp / "rootfs.list", tmp / "no-programs"
    progs.mkdir()
    subprocess.run([ROOT / "userland/rootfs/build.sh", root, ref, progs, lst], check=True)
    inittab = root / "etc/inittab"
    inittab.write_text(inittab.read_text().replace("ttyVTTY0::", "ttyS0::"))
    init = tmp / "init"
    init.write_text("#!/bin/sh\n"
                    "mount -t devtmpfs devtmpfs /dev\n"
                    "mount -t proc proc /proc\n"
                    "mount -t sysfs sysfs /sys\n"
                    "mount -t tmpfs tmpfs /tmp\n"
                    "exec /sbin/init\n")
    with lst.open("a") as f:
        f.write(f"file /init {init} 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\n")
    cpio = tmp / "malta.cpio"
    with cpio.open("wb") as f:
        subprocess.run([gen_init_cpio, lst], stdout=f, check=True)
    return cpio


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for opt in ("emu", "dtb", "vmlinux", "malta-vmlinux", "gen-init-cpio", "busybox-ref"):
        ap.add_argument(f"--{opt}", required=True, type=pathlib.Path)
    ap.add_argument("--bootargs", default="console=ttyVTTY0 earlycon")
    ap.add_argument("--mib", type=int, default=16, help="MiB each way (default 16)")
    ap.add_argument("--rounds", type=int, default=300, help="round trips (default 300)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="transfers each way, median (default 3)")
    a = ap.parse_args()
    for p in (a.emu, a.dtb, a.vmlinux, a.malta_vmlinux, a.gen_init_cpio,
              a.busybox_ref / "busybox", a.busybox_ref / "busybox.links"):
        if not p.is_file():
            fail(f"{p}: no such file")
    nbytes = a.mib << 20

    def net(echo, sink):
        return (f"user,restrict=off,hostfwd=tcp:127.0.0.1:{echo}-:{ECHO_PORT},"
                f"hostfwd=tcp:127.0.0.1:{sink}-:{SINK_PORT}")

    with tempfile.TemporaryDirectory(prefix="bench-net-") as tmp:
        tmp = pathlib.Path(tmp)
        dtb1 = bench_smp.make_dtb(a.dtb, 1, tmp / "1cpu.dtb")
        cpio = malta_initramfs(a.busybox_ref, a.gen_init_cpio, tmp)

        def tsar(dtb):
            # -idle sleep: the guest's idle time is wall-clock time, as the
            # host answers (docs/network.md)
            return lambda echo, sink: [
                str(a.emu), "-dtb", str(dtb), "-idle", "sleep", "-timeout", "1800",
                "-net", net(echo, sink), "-append", f"{a.bootargs} portkit_shell=1",
                str(a.vmlinux)]

        def malta(echo, sink):
            # the on-board PCnet; its option ROM (EFI boot) is not installed
            return ["qemu-system-mipsel", "-M", "malta", "-cpu", "24Kc",
                    "-m", "256M", "-display", "none", "-monitor", "none", "-vga", "none",
                    "-serial", "stdio", "-no-reboot", "-nic", f"{net(echo, sink)},model=pcnet",
                    "-global", "pcnet.romfile=", "-kernel", str(a.malta_vmlinux),
                    "-initrd", str(cpio), "-append", "console=ttyS0"]

        sides = [("TSAR, 4 CPUs", tsar(a.dtb)), ("TSAR, 1 CPU", tsar(dtb1)),
                 ("stock Malta, 1 CPU", malta)]
        got = {name: measure(name, cmd, nbytes, a.rounds, a.repeat) for name, cmd in sides}

    t4, t1, m = (got[name] for name, _ in sides)
    print(f"\nnetwork through libslirp (restrict=off), wall clock: TCP {a.mib} MiB each way"
          f" (median of {a.repeat};\nMB = 10^6 bytes), {a.rounds} TCP echo round trips of "
          "1 byte; TSAR in tsar-emu -idle sleep,\nstock arch/mips (malta_defconfig, INET, "
          "pcnet32) in qemu-system-mipsel -M malta -cpu 24Kc;\nratio = TSAR / Malta (ping: "
          "of the averages):")
    print("| figure | TSAR 4 CPUs | TSAR 1 CPU | Malta 1 CPU | ratio 4 CPUs | ratio 1 CPU |")
    print("|---|---|---|---|---|---|")

    def row(label, show, key):
        vals = [key(f) for f in (t4, t1, m)]
        print(f"| {label} | " + " | ".join(show(f) for f in (t4, t1, m)) +
              f" | {vals[0] / vals[2]:.2f} | {vals[1] / vals[2]:.2f} |")

    def fig(key, fmt):
        return lambda f: format(key(f), fmt)

    up, down = (lambda f: f["up"]), (lambda f: f["down"])
    median, p90 = (lambda f: f["rtt"][0]), (lambda f: f["rtt"][1])
    row("guest to host, MB/s", fig(up, ".2f"), up)
    row("host to guest, MB/s", fig(down, ".2f"), down)
    row("round trip median, us", fig(median, ".0f"), median)
    row("round trip p90, us", fig(p90, ".0f"), p90)
    row(f"ping x{PINGS} min/avg/max, ms",
        lambda f: "/".join(f"{v:.2f}" for v in f["ping"]), lambda f: f["ping"][1])


if __name__ == "__main__":
    try:
        main()
    except ConsoleError as e:
        fail(str(e))
