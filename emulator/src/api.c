/*
 * api.c - the public API's CPU selection, state access (registers, CP0/CP2,
 * physical and virtual memory), breakpoints, tracing and platform queries
 * (emu.h); the life cycle and the run loop are machine.c's.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

int temu_ncpus(const temu *e) { return e->m.ncpus; }

int temu_accel(const temu *e) { return e->m.jit ? TEMU_ACCEL_JIT : TEMU_ACCEL_INTERP; }

void temu_jit_stats(temu *e, temu_jit_figures *f)
{
    uint64_t st[5];
    jit_stats(&e->m, st);
    f->blocks = st[0];
    f->bytes = st[1];
    f->flushes = st[2];
    f->links = st[3];
    f->translate_ns = st[4];
}

uint32_t temu_cpu_id(const temu *e, int cpu)
{
    return cpu >= 0 && cpu < e->m.ncpus ? e->m.cpus[cpu].id : 0;
}

int temu_select_cpu(temu *e, int cpu)
{
    if (cpu < 0 || cpu >= e->m.ncpus)
        return -1;
    e->m.dbg = &e->m.cpus[cpu];
    return 0;
}

int temu_selected_cpu(const temu *e) { return (int)e->m.dbg->idx; }

uint64_t temu_cpu_insns(const temu *e, int cpu)
{
    return cpu >= 0 && cpu < e->m.ncpus ? cpu_insns(&e->m.cpus[cpu]) : 0;
}

int temu_cpu_waiting(const temu *e, int cpu)
{
    return cpu >= 0 && cpu < e->m.ncpus && e->m.cpus[cpu].waiting;
}

int temu_exit_kind(const temu *e) { return e->m.stop_kind; }
uint32_t temu_exit_value(const temu *e) { return e->m.stop_value; }

/* ------------------------------------------------------------ state access */

uint32_t temu_get_reg(const temu *e, int reg)
{
    const cpu_t *c = e->m.dbg;
    if (reg >= 0 && reg < 32)
        return c->r[reg];
    switch (reg) {
    case TEMU_REG_HI: return c->hi;
    case TEMU_REG_LO: return c->lo;
    case TEMU_REG_PC: return c->pc;
    default: return 0;
    }
}

void temu_set_reg(temu *e, int reg, uint32_t val)
{
    cpu_t *c = e->m.dbg;
    if (reg > 0 && reg < 32)
        c->r[reg] = val;
    else if (reg == TEMU_REG_HI)
        c->hi = val;
    else if (reg == TEMU_REG_LO)
        c->lo = val;
    else if (reg == TEMU_REG_PC) {
        c->pc = val;
        c->br_pending = false;
    }
}

uint32_t temu_cp0_read(temu *e, int reg, int sel) { return cp0_read(e->m.dbg, reg, sel); }

void temu_cp0_write(temu *e, int reg, int sel, uint32_t val)
{
    cp0_write(e->m.dbg, reg, sel, val);
}

uint32_t temu_cp2_read(temu *e, int reg)
{
    cpu_t *c = e->m.dbg;
    int mode = c->mode;
    uint32_t v = 0;
    c->mode = 0;
    if (mmu_cp2_read(c, reg, &v))
        v = 0;
    c->mode = mode;
    return v;
}

uint64_t temu_insns(const temu *e) { return machine_insns(&e->m); }
uint64_t temu_cycles(const temu *e)
{
    const machine *m = &e->m;
    uint64_t t = m->now;
    for (int i = 0; i < m->ncpus; i++)
        if (m->cpus[i].cycles > t)
            t = m->cpus[i].cycles;
    return t;
}

int temu_read_phys(temu *e, uint64_t pa, void *buf, size_t len)
{
    return bus_dma_read(&e->m, pa, buf, len);
}

int temu_write_phys(temu *e, uint64_t pa, const void *buf, size_t len)
{
    return bus_dma_write(&e->m, pa, buf, len);
}

int temu_virt_to_phys(temu *e, uint32_t va, uint64_t *pa)
{
    return mmu_translate(e->m.dbg, va, ACC_READ, 0, pa, false) ? -1 : 0;
}

int temu_read_virt(temu *e, uint32_t va, void *buf, size_t len)
{
    uint8_t *out = buf;
    while (len) {
        uint64_t pa;
        size_t n = PAGE_SIZE - (va & 0xFFF);
        if (n > len)
            n = len;
        if (temu_virt_to_phys(e, va, &pa) || temu_read_phys(e, pa, out, n))
            return -1;
        out += n;
        va += (uint32_t)n;
        len -= n;
    }
    return 0;
}

int temu_write_virt(temu *e, uint32_t va, const void *buf, size_t len)
{
    const uint8_t *in = buf;
    while (len) {
        uint64_t pa;
        size_t n = PAGE_SIZE - (va & 0xFFF);
        if (n > len)
            n = len;
        if (temu_virt_to_phys(e, va, &pa) || temu_write_phys(e, pa, in, n))
            return -1;
        in += n;
        va += (uint32_t)n;
        len -= n;
    }
    return 0;
}

/* ------------------------------------------------------------ host side */

int temu_add_breakpoint(temu *e, uint32_t pc)
{
    machine *m = &e->m;
    if (machine_is_bkpt(m, pc))
        return 0;
    if (m->nbkpt >= MAX_BKPT)
        return -1;
    m->bkpt[m->nbkpt++] = pc;
    return 0;
}

int temu_remove_breakpoint(temu *e, uint32_t pc)
{
    machine *m = &e->m;
    for (int i = 0; i < m->nbkpt; i++)
        if (m->bkpt[i] == pc) {
            m->bkpt[i] = m->bkpt[--m->nbkpt];
            return 0;
        }
    return -1;
}

void temu_set_trace(temu *e, unsigned mask, FILE *out)
{
    e->m.trace = mask;
    e->m.trace_out = out ? out : stderr;
}

const void *temu_dtb(const temu *e, size_t *len, uint64_t *pa)
{
    if (len)
        *len = e->m.boot_dtb_len;
    if (pa)
        *pa = e->m.boot_dtb_pa;
    return e->m.boot_dtb;
}

uint32_t temu_clock_hz(const temu *e) { return e->m.plat.clock_hz; }

int temu_dtb_cpus(const temu *e) { return e->m.plat.ncpus; }

int temu_cluster_counts(const temu *e, unsigned cl, uint64_t *local, uint64_t *remote)
{
    const machine *m = &e->m;
    int n = 0;
    if (cl >= MAX_CLUSTERS)
        return 0;
    for (int i = 0; i < m->ncpus; i++)
        n += m->cpus[i].cluster == cl;
    *local = m->acc_local[cl];
    *remote = m->acc_remote[cl];
    return n;
}

void temu_describe(const temu *e, char *buf, size_t len)
{
    const platform *p = &e->m.plat;
    size_t n = 0;
#define ADD(...)                                                              \
    do {                                                                      \
        if (n < len)                                                          \
            n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);             \
    } while (0)
    if (len)
        buf[0] = 0;
    for (int i = 0; i < p->nram; i++)
        ADD("%sram@0x%llx+0x%llx", i ? " " : "", (unsigned long long)p->ram[i].base,
            (unsigned long long)p->ram[i].size);
    for (int i = 0; i < p->ndev; i++) {
        ADD(" %s@0x%llx+0x%llx", p->dev[i].type->name, (unsigned long long)p->dev[i].base,
            (unsigned long long)p->dev[i].size);
        /* an input of the IOPIC, or an XICU HWI */
        int par = p->dev[i].irq_parent;
        const char *in = par >= 0 && p->dev[par].type->route_irqs ? "in" : "hwi";
        for (int j = 0; j < p->dev[i].nirq; j++)
            ADD("%s%s%d", j ? "," : "/", in, p->dev[i].irq[j]);
    }
    ADD(" clock=%uHz cpus=%d", p->clock_hz, p->ncpus);
#undef ADD
}
