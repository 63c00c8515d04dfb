/*
 * mmu.c - CP2: the TSAR virtual-memory unit (vci_cc_vcache_wrapper model).
 *
 * Two-level hardware page-table walk (hardware reference section 2.3),
 * access checks (2.4), error types (2.5), the CP2 register map (2.2) and the
 * management of the emulator's translation caches (software TLBs).
 *
 * The real TLBs are 8x8 and coherent: the hardware drops entries whose PTE
 * line is written.  Our software TLBs are bigger but follow the same rule:
 * every physical page the walker reads is marked; a store to a marked page
 * drops all cached translations (and clears the marks, since nothing cached
 * depends on them any more).
 */
#include <string.h>

#include "internal.h"

/* log2 geometry: DTLB 8x8, D$ 4 ways x 64 sets, ITLB 8x8, I$ 4x64, 64-byte lines */
#define MMU_PARAMS                                                            \
    ((3u << 29) | (3u << 25) | (2u << 22) | (6u << 18) | (3u << 15) |         \
     (3u << 11) | (2u << 8) | (6u << 4) | 6u)
#define MMU_RELEASE 0x00010001u

/* CP2 register numbers (CP2_*), MODE bits (MMU_MODE_*), the page-table
 * geometry (PT1_*, PT2_*, PTE1_PPN_MASK, ...): hwdesc.h, from the spec's mmu. */
#define PHYS_MASK ((1ull << MMU_PHYS_ADDR_BITS) - 1)

/* ------------------------------------------------------------ TLB caches */

static void tlb_clear_cpu(cpu_t *c)
{
    for (int md = 0; md < 2; md++) {
        for (unsigned i = 0; i < STLB_N; i++) {
            c->dtlb_r[md][i].tag = STLB_INVALID;
            c->dtlb_w[md][i].tag = STLB_INVALID;
        }
        for (unsigned i = 0; i < ITLB_N; i++) {
            c->itlb[md][i].tag = STLB_INVALID;
            c->itlb[md][i].dp = NULL;
        }
    }
    STAT(c, EX_TLBCLEAR);
    cpu_jc_drop(c);
    /* The page being executed may be mapped differently now. */
    c->exit_req = true;
}

static void pt_clear_marks(machine *m)
{
    if (m->pt_overflow) {
        for (int i = 0; i < m->nram; i++)
            memset(m->ram[i].ptmap, 0, m->ram[i].npages);
        m->pt_overflow = false;
    } else {
        for (unsigned i = 0; i < m->pt_count; i++) {
            ram_bank *b = bus_ram_bank(m, m->pt_list[i]);
            if (b)
                b->ptmap[(m->pt_list[i] - b->base) >> PAGE_SHIFT] = 0;
        }
    }
    m->pt_count = 0;
}

/* A page-table page was written: every CPU's cached translations may be
 * stale (the hardware TLBs are coherent), and then nothing cached depends
 * on the marked pages any more. */
void tlb_flush_all(machine *m)
{
    STATM(m, EX_FLUSHALL);
    for (int i = 0; i < m->ncpus; i++)
        tlb_clear_cpu(&m->cpus[i]);
    pt_clear_marks(m);
}

/* One CPU's own flush (PTPR, MODE, flush operations).  The marks stay
 * while other CPUs may hold translations that depend on them. */
void tlb_flush_cpu(cpu_t *c)
{
    STAT(c, EX_FLUSHCPU);
    tlb_clear_cpu(c);
    if (c->m->ncpus == 1)
        pt_clear_marks(c->m);
}

/* Remove every CPU's fast write entries that point into one RAM page
 * (found through the page's wslot record, not by scanning the tables). */
void tlb_drop_host_page(machine *m, ram_bank *b, uint32_t pidx)
{
    for (int k = 0; k < m->ncpus; k++)
        wtlb_drop_page(&m->cpus[k], b, pidx);
}

void pt_mark_page(machine *m, ram_bank *b, uint32_t pidx)
{
    if (b->ptmap[pidx])
        return;
    b->ptmap[pidx] = 1;
    if (m->pt_count < m->pt_cap)
        m->pt_list[m->pt_count++] = b->base + ((uint64_t)pidx << PAGE_SHIFT);
    else
        m->pt_overflow = true;
    tlb_drop_host_page(m, b, pidx);
}

/* ------------------------------------------------------------ walk */

/* Host pointer of a page-table word, or NULL if pa is not RAM. */
static u32a *pt_word(machine *m, uint64_t pa, bool mark, ram_bank **bank)
{
    ram_bank *b = bus_ram_bank(m, pa);
    if (!b)
        return NULL;
    if (mark)
        pt_mark_page(m, b, (uint32_t)((pa - b->base) >> PAGE_SHIFT));
    *bank = b;
    return (u32a *)(b->mem + (pa - b->base));
}

static const char acc_char[3] = {'R', 'W', 'X'};

uint32_t mmu_translate(cpu_t *c, uint32_t va, int acc, int user, uint64_t *pa,
                       bool se)
{
    machine *m = c->m;
    bool on = acc == ACC_FETCH ? (c->mmu_mode & MMU_MODE_ITLB) : (c->mmu_mode & MMU_MODE_DTLB);
    if (!on) {
        uint32_t ext = acc == ACC_FETCH ? c->ipaddr_ext : c->dpaddr_ext;
        *pa = ((uint64_t)ext << 32) | va;
        return 0;
    }
    uint32_t rd = acc == ACC_WRITE ? 0 : MMU_FAULT_READ;
    uint32_t fault;
#ifdef TEMU_STATS
    if (se)
        c->st.n[acc == ACC_READ ? ST_MMU_WALK_R : acc == ACC_WRITE ? ST_MMU_WALK_W
                                                                   : ST_MMU_WALK_X]++;
#endif
    ram_bank *b1 = NULL, *b2 = NULL;
    uint64_t pt1 = (((uint64_t)c->ptpr << MMU_PTPR_SHIFT) |
                    ((va >> MMU_BIG_PAGE_SHIFT) * PT1_ENTRY_BYTES)) & PHYS_MASK;
    u32a *p1 = pt_word(m, pt1, se, &b1);
    if (!p1) {
        /* the walker's own read failed: reported with the read bit */
        fault = MMU_FAULT_READ | MMU_FAULT_PT1_ILLEGAL_ACCESS;
        goto fail;
    }
    uint32_t e1 = *p1, flags;
    u32a *fp;
    ram_bank *fb;
    uint64_t phys;
    if (!(e1 & PTE_V)) {
        fault = MMU_FAULT_READ | MMU_FAULT_PT1_UNMAPPED; /* quirk: always the read form */
        goto fail;
    }
    if (!(e1 & PTE_T)) { /* PTE1: 2 MiB page */
        flags = e1;
        fp = p1;
        fb = b1;
        phys = ((uint64_t)(e1 & PTE1_PPN_MASK) << MMU_BIG_PAGE_SHIFT) | (va & (MMU_BIG_PAGE_SIZE - 1));
    } else { /* PTD1 -> PT2 */
        uint64_t pt2 = ((uint64_t)(e1 & PTD1_PTPN_MASK) << MMU_PAGE_SHIFT) |
                       (((va >> MMU_PAGE_SHIFT) & (PT2_ENTRIES - 1)) * PT2_ENTRY_BYTES);
        u32a *p2 = pt_word(m, pt2, se, &b2);
        if (!p2) {
            fault = MMU_FAULT_READ | MMU_FAULT_PT2_ILLEGAL_ACCESS;
            goto fail;
        }
        flags = p2[0];
        if (!(flags & PTE_V)) {
            fault = MMU_FAULT_READ | MMU_FAULT_PT2_UNMAPPED;
            goto fail;
        }
        fp = p2;
        fb = b2;
        phys = ((uint64_t)(p2[PTE2_PPN_WORD] & PTE2_PPN_MASK) << MMU_PAGE_SHIFT) |
               (va & (MMU_PAGE_SIZE - 1));
    }
    if (user && !(flags & PTE_U)) {
        fault = rd | MMU_FAULT_PRIVILEGE_VIOLATION;
        goto fail;
    }
    if (acc == ACC_FETCH && !(flags & PTE_X)) {
        fault = MMU_FAULT_READ | MMU_FAULT_EXEC_VIOLATION;
        goto fail;
    }
    if (acc == ACC_WRITE && !(flags & PTE_W)) {
        fault = MMU_FAULT_ACCESS_VIOLATION;
        goto fail;
    }
    if (se) {
        /* Hardware sets L on refill and D on the first write (CAS on the PTE). */
        uint32_t nf = flags | PTE_L | (acc == ACC_WRITE ? PTE_D : 0);
        if (nf != flags) {
            *fp = nf;
            uint64_t fpa = fb->base + (uint64_t)((uint8_t *)fp - fb->mem);
            uint32_t pidx = (uint32_t)((fpa - fb->base) >> PAGE_SHIFT);
            machine_break_ll(m, fpa, 4); /* the walker's flag update is a store */
            if (fb->code[pidx])
                code_page_store(m, fb, pidx, (uint32_t)(fpa & 0xFFF), 4);
        }
        if (TRACE_ON(m, TEMU_TRACE_MMU))
            trace_printf(m, "mmu: walk va=0x%08x %c%s -> pa=0x%010llx flags=0x%08x %s\n",
                         va, acc_char[acc], user ? " user" : "",
                         (unsigned long long)phys, nf, (e1 & PTE_T) ? "4K" : "2M");
    }
    *pa = phys;
    return 0;
fail:
    if (se && TRACE_ON(m, TEMU_TRACE_MMU))
        trace_printf(m, "mmu: fault va=0x%08x %c%s %s=0x%04x ptpr=0x%08x\n", va,
                     acc_char[acc], user ? " user" : "",
                     acc == ACC_FETCH ? "IETR" : "DETR", fault, c->ptpr);
    return fault;
}

/* ------------------------------------------------------------ CP2 registers */

int mmu_cp2_read(cpu_t *c, int reg, uint32_t *val)
{
    if (c->mode) /* XTN reads are refused in user mode */
        return MMU_FAULT_READ | MMU_FAULT_PRIVILEGE_VIOLATION;
    switch (reg) {
    case CP2_PTPR: *val = c->ptpr; break;
    case CP2_MODE: *val = c->mmu_mode; break;
    case CP2_IETR: *val = c->ietr; break;
    case CP2_DETR: *val = c->detr; break;
    case CP2_IBVAR: *val = c->ibvar; break;
    case CP2_DBVAR: *val = c->dbvar; break;
    case CP2_PARAMS: *val = MMU_PARAMS; break;
    case CP2_RELEASE: *val = MMU_RELEASE; break;
    case CP2_WORD_LO: *val = c->word_lo; break;
    case CP2_WORD_HI: *val = c->word_hi; break;
    case CP2_DATA_PADDR_EXT: *val = c->dpaddr_ext; break;
    case CP2_INST_PADDR_EXT: *val = c->ipaddr_ext; break;
    default: return MMU_FAULT_READ | MMU_FAULT_UNDEFINED_XTN;
    }
    return 0;
}

int mmu_cp2_write(cpu_t *c, int reg, uint32_t val)
{
    if (c->mode) {
        /* user mode (with CU2 set): only cache maintenance and SYNC */
        switch (reg) {
        case CP2_SYNC: case CP2_DCACHE_INVAL: case CP2_DCACHE_FLUSH:
        case CP2_ICACHE_INVAL: case CP2_ICACHE_FLUSH:
            break;
        default:
            return MMU_FAULT_PRIVILEGE_VIOLATION;
        }
    }
    switch (reg) {
    case CP2_PTPR:
        /* flushes non-global entries; we drop everything (never stale) */
        c->ptpr = val;
        tlb_flush_cpu(c);
        break;
    case CP2_MODE:
        c->mmu_mode = val & MMU_MODE_ALL;
        tlb_flush_cpu(c);
        break;
    case CP2_DCACHE_FLUSH: /* also resets both TLBs */
    case CP2_ITLB_INVAL:
    case CP2_DTLB_INVAL:
        tlb_flush_cpu(c);
        break;
    case CP2_ICACHE_FLUSH: case CP2_ICACHE_INVAL: case CP2_DCACHE_INVAL:
    case CP2_ICACHE_PREFETCH: case CP2_DCACHE_PREFETCH: case CP2_SYNC:
    case CP2_ICACHE_PA_INV: case CP2_DCACHE_PA_INV: case CP2_DEBUG_MASK:
        break; /* no caches, no write buffer: always coherent */
    case CP2_WORD_LO: c->word_lo = val; break;
    case CP2_WORD_HI: c->word_hi = val; break;
    case CP2_LL_RESET:
        cpu_ll_clear(c);
        break;
    case CP2_DATA_PADDR_EXT:
        c->dpaddr_ext = val & 0xFF;
        tlb_flush_cpu(c);
        break;
    case CP2_INST_PADDR_EXT:
        c->ipaddr_ext = val & 0xFF;
        tlb_flush_cpu(c);
        break;
    default:
        return MMU_FAULT_UNDEFINED_XTN;
    }
    if (TRACE_ON(c->m, TEMU_TRACE_MMU))
        trace_printf(c->m, "mmu: cp2 write $%d = 0x%08x\n", reg, val);
    return 0;
}

void mmu_reset(cpu_t *c)
{
    c->ptpr = 0;
    c->mmu_mode = MMU_MODE_DCACHE | MMU_MODE_ICACHE; /* caches on, TLBs off */
    c->ietr = c->detr = c->ibvar = c->dbvar = 0;
    c->word_lo = c->word_hi = 0;
    c->dpaddr_ext = c->ipaddr_ext = 0;
    tlb_flush_cpu(c);
}
