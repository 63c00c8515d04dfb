// SPDX-License-Identifier: GPL-2.0
/*
 * net-stress's AF_UNIX checks: stream, datagram and seqpacket socketpairs
 * across CPUs (unix-stream, unix-dgram, unix-seqpacket), descriptors
 * passed with SCM_RIGHTS and cycles left to the garbage collector
 * (unix-rights), SO_PEERCRED and SCM_CREDENTIALS (unix-cred).
 */
#include "net-stress.h"

#define UNIX_ROUNDS	40

static int unix_type;
static int unix_sv[2];

static unsigned int unix_len(int r)
{
	if (unix_type == SOCK_STREAM)
		return 1 + mix(r, 1, 2) % 65536;	/* beyond the socket buffer */
	return 1 + mix(r, 3, 4) % 8192;
}

/* The echoing end, on another CPU. */
static int unix_peer(long unused)
{
	static unsigned char buf[65536];
	int r, bad = 0, fd = unix_sv[1];
	long n;

	close(unix_sv[0]);
	for (r = 0; r < UNIX_ROUNDS; r++) {
		unsigned int len = unix_len(r);

		if (unix_type == SOCK_STREAM) {
			n = recv_pattern(fd, len, mix(r, 9, unix_type), 0);
			if (n != (long)len) {
				say_recv_error("peer", n, len);
				return bad + 1;
			}
			if (send_pattern(fd, len, mix(r, 9, unix_type) ^ RESPONSE) != (long)len)
				return bad + 1;
			continue;
		}
		/* one message per receive, whole */
		n = x_recv(fd, buf, sizeof(buf), 0);
		if (n != (long)len || differs(buf, n, mix(r, 9, unix_type), 0) >= 0) {
			oops("peer round %d: %ld bytes of %u, or bad bytes", r, n, len);
			return bad + 1;
		}
		fill(buf, len, mix(r, 9, unix_type) ^ RESPONSE, 0);
		if (x_send(fd, buf, len, 0) != (long)len)
			return bad + 1;
	}
	if (unix_type == SOCK_SEQPACKET) {
		struct iovec iov = { buf, 10 };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

		/* a 100-byte record read into 10 bytes: cut, flagged, gone */
		n = x_recvmsg(fd, &m, 0);
		if (n != 10 || !(m.msg_flags & MSG_TRUNC) || differs(buf, 10, 77, 0) >= 0) {
			oops("seqpacket truncation: %ld bytes, flags %x", n, m.msg_flags);
			bad++;
		}
	}
	if (unix_type != SOCK_DGRAM) {
		n = x_recv(fd, buf, sizeof(buf), 0);
		if (n != 0) {
			oops("no end of file after the peer's shutdown: %ld", n);
			bad++;
		}
	}
	close(fd);
	return bad;
}

static int unix_pair_side(long type)
{
	static unsigned char buf[65536];
	int r, bad = 0, fd = unix_sv[0];
	pid_t peer;
	long n;

	peer = worker(current_cpu() + 1, unix_peer, 0);
	close(unix_sv[1]);
	for (r = 0; r < UNIX_ROUNDS; r++) {
		unsigned int len = unix_len(r), seed = mix(r, 9, unix_type);

		if (unix_type == SOCK_STREAM) {
			if (send_pattern(fd, len, seed) != (long)len)
				return bad + 1;
			n = recv_pattern(fd, len, seed ^ RESPONSE, 0);
			if (n != (long)len) {
				say_recv_error("answer", n, len);
				return bad + 1;
			}
		} else {
			fill(buf, len, seed, 0);
			if (x_send(fd, buf, len, 0) != (long)len)
				return bad + 1;
			n = x_recv(fd, buf, sizeof(buf), 0);
			if (n != (long)len || differs(buf, n, seed ^ RESPONSE, 0) >= 0) {
				oops("round %d: answer of %ld bytes of %u, or bad bytes", r, n, len);
				return bad + 1;
			}
		}
		add(&cnt->a, 1);
		add_bytes(2 * len);
	}
	if (unix_type == SOCK_SEQPACKET) {
		fill(buf, 100, 77, 0);
		x_send(fd, buf, 100, 0);
	}
	if (unix_type != SOCK_DGRAM)
		x_shutdown(fd, SHUT_WR);
	bad += reap(&peer, 1);
	close(fd);
	return bad;
}

void test_unix_pair(int type, const char *name)
{
	long t0 = now_ms(), r;
	int bad;
	pid_t pid;

	part = name;
	unix_type = type;
	reset_counters();
	r = x_socketpair(AF_UNIX, type, 0, unix_sv);
	if (r == -EAFNOSUPPORT) {
		say("net-stress: %s: skipped, no UNIX sockets in this kernel\n", name);
		return;
	}
	if (r) {
		say("net-stress: %s: socketpair: errno %ld: FAIL\n", name, -r);
		failures++;
		return;
	}
	/* the pair's ends on CPU 1 and 2 (or wherever there is room) */
	pid = worker(1, unix_pair_side, type);
	close(unix_sv[0]);
	close(unix_sv[1]);
	bad = reap(&pid, 1);
	report(name, !bad && cnt->a == UNIX_ROUNDS, "%u round trips of %d, %lu bytes, %ld ms",
	       cnt->a, UNIX_ROUNDS, (unsigned long)cnt->bytes, now_ms() - t0);
}

/* SCM_RIGHTS */
#define FD_MSGS		80
#define FD_MANY		16

static int fd_count(int i)
{
	if (i % 10 == 9)
		return FD_MANY;
	return i % 8 == 7 ? 3 : 2;	/* memfd, pipe, and now and then a socket */
}

static int send_fds(int sock, unsigned int data, const int *fds, int n)
{
	union {
		char buf[CMSG_SPACE(FD_MANY * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { &data, sizeof(data) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = CMSG_SPACE(n * sizeof(int)) };
	struct cmsghdr *c = (struct cmsghdr *)ctl.buf;

	memset(&ctl, 0, sizeof(ctl));
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	return x_sendmsg(sock, &m, 0) == sizeof(data) ? 0 : -1;
}

static int fd_sv[2];

static int fd_sender(long sock)
{
	unsigned char buf[64];
	int i, j, fds[FD_MANY], p[2], sp[2];

	close(fd_sv[0]);	/* or the receiver never sees the end */

	for (i = 0; i < FD_MSGS; i++) {
		int n = fd_count(i);

		fds[0] = my_syscall2(__NR_memfd_create, "net-stress", 0);
		fill(buf, 64, mix(i, 1, 1), 0);
		if (fds[0] < 0 || x_write(fds[0], buf, 64) != 64 || pipe(p)) {
			oops("memfd/pipe: errno %d", errno);
			return 1;
		}
		fill(buf, 32, mix(i, 2, 2), 0);
		x_write(p[1], buf, 32);
		fds[1] = p[0];
		if (n == 3) {
			/* a socket with a message waiting in it */
			x_socketpair(AF_UNIX, SOCK_STREAM, 0, sp);
			fill(buf, 16, mix(i, 3, 3), 0);
			x_send(sp[1], buf, 16, 0);
			close(sp[1]);
			fds[2] = sp[0];
		}
		for (j = 2; n == FD_MANY && j < FD_MANY; j++)
			fds[j] = dup(fds[0]);
		if (send_fds(sock, i, fds, n)) {
			oops("sendmsg %d: errno %d", i, errno);
			return 1;
		}
		for (j = 0; j < n; j++)
			close(fds[j]);
		close(p[1]);		/* the receiver's read end then sees EOF */
	}
	/* cycles only the garbage collector frees: a socket in its own queue */
	for (i = 0; i < 8; i++) {
		if (x_socketpair(AF_UNIX, i & 1 ? SOCK_DGRAM : SOCK_STREAM, 0, sp))
			return 1;
		send_fds(sp[0], i, &sp[1], 1);
		send_fds(sp[1], i, &sp[0], 1);
		close(sp[0]);
		close(sp[1]);
		add(&cnt->c, 1);
	}
	close(sock);
	return 0;
}

static int fd_receiver(long sock)
{
	union {
		char buf[CMSG_SPACE(FD_MANY * sizeof(int)) + 64];
		struct cmsghdr align;
	} ctl;
	unsigned char buf[64];
	int i, j, fds[FD_MANY], bad = 0;

	close(fd_sv[1]);

	for (i = 0; i < FD_MSGS; i++) {
		unsigned int data = ~0u;
		struct iovec iov = { &data, sizeof(data) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
		struct cmsghdr *c = (struct cmsghdr *)ctl.buf;
		int n = fd_count(i), got;
		long r = x_recvmsg(sock, &m, 0);

		got = m.msg_controllen >= CMSG_LEN(0) && c->cmsg_level == SOL_SOCKET &&
		      c->cmsg_type == SCM_RIGHTS ? (c->cmsg_len - CMSG_LEN(0)) / sizeof(int) : 0;
		if (r != sizeof(data) || data != (unsigned int)i || got != n ||
		    (m.msg_flags & MSG_CTRUNC)) {
			oops("message %d: %ld bytes, number %u, %d fds of %d, flags %x",
			     i, r, data, got, n, m.msg_flags);
			return bad + 1;
		}
		memcpy(fds, CMSG_DATA(c), n * sizeof(int));
		for (j = 0; j < n; j++) {
			long len = 0;
			int seed = 0;

			if (j == 1) {
				len = 32;
				seed = mix(i, 2, 2);
				r = x_read(fds[j], buf, 32);
			} else if (j == 2 && n == 3) {
				len = 16;
				seed = mix(i, 3, 3);
				r = x_recv(fds[j], buf, 16, 0);
			} else {
				len = 64;
				seed = mix(i, 1, 1);
				r = pread(fds[j], buf, 64, 0);
			}
			if (r != len || differs(buf, len, seed, 0) >= 0) {
				oops("message %d fd %d (%d): %ld bytes of %ld, or bad bytes",
				     i, j, fds[j], r, len);
				bad++;
			}
			if (j == 1 && x_read(fds[j], buf, 1) != 0) {
				oops("message %d: the pipe has no end of file", i);
				bad++;
			}
			close(fds[j]);
		}
		add(&cnt->a, 1);
		add(&cnt->b, n);
	}
	if (x_recv(sock, buf, 1, 0) != 0) {
		oops("no end of file after the last message");
		bad++;
	}
	close(sock);
	return bad;
}

void test_unix_rights(void)
{
	long t0 = now_ms();
	int *sv = fd_sv, bad, expect = 0, i;
	pid_t pids[2];

	part = "unix-rights";
	reset_counters();
	if (x_socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		say("net-stress: unix-rights: skipped, no UNIX sockets in this kernel\n");
		return;
	}
	for (i = 0; i < FD_MSGS; i++)
		expect += fd_count(i);
	pids[0] = worker(2, fd_receiver, sv[0]);
	pids[1] = worker(3, fd_sender, sv[1]);
	close(sv[0]);
	close(sv[1]);
	bad = reap(pids, 2);
	report("unix-rights", !bad && cnt->a == FD_MSGS && cnt->b == (unsigned int)expect &&
	       cnt->c == 8,
	       "%u messages of %d, %u fds of %d passed and checked, %u cycles left to the collector, %ld ms",
	       cnt->a, FD_MSGS, cnt->b, expect, cnt->c, now_ms() - t0);
}

/* SCM_CREDENTIALS, SO_PEERCRED */
#define CRED_CLIENTS	3
#define CRED_CONNS	8

static long cred_listener, cred_dgram;

/* An abstract AF_UNIX address (no file): its length. */
static int unix_abstract(union addr *a, const char *name)
{
	memset(a, 0, sizeof(*a));
	a->un.sun_family = AF_UNIX;
	memcpy(a->un.sun_path + 1, name, strlen(name));
	return sizeof(a->un.sun_family) + 1 + strlen(name);
}

static int check_cred(struct msghdr *m, const char *what, unsigned int pid)
{
	struct cmsghdr *c = m->msg_control;
	struct ucred uc;

	if (m->msg_controllen < CMSG_LEN(sizeof(uc)) || c->cmsg_level != SOL_SOCKET ||
	    c->cmsg_type != SCM_CREDENTIALS) {
		oops("%s from %u: no credentials (%d bytes of control)", what, pid,
		     (int)m->msg_controllen);
		return 1;
	}
	memcpy(&uc, CMSG_DATA(c), sizeof(uc));
	if (uc.pid != pid || uc.uid != my_uid() || uc.gid != my_gid()) {
		oops("%s: credentials pid %u uid %u gid %u, the sender is %u", what,
		     uc.pid, uc.uid, uc.gid, pid);
		return 1;
	}
	add(&cnt->c, 1);
	return 0;
}

static int recv_cred(int fd, const char *what)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} ctl;
	unsigned int pid = 0;
	struct iovec iov = { &pid, sizeof(pid) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = sizeof(ctl.buf) };

	if (x_recvmsg(fd, &m, 0) != sizeof(pid)) {
		oops("%s: recvmsg: errno %d", what, errno);
		return 1;
	}
	return check_cred(&m, what, pid);
}

/*
 * Two servers: a datagram queue holds 10 (net.unix.max_dgram_qlen), and
 * the clients alternate between the two kinds.
 */
static int cred_server(long dgram)
{
	int i, bad = 0, total = CRED_CLIENTS * CRED_CONNS;

	for (i = 0; dgram && i < total; i++) {
		bad += recv_cred(cred_dgram, "datagram");
		add(&cnt->b, 1);
	}
	for (i = 0; !dgram && i < total; i++) {
		struct ucred peer;
		int len = sizeof(peer), pid = 0;
		long fd = x_accept(cred_listener, NULL, NULL);

		if (fd < 0) {
			oops("accept: errno %ld", -fd);
			return bad + 1;
		}
		setint(fd, SOL_SOCKET, SO_PASSCRED, 1);
		/* the client's pid comes first, with no credentials */
		if (x_recv(fd, &pid, sizeof(pid), 0) != sizeof(pid) ||
		    x_getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) ||
		    peer.pid != (unsigned int)pid || peer.uid != my_uid()) {
			oops("SO_PEERCRED pid %u uid %u, the client is %d", peer.pid,
			     peer.uid, pid);
			bad++;
		}
		bad += recv_cred(fd, "stream");
		close(fd);
		add(&cnt->a, 1);
	}
	return bad;
}

static int cred_client(long client)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} ctl;
	unsigned int pid = getpid();
	struct ucred uc = { pid, my_uid(), my_gid() };
	struct iovec iov = { &pid, sizeof(pid) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c = (struct cmsghdr *)ctl.buf;
	union addr a, d;
	int i, bad = 0, alen = unix_abstract(&a, "net-stress-cred");
	int dlen = unix_abstract(&d, "net-stress-cred-dgram");

	for (i = 0; i < CRED_CONNS; i++) {
		long fd = x_socket(AF_UNIX, SOCK_STREAM, 0);

		if (fd < 0 || x_connect(fd, &a, alen) ||
		    x_send(fd, &pid, sizeof(pid), 0) != sizeof(pid)) {
			oops("client %ld: connect/send", client);
			return bad + 1;
		}
		/* then the pid again, with credentials stated explicitly */
		memset(&ctl, 0, sizeof(ctl));
		c->cmsg_len = CMSG_LEN(sizeof(uc));
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_CREDENTIALS;
		memcpy(CMSG_DATA(c), &uc, sizeof(uc));
		m.msg_control = ctl.buf;
		m.msg_controllen = sizeof(ctl.buf);
		if (x_sendmsg(fd, &m, 0) != sizeof(pid)) {
			oops("client %ld: sendmsg with credentials: errno %d", client, errno);
			bad++;
		}
		close(fd);
		/* datagrams carry no explicit ones: the kernel adds them */
		fd = x_socket(AF_UNIX, SOCK_DGRAM, 0);
		if (fd < 0 || x_sendto(fd, &pid, sizeof(pid), 0, &d, dlen) != sizeof(pid)) {
			oops("client %ld: datagram", client);
			bad++;
		}
		close(fd);
	}
	return bad;
}

void test_unix_cred(void)
{
	pid_t pids[CRED_CLIENTS + 2];
	union addr a;
	long t0 = now_ms();
	int i, bad, total = CRED_CLIENTS * CRED_CONNS;

	part = "unix-cred";
	reset_counters();
	cred_listener = x_socket(AF_UNIX, SOCK_STREAM, 0);
	if (cred_listener == -EAFNOSUPPORT) {
		say("net-stress: unix-cred: skipped, no UNIX sockets in this kernel\n");
		return;
	}
	cred_dgram = x_socket(AF_UNIX, SOCK_DGRAM, 0);
	if (cred_listener < 0 || cred_dgram < 0 ||
	    x_bind(cred_listener, &a, unix_abstract(&a, "net-stress-cred")) ||
	    x_listen(cred_listener, 32) ||
	    setint(cred_dgram, SOL_SOCKET, SO_PASSCRED, 1) ||
	    x_bind(cred_dgram, &a, unix_abstract(&a, "net-stress-cred-dgram"))) {
		say("net-stress: unix-cred: sockets: FAIL\n");
		failures++;
		return;
	}
	setint(cred_dgram, SOL_SOCKET, SO_RCVBUF, 65536);
	pids[0] = worker(0, cred_server, 0);
	pids[1] = worker(3, cred_server, 1);
	for (i = 0; i < CRED_CLIENTS; i++)
		pids[i + 2] = worker(i + 1, cred_client, i);
	bad = reap(pids, CRED_CLIENTS + 2);
	close(cred_listener);
	close(cred_dgram);
	report("unix-cred", !bad && cnt->a == (unsigned int)total && cnt->b == (unsigned int)total &&
	       cnt->c == 2u * total,
	       "%u connections of %d, %u datagrams, %u credentials checked, %ld ms",
	       cnt->a, total, cnt->b, cnt->c, now_ms() - t0);
}
