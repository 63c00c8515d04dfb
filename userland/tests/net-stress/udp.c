// SPDX-License-Identifier: GPL-2.0
/*
 * net-stress's UDP checks, over IPv4 and IPv6: echo pairs (udp4, udp6)
 * with SIOCINQ, MSG_PEEK and sendmmsg/recvmmsg, and a flood (udp4-flood,
 * udp6-flood) of 3 senders into one small receive buffer, whose losses
 * must all show in the kernel's RcvbufErrors counter.
 */
#include "net-stress.h"

#define UDP_PAIRS	2
#define UDP_ROUNDS	40
#define UDP_BATCH	8
#define UDP_PORT	24010
#define UDP_MAX		60000

static int udp_family;

static int udp_batch_round(int r)
{
	return r % 4 == 3;
}

static unsigned int udp_len(int pair, int r, int i)
{
	if (r % 20 == 7 && !i)
		return UDP_MAX;		/* a 60 KB datagram now and then */
	return 1 + mix(pair, r, i + udp_family) % (udp_batch_round(r) ? 1500 : 4000);
}

static unsigned int udp_seed(int pair, int r, int i)
{
	return mix(pair + 100, r, i);
}

static int udp_check(const char *who, const unsigned char *buf, long n,
		     int pair, int r, int i, unsigned int xor)
{
	unsigned int len = udp_len(pair, r, i);
	long bad;

	if (n != (long)len) {
		oops("%s round %d datagram %d: %ld bytes, expected %u", who, r, i, n, len);
		return 1;
	}
	bad = differs(buf, n, udp_seed(pair, r, i) ^ xor, 0);
	if (bad >= 0) {
		oops("%s round %d datagram %d: byte %ld differs", who, r, i, bad);
		return 1;
	}
	return 0;
}

/* Send or receive UDP_BATCH datagrams with one call each (retried while short). */
static int udp_mmsg(int fd, int send, unsigned char **bufs, unsigned int *lens,
		    union addr *to, int tolen, union addr *from)
{
	struct mmsghdr m[UDP_BATCH];
	struct iovec iov[UDP_BATCH];
	int i, done = 0;
	long r;

	while (done < UDP_BATCH) {
		memset(m, 0, sizeof(m));
		for (i = done; i < UDP_BATCH; i++) {
			iov[i].iov_base = bufs[i];
			iov[i].iov_len = send ? lens[i] : UDP_MAX;
			m[i].msg_hdr.msg_iov = &iov[i];
			m[i].msg_hdr.msg_iovlen = 1;
			if (send) {
				m[i].msg_hdr.msg_name = to;
				m[i].msg_hdr.msg_namelen = tolen;
			} else if (from) {
				m[i].msg_hdr.msg_name = &from[i];
				m[i].msg_hdr.msg_namelen = sizeof(from[i]);
			}
		}
		r = send ? x_sendmmsg(fd, m + done, UDP_BATCH - done, 0) :
			   x_recvmmsg(fd, m + done, UDP_BATCH - done, MSG_WAITFORONE);
		if (r <= 0) {
			oops("%s: %ld", send ? "sendmmsg" : "recvmmsg", r);
			return -1;
		}
		for (i = done; i < done + r; i++)
			if (!send)
				lens[i] = m[i].msg_len;
		done += r;
	}
	add(&cnt->e, 1);
	return 0;
}

static unsigned char *udp_bufs(unsigned char **bufs)
{
	unsigned char *mem = map_private(UDP_BATCH * UDP_MAX);
	int i;

	for (i = 0; mem && i < UDP_BATCH; i++)
		bufs[i] = mem + i * UDP_MAX;
	return mem;
}

static int udp_server(long pair)
{
	unsigned char *bufs[UDP_BATCH];
	unsigned int lens[UDP_BATCH];
	union addr me, from[UDP_BATCH];
	int r, i, bad = 0, alen = loopback(&me, udp_family, UDP_PORT + pair);
	long fd = x_socket(udp_family, SOCK_DGRAM, 0), n;

	if (!udp_bufs(bufs) || fd < 0 || x_bind(fd, &me, alen)) {
		oops("server %ld: socket/bind", pair);
		return 1;
	}
	add(&cnt->f, 1);	/* bound: the client may start */
	for (r = 0; r < UDP_ROUNDS; r++) {
		if (udp_batch_round(r)) {
			if (udp_mmsg(fd, 0, bufs, lens, NULL, 0, from))
				return bad + 1;
			for (i = 0; i < UDP_BATCH; i++) {
				bad += udp_check("server", bufs[i], lens[i], pair, r, i, 0);
				fill(bufs[i], lens[i], udp_seed(pair, r, i) ^ RESPONSE, 0);
			}
			if (udp_mmsg(fd, 1, bufs, lens, &from[0], sizeof(from[0]), NULL))
				return bad + 1;
			add(&cnt->a, UDP_BATCH);
			continue;
		}
		{
			struct pollfd pfd = { fd, POLLIN, 0 };
			int flen = sizeof(from[0]), avail = -1;
			unsigned int len = udp_len(pair, r, 0);

			/* wait, then look before taking it */
			poll(&pfd, 1, -1);
			x_ioctl(fd, SIOCINQ, &avail);
			n = x_recvfrom(fd, bufs[0], 16, MSG_PEEK | MSG_TRUNC, NULL, NULL);
			if (avail != (int)len || n != (long)len ||
			    differs(bufs[0], len < 16 ? len : 16, udp_seed(pair, r, 0), 0) >= 0) {
				oops("round %d: SIOCINQ %d, peek %ld, datagram %u", r, avail, n, len);
				bad++;
			}
			add(&cnt->c, 1);
			n = x_recvfrom(fd, bufs[0], UDP_MAX, 0, &from[0], &flen);
			bad += udp_check("server", bufs[0], n, pair, r, 0, 0);
			if (!is_loopback(&from[0], udp_family)) {
				oops("round %d: the sender is not the loopback address", r);
				bad++;
			}
			fill(bufs[0], len, udp_seed(pair, r, 0) ^ RESPONSE, 0);
			if (x_sendto(fd, bufs[0], len, 0, &from[0], flen) != (long)len) {
				oops("round %d: reply not sent", r);
				return bad + 1;
			}
			add(&cnt->a, 1);
		}
	}
	close(fd);
	return bad;
}

static int udp_client(long pair)
{
	unsigned char *bufs[UDP_BATCH];
	unsigned int lens[UDP_BATCH];
	union addr srv, from;
	int r, i, bad = 0, alen = loopback(&srv, udp_family, UDP_PORT + pair);
	long fd = x_socket(udp_family, SOCK_DGRAM, 0), n;

	if (!udp_bufs(bufs) || fd < 0) {
		oops("client %ld: socket", pair);
		return 1;
	}
	while (__atomic_load_n(&cnt->f, __ATOMIC_SEQ_CST) < UDP_PAIRS)
		sched_yield();		/* until the servers are bound */
	for (r = 0; r < UDP_ROUNDS; r++) {
		if (udp_batch_round(r)) {
			for (i = 0; i < UDP_BATCH; i++) {
				lens[i] = udp_len(pair, r, i);
				fill(bufs[i], lens[i], udp_seed(pair, r, i), 0);
			}
			if (udp_mmsg(fd, 1, bufs, lens, &srv, alen, NULL) ||
			    udp_mmsg(fd, 0, bufs, lens, NULL, 0, NULL))
				return bad + 1;
			for (i = 0; i < UDP_BATCH; i++)
				bad += udp_check("client", bufs[i], lens[i], pair, r, i, RESPONSE);
			add(&cnt->b, UDP_BATCH);
			for (i = 0; i < UDP_BATCH; i++)
				add_bytes(2 * lens[i]);
			continue;
		}
		{
			unsigned int len = udp_len(pair, r, 0);
			int flen = sizeof(from);

			fill(bufs[0], len, udp_seed(pair, r, 0), 0);
			if (x_sendto(fd, bufs[0], len, 0, &srv, alen) != (long)len) {
				oops("round %d: send", r);
				return bad + 1;
			}
			n = x_recvfrom(fd, bufs[0], UDP_MAX, 0, &from, &flen);
			bad += udp_check("client", bufs[0], n, pair, r, 0, RESPONSE);
			if (port_of(&from) != UDP_PORT + pair) {
				oops("round %d: reply from port %d", r, port_of(&from));
				bad++;
			}
			add(&cnt->b, 1);
			add_bytes(2 * len);
		}
	}
	close(fd);
	return bad;
}

void test_udp(int family)
{
	const char *name = family == AF_INET ? "udp4" : "udp6";
	pid_t pids[2 * UDP_PAIRS];
	long t0 = now_ms(), probe;
	int i, bad, expect;

	part = name;
	udp_family = family;
	probe = x_socket(family, SOCK_DGRAM, 0);
	if (probe == -EAFNOSUPPORT) {
		say("net-stress: %s: skipped, no IPv%s in this kernel\n", name,
		    fam_name(family));
		return;
	}
	close(probe);
	reset_counters();
	for (i = 0; i < UDP_PAIRS; i++) {
		pids[2 * i] = worker(2 * i, udp_server, i);
		pids[2 * i + 1] = worker(2 * i + 1, udp_client, i);
	}
	bad = reap(pids, 2 * UDP_PAIRS);
	expect = UDP_PAIRS * (UDP_ROUNDS / 4 * 3 + UDP_ROUNDS / 4 * UDP_BATCH);
	report(name, !bad && cnt->a == (unsigned int)expect && cnt->b == (unsigned int)expect,
	       "%u datagrams echoed of %d, %u answers checked, %u peeks, %u mmsg calls, %lu bytes, %ld ms",
	       cnt->a, expect, cnt->b, cnt->c, cnt->e, (unsigned long)cnt->bytes,
	       now_ms() - t0);
}

/* UDP flood: senders on the other CPUs, one receiver with a small buffer. */
#define FLOOD_SENDERS	3
#define FLOOD_COUNT	600
#define FLOOD_PORT	24020
#define FLOOD_MAGIC	0x464c4f44u

struct flood_hdr {
	unsigned int magic, sender, seq, len;
};

static unsigned int flood_len(int s, int seq)
{
	return sizeof(struct flood_hdr) + mix(s, seq, 3) % 1000;
}

static int flood_done_pipe[2];

/* Snmp counter "Udp: ... RcvbufErrors" (or Udp6RcvbufErrors). */
static long rcvbuf_errors(int family)
{
	static char buf[4096];
	char *p, *q;
	int field = -1, i;

	if (family == AF_INET) {
		if (read_file("/proc/net/snmp", buf, sizeof(buf)) <= 0)
			return -1;
		/* two "Udp:" lines: the names, then the values */
		for (p = buf; (p = strstr(p, "\nUdp:")); p++) {
			/* field: the spaces up to the name, then to the value */
			if (field < 0) {
				for (i = 0, q = p + 5; *q && *q != '\n'; q++)
					if (*q == ' ' && ++i && !strncmp(q + 1, "RcvbufErrors", 12))
						field = i;
				continue;
			}
			for (i = 0, q = p + 5; *q && *q != '\n' && i < field; q++)
				i += *q == ' ';
			return atol(q);
		}
		return -1;
	}
	if (read_file("/proc/net/snmp6", buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "Udp6RcvbufErrors");
	if (!p)
		return -1;
	for (p += 16; *p == ' ' || *p == '\t'; p++)
		;
	return atol(p);
}

static int flood_sender(long s)
{
	unsigned char buf[1100];
	struct flood_hdr *h = (void *)buf;
	union addr to;
	int seq, alen = loopback(&to, udp_family, FLOOD_PORT);
	long fd = x_socket(udp_family, SOCK_DGRAM, 0);

	if (fd < 0)
		return 1;
	for (seq = 0; seq < FLOOD_COUNT; seq++) {
		unsigned int len = flood_len(s, seq);

		*h = (struct flood_hdr){ FLOOD_MAGIC, s, seq, len };
		fill(buf + sizeof(*h), len - sizeof(*h), mix(s, seq, 5), 0);
		if (x_sendto(fd, buf, len, 0, &to, alen) != (long)len) {
			oops("sender %ld: sendto", s);
			return 1;
		}
		add(&cnt->a, 1);
	}
	close(fd);
	return 0;
}

static int flood_take(int fd, unsigned char *seen, int flags)
{
	unsigned char buf[1100];
	struct flood_hdr *h = (void *)buf;
	long n = x_recv(fd, buf, sizeof(buf), flags);
	int bit;

	if (n == -EAGAIN && flags)
		return 0;
	if (n < (long)sizeof(*h) || h->magic != FLOOD_MAGIC || h->sender >= FLOOD_SENDERS ||
	    h->seq >= FLOOD_COUNT || n != (long)h->len || n != (long)flood_len(h->sender, h->seq) ||
	    differs(buf + sizeof(*h), n - sizeof(*h), mix(h->sender, h->seq, 5), 0) >= 0) {
		oops("a bad datagram: %ld bytes, sender %u seq %u len %u", n, h->sender,
		     h->seq, h->len);
		return -1;
	}
	bit = h->sender * FLOOD_COUNT + h->seq;
	if (seen[bit / 8] & (1 << bit % 8)) {
		oops("sender %u seq %u received twice", h->sender, h->seq);
		return -1;
	}
	seen[bit / 8] |= 1 << bit % 8;
	add(&cnt->b, 1);
	return 1;
}

static int flood_receiver(long fd)
{
	static unsigned char seen[FLOOD_SENDERS * FLOOD_COUNT / 8 + 1];
	struct pollfd pfd[2] = { { fd, POLLIN, 0 }, { flood_done_pipe[0], POLLIN, 0 } };
	int bad = 0, r;

	close(flood_done_pipe[1]);
	add(&cnt->f, 1);
	for (;;) {
		if (poll(pfd, 2, -1) < 0)
			continue;
		if (pfd[0].revents & POLLIN)
			bad += flood_take(fd, seen, 0) < 0;
		else if (pfd[1].revents)
			break;
	}
	/* the senders are done: what is queued is all that arrived */
	while ((r = flood_take(fd, seen, MSG_DONTWAIT)) != 0)
		bad += r < 0;
	return bad;
}

void test_udp_flood(int family)
{
	const char *name = family == AF_INET ? "udp4-flood" : "udp6-flood";
	pid_t pids[FLOOD_SENDERS], rpid;
	long fd, before, after, t0 = now_ms();
	union addr me;
	int i, bad, alen = loopback(&me, family, FLOOD_PORT);
	unsigned int lost;

	part = name;
	udp_family = family;
	fd = x_socket(family, SOCK_DGRAM, 0);
	if (fd == -EAFNOSUPPORT) {
		say("net-stress: %s: skipped, no IPv%s in this kernel\n", name,
		    fam_name(family));
		return;
	}
	reset_counters();
	/* the kernel doubles it: room for a few dozen datagrams */
	if (fd < 0 || setint(fd, SOL_SOCKET, SO_RCVBUF, 16384) || x_bind(fd, &me, alen) ||
	    pipe(flood_done_pipe)) {
		say("net-stress: %s: socket/bind: FAIL\n", name);
		failures++;
		return;
	}
	before = rcvbuf_errors(family);
	rpid = worker(0, flood_receiver, fd);
	close(fd);
	close(flood_done_pipe[0]);
	while (!__atomic_load_n(&cnt->f, __ATOMIC_SEQ_CST))
		sched_yield();
	for (i = 0; i < FLOOD_SENDERS; i++)
		pids[i] = worker(i + 1, flood_sender, i);
	bad = reap(pids, FLOOD_SENDERS);
	close(flood_done_pipe[1]);
	bad += reap(&rpid, 1);
	after = rcvbuf_errors(family);
	lost = cnt->a - cnt->b;
	/* every datagram lost was dropped for a full buffer, and counted so */
	report(name, !bad && cnt->a == FLOOD_SENDERS * FLOOD_COUNT && cnt->b > 0 &&
	       cnt->b <= cnt->a && before >= 0 && after - before == lost,
	       "%u sent by %d senders, %u received intact, %u lost, RcvbufErrors +%ld, %ld ms",
	       cnt->a, FLOOD_SENDERS, cnt->b, lost, after - before, now_ms() - t0);
}
