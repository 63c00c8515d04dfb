// SPDX-License-Identifier: GPL-2.0
/*
 * jit_runtime.c - the translating tier's runtime: its entry points from the
 * interpreter (jit_install counts a block's entries, jit_run enters host
 * code, jit_drop_page and jit_flush drop translations), the host code area
 * and its fixed code (trampoline, epilogue, dispatcher), and the helpers
 * host code calls (the interpreter's slow paths, exceptions, linking).
 * The translator is jit_translate.c's.
 *
 * Translations depend only on the words of their physical page: a store
 * into the page (code_page_store) or dropping the page drops them.  Host
 * code memory is a bump area, reclaimed as a whole (jit_flush) when full,
 * only from the interpreter (no host code is running then).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "jit_internal.h"

#ifdef JIT_HOST
#include <sys/mman.h>
#endif

bool jit_available(void)
{
#ifdef JIT_HOST
    return true;
#else
    return false;
#endif
}

#define JIT_HANDLER (cpu_handlers[OP_COUNT * 2 + 2])

void jit_free(machine *m)
{
    struct jit_state *j = m->jit;
    if (!j)
        return;
#ifdef JIT_HOST
    if (j->code)
        munmap(j->code, JIT_CODE_SIZE);
#endif
    free(j->blocks);
    for (unsigned i = 0; i < m->dp_count; i++) {
        free(m->dp_all[i]->jit);
        m->dp_all[i]->jit = NULL;
    }
    free(j);
    m->jit = NULL;
}

/* Remove one page's translations: entry words get their handler back. */
void jit_drop_page(machine *m, dpage *dp)
{
    if (!dp->jit)
        return;
    STATM(m, J_DROP_PAGE);
    /* the jump caches may name its blocks (only pages with dp->jit) */
    if (dp->jc_used) {
        for (int k = 0; k < m->ncpus; k++)
            cpu_jc_drop(&m->cpus[k]);
        dp->jc_used = 0;
    }
    const void *jh = JIT_HANDLER;
    for (unsigned i = 0; i < DPAGE_N; i++) {
        jblock *jb = dp->jit[i];
        if (!jb)
            continue;
        if (dp->ops[i].h == jh)
            dp->ops[i].h = jb->orig_h;
        for (int k = 0; k < m->ncpus; k++)
            if (m->cpus[k].mk_ip == &dp->ops[i] && m->cpus[k].mk_h == jh)
                m->cpus[k].mk_h = jb->orig_h;
        dp->jit[i] = NULL;
    }
}

/* Drop every translation and reclaim the code area. */
void jit_flush(machine *m)
{
    struct jit_state *j = m->jit;
    for (unsigned i = 0; i < m->dp_count; i++) {
        dpage *dp = m->dp_all[i];
        if (!dp->jit)
            continue;
        jit_drop_page(m, dp);
        /* the entries are installed again on the next first entry */
        for (unsigned k = 0; k < DPAGE_N + 2; k++)
            dp->blen[k] = BLEN_UNKNOWN;
    }
    j->used = JIT_FIRST; /* the trampoline, exit and dispatch stay */
    j->nblocks = 0;
    j->flushes++;
}

/* The plain operation of a word (no superinstruction), as decode_at would
 * choose its normal or delay-slot handler. */
static const void *plain_handler(dpage *dp, uint32_t idx)
{
    const u32a *words = (const u32a *)dp->host;
    dinsn d;
    int op = decode_insn(words[idx], &d);
    int ds = idx == 0 || insn_has_delay_slot(words[idx - 1]);
    return cpu_handlers[op * 2 + ds];
}

/* First entry of the block at idx (cpu.c enter_slow): count its entries. */
void jit_install(cpu_t *c, dpage *dp, uint32_t idx)
{
    machine *m = c->m;
    struct jit_state *j = m->jit;
    dinsn *at = &dp->ops[idx];
    if (!j || at == c->mk_ip || idx >= DPAGE_N)
        return;
    if (at->h == cpu_handlers[OP_decode * 2] || at->h == cpu_handlers[OP_decode * 2 + 1])
        decode_at(c, dp, idx);
    if (at->h == JIT_HANDLER || at->h == cpu_handlers[OP_COUNT * 2 + 1])
        return;
    if (!dp->jit) {
        dp->jit = calloc(DPAGE_N, sizeof *dp->jit);
        if (!dp->jit)
            return;
    }
    if (j->nblocks >= JIT_MAX_BLOCKS) {
        jit_flush(m); /* every entry is installed again on its next first entry */
        if (dp->blen[idx] == BLEN_UNKNOWN)
            dp->blen[idx] = block_len((const u32a *)dp->host, idx, false);
    }
    jblock *jb = &j->blocks[j->nblocks++];
    memset(jb, 0, sizeof *jb);
    jb->orig_h = at->h;
    jb->plain_h = plain_handler(dp, idx);
    jb->n = dp->blen[idx];
    dp->jit[idx] = jb;
    at->h = JIT_HANDLER;
}

#ifndef JIT_HOST

const void *jit_translate(cpu_t *c, dpage *dp, uint32_t idx)
{
    jblock *jb = dp->jit[idx];
    dp->ops[idx].h = jb->orig_h;
    dp->jit[idx] = NULL;
    (void)c;
    return NULL;
}

uint32_t jit_run(cpu_t *c, const void *code, stlb_ent *tlbr, stlb_ent *tlbw, uint32_t pvbase,
                 jblock **page)
{
    (void)c; (void)code; (void)tlbr; (void)tlbw; (void)pvbase; (void)page;
    return JIT_CONT;
}

int jit_init(machine *m)
{
    (void)m;
    return -1;
}

#else /* JIT_HOST */

/* ------------------------------------------------------------ helpers */

/* Called from host code with the instruction's index k in the block and
 * whether it is a delay slot (kinfo = k | ds << 16): publish the state an
 * interpreter slow path expects (SYNC in cpu.c). */
static inline uint32_t hsync(cpu_t *c, uint32_t kinfo)
{
    uint32_t k = kinfo & 0xFFFF;
    c->pc = c->jit_pc0 + 4 * k;
    c->br_pending = (kinfo >> 16) != 0;
    c->br_target = c->jit_next;
    c->cycles = c->jit_cend - (uint64_t)(c->jit_budget + c->jit_n) + k;
    return k;
}

/* After a slow path that succeeded: leave if it asked for it. */
static inline uint32_t hdone(cpu_t *c, uint32_t kinfo)
{
    if (likely(!c->exit_req))
        return 0;
    uint32_t k = kinfo & 0xFFFF;
    c->pc = (kinfo >> 16) ? c->jit_next : c->jit_pc0 + 4 * k + 4;
    return ((k + 1) << 2) | JIT_LEAVE;
}

/* A coprocessor instruction in user mode without Status.CU<cu>: the
 * Coprocessor Unusable exception raised, as the interpreter's NEED_CU0/2. */
static inline bool cop_unusable(cpu_t *c, unsigned cu)
{
    if (!c->mode || (c->status & (ST_CU0 << cu)))
        return false;
    cpu_exception(c, EXC_CPU, (int)cu);
    return true;
}

uint32_t jit_h_raise(cpu_t *c, uint32_t kinfo, uint32_t code)
{
    STAT(c, J_H_RAISE);
    uint32_t k = hsync(c, kinfo);
    cpu_exception(c, (int)(code & 0xFF), (int)(code >> 8));
    return ((k + 1) << 2) | JIT_EXC;
}

/* mfc0 (spec = dst | rd << 8 | sel << 16): as the interpreter's, with the
 * state published first (Count reads the cycle count). */
uint32_t jit_h_mfc0(cpu_t *c, uint32_t kinfo, uint32_t spec)
{
    STAT(c, J_H_MFC0);
    uint32_t k = hsync(c, kinfo);
    if (cop_unusable(c, 0))
        return ((k + 1) << 2) | JIT_EXC;
    c->r[spec & 0xFF] = cp0_read(c, (int)((spec >> 8) & 0xFF), (int)(spec >> 16));
    return 0;
}

/* mtc0 (spec = src | rd << 8 | sel << 16): as the interpreter's; host code
 * leaves after it when an interrupt is now deliverable (run_loop takes it)
 * or the mode changed (its TLB pointers are the old mode's). */
uint32_t jit_h_mtc0(cpu_t *c, uint32_t kinfo, uint32_t spec)
{
    STAT(c, J_H_MTC0);
    uint32_t k = hsync(c, kinfo);
    int mode = c->mode;
    if (cop_unusable(c, 0))
        return ((k + 1) << 2) | JIT_EXC;
    cp0_write(c, (int)((spec >> 8) & 0xFF), (int)(spec >> 16), c->r[spec & 0xFF]);
    if (c->mode != mode || cpu_irq_pending(c))
        c->exit_req = true;
    return hdone(c, kinfo);
}

/* mtc2 (spec = src | rd << 8): as the interpreter's; host code leaves after
 * it when the write flushed (PTPR, MODE, TLB invalidations set exit_req). */
uint32_t jit_h_mtc2(cpu_t *c, uint32_t kinfo, uint32_t spec)
{
    STAT(c, J_H_MTC2);
    uint32_t k = hsync(c, kinfo);
    if (cop_unusable(c, 2))
        return ((k + 1) << 2) | JIT_EXC;
    unsigned rd = (spec >> 8) & 0xFF;
    int r = mmu_cp2_write(c, (int)rd, c->r[spec & 0xFF]);
    if (r) {
        cpu_data_fault(c, rd * 4, (uint32_t)r);
        return ((k + 1) << 2) | JIT_EXC;
    }
    return hdone(c, kinfo);
}

/* di / ei (spec = dst | ei << 8): as the interpreter's; host code leaves
 * after ei when an interrupt is now deliverable (run_loop takes it). */
uint32_t jit_h_diei(cpu_t *c, uint32_t kinfo, uint32_t spec)
{
    STAT(c, J_H_DIEI);
    uint32_t k = hsync(c, kinfo);
    if (cop_unusable(c, 0))
        return ((k + 1) << 2) | JIT_EXC;
    uint32_t s = c->status;
    bool ei = (spec >> 8) != 0;
    c->status = ei ? s | ST_IE : s & ~ST_IE;
    c->r[spec & 0xFF] = s;
    if (ei && cpu_irq_pending(c))
        c->exit_req = true;
    return hdone(c, kinfo);
}

/* spec = op | dst << 8 | src << 16 (src: rt of lwl/lwr, the merged value) */
uint32_t jit_h_load(cpu_t *c, uint32_t va, uint32_t kinfo, uint32_t spec)
{
    STAT(c, J_H_LOAD);
    uint32_t k = hsync(c, kinfo), v;
    unsigned op = spec & 0xFF, dst = (spec >> 8) & 0xFF, src = spec >> 16;
    int size = (int)op_size((int)op);
    bool sgn = op_has((int)op, F_SIGNED);
    uint32_t a = op_has((int)op, F_PARTIAL) ? va & ~3u : va;
    if (!mem_load_slow(c, a, size, &v))
        return ((k + 1) << 2) | JIT_EXC;
    if (size == 1)
        v = sgn ? (uint32_t)(int32_t)(int8_t)v : (uint8_t)v;
    else if (size == 2)
        v = sgn ? (uint32_t)(int32_t)(int16_t)v : (uint16_t)v;
    switch (op) {
    case OP_lwl: {
        uint32_t sh = (3 - (va & 3)) * 8;
        v = (c->r[src] & ~(0xFFFFFFFFu << sh)) | (v << sh);
        break;
    }
    case OP_lwr: {
        uint32_t sh = (va & 3) * 8;
        v = (c->r[src] & ~(0xFFFFFFFFu >> sh)) | (v >> sh);
        break;
    }
    default: break;
    }
    c->r[dst] = v;
    return hdone(c, kinfo);
}

uint32_t jit_h_store(cpu_t *c, uint32_t va, uint32_t kinfo, uint32_t spec)
{
    STAT(c, J_H_STORE);
    uint32_t k = hsync(c, kinfo);
    unsigned op = spec & 0xFF, src = spec >> 16;
    uint32_t val = c->r[src], b = va & 3;
    bool ok;
    if (!op_has((int)op, F_PARTIAL))
        ok = mem_store_slow(c, va, (int)op_size((int)op), val);
    else if (op == OP_swl)
        ok = mem_store_be(c, va & ~3u, val >> ((3 - b) * 8), 0xFu >> (3 - b), va);
    else /* swr */
        ok = mem_store_be(c, va & ~3u, val << (b * 8), (0xFu << b) & 0xFu, va);
    if (!ok)
        return ((k + 1) << 2) | JIT_EXC;
    return hdone(c, kinfo);
}

uint32_t jit_h_llsc(cpu_t *c, uint32_t va, uint32_t kinfo, uint32_t spec)
{
    STAT(c, J_H_LLSC);
    uint32_t k = hsync(c, kinfo), v;
    unsigned op = spec & 0xFF, dst = (spec >> 8) & 0xFF, src = spec >> 16;
    if (op == OP_ll) {
        if (!mem_ll(c, va, &v))
            return ((k + 1) << 2) | JIT_EXC;
    } else {
        if (!mem_sc(c, va, c->r[src], &v))
            return ((k + 1) << 2) | JIT_EXC;
    }
    c->r[dst] = v;
    return hdone(c, kinfo);
}

/* ------------------------------------------------------------ code area */

#define STAT_INC JIT_STAT /* (STATS=1 builds) */

int jit_init(machine *m)
{
    struct jit_state *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    j->blocks = calloc(JIT_MAX_BLOCKS, sizeof *j->blocks);
    void *p = mmap(NULL, JIT_CODE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (!j->blocks || p == MAP_FAILED) {
        free(j->blocks);
        free(j);
        return -1;
    }
    j->code = p;
    /* The trampoline at offset 0: jit_run(c, code, tlbr, tlbw, pvbase, page):
     * rbx = c, r12/r13 = read/write TLB, r14d = page VA, r15 = page's
     * translations (for chaining), rbp = the budget (c->jit_budget, stored
     * back by the epilogue and before every helper call). */
    em e = {j->code, j->code + 256, false};
    b1(&e, 0x55);                     /* push rbp */
    b1(&e, 0x53);                     /* push rbx */
    b1(&e, 0x41); b1(&e, 0x54);       /* push r12 */
    b1(&e, 0x41); b1(&e, 0x55);       /* push r13 */
    b1(&e, 0x41); b1(&e, 0x56);       /* push r14 */
    b1(&e, 0x41); b1(&e, 0x57);       /* push r15 */
    b1(&e, 0x48); b1(&e, 0x83); b1(&e, 0xEC); b1(&e, 0x08); /* sub rsp, 8 */
    op_r(&e, 1, 0x89, 1, RDI, RBX);   /* mov rbx, rdi */
    op_r(&e, 1, 0x89, 1, RDX, R12);   /* mov r12, rdx */
    op_r(&e, 1, 0x89, 1, RCX, R13);   /* mov r13, rcx */
    op_r(&e, 0, 0x89, 1, R8, R14);    /* mov r14d, r8d */
    op_r(&e, 1, 0x89, 1, R9, R15);    /* mov r15, r9 */
    op_m(&e, 1, 0x8B, 1, RBP, RBX, OFF(jit_budget)); /* rbp = budget */
    b1(&e, 0xFF); b1(&e, 0xE6);       /* jmp rsi */
    /* epilogue (blocks jump here with eax = result) */
    e.p = j->code + JIT_EXIT;
    op_m(&e, 1, 0x89, 1, RBP, RBX, OFF(jit_budget)); /* budget = rbp */
    b1(&e, 0x48); b1(&e, 0x83); b1(&e, 0xC4); b1(&e, 0x08); /* add rsp, 8 */
    b1(&e, 0x41); b1(&e, 0x5F);       /* pop r15 */
    b1(&e, 0x41); b1(&e, 0x5E);       /* pop r14 */
    b1(&e, 0x41); b1(&e, 0x5D);       /* pop r13 */
    b1(&e, 0x41); b1(&e, 0x5C);       /* pop r12 */
    b1(&e, 0x5B);                     /* pop rbx */
    b1(&e, 0x5D);                     /* pop rbp */
    b1(&e, 0xC3);                     /* ret */
    /* Block end (eax = next PC, edx = instructions not run): refund what
     * the block did not run, then chain to the translation at the next PC
     * when the budget covers it: on this page through its translations
     * (r15); on another page first through the CPU's jump cache (one probe,
     * by PC, mode and generation), then through the CPU's fetch table, whose
     * hit fills the jump cache; else return. */
    e.p = j->code + JIT_DISPATCH;
    e.end = j->code + JIT_FIRST;
    stf(&e, OFF(pc), RAX);
    op_r(&e, 1, 0x01, 1, RDX, RBP);   /* add rbp, rdx (refund) */
    mov_rr(&e, RCX, RAX);
    alu_rr(&e, A_XOR, RCX, R14);
    op_r(&e, 0, 0xF7, 1, 0, RCX);
    d32(&e, PAGE_MASK | 3);           /* test ecx, PAGE_MASK | 3 */
    uint8_t *o1 = jcc(&e, CC_NE);
    STAT_INC(&e, D_SAME);
    mov_rr(&e, RCX, RAX);
    alu_ri(&e, A_AND, RCX, 0xFFC);
    op_r(&e, 0, 0x01, 1, RCX, RCX);   /* add ecx, ecx: idx * 8 */
    op_mi(&e, 1, 0x8B, 1, RSI, R15, RCX, 0); /* mov rsi, [r15 + rcx] */
    op_r(&e, 1, 0x85, 1, RSI, RSI);
    uint8_t *o2 = jcc(&e, CC_E);
    op_m(&e, 1, 0x8B, 1, RDI, RSI, (int32_t)offsetof(jblock, code));
    op_r(&e, 1, 0x85, 1, RDI, RDI);
    uint8_t *o3 = jcc(&e, CC_E);
    op_m(&e, 0, 0x8B, 1, RCX, RSI, (int32_t)offsetof(jblock, n));
    op_r(&e, 1, 0x39, 1, RCX, RBP);   /* cmp rbp, rcx */
    uint8_t *o4 = jcc(&e, CC_L);
    op_r(&e, 1, 0x29, 1, RCX, RBP);   /* sub rbp, rcx */
    STAT_INC(&e, D_SAME_HIT);
    b1(&e, 0xFF); b1(&e, 0xE7);       /* jmp rdi */
    /* another page (or a misaligned PC, which leaves) */
    patch(&e, o1, e.p);
    op_r(&e, 0, 0xF7, 1, 0, RAX);
    d32(&e, 3);                       /* test eax, 3 */
    uint8_t *o5 = jcc(&e, CC_NE);
    STAT_INC(&e, D_JC);
    _Static_assert(sizeof(jcache_ent) == 64, "jump cache entry: 64 bytes");
    /* r10 = &c->jc[((pc >> 2) ^ (pc >> 12)) % JC_N] - OFF(jc), r11 = key */
    mov_rr(&e, R10, RAX);
    sh_ri(&e, 5, R10, 10);
    alu_rr(&e, A_XOR, R10, RAX);
    alu_ri(&e, A_AND, R10, (JC_N - 1) << 2);
    sh_ri(&e, 4, R10, 4);             /* * sizeof(jcache_ent) / 4 */
    op_r(&e, 1, 0x01, 1, RBX, R10);   /* add r10, rbx */
    mov_rr(&e, R11, RAX);
    op_m(&e, 0, 0x0B, 1, R11, RBX, OFF(mode));     /* or r11d, [mode] */
    op_m(&e, 1, 0x0B, 1, R11, RBX, OFF(jc_gen));   /* or r11, [jc_gen] */
    op_m(&e, 1, 0x3B, 1, R11, R10, OFF(jc));       /* cmp r11, [key] */
    uint8_t *oj = jcc(&e, CC_NE);
    op_m(&e, 0, 0x8B, 1, RCX, R10, OFF(jc) + (int32_t)offsetof(jcache_ent, n));
    op_r(&e, 1, 0x39, 1, RCX, RBP);   /* cmp rbp, rcx */
    uint8_t *oj2 = jcc(&e, CC_L);
    op_r(&e, 1, 0x29, 1, RCX, RBP);   /* sub rbp, rcx */
    op_m(&e, 1, 0x8B, 1, R9, R10, OFF(jc) + (int32_t)offsetof(jcache_ent, dp));
    op_m(&e, 1, 0x8B, 1, R15, R10, OFF(jc) + (int32_t)offsetof(jcache_ent, jit));
    op_m(&e, 1, 0x89, 1, R9, RBX, OFF(cur_dp));    /* c->cur_dp = dp */
    mov_rr(&e, R14, RAX);
    alu_ri(&e, A_AND, R14, PAGE_MASK);
    stf(&e, OFF(jit_pv), R14);
    STAT_INC(&e, D_JC_HIT);
    op_m(&e, 0, 0xFF, 1, 4, R10, OFF(jc) + (int32_t)offsetof(jcache_ent, code)); /* jmp [] */
    /* jump cache miss: the CPU's fetch table (filled by fetch_slow, with its
     * checks) gives the decoded page, whose translations become current */
    patch(&e, oj, e.p);
    ldf(&e, RCX, OFF(mode));
    sh_ri(&e, 4, RCX, 12);            /* mode * ITLB_N * 16 */
    mov_rr(&e, RSI, RAX);
    sh_ri(&e, 5, RSI, PAGE_SHIFT - 4);
    alu_ri(&e, A_AND, RSI, (ITLB_N - 1) << 4);
    alu_rr(&e, A_ADD, RSI, RCX);
    op_r(&e, 1, 0x01, 1, RBX, RSI);   /* add rsi, rbx */
    mov_rr(&e, RCX, RAX);
    alu_ri(&e, A_AND, RCX, PAGE_MASK);
    op_m(&e, 0, 0x3B, 1, RCX, RSI, OFF(itlb));     /* cmp ecx, [tag] */
    uint8_t *o6 = jcc(&e, CC_NE);
    op_m(&e, 1, 0x8B, 1, R9, RSI, OFF(itlb) + 8);  /* mov r9, [dp] */
    op_m(&e, 1, 0x8B, 1, R8, R9, (int32_t)offsetof(dpage, jit));
    op_r(&e, 1, 0x85, 1, R8, R8);
    uint8_t *o7 = jcc(&e, CC_E);
    mov_rr(&e, RCX, RAX);
    alu_ri(&e, A_AND, RCX, 0xFFC);
    op_r(&e, 0, 0x01, 1, RCX, RCX);
    op_mi(&e, 1, 0x8B, 1, RSI, R8, RCX, 0);        /* mov rsi, [r8 + rcx] */
    op_r(&e, 1, 0x85, 1, RSI, RSI);
    uint8_t *o8 = jcc(&e, CC_E);
    op_m(&e, 1, 0x8B, 1, RDI, RSI, (int32_t)offsetof(jblock, code));
    op_r(&e, 1, 0x85, 1, RDI, RDI);
    uint8_t *o9 = jcc(&e, CC_E);
    op_m(&e, 0, 0x8B, 1, RCX, RSI, (int32_t)offsetof(jblock, n));
    op_r(&e, 1, 0x39, 1, RCX, RBP);
    uint8_t *o10 = jcc(&e, CC_L);
    op_r(&e, 1, 0x29, 1, RCX, RBP);
    op_r(&e, 1, 0x89, 1, R8, R15);                 /* mov r15, r8 */
    op_m(&e, 1, 0x89, 1, R9, RBX, OFF(cur_dp));    /* c->cur_dp = dp */
    mov_rr(&e, R14, RAX);
    alu_ri(&e, A_AND, R14, PAGE_MASK);
    stf(&e, OFF(jit_pv), R14);
    /* fill the jump cache entry: r9 = dp, r15 = its translations */
    op_m(&e, 1, 0x89, 1, R11, R10, OFF(jc) + (int32_t)offsetof(jcache_ent, key));
    op_m(&e, 0, 0x89, 1, RCX, R10, OFF(jc) + (int32_t)offsetof(jcache_ent, n));
    op_m(&e, 1, 0x89, 1, R9, R10, OFF(jc) + (int32_t)offsetof(jcache_ent, dp));
    op_m(&e, 1, 0x89, 1, RDI, R10, OFF(jc) + (int32_t)offsetof(jcache_ent, code));
    op_m(&e, 1, 0x89, 1, R15, R10, OFF(jc) + (int32_t)offsetof(jcache_ent, jit));
    op_m(&e, 0, 0xC6, 1, 0, R9, (int32_t)offsetof(dpage, jc_used));
    b1(&e, 1);                        /* dp->jc_used = 1 */
    STAT_INC(&e, D_ITLB_HIT);
    b1(&e, 0xFF); b1(&e, 0xE7);       /* jmp rdi */
#ifdef TEMU_STATS
    /* a landing pad per reason the dispatcher did not chain */
    {
        uint8_t *const *why[] = {
            (uint8_t *[]){o2, o3, o7, o8, o9, NULL}, (uint8_t *[]){o4, oj2, o10, NULL},
            (uint8_t *[]){o6, NULL}, (uint8_t *[]){o5, NULL}};
        const int ctr[] = {ST_D_F_NOCODE, ST_D_F_BUDGET, ST_D_F_ITLB, ST_D_F_ALIGN};
        uint8_t *to_common[4];
        for (int w = 0; w < 4; w++) {
            for (int i = 0; why[w][i]; i++)
                patch(&e, why[w][i], e.p);
            jit_stat_inc(&e, ctr[w]);
            to_common[w] = jmp32(&e);
        }
        for (int w = 0; w < 4; w++)
            patch(&e, to_common[w], e.p);
    }
#else
    patch(&e, o2, e.p);
    patch(&e, o3, e.p);
    patch(&e, o4, e.p);
    patch(&e, o5, e.p);
    patch(&e, oj2, e.p);
    patch(&e, o6, e.p);
    patch(&e, o7, e.p);
    patch(&e, o8, e.p);
    patch(&e, o9, e.p);
    patch(&e, o10, e.p);
#endif
    mov_ri(&e, RAX, JIT_NORMAL);
    patch(&e, jmp32(&e), j->code + JIT_EXIT);
    if (e.full) {
        munmap(j->code, JIT_CODE_SIZE);
        free(j->blocks);
        free(j);
        return -1;
    }
    j->used = JIT_FIRST;
    m->jit = j;
    return 0;
}

uint32_t jit_run(cpu_t *c, const void *code, stlb_ent *tlbr, stlb_ent *tlbw, uint32_t pvbase,
                 jblock **page)
{
    typedef uint32_t (*tramp_fn)(cpu_t *, const void *, stlb_ent *, stlb_ent *, uint32_t,
                                 jblock **);
    tramp_fn f = (tramp_fn)(void *)c->m->jit->code;
    return f(c, code, tlbr, tlbw, pvbase, page);
}

/* Link a site to the translation of the block at tpc (this page), when
 * there is one: the site becomes "sub rbp, need; jge target; add rbp,
 * need" in front of its generic path (need: the target's length less the
 * refund of this exit). */
uint32_t jit_h_link(cpu_t *c, uint32_t site_off, uint32_t tpc, uint32_t rinfo)
{
    STAT(c, J_H_LINK);
    struct jit_state *j = c->m->jit;
    dpage *dp = c->cur_dp;
    uint32_t idx = (tpc & 0xFFF) >> 2, refund = rinfo >> 16;
    jblock *tb = dp && dp->jit ? dp->jit[idx] : NULL;
    if (!tb || !tb->code)
        return 0;
    uint8_t *site = j->code + site_off;
    uint32_t need = tb->n - refund;
    em e = {site, site + SITE_LEN, false};
    op_r(&e, 1, 0x81, 1, A_SUB, RBP);
    d32(&e, need);
    patch(&e, jcc(&e, CC_GE), (uint8_t *)tb->code);
    op_r(&e, 1, 0x81, 1, A_ADD, RBP);
    d32(&e, need);
    j->links++;
    return 0;
}

#endif /* JIT_HOST */

void jit_stats(machine *m, uint64_t st[5])
{
    struct jit_state *j = m->jit;
    st[0] = j ? j->translated : 0;
    st[1] = j ? j->bytes : 0;
    st[2] = j ? j->flushes : 0;
    st[3] = j ? j->links : 0;
    st[4] = j ? j->ns : 0;
}
