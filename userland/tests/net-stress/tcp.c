// SPDX-License-Identifier: GPL-2.0
/*
 * net-stress's TCP checks, over IPv4 and IPv6 (tcp4, tcp6 and their
 * -epoll and -reuseaddr lines): 4 servers accepting on one listener, 3
 * blocking clients ending their connections three ways (half-close,
 * server closes first, reset), a client of non-blocking connects driven
 * by epoll, then SO_REUSEADDR against the TIME_WAIT sockets left behind.
 */
#include "net-stress.h"

#define TCP_SERVERS	4
#define TCP_CLIENTS	3	/* blocking ones, plus the epoll client */
#define TCP_CONNS	12	/* per blocking client */
#define TCP_EPOLL_CONNS	24
#define TCP_MAGIC	0x4e53544bu
#define TCP_PORT	24001

/* What a client sends first. */
struct tcp_hdr {
	unsigned int magic, client, conn, mode, len, port;
};

enum { HALF_CLOSE, SERVER_CLOSES, ABORT };

static int tcp_family;
static int tcp_listener;

static unsigned int tcp_seed(unsigned int client, unsigned int conn)
{
	return mix(client + 1, conn + 1, tcp_family);
}

static int tcp_serve_one(int fd, const union addr *peer)
{
	struct tcp_hdr h;
	long r;
	int bad = 0;

	r = recv_all(fd, &h, sizeof(h));
	if (r != sizeof(h) || h.magic != TCP_MAGIC) {
		oops("server: header %ld bytes, magic %x", r, h.magic);
		return 1;
	}
	if (!is_loopback(peer, tcp_family) || port_of(peer) != (int)h.port) {
		oops("server: accept's peer port %d, the client says %u",
		     port_of(peer), h.port);
		bad++;
	}
	r = recv_pattern(fd, h.len, tcp_seed(h.client, h.conn), h.mode == HALF_CLOSE);
	if (r != (long)h.len) {
		say_recv_error("server: request", r, h.len);
		return bad + 1;
	}
	add_bytes(r);
	r = send_pattern(fd, h.len, tcp_seed(h.client, h.conn) ^ RESPONSE);
	if (r != (long)h.len) {
		oops("server: response: %ld of %u bytes", r, h.len);
		return bad + 1;
	}
	if (h.mode == ABORT) {
		unsigned char c;

		/* the client resets after reading the answer */
		r = x_recv(fd, &c, 1, 0);
		if (r != 0 && r != -ECONNRESET) {
			oops("server: after the reset: %ld", r);
			bad++;
		}
		add(&cnt->c, r == -ECONNRESET);
	}
	return bad;
}

static int tcp_server(long total)
{
	int bad = 0;

	for (;;) {
		union addr peer;
		int len = sizeof(peer);
		long fd;

		/* claim one of the connections to come, or stop */
		if (__atomic_fetch_add(&cnt->claimed, 1, __ATOMIC_SEQ_CST) >= (unsigned long)total)
			break;
		fd = x_accept(tcp_listener, &peer, &len);
		if (fd < 0) {
			oops("accept: errno %ld", -fd);
			return bad + 1;
		}
		bad += tcp_serve_one(fd, &peer);
		add(&cnt->a, 1);
		close(fd);
	}
	return bad;
}

static int tcp_client_conn(int client, int conn, int mode, unsigned int len)
{
	unsigned int seed = tcp_seed(client, conn);
	union addr srv, peer;
	int alen, plen = sizeof(peer), bad = 0;
	struct tcp_hdr h;
	long fd, r;

	alen = loopback(&srv, tcp_family, TCP_PORT);
	fd = x_socket(tcp_family, SOCK_STREAM, 0);
	if (fd < 0 || (r = x_connect(fd, &srv, alen)) < 0) {
		oops("client %d conn %d: socket/connect: errno %ld", client, conn,
		     fd < 0 ? -fd : -r);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (x_getpeername(fd, &peer, &plen) || !is_loopback(&peer, tcp_family) ||
	    port_of(&peer) != TCP_PORT) {
		oops("client %d conn %d: getpeername port %d", client, conn,
		     port_of(&peer));
		bad++;
	}
	h = (struct tcp_hdr){ TCP_MAGIC, client, conn, mode, len, local_port(fd) };
	if (send_all(fd, &h, sizeof(h)) != sizeof(h) ||
	    send_pattern(fd, len, seed) != (long)len) {
		oops("client %d conn %d: send", client, conn);
		close(fd);
		return bad + 1;
	}
	if (mode == HALF_CLOSE)
		x_shutdown(fd, SHUT_WR);
	if (mode == ABORT) {
		struct linger lg = { 1, 0 };

		r = recv_pattern(fd, len, seed ^ RESPONSE, 0);
		x_setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	} else {
		/* up to the server's FIN */
		r = recv_pattern(fd, len, seed ^ RESPONSE, 1);
	}
	if (r != (long)len) {
		say_recv_error("client: response", r, len);
		bad++;
	} else {
		add_bytes(r);
	}
	close(fd);
	add(&cnt->b, 1);
	return bad;
}

static int tcp_client(long client)
{
	int conn, bad = 0;

	for (conn = 0; conn < TCP_CONNS; conn++) {
		unsigned int len = mix(client, conn, 7) % 40000;

		if (conn % 5 == 4)
			len = 0;
		bad += tcp_client_conn(client, conn, conn % 3, len);
	}
	return bad;
}

/* The epoll client: TCP_EPOLL_CONNS non-blocking connects at once. */
struct econn {
	int fd, stage;		/* 0 connecting, 1 sending, 2 receiving, 3 done */
	unsigned int len, sent, got, seed;
	struct tcp_hdr h;
};

static int econn_send(struct econn *c)
{
	unsigned char buf[2048];

	while (c->sent < sizeof(c->h) + c->len) {
		size_t n;
		long r;

		if (c->sent < sizeof(c->h)) {
			n = sizeof(c->h) - c->sent;
			memcpy(buf, (char *)&c->h + c->sent, n);
		} else {
			n = sizeof(c->h) + c->len - c->sent;
			if (n > sizeof(buf))
				n = sizeof(buf);
			fill(buf, n, c->seed, c->sent - sizeof(c->h));
		}
		r = x_send(c->fd, buf, n, MSG_DONTWAIT);
		if (r == -EAGAIN)
			return 0;
		if (r <= 0) {
			oops("epoll conn: send: %ld", r);
			return -1;
		}
		c->sent += r;
	}
	return 1;
}

/* 1 at the end of the answer, 0 for more later, -1 on an error. */
static int econn_recv(struct econn *c)
{
	unsigned char buf[2048];
	long r, bad;

	for (;;) {
		r = x_recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (r == -EAGAIN)
			return 0;
		if (r < 0) {
			oops("epoll conn: recv: errno %ld", -r);
			return -1;
		}
		if (r == 0)
			break;
		bad = differs(buf, r, c->seed ^ RESPONSE, c->got);
		if (bad >= 0) {
			oops("epoll conn: answer byte %ld differs", bad);
			return -1;
		}
		c->got += r;
	}
	if (c->got != c->len) {
		oops("epoll conn: answer of %u bytes, expected %u", c->got, c->len);
		return -1;
	}
	return 1;
}

static int tcp_epoll_client(long client)
{
	struct econn *conns = map_private(TCP_EPOLL_CONNS * sizeof(*conns));
	struct epoll_event ev, events[16];
	int i, n, done = 0, bad = 0, in_progress = 0;
	union addr srv;
	int alen = loopback(&srv, tcp_family, TCP_PORT);
	long ep = my_syscall1(__NR_epoll_create1, 0), r;

	if (ep < 0 || !conns) {
		oops("epoll_create1: errno %ld", -ep);
		return 1;
	}
	for (i = 0; i < TCP_EPOLL_CONNS; i++) {
		struct econn *c = &conns[i];

		c->len = mix(client, i, 11) % 6000;
		c->seed = tcp_seed(client, i);
		c->fd = x_socket(tcp_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (c->fd < 0) {
			oops("epoll conn %d: socket: errno %d", i, -c->fd);
			return bad + 1;
		}
		r = x_connect(c->fd, &srv, alen);
		if (r && r != -EINPROGRESS) {
			oops("epoll conn %d: connect: errno %ld", i, -r);
			return bad + 1;
		}
		in_progress += r == -EINPROGRESS;
		ev.events = EPOLLOUT;
		ev.data = i;
		if (my_syscall4(__NR_epoll_ctl, ep, EPOLL_CTL_ADD, c->fd, &ev)) {
			oops("epoll_ctl add: errno %d", errno);
			return bad + 1;
		}
	}
	add(&cnt->e, in_progress);
	while (done < TCP_EPOLL_CONNS) {
		n = my_syscall6(__NR_epoll_pwait, ep, events, 16, 30000, NULL, 8);
		if (n <= 0) {
			oops("epoll_pwait: %d, %d of %d connections done", n, done,
			     TCP_EPOLL_CONNS);
			return bad + 1;
		}
		for (i = 0; i < n; i++) {
			struct econn *c = &conns[(int)events[i].data];
			int err = 0, elen = sizeof(err);

			add(&cnt->f, 1);
			if (c->stage == 0) {
				if (x_getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &elen) || err) {
					oops("epoll conn: SO_ERROR %d", err);
					return bad + 1;
				}
				c->h = (struct tcp_hdr){ TCP_MAGIC, client, c - conns,
							 HALF_CLOSE, c->len, local_port(c->fd) };
				c->stage = 1;
			}
			if (c->stage == 1) {
				r = econn_send(c);
				if (r < 0)
					return bad + 1;
				if (r == 0)
					continue;
				x_shutdown(c->fd, SHUT_WR);
				ev.events = EPOLLIN | EPOLLRDHUP;
				ev.data = c - conns;
				my_syscall4(__NR_epoll_ctl, ep, EPOLL_CTL_MOD, c->fd, &ev);
				c->stage = 2;
				continue;
			}
			if (c->stage == 2) {
				r = econn_recv(c);
				if (r < 0)
					return bad + 1;
				if (r == 0)
					continue;
				/* close() takes it out of the epoll set */
				close(c->fd);
				add_bytes(c->len * 2);
				c->stage = 3;
				done++;
			}
		}
	}
	close(ep);
	add(&cnt->d, done);
	return bad;
}

/*
 * The servers left TIME_WAIT sockets on the port (SERVER_CLOSES): binding
 * it again must fail without SO_REUSEADDR and work with it.
 */
static void tcp_reuseaddr(int family)
{
	union addr a;
	int alen = loopback(&a, family, TCP_PORT);
	long s1 = x_socket(family, SOCK_STREAM, 0), s2, without, with, lst;

	without = s1 < 0 ? s1 : x_bind(s1, &a, alen);
	s2 = x_socket(family, SOCK_STREAM, 0);
	with = s2 < 0 ? s2 : setint(s2, SOL_SOCKET, SO_REUSEADDR, 1);
	if (!with)
		with = x_bind(s2, &a, alen);
	lst = with ? with : x_listen(s2, 4);
	report(family == AF_INET ? "tcp4-reuseaddr" : "tcp6-reuseaddr",
	       without == -EADDRINUSE && !with && !lst,
	       "bind without SO_REUSEADDR errno %ld, with %ld, listen %ld",
	       -without, -with, -lst);
	close(s1);
	close(s2);
}

void test_tcp(int family)
{
	int total = TCP_CLIENTS * TCP_CONNS + TCP_EPOLL_CONNS, i, bad;
	const char *name = family == AF_INET ? "tcp4" : "tcp6";
	pid_t pids[TCP_SERVERS + TCP_CLIENTS + 1];
	union addr a;
	int alen = loopback(&a, family, TCP_PORT);
	long t0 = now_ms(), r;

	part = name;
	tcp_family = family;
	reset_counters();
	tcp_listener = x_socket(family, SOCK_STREAM, 0);
	if (tcp_listener == -EAFNOSUPPORT) {
		say("net-stress: %s: skipped, no IPv%s in this kernel\n", name,
		    fam_name(family));
		return;
	}
	r = tcp_listener < 0 ? tcp_listener : setint(tcp_listener, SOL_SOCKET, SO_REUSEADDR, 1);
	if (!r)
		r = x_bind(tcp_listener, &a, alen);
	if (!r)
		r = x_listen(tcp_listener, 64);
	if (r) {
		say("net-stress: %s: listener: errno %ld: FAIL\n", name, -r);
		failures++;
		return;
	}
	for (i = 0; i < TCP_SERVERS; i++)
		pids[i] = worker(i, tcp_server, total);
	for (i = 0; i < TCP_CLIENTS; i++)
		pids[TCP_SERVERS + i] = worker(i + 1, tcp_client, i);
	pids[TCP_SERVERS + TCP_CLIENTS] = worker(0, tcp_epoll_client, TCP_CLIENTS);
	bad = reap(pids + TCP_SERVERS, TCP_CLIENTS + 1);
	/* every connection is served now: wake servers still in accept()
	 * because a client failed */
	x_shutdown(tcp_listener, 2);
	bad += reap(pids, TCP_SERVERS);
	close(tcp_listener);
	report(name, !bad && cnt->a == (unsigned int)total &&
	       cnt->b == TCP_CLIENTS * TCP_CONNS && cnt->d == TCP_EPOLL_CONNS,
	       "%u connections served of %d, %u by blocking clients, %u by epoll, %lu bytes, %u resets seen, %ld ms",
	       cnt->a, total, cnt->b, cnt->d, (unsigned long)cnt->bytes, cnt->c,
	       now_ms() - t0);
	report(family == AF_INET ? "tcp4-epoll" : "tcp6-epoll",
	       cnt->d == TCP_EPOLL_CONNS && cnt->f >= TCP_EPOLL_CONNS * 2,
	       "%d connects at once, %u in progress, %u events, %u done",
	       TCP_EPOLL_CONNS, cnt->e, cnt->f, cnt->d);
	tcp_reuseaddr(family);
}
