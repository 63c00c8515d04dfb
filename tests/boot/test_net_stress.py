"""The kernel's network paths under load: /bin/net-stress
(userland/tests/net-stress/) on loopback, on both kernel series, in one boot
each of the default kernel: TCP and UDP over IPv4 and IPv6 (connect storms,
epoll, shutdown and reset paths, SO_REUSEADDR, MSG_PEEK, sendmmsg/recvmmsg, a
UDP flood), UNIX socketpairs, SCM_RIGHTS and SCM_CREDENTIALS, ICMP echo
through ping and raw sockets, hand-made UDP through a raw socket, AF_PACKET
on lo, NETLINK_ROUTE dumps and the interface ioctls. Every byte is checked by
the program; here every check must have run (the default kernels have every
family it uses) and passed, with its counts. The debug kernel runs it too
(test_debug_kernel.py runs every program)."""
import re

import pytest

from guest import guest_kernel, program_lines, program_status, without_kernel_messages
from kbuild import SERIES_KEYS

pytestmark = pytest.mark.kernel

PROGRAM = "net-stress"

# What each check's line must say: a pattern of its counts, and a test of
# the numbers it captures (the program's constants: 3 blocking clients of
# 12 connections and an epoll client of 24 per family, 2 UDP pairs of 40
# rounds, 3 flood senders of 600, 40 socketpair round trips, 80 SCM_RIGHTS
# messages, 24 connections and datagrams with credentials, 2 x 20 pings,
# 20 raw echoes, 40 raw UDP datagrams, 48 frames, 4 x 12 netlink rounds).
CHECKS = {
    "tcp4": (r"(\d+) connections served of 60, 36 by blocking clients, 24 by epoll, "
             r"(\d+) bytes, (\d+) resets seen", lambda n, b, r: n == 60 and b > 1000000 and r > 0),
    "tcp6": (r"(\d+) connections served of 60, 36 by blocking clients, 24 by epoll, "
             r"(\d+) bytes, (\d+) resets seen", lambda n, b, r: n == 60 and b > 1000000 and r > 0),
    "tcp4-epoll": (r"24 connects at once, (\d+) in progress, (\d+) events, (\d+) done",
                   lambda p, e, d: e >= 48 and d == 24),
    "tcp6-epoll": (r"24 connects at once, (\d+) in progress, (\d+) events, (\d+) done",
                   lambda p, e, d: e >= 48 and d == 24),
    # EADDRINUSE (98) without, nothing with: the servers' TIME_WAIT sockets
    "tcp4-reuseaddr": (r"bind without SO_REUSEADDR errno (\d+), with (\d+), listen (\d+)",
                       lambda a, b, c: (a, b, c) == (98, 0, 0)),
    "tcp6-reuseaddr": (r"bind without SO_REUSEADDR errno (\d+), with (\d+), listen (\d+)",
                       lambda a, b, c: (a, b, c) == (98, 0, 0)),
    "udp4": (r"(\d+) datagrams echoed of 220, (\d+) answers checked, (\d+) peeks, "
             r"(\d+) mmsg calls", lambda e, a, p, m: e == a == 220 and p == 60 and m >= 80),
    "udp6": (r"(\d+) datagrams echoed of 220, (\d+) answers checked, (\d+) peeks, "
             r"(\d+) mmsg calls", lambda e, a, p, m: e == a == 220 and p == 60 and m >= 80),
    # losses allowed, but something must get through, and the kernel
    # counted every datagram lost as a receive-buffer error
    "udp4-flood": (r"(\d+) sent by 3 senders, (\d+) received intact, (\d+) lost, "
                   r"RcvbufErrors \+(\d+)",
                   lambda s, r, l, e: s == 1800 and r >= 50 and r + l == s and e == l),
    "udp6-flood": (r"(\d+) sent by 3 senders, (\d+) received intact, (\d+) lost, "
                   r"RcvbufErrors \+(\d+)",
                   lambda s, r, l, e: s == 1800 and r >= 50 and r + l == s and e == l),
    "unix-stream": (r"(\d+) round trips of 40, (\d+) bytes", lambda r, b: r == 40 and b > 1000000),
    "unix-dgram": (r"(\d+) round trips of 40, (\d+) bytes", lambda r, b: r == 40 and b > 100000),
    "unix-seqpacket": (r"(\d+) round trips of 40, (\d+) bytes",
                       lambda r, b: r == 40 and b > 100000),
    "unix-rights": (r"(\d+) messages of 80, (\d+) fds of (\d+) passed and checked, "
                    r"(\d+) cycles left to the collector",
                    lambda m, f, t, c: m == 80 and f == t >= 200 and c == 8),
    "unix-cred": (r"(\d+) connections of 24, (\d+) datagrams, (\d+) credentials checked",
                  lambda c, d, k: c == d == 24 and k == 48),
    "ping4": (r"(\d+) echo replies of 40 checked", lambda n: n == 40),
    "ping6": (r"(\d+) echo replies of 40 checked", lambda n: n == 40),
    "icmp4-raw": (r"(\d+) echo replies of 20 checked, (\d+) other ICMP packets seen",
                  lambda n, o: n == 20 and o >= 20),
    "udp4-raw": (r"40 hand-made datagrams, (\d+) received by UDP, (\d+) by raw UDP",
                 lambda u, r: u == r == 40),
    "packet": (r"48 frames on lo, (\d+) on SOCK_RAW, (\d+) on SOCK_DGRAM, (\d+) on the tap "
               r"\((\d+) outgoing\), statistics (\d+) packets (\d+) drops",
               lambda r, d, t, o, p, x: r == d == o == p == 48 and t == 96 and x == 0),
    "netlink": (r"(\d+) dumps, (\d+) link and (\d+) address messages, (\d+) links each",
                lambda d, l, a, n: d == 96 and n >= 2 and l == 48 * n and a >= 96),
    "netdev-ioctl": (r"(\d+) interface ioctls, (\d+) SIOCGIFCONF",
                     lambda i, c: i >= 480 and c == 48),
}


@pytest.fixture(scope="module", params=SERIES_KEYS)
def kernel(request):
    return guest_kernel(request.param)


@pytest.fixture(scope="module")
def run(kernel):
    rc, out, err = kernel.run_programs(PROGRAM, timeout=300)
    return rc, without_kernel_messages(out), err, out


def lines(run):
    return program_lines(run[1], PROGRAM)


def test_kernel_has_the_families(kernel):
    """The default kernels have what every check needs: none may skip."""
    config = (kernel.out / ".config").read_text()
    for option in ("NET", "INET", "IPV6", "UNIX", "PACKET", "EPOLL"):
        assert f"CONFIG_{option}=y" in config, option


def test_program_passes_and_the_kernel_stays_quiet(run):
    rc, out, err, raw = run
    assert program_status(out, PROGRAM) == ("exited", 0), lines(run)
    assert re.search(r"^net-stress: 4 cpus, IPv4 yes, IPv6 yes, lo brought up$", out, re.M), \
        lines(run)
    assert re.search(r"^net-stress: 0 failures, \d+ ms$", out, re.M), lines(run)
    assert not re.search(r"^net-stress: .* error: ", out, re.M), lines(run)
    assert "skipped" not in lines(run)
    for splat in ("WARNING:", "BUG:", "Oops", "Call Trace:", "Kernel panic"):
        assert splat not in raw, (splat, raw[-4000:])
    assert rc == 0, err[-2000:]


@pytest.mark.parametrize("check", CHECKS)
def test_check_ran_and_passed(run, check):
    m = re.search(rf"^net-stress: {re.escape(check)}: (.*): (ok|FAIL)$", run[1], re.M)
    assert m, (check, lines(run))
    assert m.group(2) == "ok", m.group(0)
    pattern, good = CHECKS[check]
    counts = re.match(pattern, m.group(1))
    assert counts, (pattern, m.group(0))
    assert good(*map(int, counts.groups())), m.group(0)


def test_every_check_line_is_known(run):
    """A check the program gained is listed here too."""
    names = re.findall(r"^net-stress: ([\w-]+): .*: (?:ok|FAIL)$", run[1], re.M)
    assert sorted(names) == sorted(CHECKS), lines(run)


def test_a_family_the_kernel_lacks_is_skipped(kernel):
    """ipv6.disable=1 makes AF_INET6 sockets fail as in a kernel built
    without IPv6 (EAFNOSUPPORT): the IPv6 checks say so and are skipped,
    the others run and pass (netlink then expects no ::1 on lo)."""
    rc, out, err = kernel.run_programs(PROGRAM, cmdline="ipv6.disable=1", timeout=300)
    out = without_kernel_messages(out)
    mine = program_lines(out, PROGRAM)
    assert program_status(out, PROGRAM) == ("exited", 0), mine
    assert "net-stress: 4 cpus, IPv4 yes, IPv6 no, lo brought up" in mine
    skipped = re.findall(r"^net-stress: ([\w-]+): skipped, no IPv6 in this kernel$", out, re.M)
    assert sorted(skipped) == ["ping6", "tcp6", "udp6", "udp6-flood"], mine
    passed = re.findall(r"^net-stress: ([\w-]+): .*: ok$", out, re.M)
    assert sorted(passed) == sorted(c for c in CHECKS if "6" not in c), mine
