/*
 * bus.c - physical address space: RAM banks and device windows.
 *
 * RAM is host memory from anonymous MAP_NORESERVE mappings (pages
 * materialise on first touch, so a 16-cluster mesh with 256 MiB each costs
 * what it uses), one bank per memory node `reg` entry, anywhere in the
 * 40-bit space.  Devices are 32-bit register windows; narrower accesses are
 * performed on the containing word (reads extract the bytes, writes pass
 * byte enables), which is how the VCI interconnect presents them to SoCLib
 * targets.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

int bus_init_ram(machine *m, char *err, size_t errlen)
{
    for (int i = 0; i < m->plat.nram; i++) {
        ram_bank *b = &m->ram[i];
        b->base = m->plat.ram[i].base;
        b->size = m->plat.ram[i].size;
        b->npages = (uint32_t)(b->size >> PAGE_SHIFT);
        void *p = mmap(NULL, b->size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            errf(err, errlen, "cannot allocate %llu MiB of guest RAM",
                 (unsigned long long)(b->size >> 20));
            return -1;
        }
        b->mem = p;
        b->code = calloc(b->npages, sizeof *b->code);
        b->ptmap = calloc(b->npages, 1);
        b->llmap = calloc(b->npages, sizeof *b->llmap);
        b->wslot = calloc((size_t)m->ncpus, sizeof *b->wslot);
        m->nram = i + 1;
        if (!b->code || !b->ptmap || !b->llmap || !b->wslot) {
            errf(err, errlen, "out of memory");
            return -1;
        }
    }
    m->last_bank = m->nram ? &m->ram[0] : NULL;
    return 0;
}

void bus_free(machine *m)
{
    for (int i = 0; i < m->nram; i++) {
        ram_bank *b = &m->ram[i];
        if (b->mem)
            munmap(b->mem, b->size);
        free(b->code);
        free(b->ptmap);
        free(b->llmap);
        for (int k = 0; b->wslot && k < m->ncpus; k++)
            free(b->wslot[k]);
        free(b->wslot);
    }
    m->nram = 0;
}

ram_bank *bus_ram_bank(machine *m, uint64_t pa)
{
    ram_bank *b = m->last_bank;
    if (b && pa - b->base < b->size)
        return b;
    for (int i = 0; i < m->nram; i++) {
        b = &m->ram[i];
        if (pa - b->base < b->size) {
            m->last_bank = b;
            return b;
        }
    }
    return NULL;
}

/* Host pointer for [pa, pa+len) if it lies entirely in one RAM bank. */
uint8_t *bus_ram_ptr(machine *m, uint64_t pa, size_t len)
{
    ram_bank *b = bus_ram_bank(m, pa);
    if (!b || len > b->size - (pa - b->base))
        return NULL;
    return b->mem + (pa - b->base);
}

int bus_add_mmio(machine *m, const mmio_region *r)
{
    if (m->nmmio >= MAX_MMIO)
        return -1;
    m->mmio[m->nmmio++] = *r;
    return 0;
}

static mmio_region *find_mmio(machine *m, uint64_t pa)
{
    for (int i = 0; i < m->nmmio; i++)
        if (pa - m->mmio[i].base < m->mmio[i].size)
            return &m->mmio[i];
    return NULL;
}

int bus_mmio_read(machine *m, uint64_t pa, uint32_t *val)
{
    pa &= ~3ull;
    mmio_region *r = find_mmio(m, pa);
    int rc = -1;
    *val = 0;
    if (r)
        rc = r->read(r->dev, (uint32_t)(pa - r->base), val);
    if (TRACE_ON(m, TEMU_TRACE_DEV))
        trace_printf(m, "dev: read  %-9s pa=0x%010llx off=0x%03x -> %s0x%08x\n",
                     r ? r->name : "-", (unsigned long long)pa,
                     r ? (unsigned)(pa - r->base) : 0u, rc ? "BUS ERROR " : "", *val);
    return rc;
}

int bus_mmio_write(machine *m, uint64_t pa, uint32_t be, uint32_t val)
{
    pa &= ~3ull;
    mmio_region *r = find_mmio(m, pa);
    int rc = -1;
    if (r)
        rc = r->write(r->dev, (uint32_t)(pa - r->base), val, be);
    if (TRACE_ON(m, TEMU_TRACE_DEV))
        trace_printf(m, "dev: write %-9s pa=0x%010llx off=0x%03x <- 0x%08x be=%x%s\n",
                     r ? r->name : "-", (unsigned long long)pa,
                     r ? (unsigned)(pa - r->base) : 0u, val, be, rc ? " BUS ERROR" : "");
    return rc;
}

/* Device DMA: RAM only, whole range must be RAM (checked page by page). */
int bus_dma_read(machine *m, uint64_t pa, void *buf, size_t len)
{
    uint8_t *out = buf;
    while (len) {
        ram_bank *b = bus_ram_bank(m, pa);
        if (!b)
            return -1;
        size_t n = b->size - (pa - b->base);
        if (n > len)
            n = len;
        memcpy(out, b->mem + (pa - b->base), n);
        out += n;
        pa += n;
        len -= n;
    }
    return 0;
}

int bus_dma_write(machine *m, uint64_t pa, const void *buf, size_t len)
{
    const uint8_t *in = buf;
    /* check first: a failing transfer writes nothing */
    for (uint64_t a = pa, l = len; l;) {
        ram_bank *b = bus_ram_bank(m, a);
        if (!b)
            return -1;
        uint64_t n = b->size - (a - b->base);
        if (n > l)
            n = l;
        a += n;
        l -= n;
    }
    uint64_t start = pa;
    size_t total = len;
    while (len) {
        ram_bank *b = bus_ram_bank(m, pa);
        size_t n = b->size - (pa - b->base);
        if (n > len)
            n = len;
        memcpy(b->mem + (pa - b->base), in, n);
        in += n;
        pa += n;
        len -= n;
    }
    bus_ram_written(m, start, total);
    return 0;
}
