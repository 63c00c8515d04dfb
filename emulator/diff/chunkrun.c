/*
 * chunkrun - run a bare-metal ELF on libtsaremu in small, random slices.
 *
 * Used by the differential tests to check that splitting execution changes
 * nothing: the guest output must be identical to a straight run (and to
 * QEMU).  Two stress modes:
 *   -c MAX   temu_run() with a random budget of 1..MAX instructions each time,
 *            so runs stop at arbitrary points: in delay slots, between LL and
 *            SC, right after a taken branch, on page crossings...
 *   -b N -r LO:HI
 *            N breakpoints at random word addresses in [LO, HI); each hit
 *            stops the run before the instruction, which is then resumed
 *            (with breakpoints present the emulator single-steps).  A hit
 *            breakpoint is removed with probability 1/2.
 * TTY output goes to stdout; the exit status is the guest's simhelper value.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static void tty_out(void *opaque, unsigned ch, const uint8_t *buf, size_t len)
{
    (void)opaque;
    if (ch == 0)
        fwrite(buf, 1, len, stdout);
}

int main(int argc, char **argv)
{
    unsigned maxchunk = 0, nbkpt = 0;
    uint32_t lo = 0, hi = 0;
    uint64_t limit = 200000000;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-c") && i + 1 < argc)
            maxchunk = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-b") && i + 1 < argc)
            nbkpt = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            rng_state ^= strtoull(argv[++i], NULL, 0) * 0x2545F4914F6CDD1Dull;
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) {
            char *end;
            lo = (uint32_t)strtoul(argv[++i], &end, 0);
            hi = (uint32_t)strtoul(end + 1, NULL, 0);
        } else if (!strcmp(argv[i], "-l") && i + 1 < argc)
            limit = strtoull(argv[++i], NULL, 0);
        else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: chunkrun [-c MAX] [-b N -r LO:HI] [-s SEED] [-l LIMIT] ELF\n");
        return 2;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "chunkrun: %s: %s\n", path, strerror(errno));
        return 2;
    }
    static uint8_t buf[64 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);

    temu_config cfg;
    char err[256];
    memset(&cfg, 0, sizeof cfg);
    cfg.host.tty_out = tty_out;
    temu *e = temu_create(&cfg, err, sizeof err);
    if (!e || temu_load_elf(e, buf, len, path, err, sizeof err) || temu_boot(e, err, sizeof err)) {
        fprintf(stderr, "chunkrun: %s\n", err);
        return 2;
    }
    unsigned hits = 0, slices = 0;
    for (unsigned i = 0; i < nbkpt && hi > lo; i++)
        temu_add_breakpoint(e, (lo + rnd() % (hi - lo)) & ~3u);
    for (;;) {
        uint64_t n = maxchunk ? 1 + rnd() % maxchunk : limit;
        temu_stop st = temu_run(e, n);
        slices++;
        if (st == TEMU_STOP_EXIT)
            break;
        if (st == TEMU_STOP_BREAK) {
            hits++;
            if (rnd() & 1)
                temu_remove_breakpoint(e, temu_get_reg(e, TEMU_REG_PC));
            continue;
        }
        if (st != TEMU_STOP_LIMIT) {
            fprintf(stderr, "chunkrun: unexpected stop %d at pc 0x%08x\n", (int)st,
                    temu_get_reg(e, TEMU_REG_PC));
            return 3;
        }
        if (temu_insns(e) >= limit) {
            fprintf(stderr, "chunkrun: instruction limit reached at pc 0x%08x\n",
                    temu_get_reg(e, TEMU_REG_PC));
            return 4;
        }
    }
    fflush(stdout);
    fprintf(stderr, "chunkrun: %llu instructions, %u slices, %u breakpoint hits\n",
            (unsigned long long)temu_insns(e), slices, hits);
    int rc = temu_exit_kind(e) == TEMU_EXIT_RETVAL ? (int)(temu_exit_value(e) & 0xFF) : 0;
    temu_destroy(e);
    return rc;
}
