// SPDX-License-Identifier: GPL-2.0
/*
 * jit_translate.c - the translator: a region's blocks to host code, one
 * guest instruction at a time.  Loads and stores are jit_mem.c's, branches
 * and block exits jit_branch.c's, the choice of the blocks and of the
 * cached registers jit_region.c's; this file drives them (translate), emits
 * the other instructions, the out-of-line stubs and each block's internal
 * entry.
 *
 * A translation is a region: the block at the entry word plus the blocks of
 * the same page that it reaches through static branches (PC-relative
 * targets, fall-through after a delay slot), up to MAX_NODES blocks.  A
 * branch to a block of the region is a host jump to that block's internal
 * entry, which charges the block's length to the budget (rbp) like the
 * interpreter's block entry, or leaves with c->pc at the block when the
 * budget does not cover it.  Other branches leave through link sites or the
 * dispatcher, as single blocks did.
 *
 * The guest registers the region uses most live in host registers, one
 * assignment for the whole region, loaded at its external entry.  Dirty
 * ones (possibly written since) are stored back before every exit and every
 * helper call, and after a helper call that returns into the region all of
 * them are reloaded (the host registers are caller-saved, and the helper
 * may have written its destination).  Which registers may be dirty at a
 * block's entry is a small data-flow fixpoint over the region's branches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jit_internal.h"

#ifdef JIT_HOST

static void reload(tctx *t)
{
    for (unsigned r = 1; r < 32; r++)
        if (t->cached >> r & 1)
            ld(&t->e, t->hr[r], (int)r);
}

/* The op just emitted left the flags of guest register gr's new value. */
static void flags_of(tctx *t, unsigned gr, int ext)
{
    t->zf_p = t->e.p;
    t->zf_gr = gr;
    t->zf_logic = ext == A_AND || ext == A_OR || ext == A_XOR;
}

/* rd = rs op rt */
static void alu3(tctx *t, int ext, unsigned rd, unsigned rs, unsigned rt, bool comm)
{
    int d = gdst(t, rd, RAX);
    if (rt == 0 && ext != A_AND) { /* op $0: a move */
        if (d == RAX && rd < 32) {
            st(&t->e, (int)rd, gsrc(t, rs, RAX));
        } else {
            gmov(t, d, rs);
            gput(t, rd, d);
        }
        return;
    }
    if (d == RAX && rd == rs && rd < 32) {
        /* in memory and the first source: op [rd], rt */
        alu_mf_r(&t->e, ext, GR(rd), gsrc(t, rt, RAX));
        flags_of(t, rd, ext);
        return;
    }
    if (d != RAX && rt != rs && is_cached(t, rt) && t->hr[rt] == d) {
        /* rd = rs op rd */
        if (comm) {
            galu(t, ext, d, rs);
            t->dirty |= 1u << rd;
            flags_of(t, rd, ext);
            return;
        }
        d = RAX;
    }
    gmov(t, d, rs);
    galu(t, ext, d, rt);
    gput(t, rd, d);
    if (d != RAX)
        flags_of(t, rd, ext);
}

/* rt = rs op imm */
static void alui(tctx *t, int ext, unsigned rt, unsigned rs, uint32_t imm)
{
    em *e = &t->e;
    int d = gdst(t, rt, RAX);
    if (d == RAX && rt == rs && rt < 32) { /* op dword [rt], imm */
        bool small = (int32_t)imm >= -128 && (int32_t)imm < 128;
        op_m(e, 0, small ? 0x83 : 0x81, 1, ext, RBX, GR(rt));
        if (small)
            b1(e, imm);
        else
            d32(e, imm);
        flags_of(t, rt, ext);
        return;
    }
    if (ext == A_ADD && is_cached(t, rs) && t->hr[rs] != d) {
        op_m(e, 0, 0x8D, 1, d, t->hr[rs], (int32_t)imm); /* lea d, [rs + imm] */
        gput(t, rt, d);
        return;
    }
    gmov(t, d, rs);
    alu_ri(e, ext, d, imm);
    gput(t, rt, d);
    if (d != RAX)
        flags_of(t, rt, ext);
}

/* rd = (rs < src) for slt/sltu (rt >= 0) or slti/sltiu (imm) */
static void emit_set_lt(tctx *t, int cc, unsigned rd, unsigned rs, int rt, uint32_t imm)
{
    em *e = &t->e;
    int d = gdst(t, rd, RAX);
    if (d == RAX || (is_cached(t, rs) && t->hr[rs] == d) ||
        (rt > 0 && is_cached(t, (unsigned)rt) && t->hr[rt] == d))
        d = RAX; /* zeroing d would clobber a source */
    int a = gsrc(t, rs, RCX);
    op_r(e, 0, 0x31, 1, d, d); /* xor d, d (before the compare) */
    if (rt >= 0)
        galu(t, A_CMP, a, (unsigned)rt);
    else
        alu_ri(e, A_CMP, a, imm);
    setcc_r(e, cc, d);
    gput(t, rd, d);
}

/* ---- block ends */

/* Name this block (jit_pc0, jit_n) and the budget for a slow path or a
 * return. */
static void emit_self(tctx *t, int reg)
{
    stf_imm(&t->e, OFF(jit_n), t->n);
    lea_pc(&t->e, reg, PCOFF(0));
    stf(&t->e, OFF(jit_pc0), reg);
    op_m(&t->e, 1, 0x89, 1, RBP, RBX, OFF(jit_budget));
}

static void ret_code(tctx *t, uint32_t v)
{
    emit_self(t, RAX);
    mov_ri(&t->e, RAX, v);
    patch(&t->e, jmp32(&t->e), t->exit);
}

/* The block ends with eax = next PC after r retired instructions. */
void jit_end_block(tctx *t, uint32_t r)
{
    mov_ri(&t->e, RDX, t->n - r); /* refund: the instructions not run */
    patch(&t->e, jmp32(&t->e), t->dispatch);
}

/* Guest-visible raise of `code` (| ce << 8) by word k. */
static void emit_raise(tctx *t, uint32_t kinfo, uint32_t code)
{
    writeback(t, t->dirty);
    emit_self(t, RAX);
    op_r(&t->e, 1, 0x89, 1, RBX, RDI); /* mov rdi, rbx */
    mov_ri(&t->e, RSI, kinfo);
    mov_ri(&t->e, RDX, code);
    call_abs(&t->e, (const void *)jit_h_raise);
    patch(&t->e, jmp32(&t->e), t->exit);
}

/* A system instruction as a call of its helper(cpu, kinfo, spec): the
 * guest registers written back before, reloaded after; a non-zero result
 * leaves host code (an exception, or a change the run loop must see).
 * dst: the guest register the helper wrote (0: none). */
static void emit_helper_call(tctx *t, const void *helper, uint32_t kinfo, uint32_t spec,
                             unsigned dst)
{
    em *e = &t->e;

    writeback(t, t->dirty);
    emit_self(t, RCX);
    op_r(e, 1, 0x89, 1, RBX, RDI); /* mov rdi, rbx */
    mov_ri(e, RSI, kinfo);
    mov_ri(e, RDX, spec);
    call_abs(e, helper);
    op_r(e, 0, 0x85, 1, RAX, RAX);
    patch(e, jcc(e, CC_NE), t->exit);
    reload(t);
    if (is_cached(t, dst))
        t->dirty |= 1u << dst;
}

/* Translate one non-branch word; false: not translated (the block ends). */
bool jit_emit_insn(tctx *t, int op, const dinsn *d, uint32_t k, bool ds, bool *ends)
{
    em *e = &t->e;
    uint32_t kinfo = k | (ds ? 1u << 16 : 0);
    *ends = false;
    switch (op) {
    case OP_nop: case OP_sync: case OP_pref:
        return true;
    case OP_sll: case OP_srl: case OP_sra: case OP_rotr: {
        int ext = op == OP_sll ? 4 : op == OP_srl ? 5 : op == OP_sra ? 7 : 1;
        int v = gdst(t, d->rd, RAX);
        if (v == RAX && d->rd == d->rt) { /* shift dword [rd], sa */
            if (d->sa) {
                op_m(e, 0, 0xC1, 1, ext, RBX, GR(d->rd));
                b1(e, d->sa);
            }
            return true;
        }
        gmov(t, v, d->rt);
        if (d->sa)
            sh_ri(e, ext, v, d->sa);
        gput(t, d->rd, v);
        return true;
    }
    case OP_sllv: case OP_srlv: case OP_srav: case OP_rotrv: {
        gmov(t, RCX, d->rs);
        int v = gdst(t, d->rd, RAX);
        gmov(t, v, d->rt);
        sh_rcl(e, op == OP_sllv ? 4 : op == OP_srlv ? 5 : op == OP_srav ? 7 : 1, v);
        gput(t, d->rd, v);
        return true;
    }
    case OP_movz: case OP_movn: {
        int s = gsrc(t, d->rs, RDX);
        int c = gsrc(t, d->rt, RCX);
        op_r(e, 0, 0x85, 1, c, c);
        int v = gdst(t, d->rd, RAX);
        gmov(t, v, d->rd); /* mov: the flags stay */
        cmov(e, op == OP_movz ? CC_E : CC_NE, v, s);
        gput(t, d->rd, v);
        return true;
    }
    case OP_syscall: emit_raise(t, kinfo, EXC_SYS); *ends = true; return true;
    case OP_brk: emit_raise(t, kinfo, EXC_BP); *ends = true; return true;
    case OP_ri: emit_raise(t, kinfo, EXC_RI); *ends = true; return true;
    case OP_cpu1: emit_raise(t, kinfo, EXC_CPU | 1u << 8); *ends = true; return true;
    case OP_trap_quirk: emit_raise(t, kinfo, EXC_TR); *ends = true; return true;
    case OP_mfhi: case OP_mflo: {
        int v = gdst(t, d->rd, RAX);
        ldf(e, v, op == OP_mfhi ? OFF(hi) : OFF(lo));
        gput(t, d->rd, v);
        return true;
    }
    case OP_mthi: stf(e, OFF(hi), gsrc(t, d->rs, RAX)); return true;
    case OP_mtlo: stf(e, OFF(lo), gsrc(t, d->rs, RAX)); return true;
    case OP_mult: case OP_multu: case OP_madd: case OP_maddu: case OP_msub: case OP_msubu: {
        bool sgn = op == OP_mult || op == OP_madd || op == OP_msub;
        gmov(t, RAX, d->rs);
        int c = gsrc(t, d->rt, RCX);
        op_r(e, 0, 0xF7, 1, sgn ? 5 : 4, c); /* (i)mul c: edx:eax */
        if (op == OP_mult || op == OP_multu) {
            stf(e, OFF(lo), RAX);
            stf(e, OFF(hi), RDX);
        } else if (op == OP_madd || op == OP_maddu) {
            alu_mf_r(e, A_ADD, OFF(lo), RAX);
            alu_mf_r(e, A_ADC, OFF(hi), RDX);
        } else {
            alu_mf_r(e, A_SUB, OFF(lo), RAX);
            alu_mf_r(e, A_SBB, OFF(hi), RDX);
        }
        return true;
    }
    case OP_mul: {
        unsigned a = d->rs, b = d->rt;
        int v = gdst(t, d->rd, RAX);
        if (v != RAX && a != b && is_cached(t, b) && t->hr[b] == v) {
            a = d->rt; /* rd = rs * rd: multiply rd in place */
            b = d->rs;
        }
        gmov(t, v, a);
        if (b == 0)
            mov_ri(e, v, 0);
        else if (is_cached(t, b))
            op_r(e, 0, 0x0FAF, 2, v, t->hr[b]); /* imul v, b */
        else
            op_m(e, 0, 0x0FAF, 2, v, RBX, GR(b));
        gput(t, d->rd, v);
        return true;
    }
    case OP_div: case OP_divu: {
        gmov(t, RCX, d->rt);
        op_r(e, 0, 0x85, 1, RCX, RCX);
        uint8_t *z = jcc(e, CC_E);
        gmov(t, RAX, d->rs);
        uint8_t *ovf = NULL, *ovf2 = NULL;
        if (op == OP_div) {
            alu_ri(e, A_CMP, RCX, 0xFFFFFFFFu);
            ovf = jcc(e, CC_NE);
            alu_ri(e, A_CMP, RAX, 0x80000000u);
            ovf2 = jcc(e, CC_NE);
            /* INT32_MIN / -1: lo = a, hi = 0 */
            stf(e, OFF(lo), RAX);
            stf_imm(e, OFF(hi), 0);
            uint8_t *done = jmp32(e);
            patch(e, ovf, e->p);
            patch(e, ovf2, e->p);
            b1(e, 0x99); /* cdq */
            op_r(e, 0, 0xF7, 1, 7, RCX); /* idiv ecx */
            stf(e, OFF(lo), RAX);
            stf(e, OFF(hi), RDX);
            patch(e, done, e->p);
        } else {
            op_r(e, 0, 0x31, 1, RDX, RDX);
            op_r(e, 0, 0xF7, 1, 6, RCX); /* div ecx */
            stf(e, OFF(lo), RAX);
            stf(e, OFF(hi), RDX);
        }
        patch(e, z, e->p);
        return true;
    }
    case OP_add: case OP_sub: case OP_addi: {
        /* into eax: the destination keeps its value on overflow */
        gmov(t, RAX, d->rs);
        if (op == OP_addi)
            alu_ri(e, A_ADD, RAX, d->imm);
        else
            galu(t, op == OP_add ? A_ADD : A_SUB, RAX, d->rt);
        add_stub(t, S_RAISE, jcc(e, CC_O), NULL, kinfo, EXC_OV);
        gput(t, op == OP_addi ? d->rt : d->rd, RAX);
        return true;
    }
    case OP_addu: alu3(t, A_ADD, d->rd, d->rs, d->rt, true); return true;
    case OP_subu: alu3(t, A_SUB, d->rd, d->rs, d->rt, false); return true;
    case OP_and: alu3(t, A_AND, d->rd, d->rs, d->rt, true); return true;
    case OP_or: alu3(t, A_OR, d->rd, d->rs, d->rt, true); return true;
    case OP_xor: alu3(t, A_XOR, d->rd, d->rs, d->rt, true); return true;
    case OP_nor:
        alu3(t, A_OR, d->rd, d->rs, d->rt, true);
        if (is_cached(t, d->rd))
            op_r(e, 0, 0xF7, 1, 2, t->hr[d->rd]); /* not */
        else
            op_m(e, 0, 0xF7, 1, 2, RBX, GR(d->rd)); /* not dword [rd] */
        return true;
    case OP_slt: case OP_sltu:
        emit_set_lt(t, op == OP_slt ? CC_L : CC_B, d->rd, d->rs, d->rt, 0);
        return true;
    case OP_slti: case OP_sltiu:
        emit_set_lt(t, op == OP_slti ? CC_L : CC_B, d->rt, d->rs, -1, d->imm);
        return true;
    case OP_tge: case OP_tgeu: case OP_tlt: case OP_tltu: case OP_teq: case OP_tne: {
        static const int cc[] = {CC_GE, CC_AE, CC_L, CC_B, CC_E, CC_NE};
        int a = gsrc(t, d->rs, RAX);
        galu(t, A_CMP, a, d->rt);
        add_stub(t, S_RAISE, jcc(e, cc[op - OP_tge]), NULL, kinfo, EXC_TR);
        return true;
    }
    case OP_move:
        if (is_cached(t, d->rd))
            gput(t, d->rd, gsrc(t, d->rs, RAX));
        else
            st(e, d->rd, gsrc(t, d->rs, RAX));
        return true;
    case OP_addiu: alui(t, A_ADD, d->rt, d->rs, d->imm); return true;
    case OP_andi: alui(t, A_AND, d->rt, d->rs, d->imm); return true;
    case OP_ori: alui(t, A_OR, d->rt, d->rs, d->imm); return true;
    case OP_xori: alui(t, A_XOR, d->rt, d->rs, d->imm); return true;
    case OP_li: case OP_lui:
        if (is_cached(t, d->rt)) {
            mov_ri(e, t->hr[d->rt], d->imm);
            t->dirty |= 1u << d->rt;
        } else {
            stf_imm(e, GR(d->rt), d->imm);
        }
        return true;
    case OP_clz: case OP_clo:
        gmov(t, RAX, d->rs);
        if (op == OP_clo)
            op_r(e, 0, 0xF7, 1, 2, RAX);
        op_r(e, 0, 0x0FBD, 2, RCX, RAX); /* bsr ecx, eax (ZF: eax == 0) */
        mov_ri(e, RDX, 63);              /* mov: flags kept (not xor) */
        cmov(e, CC_E, RCX, RDX);
        alu_ri(e, A_XOR, RCX, 31);
        gput(t, d->rd, RCX);
        return true;
    case OP_ext: {
        int v = gdst(t, d->rt, RAX);
        gmov(t, v, d->rs);
        if (d->sa)
            sh_ri(e, 5, v, d->sa);
        alu_ri(e, A_AND, v, d->imm);
        gput(t, d->rt, v);
        return true;
    }
    case OP_ins:
        gmov(t, RAX, d->rs);
        if (d->sa)
            sh_ri(e, 4, RAX, d->sa);
        alu_ri(e, A_AND, RAX, d->imm);
        gmov(t, RCX, d->rt);
        alu_ri(e, A_AND, RCX, ~d->imm);
        alu_rr(e, A_OR, RAX, RCX);
        gput(t, d->rd, RAX);
        return true;
    case OP_wsbh:
        gmov(t, RAX, d->rt);
        mov_rr(e, RCX, RAX);
        alu_ri(e, A_AND, RAX, 0x00FF00FFu);
        sh_ri(e, 4, RAX, 8);
        sh_ri(e, 5, RCX, 8);
        alu_ri(e, A_AND, RCX, 0x00FF00FFu);
        alu_rr(e, A_OR, RAX, RCX);
        gput(t, d->rd, RAX);
        return true;
    case OP_seb: case OP_seh: {
        gmov(t, RCX, d->rt);
        int v = gdst(t, d->rd, RAX);
        op_r(e, 0, op == OP_seb ? 0x0FBE : 0x0FBF, 2, v, RCX);
        gput(t, d->rd, v);
        return true;
    }
    case OP_lb: case OP_lbu: case OP_lh: case OP_lhu: case OP_lw: case OP_lwl: case OP_lwr:
    case OP_sb: case OP_sh: case OP_sw: case OP_swl: case OP_swr:
        jit_emit_mem(t, op, d, kinfo);
        return true;
    case OP_mfc0: /* helper calls: exception entry and exit code stays here */
        emit_helper_call(t, (const void *)jit_h_mfc0, kinfo,
                         (uint32_t)d->rt | (uint32_t)d->rd << 8 | (uint32_t)d->sa << 16, d->rt);
        return true;
    case OP_mtc0: case OP_mtc2:
        emit_helper_call(t, op == OP_mtc0 ? (const void *)jit_h_mtc0 : (const void *)jit_h_mtc2,
                         kinfo, (uint32_t)d->rt | (uint32_t)d->rd << 8 | (uint32_t)d->sa << 16,
                         0);
        return true;
    case OP_di: case OP_ei: /* Status.IE */
        emit_helper_call(t, (const void *)jit_h_diei, kinfo,
                         (uint32_t)d->rt | (op == OP_ei ? 1u << 8 : 0), d->rt);
        return true;
    case OP_ll: case OP_sc: {
        unsigned dst = op == OP_ll ? d->rt : d->rd;
        gmov(t, RAX, d->rs);
        if (d->imm)
            alu_ri(e, A_ADD, RAX, d->imm);
        writeback(t, t->dirty);
        mov_rr(e, RSI, RAX);
        emit_self(t, RCX);
        op_r(e, 1, 0x89, 1, RBX, RDI); /* mov rdi, rbx */
        mov_ri(e, RDX, kinfo);
        mov_ri(e, RCX, (uint32_t)op | dst << 8 | (uint32_t)d->rt << 16);
        call_abs(e, (const void *)jit_h_llsc);
        op_r(e, 0, 0x85, 1, RAX, RAX);
        patch(e, jcc(e, CC_NE), t->exit);
        reload(t);
        if (is_cached(t, dst))
            t->dirty |= 1u << dst;
        return true;
    }
    default:
        return false; /* see op_translated */
    }
}

/* ---- a region's blocks */

/* Set the context of node ni (for emit_self, PCOFF and edges). */
static void set_node(tctx *t, unsigned ni)
{
    t->zf_p = NULL;
    t->rax_p = NULL;
    t->cur = ni;
    t->idx0 = t->nd[ni].idx;
    t->n = t->nd[ni].n;
}

static void emit_stubs(tctx *t)
{
    em *e = &t->e;
    for (unsigned i = 0; i < t->ns; i++) {
        stub *s = &t->st[i];
        set_node(t, s->node);
        t->dirty = s->dirty;
        patch(e, s->from, e->p);
        switch (s->kind) {
        case S_RAISE:
            emit_raise(t, s->kinfo, s->arg);
            break;
        case S_LOAD:
        case S_STORE:
            writeback(t, t->dirty);
            mov_rr(e, RSI, RAX);
            emit_self(t, RCX);
            op_r(e, 1, 0x89, 1, RBX, RDI); /* mov rdi, rbx */
            mov_ri(e, RDX, s->kinfo);
            mov_ri(e, RCX, s->arg);
            call_abs(e, s->kind == S_LOAD ? (const void *)jit_h_load : (const void *)jit_h_store);
            op_r(e, 0, 0x85, 1, RAX, RAX);
            patch(e, jcc(e, CC_NE), t->exit);
            reload(t);
            patch(e, jmp32(e), s->back);
            break;
        case S_NT: /* branch likely not taken */
            jit_edge(t, PCOFF(s->kinfo) + 8, s->kinfo + 1);
            break;
        case S_SPAN: { /* a group's span, each access probing on its own */
            const node *nd = &t->nd[s->node];
            for (int j = 0; j < 2; j++)
                patch(e, s->from2[j], e->p);
            for (uint32_t k = s->kinfo; k <= s->arg; k++) {
                dinsn d;
                bool ends;
                int op = tdecode(t, nd->idx + k, &d);
                jit_emit_insn(t, op, &d, k, false, &ends);
            }
            patch(e, jmp32(e), s->back);
            break;
        }
        case S_FAIL: /* the budget does not cover the block: leave at it */
            JIT_STAT(e, D_REGION_BUDGET);
            rbp_op(e, A_ADD, t->n);
            writeback(t, t->dirty);
            lea_pc(e, RAX, PCOFF(0));
            stf(e, OFF(pc), RAX);
            mov_ri(e, RAX, JIT_NORMAL);
            patch(e, jmp32(e), t->exit);
            break;
        }
    }
}

/* Internal entry of node ni: charge its length, or leave at it. */
static void emit_charge(tctx *t, unsigned ni)
{
    em *e = &t->e;
    set_node(t, ni);
    t->dirty = t->nd[ni].din;
    t->nd[ni].label = e->p;
    rbp_op(e, A_SUB, t->n);
    add_stub(t, S_FAIL, jcc(e, CC_L), NULL, 0, 0);
}

/* The body of node ni: its translated words, then its exits. */
static void emit_body(tctx *t, unsigned ni)
{
    em *e = &t->e;
    node *nd = &t->nd[ni];
    set_node(t, ni);
    t->dirty = nd->din;
    t->lj_after = NULL;
    for (uint32_t k = 0; k < nd->kend; k++) {
        dinsn d;
        bool ends;
        int op = tdecode(t, nd->idx + k, &d);
        if (op_has(op, F_BRANCH)) {
            dinsn ds;
            int dop = tdecode(t, nd->idx + k + 1, &ds);
            if (!jit_emit_branch(t, op, &d, dop, &ds, k))
                t->bad = true;
            return;
        }
        int32_t lo, hi;
        uint32_t k1 = jit_plan_group(t, nd, k, &lo, &hi);
        if (k1 > k) {
            jit_emit_group(t, nd, k, k1, lo, hi);
            k = k1;
            continue;
        }
        if (!jit_emit_insn(t, op, &d, k, false, &ends)) {
            t->bad = true;
            return;
        }
        if (ends)
            return;
    }
    writeback(t, t->dirty);
    if (nd->kend == nd->n) { /* ran to the page end */
        JIT_STAT(e, X_PAGEEND);
        lea_pc(e, RAX, PCOFF(nd->n));
        jit_end_block(t, nd->n);
    } else {
        ret_code(t, (nd->kend << 2) | JIT_CONT);
    }
}

/* ---- the translation of a region */

/* TSAR_EMU_JIT_DUMP=dir: each region's host code to dir/<host address>-<page
 * offset of its entry>.bin, for objdump -D -b binary -m i386:x86-64
 * --adjust-vma=<host address>. */
static void dump_region(uint32_t idx, const uint8_t *start, const uint8_t *end)
{
    static const char *dir;
    static bool checked;
    if (!checked) {
        dir = getenv("TSAR_EMU_JIT_DUMP");
        checked = true;
    }
    if (!dir)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%p-%03x.bin", dir, (const void *)start, idx * 4);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(start, 1, (size_t)(end - start), f);
        fclose(f);
    }
}

/* TSAR_EMU_PERF_MAP=1: name the host code for perf (perf report reads
 * /tmp/perf-<pid>.map): the fixed code (trampoline, epilogue, dispatcher)
 * and each region by the guest PC of its entry, "k:" + the loaded ELF's
 * symbol for kernel code, "u:" + the PC for user code.  A flush reuses the
 * area; the map then names a range twice (-v prints the flushes). */
static void perf_map_region(machine *m, uint32_t pc, const uint8_t *start, const uint8_t *end)
{
    static FILE *f;
    static bool checked;
    if (!checked) {
        const char *v = getenv("TSAR_EMU_PERF_MAP");
        checked = true;
        if (v && *v && strcmp(v, "0")) {
            char path[64];
            snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
            f = fopen(path, "w");
            if (f) {
                setvbuf(f, NULL, _IOFBF, 1 << 20);
                const uint8_t *b = m->jit->code;
                fprintf(f, "%lx %x jit:trampoline\n", (unsigned long)b, JIT_EXIT);
                fprintf(f, "%lx %x jit:epilogue\n", (unsigned long)(b + JIT_EXIT),
                        JIT_DISPATCH - JIT_EXIT);
                fprintf(f, "%lx %x jit:dispatcher\n", (unsigned long)(b + JIT_DISPATCH),
                        JIT_FIRST - JIT_DISPATCH);
            }
        }
    }
    if (!f)
        return;
    uint32_t off;
    const char *sym = temu_symbol((const temu *)m, pc, &off);
    if (sym)
        fprintf(f, "%lx %lx k:%s+0x%x\n", (unsigned long)start, (unsigned long)(end - start),
                sym, off);
    else
        fprintf(f, "%lx %lx %s:%08x\n", (unsigned long)start, (unsigned long)(end - start),
                pc >= 0x80000000u ? "k" : "u", pc);
    /* (written out at exit: a write per translation would be in the profile) */
}

static tctx tc; /* translation scratch (the emulator is single-threaded) */

/* Translate the region at idx (its jblock counted enough entries).
 * Returns the host code, or NULL with the entry word's handler restored. */
static const void *translate(cpu_t *c, dpage *dp, uint32_t idx);

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* After the region at idx: translate the return blocks of its calls that
 * the interpreter has entered already (they are about to be hot: every
 * return enters them) and patch their code into the region's return stack
 * pushes, which then need no lookup when they run.  Only while the code
 * area has room: a flush now would drop the region (its caller runs it). */
static void translate_returns(cpu_t *c, dpage *dp, uint32_t idx)
{
    static bool busy; /* (no returns of returns) */
    struct jit_state *j = c->m->jit;
    struct ras_patch rp[MAX_RP];
    unsigned n = tc.nrp;
    if (busy || !n || c->mk_ip) /* (a failed translation restores a handler) */
        return;
    memcpy(rp, tc.rp, n * sizeof rp[0]);
    busy = true;
    uint32_t pc0 = c->jit_pc0;
    for (unsigned i = 0; i < n; i++) {
        jblock *rb = dp->jit ? dp->jit[rp[i].idx] : NULL;
        if (!rb)
            continue;
        if (!rb->code && rp[i].idx != idx && j->used + (512u << 10) <= JIT_CODE_SIZE) {
            c->jit_pc0 = (pc0 & PAGE_MASK) + 4 * rp[i].idx; /* (names the region) */
            translate(c, dp, rp[i].idx);
            rb = dp->jit[rp[i].idx];
        }
        if (rb && rb->code) {
            uint64_t code = (uint64_t)(uintptr_t)rb->code;
            memcpy(rp[i].imm64, &code, 8);
            memcpy(rp[i].imm32, &rb->n, 4);
        }
    }
    c->jit_pc0 = pc0;
    busy = false;
}

/* Translate (and account the host time it takes, for -v and make bench). */
const void *jit_translate(cpu_t *c, dpage *dp, uint32_t idx)
{
    uint64_t t0 = now_ns();
    const void *code = translate(c, dp, idx);
    if (code)
        translate_returns(c, dp, idx);
    if (c->m->jit)
        c->m->jit->ns += now_ns() - t0;
    return code;
}

static const void *translate(cpu_t *c, dpage *dp, uint32_t idx)
{
    machine *m = c->m;
    struct jit_state *j = m->jit;
    jblock *jb = dp->jit[idx];
    tctx *t = &tc;
    em *e = &t->e;

    if (j->used + (256u << 10) > JIT_CODE_SIZE) {
        jit_flush(m); /* restores this entry's handler too */
        return NULL;
    }
    t->words = (const u32a *)dp->host;
    t->blen = dp->blen;
    t->dp = dp;
    t->pjit = dp->jit;
    t->pushes = false;
    t->nrp = 0;
    if (++t->gen == 0) { /* the stamps wrapped: forget them all */
        memset(t->stamp, 0, sizeof t->stamp);
        t->gen = 1;
    }
    if (!jit_find_region(t, dp, idx) || t->nd[0].n != jb->n) {
        dp->ops[idx].h = jb->orig_h;
        dp->jit[idx] = NULL;
        return NULL;
    }
    jit_plan_region(t);
    e->p = j->code + j->used;
    e->end = j->code + JIT_CODE_SIZE;
    e->full = false;
    t->base = j->code;
    t->ns = 0;
    t->nfx = 0;
    t->bad = false;
    t->exit = j->code + JIT_EXIT;
    t->dispatch = j->code + JIT_DISPATCH;
    uint8_t *start = e->p;

    /* external entry (the block is charged): load the cached registers */
    reload(t);
    if (t->nd[0].has_pred) {
        uint8_t *skip = jmp32(e);
        emit_charge(t, 0);
        patch(e, skip, e->p);
    }
    /* the blocks; one a block's last jump goes to is placed right after it */
    for (unsigned ni = 0;;) {
        if (ni)
            emit_charge(t, ni);
        emit_body(t, ni);
        t->nd[ni].done = true;
        int nx = -1;
        if (t->lj_after && t->lj_after == e->p && !e->full &&
            !t->nd[t->fx[t->lj_fx].node].done) {
            nx = (int)t->fx[t->lj_fx].node;
            e->p -= 5;
            t->fx[t->lj_fx].after = NULL;
        } else {
            for (unsigned i = 0; i < t->nn && nx < 0; i++)
                if (!t->nd[i].done)
                    nx = (int)i;
        }
        if (nx < 0)
            break;
        ni = (unsigned)nx;
    }
    emit_stubs(t);
    bool bad = t->bad;
    for (unsigned i = 0; i < t->nfx; i++) {
        if (t->fx[i].after && !t->nd[t->fx[i].node].label)
            bad = true; /* cannot happen: has_pred covers every branch into the region */
        patch(e, t->fx[i].after, t->nd[t->fx[i].node].label);
    }
    if (e->full || bad) {
        dp->ops[idx].h = jb->orig_h;
        dp->jit[idx] = NULL;
        if (e->full)
            jit_flush(m);
        return NULL;
    }
    dump_region(idx, start, e->p);
    perf_map_region(m, c->jit_pc0, start, e->p);
    j->used = (size_t)(e->p - j->code + 15) & ~(size_t)15;
    j->translated++;
    j->bytes += (uint64_t)(e->p - start);
    jb->code = start;
    if (t->pushes) /* return stack entries will name this page's blocks */
        dp->jc_used = 1;
    return start;
}
#endif /* JIT_HOST */
