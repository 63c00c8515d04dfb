// SPDX-License-Identifier: GPL-2.0
/*
 * net-stress's interface checks: NETLINK_ROUTE link and address dumps on
 * 4 CPUs and a request for a missing link (netlink), then the SIOCGIF*
 * ioctls of every link against netlink's answers, and SIOCGIFCONF
 * (netdev-ioctl).
 */
#include "net-stress.h"

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

void test_netlink(void)
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
