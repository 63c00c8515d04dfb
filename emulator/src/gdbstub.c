/*
 * gdbstub.c - GDB remote serial protocol stub for tsar-emu.
 *
 * One client at a time over TCP (bound to the loopback interface for
 * "tcp::PORT").  Supported: register read/write in gdb's 72-register MIPS32
 * layout (32 GPRs, sr, lo, hi, bad, cause, pc, 32 FPRs, fsr, fir; the FPU
 * ones read as 0), memory read/write through the MMU (kernel view),
 * software/hardware breakpoints (Z0/Z1), continue, single-step, Ctrl-C,
 * detach and kill.  While the guest runs, the socket is watched from the
 * host poll (every ~100k instructions), so debugging costs nothing extra
 * unless breakpoints are set.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdbstub.h"

#define NREGS 72
#define PKT_MAX 4096
#define RUN_CHUNK 1000000u

struct gdbstub {
    int lfd, cfd;
    bool noack, killed, interrupted, new_client;
    int step_cpu; /* Hc: CPU index that 's' steps, -1 = the selected one */
    char in[PKT_MAX * 2 + 16];
    size_t inlen;
};

static void snprintf_err(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, b);
}

gdbstub *gdb_listen(const char *spec, char *err, size_t errlen)
{
    const char *host = "127.0.0.1", *port = spec;
    char hbuf[256];
    if (!strncmp(spec, "tcp:", 4)) {
        const char *rest = spec + 4;
        const char *colon = strrchr(rest, ':');
        if (!colon) {
            snprintf_err(err, errlen, "-gdb %s: expected tcp::PORT or tcp:HOST:PORT%s", spec, "");
            return NULL;
        }
        if (colon != rest) {
            size_t n = (size_t)(colon - rest);
            if (n >= sizeof hbuf)
                n = sizeof hbuf - 1;
            memcpy(hbuf, rest, n);
            hbuf[n] = 0;
            host = hbuf;
        }
        port = colon + 1;
    }
    char *end;
    long pn = strtol(port, &end, 10);
    if (!*port || *end || pn <= 0 || pn > 65535) {
        snprintf_err(err, errlen, "-gdb %s: bad port '%s'", spec, port);
        return NULL;
    }
    struct addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    if (getaddrinfo(host, port, &hints, &ai) || !ai) {
        snprintf_err(err, errlen, "-gdb %s: cannot resolve host '%s'", spec, host);
        return NULL;
    }
    int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 1) < 0) {
        snprintf_err(err, errlen, "-gdb %s: cannot listen: %s", spec, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return NULL;
    }
    freeaddrinfo(ai);
    gdbstub *g = calloc(1, sizeof *g);
    if (!g) {
        close(fd);
        return NULL;
    }
    g->lfd = fd;
    g->cfd = -1;
    g->step_cpu = -1;
    return g;
}

int gdb_accept(gdbstub *g, int timeout_ms)
{
    if (g->cfd >= 0)
        return 0;
    struct pollfd pf = {g->lfd, POLLIN, 0};
    if (poll(&pf, 1, timeout_ms) <= 0)
        return -1; /* timeout, or a signal: the caller decides */
    int fd = accept4(g->lfd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    g->cfd = fd;
    g->noack = false;
    g->inlen = 0;
    return 0;
}

static void disconnect(gdbstub *g)
{
    if (g->cfd >= 0)
        close(g->cfd);
    g->cfd = -1;
    g->inlen = 0;
}

int gdb_poll_fd(gdbstub *g)
{
    if (!g)
        return -1;
    return g->cfd >= 0 ? g->cfd : g->lfd;
}

/* Read what the socket has; returns -1 on EOF/error. */
static int fill(gdbstub *g, bool block)
{
    if (g->cfd < 0)
        return -1;
    if (g->inlen >= sizeof g->in)
        g->inlen = 0; /* garbage flood: drop it */
    if (!block) {
        struct pollfd pf = {g->cfd, POLLIN, 0};
        if (poll(&pf, 1, 0) <= 0)
            return 0;
    }
    ssize_t n;
    do
        n = read(g->cfd, g->in + g->inlen, sizeof g->in - g->inlen);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        disconnect(g);
        return -1;
    }
    g->inlen += (size_t)n;
    return (int)n;
}

bool gdb_check_interrupt(gdbstub *g)
{
    if (g->cfd < 0) {
        /* a debugger connects while the guest runs: stop and serve it */
        if (gdb_accept(g, 0) == 0) {
            g->interrupted = g->new_client = true;
            return true;
        }
        return false;
    }
    if (fill(g, false) < 0)
        return false; /* client went away: keep running */
    for (size_t i = 0; i < g->inlen; i++)
        if ((unsigned char)g->in[i] == 0x03) {
            memmove(g->in + i, g->in + i + 1, g->inlen - i - 1);
            g->inlen--;
            g->interrupted = true;
            return true;
        }
    return false;
}

static void send_raw(gdbstub *g, const char *p, size_t n)
{
    while (n && g->cfd >= 0) {
        ssize_t w = write(g->cfd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            disconnect(g);
            return;
        }
        p += w;
        n -= (size_t)w;
    }
}

static void send_packet(gdbstub *g, const char *data)
{
    static char buf[PKT_MAX * 2 + 8];
    size_t n = strlen(data);
    if (n > PKT_MAX * 2)
        n = PKT_MAX * 2;
    unsigned sum = 0;
    buf[0] = '$';
    for (size_t i = 0; i < n; i++) {
        buf[1 + i] = data[i];
        sum += (unsigned char)data[i];
    }
    snprintf(buf + 1 + n, 4, "#%02x", sum & 0xFF);
    send_raw(g, buf, n + 4);
}

/* Next complete packet into out (NUL terminated).  Returns 1, 0 if none
 * buffered (non-blocking), or -1 if the client left. */
static int get_packet(gdbstub *g, char *out, size_t outlen, bool block)
{
    for (;;) {
        size_t i = 0;
        while (i < g->inlen && g->in[i] != '$')
            i++; /* skip acks and noise before a packet */
        if (i) {
            memmove(g->in, g->in + i, g->inlen - i);
            g->inlen -= i;
        }
        char *hash = g->inlen ? memchr(g->in, '#', g->inlen) : NULL;
        if (hash && (size_t)(hash - g->in) + 3 <= g->inlen) {
            size_t len = (size_t)(hash - g->in) - 1;
            unsigned sum = 0;
            for (size_t k = 0; k < len; k++)
                sum += (unsigned char)g->in[1 + k];
            unsigned want = (unsigned)strtoul((char[3]){hash[1], hash[2], 0}, NULL, 16);
            bool ok = (sum & 0xFF) == want;
            if (len >= outlen)
                len = outlen - 1;
            memcpy(out, g->in + 1, len);
            out[len] = 0;
            size_t used = (size_t)(hash - g->in) + 3;
            memmove(g->in, g->in + used, g->inlen - used);
            g->inlen -= used;
            if (!g->noack)
                send_raw(g, ok ? "+" : "-", 1);
            if (ok)
                return 1;
            continue;
        }
        int r = fill(g, block);
        if (r < 0)
            return -1;
        if (r == 0 && !block)
            return 0;
    }
}

static const char hexd[] = "0123456789abcdef";

static void put_le32(char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        uint8_t b = (uint8_t)(v >> (8 * i));
        p[2 * i] = hexd[b >> 4];
        p[2 * i + 1] = hexd[b & 15];
    }
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool get_le32(const char *p, uint32_t *v)
{
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        int hi = hexval(p[2 * i]), lo = hexval(p[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        r |= (uint32_t)(hi << 4 | lo) << (8 * i);
    }
    *v = r;
    return true;
}

/* gdb's MIPS32 register numbering */
static uint32_t reg_read(temu *e, int n)
{
    if (n < 32)
        return temu_get_reg(e, n);
    switch (n) {
    case 32: return temu_cp0_read(e, 12, 0);
    case 33: return temu_get_reg(e, TEMU_REG_LO);
    case 34: return temu_get_reg(e, TEMU_REG_HI);
    case 35: return temu_cp0_read(e, 8, 0);
    case 36: return temu_cp0_read(e, 13, 0);
    case 37: return temu_get_reg(e, TEMU_REG_PC);
    default: return 0; /* FPU (absent) and anything else */
    }
}

static void reg_write(temu *e, int n, uint32_t v)
{
    if (n < 32)
        temu_set_reg(e, n, v);
    else if (n == 32)
        temu_cp0_write(e, 12, 0, v);
    else if (n == 33)
        temu_set_reg(e, TEMU_REG_LO, v);
    else if (n == 34)
        temu_set_reg(e, TEMU_REG_HI, v);
    else if (n == 36)
        temu_cp0_write(e, 13, 0, v);
    else if (n == 37)
        temu_set_reg(e, TEMU_REG_PC, v);
}

/* CPUs are gdb threads: thread id = CPU index + 1.  The stop reply names
 * the CPU that stopped (a single CPU keeps the plain S form). */
static void stop_reply(gdbstub *g, temu *e, int sig)
{
    char buf[32];
    if (temu_ncpus(e) > 1)
        snprintf(buf, sizeof buf, "T%02xthread:%x;", sig, temu_selected_cpu(e) + 1);
    else
        snprintf(buf, sizeof buf, "S%02x", sig);
    send_packet(g, buf);
}

/* A thread id from a packet: >= 0 CPU index, -1 = any/all, -2 = invalid. */
static int parse_thread(temu *e, const char *p)
{
    if (!strcmp(p, "-1") || !strcmp(p, "0"))
        return -1;
    char *end;
    long t = strtol(p, &end, 16);
    if (end == p || *end || t < 1 || t > temu_ncpus(e))
        return -2;
    return (int)t - 1;
}

/* Serve commands until the guest must run.  Returns 'c' or 's' to run,
 * 'k' for kill, 'D' for detach/disconnect. */
static int serve(gdbstub *g, temu *e)
{
    static char pkt[PKT_MAX * 2 + 8], out[PKT_MAX * 2 + 8];
    for (;;) {
        int r = get_packet(g, pkt, sizeof pkt, true);
        if (r < 0)
            return 'D';
        const char *p = pkt;
        out[0] = 0;
        switch (p[0]) {
        case '?':
            stop_reply(g, e, 5);
            continue;
        case 'g':
            for (int i = 0; i < NREGS; i++)
                put_le32(out + 8 * i, reg_read(e, i));
            out[8 * NREGS] = 0;
            break;
        case 'G':
            for (int i = 0; i < NREGS && strlen(p + 1) >= (size_t)(8 * (i + 1)); i++) {
                uint32_t v;
                if (get_le32(p + 1 + 8 * i, &v))
                    reg_write(e, i, v);
            }
            strcpy(out, "OK");
            break;
        case 'p': {
            int n = (int)strtol(p + 1, NULL, 16);
            put_le32(out, reg_read(e, n));
            out[8] = 0;
            break;
        }
        case 'P': {
            char *eq;
            int n = (int)strtol(p + 1, &eq, 16);
            uint32_t v;
            if (*eq == '=' && get_le32(eq + 1, &v)) {
                reg_write(e, n, v);
                strcpy(out, "OK");
            } else {
                strcpy(out, "E01");
            }
            break;
        }
        case 'm': {
            char *comma;
            uint32_t addr = (uint32_t)strtoul(p + 1, &comma, 16);
            size_t len = *comma == ',' ? strtoul(comma + 1, NULL, 16) : 0;
            if (len > PKT_MAX / 2)
                len = PKT_MAX / 2;
            uint8_t buf[PKT_MAX / 2];
            if (temu_read_virt(e, addr, buf, len)) {
                /* partial reads: as many bytes as possible */
                size_t ok = 0;
                while (ok < len && !temu_read_virt(e, addr + (uint32_t)ok, buf + ok, 1))
                    ok++;
                if (!ok) {
                    strcpy(out, "E14");
                    break;
                }
                len = ok;
            }
            for (size_t i = 0; i < len; i++) {
                out[2 * i] = hexd[buf[i] >> 4];
                out[2 * i + 1] = hexd[buf[i] & 15];
            }
            out[2 * len] = 0;
            break;
        }
        case 'M': {
            char *comma, *colon;
            uint32_t addr = (uint32_t)strtoul(p + 1, &comma, 16);
            size_t len = strtoul(comma + 1, &colon, 16);
            uint8_t buf[PKT_MAX];
            bool ok = *colon == ':' && len <= sizeof buf && strlen(colon + 1) >= 2 * len;
            for (size_t i = 0; ok && i < len; i++) {
                int hi = hexval(colon[1 + 2 * i]), lo = hexval(colon[2 + 2 * i]);
                ok = hi >= 0 && lo >= 0;
                buf[i] = (uint8_t)(hi << 4 | lo);
            }
            strcpy(out, ok && !temu_write_virt(e, addr, buf, len) ? "OK" : "E14");
            break;
        }
        case 'Z':
        case 'z':
            if (p[1] == '0' || p[1] == '1') {
                uint32_t addr = (uint32_t)strtoul(p + 3, NULL, 16);
                int rc = p[0] == 'Z' ? temu_add_breakpoint(e, addr)
                                     : (temu_remove_breakpoint(e, addr), 0);
                strcpy(out, rc ? "E0e" : "OK");
            } /* watchpoints: unsupported (empty reply) */
            break;
        case 'c':
        case 's':
            if (p[1])
                temu_set_reg(e, TEMU_REG_PC, (uint32_t)strtoul(p + 1, NULL, 16));
            return p[0];
        case 'k':
            return 'k';
        case 'D':
            send_packet(g, "OK");
            return 'D';
        case 'H': {
            int t = parse_thread(e, p + 2);
            if (t == -2) {
                strcpy(out, "E01");
            } else {
                if (p[1] == 'g' && t >= 0)
                    temu_select_cpu(e, t);  /* registers and memory of that CPU */
                else if (p[1] == 'c')
                    g->step_cpu = t;
                strcpy(out, "OK");
            }
            break;
        }
        case 'T':
            strcpy(out, parse_thread(e, p + 1) >= 0 ? "OK" : "E01");
            break;
        case 'q':
            if (!strncmp(p, "qSupported", 10))
                snprintf(out, sizeof out, "PacketSize=%x;QStartNoAckMode+", PKT_MAX);
            else if (!strcmp(p, "qC"))
                snprintf(out, sizeof out, "QC%x", temu_selected_cpu(e) + 1);
            else if (!strcmp(p, "qfThreadInfo")) {
                size_t n = 0;
                out[n++] = 'm';
                for (int i = 0; i < temu_ncpus(e); i++)
                    n += (size_t)snprintf(out + n, sizeof out - n, "%s%x", i ? "," : "", i + 1);
            } else if (!strcmp(p, "qsThreadInfo"))
                strcpy(out, "l");
            else if (!strncmp(p, "qThreadExtraInfo,", 17)) {
                int t = parse_thread(e, p + 17);
                char info[64];
                if (t < 0) {
                    strcpy(out, "E01");
                    break;
                }
                snprintf(info, sizeof info, "CPU %d (id %u)%s", t, temu_cpu_id(e, t),
                         temu_cpu_waiting(e, t) ? ", waiting" : "");
                for (size_t i = 0; info[i]; i++) {
                    out[2 * i] = hexd[(uint8_t)info[i] >> 4];
                    out[2 * i + 1] = hexd[info[i] & 15];
                    out[2 * i + 2] = 0;
                }
            }
            else if (!strncmp(p, "qAttached", 9))
                strcpy(out, "1");
            else if (!strcmp(p, "qSymbol::"))
                strcpy(out, "OK");
            break;
        case 'Q':
            if (!strcmp(p, "QStartNoAckMode")) {
                send_packet(g, "OK");
                g->noack = true;
                continue;
            }
            break;
        default:
            break; /* unsupported: empty reply */
        }
        send_packet(g, out);
    }
}

temu_stop gdb_session(gdbstub *g, temu *e, uint64_t limit, bool attached)
{
    uint64_t end = limit == UINT64_MAX ? UINT64_MAX : temu_insns(e) + limit;
    bool have_client = attached && g->cfd >= 0;
    for (;;) {
        int cmd = have_client ? serve(g, e) : 'D';
        if (cmd == 'k') {
            g->killed = true;
            disconnect(g);
            return TEMU_STOP_HOST;
        }
        if (cmd == 'D') {
            /* no debugger: run freely; a new client interrupts the run */
            disconnect(g);
            have_client = false;
        }
        for (;;) {
            uint64_t done = temu_insns(e);
            if (done >= end)
                return TEMU_STOP_LIMIT;
            uint64_t n = cmd == 's' ? 1 : end - done;
            if (have_client && n > RUN_CHUNK)
                n = RUN_CHUNK;
            g->interrupted = g->new_client = false;
            /* a step runs the chosen CPU alone (the others stay stopped) */
            temu_stop st = cmd == 's' ? temu_run_cpu(e, g->step_cpu >= 0 ? g->step_cpu
                                                              : temu_selected_cpu(e), 1)
                                      : temu_run(e, n);
            if (st == TEMU_STOP_LIMIT && cmd != 's' && temu_insns(e) < end)
                continue; /* just a chunk */
            if (st == TEMU_STOP_HOST && g->interrupted) {
                if (g->cfd < 0) {
                    have_client = false;
                    continue;
                }
                /* Ctrl-C: report SIGINT; a new client asks with '?' itself */
                if (!g->new_client)
                    stop_reply(g, e, 2);
                have_client = true;
                cmd = 'c';
                break;
            }
            if (st == TEMU_STOP_EXIT) {
                if (have_client) {
                    char buf[8];
                    int k = temu_exit_kind(e);
                    int code = k == TEMU_EXIT_RETVAL ? (int)(temu_exit_value(e) & 0xFF)
                                                     : (k == TEMU_EXIT_EXCEPT ? 127 : 0);
                    snprintf(buf, sizeof buf, "W%02x", code);
                    send_packet(g, buf);
                }
                return st;
            }
            if (!have_client || st == TEMU_STOP_HOST || st == TEMU_STOP_HANG ||
                (st == TEMU_STOP_LIMIT && cmd != 's')) {
                if (have_client)
                    send_packet(g, "X09"); /* the run ends for another reason */
                return st;
            }
            /* single step done, or breakpoint */
            stop_reply(g, e, 5);
            break;
        }
    }
}

bool gdb_killed(const gdbstub *g) { return g && g->killed; }

void gdb_close(gdbstub *g)
{
    if (!g)
        return;
    disconnect(g);
    if (g->lfd >= 0)
        close(g->lfd);
    free(g);
}
