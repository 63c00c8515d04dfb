/*
 * guestprof - per-PC instruction histogram of a guest run, through the
 * public libtsaremu API (no change to the emulator itself).
 *
 *   guestprof [-dtb F] [-disk IMG] [-append ARGS] [-start STR] [-stop STR]
 *             [-max N] [-kbase ADDR] [-o OUT] [-ubase ADDR -uo UOUT] KERNEL.elf
 *
 * Runs the guest one instruction at a time and counts the PC of each
 * executed instruction. Counting starts when the guest's TTY output first
 * contains STR (-start; default: at once) and ends when it then contains
 * the -stop string (default: end of run). Output lines "PC COUNT" (hex,
 * decimal) for PCs in the 64 MiB from -kbase (default 0xc0000000), plus
 * "user N" (all other PCs) and "total N" summary lines;
 * scripts/guest-profile.py maps them through the kernel's symbols.
 * With -ubase and -uo, user PCs in the 64 MiB from -ubase (say 0x400000,
 * where a static program such as BusyBox is linked; every process that
 * runs it shares the histogram) go to UOUT in the same format, for
 * guest-profile.py with that program's unstripped ELF.
 * Guest output goes to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

#define KSPAN (64u << 20) /* kernel PCs counted: kbase .. kbase + KSPAN */

static uint32_t kbase = 0xc0000000u; /* -kbase: the kernel's PAGE_OFFSET */
static uint32_t ubase;                /* -ubase: user PCs histogrammed from here */

static const char *start_str, *stop_str;
static char tail[512];
static size_t tail_len;
static int counting, done;

static void tty_out(void *opaque, unsigned channel, const uint8_t *buf, size_t len)
{
    (void)opaque;
    if (channel)
        return;
    fwrite(buf, 1, len, stderr);
    for (size_t i = 0; i < len; i++) {
        if (tail_len == sizeof tail - 1) {
            memmove(tail, tail + sizeof tail / 2, sizeof tail / 2 - 1);
            tail_len = sizeof tail / 2 - 1;
        }
        tail[tail_len++] = (char)buf[i];
        tail[tail_len] = 0;
        if (!counting && !done && start_str && strstr(tail, start_str)) {
            counting = 1;
            tail_len = 0;
        } else if (counting && stop_str && strstr(tail, stop_str)) {
            counting = 0;
            done = 1;
        }
    }
}

static void *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    void *p = malloc(*len);
    if (!p || fread(p, 1, *len, f) != *len) {
        fprintf(stderr, "%s: read error\n", path);
        exit(2);
    }
    fclose(f);
    return p;
}

int main(int argc, char **argv)
{
    const char *kernel = NULL, *dtb_path = NULL, *append = NULL, *out = NULL, *disk = NULL;
    const char *uout = NULL;
    unsigned long long max = 2000000000ull;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "-dtb") && more)
            dtb_path = argv[++i];
        else if (!strcmp(a, "-disk") && more)
            disk = argv[++i];
        else if (!strcmp(a, "-append") && more)
            append = argv[++i];
        else if (!strcmp(a, "-start") && more)
            start_str = argv[++i];
        else if (!strcmp(a, "-stop") && more)
            stop_str = argv[++i];
        else if (!strcmp(a, "-max") && more)
            max = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(a, "-kbase") && more)
            kbase = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(a, "-o") && more)
            out = argv[++i];
        else if (!strcmp(a, "-ubase") && more)
            ubase = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(a, "-uo") && more)
            uout = argv[++i];
        else if (a[0] != '-' && !kernel)
            kernel = a;
        else {
            fprintf(stderr, "usage: guestprof [-dtb F] [-disk IMG] [-append ARGS] [-start STR] "
                            "[-stop STR] [-max N] [-kbase ADDR] [-o OUT] [-ubase ADDR -uo UOUT] "
                            "KERNEL.elf\n");
            return 2;
        }
    }
    if (!kernel) {
        fprintf(stderr, "guestprof: no kernel given\n");
        return 2;
    }
    counting = !start_str;

    temu_config cfg;
    memset(&cfg, 0, sizeof cfg);
    size_t dtb_len = 0, elf_len;
    void *dtb = dtb_path ? read_file(dtb_path, &dtb_len) : NULL;
    cfg.dtb = dtb;
    cfg.dtb_size = dtb_len;
    cfg.dtb_name = dtb_path;
    cfg.bootargs = append;
    cfg.disk_path = disk;
    cfg.idle_mode = TEMU_IDLE_SKIP;
    cfg.host.tty_out = tty_out;

    char err[512];
    temu *e = temu_create(&cfg, err, sizeof err);
    if (!e) {
        fprintf(stderr, "guestprof: %s\n", err);
        return 2;
    }
    void *elf = read_file(kernel, &elf_len);
    if (temu_load_elf(e, elf, elf_len, kernel, err, sizeof err) ||
        temu_boot(e, err, sizeof err)) {
        fprintf(stderr, "guestprof: %s\n", err);
        return 2;
    }
    free(elf);
    free(dtb);

    uint32_t *hist = calloc(KSPAN / 4, sizeof *hist);
    uint32_t *uhist = uout ? calloc(KSPAN / 4, sizeof *uhist) : NULL;
    unsigned long long user = 0, total = 0;
    if (!hist || (uout && !uhist))
        return 2;
    temu_stop stop = TEMU_STOP_LIMIT;
    while (!done && temu_insns(e) < max) {
        uint32_t pc = temu_get_reg(e, TEMU_REG_PC);
        uint64_t before = temu_insns(e);
        stop = temu_run(e, 1);
        if (counting && temu_insns(e) != before) {
            total++;
            if (pc - kbase < KSPAN)
                hist[(pc - kbase) / 4]++;
            else {
                user++;
                if (uhist && pc - ubase < KSPAN)
                    uhist[(pc - ubase) / 4]++;
            }
        }
        if (stop != TEMU_STOP_LIMIT)
            break;
    }

    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        perror(out);
        return 2;
    }
    for (uint32_t i = 0; i < KSPAN / 4; i++)
        if (hist[i])
            fprintf(f, "%08x %u\n", kbase + 4 * i, hist[i]);
    fprintf(f, "user %llu\ntotal %llu\n", user, total);
    if (f != stdout)
        fclose(f);
    if (uhist) {
        FILE *u = fopen(uout, "w");
        if (!u) {
            perror(uout);
            return 2;
        }
        unsigned long long in = 0;
        for (uint32_t i = 0; i < KSPAN / 4; i++)
            if (uhist[i]) {
                fprintf(u, "%08x %u\n", ubase + 4 * i, uhist[i]);
                in += uhist[i];
            }
        fprintf(u, "user %llu\ntotal %llu\n", user - in, total);
        fclose(u);
        free(uhist);
    }
    temu_destroy(e);
    free(hist);
    return stop == TEMU_STOP_HANG ? 1 : 0;
}
