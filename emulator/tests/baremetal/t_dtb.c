/*
 * t_dtb: the boot protocol's device tree (a1 = its physical address, 4 KiB
 * aligned at the top of RAM): walk the flattened tree and print
 * /chosen/bootargs and /model, so the host can check -append.
 */
#include "test.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int streq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

int main(void)
{
    const uint8_t *fdt = (const uint8_t *)(uintptr_t)boot_regs[5];
    CHECK_EQ(1, boot_regs[4], 0);
    CHECK_EQ(2, boot_regs[6], 0);
    CHECK_EQ(3, boot_regs[7], 0);
    CHECK_EQ(4, be32(fdt), 0xd00dfeed);
    uint32_t total = be32(fdt + 4);
    CHECK(5, (uint32_t)(uintptr_t)fdt + total <= HW_RAM0_BASE + HW_RAM0_SIZE);
    CHECK(6, (uint32_t)(uintptr_t)fdt + total > HW_RAM0_BASE + HW_RAM0_SIZE - MMU_PAGE_SIZE);
    const uint8_t *st = fdt + be32(fdt + 8);
    const char *strs = (const char *)fdt + be32(fdt + 12);
    int depth = 0, in_chosen = 0, found = 0;
    for (const uint8_t *p = st;;) {
        uint32_t tok = be32(p);
        p += 4;
        if (tok == 1) { /* BEGIN_NODE */
            const char *name = (const char *)p;
            depth++;
            if (depth == 2)
                in_chosen = streq(name, "chosen");
            while (*p)
                p++;
            p = (const uint8_t *)(((uintptr_t)p + 4) & ~3u);
        } else if (tok == 2) { /* END_NODE */
            depth--;
        } else if (tok == 3) { /* PROP */
            uint32_t len = be32(p), nameoff = be32(p + 4);
            const char *val = (const char *)p + 8;
            const char *pname = strs + nameoff;
            if ((depth == 2 && in_chosen && streq(pname, "bootargs")) ||
                (depth == 1 && streq(pname, "model"))) {
                puts_(pname);
                puts_("=[");
                puts_(val);
                puts_("]\n");
                found++;
            }
            p += 8 + ((len + 3) & ~3u);
        } else if (tok == 4) { /* NOP */
        } else {
            break; /* END */
        }
    }
    CHECK_EQ(7, found, 2);
    return 0;
}
