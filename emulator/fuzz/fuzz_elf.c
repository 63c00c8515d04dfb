/*
 * libFuzzer target: ELF loader.  The input is handed to temu_load_elf() on
 * the default platform; a loadable image is then booted and run for a
 * bounded number of instructions.  Invariants: a failed load writes a
 * NUL-terminated message; $0 stays 0.
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
    temu *e = temu_create(&cfg, err, sizeof err);
    if (!e)
        abort(); /* the default platform must always come up */
    memset(err, 0x55, sizeof err);
    if (temu_load_elf(e, data, size, "fuzz.elf", err, sizeof err) == 0) {
        if (temu_boot(e, err, sizeof err) == 0) {
            temu_run(e, 2000);
            if (temu_get_reg(e, 0) != 0)
                abort();
        }
    } else if (!memchr(err, 0, sizeof err)) {
        abort();
    }
    temu_destroy(e);
    return 0;
}
