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
 */
#include "libc.h"

#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/ip.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <linux/udp.h>
#include <linux/uio.h>
#include <linux/un.h>
#include <asm/socket.h>

/* What a C library's <sys/socket.h> would give (asm-generic values). */
#define AF_UNIX		1
#define AF_INET		2
#define AF_INET6	10
#define AF_NETLINK	16
#define AF_PACKET	17
#define SOCK_STREAM	1
#define SOCK_DGRAM	2
#define SOCK_RAW	3
#define SOCK_SEQPACKET	5
#define SOCK_NONBLOCK	O_NONBLOCK
#define MSG_PEEK	0x2
#define MSG_CTRUNC	0x8
#define MSG_TRUNC	0x20
#define MSG_DONTWAIT	0x40
#define MSG_NOSIGNAL	0x4000
#define MSG_WAITFORONE	0x10000
#define SHUT_WR		1
#define SCM_RIGHTS	1
#define SCM_CREDENTIALS	2
#define SOL_PACKET	263
#define IFNAMSIZ	16
#define IFF_UP		0x1
#define IFF_LOOPBACK	0x8
#define ICMP_ECHOREPLY	0
#define ICMP_ECHO	8
#define ICMPV6_ECHO_REQUEST	128
#define ICMPV6_ECHO_REPLY	129
#define ITIMER_REAL	0

/* <linux/eventpoll.h>'s, which 6.1's nolibc cannot take (AT_FDCWD twice). */
#define EPOLLIN		0x001
#define EPOLLOUT	0x004
#define EPOLLRDHUP	0x2000
#define EPOLL_CTL_ADD	1
#define EPOLL_CTL_MOD	3

struct epoll_event {
	unsigned int events;
	unsigned long long data;
};

struct sockaddr {
	unsigned short sa_family;
	char sa_data[14];
};

struct msghdr {
	void *msg_name;
	int msg_namelen;
	struct iovec *msg_iov;
	size_t msg_iovlen;
	void *msg_control;
	size_t msg_controllen;
	unsigned int msg_flags;
};

struct mmsghdr {
	struct msghdr msg_hdr;
	unsigned int msg_len;
};

struct cmsghdr {
	size_t cmsg_len;
	int cmsg_level;
	int cmsg_type;
};

#define CMSG_ALIGN(len)	(((len) + sizeof(long) - 1) & ~(sizeof(long) - 1))
#define CMSG_SPACE(len)	(CMSG_ALIGN(sizeof(struct cmsghdr)) + CMSG_ALIGN(len))
#define CMSG_LEN(len)	(CMSG_ALIGN(sizeof(struct cmsghdr)) + (len))
#define CMSG_DATA(c)	((unsigned char *)(c) + CMSG_ALIGN(sizeof(struct cmsghdr)))

struct ucred {
	unsigned int pid, uid, gid;
};

struct linger {
	int l_onoff, l_linger;
};

/* struct ifreq: a 16-byte union, as struct ifmap makes it on 32 bits. */
struct ifreq {
	char ifr_name[IFNAMSIZ];
	union {
		struct sockaddr ifr_addr;
		short ifr_flags;
		int ifr_ifindex;
		int ifr_mtu;
		char ifr_pad[16];
	};
};

struct ifconf {
	int ifc_len;
	struct ifreq *ifc_req;
};

struct icmp_echo {
	unsigned char type, code;
	unsigned short cksum, id, seq;
};

struct timeval32 {
	long tv_sec, tv_usec;
};

struct itimerval32 {
	struct timeval32 it_interval, it_value;
};

struct timespec64 {
	long long tv_sec, tv_nsec;
};

static unsigned short htons(unsigned short v)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? __builtin_bswap16(v) : v;
}

static unsigned int htonl(unsigned int v)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? __builtin_bswap32(v) : v;
}

#define ntohs htons

/* ------------------------------------------------------------ calls */

/* The raw calls: a result, or -errno. */
static long x_socket(int domain, int type, int proto)
{
	return my_syscall3(__NR_socket, domain, type, proto);
}

static long x_socketpair(int domain, int type, int proto, int sv[2])
{
	return my_syscall4(__NR_socketpair, domain, type, proto, sv);
}

static long x_bind(int fd, const void *addr, int len)
{
	return my_syscall3(__NR_bind, fd, addr, len);
}

static long x_listen(int fd, int backlog)
{
	return my_syscall2(__NR_listen, fd, backlog);
}

static long x_accept(int fd, void *addr, int *len)
{
	return my_syscall4(__NR_accept4, fd, addr, len, 0);
}

static long x_connect(int fd, const void *addr, int len)
{
	return my_syscall3(__NR_connect, fd, addr, len);
}

static long x_getsockname(int fd, void *addr, int *len)
{
	return my_syscall3(__NR_getsockname, fd, addr, len);
}

static long x_getpeername(int fd, void *addr, int *len)
{
	return my_syscall3(__NR_getpeername, fd, addr, len);
}

static long x_sendto(int fd, const void *buf, size_t len, int flags,
		     const void *addr, int alen)
{
	return my_syscall6(__NR_sendto, fd, buf, len, flags, addr, alen);
}

static long x_recvfrom(int fd, void *buf, size_t len, int flags, void *addr,
		       int *alen)
{
	return my_syscall6(__NR_recvfrom, fd, buf, len, flags, addr, alen);
}

static long x_send(int fd, const void *buf, size_t len, int flags)
{
	return x_sendto(fd, buf, len, flags | MSG_NOSIGNAL, NULL, 0);
}

static long x_recv(int fd, void *buf, size_t len, int flags)
{
	return x_recvfrom(fd, buf, len, flags, NULL, NULL);
}

static long x_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	return my_syscall3(__NR_sendmsg, fd, msg, flags);
}

static long x_recvmsg(int fd, struct msghdr *msg, int flags)
{
	return my_syscall3(__NR_recvmsg, fd, msg, flags);
}

static long x_sendmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags)
{
	return my_syscall4(__NR_sendmmsg, fd, v, n, flags);
}

static long x_recvmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags)
{
#ifdef __NR_recvmmsg_time64
	return my_syscall5(__NR_recvmmsg_time64, fd, v, n, flags, NULL);
#else
	return my_syscall5(__NR_recvmmsg, fd, v, n, flags, NULL);
#endif
}

static long x_setsockopt(int fd, int level, int name, const void *val, int len)
{
	return my_syscall5(__NR_setsockopt, fd, level, name, val, len);
}

static long x_getsockopt(int fd, int level, int name, void *val, int *len)
{
	return my_syscall5(__NR_getsockopt, fd, level, name, val, len);
}

static long x_shutdown(int fd, int how)
{
	return my_syscall2(__NR_shutdown, fd, how);
}

static long x_ioctl(int fd, unsigned long req, void *arg)
{
	return my_syscall3(__NR_ioctl, fd, req, arg);
}

static long x_read(int fd, void *buf, size_t len)
{
	return my_syscall3(__NR_read, fd, buf, len);
}

static long x_write(int fd, const void *buf, size_t len)
{
	return my_syscall3(__NR_write, fd, buf, len);
}

/* nolibc 6.1 has neither. */
static unsigned int my_uid(void)
{
	return my_syscall0(__NR_getuid);
}

static unsigned int my_gid(void)
{
	return my_syscall0(__NR_getgid);
}

static char *find(const char *s, const char *what)
{
	size_t n = strlen(what);

	for (; *s; s++)
		if (!strncmp(s, what, n))
			return (char *)s;
	return NULL;
}

static int setint(int fd, int level, int name, int v)
{
	return x_setsockopt(fd, level, name, &v, sizeof(v));
}

static long now_ms(void)
{
	struct timespec64 ts = { 0, 0 };

	my_syscall2(__NR_clock_gettime64, 1 /* CLOCK_MONOTONIC */, &ts);
	/* 32-bit arithmetic: no libgcc 64-bit division */
	return (long)ts.tv_sec * 1000 + (long)ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------ output */

/*
 * Lines formatted here and written at once: workers print concurrently,
 * and nolibc's printf writes each piece on its own. %s %c %d %u %x,
 * with an optional l (long is int-sized here).
 */
static int vformat(char *buf, int size, const char *fmt, va_list ap)
{
	char tmp[12];
	int n = 0, t;

	for (; *fmt && n < size - 16; fmt++) {
		unsigned long v;
		const char *s;

		if (*fmt != '%') {
			buf[n++] = *fmt;
			continue;
		}
		if (*++fmt == 'l')
			fmt++;
		switch (*fmt) {
		case 's':
			for (s = va_arg(ap, const char *); *s && n < size - 16; )
				buf[n++] = *s++;
			break;
		case 'c':
			buf[n++] = va_arg(ap, int);
			break;
		case 'd':
		case 'u':
		case 'x':
			v = va_arg(ap, unsigned long);
			if (*fmt == 'd' && (long)v < 0) {
				buf[n++] = '-';
				v = -(long)v;
			}
			t = 0;
			do {
				tmp[t++] = "0123456789abcdef"[v % (*fmt == 'x' ? 16 : 10)];
				v /= *fmt == 'x' ? 16 : 10;
			} while (v);
			while (t)
				buf[n++] = tmp[--t];
			break;
		default:
			buf[n++] = *fmt;
		}
	}
	return n;
}

static __attribute__((format(printf, 1, 2))) void say(const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vformat(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	x_write(1, buf, n);
}

static int failures;
static const char *part = "setup";	/* the check a worker's errors belong to */
static int errors_said;

/* A worker's error: printed (the first few), counted by the caller. */
#define oops(fmt, ...) do {						\
	if (errors_said++ < 4)						\
		say("net-stress: %s error: " fmt "\n", part, ##__VA_ARGS__); \
} while (0)

/* A check's line: "net-stress: <name>: <details>: ok|FAIL". */
static __attribute__((format(printf, 3, 4)))
void report(const char *name, int ok, const char *fmt, ...)
{
	const char *end = ok ? ": ok\n" : ": FAIL\n", *prefix = "net-stress: ";
	char buf[400];
	va_list ap;
	int n = 0;

	while (*prefix)
		buf[n++] = *prefix++;
	while (*name && n < 64)
		buf[n++] = *name++;
	buf[n++] = ':';
	buf[n++] = ' ';
	va_start(ap, fmt);
	n += vformat(buf + n, sizeof(buf) - n - 8, fmt, ap);
	va_end(ap);
	while (*end)
		buf[n++] = *end++;
	x_write(1, buf, n);
	failures += !ok;
}

/* ------------------------------------------------------------ patterns */

/* Byte i of the stream numbered seed: a shifted copy or a stale block differs. */
static inline unsigned char pat(unsigned int seed, unsigned int i)
{
	return (i * 131u + seed) ^ (i >> 8) ^ (seed >> 11);
}

static void fill(unsigned char *buf, size_t len, unsigned int seed, unsigned int off)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pat(seed, off + i);
}

/* The offset of the first wrong byte, or -1. */
static long differs(const unsigned char *buf, size_t len, unsigned int seed,
		    unsigned int off)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != pat(seed, off + i))
			return off + i;
	return -1;
}

static unsigned int mix(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int x = a * 0x9e3779b1u ^ b * 0x85ebca6bu ^ c * 0xc2b2ae35u;

	return x ^ (x >> 15);
}

#define RESPONSE	0x5a5a5a5au	/* the seed of an answer: seed ^ RESPONSE */

/* ------------------------------------------------------------ workers */

static int ncpus = 1;

static void *map_shared(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void *map_private(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * A worker process pinned to a CPU: fn(arg)'s result (its error count) is
 * its exit status. A watchdog (SIGALRM after 300 s of guest time, the
 * default action kills) turns a hang into a failure, not a stuck boot.
 */
static pid_t worker(int cpu, int (*fn)(long), long arg)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct itimerval32 it = { { 0, 0 }, { 300, 0 } };
		int bad;

		setaffinity(0, 1UL << (cpu % ncpus));
		my_syscall3(__NR_setitimer, ITIMER_REAL, &it, NULL);
		errors_said = 0;
		bad = fn(arg);
		sys_exit(bad > 100 ? 100 : bad);
	}
	if (pid < 0)
		oops("fork: errno %d", errno);
	return pid;
}

/* Reap the workers: the sum of their error counts (a signal counts 1000). */
static int reap(pid_t *pids, int n)
{
	int i, bad = 0, status;

	for (i = 0; i < n; i++) {
		if (pids[i] <= 0) {
			bad++;
			continue;
		}
		status = 0;
		if (waitpid(pids[i], &status, 0) != pids[i]) {
			bad++;
			continue;
		}
		if (WIFEXITED(status)) {
			bad += WEXITSTATUS(status);
		} else {
			say("net-stress: %s error: worker %d killed by signal %d\n",
			    part, i, WTERMSIG(status));
			bad += 1000;
		}
	}
	return bad;
}

/* Counters the workers add to, in a shared page. */
struct counters {
	unsigned int a, b, c, d, e, f;
	unsigned int claimed;
	unsigned int bytes;
};

static struct counters *cnt;

static void add(unsigned int *c, unsigned int v)
{
	__atomic_fetch_add(c, v, __ATOMIC_SEQ_CST);
}

static void add_bytes(unsigned long v)
{
	__atomic_fetch_add(&cnt->bytes, v, __ATOMIC_SEQ_CST);
}

static void reset_counters(void)
{
	memset(cnt, 0, sizeof(*cnt));
}

/* ------------------------------------------------------------ addresses */

union addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_un un;
};

static int loopback(union addr *a, int family, int port)
{
	memset(a, 0, sizeof(*a));
	if (family == AF_INET) {
		a->in.sin_family = AF_INET;
		a->in.sin_port = htons(port);
		a->in.sin_addr.s_addr = htonl(0x7f000001);
		return sizeof(a->in);
	}
	a->in6.sin6_family = AF_INET6;
	a->in6.sin6_port = htons(port);
	a->in6.sin6_addr.s6_addr[15] = 1;
	return sizeof(a->in6);
}

static int is_loopback(const union addr *a, int family)
{
	static const unsigned char one[16] = { [15] = 1 };

	if (a->sa.sa_family != family)
		return 0;
	if (family == AF_INET)
		return a->in.sin_addr.s_addr == htonl(0x7f000001);
	return !memcmp(a->in6.sin6_addr.s6_addr, one, 16);
}

static int port_of(const union addr *a)
{
	return ntohs(a->sa.sa_family == AF_INET ? a->in.sin_port : a->in6.sin6_port);
}

static int local_port(int fd)
{
	union addr a;
	int len = sizeof(a);

	return x_getsockname(fd, &a, &len) ? -1 : port_of(&a);
}

/* An abstract AF_UNIX address (no file): its length. */
static int unix_abstract(union addr *a, const char *name)
{
	memset(a, 0, sizeof(*a));
	a->un.sun_family = AF_UNIX;
	memcpy(a->un.sun_path + 1, name, strlen(name));
	return sizeof(a->un.sun_family) + 1 + strlen(name);
}

static const char *fam_name(int family)
{
	return family == AF_INET ? "4" : "6";
}

/* ------------------------------------------------------------ stream I/O */

static long send_all(int fd, const void *buf, size_t len)
{
	size_t done = 0;
	long n;

	while (done < len) {
		n = x_send(fd, (const char *)buf + done, len - done, 0);
		if (n == -EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? n : -EIO;
		done += n;
	}
	return done;
}

/* Up to len bytes, fewer at end of file; -errno on an error. */
static long recv_all(int fd, void *buf, size_t len)
{
	size_t done = 0;
	long n;

	while (done < len) {
		n = x_recv(fd, (char *)buf + done, len - done, 0);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return n;
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

/* Send len bytes of the stream seed, in chunks of varying size. */
static long send_pattern(int fd, size_t len, unsigned int seed)
{
	unsigned char buf[4096];
	size_t off = 0, chunk;
	long n;

	while (off < len) {
		chunk = 512 + (mix(seed, off, 1) & 3583);
		if (chunk > len - off)
			chunk = len - off;
		fill(buf, chunk, seed, off);
		n = send_all(fd, buf, chunk);
		if (n < 0)
			return n;
		off += chunk;
	}
	return off;
}

/*
 * Receive the stream seed: exactly len bytes (to_eof 0) or everything up to
 * the end of file (to_eof 1). Returns the bytes received, -errno, or
 * -1000 - offset of the first wrong byte.
 */
static long recv_pattern(int fd, size_t len, unsigned int seed, int to_eof)
{
	unsigned char buf[4096];
	size_t got = 0;
	long n, bad;

	for (;;) {
		size_t want = sizeof(buf);

		if (!to_eof) {
			if (got == len)
				break;
			if (want > len - got)
				want = len - got;
		}
		n = x_recv(fd, buf, want, 0);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return n;
		if (n == 0)
			break;
		bad = differs(buf, n, seed, got);
		if (bad >= 0)
			return -1000 - bad;
		got += n;
	}
	return got;
}

static void say_recv_error(const char *what, long r, size_t want)
{
	if (r <= -1000)
		oops("%s: byte %ld differs from the pattern", what, -1000 - r);
	else if (r < 0)
		oops("%s: errno %ld", what, -r);
	else
		oops("%s: %ld bytes, expected %lu", what, r, (unsigned long)want);
}

/* ------------------------------------------------------------ TCP */

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

static void test_tcp(int family)
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

/* ------------------------------------------------------------ UDP */

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

static void test_udp(int family)
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
		for (p = buf; (p = find(p, "\nUdp:")); p++) {
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
	p = find(buf, "Udp6RcvbufErrors");
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

static void test_udp_flood(int family)
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

/* ------------------------------------------------------------ UNIX */

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

static void test_unix_pair(int type, const char *name)
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

static void test_unix_rights(void)
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

static void test_unix_cred(void)
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

static char ping_range_saved[64];

static void test_ping(int family)
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
static void test_icmp_raw(void)
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

static void test_udp_raw(void)
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

static void test_packet(void)
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

/* ------------------------------------------------------------ netlink */

#define NL_WORKERS	4
#define NL_ROUNDS	12
#define NL_MAX_LINKS	8

struct link {
	int index;
	unsigned int flags, mtu, hwlen;
	char name[IFNAMSIZ];
	unsigned char hw[8];
};

static long nl_socket(void)
{
	long fd = x_socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };

	if (fd >= 0 && x_bind(fd, &me, sizeof(me))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * One request; calls fn on each answer message until NLMSG_DONE (dumps)
 * or the first message (others). Returns the messages seen, or -1.
 */
static int nl_talk(int fd, int type, int flags, void *body, int blen, unsigned int seq,
		   int (*fn)(struct nlmsghdr *, void *), void *arg)
{
	static unsigned char buf[16384];
	struct {
		struct nlmsghdr nh;
		unsigned char body[32];
	} req;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int msgs = 0;

	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(blen);
	req.nh.nlmsg_type = type;
	req.nh.nlmsg_flags = NLM_F_REQUEST | flags;
	req.nh.nlmsg_seq = seq;
	memcpy(req.body, body, blen);
	if (x_sendto(fd, &req, req.nh.nlmsg_len, 0, &kernel, sizeof(kernel)) < 0) {
		oops("netlink send: errno %d", errno);
		return -1;
	}
	for (;;) {
		int n = x_recv(fd, buf, sizeof(buf), 0), off;
		struct nlmsghdr *nh;

		if (n <= 0) {
			oops("netlink recv: %d", n);
			return -1;
		}
		for (off = 0; off + (int)sizeof(*nh) <= n; off += NLMSG_ALIGN(nh->nlmsg_len)) {
			nh = (void *)(buf + off);
			if (nh->nlmsg_len < sizeof(*nh) || (int)nh->nlmsg_len > n - off) {
				oops("netlink message of %u bytes, %d left", nh->nlmsg_len, n - off);
				return -1;
			}
			if (nh->nlmsg_seq != seq) {
				oops("netlink answer to %u for request %u", nh->nlmsg_seq, seq);
				return -1;
			}
			if (nh->nlmsg_type == NLMSG_DONE)
				return msgs;
			msgs++;
			if (fn(nh, arg))
				return -1;
			if (!(flags & NLM_F_DUMP))
				return msgs;
		}
	}
}

struct links {
	int n;
	struct link l[NL_MAX_LINKS];
};

static int take_link(struct nlmsghdr *nh, void *arg)
{
	struct links *ls = arg;
	struct ifinfomsg *ifi = NLMSG_DATA(nh);
	int len = IFLA_PAYLOAD(nh);
	struct rtattr *rta;
	struct link *l;

	if (nh->nlmsg_type != RTM_NEWLINK) {
		oops("link dump: message type %d", nh->nlmsg_type);
		return -1;
	}
	if (ls->n == NL_MAX_LINKS)
		return 0;
	l = &ls->l[ls->n++];
	memset(l, 0, sizeof(*l));
	l->index = ifi->ifi_index;
	l->flags = ifi->ifi_flags;
	for (rta = IFLA_RTA(ifi); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type == IFLA_IFNAME)
			memcpy(l->name, RTA_DATA(rta),
			       RTA_PAYLOAD(rta) < IFNAMSIZ ? RTA_PAYLOAD(rta) : IFNAMSIZ - 1);
		else if (rta->rta_type == IFLA_MTU)
			memcpy(&l->mtu, RTA_DATA(rta), 4);
		else if (rta->rta_type == IFLA_ADDRESS && RTA_PAYLOAD(rta) <= 8) {
			l->hwlen = RTA_PAYLOAD(rta);
			memcpy(l->hw, RTA_DATA(rta), l->hwlen);
		}
	}
	return 0;
}

struct addrs {
	int lo_index, v4, v6, total;
};

static int take_addr(struct nlmsghdr *nh, void *arg)
{
	static const unsigned char one6[16] = { [15] = 1 };
	struct addrs *as = arg;
	struct ifaddrmsg *ifa = NLMSG_DATA(nh);
	int len = IFA_PAYLOAD(nh);
	struct rtattr *rta;

	if (nh->nlmsg_type != RTM_NEWADDR) {
		oops("address dump: message type %d", nh->nlmsg_type);
		return -1;
	}
	as->total++;
	for (rta = IFA_RTA(ifa); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if ((int)ifa->ifa_index != as->lo_index)
			continue;
		if (ifa->ifa_family == AF_INET && rta->rta_type == IFA_LOCAL &&
		    ifa->ifa_prefixlen == 8 &&
		    *(unsigned int *)RTA_DATA(rta) == htonl(0x7f000001))
			as->v4++;
		if (ifa->ifa_family == AF_INET6 && rta->rta_type == IFA_ADDRESS &&
		    ifa->ifa_prefixlen == 128 && !memcmp(RTA_DATA(rta), one6, 16))
			as->v6++;
	}
	return 0;
}

static int take_error(struct nlmsghdr *nh, void *arg)
{
	struct nlmsgerr *e = NLMSG_DATA(nh);

	*(int *)arg = nh->nlmsg_type == NLMSG_ERROR ? e->error : 1;
	return 0;
}

static int have_inet, have_inet6;

/* SIOCGIF* on one link: what netlink said. */
static int ioctl_link(int fd, const struct link *l)
{
	struct ifreq ifr;
	int bad = 0;

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, l->name);
	if (x_ioctl(fd, SIOCGIFINDEX, &ifr) || ifr.ifr_ifindex != l->index) {
		oops("%s: SIOCGIFINDEX %d, netlink %d", l->name, ifr.ifr_ifindex, l->index);
		bad++;
	}
	if (x_ioctl(fd, SIOCGIFFLAGS, &ifr) ||
	    (unsigned short)ifr.ifr_flags != (l->flags & 0xffff)) {
		oops("%s: SIOCGIFFLAGS %x, netlink %x", l->name, ifr.ifr_flags & 0xffff,
		     l->flags);
		bad++;
	}
	if (x_ioctl(fd, SIOCGIFMTU, &ifr) || (unsigned int)ifr.ifr_mtu != l->mtu) {
		oops("%s: SIOCGIFMTU %d, netlink %u", l->name, ifr.ifr_mtu, l->mtu);
		bad++;
	}
	if (x_ioctl(fd, SIOCGIFHWADDR, &ifr) ||
	    memcmp(ifr.ifr_addr.sa_data, l->hw, l->hwlen)) {
		oops("%s: SIOCGIFHWADDR differs from IFLA_ADDRESS", l->name);
		bad++;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_ifindex = l->index;
	if (x_ioctl(fd, SIOCGIFNAME, &ifr) || strcmp(ifr.ifr_name, l->name)) {
		oops("index %d: SIOCGIFNAME %s, netlink %s", l->index, ifr.ifr_name, l->name);
		bad++;
	}
	add(&cnt->d, 5);
	return bad;
}

/* SIOCGIFCONF: the IPv4 addresses, lo's 127.0.0.1 among them. */
static int ioctl_ifconf(int fd)
{
	struct ifreq req[NL_MAX_LINKS];
	struct ifconf ifc = { sizeof(req), req };
	int i, found = 0;

	if (x_ioctl(fd, SIOCGIFCONF, &ifc) || ifc.ifc_len % sizeof(req[0])) {
		oops("SIOCGIFCONF: errno %d, length %d", errno, ifc.ifc_len);
		return 1;
	}
	for (i = 0; i < ifc.ifc_len / (int)sizeof(req[0]); i++) {
		struct sockaddr_in *in = (void *)&req[i].ifr_addr;

		found += !strcmp(req[i].ifr_name, "lo") && in->sin_family == AF_INET &&
			 in->sin_addr.s_addr == htonl(0x7f000001);
	}
	add(&cnt->e, 1);
	if (found != 1) {
		oops("SIOCGIFCONF: %d entries, lo with 127.0.0.1 %d times",
		     ifc.ifc_len / (int)sizeof(req[0]), found);
		return 1;
	}
	return 0;
}

static int nl_worker(long k)
{
	struct ifinfomsg ifi = { .ifi_family = 0 };
	struct ifaddrmsg ifa = { .ifa_family = 0 };
	int r, i, bad = 0, links = -1;
	long fd = nl_socket();
	long ifd = x_socket(have_inet ? AF_INET : AF_UNIX, SOCK_DGRAM, 0);
	unsigned int seq = k << 16;

	if (fd < 0 || ifd < 0) {
		oops("worker %ld: sockets", k);
		return 1;
	}
	for (r = 0; r < NL_ROUNDS; r++) {
		struct links ls = { 0 };
		struct addrs as = { 0 };
		int err = 0, lo = -1;

		if (nl_talk(fd, RTM_GETLINK, NLM_F_DUMP, &ifi, sizeof(ifi), ++seq,
			    take_link, &ls) < 0)
			return bad + 1;
		if (links >= 0 && ls.n != links) {
			oops("round %d: %d links, %d before", r, ls.n, links);
			bad++;
		}
		links = ls.n;
		for (i = 0; i < ls.n; i++)
			if (!strcmp(ls.l[i].name, "lo"))
				lo = i;
		if (lo < 0 || (ls.l[lo].flags & (IFF_UP | IFF_LOOPBACK)) != (IFF_UP | IFF_LOOPBACK) ||
		    ls.l[lo].mtu != 65536) {
			oops("round %d: lo missing, down or not a loopback (%d links)", r, ls.n);
			return bad + 1;
		}
		as.lo_index = ls.l[lo].index;
		if (nl_talk(fd, RTM_GETADDR, NLM_F_DUMP, &ifa, sizeof(ifa), ++seq,
			    take_addr, &as) < 0)
			return bad + 1;
		if (as.v4 != have_inet || as.v6 != have_inet6) {
			oops("round %d: 127.0.0.1/8 on lo %d times, ::1/128 %d times, %d addresses",
			     r, as.v4, as.v6, as.total);
			bad++;
		}
		/* a link that is not there: an error, not a dump */
		ifi.ifi_index = 0x7fff0000 + k;
		if (nl_talk(fd, RTM_GETLINK, NLM_F_ACK, &ifi, sizeof(ifi), ++seq,
			    take_error, &err) != 1 || err != -ENODEV) {
			oops("round %d: a request for no link: %d, not -ENODEV", r, err);
			bad++;
		}
		ifi.ifi_index = 0;
		add(&cnt->a, 2);
		add(&cnt->b, ls.n);
		add(&cnt->c, as.total);
		for (i = 0; i < ls.n; i++)
			bad += ioctl_link(ifd, &ls.l[i]);
		if (have_inet)
			bad += ioctl_ifconf(ifd);
	}
	add(&cnt->f, links);
	close(fd);
	close(ifd);
	return bad;
}

static void test_netlink(void)
{
	pid_t pids[NL_WORKERS];
	long t0 = now_ms(), probe = nl_socket();
	int i, bad;

	part = "netlink";
	if (probe < 0) {
		say("net-stress: netlink: skipped, no NETLINK_ROUTE socket (errno %ld)\n", -probe);
		return;
	}
	close(probe);
	reset_counters();
	for (i = 0; i < NL_WORKERS; i++)
		pids[i] = worker(i, nl_worker, i);
	bad = reap(pids, NL_WORKERS);
	report("netlink", !bad && cnt->a == 2 * NL_WORKERS * NL_ROUNDS && cnt->f >= NL_WORKERS,
	       "%u dumps, %u link and %u address messages, %u links each, %ld ms",
	       cnt->a, cnt->b, cnt->c, cnt->f / NL_WORKERS, now_ms() - t0);
	report("netdev-ioctl", !bad && cnt->d >= 5 * NL_WORKERS * NL_ROUNDS &&
	       cnt->e == (have_inet ? NL_WORKERS * NL_ROUNDS : 0u),
	       "%u interface ioctls, %u SIOCGIFCONF", cnt->d, cnt->e);
}

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
