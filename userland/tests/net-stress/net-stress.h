/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What net-stress's files share: the socket definitions and calls a C
 * library would give (nolibc has none of them), then the helpers of
 * common.c: check lines, byte patterns, workers pinned to CPUs and the
 * counters they add to, loopback addresses, stream I/O. The checks
 * themselves are listed in main.c.
 *
 * 6.1's nolibc keeps errno per file (static), 6.12's one for the program:
 * errno says something only in the file whose nolibc call set it.
 */
#ifndef _NET_STRESS_H
#define _NET_STRESS_H

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

static inline unsigned short htons(unsigned short v)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? __builtin_bswap16(v) : v;
}

static inline unsigned int htonl(unsigned int v)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? __builtin_bswap32(v) : v;
}

#define ntohs htons

/* ------------------------------------------------------------ calls */

/* The raw calls: a result, or -errno. */
static inline long x_socket(int domain, int type, int proto)
{
	return my_syscall3(__NR_socket, domain, type, proto);
}

static inline long x_socketpair(int domain, int type, int proto, int sv[2])
{
	return my_syscall4(__NR_socketpair, domain, type, proto, sv);
}

static inline long x_bind(int fd, const void *addr, int len)
{
	return my_syscall3(__NR_bind, fd, addr, len);
}

static inline long x_listen(int fd, int backlog)
{
	return my_syscall2(__NR_listen, fd, backlog);
}

static inline long x_accept(int fd, void *addr, int *len)
{
	return my_syscall4(__NR_accept4, fd, addr, len, 0);
}

static inline long x_connect(int fd, const void *addr, int len)
{
	return my_syscall3(__NR_connect, fd, addr, len);
}

static inline long x_getsockname(int fd, void *addr, int *len)
{
	return my_syscall3(__NR_getsockname, fd, addr, len);
}

static inline long x_getpeername(int fd, void *addr, int *len)
{
	return my_syscall3(__NR_getpeername, fd, addr, len);
}

static inline long x_sendto(int fd, const void *buf, size_t len, int flags,
		     const void *addr, int alen)
{
	return my_syscall6(__NR_sendto, fd, buf, len, flags, addr, alen);
}

static inline long x_recvfrom(int fd, void *buf, size_t len, int flags, void *addr,
		       int *alen)
{
	return my_syscall6(__NR_recvfrom, fd, buf, len, flags, addr, alen);
}

static inline long x_send(int fd, const void *buf, size_t len, int flags)
{
	return x_sendto(fd, buf, len, flags | MSG_NOSIGNAL, NULL, 0);
}

static inline long x_recv(int fd, void *buf, size_t len, int flags)
{
	return x_recvfrom(fd, buf, len, flags, NULL, NULL);
}

static inline long x_sendmsg(int fd, const struct msghdr *msg, int flags)
{
	return my_syscall3(__NR_sendmsg, fd, msg, flags);
}

static inline long x_recvmsg(int fd, struct msghdr *msg, int flags)
{
	return my_syscall3(__NR_recvmsg, fd, msg, flags);
}

static inline long x_sendmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags)
{
	return my_syscall4(__NR_sendmmsg, fd, v, n, flags);
}

static inline long x_recvmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags)
{
#ifdef __NR_recvmmsg_time64
	return my_syscall5(__NR_recvmmsg_time64, fd, v, n, flags, NULL);
#else
	return my_syscall5(__NR_recvmmsg, fd, v, n, flags, NULL);
#endif
}

static inline long x_setsockopt(int fd, int level, int name, const void *val, int len)
{
	return my_syscall5(__NR_setsockopt, fd, level, name, val, len);
}

static inline long x_getsockopt(int fd, int level, int name, void *val, int *len)
{
	return my_syscall5(__NR_getsockopt, fd, level, name, val, len);
}

static inline long x_shutdown(int fd, int how)
{
	return my_syscall2(__NR_shutdown, fd, how);
}

static inline long x_ioctl(int fd, unsigned long req, void *arg)
{
	return my_syscall3(__NR_ioctl, fd, req, arg);
}

static inline long x_read(int fd, void *buf, size_t len)
{
	return my_syscall3(__NR_read, fd, buf, len);
}

static inline long x_write(int fd, const void *buf, size_t len)
{
	return my_syscall3(__NR_write, fd, buf, len);
}

/* nolibc 6.1 has neither. */
static inline unsigned int my_uid(void)
{
	return my_syscall0(__NR_getuid);
}

static inline unsigned int my_gid(void)
{
	return my_syscall0(__NR_getgid);
}

static inline int setint(int fd, int level, int name, int v)
{
	return x_setsockopt(fd, level, name, &v, sizeof(v));
}

static inline long now_ms(void)
{
	struct timespec64 ts = { 0, 0 };

	my_syscall2(__NR_clock_gettime64, 1 /* CLOCK_MONOTONIC */, &ts);
	/* 32-bit arithmetic: no libgcc 64-bit division */
	return (long)ts.tv_sec * 1000 + (long)ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------ output */

extern int failures;
extern const char *part;	/* the check a worker's errors belong to */
extern int errors_said;

/* A line written at once (workers print concurrently): %s %c %d %u %x, l. */
__attribute__((format(printf, 1, 2))) void say(const char *fmt, ...);

/* A worker's error: printed (the first few), counted by the caller. */
#define oops(fmt, ...) do {						\
	if (errors_said++ < 4)						\
		say("net-stress: %s error: " fmt "\n", part, ##__VA_ARGS__); \
} while (0)

/* A check's line: "net-stress: <name>: <details>: ok|FAIL". */
__attribute__((format(printf, 3, 4)))
void report(const char *name, int ok, const char *fmt, ...);

/* ------------------------------------------------------------ patterns */

void fill(unsigned char *buf, size_t len, unsigned int seed, unsigned int off);
long differs(const unsigned char *buf, size_t len, unsigned int seed, unsigned int off);
unsigned int mix(unsigned int a, unsigned int b, unsigned int c);

#define RESPONSE	0x5a5a5a5au	/* the seed of an answer: seed ^ RESPONSE */

/* ------------------------------------------------------------ workers */

extern int ncpus;

void *map_shared(size_t len);
void *map_private(size_t len);
pid_t worker(int cpu, int (*fn)(long), long arg);
int reap(pid_t *pids, int n);

/* Counters the workers add to, in a shared page. */
struct counters {
	unsigned int a, b, c, d, e, f;
	unsigned int claimed;
	unsigned int bytes;
};

extern struct counters *cnt;

void add(unsigned int *c, unsigned int v);
void add_bytes(unsigned long v);
void reset_counters(void);

/* ------------------------------------------------------------ addresses */

union addr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_un un;
};

int loopback(union addr *a, int family, int port);
int is_loopback(const union addr *a, int family);
int port_of(const union addr *a);
int local_port(int fd);
const char *fam_name(int family);

/* ------------------------------------------------------------ stream I/O */

long send_all(int fd, const void *buf, size_t len);
long recv_all(int fd, void *buf, size_t len);
long send_pattern(int fd, size_t len, unsigned int seed);
long recv_pattern(int fd, size_t len, unsigned int seed, int to_eof);
void say_recv_error(const char *what, long r, size_t want);

/* ------------------------------------------------------------ the checks */

extern int have_inet, have_inet6;	/* main.c: the families this kernel has */

void test_tcp(int family);		/* tcp.c */
void test_udp(int family);		/* udp.c */
void test_udp_flood(int family);
void test_unix_pair(int type, const char *name);	/* unix.c */
void test_unix_rights(void);
void test_unix_cred(void);
void test_ping(int family);		/* raw.c */
void test_icmp_raw(void);
void test_udp_raw(void);
void test_packet(void);
void test_netlink(void);		/* netlink.c */

#endif /* _NET_STRESS_H */
