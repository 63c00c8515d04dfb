"""The guest's network userland (docs/network.md): BusyBox's networking
applets, dropbear and its build-time keys, the boot-time network start,
and `make run`'s network options (scripts/run-net.py).

Three groups:
- without a kernel: what scripts/run-net.py gives the emulator for a spec
  with and without a NIC (the contract `make run` relies on);
- one BusyBox-shell boot per series, commands typed on the console: the
  applets and dropbear run, the keys are the ones made at build time, the
  network start is silent without an eth0; over the loopback, httpd and
  wget, nc in both directions, ping. Those last need IPv4 in the kernel
  and skip, saying so, while the built kernel's .config has no
  CONFIG_INET;
- end to end, when the spec's platform has a NIC: one boot per series
  with libslirp's user-mode network, all traffic on this machine's
  loopback: DHCP, ICMP echo to the gateway, a file fetched from an HTTP
  server of the test through a guest forward, ssh and scp both ways
  through a host forward, many TCP connections at once from the 4 CPUs
  with the data checked, the NIC's counters. With a NIC declared, a
  network that does not work fails these tests; without one they skip.
"""
import hashlib
import importlib
import os
import re
import shlex
import socket
import socketserver
import subprocess
import sys
import threading

import pytest

from guest import EMU, guest_kernel, without_kernel_messages
from hostnet import BlobServer
from kbuild import ROOT, SERIES_KEYS

pytestmark = pytest.mark.kernel

sys.path.insert(0, str(ROOT / "scripts"))
run_net = importlib.import_module("run-net")
from guest_console import Console  # noqa: E402

# Addresses libslirp gives the guest (docs/network.md), and the guest
# address the test's forwards to host servers listen on.
GUEST_IP, GATEWAY, FWD_IP = "10.0.2.15", "10.0.2.2", "10.0.2.100"
APPLETS = ["ip", "ifconfig", "route", "udhcpc", "wget", "nc", "httpd", "ping", "ping6",
           "hostname"]


def kernel_config(k):
    """The built kernel's .config as {option: value}."""
    return dict(re.findall(r"^(CONFIG_\w+)=(.*)$", (k.out / ".config").read_text(), re.M))


def has_inet(k):
    return kernel_config(k).get("CONFIG_INET") == "y"


def keys_dir(k):
    """Where the build made the ssh keys: the spec's userland directory,
    which a kernel variant shares (the Makefile's UOUT)."""
    name = k.out.name.removesuffix(f"-{k.variant}") if k.variant else k.out.name
    return k.out.parent / name / "dropbear" / "keys"


def client_key(k):
    return keys_dir(k) / "client_ed25519"


# ---------------------------------------------------------------- run-net.py

def nic_spec(tmp_path):
    """The default spec with a NIC added to its devices (an address and an
    interrupt the board leaves free): enough for run-net.py, which reads the
    devices only."""
    text = (ROOT / "arch-spec.yaml").read_text()
    anchor = "    - name: simhelper\n"
    assert anchor in text
    nic = ("    - name: test-nic\n      compatible: [\"soclib,vci_multi_nic\"]\n"
           "      base: 0x1B000000\n      size: 0x4000\n      interrupts: [2]\n")
    spec = tmp_path / "nic.yaml"
    spec.write_text(text.replace(anchor, nic + anchor))
    return spec


def run_net_py(*args):
    return subprocess.run([sys.executable, str(ROOT / "scripts/run-net.py"), *map(str, args)],
                          capture_output=True, text=True)


def test_run_net_without_a_nic_gives_no_option(tmp_path):
    spec = ROOT / "arch-spec.yaml"
    if run_net.spec_nic(run_net.load_spec(spec).data):
        spec = tmp_path / "no-nic.yaml"
        spec.write_text(re.sub(r"    - name: \S+\n      compatible: \[\"soclib,vci_multi_nic\"\]"
                               r"\n(?:      .*\n)*", "", (ROOT / "arch-spec.yaml").read_text()))
    for net in ("user", "none"):
        r = run_net_py(spec, "--net", net, "--ssh", "/k")
        assert r.returncode == 0 and r.stdout == "" and r.stderr == "", r
    # options that need a NIC are refused, not dropped
    r = run_net_py(spec, "--fwd", "hostfwd=tcp::8080-:80")
    assert r.returncode == 1 and "has no NIC" in r.stderr, r


def test_run_net_with_a_nic_forwards_ssh_and_prints_the_commands(tmp_path):
    r = run_net_py(nic_spec(tmp_path), "--ssh", "/keys/client")
    assert r.returncode == 0, r.stderr
    args = r.stdout.split()
    assert args[0] == "-net" and len(args) == 2, args
    m = re.fullmatch(r"user,hostfwd=tcp:127\.0\.0\.1:(\d+)-:22", args[1])
    assert m, args
    port = int(m.group(1))
    assert 1024 <= port < 65536
    opts = "-i /keys/client -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
    assert f"ssh -p {port} {opts} root@127.0.0.1" in r.stderr
    assert f"scp -O -P {port} {opts} FILE root@127.0.0.1:/root/" in r.stderr
    # the port is free: the emulator can take it
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))


def test_run_net_none_forwards_and_dump(tmp_path):
    spec = nic_spec(tmp_path)
    r = run_net_py(spec, "--net", "none", "--ssh", "/k")
    assert (r.returncode, r.stdout.split(), r.stderr) == (0, ["-net", "none"], "")
    r = run_net_py(spec, "--fwd", "hostfwd=tcp::8080-:80,restrict=off", "--dump", "/tmp/x.pcap")
    assert r.stdout.split() == ["-net", "user,hostfwd=tcp::8080-:80,restrict=off",
                                "-net-dump", "/tmp/x.pcap"], r
    for bad, why in ((["--net", "tap"], "expected user or none"),
                     (["--net", "none", "--fwd", "hostfwd=tcp::1-:2"], "NET=none")):
        r = run_net_py(spec, *bad)
        assert r.returncode == 1 and why in r.stderr, r


# ------------------------------------------------- the applets, one boot each

# Typed into the console shell of a portkit_shell=1 boot; every result is a
# line "@@name value". The shell's line editor echoes what is typed and
# wraps it at the terminal's width, so the typed text never holds "@@"
# itself: $M expands to it. The nc listeners hand the connection to a
# program (-e): a listener reading its own stdin would half-close at once,
# and BusyBox's nc drops what it still had to send when the peer's side
# closes.
MARK = r"M=$(printf '\100\100')"
APPLET_SCRIPT = MARK + r"""
for a in {applets}; do $a --help >/dev/null 2>&1; echo "${{M}}applet $a $?"; done
dropbear -V 2>&1 | sed "s/^/${{M}}dropbear-V /"
dropbearkey -y -f /etc/dropbear/dropbear_ed25519_host_key | sed -n "s/^ssh-/${{M}}hostkey ssh-/p"
sed "s/^/${{M}}authkey /" /root/.ssh/authorized_keys
stat -c "${{M}}mode %a %n" /root /root/.ssh /root/.ssh/authorized_keys /etc/dropbear/dropbear_ed25519_host_key
dropbearkey -t ed25519 -f /tmp/guest-key >/dev/null 2>&1; echo "${{M}}keygen $?"
dropbearkey -y -f /tmp/guest-key | sed -n "s/^ssh-ed25519 \([^ ]*\).*/${{M}}guestkey \1/p"
ip link show | sed -n "s/^[0-9]*: \([a-z0-9]*\):.*/${{M}}link \1/p"
ip -s link | sed -n "s/^ *\([RT]X\): *bytes .*/${{M}}stats-head \1/p; s/^ *\([0-9][0-9 ]*\)$/${{M}}stats-values \1/p"
echo "${{M}}inet $([ -d /proc/sys/net/ipv4 ] && echo y || echo n)"
echo "${{M}}ipv6 $([ -d /proc/sys/net/ipv6 ] && echo y || echo n)"
if [ -d /proc/sys/net/ipv4 ]; then
ip -o addr show dev lo | sed -n "s/.* inet \([0-9./]*\).*/${{M}}lo-addr \1/p"
mkdir -p /tmp/www && dd if=/dev/urandom of=/tmp/www/blob bs=1k count=192 2>/dev/null
echo "${{M}}blob-sha $(sha256sum < /tmp/www/blob | cut -d' ' -f1)"
httpd -p 8080 -h /tmp/www; echo "${{M}}httpd $?"
echo "${{M}}wget-sha $(timeout 60 wget -q -O - http://127.0.0.1:8080/blob | sha256sum | cut -d' ' -f1)"
timeout 60 wget -q -O /dev/null http://localhost:8080/blob; echo "${{M}}wget-localhost $?"
timeout 60 nc -l -p 1234 -e sh -c "cat > /tmp/nc-in" < /dev/null & sleep 1
timeout 60 nc 127.0.0.1 1234 < /tmp/www/blob; wait; echo "${{M}}nc-in $(sha256sum < /tmp/nc-in | cut -d' ' -f1)"
timeout 60 nc -l -p 1235 -e cat /tmp/www/blob < /dev/null & sleep 1
timeout 60 nc 127.0.0.1 1235 < /dev/null > /tmp/nc-out; wait; echo "${{M}}nc-out $(sha256sum < /tmp/nc-out | cut -d' ' -f1)"
cp -p /root/.ssh/authorized_keys /tmp/authorized_keys
dropbearkey -y -f /tmp/guest-key | grep ^ssh-ed25519 >> /root/.ssh/authorized_keys
dropbear -p 2222 -r /etc/dropbear/dropbear_ed25519_host_key -P /tmp/db.pid; echo "${{M}}dropbear-lo $?"
# (stdin: dbclient would read the rest of this script from the console)
timeout 120 dbclient -y -i /tmp/guest-key -p 2222 root@127.0.0.1 'echo "$((6 * 7)) $(id -u)"' </dev/null 2>/tmp/dbclient.err | sed "s/^/${{M}}dbclient /"
kill $(cat /tmp/db.pid); cp -p /tmp/authorized_keys /root/.ssh/authorized_keys
ping -c 2 127.0.0.1 | sed -n "s/.* \([0-9]*\) packets received.*/${{M}}ping \1/p"
[ -d /proc/sys/net/ipv6 ] && ping6 -c 2 ::1 | sed -n "s/.* \([0-9]*\) packets received.*/${{M}}ping6 \1/p"
fi
echo "${{M}}done"
poweroff -f
""".format(applets=" ".join(APPLETS))
assert "@@" not in APPLET_SCRIPT


def results(out, name):
    """The values of a name's "@@name value" lines, in order."""
    return re.findall(rf"^@@{re.escape(name)}(?: (.*?))?[ \t]*$", without_kernel_messages(out),
                      re.M)


@pytest.fixture(scope="module", params=SERIES_KEYS)
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def applets(kernel):
    rc, out, err = kernel.boot("-append", kernel.cmdline("portkit_shell=1"),
                               stdin=APPLET_SCRIPT, timeout=300)
    assert results(out, "done"), out[-4000:] + err[-2000:]
    return rc, out


def test_the_applets_run(applets):
    _, out = applets
    got = dict(v.split() for v in results(out, "applet"))
    assert got == {a: "0" for a in APPLETS}, got


def test_dropbear_runs(applets):
    _, out = applets
    assert results(out, "dropbear-V") == ["Dropbear v2022.83"], out[-3000:]


def test_the_keys_are_the_build_time_ones(kernel, applets):
    """The guest reads its host key back to the public key the host's
    dropbearkey derives from the same file, and root's authorized_keys is
    the client key pair's public half."""
    _, out = applets
    keys = keys_dir(kernel)
    host = subprocess.run(["dropbearkey", "-y", "-f", str(keys / "dropbear_ed25519_host_key")],
                          capture_output=True, text=True, check=True).stdout
    want = re.search(r"^(ssh-ed25519 \S+)", host, re.M).group(1)
    assert [v.split()[:2] for v in results(out, "hostkey")] == [want.split()], out[-3000:]
    pub = (keys / "client_ed25519.pub").read_text().split()[:2]
    assert [v.split()[:2] for v in results(out, "authkey")] == [pub]
    modes = dict(v.split()[::-1] for v in results(out, "mode"))
    assert modes == {"/root": "700", "/root/.ssh": "700", "/root/.ssh/authorized_keys": "600",
                     "/etc/dropbear/dropbear_ed25519_host_key": "600"}, modes


def test_ip_s_link_shows_counters(applets):
    """BusyBox's ip with portkit's -s (userland/busybox/patches): a line of
    counter names and a line of six values, received then sent, for each
    interface (lo at least)."""
    _, out = applets
    heads = results(out, "stats-head")
    values = [v.split() for v in results(out, "stats-values")]
    assert heads[:2] == ["RX", "TX"] and len(heads) % 2 == 0, out[-3000:]
    assert len(values) == len(heads) and all(len(v) == 6 for v in values), values


def test_dropbearkey_makes_a_key_in_the_guest(applets):
    # the guest's random source is usable for key generation
    _, out = applets
    assert results(out, "keygen") == ["0"]
    assert len(results(out, "guestkey")) == 1


def test_the_network_start_without_eth0_is_silent(kernel, applets):
    rc, out = applets
    links = results(out, "link")
    assert "lo" in links, out[-3000:]
    if "eth0" not in links:
        assert not re.search(r"^network:", out, re.M), out[-3000:]
    else:
        # a batch boot (-idle skip) may give up on DHCP: the static fallback
        assert re.search(rf"^network: eth0 {GUEST_IP}/24 by (dhcp|static \(no (DHCP answer|carrier)\)), "
                         rf"gateway ({GATEWAY}|none); dropbear on port 22$", out, re.M), \
            out[-3000:]
    assert rc == 0 and "reboot: Power down" in out, out[-3000:]
    assert "Oops" not in out and "WARNING:" not in out, out[-3000:]


def need_inet(kernel, applets):
    """Skip while the built kernel has no IPv4 (loopback TCP needs it)."""
    if not has_inet(kernel):
        pytest.skip(f"{kernel.out}/.config has no CONFIG_INET: no IPv4 loopback")
    _, out = applets
    assert results(out, "inet") == ["y"], out[-3000:]
    return out


def test_loopback_has_its_address(kernel, applets):
    out = need_inet(kernel, applets)
    assert results(out, "lo-addr") == ["127.0.0.1/8"], out[-3000:]


def test_httpd_and_wget_over_the_loopback(kernel, applets):
    out = need_inet(kernel, applets)
    blob = results(out, "blob-sha")
    assert len(blob) == 1 and len(blob[0]) == 64
    assert results(out, "httpd") == ["0"]
    assert results(out, "wget-sha") == blob, out[-3000:]
    assert results(out, "wget-localhost") == ["0"], out[-3000:]


def test_nc_both_ways_over_the_loopback(kernel, applets):
    out = need_inet(kernel, applets)
    blob = results(out, "blob-sha")
    assert results(out, "nc-in") == blob, out[-3000:]
    assert results(out, "nc-out") == blob, out[-3000:]


def test_dropbear_serves_dbclient_over_the_loopback(kernel, applets):
    """The server side without a NIC: a key made in the guest is added to
    root's keys for this boot and dbclient logs in with it."""
    out = need_inet(kernel, applets)
    assert results(out, "dropbear-lo") == ["0"], out[-3000:]
    assert results(out, "dbclient") == ["42 0"], out[-3000:]


def test_ping_over_the_loopback(kernel, applets):
    out = need_inet(kernel, applets)
    assert results(out, "ping") == ["2"], out[-3000:]
    if results(out, "ipv6") == ["y"]:
        assert results(out, "ping6") == ["2"], out[-3000:]


# ------------------------------------------------------------- end to end

class HashServer(socketserver.ThreadingTCPServer):
    """A TCP server on 127.0.0.1 that reads a connection to its end and
    answers "<bytes> <sha256>": what each of the guest's connections sent."""

    daemon_threads = True

    def __init__(self):
        self.seen = []
        seen = self.seen

        class Handler(socketserver.BaseRequestHandler):
            def handle(self):
                h, n = hashlib.sha256(), 0
                while chunk := self.request.recv(65536):
                    h.update(chunk)
                    n += len(chunk)
                seen.append((n, h.hexdigest()))
                self.request.sendall(f"{n} {h.hexdigest()}\n".encode())

        super().__init__(("127.0.0.1", 0), Handler)


def serve(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Network:
    """One boot with the user-mode network and the test's host servers."""

    def __init__(self, k):
        self.k = k
        self.http = serve(BlobServer(os.urandom(1 << 20)))
        self.hashes = serve(HashServer())
        self.ssh_port = run_net.free_port()
        self.http_port = self.http.server_address[1]
        net = ",".join([
            "user", f"hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22",
            f"guestfwd=tcp:{FWD_IP}:8080-tcp:127.0.0.1:{self.http_port}",
            f"guestfwd=tcp:{FWD_IP}:7000-tcp:127.0.0.1:{self.hashes.server_address[1]}"])
        # -idle sleep: guest timeouts in wall-clock time, as the host answers
        self.console = Console([str(EMU), "-dtb", str(k.dtb), "-timeout", "1200", "-idle", "sleep",
                                "-net", net,
                                "-append", k.cmdline("portkit_shell=1"), str(k.vmlinux)])
        try:
            self.up = self.console.wait(r"^network: (.*)$", 300).group(1)
            # the shell is there once it runs a command; $M for the results
            self.console.run(MARK, timeout=120)
        except BaseException:
            self.close()
            raise

    def ssh_argv(self):
        """The ssh command `make run` prints, with what a script needs
        (no questions, a time limit, no known-hosts noise)."""
        ssh, _ = run_net.ssh_commands(self.ssh_port, client_key(self.k))
        argv = shlex.split(ssh)
        return argv[:1] + ["-o", "BatchMode=yes", "-o", "ConnectTimeout=60",
                           "-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes"] + argv[1:]

    def ssh(self, command, timeout=180, **kw):
        return subprocess.run(self.ssh_argv() + [command], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout, **kw)

    def scp(self, src, dst, timeout=180):
        _, scp = run_net.ssh_commands(self.ssh_port, client_key(self.k))
        argv = shlex.split(scp)[:-2]        # without the example FILE and target
        argv[1:1] = ["-o", "BatchMode=yes", "-o", "ConnectTimeout=60", "-o", "LogLevel=ERROR"]
        return subprocess.run(argv + [str(src), str(dst)], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout)

    def close(self):
        self.console.close()
        self.http.shutdown()
        self.hashes.shutdown()


@pytest.fixture(scope="module")
def network(kernel):
    nic = run_net.spec_nic(kernel.spec)
    if nic is None:
        pytest.skip(f"{kernel.key}'s platform has no NIC (no device compatible with "
                    f"\"{run_net.NIC}\"): nothing to test over")
    # A declared NIC is meant to work: from here on, failures are failures.
    assert has_inet(kernel), f"the spec declares the NIC '{nic}' but {kernel.out}/.config " \
        "has no CONFIG_INET"
    net = Network(kernel)
    try:
        yield net
    finally:
        net.close()


def test_dhcp_configures_eth0_and_dropbear_starts(network):
    # restricted, libslirp's lease may name no router (gateway none)
    assert re.fullmatch(rf"eth0 {GUEST_IP}/24 by dhcp, gateway ({GATEWAY}|none); "
                        "dropbear on port 22", network.up), network.console.text()[-4000:]


def test_icmp_echo_to_the_gateway(network):
    rc, out = network.console.run(f"ping -c 3 -W 5 {GATEWAY}")
    assert rc == 0 and "3 packets transmitted, 3 packets received" in out, out


def test_wget_from_a_host_http_server_through_a_guest_forward(network):
    rc, out = network.console.run(
        f"wget -q -O /tmp/blob http://{FWD_IP}:8080/blob && "
        "echo \"${M}sha $(sha256sum < /tmp/blob | cut -d' ' -f1)\"", timeout=300)
    want = hashlib.sha256(network.http.blob).hexdigest()
    assert rc == 0 and results(out, "sha") == [want], out[-3000:]
    assert network.http.requests == ["/blob"]


def test_ssh_login_with_the_build_time_key(network):
    r = network.ssh("echo \"@@$((6 * 7)) $(id -u) $(cat /proc/sys/kernel/hostname)\"")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "@@42 0 tsar", r.stdout


def test_ssh_refuses_passwords(network):
    argv = network.ssh_argv()
    argv[1:1] = ["-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=password"]
    r = subprocess.run(argv + ["true"], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=180)
    assert r.returncode == 255 and "Permission denied" in r.stderr, r


def test_scp_both_ways(network, tmp_path):
    up = tmp_path / "up"
    up.write_bytes(os.urandom(300 * 1024))
    r = network.scp(up, "root@127.0.0.1:/tmp/up")
    assert r.returncode == 0, r.stderr
    r = network.ssh("sha256sum /tmp/up && "
                    "dd if=/dev/urandom of=/tmp/down bs=1k count=200 2>/dev/null && "
                    "sha256sum /tmp/down")
    assert r.returncode == 0, r.stderr
    sums = dict(line.split()[::-1] for line in r.stdout.splitlines())
    assert sums["/tmp/up"] == hashlib.sha256(up.read_bytes()).hexdigest()
    down = tmp_path / "down"
    r = network.scp("root@127.0.0.1:/tmp/down", down)
    assert r.returncode == 0, r.stderr
    assert down.stat().st_size == 200 * 1024
    assert hashlib.sha256(down.read_bytes()).hexdigest() == sums["/tmp/down"]


def test_udhcpc_script_applies_router_and_dns(network):
    """What a lease with a router and DNS servers (libslirp's with
    restrict=off) makes of the guest's configuration: udhcpc's event
    script run as udhcpc runs it, for the address eth0 already has."""
    rc, out = network.console.run(
        f"interface=eth0 ip={GUEST_IP} mask=24 router={GATEWAY} dns='10.0.2.3 10.0.2.4' "
        "domain=example /etc/udhcpc/default.script renew; "
        "ip route | sed -n \"s/^/${M}route /p\"; sed \"s/^/${M}resolv /\" /etc/resolv.conf; "
        "ip -4 -o addr show dev eth0 | sed -n \"s/.* inet \\([0-9./]*\\).*/${M}addr \\1/p\"")
    assert rc == 0, out
    assert results(out, "addr") == [f"{GUEST_IP}/24"], out
    assert any(re.match(rf"default via {GATEWAY} dev eth0", r) for r in results(out, "route")), out
    assert results(out, "resolv") == ["search example", "nameserver 10.0.2.3",
                                      "nameserver 10.0.2.4"], out


# 4 CPUs x 8 connections at once, each sending its own random 48 KiB and
# reading back what the host received.
PARALLEL = r"""cpus=$(nproc); echo "${M}cpus $cpus"
for c in $(seq 0 $((cpus - 1))); do for j in $(seq 1 8); do
dd if=/dev/urandom of=/tmp/p$c.$j bs=1k count=48 2>/dev/null; done; done
for c in $(seq 0 $((cpus - 1))); do for j in $(seq 1 8); do
taskset -c $c sh -c "timeout 300 nc {ip} 7000 < /tmp/p$c.$j > /tmp/r$c.$j" & done; done; wait
for c in $(seq 0 $((cpus - 1))); do for j in $(seq 1 8); do
echo "${M}conn $c.$j $(wc -c < /tmp/p$c.$j) $(sha256sum < /tmp/p$c.$j | cut -d' ' -f1) $(cat /tmp/r$c.$j)"
done; done""".replace("\n", "; ").replace("do; ", "do ").replace("{ip}", FWD_IP)


def test_parallel_tcp_connections_from_every_cpu(network):
    rc, out = network.console.run(PARALLEL, timeout=600)
    assert rc == 0, out[-3000:]
    assert results(out, "cpus") == ["4"], out[-3000:]
    conns = [v.split() for v in results(out, "conn")]
    assert len(conns) == 32, out[-3000:]
    bad = [c for c in conns if len(c) != 5 or c[1:3] != c[3:5] or c[1] != str(48 * 1024)]
    assert not bad, bad
    assert sorted((int(c[1]), c[2]) for c in conns) == sorted(network.hashes.seen)


def test_the_nic_counts_the_traffic(network):
    """The driver's statistics, in sysfs and from `ip -s link` (read
    between two sysfs reads): at least the traffic of the tests above, no
    errors."""
    stat = "for f in *; do echo \"${M}stat$n $f $(cat $f)\"; done"
    rc, out = network.console.run(
        f"cd /sys/class/net/eth0/statistics && n=0 && {stat} && "
        "ip -s link show eth0 | sed -n \"s/^ *\\([0-9][0-9 ]*\\)$/${M}ip \\1/p\" && "
        f"n=1 && {stat}; cd")
    assert rc == 0, out
    before, stats = ({k: int(v) for k, v in (s.split() for s in results(out, f"stat{n}"))}
                     for n in (0, 1))
    ip = [[int(x) for x in v.split()] for v in results(out, "ip")]
    assert len(ip) == 2, out
    for row, names in zip(ip, (("rx_bytes", "rx_packets", "rx_errors", "rx_dropped"),
                               ("tx_bytes", "tx_packets", "tx_errors", "tx_dropped"))):
        for value, name in zip(row, names):
            assert before[name] <= value <= stats[name], (name, value, before, stats)
    # received: the HTTP file, the scp upload; sent: the parallel
    # connections' data, the scp download
    assert stats["rx_bytes"] >= (1 << 20) + 300 * 1024, stats
    assert stats["tx_bytes"] >= 32 * 48 * 1024 + 200 * 1024, stats
    assert stats["rx_errors"] == 0 and stats["tx_errors"] == 0, stats


def test_poweroff_after_the_traffic(network):
    c = network.console
    c.proc.stdin.write(b"poweroff\n")
    c.proc.stdin.flush()
    assert c.proc.wait(timeout=120) == 0, c.text()[-3000:]
    out = c.text()
    assert "Oops" not in out and "WARNING:" not in out and "BUG:" not in out, out[-4000:]
