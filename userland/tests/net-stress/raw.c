// SPDX-License-Identifier: GPL-2.0
/*
 * net-stress's checks below the transport sockets: ICMP echo through ping
 * sockets (ping4, ping6) and a raw socket (icmp4-raw), IPv4 and UDP
 * headers built by hand (udp4-raw), Ethernet frames on lo through
 * AF_PACKET (packet). The raw and packet ones need root.
 */
#include "net-stress.h"

/* ------------------------------------------------------------ ICMP */

#define PING_COUNT	20
#define PING_DATA	56

static unsigned short inet_csum(const void *data, size_t len, unsigned int sum)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

static int ping_family;

/* Echo requests through a ping socket: the kernel sets id and checksum. */
static int ping_worker(long k)
{
	int v6 = ping_family == AF_INET6, seq, bad = 0;
	unsigned char buf[sizeof(struct icmp_echo) + PING_DATA + 64];
	struct icmp_echo *e = (void *)buf;
	union addr to;
	int alen = loopback(&to, ping_family, 0);
	long fd = x_socket(ping_family, SOCK_DGRAM, v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP), n;

	if (fd < 0) {
		oops("ping socket: errno %ld", -fd);
		return 1;
	}
	for (seq = 0; seq < PING_COUNT; seq++) {
		memset(e, 0, sizeof(*e));
		e->type = v6 ? ICMPV6_ECHO_REQUEST : ICMP_ECHO;
		e->seq = htons(seq + 1000 * k);
		fill(buf + sizeof(*e), PING_DATA, mix(k, seq, 21), 0);
		if (x_sendto(fd, buf, sizeof(*e) + PING_DATA, 0, &to, alen) !=
		    (long)(sizeof(*e) + PING_DATA)) {
			oops("sendto: errno %d", errno);
			return bad + 1;
		}
		n = x_recv(fd, buf, sizeof(buf), 0);
		if (n != (long)(sizeof(*e) + PING_DATA) ||
		    e->type != (v6 ? ICMPV6_ECHO_REPLY : ICMP_ECHOREPLY) ||
		    ntohs(e->seq) != seq + 1000 * k ||
		    differs(buf + sizeof(*e), PING_DATA, mix(k, seq, 21), 0) >= 0) {
			oops("reply %d: %ld bytes, type %d seq %d", seq, n, e->type,
			     ntohs(e->seq));
			bad++;
			continue;
		}
		add(&cnt->a, 1);
	}
	close(fd);
	return bad;
}

void test_ping(int family)
{
	const char *name = family == AF_INET ? "ping4" : "ping6";
	pid_t pids[2];
	long t0 = now_ms(), probe;
	int bad;

	part = name;
	ping_family = family;
	reset_counters();
	probe = x_socket(family, SOCK_DGRAM, family == AF_INET ? IPPROTO_ICMP : IPPROTO_ICMPV6);
	if (probe == -EAFNOSUPPORT) {
		say("net-stress: %s: skipped, no IPv%s in this kernel\n", name, fam_name(family));
		return;
	}
	close(probe);
	pids[0] = worker(1, ping_worker, 1);
	pids[1] = worker(2, ping_worker, 2);
	bad = reap(pids, 2);
	report(name, !bad && cnt->a == 2 * PING_COUNT, "%u echo replies of %d checked, %ld ms",
	       cnt->a, 2 * PING_COUNT, now_ms() - t0);
}

/* Echo through a raw socket: our own header, id and checksum. */
void test_icmp_raw(void)
{
	unsigned char buf[sizeof(struct iphdr) + sizeof(struct icmp_echo) + PING_DATA + 64];
	unsigned char req[sizeof(struct icmp_echo) + PING_DATA];
	struct icmp_echo *e = (void *)req;
	unsigned short id = getpid() & 0xffff;
	int seq, good = 0, others = 0, bad = 0;
	long t0 = now_ms(), fd = x_socket(AF_INET, SOCK_RAW, IPPROTO_ICMP), n;
	union addr to;
	int alen = loopback(&to, AF_INET, 0);

	part = "icmp4-raw";
	if (fd == -EAFNOSUPPORT || fd == -EPERM) {
		say("net-stress: icmp4-raw: skipped, %s\n",
		    fd == -EPERM ? "not root" : "no IPv4 in this kernel");
		return;
	}
	for (seq = 0; seq < PING_COUNT && fd >= 0; seq++) {
		memset(req, 0, sizeof(req));
		e->type = ICMP_ECHO;
		e->id = htons(id);
		e->seq = htons(seq);
		fill(req + sizeof(*e), PING_DATA, mix(id, seq, 31), 0);
		e->cksum = htons(inet_csum(req, sizeof(req), 0));
		if (x_sendto(fd, req, sizeof(req), 0, &to, alen) != sizeof(req)) {
			oops("sendto: errno %d", errno);
			bad++;
			break;
		}
		/* the raw socket sees our request too, and anything else ICMP */
		for (;;) {
			struct iphdr *ip = (void *)buf;
			struct icmp_echo *r;

			n = x_recv(fd, buf, sizeof(buf), 0);
			if (n < (long)sizeof(*ip))
				break;
			r = (void *)(buf + ip->ihl * 4);
			if (r->type != ICMP_ECHOREPLY || ntohs(r->id) != id) {
				others++;
				continue;
			}
			if (n != (long)(ip->ihl * 4 + sizeof(req)) || ip->protocol != IPPROTO_ICMP ||
			    ip->saddr != htonl(0x7f000001) || ntohs(r->seq) != seq ||
			    inet_csum(r, sizeof(req), 0) != 0 ||
			    differs((unsigned char *)(r + 1), PING_DATA, mix(id, seq, 31), 0) >= 0) {
				oops("reply %d: %ld bytes, seq %d, bad header, checksum or data",
				     seq, n, ntohs(r->seq));
				bad++;
			} else {
				good++;
			}
			break;
		}
	}
	close(fd);
	report("icmp4-raw", fd >= 0 && !bad && good == PING_COUNT && others >= PING_COUNT,
	       "%d echo replies of %d checked, %d other ICMP packets seen, %ld ms",
	       good, PING_COUNT, others, now_ms() - t0);
}

/* ------------------------------------------------------------ raw UDP */

#define RAWUDP_COUNT	40
#define RAWUDP_PORT	24030

void test_udp_raw(void)
{
	unsigned char pkt[sizeof(struct iphdr) + sizeof(struct udphdr) + 1500];
	unsigned char got[sizeof(pkt) + 64];
	struct iphdr *ip = (void *)pkt;
	struct udphdr *uh = (void *)(ip + 1);
	long t0 = now_ms(), tx, rx, udp, n;
	int i, viaudp = 0, viaraw = 0, bad = 0, alen;
	union addr to, from;

	part = "udp4-raw";
	tx = x_socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (tx == -EAFNOSUPPORT || tx == -EPERM) {
		say("net-stress: udp4-raw: skipped, %s\n",
		    tx == -EPERM ? "not root" : "no IPv4 in this kernel");
		return;
	}
	rx = x_socket(AF_INET, SOCK_RAW, IPPROTO_UDP);
	udp = x_socket(AF_INET, SOCK_DGRAM, 0);
	alen = loopback(&to, AF_INET, RAWUDP_PORT);
	if (tx < 0 || rx < 0 || udp < 0 || x_bind(udp, &to, alen)) {
		say("net-stress: udp4-raw: sockets: FAIL\n");
		failures++;
		return;
	}
	for (i = 0; i < RAWUDP_COUNT; i++) {
		unsigned int dlen = 1 + mix(i, 41, 41) % 1500;
		unsigned int ulen = sizeof(*uh) + dlen, sum;
		struct {
			unsigned int saddr, daddr;
			unsigned char zero, proto;
			unsigned short len;
		} pseudo;
		int flen = sizeof(from);

		memset(pkt, 0, sizeof(*ip) + sizeof(*uh));
		ip->version = 4;
		ip->ihl = 5;
		ip->ttl = 64;
		ip->protocol = IPPROTO_UDP;
		ip->tot_len = htons(sizeof(*ip) + ulen);
		ip->id = htons(i + 1);
		ip->saddr = ip->daddr = htonl(0x7f000001);
		uh->source = htons(RAWUDP_PORT + 1);
		uh->dest = htons(RAWUDP_PORT);
		uh->len = htons(ulen);
		fill((unsigned char *)(uh + 1), dlen, mix(i, 42, 42), 0);
		pseudo = (typeof(pseudo)){ ip->saddr, ip->daddr, 0, IPPROTO_UDP, htons(ulen) };
		sum = 0xffff & ~inet_csum(&pseudo, sizeof(pseudo), 0);
		uh->check = htons(inet_csum(uh, ulen, sum) ?: 0xffff);
		if (x_sendto(tx, pkt, sizeof(*ip) + ulen, 0, &to, alen) != (long)(sizeof(*ip) + ulen)) {
			oops("send %d: errno %d", i, errno);
			bad++;
			break;
		}
		n = x_recvfrom(udp, got, sizeof(got), 0, &from, &flen);
		if (n != (long)dlen || port_of(&from) != RAWUDP_PORT + 1 ||
		    differs(got, dlen, mix(i, 42, 42), 0) >= 0) {
			oops("datagram %d on the UDP socket: %ld bytes of %u, port %d", i, n,
			     dlen, port_of(&from));
			bad++;
		} else {
			viaudp++;
		}
		/* the raw UDP socket gets every UDP packet: find ours */
		for (;;) {
			struct iphdr *rip = (void *)got;
			struct udphdr *ruh;

			n = x_recv(rx, got, sizeof(got), 0);
			if (n < (long)(sizeof(*rip) + sizeof(*ruh)))
				break;
			ruh = (void *)(got + rip->ihl * 4);
			if (ruh->dest != htons(RAWUDP_PORT))
				continue;
			if (n != (long)(sizeof(*ip) + ulen) || ntohs(rip->id) != i + 1 ||
			    ruh->check != uh->check ||
			    memcmp(ruh, uh, ulen)) {
				oops("packet %d on the raw socket: %ld bytes, id %d", i, n,
				     ntohs(rip->id));
				bad++;
			} else {
				viaraw++;
			}
			break;
		}
	}
	close(tx);
	close(rx);
	close(udp);
	report("udp4-raw", !bad && viaudp == RAWUDP_COUNT && viaraw == RAWUDP_COUNT,
	       "%d hand-made datagrams, %d received by UDP, %d by raw UDP, %ld ms",
	       RAWUDP_COUNT, viaudp, viaraw, now_ms() - t0);
}

/* ------------------------------------------------------------ AF_PACKET */

#define PACKET_COUNT	48
#define ETHERTYPE_TEST	0x88b5	/* IEEE's local experimental ethertype */

static int if_index(int fd, const char *name)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, name);
	return x_ioctl(fd, SIOCGIFINDEX, &ifr) ? -1 : ifr.ifr_ifindex;
}

void test_packet(void)
{
	unsigned char frame[14 + 2000], got[14 + 2100];
	long t0 = now_ms(), tx, raw, dgram, tap, n;
	int i, lo, bad = 0, viaraw = 0, viadgram = 0, tapped = 0, outgoing = 0;
	struct sockaddr_ll sll;
	struct tpacket_stats st = { 0, 0 };
	int stlen = sizeof(st);

	part = "packet";
	tx = x_socket(AF_PACKET, SOCK_RAW, 0);
	if (tx == -EAFNOSUPPORT || tx == -EPERM) {
		say("net-stress: packet: skipped, %s\n",
		    tx == -EPERM ? "not root" : "no AF_PACKET in this kernel");
		return;
	}
	raw = x_socket(AF_PACKET, SOCK_RAW, htons(ETHERTYPE_TEST));
	dgram = x_socket(AF_PACKET, SOCK_DGRAM, htons(ETHERTYPE_TEST));
	tap = x_socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	lo = if_index(tx, "lo");
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = lo;
	sll.sll_protocol = htons(ETHERTYPE_TEST);
	if (tx < 0 || raw < 0 || dgram < 0 || tap < 0 || lo < 0 ||
	    x_bind(raw, &sll, sizeof(sll)) || x_bind(dgram, &sll, sizeof(sll))) {
		say("net-stress: packet: sockets (lo %d): FAIL\n", lo);
		failures++;
		return;
	}
	sll.sll_protocol = htons(ETH_P_ALL);
	x_bind(tap, &sll, sizeof(sll));
	for (i = 0; i < PACKET_COUNT; i++) {
		unsigned int dlen = 46 + mix(i, 51, 51) % 1455;
		struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_ifindex = lo,
					  .sll_protocol = htons(ETHERTYPE_TEST), .sll_halen = 6 };
		struct sockaddr_ll from;
		int flen = sizeof(from), k;

		/* lo's address is all zeros: to and from it */
		memset(frame, 0, 12);
		frame[12] = ETHERTYPE_TEST >> 8;
		frame[13] = ETHERTYPE_TEST & 0xff;
		fill(frame + 14, dlen, mix(i, 52, 52), 0);
		if (x_sendto(tx, frame, 14 + dlen, 0, &to, sizeof(to)) != (long)(14 + dlen)) {
			oops("send %d: errno %d", i, errno);
			bad++;
			break;
		}
		n = x_recvfrom(raw, got, sizeof(got), 0, &from, &flen);
		if (n != (long)(14 + dlen) || memcmp(got, frame, n) ||
		    from.sll_pkttype != PACKET_HOST || from.sll_ifindex != lo ||
		    from.sll_protocol != htons(ETHERTYPE_TEST)) {
			oops("frame %d on SOCK_RAW: %ld bytes of %u, type %d", i, n, 14 + dlen,
			     from.sll_pkttype);
			bad++;
		} else {
			viaraw++;
		}
		n = x_recv(dgram, got, sizeof(got), 0);
		if (n != (long)dlen || memcmp(got, frame + 14, n)) {
			oops("frame %d on SOCK_DGRAM: %ld bytes of %u", i, n, dlen);
			bad++;
		} else {
			viadgram++;
		}
		/* the tap sees it leave and come back */
		for (k = 0; k < 2; ) {
			flen = sizeof(from);
			n = x_recvfrom(tap, got, sizeof(got), 0, &from, &flen);
			if (n >= 14 && (got[12] << 8 | got[13]) != ETHERTYPE_TEST)
				continue;	/* lo's other traffic */
			k++;
			if (n != (long)(14 + dlen) || memcmp(got, frame, n)) {
				oops("frame %d on the ETH_P_ALL tap: %ld bytes of %u", i, n,
				     14 + dlen);
				bad++;
				break;
			}
			tapped++;
			outgoing += from.sll_pkttype == PACKET_OUTGOING;
		}
	}
	x_getsockopt(raw, SOL_PACKET, PACKET_STATISTICS, &st, &stlen);
	close(tx);
	close(raw);
	close(dgram);
	close(tap);
	report("packet", !bad && viaraw == PACKET_COUNT && viadgram == PACKET_COUNT &&
	       tapped == 2 * PACKET_COUNT && outgoing == PACKET_COUNT &&
	       st.tp_packets == PACKET_COUNT && !st.tp_drops,
	       "%d frames on lo, %d on SOCK_RAW, %d on SOCK_DGRAM, %d on the tap (%d outgoing), statistics %u packets %u drops, %ld ms",
	       PACKET_COUNT, viaraw, viadgram, tapped, outgoing, st.tp_packets, st.tp_drops,
	       now_ms() - t0);
}
