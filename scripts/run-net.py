#!/usr/bin/env python3
"""The emulator's network options for `make run`, read from the spec.

Prints the tsar-emu arguments on stdout (one per line) and, with --ssh,
tells the user on stderr how to log in. Nothing at all when the spec's
platform has no NIC (a device compatible with "soclib,vci_multi_nic"):
the emulator then gets no -net option, as before there was a network.

  run-net.py SPEC --net user|none [--fwd OPTS] [--dump FILE.pcap]
             [--ssh KEY]

--net user: libslirp's user-mode network (restricted to the host's
loopback unless OPTS says restrict=off); --ssh KEY adds a forward from a
free TCP port of 127.0.0.1 to the guest's port 22 and prints the ssh and
scp commands that log in with KEY. --fwd appends the user's own options
(hostfwd=..., guestfwd=..., restrict=...) to -net user.
"""
import argparse
import pathlib
import socket
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.spec import SpecError, load_spec  # noqa: E402

NIC = "soclib,vci_multi_nic"


def spec_nic(spec):
    """The name of the spec's NIC device, or None."""
    for dev in spec["platform"]["devices"] or []:
        compat = dev["compatible"]
        if NIC in ([compat] if isinstance(compat, str) else compat):
            return dev["name"]
    return None


def free_port():
    """A TCP port of 127.0.0.1 free now (the emulator, which binds it next,
    says so clearly if another program took it in between)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ssh_commands(port, key):
    """The ssh and scp command lines for a forward of 127.0.0.1:port."""
    opts = f"-i {key} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
    return (f"ssh -p {port} {opts} root@127.0.0.1",
            # -O: the scp protocol (the guest has no sftp-server)
            f"scp -O -P {port} {opts} FILE root@127.0.0.1:/root/")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec")
    ap.add_argument("--net", default="user")
    ap.add_argument("--fwd", default="")
    ap.add_argument("--dump", default="")
    ap.add_argument("--ssh", metavar="KEY")
    a = ap.parse_args()
    if a.net not in ("user", "none"):
        sys.exit(f"run-net: NET={a.net}: expected user or none")
    try:
        spec = load_spec(a.spec).data
    except SpecError as e:
        sys.exit(f"run-net: {e}")
    nic = spec_nic(spec)
    if nic is None:
        if a.fwd or a.dump:
            sys.exit(f"run-net: NET_FWD/NET_DUMP given, but {a.spec} has no NIC "
                     f"(no platform device compatible with \"{NIC}\")")
        return
    if a.net == "none":
        if a.fwd:
            sys.exit("run-net: NET_FWD with NET=none: no network to forward to")
        args = ["-net", "none"]
    else:
        opts = ["user"]
        if a.ssh:
            port = free_port()
            opts.append(f"hostfwd=tcp:127.0.0.1:{port}-:22")
        if a.fwd:
            opts.append(a.fwd)
        args = ["-net", ",".join(opts)]
        if a.ssh:
            ssh, scp = ssh_commands(port, a.ssh)
            print(f"  NET     {nic}: user-mode network, guest port 22 on 127.0.0.1:{port}; "
                  "once the guest says \"network: ... dropbear on port 22\":\n"
                  f"    {ssh}\n    {scp}", file=sys.stderr)
    if a.dump:
        args += ["-net-dump", a.dump]
    print("\n".join(args))


if __name__ == "__main__":
    main()
