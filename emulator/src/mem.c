/*
 * mem.c - CPU-side memory access slow paths and the decoded-code cache.
 *
 * The fast paths (software TLB hits) are inlined in cpu.c.  Here we handle
 * misses: alignment checks, MMU translation (with its faults), RAM vs MMIO,
 * software TLB refills, and the bookkeeping that keeps the caches invisible
 * to the guest:
 *  - a page with decoded code, or one that holds page-table entries the walker
 *    has read, never gets a fast write entry, so every store to it comes here;
 *  - a store into decoded code drops (or, for the page being executed,
 *    re-arms for lazy re-decoding) the decoded copy;
 *  - a store into a page-table page drops all cached translations.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static inline void stlb_set(stlb_ent *e, uint32_t va, uint8_t *hpage)
{
    e->tag = va & PAGE_MASK;
    e->addend = (uintptr_t)hpage - (uintptr_t)(va & PAGE_MASK);
}

/* ------------------------------------------------------------ code pages */

/* Decoded pages are shared: drop every CPU's fetch entries for this one. */
static void code_page_unmap(machine *m, dpage *dp)
{
    jit_drop_page(m, dp);
    dp->bank->code[dp->pidx] = NULL;
    for (int k = 0; k < m->ncpus; k++) {
        cpu_t *c = &m->cpus[k];
        for (int md = 0; md < 2; md++)
            for (unsigned i = 0; i < ITLB_N; i++)
                if (c->itlb[md][i].dp == dp) {
                    c->itlb[md][i].tag = STLB_INVALID;
                    c->itlb[md][i].dp = NULL;
                }
    }
}

dpage *code_page_get(machine *m, ram_bank *b, uint32_t pidx)
{
    dpage *dp = b->code[pidx];
    if (dp)
        return dp;
    if (m->dp_free) {
        dp = m->dp_free;
        m->dp_free = dp->next_free;
    } else if (m->dp_count < m->dp_max) {
        STATM(m, DP_NEW);
        dp = malloc(sizeof *dp);
        if (!dp) {
            fprintf(stderr, "tsar-emu: out of memory (decoded code)\n");
            abort();
        }
        dp->jit = NULL;
        dp->jc_used = 0;
        m->dp_all[m->dp_count++] = dp;
    } else {
        /* Pool full: evict round-robin, never the page being executed. */
        STATM(m, DP_EVICT);
        for (;;) {
            dp = m->dp_all[m->dp_clock++ % m->dp_count];
            if (!m->cur || dp != m->cur->cur_dp)
                break;
        }
        code_page_unmap(m, dp);
    }
    dp->bank = b;
    dp->pidx = pidx;
    dp->host = b->mem + ((size_t)pidx << PAGE_SHIFT);
    dp->next_free = NULL;
    dpage_reset(dp);
    b->code[pidx] = dp;
    /* From now on stores to this page must take the slow path. */
    tlb_drop_host_page(m, b, pidx);
    return dp;
}

/* A store hit [off, off+len) of a page holding decoded code. */
void code_page_store(machine *m, ram_bank *b, uint32_t pidx, uint32_t off, uint32_t len)
{
    dpage *dp = b->code[pidx];
    if (!dp)
        return;
    if (m->cur && dp == m->cur->cur_dp) {
        /* The running CPU executes from it (the others left their pages
         * when they were suspended): re-arm lazy decoding of the touched words and
         * of the word after each (its delay-slot status may change).  Block
         * lengths may change too: forget them all, and leave after the
         * storing instruction, so that the rest of the page is re-entered
         * (and charged) as it is now. */
        const void *dec = cpu_handlers[OP_decode * 2];
        uint32_t first = off >> 2, last = (off + len - 1) >> 2;
        if (last + 1 < DPAGE_N)
            last++;
        else
            last = DPAGE_N - 1;
        /* a superinstruction depends on the two words after its own */
        first = first >= 2 ? first - 2 : 0;
        cpu_marker_clear(m->cur);
        jit_drop_page(m, dp); /* a store into translated code drops them all */
        for (uint32_t i = first; i <= last; i++)
            dp->ops[i].h = dec;
        for (uint32_t i = 0; i < DPAGE_N; i++)
            dp->blen[i] = BLEN_UNKNOWN;
        m->cur->exit_req = true;
        STAT(m->cur, EX_CODESTORE);
        return;
    }
    STATM(m, DP_FREED);
    code_page_unmap(m, dp);
    dp->next_free = m->dp_free;
    m->dp_free = dp;
}

/* ------------------------------------------------------------ RAM hooks */

/* Bookkeeping before the CPU writes [pa, pa+len) inside one RAM page.
 * Returns true if the page may get a fast write entry. */
static bool ram_store_hooks(machine *m, ram_bank *b, uint64_t pa, uint32_t len)
{
    uint32_t pidx = (uint32_t)((pa - b->base) >> PAGE_SHIFT);
    if (b->code[pidx])
        code_page_store(m, b, pidx, (uint32_t)(pa & 0xFFF), len);
    if (b->ptmap[pidx])
        tlb_flush_all(m); /* also clears the marks and requests a loop exit */
    machine_break_ll(m, pa, len);
    return !b->code[pidx] && !b->ptmap[pidx] && !b->llmap[pidx];
}

void bus_ram_written(machine *m, uint64_t pa, size_t len)
{
    while (len) {
        ram_bank *b = bus_ram_bank(m, pa);
        size_t n = PAGE_SIZE - (pa & 0xFFF);
        if (n > len)
            n = len;
        if (b) {
            uint32_t pidx = (uint32_t)((pa - b->base) >> PAGE_SHIFT);
            if (b->code[pidx])
                code_page_store(m, b, pidx, (uint32_t)(pa & 0xFFF), (uint32_t)n);
            if (b->ptmap[pidx])
                tlb_flush_all(m);
        }
        machine_break_ll(m, pa, n);
        pa += n;
        len -= n;
    }
}

/* ------------------------------------------------------------ loads */

bool mem_load_slow(cpu_t *c, uint32_t va, int size, uint32_t *out)
{
    machine *m = c->m;
    uint64_t pa;
    STAT(c, MEM_LOAD_SLOW);
    if (va & (uint32_t)(size - 1)) {
        cpu_address_error(c, va, false);
        return false;
    }
    uint32_t err = mmu_translate(c, va, ACC_READ, c->mode, &pa, true);
    if (err) {
        cpu_data_fault(c, va, err);
        return false;
    }
    ram_bank *b = bus_ram_bank(m, pa);
    if (b) {
        uint8_t *hpage = b->mem + ((pa - b->base) & ~(uint64_t)0xFFF);
        stlb_set(&c->dtlb_r[c->mode][(va >> PAGE_SHIFT) & (STLB_N - 1)], va, hpage);
        const uint8_t *p = hpage + (va & 0xFFF);
        switch (size) {
        case 1: *out = *p; break;
        case 2: *out = *(const u16a *)p; break;
        default: *out = *(const u32a *)p; break;
        }
        return true;
    }
    uint32_t w;
    if (bus_mmio_read(m, pa, &w)) {
        cpu_data_fault(c, va, MMU_FAULT_READ | MMU_FAULT_DATA_ILLEGAL_ACCESS);
        return false;
    }
    w >>= (pa & 3) * 8;
    *out = size == 4 ? w : w & ((1u << (size * 8)) - 1);
    STAT(c, EX_MMIO);
    c->exit_req = true; /* device state may have changed (IRQ lines) */
    return true;
}

/* ------------------------------------------------------------ stores */

static bool store_word_be(cpu_t *c, uint32_t va, uint32_t wva, uint32_t val, uint32_t be)
{
    machine *m = c->m;
    uint64_t pa;
    STAT(c, MEM_STORE_SLOW);
    uint32_t err = mmu_translate(c, wva, ACC_WRITE, c->mode, &pa, true);
    if (err) {
        cpu_data_fault(c, va, err);
        return false;
    }
    ram_bank *b = bus_ram_bank(m, pa);
    if (b) {
        uint8_t *hpage = b->mem + ((pa - b->base) & ~(uint64_t)0xFFF);
        uint8_t *p = hpage + (wva & 0xFFF);
        unsigned lo = (unsigned)__builtin_ctz(be), hi = 31u - (unsigned)__builtin_clz(be);
        bool fast = ram_store_hooks(m, b, pa + lo, hi - lo + 1);
        if (!fast)
            STAT(c, MEM_STORE_NOFAST);
        if (be == 0xF) {
            *(u32a *)p = val;
        } else {
            for (unsigned i = lo; i <= hi; i++)
                if (be & (1u << i))
                    p[i] = (uint8_t)(val >> (8 * i));
        }
        if (fast) {
            unsigned slot = (wva >> PAGE_SHIFT) & (STLB_N - 1);
            uint16_t s = (uint16_t)((unsigned)c->mode * STLB_N + slot + 1);
            uint16_t *ws = &b->wslot[c->idx][(pa - b->base) >> PAGE_SHIFT];
            stlb_set(&c->dtlb_w[c->mode][slot], wva, hpage);
            *ws = !*ws || *ws == s ? s : WSLOT_MANY;
        }
        return true;
    }
    if (bus_mmio_write(m, pa, be, val)) {
        cpu_data_fault(c, va, MMU_FAULT_DATA_ILLEGAL_ACCESS);
        return false;
    }
    STAT(c, EX_MMIO);
    c->exit_req = true;
    return true;
}

bool mem_store_slow(cpu_t *c, uint32_t va, int size, uint32_t val)
{
    if (va & (uint32_t)(size - 1)) {
        cpu_address_error(c, va, true);
        return false;
    }
    unsigned sh = (va & 3) * 8;
    uint32_t be = size == 4 ? 0xFu : (size == 2 ? 3u : 1u) << (va & 3);
    uint32_t lane = size == 4 ? val : (val & ((1u << (size * 8)) - 1)) << sh;
    return store_word_be(c, va, va & ~3u, lane, be);
}

bool mem_store_be(cpu_t *c, uint32_t wva, uint32_t val, uint32_t be, uint32_t va)
{
    return store_word_be(c, va, wva, val, be);
}

/* ------------------------------------------------------------ LL / SC */

void wtlb_drop_page(cpu_t *c, ram_bank *b, uint32_t pidx)
{
    uint16_t *ws = &b->wslot[c->idx][pidx];
    uintptr_t hpage = (uintptr_t)(b->mem + ((size_t)pidx << PAGE_SHIFT));
    stlb_ent *tab = &c->dtlb_w[0][0];
    if (!*ws)
        return;
    if (*ws != WSLOT_MANY) {
        stlb_ent *e = &tab[*ws - 1];
        if (e->tag != STLB_INVALID && e->addend + e->tag == hpage)
            e->tag = STLB_INVALID;
    } else {
        for (unsigned i = 0; i < 2 * STLB_N; i++)
            if (tab[i].tag != STLB_INVALID && tab[i].addend + tab[i].tag == hpage)
                tab[i].tag = STLB_INVALID;
    }
    *ws = 0;
}

void cpu_ll_clear(cpu_t *c)
{
    if (c->ll_valid && c->ll_host) {
        ram_bank *b = bus_ram_bank(c->m, c->ll_pa);
        if (b)
            b->llmap[(c->ll_pa - b->base) >> PAGE_SHIFT] &= (uint8_t)~(1u << c->idx);
    }
    c->ll_valid = false;
    c->ll_host = 0;
}

bool mem_ll(cpu_t *c, uint32_t va, uint32_t *out)
{
    machine *m = c->m;
    uint64_t pa;
    STAT(c, MEM_LL);
    if (va & 3) {
        cpu_address_error(c, va, false);
        return false;
    }
    uint32_t err = mmu_translate(c, va, ACC_READ, c->mode, &pa, true);
    if (err) {
        cpu_data_fault(c, va, err);
        return false;
    }
    ram_bank *b = bus_ram_bank(m, pa);
    if (b) {
        cpu_ll_clear(c);
        uint8_t *p = b->mem + (pa - b->base);
        uint32_t pidx = (uint32_t)((pa - b->base) >> PAGE_SHIFT);
        *out = *(const u32a *)p;
        c->ll_host = (uintptr_t)p;
        /* Stores to the page must reach machine_break_ll(): no fast write
         * entries for it while the reservation lives. */
        b->llmap[pidx] |= (uint8_t)(1u << c->idx);
        wtlb_drop_page(c, b, pidx);
    } else {
        if (bus_mmio_read(m, pa, out)) {
            cpu_data_fault(c, va, MMU_FAULT_READ | MMU_FAULT_DATA_ILLEGAL_ACCESS);
            return false;
        }
        cpu_ll_clear(c);
        c->exit_req = true;
    }
    c->ll_valid = true;
    c->ll_pa = pa;
    return true;
}

bool mem_sc(cpu_t *c, uint32_t va, uint32_t val, uint32_t *ok)
{
    uint64_t pa;
    STAT(c, MEM_SC);
    if (va & 3) {
        cpu_address_error(c, va, true);
        return false;
    }
    uint32_t err = mmu_translate(c, va, ACC_WRITE, c->mode, &pa, true);
    if (err) {
        cpu_data_fault(c, va, err);
        return false;
    }
    bool success = c->ll_valid && c->ll_pa == pa;
    cpu_ll_clear(c);
    *ok = 0;
    if (!success)
        return true;
    if (!store_word_be(c, va, va, val, 0xF))
        return false;
    *ok = 1;
    return true;
}

/* ------------------------------------------------------------ fetch */

dpage *fetch_slow(cpu_t *c, uint32_t pc)
{
    machine *m = c->m;
    uint64_t pa;
    STAT(c, IN_FETCH_SLOW);
    if (pc & 3) {
        cpu_address_error(c, pc, false);
        return NULL;
    }
    uint32_t err = mmu_translate(c, pc, ACC_FETCH, c->mode, &pa, true);
    if (err) {
        cpu_fetch_fault(c, pc, err);
        return NULL;
    }
    ram_bank *b = bus_ram_bank(m, pa);
    if (!b) {
        cpu_fetch_fault(c, pc, MMU_FAULT_READ | MMU_FAULT_DATA_ILLEGAL_ACCESS);
        return NULL;
    }
    dpage *dp = code_page_get(m, b, (uint32_t)((pa - b->base) >> PAGE_SHIFT));
    itlb_ent *ie = &c->itlb[c->mode][(pc >> PAGE_SHIFT) & (ITLB_N - 1)];
    ie->tag = pc & PAGE_MASK;
    ie->dp = dp;
    return dp;
}
