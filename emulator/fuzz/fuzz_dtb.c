/*
 * libFuzzer target: device-tree (platform) loader.  The input is the
 * platform DTB given to temu_create(); if it is accepted, the machine is
 * booted (bootargs patched into /chosen when the input length is odd, the
 * DTB copied into RAM) and runs a few instructions from its reset address.
 * Invariants: a rejected DTB yields a NUL-terminated message; an accepted
 * one yields a boot DTB that lies inside the reported buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    temu_config cfg;
    char err[256];
    memset(&cfg, 0, sizeof cfg);
    if (size == 0)
        return 0; /* size 0 with a non-NULL pointer: still "no DTB"? skip */
    /* copy so that reads past the end are caught by ASan */
    uint8_t *copy = malloc(size);
    memcpy(copy, data, size);
    cfg.dtb = copy;
    cfg.dtb_size = size;
    cfg.dtb_name = "fuzz.dtb";
    if (size & 1)
        cfg.bootargs = "console=ttyVTTY0 earlycon fuzz=1";
    memset(err, 0x55, sizeof err);
    temu *e = temu_create(&cfg, err, sizeof err);
    if (!e) {
        if (!memchr(err, 0, sizeof err))
            abort();
        free(copy);
        return 0;
    }
    if (temu_boot(e, err, sizeof err) == 0) {
        size_t len = 0;
        uint64_t pa = 0;
        const void *dtb = temu_dtb(e, &len, &pa);
        if (dtb && len) {
            volatile uint8_t sum = 0;
            for (size_t i = 0; i < len; i++)
                sum += ((const uint8_t *)dtb)[i];
            (void)sum;
        }
        (void)temu_clock_hz(e);
        temu_run(e, 500);
    } else if (!memchr(err, 0, sizeof err)) {
        abort();
    }
    temu_destroy(e);
    free(copy);
    return 0;
}
