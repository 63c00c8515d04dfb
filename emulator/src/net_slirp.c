/*
 * net_slirp.c - tsar-emu's host side of the NIC: libslirp's user-mode
 * network (QEMU's -netdev user), port forwards, the pcap dump.
 *
 * libslirp's defaults: network 10.0.2.0/24, gateway 10.0.2.2, DNS 10.0.2.3,
 * DHCP from 10.0.2.15; IPv6 fec0::/64.  It runs in this thread: its
 * descriptors join the host poll (main.c), which runs every poll interval
 * and whenever the guest idles, and its timers are checked there.  A guest
 * forward connects to the host for each guest connection: libslirp starts
 * `tsar-emu --net-relay HOST:PORT` with the connection on its stdin, which
 * copies both ways (QEMU's guestfwd to a chardev is one connection only).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libslirp.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "net.h"

#define NET_MAX_TIMERS 16

typedef struct net_timer {
    SlirpTimerCb cb;
    void *cb_opaque;
    int64_t expire_ms; /* -1: not armed */
    bool used;
} net_timer;

struct net {
    temu *e;
    Slirp *slirp;
    FILE *dump;
    net_timer timers[NET_MAX_TIMERS];
    /* during net_poll_fill / net_poll_done: the shared pollfd array */
    struct pollfd **pf;
    int *nfd, *cap, first;
    bool grow_failed;
};

/* ------------------------------------------------------------ options */

static int fwd_error(char *err, size_t errlen, const char *what, const char *v, const char *why)
{
    snprintf(err, errlen, "-net: %s=%s: %s", what, v, why);
    return -1;
}

static bool parse_port(const char *s, size_t len, int *port)
{
    char buf[8];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end;
    long v = strtol(buf, &end, 10);
    if (*end || v < 1 || v > 65535 || buf[0] == '+' || buf[0] == '-')
        return false;
    *port = (int)v;
    return true;
}

/* "[ADDR]:PORT" (s..s+len); an empty ADDR gives def */
static bool parse_addr_port(const char *s, size_t len, struct in_addr def, struct in_addr *a,
                            int *port)
{
    const char *colon = memrchr(s, ':', len);
    if (!colon)
        return false;
    size_t alen = (size_t)(colon - s);
    if (alen == 0) {
        *a = def;
    } else {
        char buf[INET_ADDRSTRLEN];
        if (alen >= sizeof buf)
            return false;
        memcpy(buf, s, alen);
        buf[alen] = 0;
        if (inet_pton(AF_INET, buf, a) != 1)
            return false;
    }
    return parse_port(colon + 1, len - alen - 1, port);
}

static int parse_hostfwd(net_opts *o, const char *v, char *err, size_t errlen)
{
    static const char form[] = "expected [tcp|udp]:[HOSTADDR]:HOSTPORT-[GUESTADDR]:GUESTPORT "
                               "(addresses in dotted IPv4, ports 1..65535)";
    if (o->nhostfwd == NET_MAX_FWD)
        return fwd_error(err, errlen, "hostfwd", v, "too many host forwards (at most 16)");
    net_fwd f = {0};
    const char *p = v;
    if (!strncmp(p, "tcp:", 4)) {
        p += 4;
    } else if (!strncmp(p, "udp:", 4)) {
        f.udp = true;
        p += 4;
    } else if (p[0] == ':') {
        p += 1; /* QEMU's ":HOSTADDR:..." form: tcp */
    }
    const char *dash = strchr(p, '-');
    struct in_addr lo, guest;
    inet_pton(AF_INET, "127.0.0.1", &lo);
    inet_pton(AF_INET, "10.0.2.15", &guest);
    if (!dash || !parse_addr_port(p, (size_t)(dash - p), lo, &f.haddr, &f.hport) ||
        !parse_addr_port(dash + 1, strlen(dash + 1), guest, &f.gaddr, &f.gport))
        return fwd_error(err, errlen, "hostfwd", v, form);
    o->hostfwd[o->nhostfwd++] = f;
    return 0;
}

static int parse_guestfwd(net_opts *o, const char *v, char *err, size_t errlen)
{
    static const char form[] = "expected [tcp]:GUESTADDR:GUESTPORT-tcp:HOSTADDR:HOSTPORT "
                               "(addresses in dotted IPv4, ports 1..65535)";
    if (o->nguestfwd == NET_MAX_FWD)
        return fwd_error(err, errlen, "guestfwd", v, "too many guest forwards (at most 16)");
    net_fwd f = {0};
    const char *p = v;
    if (!strncmp(p, "tcp:", 4))
        p += 4;
    else if (p[0] == ':')
        p += 1;
    else if (!strncmp(p, "udp:", 4))
        return fwd_error(err, errlen, "guestfwd", v, "only tcp guest forwards exist");
    const char *dash = strchr(p, '-');
    struct in_addr any = {0};
    if (!dash || strncmp(dash + 1, "tcp:", 4) ||
        !parse_addr_port(p, (size_t)(dash - p), any, &f.gaddr, &f.gport) ||
        !parse_addr_port(dash + 5, strlen(dash + 5), any, &f.haddr, &f.hport) ||
        !f.haddr.s_addr)
        return fwd_error(err, errlen, "guestfwd", v, form);
    o->guestfwd[o->nguestfwd++] = f;
    return 0;
}

int net_parse(net_opts *o, const char *arg, char *err, size_t errlen)
{
    if (o->given) {
        snprintf(err, errlen, "-net: given twice (one -net user,... with all its options)");
        return -1;
    }
    o->given = true;
    o->restricted = true;
    if (!strcmp(arg, "none")) {
        o->none = true;
        return 0;
    }
    if (strncmp(arg, "user", 4) || (arg[4] && arg[4] != ',')) {
        snprintf(err, errlen, "-net: expected 'user[,OPTION]...' or 'none', got '%s'", arg);
        return -1;
    }
    char *copy = strdup(arg), *save = NULL;
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (char *tok = strtok_r(copy + 4, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            snprintf(err, errlen, "-net: option '%s' has no value (restrict=, hostfwd=, guestfwd=)",
                     tok);
            rc = -1;
            break;
        }
        *eq = 0;
        const char *v = eq + 1;
        if (!strcmp(tok, "restrict")) {
            if (!strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "y"))
                o->restricted = true;
            else if (!strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "n"))
                o->restricted = false;
            else
                rc = fwd_error(err, errlen, "restrict", v, "expected on or off");
        } else if (!strcmp(tok, "hostfwd")) {
            rc = parse_hostfwd(o, v, err, errlen);
        } else if (!strcmp(tok, "guestfwd")) {
            rc = parse_guestfwd(o, v, err, errlen);
        } else {
            snprintf(err, errlen,
                     "-net: unknown option '%s' (user takes restrict=, hostfwd=, guestfwd=)", tok);
            rc = -1;
        }
    }
    free(copy);
    return rc;
}

/* ------------------------------------------------------------ pcap */

static void dump_frame(net *n, const uint8_t *f, size_t len)
{
    if (!n->dump)
        return;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    uint32_t h[4] = {(uint32_t)tv.tv_sec, (uint32_t)tv.tv_usec, (uint32_t)len, (uint32_t)len};
    fwrite(h, sizeof h, 1, n->dump);
    fwrite(f, 1, len, n->dump);
}

/* ------------------------------------------------------------ slirp callbacks */

static ssize_t cb_send_packet(const void *buf, size_t len, void *opaque)
{
    net *n = opaque;
    dump_frame(n, buf, len);
    temu_net_input(n->e, buf, len); /* a drop is counted by the NIC */
    return (ssize_t)len;
}

static void cb_guest_error(const char *msg, void *opaque)
{
    (void)opaque;
    fprintf(stderr, "tsar-emu: network: guest error: %s\n", msg);
}

static int64_t cb_clock_ns(void *opaque)
{
    (void)opaque;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *cb_timer_new(SlirpTimerCb cb, void *cb_opaque, void *opaque)
{
    net *n = opaque;
    for (int i = 0; i < NET_MAX_TIMERS; i++)
        if (!n->timers[i].used) {
            n->timers[i] = (net_timer){cb, cb_opaque, -1, true};
            return &n->timers[i];
        }
    /* libslirp makes one or two: running out is a bug here */
    fprintf(stderr, "tsar-emu: network: out of timers\n");
    abort();
}

static void cb_timer_free(void *timer, void *opaque)
{
    (void)opaque;
    ((net_timer *)timer)->used = false;
}

static void cb_timer_mod(void *timer, int64_t expire_ms, void *opaque)
{
    (void)opaque;
    ((net_timer *)timer)->expire_ms = expire_ms;
}

static void cb_register_fd(int fd, void *opaque)
{
    (void)fd;
    (void)opaque;
}

static void cb_notify(void *opaque) { (void)opaque; }

static const SlirpCb callbacks = {
    .send_packet = cb_send_packet,
    .guest_error = cb_guest_error,
    .clock_get_ns = cb_clock_ns,
    .timer_new = cb_timer_new,
    .timer_free = cb_timer_free,
    .timer_mod = cb_timer_mod,
    .register_poll_fd = cb_register_fd,
    .unregister_poll_fd = cb_register_fd,
    .notify = cb_notify,
};

/* ------------------------------------------------------------ life cycle */

static const char *addr_str(struct in_addr a, char *buf)
{
    return inet_ntop(AF_INET, &a, buf, INET_ADDRSTRLEN);
}

/* The relay command line for a guest forward: this very program. */
static int relay_cmd(const net_fwd *f, char *cmd, size_t len, char *err, size_t errlen)
{
    char self[4096], a[INET_ADDRSTRLEN];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) {
        snprintf(err, errlen, "-net: guestfwd: cannot find this program (/proc/self/exe): %s",
                 strerror(errno));
        return -1;
    }
    self[k] = 0;
    if (strchr(self, '\'')) {
        snprintf(err, errlen, "-net: guestfwd: this program's path has a quote: %s", self);
        return -1;
    }
    snprintf(cmd, len, "'%s' --net-relay %s:%d", self, addr_str(f->haddr, a), f->hport);
    return 0;
}

net *net_start(const net_opts *o, temu *e, char *err, size_t errlen)
{
    net *n = calloc(1, sizeof *n);
    if (!n) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    n->e = e;
    if (o->dump) {
        /* O_NONBLOCK: a FIFO without a reader is refused, not waited for */
        int fd = open(o->dump, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0644);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) &&
            !S_ISCHR(st.st_mode)) {
            close(fd);
            fd = -1;
            errno = EISDIR;
        }
        if (fd >= 0)
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        n->dump = fd >= 0 ? fdopen(fd, "wb") : NULL;
        if (!n->dump) {
            snprintf(err, errlen, "-net-dump: %s: cannot open for writing: %s", o->dump,
                     errno == ENXIO ? "it is a FIFO with no reader" : strerror(errno));
            if (fd >= 0)
                close(fd);
            free(n);
            return NULL;
        }
        /* pcap: version 2.4, microseconds, snaplen, LINKTYPE_ETHERNET */
        uint32_t hdr[6] = {0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1};
        fwrite(hdr, sizeof hdr, 1, n->dump);
    }
    if (o->none)
        return n;

    SlirpConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.version = 1;
    cfg.restricted = o->restricted;
    cfg.in_enabled = true;
    inet_pton(AF_INET, "10.0.2.0", &cfg.vnetwork);
    inet_pton(AF_INET, "255.255.255.0", &cfg.vnetmask);
    inet_pton(AF_INET, "10.0.2.2", &cfg.vhost);
    cfg.in6_enabled = true;
    inet_pton(AF_INET6, "fec0::", &cfg.vprefix_addr6);
    cfg.vprefix_len = 64;
    inet_pton(AF_INET6, "fec0::2", &cfg.vhost6);
    inet_pton(AF_INET, "10.0.2.15", &cfg.vdhcp_start);
    inet_pton(AF_INET, "10.0.2.3", &cfg.vnameserver);
    inet_pton(AF_INET6, "fec0::3", &cfg.vnameserver6);
    n->slirp = slirp_new(&cfg, &callbacks, n);
    if (!n->slirp) {
        snprintf(err, errlen, "-net: libslirp failed to start");
        net_stop(n);
        return NULL;
    }
    for (int i = 0; i < o->nhostfwd; i++) {
        const net_fwd *f = &o->hostfwd[i];
        char ha[INET_ADDRSTRLEN], ga[INET_ADDRSTRLEN];
        errno = 0;
        if (slirp_add_hostfwd(n->slirp, f->udp, f->haddr, f->hport, f->gaddr, f->gport) < 0) {
            int en = errno;
            snprintf(err, errlen, "-net: hostfwd=%s:%s:%d-%s:%d: cannot listen on %s port %d: %s",
                     f->udp ? "udp" : "tcp", addr_str(f->haddr, ha), f->hport,
                     addr_str(f->gaddr, ga), f->gport, ha, f->hport,
                     en ? strerror(en) : "port in use or address not local");
            net_stop(n);
            return NULL;
        }
    }
    for (int i = 0; i < o->nguestfwd; i++) {
        const net_fwd *f = &o->guestfwd[i];
        char cmd[4200], ha[INET_ADDRSTRLEN], ga[INET_ADDRSTRLEN];
        if (relay_cmd(f, cmd, sizeof cmd, err, errlen)) {
            net_stop(n);
            return NULL;
        }
        struct in_addr g = f->gaddr;
        if (slirp_add_exec(n->slirp, cmd, &g, f->gport) < 0) {
            snprintf(err, errlen,
                     "-net: guestfwd=tcp:%s:%d-tcp:%s:%d: the guest address must be in "
                     "10.0.2.0/24, not the gateway 10.0.2.2 or the DNS 10.0.2.3, and each "
                     "address and port forwarded once",
                     addr_str(f->gaddr, ga), f->gport, addr_str(f->haddr, ha), f->hport);
            net_stop(n);
            return NULL;
        }
    }
    return n;
}

void net_stop(net *n)
{
    if (!n)
        return;
    if (n->slirp)
        slirp_cleanup(n->slirp);
    if (n->dump)
        fclose(n->dump);
    free(n);
}

void net_send(net *n, const uint8_t *frame, size_t len)
{
    dump_frame(n, frame, len);
    if (n->slirp)
        slirp_input(n->slirp, frame, (int)len);
}

void net_flush(net *n)
{
    if (n && n->dump)
        fflush(n->dump);
}

/* ------------------------------------------------------------ polling */

static int add_poll(int fd, int events, void *opaque)
{
    net *n = opaque;
    if (*n->nfd == *n->cap) {
        int cap = *n->cap ? *n->cap * 2 : 16;
        struct pollfd *p = realloc(*n->pf, (size_t)cap * sizeof *p);
        if (!p) {
            n->grow_failed = true;
            return -1;
        }
        *n->pf = p;
        *n->cap = cap;
    }
    short ev = 0;
    if (events & SLIRP_POLL_IN)
        ev |= POLLIN;
    if (events & SLIRP_POLL_OUT)
        ev |= POLLOUT;
    if (events & SLIRP_POLL_PRI)
        ev |= POLLPRI;
    (*n->pf)[*n->nfd] = (struct pollfd){fd, ev, 0};
    return (*n->nfd)++;
}

static int get_revents(int idx, void *opaque)
{
    net *n = opaque;
    if (idx < 0 || idx >= *n->nfd)
        return 0;
    short r = (*n->pf)[idx].revents;
    int ev = 0;
    if (r & POLLIN)
        ev |= SLIRP_POLL_IN;
    if (r & POLLOUT)
        ev |= SLIRP_POLL_OUT;
    if (r & POLLPRI)
        ev |= SLIRP_POLL_PRI;
    if (r & POLLERR)
        ev |= SLIRP_POLL_ERR;
    if (r & POLLHUP)
        ev |= SLIRP_POLL_HUP;
    return ev;
}

int net_poll_fill(net *n, struct pollfd **pf, int *nfd, int *cap, int64_t *timeout_ns)
{
    if (!n || !n->slirp)
        return 0;
    n->pf = pf;
    n->nfd = nfd;
    n->cap = cap;
    n->first = *nfd;
    uint32_t ms = UINT32_MAX;
    slirp_pollfds_fill(n->slirp, &ms, add_poll, n);
    int64_t now = cb_clock_ns(NULL) / 1000000;
    for (int i = 0; i < NET_MAX_TIMERS; i++) {
        const net_timer *t = &n->timers[i];
        if (t->used && t->expire_ms >= 0) {
            int64_t d = t->expire_ms > now ? t->expire_ms - now : 0;
            if (d < (int64_t)ms)
                ms = (uint32_t)d;
        }
    }
    if (ms != UINT32_MAX) {
        int64_t ns = (int64_t)ms * 1000000;
        if (*timeout_ns < 0 || ns < *timeout_ns)
            *timeout_ns = ns;
    }
    return 0;
}

void net_poll_done(net *n, const struct pollfd *pf, int first, int poll_result)
{
    (void)pf;
    (void)first;
    if (!n || !n->slirp)
        return;
    slirp_pollfds_poll(n->slirp, poll_result < 0, get_revents, n);
    int64_t now = cb_clock_ns(NULL) / 1000000;
    for (int i = 0; i < NET_MAX_TIMERS; i++) {
        net_timer *t = &n->timers[i];
        if (t->used && t->expire_ms >= 0 && t->expire_ms <= now) {
            t->expire_ms = -1;
            t->cb(t->cb_opaque);
        }
    }
}

/* ------------------------------------------------------------ guest-forward relay */

static bool copy_some(int from, int to, bool *eof)
{
    char buf[16384];
    ssize_t k = read(from, buf, sizeof buf);
    if (k < 0)
        return errno == EINTR || errno == EAGAIN;
    if (k == 0) {
        *eof = true;
        shutdown(to, SHUT_WR);
        return true;
    }
    for (ssize_t off = 0; off < k;) {
        ssize_t w = write(to, buf + off, (size_t)(k - off));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        off += w;
    }
    return true;
}

int net_relay_main(const char *hostport)
{
    /* stdin = stdout = stderr = the guest's connection: say nothing there */
    const char *colon = strrchr(hostport, ':');
    if (!colon)
        return 2;
    char host[INET_ADDRSTRLEN];
    size_t hl = (size_t)(colon - hostport);
    if (hl >= sizeof host)
        return 2;
    memcpy(host, hostport, hl);
    host[hl] = 0;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(colon + 1))};
    if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
        return 2;
    int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof sa) < 0)
        return 1; /* the guest sees its connection closed */
    bool geof = false, heof = false;
    while (!geof || !heof) {
        struct pollfd pf[2] = {{0, geof ? 0 : POLLIN, 0}, {s, heof ? 0 : POLLIN, 0}};
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return 1;
        }
        if (!geof && (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) && !copy_some(0, s, &geof))
            return 1;
        if (!heof && (pf[1].revents & (POLLIN | POLLHUP | POLLERR)) && !copy_some(s, 1, &heof))
            return 1;
    }
    return 0;
}
