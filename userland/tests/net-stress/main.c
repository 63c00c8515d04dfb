// SPDX-License-Identifier: GPL-2.0
/*
 * Network stress: the kernel's socket paths on loopback, from processes
 * pinned over the CPUs, each doing a fixed number of operations (no loop
 * bounded by the clock), every byte checked against a known pattern.
 *   tcp4, tcp6         listeners shared by 4 accepting servers; clients
 *                      connect in a storm, send a pattern, get another one
 *                      back; three ways to end (client half-close, server
 *                      closes first, client aborts with a reset)
 *   tcp4-epoll, ...    one client with many non-blocking connects at once,
 *                      driven by epoll
 *   tcp4-reuseaddr     the port, left in TIME_WAIT by the servers, is
 *                      refused without SO_REUSEADDR and taken with it
 *   udp4, udp6         echo pairs: MSG_PEEK, FIONREAD, sendmmsg/recvmmsg
 *   udp4-flood, ...    senders on 3 CPUs flood one receiver with a small
 *                      buffer: losses counted, what arrives must be intact
 *   unix-stream, unix-dgram, unix-seqpacket   socketpairs across CPUs
 *   unix-rights        SCM_RIGHTS: memfds, pipes, sockets, 16 fds at once,
 *                      and in-flight cycles left to the garbage collector
 *   unix-cred          SCM_CREDENTIALS and SO_PEERCRED
 *   ping4, ping6       ICMP echo through ping sockets
 *   icmp4-raw          ICMP echo through a raw socket (root)
 *   udp4-raw           IPv4 + UDP built by hand (IPPROTO_RAW), received by
 *                      a UDP socket and a raw UDP socket (root)
 *   packet             Ethernet frames on lo through AF_PACKET (root)
 *   netlink            RTM_GETLINK/RTM_GETADDR dumps on 4 CPUs, an error
 *   netdev-ioctl       SIOCGIFCONF, SIOCGIF{FLAGS,MTU,INDEX,NAME,HWADDR}
 *                      against what netlink says
 * lo is brought up first (/init configures no network). A family the
 * kernel lacks is reported as skipped. One line per check,
 * "net-stress: <check>: <counts>: ok|FAIL", errors before it on lines
 * "net-stress: <check> error: ..."; exit status: the failed checks.
 *
 * The checks by file: tcp.c, udp.c, unix.c, raw.c (ping, icmp4-raw,
 * udp4-raw, packet), netlink.c (netlink, netdev-ioctl); common.c has the
 * helpers they share and net-stress.h what nolibc lacks. main() brings lo
 * up, runs every check in the order above and says how many failed.
 */
#include "net-stress.h"

int have_inet, have_inet6;

/* ------------------------------------------------------------ set-up */

static int set_lo_up(int up, int *was_up)
{
	long fd = x_socket(AF_UNIX, SOCK_DGRAM, 0);
	struct ifreq ifr;
	long r;

	if (fd < 0)
		fd = x_socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (fd < 0)
		return fd;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	r = x_ioctl(fd, SIOCGIFFLAGS, &ifr);
	if (!r) {
		if (was_up)
			*was_up = ifr.ifr_flags & IFF_UP;
		ifr.ifr_flags = up ? ifr.ifr_flags | IFF_UP : ifr.ifr_flags & ~IFF_UP;
		r = x_ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
	return r;
}

static char ping_range_saved[64];

/* Ping sockets: let every group use them (root's 0 is outside the default). */
static void ping_range(int restore)
{
	const char *path = "/proc/sys/net/ipv4/ping_group_range";
	const char *text = restore ? ping_range_saved : "0 2147483647\n";
	int fd;

	if (!restore && read_file(path, ping_range_saved, sizeof(ping_range_saved)) <= 0)
		return;
	if (restore && !ping_range_saved[0])
		return;
	fd = open(path, O_WRONLY, 0);
	if (fd >= 0) {
		x_write(fd, text, strlen(text));
		close(fd);
	}
}

int main(int argc, char **argv)
{
	long t0 = now_ms(), probe;
	int was_up = 0, r;
	unsigned long mask;

	for (mask = getaffinity(), ncpus = 0; mask; mask &= mask - 1)
		ncpus++;
	if (!ncpus)
		ncpus = 1;
	cnt = map_shared(4096);
	probe = x_socket(AF_INET, SOCK_DGRAM, 0);
	have_inet = probe >= 0;
	close(probe);
	probe = x_socket(AF_INET6, SOCK_DGRAM, 0);
	have_inet6 = probe >= 0;
	close(probe);
	r = set_lo_up(1, &was_up);
	say("net-stress: %d cpus, IPv4 %s, IPv6 %s, lo %s\n", ncpus,
	    have_inet ? "yes" : "no", have_inet6 ? "yes" : "no",
	    r ? "cannot be brought up" : was_up ? "was up" : "brought up");
	if (r == -ENOSYS) {
		say("net-stress: skipped, no networking in this kernel\n");
		return 0;
	}
	if (have_inet)
		ping_range(0);

	test_tcp(AF_INET);
	test_tcp(AF_INET6);
	test_udp(AF_INET);
	test_udp(AF_INET6);
	test_udp_flood(AF_INET);
	test_udp_flood(AF_INET6);
	test_unix_pair(SOCK_STREAM, "unix-stream");
	test_unix_pair(SOCK_DGRAM, "unix-dgram");
	test_unix_pair(SOCK_SEQPACKET, "unix-seqpacket");
	test_unix_rights();
	test_unix_cred();
	test_ping(AF_INET);
	test_ping(AF_INET6);
	test_icmp_raw();
	test_udp_raw();
	test_packet();
	test_netlink();

	if (have_inet)
		ping_range(1);
	if (!was_up && !r)
		set_lo_up(0, NULL);
	say("net-stress: %d failures, %ld ms\n", failures, now_ms() - t0);
	return failures;
}
