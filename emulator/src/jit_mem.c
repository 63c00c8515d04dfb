// SPDX-License-Identifier: GPL-2.0
/*
 * jit_mem.c - loads and stores: the inline probe of the interpreter's
 * software TLBs and the host access, the interpreter's slow path on a miss
 * (through a stub), and groups of accesses off one base register that
 * share one probe.
 */
#include <stdint.h>

#include "jit_internal.h"

#ifdef JIT_HOST

static bool op_store(int op) { return op_has(op, F_STORE); }

/* Access size of a load or store with an inline fast path (0: none; lwl..swr
 * and ll/sc always take the interpreter's slow paths). */
static int mem_size(int op)
{
    return op_has(op, F_PARTIAL | F_LLSC) ? 0 : (int)op_size(op);
}

/* eax = rs + imm, the virtual address */
static void emit_va(tctx *t, const dinsn *d)
{
    em *e = &t->e;
    if (d->rs == 0) {
        mov_ri(e, RAX, d->imm);
    } else if (is_cached(t, d->rs)) {
        if (d->imm)
            op_m(e, 0, 0x8D, 1, RAX, t->hr[d->rs], (int32_t)d->imm); /* lea eax, [rs + imm] */
        else
            mov_rr(e, RAX, t->hr[d->rs]);
    } else {
        ld(e, RAX, d->rs);
        if (d->imm)
            alu_ri(e, A_ADD, RAX, d->imm);
    }
}

/* Probe the TLB at r12 (loads) or r13 (stores) for eax: returns the jcc
 * to patch to the miss path; then rdx = the entry's addend. */
static uint8_t *emit_probe(tctx *t, bool store, int size)
{
    em *e = &t->e;
    int tlb = store ? R13 : R12;
    /* ecx = slot * 16; edx = tag to match */
    mov_rr(e, RCX, RAX);
    sh_ri(e, 5, RCX, PAGE_SHIFT - 4);
    alu_ri(e, A_AND, RCX, (STLB_N - 1) << 4);
    mov_rr(e, RDX, RAX);
    alu_ri(e, A_AND, RDX, PAGE_MASK | (uint32_t)(size - 1));
    op_mi(e, 0, 0x3B, 1, RDX, tlb, RCX, 0); /* cmp edx, [tlb + rcx] */
    uint8_t *miss = jcc(e, CC_NE);
    op_mi(e, 1, 0x8B, 1, RDX, tlb, RCX, 8); /* mov rdx, [tlb + rcx + 8] (addend) */
    return miss;
}

/* The host access of a load or store: at [rdx + rax] (indexed) or at
 * [rdx + disp]. */
static void emit_access(tctx *t, int op, const dinsn *d, bool indexed, int32_t disp)
{
    em *e = &t->e;
    int size = mem_size(op);
#define MEMOP(opc, nopc, reg)                                                 \
    do {                                                                      \
        if (indexed)                                                          \
            op_mi(e, 0, opc, nopc, reg, RDX, RAX, 0);                         \
        else                                                                  \
            op_m(e, 0, opc, nopc, reg, RDX, disp);                            \
    } while (0)
    if (op_store(op)) {
        int v = gsrc(t, d->rt, RCX);
        if (size == 1) {
            if (v == RSI || v == RDI)
                b1(e, 0x40); /* sil/dil, not dh/bh */
            MEMOP(0x88, 1, v);
        } else {
            if (size == 2)
                b1(e, 0x66);
            MEMOP(0x89, 1, v);
        }
    } else {
        int v = gdst(t, d->rt, RCX);
        bool sgn = op_has(op, F_SIGNED);
        if (size == 1)
            MEMOP(sgn ? 0x0FBE : 0x0FB6, 2, v); /* movsx / movzx r32, byte */
        else if (size == 2)
            MEMOP(sgn ? 0x0FBF : 0x0FB7, 2, v); /* movsx / movzx r32, word */
        else
            MEMOP(0x8B, 1, v);
        gput(t, d->rt, v);
    }
#undef MEMOP
}

/* op | destination << 8 | the register read for the value << 16: rt,
 * which lwl/lwr merge into their destination rd (W_RMW) */
static uint32_t mem_spec(int op, const dinsn *d)
{
    unsigned dst = op_infos[op].writes == W_RMW ? d->rd : d->rt;
    return (uint32_t)op | (uint32_t)dst << 8 | (uint32_t)d->rt << 16;
}

/* Memory access: eax = va, TLB probe, access; a miss calls the
 * interpreter's slow path (jit_h_load/jit_h_store) and comes back. */
void jit_emit_mem(tctx *t, int op, const dinsn *d, uint32_t kinfo)
{
    em *e = &t->e;
    bool store = op_store(op);
    int size = mem_size(op);
    uint32_t spec = mem_spec(op, d);
    emit_va(t, d);
    if (!size) { /* lwl/lwr/swl/swr: always the slow path, which jumps back */
        uint8_t *to = jmp32(e);
        add_stub(t, store ? S_STORE : S_LOAD, to, e->p, kinfo, spec);
        if (!store)
            t->dirty |= is_cached(t, d->rd) ? 1u << d->rd : 0;
        return;
    }
    uint32_t dirty0 = t->dirty; /* the slow path's write-back: before this load */
    uint8_t *miss = emit_probe(t, store, size);
    emit_access(t, op, d, true, 0);
    uint32_t dirty1 = t->dirty;
    t->dirty = dirty0;
    add_stub(t, store ? S_STORE : S_LOAD, miss, e->p, kinfo, spec);
    t->dirty = dirty1;
}

/* Operations allowed between the accesses of a group: pure, and rdx
 * untouched. */
static bool group_filler(int op)
{
    return op_pure(op) && !op_has(op, F_JRDX);
}

/*
 * A group: loads (or stores) of one size off one base register, from the
 * word k0 of the node to its last member, with pure operations between
 * them that leave the base alone (a load into the base ends it).  When the
 * first access hits the TLB and the lowest and highest member addresses
 * are on its page, every member hits the same entry: one probe, then each
 * member is a single host access at [rdx + offset].  Otherwise the whole
 * span runs as usual from a copy in a stub.  Returns the last member's
 * word, or k0 when there is no group.
 */
uint32_t jit_plan_group(tctx *t, const node *nd, uint32_t k0, int32_t *lo, int32_t *hi)
{
    dinsn d0, d;
    int op0 = tdecode(t, nd->idx + k0, &d0);
    int size = mem_size(op0);
    bool store = op_store(op0);
    uint32_t last = k0;
    if (!size || d0.rs == 0 || (!store && d0.rt == d0.rs))
        return k0;
    *lo = *hi = (int32_t)d0.imm;
    for (uint32_t k = k0 + 1; k < nd->kend; k++) {
        int op = tdecode(t, nd->idx + k, &d);
        unsigned src[3], dst;
        int32_t off = (int32_t)d.imm;
        if (mem_size(op) == size && op_store(op) == store && d.rs == d0.rs &&
            (off - (int32_t)d0.imm) % size == 0) {
            int32_t l = off < *lo ? off : *lo, h = off > *hi ? off : *hi;
            if (h - l >= (int32_t)PAGE_SIZE)
                break;
            *lo = l;
            *hi = h;
            last = k;
            if (!store && d.rt == d0.rs)
                break;
            continue;
        }
        if (!group_filler(op))
            break;
        insn_regs(op, &d, src, &dst);
        if (dst == d0.rs)
            break;
    }
    return last;
}

void jit_emit_group(tctx *t, const node *nd, uint32_t k0, uint32_t k1, int32_t lo, int32_t hi)
{
    em *e = &t->e;
    dinsn d0;
    int op0 = tdecode(t, nd->idx + k0, &d0);
    int32_t f = (int32_t)d0.imm;
    uint32_t dirty0 = t->dirty;
    uint8_t *out[3] = {NULL, NULL, NULL};
    emit_va(t, &d0);
    /* the lowest and highest addresses on the first one's page */
    if (hi > f) {
        op_m(e, 0, 0x8D, 1, RCX, RAX, hi - f); /* lea ecx, [rax + hi - f] */
        alu_rr(e, A_XOR, RCX, RAX);
        op_r(e, 0, 0xF7, 1, 0, RCX);
        d32(e, PAGE_MASK); /* test ecx, PAGE_MASK */
        out[0] = jcc(e, CC_NE);
    }
    if (lo < f) {
        op_m(e, 0, 0x8D, 1, RCX, RAX, lo - f);
        alu_rr(e, A_XOR, RCX, RAX);
        op_r(e, 0, 0xF7, 1, 0, RCX);
        d32(e, PAGE_MASK);
        out[1] = jcc(e, CC_NE);
    }
    out[2] = emit_probe(t, op_store(op0), mem_size(op0));
    op_r(e, 1, 0x01, 1, RAX, RDX); /* add rdx, rax: the first access's host address */
    for (uint32_t k = k0; k <= k1; k++) {
        dinsn d;
        bool ends;
        int op = tdecode(t, nd->idx + k, &d);
        if (k == k0 || (mem_size(op) && d.rs == d0.rs))
            emit_access(t, op, &d, false, (int32_t)d.imm - f);
        else
            jit_emit_insn(t, op, &d, k, false, &ends);
    }
    /* the span as usual, out of line */
    uint32_t dirty1 = t->dirty;
    t->dirty = dirty0;
    for (int i = 0; i < 3; i++)
        if (out[i]) {
            add_stub(t, S_SPAN, out[i], e->p, k0, k1);
            for (int j = i + 1; j < 3; j++) /* one copy: the others jump to it */
                if (out[j] && t->ns) {
                    t->st[t->ns - 1].from2[j - i - 1] = out[j];
                    out[j] = NULL;
                }
        }
    t->dirty = dirty1;
}

#endif /* JIT_HOST */
