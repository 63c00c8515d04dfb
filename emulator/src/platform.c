/*
 * platform.c - the board description: parse a DTB into a `platform`
 * (RAM banks, devices matched against devices.c's types, IRQ wiring,
 * clock), hand out the built-in default platform's DTB (generated from
 * the spec: emulator/platform.yaml), and make the DTB
 * handed to the guest (-append, the devices' fixup_dtb).
 *
 * The DTB is untrusted input: it is checked with fdt_check_full() and every
 * property length is validated before use.
 */
#include <libfdt.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* without a clock in the device tree: the spec's (hwdesc.h) */
#define DEFAULT_CLOCK ((uint32_t)HW_CLOCK_HZ)

static uint64_t read_cells(const fdt32_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = (v << 32) | fdt32_to_cpu(p[i]);
    return v;
}

static bool node_enabled(const void *fdt, int off)
{
    int len;
    const char *st = fdt_getprop(fdt, off, "status", &len);
    if (!st || len <= 0)
        return true;
    return strncmp(st, "okay", (size_t)len) == 0 || strncmp(st, "ok", (size_t)len) == 0;
}

static int cells_of(const void *fdt, int bus, int *ac, int *sc, char *err, size_t errlen,
                    const char *name)
{
    *ac = fdt_address_cells(fdt, bus);
    *sc = fdt_size_cells(fdt, bus);
    if (*ac < 1 || *ac > 2 || *sc < 0 || *sc > 2) {
        errf(err, errlen, "%s: unsupported #address-cells/#size-cells (%d/%d) in node %s", name,
             *ac, *sc, bus >= 0 ? fdt_get_name(fdt, bus, NULL) : "?");
        return -1;
    }
    return 0;
}

/* Translate a bus address of a child of `bus` up to the root address space. */
static int translate(const void *fdt, int bus, uint64_t *addr, char *err, size_t errlen,
                     const char *name)
{
    int depth = 0;
    while (bus > 0) {
        if (++depth > 32) {
            errf(err, errlen, "%s: device tree nested too deeply", name);
            return -1;
        }
        int parent = fdt_parent_offset(fdt, bus);
        if (parent < 0) {
            errf(err, errlen, "%s: malformed device tree (parent lookup)", name);
            return -1;
        }
        int len;
        const fdt32_t *r = fdt_getprop(fdt, bus, "ranges", &len);
        if (r && len > 0) {
            int cac, csc, pac, psc;
            if (cells_of(fdt, bus, &cac, &csc, err, errlen, name) ||
                cells_of(fdt, parent, &pac, &psc, err, errlen, name))
                return -1;
            int ent = cac + pac + csc;
            int n = len / (int)sizeof(fdt32_t) / ent;
            bool found = false;
            for (int i = 0; i < n; i++) {
                const fdt32_t *e = r + i * ent;
                uint64_t ca = read_cells(e, cac), pa = read_cells(e + cac, pac);
                uint64_t sz = read_cells(e + cac + pac, csc);
                if (*addr - ca < sz) {
                    *addr = pa + (*addr - ca);
                    found = true;
                    break;
                }
            }
            if (!found) {
                errf(err, errlen, "%s: address 0x%llx of a child of %s is outside its 'ranges'",
                     name, (unsigned long long)*addr, fdt_get_name(fdt, bus, NULL));
                return -1;
            }
        }
        /* no or empty 'ranges': identity (lenient) */
        bus = parent;
    }
    return 0;
}

/* Read reg entry `idx` of node `off`, translated to root addresses. */
static int get_reg(const void *fdt, int off, int idx, uint64_t *base, uint64_t *size,
                   char *err, size_t errlen, const char *name)
{
    int parent = fdt_parent_offset(fdt, off);
    int ac, sc, len;
    if (parent < 0) {
        errf(err, errlen, "%s: malformed device tree", name);
        return -1;
    }
    if (cells_of(fdt, parent, &ac, &sc, err, errlen, name))
        return -1;
    const fdt32_t *reg = fdt_getprop(fdt, off, "reg", &len);
    int ent = ac + sc;
    if (!reg || len < 0 || len % (ent * 4)) {
        if (idx == 0)
            errf(err, errlen, "%s: node %s has a missing or malformed 'reg'", name,
                 fdt_get_name(fdt, off, NULL));
        else if (err && errlen)
            err[0] = 0;
        return -1;
    }
    if (idx >= len / (ent * 4)) {
        if (err && errlen)
            err[0] = 0;
        return 1; /* no more entries */
    }
    *base = read_cells(reg + idx * ent, ac);
    *size = read_cells(reg + idx * ent + ac, sc);
    return translate(fdt, parent, base, err, errlen, name);
}

static uint32_t clock_of_node(const void *fdt, int off, int depth)
{
    int len;
    const fdt32_t *f = fdt_getprop(fdt, off, "clock-frequency", &len);
    if (f && len == 4)
        return fdt32_to_cpu(f[0]);
    if (f && len == 8)
        return (uint32_t)read_cells(f, 2);
    const fdt32_t *clk = fdt_getprop(fdt, off, "clocks", &len);
    if (clk && len >= 4 && depth < 8) {
        int c = fdt_node_offset_by_phandle(fdt, fdt32_to_cpu(clk[0]));
        if (c >= 0)
            return clock_of_node(fdt, c, depth + 1);
    }
    return 0;
}

/* The device type (devices.c) a node is compatible with, or NULL. */
static const temu_device_type *dev_type(const void *fdt, int off)
{
    for (const temu_device_type *const *t = device_types; *t; t++)
        for (const char *const *c = (*t)->compatible; *c; c++)
            if (!fdt_node_check_compatible(fdt, off, *c))
                return *t;
    return NULL;
}

/*
 * Walk the structure block's tags with overflow-safe arithmetic. libfdt
 * 1.6.1's fdt_next_tag() adds a property's length to an int, so a length
 * near 2^32 steps backwards and fdt_check_full() never returns (found by
 * emulator/fuzz); such blobs are rejected here first. Returns 0 if every
 * tag lies inside the block and the block ends with FDT_END.
 */
static int struct_block_walks(const void *fdt)
{
    const uint8_t *base = (const uint8_t *)fdt + fdt_off_dt_struct(fdt);
    uint32_t size = fdt_size_dt_struct(fdt);
    uint32_t off = 0, word;

    if (fdt_off_dt_struct(fdt) > fdt_totalsize(fdt) ||
        size > fdt_totalsize(fdt) - fdt_off_dt_struct(fdt))
        return -1;
    while (size - off >= 4) {
        memcpy(&word, base + off, 4);
        off += 4;
        switch (fdt32_to_cpu(word)) {
        case FDT_BEGIN_NODE: {
            const uint8_t *nul = memchr(base + off, 0, size - off);
            if (!nul)
                return -1;
            off = (uint32_t)(nul - base) + 1;
            break;
        }
        case FDT_PROP:
            if (size - off < 8)
                return -1;
            memcpy(&word, base + off, 4);
            off += 8;
            if (fdt32_to_cpu(word) > size - off)
                return -1;
            off += fdt32_to_cpu(word);
            break;
        case FDT_END_NODE:
        case FDT_NOP:
            break;
        case FDT_END:
            return 0;
        default:
            return -1;
        }
        /* Tags are 4-byte aligned. */
        off = (off + 3) & ~3u;
        if (off > size)
            return -1;
    }
    return -1;
}

/* A device's interrupt parent: the nearest `interrupt-parent` of the node
 * or its ancestors, when it names one of the platform's interrupt
 * controllers or routers; else -1 (the first controller, leniently). */
static int resolve_irq_parents(const void *fdt, platform *p)
{
    for (int i = 0; i < p->ndev; i++) {
        int off = p->dev[i].node, depth = 0, len;
        const fdt32_t *ph = NULL;
        while (off >= 0 && depth++ < 32) {
            ph = fdt_getprop(fdt, off, "interrupt-parent", &len);
            if (ph)
                break;
            off = fdt_parent_offset(fdt, off);
        }
        if (!ph || len != 4)
            continue;
        int node = fdt_node_offset_by_phandle(fdt, fdt32_to_cpu(ph[0]));
        for (int j = 0; node >= 0 && j < p->ndev; j++)
            if (p->dev[j].node == node &&
                (p->dev[j].type->cpu_lines || p->dev[j].type->route_irqs))
                p->dev[i].irq_parent = j;
    }
    return 0;
}

/* Clusters (docs/multicluster.md): a CPU's cluster is id >> 4, an
 * interrupt controller's is its address >> 32.  Each controller serves
 * the CPUs of its cluster (at most 8: 4 outputs each, 32 in all), and,
 * when there are controllers, every CPU needs its own cluster's. */
static int check_clusters(const void *fdt, platform *p, const char *name, char *err,
                          size_t errlen)
{
    static const char *const what = "(cluster_xy << 4 | local id)";
    uint8_t ncl[MAX_CLUSTERS] = {0};
    int intc[MAX_CLUSTERS], nintc = 0;
    for (int i = 0; i < MAX_CLUSTERS; i++)
        intc[i] = -1;
    for (int i = 0; i < p->ncpus; i++) {
        unsigned cl = p->cpu_id[i] >> CPU_LOCAL_BITS;
        if (++ncl[cl] > MAX_CPUS_PER_CLUSTER) {
            errf(err, errlen, "%s: more than %d CPUs in cluster (%u,%u) (ids %s; its XICU "
                 "has 4 outputs per CPU and at most 32)", name, MAX_CPUS_PER_CLUSTER,
                 cl >> 4, cl & 15, what);
            return -1;
        }
    }
    for (int i = 0; i < p->ndev; i++) {
        if (!p->dev[i].type->cpu_lines)
            continue;
        unsigned cl = PA_CLUSTER(p->dev[i].base);
        const char *dn = fdt_get_name(fdt, p->dev[i].node, NULL);
        if (intc[cl] >= 0) {
            errf(err, errlen, "%s: two interrupt controllers in cluster (%u,%u): %s and %s",
                 name, cl >> 4, cl & 15, fdt_get_name(fdt, p->dev[intc[cl]].node, NULL), dn);
            return -1;
        }
        if (!ncl[cl]) {
            errf(err, errlen, "%s: %s at 0x%llx: no CPU in its cluster (%u,%u) (CPU ids %s)",
                 name, dn, (unsigned long long)p->dev[i].base, cl >> 4, cl & 15, what);
            return -1;
        }
        intc[cl] = i;
        nintc++;
    }
    for (int i = 0; nintc && i < p->ncpus; i++) {
        unsigned cl = p->cpu_id[i] >> CPU_LOCAL_BITS;
        if (intc[cl] < 0) {
            errf(err, errlen, "%s: CPU id 0x%x: its cluster (%u,%u) has no XICU (CPU ids %s, "
                 "an XICU's cluster is its address >> 32)", name, p->cpu_id[i], cl >> 4,
                 cl & 15, what);
            return -1;
        }
    }
    return 0;
}

int platform_parse(const void *fdt, size_t len, const char *name, platform *p, char *err,
                   size_t errlen)
{
    if (!name)
        name = "device tree";
    memset(p, 0, sizeof *p);
    if (len < sizeof(struct fdt_header)) {
        errf(err, errlen, "%s: too short to be a device tree blob (%zu bytes)", name, len);
        return -1;
    }
    int rc = fdt_check_header(fdt);
    if (rc) {
        errf(err, errlen, "%s: not a valid device tree blob (%s)", name, fdt_strerror(rc));
        return -1;
    }
    /* libfdt 1.6.1's fdt_check_full() dereferences NULL on pre-v16 blobs
     * (emulator/diff/FINDINGS.md F1); dtc writes v17. */
    if (fdt_version(fdt) < 16) {
        errf(err, errlen, "%s: unsupported device tree version %u (16 or later required)",
             name, fdt_version(fdt));
        return -1;
    }
    if (fdt_totalsize(fdt) > len) {
        errf(err, errlen, "%s: truncated device tree blob (header says %u bytes, file has %zu)",
             name, fdt_totalsize(fdt), len);
        return -1;
    }
    if (struct_block_walks(fdt)) {
        errf(err, errlen, "%s: malformed device tree blob (bad structure block)", name);
        return -1;
    }
    rc = fdt_check_full(fdt, len);
    if (rc) {
        errf(err, errlen, "%s: malformed device tree blob (%s)", name, fdt_strerror(rc));
        return -1;
    }

    int depth = 0, cpu_node = -1;
    for (int off = fdt_next_node(fdt, -1, &depth); off >= 0;
         off = fdt_next_node(fdt, off, &depth)) {
        if (!node_enabled(fdt, off))
            continue;
        int plen;
        const char *dt = fdt_getprop(fdt, off, "device_type", &plen);
        bool is_mem = dt && plen > 0 && strncmp(dt, "memory", (size_t)plen) == 0;
        bool is_cpu = dt && plen > 0 && strncmp(dt, "cpu", (size_t)plen) == 0;
        if (is_cpu) {
            if (cpu_node < 0)
                cpu_node = off;
            if (p->ncpus >= MAX_CPUS) {
                errf(err, errlen, "%s: more than %d CPUs described (16 x 16 clusters of 4)",
                     name, MAX_CPUS);
                return -1;
            }
            /* reg = the hardware CPU id (EBase.CPUNum); the last cell of it */
            const fdt32_t *r = fdt_getprop(fdt, off, "reg", &plen);
            uint32_t id = (uint32_t)p->ncpus;
            if (r) {
                if (plen < 4 || plen % 4) {
                    errf(err, errlen, "%s: cpu node %s has a malformed 'reg'", name,
                         fdt_get_name(fdt, off, NULL));
                    return -1;
                }
                id = fdt32_to_cpu(r[plen / 4 - 1]);
            }
            if (id > 0xFFF) {
                errf(err, errlen, "%s: cpu node %s: id 0x%x does not fit EBase.CPUNum "
                     "(cluster_xy << 4 | local id, 12 bits)", name,
                     fdt_get_name(fdt, off, NULL), id);
                return -1;
            }
            for (int i = 0; i < p->ncpus; i++)
                if (p->cpu_id[i] == id) {
                    errf(err, errlen, "%s: two cpu nodes have the id %u", name, id);
                    return -1;
                }
            p->cpu_id[p->ncpus++] = id;
            continue;
        }
        if (is_mem) {
            for (int i = 0;; i++) {
                uint64_t base, size;
                rc = get_reg(fdt, off, i, &base, &size, err, errlen, name);
                if (rc > 0)
                    break;
                if (rc < 0)
                    return -1;
                if (!size)
                    continue;
                if ((base | size) & (PAGE_SIZE - 1)) {
                    errf(err, errlen, "%s: memory bank 0x%llx+0x%llx is not 4 KiB aligned",
                         name, (unsigned long long)base, (unsigned long long)size);
                    return -1;
                }
                if (size > (4ull << 30) || base + size > (1ull << 40)) {
                    errf(err, errlen,
                         "%s: memory bank 0x%llx+0x%llx too large or beyond 40-bit space",
                         name, (unsigned long long)base, (unsigned long long)size);
                    return -1;
                }
                if (p->nram >= MAX_RAM) {
                    errf(err, errlen, "%s: too many memory banks (max %d)", name, MAX_RAM);
                    return -1;
                }
                p->ram[p->nram].base = base;
                p->ram[p->nram].size = size;
                p->nram++;
            }
            continue;
        }
        const temu_device_type *type = dev_type(fdt, off);
        if (!type)
            continue;
        if (p->ndev >= MAX_DEVS) {
            errf(err, errlen, "%s: too many devices (max %d)", name, MAX_DEVS);
            return -1;
        }
        dev_desc *d = &p->dev[p->ndev];
        memset(d, 0, sizeof *d);
        d->type = type;
        d->node = off;
        d->irq_parent = -1;
        if (type->check && type->check(fdt, off, name, err, errlen))
            return -1;
        if (get_reg(fdt, off, 0, &d->base, &d->size, err, errlen, name) != 0) {
            if (err && errlen && !err[0])
                errf(err, errlen, "%s: node %s has an empty 'reg'", name,
                     fdt_get_name(fdt, off, NULL));
            return -1;
        }
        if (!d->size || d->size > (1ull << 32)) {
            errf(err, errlen, "%s: node %s has a bad size 0x%llx", name,
                 fdt_get_name(fdt, off, NULL), (unsigned long long)d->size);
            return -1;
        }
        if (d->base + d->size > (1ull << 40) || d->base + d->size < d->base) {
            errf(err, errlen, "%s: node %s at 0x%llx is beyond the 40-bit physical space",
                 name, fdt_get_name(fdt, off, NULL), (unsigned long long)d->base);
            return -1;
        }
        const fdt32_t *irq = fdt_getprop(fdt, off, "interrupts", &plen);
        if (irq && plen >= 4) {
            /* #interrupt-cells of the XICU is 1: one HWI index per cell */
            int n = plen / 4;
            for (int i = 0; i < n && d->nirq < DEV_MAX_IRQ; i++) {
                uint32_t v = fdt32_to_cpu(irq[i]);
                d->irq[d->nirq++] = v < HWI_MAX ? (int)v : -1;
            }
        }
        p->ndev++;
    }

    if (p->nram == 0) {
        errf(err, errlen, "%s: no RAM (no enabled /memory node with a 'reg')", name);
        return -1;
    }
    if (resolve_irq_parents(fdt, p))
        return -1;
    if (p->ncpus == 0)
        p->ncpus = 1; /* no cpu node: one CPU, id 0 */
    if (check_clusters(fdt, p, name, err, errlen))
        return -1;
    /* overlaps between RAM banks and devices are configuration errors */
    for (int i = 0; i < p->nram; i++) {
        for (int j = i + 1; j < p->nram; j++)
            if (p->ram[i].base < p->ram[j].base + p->ram[j].size &&
                p->ram[j].base < p->ram[i].base + p->ram[i].size) {
                errf(err, errlen, "%s: memory banks overlap", name);
                return -1;
            }
        for (int j = 0; j < p->ndev; j++)
            if (p->ram[i].base < p->dev[j].base + p->dev[j].size &&
                p->dev[j].base < p->ram[i].base + p->ram[i].size) {
                errf(err, errlen, "%s: device at 0x%llx overlaps RAM", name,
                     (unsigned long long)p->dev[j].base);
                return -1;
            }
    }
    for (int i = 0; i < p->ndev; i++)
        for (int j = i + 1; j < p->ndev; j++)
            if (p->dev[i].base < p->dev[j].base + p->dev[j].size &&
                p->dev[j].base < p->dev[i].base + p->dev[i].size) {
                errf(err, errlen, "%s: devices at 0x%llx and 0x%llx overlap", name,
                     (unsigned long long)p->dev[i].base, (unsigned long long)p->dev[j].base);
                return -1;
            }

    /* clock: cpu node, its clocks, a soclib,mips32_clksrc node, the XICU */
    uint32_t hz = 0;
    if (cpu_node >= 0)
        hz = clock_of_node(fdt, cpu_node, 0);
    if (!hz) {
        int off = fdt_node_offset_by_compatible(fdt, -1, "soclib,mips32_clksrc");
        if (off >= 0)
            hz = clock_of_node(fdt, off, 0);
    }
    if (!hz) {
        int off = fdt_node_offset_by_compatible(fdt, -1, XICU_COMPATIBLE);
        if (off >= 0)
            hz = clock_of_node(fdt, off, 0);
    }
    p->clock_hz = hz ? hz : DEFAULT_CLOCK;
    return 0;
}

/* ------------------------------------------------------------ default DTB */

/* The built-in platform: the device tree of emulator/platform.yaml (the
 * board of arch-spec.yaml with one CPU), compiled by the build
 * (generate.py --hwdesc) into hwdesc_dtb.c. */
extern const unsigned char hwdesc_dtb[];
extern const size_t hwdesc_dtb_size;

int platform_default_dtb(void **out, size_t *outlen)
{
    void *fdt = malloc(hwdesc_dtb_size);
    if (!fdt)
        return -1;
    memcpy(fdt, hwdesc_dtb, hwdesc_dtb_size);
    *out = fdt;
    *outlen = hwdesc_dtb_size;
    return 0;
}

/* Copy of the platform DTB with /chosen/bootargs replaced (with -append)
 * and the devices' edits (fixup_dtb); packed. */
int platform_finalize_dtb(machine *m, void **out, size_t *outlen, char *err, size_t errlen)
{
    const void *in = m->dtb;
    const char *bootargs = m->cfg.bootargs;
    size_t sz = fdt_totalsize(in) + (bootargs ? strlen(bootargs) : 0) + 512;
    void *buf = malloc(sz);
    if (!buf) {
        errf(err, errlen, "out of memory");
        return -1;
    }
    int rc = fdt_open_into(in, buf, (int)sz);
    if (!rc && bootargs) {
        int ch = fdt_path_offset(buf, "/chosen");
        if (ch < 0)
            ch = fdt_add_subnode(buf, 0, "chosen");
        rc = ch < 0 ? ch : fdt_setprop_string(buf, ch, "bootargs", bootargs);
    }
    for (int i = 0; !rc && i < m->ndev; i++)
        if (m->dev[i].type->fixup_dtb)
            rc = m->dev[i].type->fixup_dtb(m->dev[i].dev, buf);
    if (!rc)
        rc = fdt_pack(buf);
    if (rc) {
        errf(err, errlen, "cannot update the device tree: %s", fdt_strerror(rc));
        free(buf);
        return -1;
    }
    *out = buf;
    *outlen = fdt_totalsize(buf);
    return 0;
}
