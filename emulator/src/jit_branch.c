// SPDX-License-Identifier: GPL-2.0
/*
 * jit_branch.c - how a block ends: a branch and its delay slot, the exits
 * into the region (a host jump to the target block's internal entry) or
 * out of it (a link site, or the dispatcher), and the if-conversion of a
 * branch whose two short sides meet again.
 */
#include <stdint.h>

#include "jit_internal.h"

#ifdef JIT_HOST

/* The block ends with r retired at the in-page target toff (relative to
 * the page's VA), outside the region: a link site.  It starts as a jmp to
 * the unlinked path, which asks jit_h_link to turn it into a charge and a
 * jump to the target's translation (once there is one), and meanwhile takes
 * the generic path, the dispatcher, which follows the site. */
static void exit_static(tctx *t, uint32_t toff, uint32_t r)
{
    em *e = &t->e;
    if (toff >= PAGE_SIZE || (toff & 3)) {
        JIT_STAT(e, X_OFFPAGE);
        lea_pc(e, RAX, toff);
        jit_end_block(t, r);
        return;
    }
    uint8_t *site = e->p;
    uint8_t *to_unlinked = jmp32(e);
    while (e->p < site + SITE_LEN && !e->full)
        b1(e, 0xCC);
    uint8_t *generic = e->p;
    JIT_STAT(e, X_SITE);
    lea_pc(e, RAX, toff);
    jit_end_block(t, r);
    patch(e, to_unlinked, e->p);
    /* unlinked: once the target has a translation, jit_h_link(c, site,
     * target PC, r | refund << 16); then generic */
    op_m(e, 1, 0x8B, 1, RSI, R15, (int32_t)(toff * 2)); /* mov rsi, [page jit + idx * 8] */
    op_r(e, 1, 0x85, 1, RSI, RSI);
    uint8_t *g1 = jcc(e, CC_E);
    op_m(e, 1, 0x83, 1, A_CMP, RSI, (int32_t)offsetof(jblock, code));
    b1(e, 0);                      /* cmp qword [rsi + code], 0 */
    uint8_t *g2 = jcc(e, CC_E);
    op_r(e, 1, 0x89, 1, RBX, RDI); /* mov rdi, rbx */
    mov_ri(e, RSI, (uint32_t)(site - t->base));
    lea_pc(e, RDX, toff);
    mov_ri(e, RCX, r | (t->n - r) << 16);
    call_abs(e, (const void *)jit_h_link);
    patch(e, g1, e->p);
    patch(e, g2, e->p);
    patch(e, jmp32(e), generic);
}

static void add_fix(tctx *t, uint8_t *after, unsigned ni)
{
    if (t->nfx >= MAX_FIX) {
        t->e.full = true;
        return;
    }
    t->fx[t->nfx].after = after;
    t->fx[t->nfx++].node = ni;
}

/* Going to node ni: dirty registers it does not expect are stored first
 * (none when the data flow is right). */
static void to_node(tctx *t, unsigned ni)
{
    writeback(t, t->dirty & ~t->nd[ni].din);
}

/* The block ends with r retired, going on at toff: into the region, or
 * out of it (write-back, then a link site). */
void jit_edge(tctx *t, uint32_t toff, uint32_t r)
{
    em *e = &t->e;
    int ni = node_at(t, toff);
    if (ni >= 0) {
        to_node(t, (unsigned)ni);
        if (t->n != r) /* refund the nullified delay slot */
            rbp_op(e, A_ADD, t->n - r);
        uint8_t *p = jmp32(e);
        t->lj_after = p;
        t->lj_fx = t->nfx;
        add_fix(t, p, (unsigned)ni);
        return;
    }
    writeback(t, t->dirty);
    exit_static(t, toff, r);
}

static bool op_likely(int op) { return op_has(op, F_LIKELY); }

/* Only PC-relative branches reach the users of this: bltzal..bgezall. */
static bool op_links(int op) { return op_has(op, F_LINK); }

/* The x86 condition under which a conditional branch is taken, once its
 * rs has been compared with rt (or 0). */
static int branch_cc(int op)
{
    switch (op_infos[op].cond) {
    case C_EQ: return CC_E;
    case C_NE: return CC_NE;
    case C_LTZ: return CC_L;
    case C_GEZ: return CC_GE;
    case C_LEZ: return CC_LE;
    default: return CC_G;
    }
}

/* Compare for a conditional branch (sources as they are now); returns the
 * x86 condition of "taken". */
static int emit_cmp(tctx *t, int op, const dinsn *d)
{
    em *e = &t->e;
    unsigned a = d->rs;
    unsigned b = (op_infos[op].reads & R_RT) ? d->rt : 0;
    bool eqne = op_infos[op].cond == C_EQ || op_infos[op].cond == C_NE;
    if (a && !b && t->zf_p == e->p && t->zf_gr == a && (eqne || t->zf_logic))
        ; /* the op just before left the flags of a (an addiu before bnez) */
    else if (is_cached(t, a))
        galu(t, A_CMP, t->hr[a], b);
    else if (a && is_cached(t, b))
        op_m(e, 0, 0x39, 1, t->hr[b], RBX, GR(a)); /* cmp [a], b */
    else if (a && !b) {
        op_m(e, 0, 0x83, 1, A_CMP, RBX, GR(a)); /* cmp dword [a], 0 */
        b1(e, 0);
    } else {
        gmov(t, RAX, a);
        galu(t, A_CMP, RAX, b);
    }
    return branch_cc(op);
}

/* The link register write of bal/jal/jalr: rd = PC of word k + 8. */
static void emit_link(tctx *t, unsigned rd, uint32_t k)
{
    lea_pc(&t->e, RCX, PCOFF(k) + 8);
    gput(t, rd, RCX);
}

/*
 * If-conversion.  A conditional branch whose two successors run a few
 * register-only operations each and meet again (at J) becomes straight
 * host code: each side's results are computed and kept with cmov, so a
 * data-dependent guest branch costs no host misprediction.  The sides'
 * lengths are charged as the blocks they belong to would be, after a check
 * that the budget covers the longer one (else the branch runs as usual and
 * its successors charge themselves).  Side by side:
 *
 *   taken: ops at the target, then J;  not taken: ops, "b J" + slot.
 *
 * When every result can be computed from the registers as they are at the
 * branch, all are computed first and the cmovs use the test's own flags;
 * otherwise the sides run one after the other with the condition in dl
 * (only the selected side's writes are kept, so a side reading what the
 * other writes still sees the right value).
 */
#define SIDE_MAX 4 /* operations per side */

typedef struct side {
    uint32_t pos[SIDE_MAX + 2]; /* page offsets where the side may meet the other */
    uint32_t npos[SIDE_MAX + 2]; /* instructions run before reaching pos[i] */
    unsigned nposn;
    uint32_t op_idx[SIDE_MAX]; /* words of its operations (in order) */
    unsigned nops[SIDE_MAX + 2]; /* operations run before reaching pos[i] */
} side;

/* The operations emit_side_value computes. */
static bool cond_op(int op) { return op_has(op, F_JSEL); }

/* The positions a side starting at page offset off reaches through
 * operations cond_op accepts, and at most one "b" (with such a slot). */
static void walk_side(tctx *t, uint32_t off, side *s)
{
    unsigned ops = 0, n = 0;
    bool took_b = false;
    s->nposn = 0;
    for (;;) {
        s->pos[s->nposn] = off;
        s->npos[s->nposn] = n;
        s->nops[s->nposn++] = ops;
        if (off >= PAGE_SIZE || ops >= SIDE_MAX || s->nposn >= SIDE_MAX + 2)
            return;
        dinsn d;
        int op = tdecode(t, off >> 2, &d);
        if (op == OP_b && !took_b && off + 4 < PAGE_SIZE) {
            dinsn ds;
            int sop = tdecode(t, (off >> 2) + 1, &ds);
            uint32_t to = off + 4 + d.imm;
            if (!cond_op(sop) || to >= PAGE_SIZE || (to & 3))
                return;
            s->op_idx[ops++] = (off >> 2) + 1;
            n += 2;
            off = to;
            took_b = true;
            continue;
        }
        if (!cond_op(op))
            return;
        s->op_idx[ops++] = off >> 2;
        n++;
        off += 4;
    }
}

/* Guest register gr = host register reg when the flags say cc (eax is
 * free: an uncached register goes through it; mov and cmov keep the flags). */
static void cond_put(tctx *t, unsigned gr, int reg, int cc)
{
    em *e = &t->e;
    if (is_cached(t, gr)) {
        cmov(e, cc, t->hr[gr], reg);
        t->dirty |= 1u << gr;
    } else {
        ld(e, RAX, (int)gr);
        cmov(e, cc, RAX, reg);
        st(e, (int)gr, RAX);
    }
}

/* A side's operation, its result into reg (rax, rcx or rdx); returns its
 * destination, 0 when it has none (nop, a write to $0). */
static unsigned emit_side_value(tctx *t, int op, const dinsn *d, int reg)
{
    em *e = &t->e;
    unsigned src[3], dst;
    insn_regs(op, d, src, &dst);
    if (!dst || dst >= 32)
        return 0;
    switch (op) {
    case OP_sll: case OP_srl: case OP_sra:
        gmov(t, reg, d->rt);
        if (d->sa)
            sh_ri(e, op == OP_sll ? 4 : op == OP_srl ? 5 : 7, reg, d->sa);
        break;
    case OP_addu: case OP_subu: case OP_and: case OP_or: case OP_xor: case OP_nor:
        gmov(t, reg, d->rs);
        galu(t, op == OP_addu ? A_ADD : op == OP_subu ? A_SUB : op == OP_and ? A_AND :
                op == OP_xor ? A_XOR : A_OR, reg, d->rt);
        if (op == OP_nor)
            op_r(e, 0, 0xF7, 1, 2, reg); /* not reg */
        break;
    case OP_addiu: case OP_andi: case OP_ori: case OP_xori:
        gmov(t, reg, d->rs);
        alu_ri(e, op == OP_addiu ? A_ADD : op == OP_andi ? A_AND : op == OP_ori ? A_OR : A_XOR,
               reg, d->imm);
        break;
    case OP_li: case OP_lui:
        mov_ri(e, reg, d->imm);
        break;
    default: /* OP_move */
        gmov(t, reg, d->rs);
        break;
    }
    return dst;
}

/* Whether the sides' results can all be computed before the test (from
 * the registers as they are at the branch): at most two results, and no
 * operation reads what an earlier one of its side writes. */
static bool sides_parallel(tctx *t, const side *s[2], const unsigned nops[2])
{
    unsigned results = 0;
    for (int k = 0; k < 2; k++) {
        uint32_t written = 0;
        for (unsigned i = 0; i < nops[k]; i++) {
            dinsn o;
            unsigned src[3], dst;
            insn_regs(tdecode(t, s[k]->op_idx[i], &o), &o, src, &dst);
            for (int j = 0; j < 3; j++)
                if (src[j] && (written >> src[j] & 1))
                    return false;
            if (dst && dst < 32) {
                written |= 1u << dst;
                results++;
            }
        }
    }
    return results <= 2;
}

/* With the not-taken side's length nf charged: charge the taken side's
 * instead when the flags say cc (rax, rcx free; mov and cmov keep the
 * flags). */
static void charge_taken_side(tctx *t, int cc, uint32_t nt, uint32_t nf)
{
    em *e = &t->e;
    if (nt == nf)
        return;
    op_r(e, 1, 0xC7, 1, 0, RAX);
    d32(e, 0);                 /* mov rax, 0 */
    op_r(e, 1, 0xC7, 1, 0, RCX);
    d32(e, nt - nf);           /* mov rcx, nt - nf (sign-extended) */
    op_r(e, 1, 0x0F40u | (unsigned)cc, 2, RAX, RCX); /* cmov rax, rcx */
    op_r(e, 1, 0x29, 1, RAX, RBP); /* sub rbp, rax */
}

/* The branch at word k (slot already emitted, sources unchanged by it):
 * when its sides meet, their if-converted form, falling through to the
 * usual code of the branch when the budget does not cover a side. */
static void emit_branch_select(tctx *t, int op, const dinsn *d, uint32_t k)
{
    em *e = &t->e;
    static side st, sf;
    uint32_t toff = PCOFF(k) + 4 + d->imm, foff = PCOFF(k) + 8;
    if (op_links(op) || op_likely(op) || op == OP_b || toff >= PAGE_SIZE || (toff & 3))
        return;
    walk_side(t, toff, &st);
    walk_side(t, foff, &sf);
    int bi = -1, bj = -1;
    for (unsigned i = 0; i < st.nposn; i++)
        for (unsigned j = 0; j < sf.nposn; j++)
            if (st.pos[i] == sf.pos[j] &&
                (bi < 0 || st.npos[i] + sf.npos[j] < st.npos[bi] + sf.npos[bj])) {
                bi = (int)i;
                bj = (int)j;
            }
    if (bi < 0)
        return;
    uint32_t join = st.pos[bi], nt = st.npos[bi], nf = sf.npos[bj];
    uint32_t most = nt > nf ? nt : nf;
    uint32_t dirty0 = t->dirty;
    const side *sd[2] = {&st, &sf};
    const unsigned nops[2] = {st.nops[bi], sf.nops[bj]};

    rbp_op(e, A_CMP, most);
    uint8_t *slow = jcc(e, CC_L);
    t->zf_p = t->rax_p = NULL;
    if (sides_parallel(t, sd, nops)) {
        /* results into ecx/edx, the test, then cmov (emit_cmp uses eax) */
        struct side_result { unsigned gr; int reg, side; } res[2];
        unsigned nres = 0;
        for (int k2 = 0; k2 < 2; k2++)
            for (unsigned i = 0; i < nops[k2]; i++) {
                dinsn o;
                int oop = tdecode(t, sd[k2]->op_idx[i], &o);
                int reg = nres ? RDX : RCX;
                unsigned gr = emit_side_value(t, oop, &o, reg);
                if (gr)
                    res[nres++] = (struct side_result){gr, reg, k2};
            }
        if (nf)
            rbp_op(e, A_SUB, nf);
        int cc = emit_cmp(t, op, d);
        for (unsigned i = 0; i < nres; i++)
            cond_put(t, res[i].gr, res[i].reg, res[i].side ? cc ^ 1 : cc);
        charge_taken_side(t, cc, nt, nf);
    } else {
        /* one after the other, each result kept when dl says its side */
        if (nf)
            rbp_op(e, A_SUB, nf);
        setcc_r(e, emit_cmp(t, op, d), RDX); /* dl = taken */
        for (int k2 = 0; k2 < 2; k2++)
            for (unsigned i = 0; i < nops[k2]; i++) {
                dinsn o;
                int oop = tdecode(t, sd[k2]->op_idx[i], &o);
                unsigned gr = emit_side_value(t, oop, &o, RCX);
                if (gr) {
                    op_r(e, 0, 0x84, 1, RDX, RDX); /* test dl, dl */
                    cond_put(t, gr, RCX, k2 ? CC_E : CC_NE);
                }
            }
        op_r(e, 0, 0x84, 1, RDX, RDX); /* test dl, dl */
        charge_taken_side(t, CC_NE, nt, nf);
    }
    t->zf_p = t->rax_p = NULL;
    jit_edge(t, join, k + 2);
    /* the budget does not cover a side: the branch as usual */
    patch(e, slow, e->p);
    t->dirty = dirty0;
    t->zf_p = t->rax_p = NULL;
}

/*
 * Calls and returns.  A translated jal, bal or jalr $ra pushes its return
 * block, the one after its delay slot on the same page, on the CPU's return
 * stack (c->ras) as a jump cache entry: the key (generation, PC, mode) and
 * what the dispatcher would find for it (length, code, decoded page, its
 * translations), when that block has a translation: known when the region
 * is translated (jit_translate translates the return blocks entered
 * already right after the region and patches their code in), or else
 * looked up when the call runs.  A translated jr $ra pops the top entry and
 * jumps to its code when its key is the one the dispatcher would compute
 * for $ra (and the budget covers the block), else it goes to the
 * dispatcher.  An entry is valid exactly when a jump cache entry with the
 * same key would be: the generation changes wherever the fetch table or a
 * page's translations can (cpu_jc_drop), and a page whose regions push is
 * marked (jc_used, by translate) so that dropping its translations drops
 * the entries.  Any entry whose key matches is right, wherever it sits in
 * the stack: the stack is only a prediction.  Only rax, rcx and rdx are
 * used: cached registers stay live across the push.
 */
/* bal (bgezal $0): a call (relaxed PIC calls in user code) */
static bool op_is_bal(int op, const dinsn *d) { return op == OP_bgezal && d->rs == 0; }

static void emit_ras_push(tctx *t, uint32_t k)
{
    em *e = &t->e;
    uint32_t roff = PCOFF(k) + 8;
    if (roff >= PAGE_SIZE)
        return;
    /* the return block's translation, when it has one already: it stays
     * while this region's code is reachable (both go with the page) */
    const jblock *rb = t->pjit[roff >> 2];
    const void *rcode = rb ? rb->code : NULL;
    t->zf_p = t->rax_p = NULL;
    t->pushes = true; /* (translate marks the page: dp->jc_used) */
    ldf(e, RAX, OFF(ras_top));
    alu_ri(e, A_ADD, RAX, 1);
    alu_ri(e, A_AND, RAX, RAS_N - 1);
    stf(e, OFF(ras_top), RAX);
    _Static_assert(sizeof(jcache_ent) == 64, "return stack entry: 64 bytes");
    sh_ri(e, 4, RAX, 6);
    op_r(e, 1, 0x01, 1, RBX, RAX);                     /* rax = c + top * 64 */
#define RAS_F(f) (OFF(ras) + (int32_t)offsetof(jcache_ent, f))
    uint8_t *none = NULL, *none2 = NULL, *common = NULL;
    /* the code as an immediate: known now, or 0 until jit_translate
     * translates the return block after this region and patches it in */
    mov_ri64(e, RCX, (uint64_t)(uintptr_t)rcode);
    uint8_t *imm64 = e->p - 8;
    uint8_t *dyn = NULL;
    if (!rcode) {
        op_r(e, 1, 0x85, 1, RCX, RCX);
        dyn = jcc(e, CC_E);
    }
    op_m(e, 1, 0x89, 1, RCX, RAX, RAS_F(code));
    op_m(e, 0, 0xC7, 1, 0, RAX, RAS_F(n));
    d32(e, rcode ? rb->n : 0);
    uint8_t *imm32 = e->p - 4;
    JIT_STAT(e, X_RAS_PUSH_K);
    if (!rcode) {
        if (rb && t->nrp < MAX_RP && !e->full)
            t->rp[t->nrp++] = (struct ras_patch){imm64, imm32, roff >> 2};
        common = jmp32(e);
        patch(e, dyn, e->p); /* looked up at run time */
        op_m(e, 1, 0x8B, 1, RDX, R15, (int32_t)(roff * 2)); /* the return block's jblock */
        op_r(e, 1, 0x85, 1, RDX, RDX);
        none = jcc(e, CC_E);
        op_m(e, 1, 0x8B, 1, RCX, RDX, (int32_t)offsetof(jblock, code));
        op_r(e, 1, 0x85, 1, RCX, RCX);
        none2 = jcc(e, CC_E);
        op_m(e, 1, 0x89, 1, RCX, RAX, RAS_F(code));
        op_m(e, 0, 0x8B, 1, RCX, RDX, (int32_t)offsetof(jblock, n));
        op_m(e, 0, 0x89, 1, RCX, RAX, RAS_F(n));
        patch(e, common, e->p);
    }
    op_m(e, 1, 0x89, 1, R15, RAX, RAS_F(jit));
    mov_ri64(e, RCX, (uint64_t)(uintptr_t)t->dp);       /* (the region's page) */
    op_m(e, 1, 0x89, 1, RCX, RAX, RAS_F(dp));
    lea_pc(e, RCX, roff);
    op_m(e, 0, 0x0B, 1, RCX, RBX, OFF(mode));          /* or ecx, [mode] */
    op_m(e, 1, 0x0B, 1, RCX, RBX, OFF(jc_gen));        /* or rcx, [jc_gen] */
    op_m(e, 1, 0x89, 1, RCX, RAX, RAS_F(key));
    JIT_STAT(e, X_RAS_PUSH);
    patch(e, none, e->p);
    patch(e, none2, e->p);
}

/* A PC-relative branch whose slot is pure and does not write the branch's
 * sources: slot first, then the test, straight into the two successors. */
static bool emit_branch_fast(tctx *t, int op, const dinsn *d, int dop, const dinsn *ds,
                             uint32_t k)
{
    em *e = &t->e;
    if (!op_has(op, F_PCREL) || !op_pure(dop))
        return false;
    unsigned src[3], w;
    insn_regs(dop, ds, src, &w);
    if (w && (w == d->rs || w == d->rt))
        return false;
    if (op_links(op) && d->rs == 31)
        return false;
    uint32_t toff = PCOFF(k) + 4 + d->imm, foff = PCOFF(k) + 8;
    bool ends;
    if (op_links(op))
        emit_link(t, 31, k);
    if (op == OP_b) {
        jit_emit_insn(t, dop, ds, k + 1, true, &ends);
        jit_edge(t, toff, k + 2);
    } else if (op_likely(op)) {
        int cc = emit_cmp(t, op, d);
        add_stub(t, S_NT, jcc(e, cc ^ 1), NULL, k, 0);
        jit_emit_insn(t, dop, ds, k + 1, true, &ends);
        jit_edge(t, toff, k + 2);
    } else {
        jit_emit_insn(t, dop, ds, k + 1, true, &ends);
        if (op_is_bal(op, d))
            emit_ras_push(t, k);
        emit_branch_select(t, op, d, k);
        int cc = emit_cmp(t, op, d);
        int ni = node_at(t, toff);
        if (ni >= 0 && !(t->dirty & ~t->nd[ni].din)) {
            add_fix(t, jcc(e, cc), (unsigned)ni); /* taken: straight in */
        } else {
            uint8_t *nt = jcc(e, cc ^ 1);
            jit_edge(t, toff, k + 2);
            patch(e, nt, e->p);
        }
        jit_edge(t, foff, k + 2);
    }
    return true;
}

/* The block ends with jr $ra (r retired, registers written back): the
 * return stack's top entry when it matches, else the dispatcher. */
static void exit_return(tctx *t, uint32_t r)
{
    em *e = &t->e;
    ldf(e, RAX, OFF(jit_next));
    if (t->n != r) /* refund, as the dispatcher would */
        rbp_op(e, A_ADD, t->n - r);
    ldf(e, RDX, OFF(ras_top));
    op_m(e, 0, 0x8D, 1, RCX, RDX, -1);                 /* pop, hit or not */
    alu_ri(e, A_AND, RCX, RAS_N - 1);
    stf(e, OFF(ras_top), RCX);
    sh_ri(e, 4, RDX, 6);
    op_r(e, 1, 0x01, 1, RBX, RDX);                     /* rdx = c + top * 64 */
    mov_rr(e, R11, RAX);
    op_m(e, 0, 0x0B, 1, R11, RBX, OFF(mode));          /* key, as the dispatcher's */
    op_m(e, 1, 0x0B, 1, R11, RBX, OFF(jc_gen));
    op_r(e, 0, 0xF7, 1, 0, RAX);
    d32(e, 3);                                         /* misaligned: the dispatcher's */
    uint8_t *miss2 = jcc(e, CC_NE);
    op_m(e, 1, 0x3B, 1, R11, RDX, RAS_F(key));
    uint8_t *miss = jcc(e, CC_NE);
    op_m(e, 0, 0x8B, 1, RCX, RDX, RAS_F(n));
    op_r(e, 1, 0x39, 1, RCX, RBP);                     /* cmp rbp, rcx */
    uint8_t *miss3 = jcc(e, CC_L);
    op_r(e, 1, 0x29, 1, RCX, RBP);                     /* charge the block */
    op_m(e, 1, 0x8B, 1, R9, RDX, RAS_F(dp));
    op_m(e, 1, 0x8B, 1, R15, RDX, RAS_F(jit));
    op_m(e, 1, 0x89, 1, R9, RBX, OFF(cur_dp));
    mov_rr(e, R14, RAX);
    alu_ri(e, A_AND, R14, PAGE_MASK);
    stf(e, OFF(jit_pv), R14);
    JIT_STAT(e, X_RAS_HIT);
    op_m(e, 0, 0xFF, 1, 4, RDX, RAS_F(code));          /* jmp [code] */
#undef RAS_F
    patch(e, miss, e->p);
    patch(e, miss2, e->p);
    patch(e, miss3, e->p);
    JIT_STAT(e, X_JR_RA);
    jit_end_block(t, t->n); /* (refunded above) */
}

/* The block ends with j or jal to target imm (| the top bits of the PC
 * after the branch), in jit_next: a target on this page (known only at
 * run time: translations are per physical page) is a link site or a node
 * of the region like a branch's, any other goes to the dispatcher. */
static void exit_abs(tctx *t, int op, uint32_t imm, uint32_t r)
{
    em *e = &t->e;
    t->zf_p = t->rax_p = NULL;
    ldf(e, RAX, OFF(jit_next));
    mov_rr(e, RCX, RAX);
    alu_rr(e, A_XOR, RCX, R14);
    op_r(e, 0, 0xF7, 1, 0, RCX);
    d32(e, PAGE_MASK);                                 /* test ecx, PAGE_MASK */
    uint8_t *other = jcc(e, CC_NE);
    uint32_t dirty = t->dirty;
    if (op == OP_j)
        JIT_STAT(e, X_J_SAME);
    else
        JIT_STAT(e, X_JAL_SAME);
    int ni = node_at(t, imm & 0xFFF);
    if (ni == 0 && !t->nd[0].has_pred) {
        /* the region's entry has no internal entry (no branch of the
         * region goes to it): a link site instead */
        writeback(t, t->dirty);
        exit_static(t, imm & 0xFFF, r);
    } else {
        jit_edge(t, imm & 0xFFF, r);
    }
    patch(e, other, e->p);
    t->dirty = dirty;
    t->zf_p = t->rax_p = NULL;
    writeback(t, t->dirty);
    if (op == OP_j)
        JIT_STAT(e, X_J);
    else
        JIT_STAT(e, X_JAL);
    jit_end_block(t, r); /* eax = target */
}

/* Any other branch and its slot (word k + 1): the next PC goes through
 * jit_next (the slot's slow paths publish it as the branch target). */
static bool emit_branch_slow(tctx *t, int op, const dinsn *d, int dop, const dinsn *ds,
                             uint32_t k)
{
    em *e = &t->e;
    uint32_t toff = PCOFF(k) + 4 + d->imm, foff = PCOFF(k) + 8;
    switch (op) {
    case OP_j: case OP_jal:
        if (op == OP_jal)
            emit_link(t, 31, k);
        lea_pc(e, RAX, PCOFF(k) + 4);
        alu_ri(e, A_AND, RAX, 0xF0000000u);
        alu_ri(e, A_OR, RAX, d->imm);
        stf(e, OFF(jit_next), RAX);
        break;
    case OP_jr: case OP_jalr:
        stf(e, OFF(jit_next), gsrc(t, d->rs, RAX)); /* before the link write */
        if (op == OP_jalr)
            emit_link(t, d->rd, k);
        break;
    case OP_b:
        lea_pc(e, RAX, toff);
        stf(e, OFF(jit_next), RAX);
        break;
    default:
        if (op_links(op)) {
            /* compare the old rs (it may be $31) */
            gmov(t, RAX, d->rs);
            emit_link(t, 31, k);
            alu_ri(e, A_CMP, RAX, 0);
        }
        {
            int cc = op_links(op) ? branch_cc(op) : emit_cmp(t, op, d);
            if (op_likely(op)) {
                /* not taken: the slot is nullified, the block ends after the branch */
                add_stub(t, S_NT, jcc(e, cc ^ 1), NULL, k, 0);
                lea_pc(e, RAX, toff);
            } else {
                lea_pc(e, RAX, foff);
                lea_pc(e, RCX, toff);
                cmov(e, cc, RAX, RCX);
            }
            stf(e, OFF(jit_next), RAX);
        }
        break;
    }
    bool ends;
    if (!jit_emit_insn(t, dop, ds, k + 1, true, &ends))
        return false;
    if (ends)
        return true;
    if (op_is_bal(op, d))
        emit_ras_push(t, k);
    if (!op_has(op, F_PCREL)) {
        if (op == OP_jal || (op == OP_jalr && d->rd == 31))
            emit_ras_push(t, k);
        if (op == OP_j || op == OP_jal) {
            exit_abs(t, op, d->imm, k + 2);
        } else {
            writeback(t, t->dirty);
            if (op == OP_jr && d->rs == 31) {
                exit_return(t, k + 2);
            } else {
                JIT_STAT(e, X_JR);
                ldf(e, RAX, OFF(jit_next));
                jit_end_block(t, k + 2);
            }
        }
    } else if (op_likely(op) || op == OP_b) {
        jit_edge(t, toff, k + 2);
    } else {
        lea_pc(e, RCX, toff);
        op_m(e, 0, 0x39, 1, RCX, RBX, OFF(jit_next)); /* cmp [next], ecx */
        uint8_t *nt = jcc(e, CC_NE);
        jit_edge(t, toff, k + 2);
        patch(e, nt, e->p);
        jit_edge(t, foff, k + 2);
    }
    return true;
}

/* The branch at word k and its slot (word k + 1), in the first form that
 * applies; false: not translated. */
bool jit_emit_branch(tctx *t, int op, const dinsn *d, int dop, const dinsn *ds, uint32_t k)
{
    return emit_branch_fast(t, op, d, dop, ds, k) || emit_branch_slow(t, op, d, dop, ds, k);
}

#endif /* JIT_HOST */
