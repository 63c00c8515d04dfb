// SPDX-License-Identifier: GPL-2.0
/*
 * net-stress's helpers, shared by every family of checks (net-stress.h
 * declares them): the output lines, the byte patterns every stream and
 * datagram carries, the workers pinned to CPUs and the counters they add
 * to in a shared page, loopback addresses, and stream I/O that checks
 * each byte it receives.
 */
#include "net-stress.h"

/* ------------------------------------------------------------ output */

int failures;
const char *part = "setup";	/* the check a worker's errors belong to */
int errors_said;

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

void say(const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vformat(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	x_write(1, buf, n);
}

/* A check's line: "net-stress: <name>: <details>: ok|FAIL". */
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

void fill(unsigned char *buf, size_t len, unsigned int seed, unsigned int off)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pat(seed, off + i);
}

/* The offset of the first wrong byte, or -1. */
long differs(const unsigned char *buf, size_t len, unsigned int seed, unsigned int off)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != pat(seed, off + i))
			return off + i;
	return -1;
}

unsigned int mix(unsigned int a, unsigned int b, unsigned int c)
{
	unsigned int x = a * 0x9e3779b1u ^ b * 0x85ebca6bu ^ c * 0xc2b2ae35u;

	return x ^ (x >> 15);
}

/* ------------------------------------------------------------ workers */

int ncpus = 1;

void *map_shared(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void *map_private(size_t len)
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
pid_t worker(int cpu, int (*fn)(long), long arg)
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
int reap(pid_t *pids, int n)
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

struct counters *cnt;

void add(unsigned int *c, unsigned int v)
{
	__atomic_fetch_add(c, v, __ATOMIC_SEQ_CST);
}

void add_bytes(unsigned long v)
{
	__atomic_fetch_add(&cnt->bytes, v, __ATOMIC_SEQ_CST);
}

void reset_counters(void)
{
	memset(cnt, 0, sizeof(*cnt));
}

/* ------------------------------------------------------------ addresses */

int loopback(union addr *a, int family, int port)
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

int is_loopback(const union addr *a, int family)
{
	static const unsigned char one[16] = { [15] = 1 };

	if (a->sa.sa_family != family)
		return 0;
	if (family == AF_INET)
		return a->in.sin_addr.s_addr == htonl(0x7f000001);
	return !memcmp(a->in6.sin6_addr.s6_addr, one, 16);
}

int port_of(const union addr *a)
{
	return ntohs(a->sa.sa_family == AF_INET ? a->in.sin_port : a->in6.sin6_port);
}

int local_port(int fd)
{
	union addr a;
	int len = sizeof(a);

	return x_getsockname(fd, &a, &len) ? -1 : port_of(&a);
}

const char *fam_name(int family)
{
	return family == AF_INET ? "4" : "6";
}

/* ------------------------------------------------------------ stream I/O */

long send_all(int fd, const void *buf, size_t len)
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
long recv_all(int fd, void *buf, size_t len)
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
long send_pattern(int fd, size_t len, unsigned int seed)
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
long recv_pattern(int fd, size_t len, unsigned int seed, int to_eof)
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

void say_recv_error(const char *what, long r, size_t want)
{
	if (r <= -1000)
		oops("%s: byte %ld differs from the pattern", what, -1000 - r);
	else if (r < 0)
		oops("%s: errno %ld", what, -r);
	else
		oops("%s: %ld bytes, expected %lu", what, r, (unsigned long)want);
}
