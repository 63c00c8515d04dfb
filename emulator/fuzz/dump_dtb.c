/* Write the boot DTB of the emulator's default platform to argv[1]
 * (a fuzz seed for fuzz_dtb).  Uses only the public API. */
#include <stdio.h>
#include <string.h>

#include "emu.h"

int main(int argc, char **argv)
{
    temu_config cfg;
    char err[256];
    memset(&cfg, 0, sizeof cfg);
    if (argc != 2)
        return 2;
    temu *e = temu_create(&cfg, err, sizeof err);
    if (!e || temu_boot(e, err, sizeof err)) {
        fprintf(stderr, "dump_dtb: %s\n", err);
        return 1;
    }
    size_t len;
    uint64_t pa;
    const void *dtb = temu_dtb(e, &len, &pa);
    FILE *f = fopen(argv[1], "wb");
    if (!f || !dtb || fwrite(dtb, 1, len, f) != len)
        return 1;
    fclose(f);
    temu_destroy(e);
    return 0;
}
