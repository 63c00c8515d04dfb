// SPDX-License-Identifier: GPL-2.0
/*
 * dev_iopic.c - SoCLib vci_iopic (tsar-multicluster.md 3.3): turns the I/O
 * devices' interrupt lines into WTI writes, so that a multi-cluster kernel
 * can send any device interrupt to any CPU of any cluster.
 *
 * One 16-byte block per input channel (channel = offset / 16; 32 of them,
 * or the node's soclib,channel-count):
 * ADDRESS (word 0, RW: PA bits 31..0 of the target), EXTEND (word 1, RW:
 * PA bits 39..32), STATUS (word 2, R: bit 0 the input's level, bit 1 the
 * error state; reading clears the error), MASK (word 3, RW: nonzero
 * enables the channel; 0 at reset).  Anything else is a bus error.
 *
 * SoCLib's behaviour, which the Linux and GIET drivers expect: on a rising
 * edge of input k (channel enabled, not in error) the IOPIC writes the word
 * k to (EXTEND << 32) | ADDRESS, which sets the pending bit of that XICU
 * WTI; on a falling edge it reads the same address, which clears it.  A
 * failed write or read puts the channel in the error state (no more writes
 * or reads) until STATUS is read.
 *
 * The inputs are the lines of the devices whose interrupt-parent is the
 * IOPIC (`interrupts` = input number).  The machine calls iopic_route() at
 * each pass of its loop, before it reads the XICUs' outputs.
 */
#include <libfdt.h>
#include <stdlib.h>

#include "internal.h"

/* The register map (SoCLib iopic.h), here until the tsar layer's
 * _registers.yaml describes the IOPIC. */
#define IOPIC_CHANNELS 32
#define IOPIC_SPAN (IOPIC_CHANNELS * 16u)
enum { IOPIC_ADDRESS = 0, IOPIC_EXTEND = 1, IOPIC_STATUS = 2, IOPIC_MASK = 3 };
#define IOPIC_STATUS_LEVEL 1u
#define IOPIC_STATUS_ERROR 2u

typedef struct iopic {
    struct machine *m;
    unsigned n;       /* channels: soclib,channel-count, else 32 */
    uint32_t level;   /* the inputs as last seen (edges are against this) */
    uint32_t error;   /* channels in the error state */
    uint32_t address[IOPIC_CHANNELS], extend[IOPIC_CHANNELS], mask[IOPIC_CHANNELS];
} iopic_t;

static uint64_t target(const iopic_t *p, unsigned k)
{
    return (uint64_t)(p->extend[k] & 0xFF) << 32 | p->address[k];
}

static void iopic_route(void *dev)
{
    iopic_t *p = dev;
    uint32_t in = machine_hwi_lines(p->m, p);
    uint32_t changed = in ^ p->level;
    p->level = in;
    for (; changed; changed &= changed - 1) {
        unsigned k = (unsigned)__builtin_ctz(changed);
        if (k >= p->n || !p->mask[k] || (p->error & (1u << k)))
            continue;
        uint32_t v;
        int rc = (in & (1u << k)) ? machine_route_write(p->m, target(p, k), k)
                                  : machine_route_read(p->m, target(p, k), &v);
        if (rc)
            p->error |= 1u << k;
        if (TRACE_ON(p->m, TEMU_TRACE_DEV))
            trace_printf(p->m, "dev: iopic input %u %s: %s pa=0x%010llx%s\n", k,
                         (in & (1u << k)) ? "rises" : "falls",
                         (in & (1u << k)) ? "write" : "read",
                         (unsigned long long)target(p, k), rc ? " BUS ERROR" : "");
    }
}

static int iopic_read(void *dev, uint32_t off, uint32_t *val)
{
    iopic_t *p = dev;
    unsigned k = off / 16;
    if (off >= IOPIC_SPAN || k >= p->n)
        return -1;
    switch ((off >> 2) & 3) {
    case IOPIC_ADDRESS: *val = p->address[k]; return 0;
    case IOPIC_EXTEND: *val = p->extend[k]; return 0;
    case IOPIC_STATUS: {
        uint32_t lvl = machine_hwi_lines(p->m, p);
        *val = ((lvl >> k) & 1u ? IOPIC_STATUS_LEVEL : 0) |
               (p->error & (1u << k) ? IOPIC_STATUS_ERROR : 0);
        p->error &= ~(1u << k);
        return 0;
    }
    default: *val = p->mask[k]; return 0;
    }
}

static int iopic_write(void *dev, uint32_t off, uint32_t val, uint32_t be)
{
    iopic_t *p = dev;
    unsigned k = off / 16;
    (void)be;
    if (off >= IOPIC_SPAN || k >= p->n)
        return -1;
    switch ((off >> 2) & 3) {
    case IOPIC_ADDRESS: p->address[k] = val; return 0;
    case IOPIC_EXTEND: p->extend[k] = val & 0xFF; return 0;
    case IOPIC_MASK: p->mask[k] = val; return 0;
    default: return -1; /* STATUS is read-only */
    }
}

#define IOPIC_DT_CHANNELS "soclib,channel-count"

static int iopic_check(const void *fdt, int node, const char *dtname, char *err, size_t errlen)
{
    int plen;
    const fdt32_t *v = fdt_getprop(fdt, node, IOPIC_DT_CHANNELS, &plen);
    if (v && (plen != 4 || !fdt32_to_cpu(v[0]) || fdt32_to_cpu(v[0]) > IOPIC_CHANNELS)) {
        errf(err, errlen, "%s: node %s: bad '%s' (must be one cell, 1..%d)", dtname,
             fdt_get_name(fdt, node, NULL), IOPIC_DT_CHANNELS, IOPIC_CHANNELS);
        return -1;
    }
    return 0;
}

static void *iopic_create(machine *m, const dev_desc *d, const void *fdt, char *err,
                          size_t errlen)
{
    iopic_t *p = calloc(1, sizeof *p);
    if (!p) {
        errf(err, errlen, "out of memory");
        return NULL;
    }
    p->m = m;
    const fdt32_t *v = fdt_getprop(fdt, d->node, IOPIC_DT_CHANNELS, NULL);
    p->n = v ? fdt32_to_cpu(v[0]) : IOPIC_CHANNELS; /* checked by iopic_check */
    return p;
}

static const char *const iopic_compatible[] = {"soclib,vci_iopic", NULL};

const temu_device_type iopic_device = {
    .name = "iopic",
    .compatible = iopic_compatible,
    .check = iopic_check,
    .create = iopic_create,
    .read = iopic_read,
    .write = iopic_write,
    .route_irqs = iopic_route,
};
