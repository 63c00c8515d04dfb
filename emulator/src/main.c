/*
 * main.c - tsar-emu command line: options, host I/O (serial on stdio or a
 * file, stdin polling, raw terminal), timeouts, exit status.
 *
 * Exit status: guest END_WITH_RETVAL value & 0xFF; SC_STOP 0;
 * EXCEPT_WITH_VAL 127; timeout or guest hang 124 (every CPU waits with no
 * wake-up source, or spins for good); instruction limit 125; a CPU stopped
 * in a porting stub 123; bad input / internal error 126; host signal 128+N.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "emu.h"
#include "gdbstub.h"
#include "net.h"

#define EXIT_STUB 123
#define EXIT_TIMEOUT 124
#define EXIT_LIMIT 125
#define EXIT_ERROR 126
#define EXIT_EXCEPT 127
/* -timeout values above this (including inf) mean no wall-clock limit */
#define TIMEOUT_MAX_SECS 1e9

static const char *prog = "tsar-emu";

/* " <symbol+0x1c>" for a code address of the ELF, else "" */
static const char *where(temu *e, uint32_t pc, char *buf, size_t len)
{
    uint32_t off;
    const char *sym = temu_symbol(e, temu_link_address(e, pc), &off);
    if (!sym)
        snprintf(buf, len, "%s", "");
    else if (off)
        snprintf(buf, len, " <%s+0x%x>", sym, off);
    else
        snprintf(buf, len, " <%s>", sym);
    return buf;
}

/* ------------------------------------------------------------ host state */

typedef struct host {
    int out_fd; /* serial output, -1 = none */
    bool out_close;
    uint8_t obuf[8192];
    size_t olen;
    bool in_on, in_eof, in_tty, raw;
    struct termios saved;
    bool ctrl_a;
    uint64_t deadline; /* monotonic ns, 0 = none */
    bool timed_out, user_quit;
    gdbstub *gdb;
    net *net;               /* the NIC's host side, or NULL */
    struct pollfd *pf;      /* host_poll's descriptors */
    int pf_cap;
} host;

static volatile sig_atomic_t got_signal;
static host *g_host; /* for the atexit terminal restore */

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                struct pollfd pf = {fd, POLLOUT, 0};
                poll(&pf, 1, 100);
                continue;
            }
            return; /* output is gone (EPIPE...): drop it */
        }
        p += w;
        n -= (size_t)w;
    }
}

static void out_flush(host *h)
{
    if (h->olen && h->out_fd >= 0)
        write_all(h->out_fd, h->obuf, h->olen);
    h->olen = 0;
}

static void tty_out(void *opaque, unsigned channel, const uint8_t *buf, size_t len)
{
    host *h = opaque;
    if (channel != 0 || h->out_fd < 0)
        return;
    for (size_t i = 0; i < len; i++) {
        if (h->olen == sizeof h->obuf)
            out_flush(h);
        h->obuf[h->olen++] = buf[i];
        if (buf[i] == '\n' && h->in_tty)
            out_flush(h); /* interactive: keep the console responsive */
    }
}

static void term_restore(void)
{
    if (g_host && g_host->raw) {
        tcsetattr(0, TCSANOW, &g_host->saved);
        g_host->raw = false;
    }
}

static void term_raw(host *h)
{
    struct termios t;
    if (tcgetattr(0, &h->saved) < 0)
        return;
    t = h->saved;
    /* like QEMU's stdio backend: no echo, no line editing, no signals; keep
     * ICRNL (Enter -> \n, the TTY model skips \r) and output processing. */
    t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | IXON);
    t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(0, TCSANOW, &t) == 0) {
        h->raw = true;
        atexit(term_restore);
    }
}

static void on_signal(int sig) { got_signal = sig; }

static void host_net_tx(void *opaque, const uint8_t *frame, size_t len)
{
    host *h = opaque;
    if (h->net)
        net_send(h->net, frame, len);
}

/* Read what stdin has (it is known to be readable) and queue it. */
static void read_stdin(host *h, temu *e)
{
    uint8_t buf[512];
    size_t room = temu_tty_input_room(e);
    if (room == 0)
        return;
    if (room > sizeof buf)
        room = sizeof buf;
    ssize_t n = read(0, buf, room);
    if (n < 0) {
        if (errno != EINTR && errno != EAGAIN)
            h->in_eof = true;
        return;
    }
    if (n == 0) {
        h->in_eof = true;
        return;
    }
    size_t k = 0;
    for (ssize_t i = 0; i < n; i++) {
        uint8_t c = buf[i];
        if (h->raw) { /* Ctrl-A x quits, Ctrl-A Ctrl-A sends Ctrl-A */
            if (h->ctrl_a) {
                h->ctrl_a = false;
                if (c == 'x' || c == 'X') {
                    h->user_quit = true;
                    break;
                }
                if (c != 1)
                    continue;
            } else if (c == 1) {
                h->ctrl_a = true;
                continue;
            }
        }
        buf[k++] = c;
    }
    if (k)
        temu_tty_input(e, buf, k);
}

static unsigned host_poll(void *opaque, temu *e, int64_t timeout_ns)
{
    host *h = opaque;
    out_flush(h);
    if (got_signal || h->user_quit)
        return TEMU_POLL_STOP;
    uint64_t now = mono_ns();
    if (h->deadline && now >= h->deadline) {
        h->timed_out = true;
        return TEMU_POLL_STOP;
    }
    if (!h->pf) {
        h->pf_cap = 16;
        h->pf = malloc((size_t)h->pf_cap * sizeof *h->pf);
        if (!h->pf)
            return TEMU_POLL_STOP;
    }
    struct pollfd *pf = h->pf;
    int n = 0, in_idx = -1, gdb_idx = -1;
    bool want_in = h->in_on && !h->in_eof && temu_tty_input_room(e) > 0;
    if (want_in) {
        in_idx = n;
        pf[n++] = (struct pollfd){0, POLLIN, 0};
    }
    int gfd = h->gdb ? gdb_poll_fd(h->gdb) : -1;
    if (gfd >= 0) {
        gdb_idx = n;
        pf[n++] = (struct pollfd){gfd, POLLIN, 0};
    }
    /* a frame can wake the guest only while its NIC receives */
    bool net_wakes = h->net && temu_net_receiving(e);
    if (!n && !net_wakes && timeout_ns < 0)
        return 0; /* nothing can ever wake the guest: it is hung */
    int net_first = n;
    net_flush(h->net);
    net_poll_fill(h->net, &h->pf, &n, &h->pf_cap, &timeout_ns);
    pf = h->pf;
    if (h->deadline && (timeout_ns < 0 || now + (uint64_t)timeout_ns > h->deadline))
        timeout_ns = (int64_t)(h->deadline - now);
    struct timespec ts, *tsp = NULL;
    if (timeout_ns >= 0) {
        ts.tv_sec = timeout_ns / 1000000000;
        ts.tv_nsec = timeout_ns % 1000000000;
        tsp = &ts;
    }
    int r = ppoll(pf, (nfds_t)n, tsp, NULL);
    net_poll_done(h->net, pf, net_first, r);
    if (r > 0) {
        if (in_idx >= 0 && (pf[in_idx].revents & (POLLIN | POLLHUP | POLLERR)))
            read_stdin(h, e);
        if (gdb_idx >= 0 && (pf[gdb_idx].revents & (POLLIN | POLLHUP | POLLERR)) &&
            gdb_check_interrupt(h->gdb))
            return TEMU_POLL_STOP;
    }
    if (got_signal || h->user_quit)
        return TEMU_POLL_STOP;
    if (h->deadline && mono_ns() >= h->deadline) {
        h->timed_out = true;
        return TEMU_POLL_STOP;
    }
    /* input can still arrive (checked after the read: EOF may just have come) */
    bool live = (h->in_on && !h->in_eof) || (h->gdb && gdb_poll_fd(h->gdb) >= 0) ||
                (h->net && temu_net_receiving(e));
    return live ? TEMU_POLL_LIVE : 0;
}

/* ------------------------------------------------------------ options */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: %s [options] -kernel FILE.elf   (or: %s [options] FILE.elf)\n"
            "  -kernel FILE        ELF32 little-endian MIPS image (loaded at p_paddr)\n"
            "  -dtb FILE           platform device tree (default: built-in platform)\n"
            "  -append ARGS        replace /chosen/bootargs in the guest's DTB\n"
            "  -disk FILE          block device backing image (read/write, written through)\n"
            "  -disk-ro            the disk is read-only (guest writes fail; DTB says read-only)\n"
            "  -disk-error A-B     blocks A..B of the disk give device errors (repeatable)\n"
            "  -serial stdio|file:PATH|none   TTY channel 0 (default stdio)\n"
            "  -net user[,restrict=on|off][,hostfwd=[tcp|udp]:[HADDR]:HPORT-[GADDR]:GPORT]...\n"
            "           [,guestfwd=tcp:GADDR:GPORT-tcp:HADDR:HPORT]...   the NIC on libslirp's\n"
            "                      user-mode network (default, with a NIC: user,restrict=on)\n"
            "  -net none           the NIC without a cable (no carrier)\n"
            "  -net-dump FILE      pcap capture of every frame, both directions\n"
            "  -icount-limit N     stop after N instructions (exit 125); also -max-insns\n"
            "  -timeout SECS       wall-clock limit (exit 124); inf or > 1e9 = none\n"
            "  -quantum N          instructions per CPU slot (default %u)\n"
            "  -seed N|random      randomize the CPU interleaving from seed N\n"
            "  -accel interp|jit   execution tier (default: $TEMU_ACCEL, else jit on x86-64)\n"
            "  -idle skip|sleep|auto  idle `wait`: jump to the next timer event at once,\n"
            "                      or sleep the equivalent host time; auto (default) =\n"
            "                      sleep if stdin is a terminal or while the NIC receives\n"
            "                      from the network, else skip\n"
            "  -d LIST             trace: in_asm,exec,int,mmu,dev (or all)\n"
            "  -D FILE             trace log file (default stderr)\n"
            "  -gdb tcp::PORT      GDB remote stub; -s = -gdb tcp::1234\n"
            "  -S                  wait for the debugger before the first instruction\n"
            "  -v                  print a run summary\n"
            "  -h, -help           this help\n",
            prog, prog, TEMU_DEFAULT_QUANTUM);
}

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_ERROR;
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static int read_file(const char *path, const char *what, uint8_t **out, size_t *len)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return fail("%s: cannot open %s: %s", path, what, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        return fail("%s: cannot stat %s: %s", path, what, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return fail("%s: %s is %s (a regular file is needed)", path, what,
                    file_kind(st.st_mode));
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        close(fd);
        return fail("%s: out of memory", path);
    }
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = errno;
            free(buf);
            close(fd);
            return fail("%s: cannot read %s: %s", path, what, r ? strerror(e) : "short read");
        }
        got += (size_t)r;
    }
    close(fd);
    *out = buf;
    *len = n;
    return 0;
}

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-')
        return false;
    *v = x;
    return true;
}

/* Open an output file without blocking on a FIFO that has no reader yet
 * (ENXIO then), and make it blocking again for the writes. */
static int open_output(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    else if (errno == ENXIO)
        errno = EPIPE; /* reported as "a FIFO with no reader" below */
    return fd;
}

static const char *open_error(void)
{
    return errno == EPIPE ? "it is a FIFO with no reader" : strerror(errno);
}

static int parse_trace(const char *list, unsigned *mask)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    *mask = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "in_asm")) *mask |= TEMU_TRACE_IN_ASM;
        else if (!strcmp(tok, "exec")) *mask |= TEMU_TRACE_EXEC;
        else if (!strcmp(tok, "int")) *mask |= TEMU_TRACE_INT;
        else if (!strcmp(tok, "mmu")) *mask |= TEMU_TRACE_MMU;
        else if (!strcmp(tok, "dev")) *mask |= TEMU_TRACE_DEV;
        else if (!strcmp(tok, "all")) *mask |= 0x1F;
        else
            return fail("-d: unknown trace item '%s' (in_asm, exec, int, mmu, dev, all)", tok);
    }
    return 0;
}

typedef struct opts {
    const char *kernel, *dtb, *append, *disk, *serial, *dlist, *dfile, *gdb;
    uint64_t icount_limit;
    double timeout;
    bool wait_gdb, verbose;
    int idle_mode;
    uint32_t quantum;
    int accel;
    bool seeded;
    uint64_t seed;
    bool disk_ro;
    int ndisk_errors;
    uint64_t disk_errors[TEMU_MAX_DISK_ERRORS][2];
    net_opts net;
} opts;

static int parse_args(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->serial = "stdio";
    o->idle_mode = -1; /* auto */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || !a[1]) {
            if (o->kernel)
                return fail("more than one ELF image given ('%s' and '%s')", o->kernel, a);
            o->kernel = a;
            continue;
        }
        if (a[1] == '-' && a[2])
            a++; /* accept --option too */
#define ARG(name)                                                             \
    (strcmp(a, name) ? 0 : i + 1 < argc ? 1 : (fail("option %s needs an argument", a), -1))
        int r;
        if (!strcmp(a, "-h") || !strcmp(a, "-help")) {
            usage(stdout);
            exit(0);
        } else if (!strcmp(a, "-v")) {
            o->verbose = true;
        } else if (!strcmp(a, "-s")) {
            o->gdb = "tcp::1234";
        } else if (!strcmp(a, "-S")) {
            o->wait_gdb = true;
        } else if (!strcmp(a, "-disk-ro")) {
            o->disk_ro = true;
        } else if ((r = ARG("-kernel"))) {
            if (r < 0) return EXIT_ERROR;
            if (o->kernel)
                return fail("more than one ELF image given ('%s' and '%s')", o->kernel,
                            argv[i + 1]);
            o->kernel = argv[++i];
        } else if ((r = ARG("-dtb"))) {
            if (r < 0) return EXIT_ERROR;
            o->dtb = argv[++i];
        } else if ((r = ARG("-append"))) {
            if (r < 0) return EXIT_ERROR;
            o->append = argv[++i];
        } else if ((r = ARG("-disk"))) {
            if (r < 0) return EXIT_ERROR;
            o->disk = argv[++i];
        } else if ((r = ARG("-disk-error"))) {
            if (r < 0) return EXIT_ERROR;
            const char *v = argv[++i];
            const char *dash = strchr(v, '-');
            char first[32];
            uint64_t lo, hi;
            if (!dash || (size_t)(dash - v) >= sizeof first)
                return fail("-disk-error: expected a block range FIRST-LAST, got '%s'", v);
            memcpy(first, v, (size_t)(dash - v));
            first[dash - v] = 0;
            if (!parse_u64(first, &lo) || !parse_u64(dash + 1, &hi) || hi < lo)
                return fail("-disk-error: expected a block range FIRST-LAST, got '%s'", v);
            if (o->ndisk_errors == TEMU_MAX_DISK_ERRORS)
                return fail("-disk-error: at most %d ranges", TEMU_MAX_DISK_ERRORS);
            o->disk_errors[o->ndisk_errors][0] = lo;
            o->disk_errors[o->ndisk_errors++][1] = hi;
        } else if ((r = ARG("-net"))) {
            if (r < 0) return EXIT_ERROR;
            char err[256];
            if (net_parse(&o->net, argv[++i], err, sizeof err))
                return fail("%s", err);
        } else if ((r = ARG("-net-dump"))) {
            if (r < 0) return EXIT_ERROR;
            if (o->net.dump)
                return fail("-net-dump: given twice");
            o->net.dump = argv[++i];
        } else if ((r = ARG("-serial"))) {
            if (r < 0) return EXIT_ERROR;
            o->serial = argv[++i];
        } else if ((r = ARG("-icount-limit")) || (r = ARG("-max-insns"))) {
            if (r < 0) return EXIT_ERROR;
            if (!parse_u64(argv[++i], &o->icount_limit) || !o->icount_limit)
                return fail("%s: bad instruction count '%s'", a, argv[i]);
        } else if ((r = ARG("-timeout"))) {
            if (r < 0) return EXIT_ERROR;
            char *end;
            o->timeout = strtod(argv[++i], &end);
            if (end == argv[i] || *end || !(o->timeout > 0))
                return fail("-timeout: bad number of seconds '%s'", argv[i]);
            if (o->timeout > TIMEOUT_MAX_SECS)
                o->timeout = 0; /* inf or beyond any run: no limit */
        } else if ((r = ARG("-quantum"))) {
            if (r < 0) return EXIT_ERROR;
            uint64_t q;
            if (!parse_u64(argv[++i], &q) || q == 0 || q > 100000000)
                return fail("-quantum: bad instruction count '%s' (1..100000000)", argv[i]);
            o->quantum = (uint32_t)q;
        } else if ((r = ARG("-accel"))) {
            if (r < 0) return EXIT_ERROR;
            const char *v = argv[++i];
            if (!strcmp(v, "interp")) o->accel = TEMU_ACCEL_INTERP;
            else if (!strcmp(v, "jit")) o->accel = TEMU_ACCEL_JIT;
            else return fail("-accel: expected interp or jit, got '%s'", v);
        } else if ((r = ARG("-seed"))) {
            if (r < 0) return EXIT_ERROR;
            o->seeded = true;
            if (!strcmp(argv[++i], "random")) {
                struct timespec ts;
                clock_gettime(CLOCK_REALTIME, &ts);
                o->seed = ((uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 20 ^
                           (uint64_t)ts.tv_sec << 32) % 1000000000000ull;
            } else if (!parse_u64(argv[i], &o->seed)) {
                return fail("-seed: expected a number or 'random', got '%s'", argv[i]);
            }
        } else if ((r = ARG("-idle"))) {
            if (r < 0) return EXIT_ERROR;
            const char *v = argv[++i];
            if (!strcmp(v, "skip")) o->idle_mode = TEMU_IDLE_SKIP;
            else if (!strcmp(v, "sleep")) o->idle_mode = TEMU_IDLE_SLEEP;
            else if (!strcmp(v, "auto")) o->idle_mode = -1;
            else return fail("-idle: expected skip, sleep or auto, got '%s'", v);
        } else if ((r = ARG("-d"))) {
            if (r < 0) return EXIT_ERROR;
            o->dlist = argv[++i];
        } else if ((r = ARG("-D"))) {
            if (r < 0) return EXIT_ERROR;
            o->dfile = argv[++i];
        } else if ((r = ARG("-gdb"))) {
            if (r < 0) return EXIT_ERROR;
            o->gdb = argv[++i];
        } else {
            fail("unknown option '%s'", argv[i]);
            usage(stderr);
            return EXIT_ERROR;
        }
#undef ARG
    }
    if ((o->disk_ro || o->ndisk_errors) && !o->disk)
        return fail("%s needs a disk image (-disk FILE)", o->disk_ro ? "-disk-ro" : "-disk-error");
    if (!o->kernel) {
        fail("no ELF image given (use -kernel FILE or a positional FILE)");
        usage(stderr);
        return EXIT_ERROR;
    }
    if (o->wait_gdb && !o->gdb)
        return fail("-S needs a debugger stub (-gdb tcp::PORT or -s)");
    return 0;
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--net-relay"))
        return net_relay_main(argv[2]); /* started by libslirp: a guest forward */
    opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc;

    host h;
    memset(&h, 0, sizeof h);
    h.out_fd = -1;
    g_host = &h;
    if (!strcmp(o.serial, "stdio")) {
        h.out_fd = 1;
        h.in_on = true;
    } else if (!strncmp(o.serial, "file:", 5)) {
        h.out_fd = open_output(o.serial + 5);
        if (h.out_fd < 0)
            return fail("%s: cannot open serial output file: %s", o.serial + 5,
                        open_error());
        h.out_close = true;
    } else if (strcmp(o.serial, "none") && strcmp(o.serial, "null")) {
        return fail("-serial: expected stdio, file:PATH or none, got '%s'", o.serial);
    }

    unsigned trace = 0;
    if (o.dlist && (rc = parse_trace(o.dlist, &trace)))
        return rc;
    FILE *trace_out = stderr;
    if (o.dfile) {
        int fd = open_output(o.dfile);
        trace_out = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!trace_out)
            return fail("%s: cannot open log file: %s", o.dfile, open_error());
        setvbuf(trace_out, NULL, _IOFBF, 1 << 16);
    }

    uint8_t *elf = NULL, *dtb = NULL;
    size_t elf_len = 0, dtb_len = 0;
    if ((rc = read_file(o.kernel, "ELF image", &elf, &elf_len)))
        return rc;
    if (o.dtb && (rc = read_file(o.dtb, "device tree blob", &dtb, &dtb_len))) {
        free(elf);
        return rc;
    }

    temu_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.dtb = dtb;
    cfg.dtb_size = dtb_len;
    cfg.dtb_name = o.dtb;
    cfg.bootargs = o.append;
    cfg.disk_path = o.disk;
    cfg.disk_readonly = o.disk_ro;
    cfg.ndisk_errors = o.ndisk_errors;
    for (int i = 0; i < o.ndisk_errors; i++) {
        cfg.disk_errors[i].first = o.disk_errors[i][0];
        cfg.disk_errors[i].last = o.disk_errors[i][1];
    }
    /* auto: an interactive session follows the wall clock when idle; batch
     * runs jump over idle time (fast and deterministic) */
    bool interactive = h.in_on && isatty(0);
    cfg.idle_mode = o.idle_mode >= 0 ? o.idle_mode
                                     : (interactive ? TEMU_IDLE_SLEEP : TEMU_IDLE_SKIP);
    /* auto: a guest on the network waits for the host in wall-clock time */
    cfg.idle_net_sleep = o.idle_mode < 0;
    cfg.host.opaque = &h;
    cfg.host.tty_out = tty_out;
    cfg.host.poll = host_poll;
    cfg.host.net_tx = host_net_tx;
    cfg.net_link = !o.net.none;
    /* an explicit network option on a platform without a NIC is an error */
    cfg.net_required = o.net.given || o.net.dump;
    cfg.quantum = o.quantum;
    cfg.accel = o.accel;
    cfg.randomize = o.seeded;
    cfg.seed = o.seed;

    char err[512];
    temu *e = temu_create(&cfg, err, sizeof err);
    free(dtb);
    if (!e) {
        free(elf);
        return fail("%s", err);
    }
    rc = temu_load_elf(e, elf, elf_len, o.kernel, err, sizeof err);
    free(elf);
    if (rc) {
        temu_destroy(e);
        return fail("%s", err);
    }
    if (temu_boot(e, err, sizeof err)) {
        temu_destroy(e);
        return fail("%s", err);
    }
    if (temu_has_nic(e)) {
        h.net = net_start(&o.net, e, err, sizeof err);
        if (!h.net) {
            temu_destroy(e);
            return fail("%s", err);
        }
    }
    temu_set_trace(e, trace, trace_out);
    if (o.seeded)
        fprintf(stderr, "%s: randomized CPU interleaving, seed %llu (replay with -seed %llu)\n",
                prog, (unsigned long long)o.seed, (unsigned long long)o.seed);
    if (o.verbose) {
        char desc[1024];
        temu_describe(e, desc, sizeof desc);
        fprintf(stderr, "%s: platform: %s\n", prog, desc);
    }

    if (o.gdb) {
        h.gdb = gdb_listen(o.gdb, err, sizeof err);
        if (!h.gdb) {
            temu_destroy(e);
            return fail("%s", err);
        }
        if (o.verbose || o.wait_gdb)
            fprintf(stderr, "%s: waiting for gdb on %s\n", prog, o.gdb);
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    if (h.gdb && o.wait_gdb) {
        /* beyond INT_MAX ms (about 24 days) there is no practical limit */
        int ms = o.timeout > 0 && o.timeout * 1000 < INT_MAX ? (int)(o.timeout * 1000) : -1;
        if (gdb_accept(h.gdb, ms) < 0) {
            gdb_close(h.gdb);
            temu_destroy(e);
            if (got_signal) {
                fprintf(stderr, "%s: interrupted by signal %d while waiting for gdb\n", prog,
                        (int)got_signal);
                return 128 + got_signal;
            }
            fprintf(stderr, "%s: timeout after %g s waiting for gdb\n", prog, o.timeout);
            return EXIT_TIMEOUT;
        }
    }

    h.in_tty = h.in_on && isatty(0);
    if (h.in_tty)
        term_raw(&h);

    uint64_t t0 = mono_ns();
    if (o.timeout > 0)
        h.deadline = t0 + (uint64_t)(o.timeout * 1e9); /* <= 1e18 ns: no overflow */
    uint64_t limit = o.icount_limit ? o.icount_limit : UINT64_MAX;

    temu_stop stop;
    if (h.gdb)
        stop = gdb_session(h.gdb, e, limit, o.wait_gdb);
    else
        stop = temu_run(e, limit);

    out_flush(&h);
    term_restore();
    double secs = (double)(mono_ns() - t0) / 1e9;
    unsigned long long n = (unsigned long long)temu_insns(e);
    double mips = secs > 0 ? (double)n / secs / 1e6 : 0;
    int status;

    if (temu_ncpus(e) > 1 && stop != TEMU_STOP_EXIT) {
        /* where every CPU was, for limits, hangs and timeouts */
        int sel = temu_selected_cpu(e);
        for (int i = 0; i < temu_ncpus(e); i++) {
            temu_select_cpu(e, i);
            char sym[160];
            uint32_t pc = temu_get_reg(e, TEMU_REG_PC);
            fprintf(stderr, "%s: cpu%d (id %u): pc=0x%08x%s%s, %llu instructions\n", prog, i,
                    temu_cpu_id(e, i), pc, where(e, pc, sym, sizeof sym),
                    temu_cpu_waiting(e, i) ? " (waiting)" : "",
                    (unsigned long long)temu_cpu_insns(e, i));
        }
        temu_select_cpu(e, sel);
    }
    switch (stop) {
    case TEMU_STOP_EXIT:
        switch (temu_exit_kind(e)) {
        case TEMU_EXIT_RETVAL: status = (int)(temu_exit_value(e) & 0xFF); break;
        case TEMU_EXIT_EXCEPT:
            status = EXIT_EXCEPT;
            fprintf(stderr, "%s: guest signalled an error: EXCEPT_WITH_VAL 0x%08x (%llu instructions)\n",
                    prog, temu_exit_value(e), n);
            break;
        default: status = 0; break;
        }
        if (o.verbose)
            fprintf(stderr,
                    "%s: guest exit status %d after %llu instructions in %.3f s (%.1f MIPS)\n",
                    prog, status, n, secs, mips);
        break;
    case TEMU_STOP_LIMIT:
        status = EXIT_LIMIT;
        fprintf(stderr, "%s: instruction limit reached (%llu instructions, pc=0x%08x, %.3f s, %.1f MIPS)\n",
                prog, n, temu_get_reg(e, TEMU_REG_PC), secs, mips);
        break;
    case TEMU_STOP_HANG:
        status = EXIT_TIMEOUT;
        fprintf(stderr,
                "%s: guest hang: waiting with no possible wake-up source (pc=0x%08x, %llu "
                "instructions)\n",
                prog, temu_get_reg(e, TEMU_REG_PC), n);
        break;
    case TEMU_STOP_STUB:
    case TEMU_STOP_SPIN: {
        /* a stub leaves its message's link address in $v0 (emu.h) */
        uint32_t pc;
        char sym[160], msg[512] = "";
        int cpu = temu_spin(e, &pc);
        temu_select_cpu(e, cpu);
        if (stop == TEMU_STOP_STUB) {
            status = EXIT_STUB;
            temu_read_link_string(e, temu_get_reg(e, 2), msg, sizeof msg);
            fprintf(stderr, "%s: cpu%d stopped in a porting stub at 0x%08x%s after %llu "
                    "instructions: %s\n", prog, cpu, pc, where(e, pc, sym, sizeof sym), n,
                    *msg ? msg : "(no message in $v0)");
        } else {
            status = EXIT_TIMEOUT;
            fprintf(stderr,
                    "%s: guest hang: every CPU spins with interrupts masked (cpu%d at "
                    "0x%08x%s, %llu instructions)\n",
                    prog, cpu, pc, where(e, pc, sym, sizeof sym), n);
        }
        break;
    }
    case TEMU_STOP_BREAK:
    case TEMU_STOP_HOST:
    default:
        if (h.timed_out) {
            status = EXIT_TIMEOUT;
            fprintf(stderr, "%s: timeout after %g s (%llu instructions)\n", prog, o.timeout, n);
        } else if (got_signal) {
            status = 128 + got_signal;
            fprintf(stderr, "%s: interrupted by signal %d (%llu instructions)\n", prog,
                    (int)got_signal, n);
        } else if (h.user_quit) {
            status = 0;
            fprintf(stderr, "%s: terminated by the user (Ctrl-A x)\n", prog);
        } else if (h.gdb && gdb_killed(h.gdb)) {
            status = 0;
            fprintf(stderr, "%s: killed by the debugger (%llu instructions)\n", prog, n);
        } else {
            status = EXIT_ERROR;
            fprintf(stderr, "%s: internal error: run stopped unexpectedly\n", prog);
        }
        break;
    }
    temu_pair_hist(stderr, 40); /* PAIR_HIST=1 builds only */
    if (o.verbose) {
        temu_stats_print(e, stderr); /* STATS=1 builds only */
        temu_jit_figures f;
        temu_jit_stats(e, &f);
        if (temu_accel(e) == TEMU_ACCEL_JIT)
            fprintf(stderr,
                    "%s: accel jit: %llu blocks translated in %.3f s, %llu bytes of host code, "
                    "%llu links, %llu flushes\n",
                    prog, (unsigned long long)f.blocks, (double)f.translate_ns / 1e9,
                    (unsigned long long)f.bytes, (unsigned long long)f.links,
                    (unsigned long long)f.flushes);
        else
            fprintf(stderr, "%s: accel interp\n", prog);
    }
    temu_net_counters nc;
    if (o.verbose && temu_net_counters_get(e, &nc) == 0)
        fprintf(stderr,
                "%s: nic: rx %llu frames (%llu delivered, %llu dropped, %llu with the FIFO full, "
                "FIFO peak %u of %u), tx %llu frames (%llu sent, %llu dropped)\n",
                prog, (unsigned long long)nc.rx_frames, (unsigned long long)nc.rx_delivered,
                (unsigned long long)nc.rx_dropped, (unsigned long long)nc.rx_fifo_full,
                nc.rx_fifo_max, nc.rx_fifo_cap, (unsigned long long)nc.tx_frames,
                (unsigned long long)nc.tx_sent, (unsigned long long)nc.tx_dropped);
    net_stop(h.net);
    free(h.pf);
    if (h.gdb)
        gdb_close(h.gdb);
    if (trace_out != stderr)
        fclose(trace_out);
    if (h.out_close)
        close(h.out_fd);
    temu_destroy(e);
    return status;
}
