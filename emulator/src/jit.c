// SPDX-License-Identifier: GPL-2.0
/*
 * jit.c - the translating tier (x86-64 hosts): hot blocks to host code.
 *
 * A block is what the block interpreter charges on entry (cpu.c): from an
 * entry word to the delay slot of the first branch, or to the page end.
 * Its entry word gets the handler L_jit once the block has been entered;
 * after JIT_HOT entries the block is translated (with the blocks of its
 * page on a loop through it: a region, see the translator below), and from
 * then on L_jit runs the host code whenever the interpreter has charged the
 * whole block (no stop marker inside, no pending branch).  Everything the host code
 * does is what the interpreter would do for those instructions: the same
 * software TLBs (inline probe, interpreter slow paths on a miss), the same
 * exception entry (cpu_exception with the PC, BD and cycle count of the
 * faulting instruction), the same early exits (a device access, a store
 * into code or page tables).  An instruction it does not translate ends
 * the translated prefix: the interpreter runs the rest of the block.
 *
 * Host code returns (r << 2) | kind: r instructions retired (the faulting
 * one included for an exception), kind JIT_NORMAL (c->pc is the next PC),
 * JIT_EXC (c->pc is the vector), JIT_LEAVE (leave cpu_exec, c->pc set) or
 * JIT_CONT (interpret on from word r of the block); "the block" is the one
 * named in c->jit_pc0 / c->jit_n (a region's blocks name themselves).
 *
 * Translations depend only on the words of their physical page: a store
 * into the page (code_page_store) or dropping the page drops them.  Host
 * code memory is a bump area, reclaimed as a whole (jit_flush) when full,
 * only from the interpreter (no host code is running then).
 *
 * Own emitter rather than a JIT library: the only packaged candidate,
 * asmjit, is C++ (this emulator is C, built with -std=gnu11 and no other
 * dependency than libfdt), and the code needed is ~50 x86-64 encodings.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#if defined(__x86_64__) && !defined(PAIR_HIST)
#define JIT_HOST 1
#include <sys/mman.h>
#endif

#define JIT_CODE_SIZE (32u << 20)
/* fixed code at the start of the area */
#define JIT_EXIT 64
#define JIT_DISPATCH 128
#define JIT_FIRST 1024
#define JIT_MAX_BLOCKS (1u << 17)

struct jit_state {
    uint8_t *code;      /* JIT_CODE_SIZE bytes, RWX */
    size_t used;
    jblock *blocks;     /* JIT_MAX_BLOCKS */
    unsigned nblocks;
    uint64_t translated, flushes, bytes, links, ns;
};

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
static void jit_flush(machine *m)
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

/* ------------------------------------------------------------ emitter */

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };
enum { CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A, CC_S, CC_NS,
       CC_L = 0xC, CC_GE, CC_LE, CC_G };

typedef struct em {
    uint8_t *p, *end;
    bool full;
} em;

static void b1(em *e, unsigned v)
{
    if (e->p < e->end)
        *e->p++ = (uint8_t)v;
    else
        e->full = true;
}

static void d32(em *e, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b1(e, v >> (8 * i));
}

static void rexb(em *e, int w, int r, int x, int b)
{
    unsigned v = 0x40u | (w ? 8u : 0) | ((r & 8) ? 4u : 0) | ((x & 8) ? 2u : 0) | ((b & 8) ? 1u : 0);
    if (v != 0x40)
        b1(e, v);
}

/* opcode bytes with a memory operand [base + disp] */
static void op_m(em *e, int w, unsigned opc, int nopc, int reg, int base, int32_t disp)
{
    rexb(e, w, reg, 0, base);
    for (int i = nopc - 1; i >= 0; i--)
        b1(e, opc >> (8 * i));
    unsigned mod = (disp == 0 && (base & 7) != RBP) ? 0 : (disp >= -128 && disp < 128) ? 1 : 2;
    b1(e, (mod << 6) | ((unsigned)(reg & 7) << 3) | (unsigned)(base & 7));
    if ((base & 7) == RSP)
        b1(e, 0x24);
    if (mod == 1)
        b1(e, (unsigned)disp);
    else if (mod == 2)
        d32(e, (uint32_t)disp);
}

/* [base + index + disp8] (index never rsp) */
static void op_mi(em *e, int w, unsigned opc, int nopc, int reg, int base, int index, int disp8)
{
    rexb(e, w, reg, index, base);
    for (int i = nopc - 1; i >= 0; i--)
        b1(e, opc >> (8 * i));
    unsigned mod = (disp8 == 0 && (base & 7) != RBP) ? 0 : 1;
    b1(e, (mod << 6) | ((unsigned)(reg & 7) << 3) | 4u);
    b1(e, ((unsigned)(index & 7) << 3) | (unsigned)(base & 7));
    if (mod == 1)
        b1(e, (unsigned)disp8);
}

/* register-register: rm = destination for the 01/09/.. forms */
static void op_r(em *e, int w, unsigned opc, int nopc, int reg, int rm)
{
    rexb(e, w, reg, 0, rm);
    for (int i = nopc - 1; i >= 0; i--)
        b1(e, opc >> (8 * i));
    b1(e, 0xC0u | ((unsigned)(reg & 7) << 3) | (unsigned)(rm & 7));
}

#define GR(i) ((int32_t)(offsetof(cpu_t, r) + 4u * (unsigned)(i)))
#define OFF(f) ((int32_t)offsetof(cpu_t, f))

static void ld(em *e, int reg, int gr)
{
    if (gr == 0)
        op_r(e, 0, 0x31, 1, reg, reg); /* xor reg, reg */
    else
        op_m(e, 0, 0x8B, 1, reg, RBX, GR(gr));
}
static void st(em *e, int gr, int reg) { op_m(e, 0, 0x89, 1, reg, RBX, GR(gr)); }
static void ldf(em *e, int reg, int32_t off) { op_m(e, 0, 0x8B, 1, reg, RBX, off); }
static void stf(em *e, int32_t off, int reg) { op_m(e, 0, 0x89, 1, reg, RBX, off); }
static void stf_imm(em *e, int32_t off, uint32_t v)
{
    op_m(e, 0, 0xC7, 1, 0, RBX, off);
    d32(e, v);
}
static void mov_ri(em *e, int reg, uint32_t v)
{
    if (v == 0) {
        op_r(e, 0, 0x31, 1, reg, reg);
        return;
    }
    rexb(e, 0, 0, 0, reg);
    b1(e, 0xB8u + (unsigned)(reg & 7));
    d32(e, v);
}
static void mov_rr(em *e, int dst, int src) { op_r(e, 0, 0x89, 1, src, dst); }
/* ALU group 1: ext 0 add, 1 or, 2 adc, 3 sbb, 4 and, 5 sub, 6 xor, 7 cmp */
enum { A_ADD, A_OR, A_ADC, A_SBB, A_AND, A_SUB, A_XOR, A_CMP };
static void alu_rr(em *e, int ext, int dst, int src) { op_r(e, 0, (unsigned)(ext << 3) | 1u, 1, src, dst); }
static void alu_rm(em *e, int ext, int dst, int gr)
{
    if (gr == 0) { /* $0 as operand */
        op_r(e, 0, 0x31, 1, RSI, RSI);
        alu_rr(e, ext, dst, RSI);
        return;
    }
    op_m(e, 0, (unsigned)(ext << 3) | 3u, 1, dst, RBX, GR(gr));
}
static void alu_ri(em *e, int ext, int dst, uint32_t imm)
{
    if ((int32_t)imm >= -128 && (int32_t)imm < 128) {
        op_r(e, 0, 0x83, 1, ext, dst);
        b1(e, imm);
    } else {
        op_r(e, 0, 0x81, 1, ext, dst);
        d32(e, imm);
    }
}
static void alu_mf_r(em *e, int ext, int32_t off, int src) /* [rbx+off] op= src */
{
    op_m(e, 0, (unsigned)(ext << 3) | 1u, 1, src, RBX, off);
}
/* shifts: ext 0 rol, 1 ror, 4 shl, 5 shr, 7 sar */
static void sh_ri(em *e, int ext, int reg, unsigned n)
{
    op_r(e, 0, 0xC1, 1, ext, reg);
    b1(e, n & 31);
}
static void sh_rcl(em *e, int ext, int reg) { op_r(e, 0, 0xD3, 1, ext, reg); }
static void cmov(em *e, int cc, int dst, int src) { op_r(e, 0, 0x0F40u | (unsigned)cc, 2, dst, src); }
static void lea_pc(em *e, int reg, uint32_t off) /* reg = r14d + off (32-bit) */
{
    op_m(e, 0, 0x8D, 1, reg, R14, (int32_t)off);
}
static uint8_t *jcc(em *e, int cc)
{
    b1(e, 0x0F);
    b1(e, 0x80u + (unsigned)cc);
    d32(e, 0);
    return e->p;
}
static uint8_t *jmp32(em *e)
{
    b1(e, 0xE9);
    d32(e, 0);
    return e->p;
}
static void patch(em *e, uint8_t *after, uint8_t *target)
{
    if (!after || e->full)
        return;
    int32_t rel = (int32_t)(target - after);
    memcpy(after - 4, &rel, 4);
}
static void call_abs(em *e, const void *fn)
{
    b1(e, 0x48);
    b1(e, 0xB8); /* mov rax, imm64 */
    uint64_t v = (uint64_t)(uintptr_t)fn;
    d32(e, (uint32_t)v);
    d32(e, (uint32_t)(v >> 32));
    b1(e, 0xFF);
    b1(e, 0xD0); /* call rax */
}

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

static uint32_t h_raise(cpu_t *c, uint32_t kinfo, uint32_t code)
{
    uint32_t k = hsync(c, kinfo);
    cpu_exception(c, (int)(code & 0xFF), (int)(code >> 8));
    return ((k + 1) << 2) | JIT_EXC;
}

/* spec = op | dst << 8 | src << 16 (src: rt of lwl/lwr, the merged value) */
static uint32_t h_load(cpu_t *c, uint32_t va, uint32_t kinfo, uint32_t spec)
{
    uint32_t k = hsync(c, kinfo), v;
    unsigned op = spec & 0xFF, dst = (spec >> 8) & 0xFF, src = spec >> 16;
    int size = op == OP_lb || op == OP_lbu ? 1 : op == OP_lh || op == OP_lhu ? 2 : 4;
    uint32_t a = op == OP_lwl || op == OP_lwr ? va & ~3u : va;
    if (!mem_load_slow(c, a, size, &v))
        return ((k + 1) << 2) | JIT_EXC;
    switch (op) {
    case OP_lb: v = (uint32_t)(int32_t)(int8_t)v; break;
    case OP_lbu: v = (uint8_t)v; break;
    case OP_lh: v = (uint32_t)(int32_t)(int16_t)v; break;
    case OP_lhu: v = (uint16_t)v; break;
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

static uint32_t h_store(cpu_t *c, uint32_t va, uint32_t kinfo, uint32_t spec)
{
    uint32_t k = hsync(c, kinfo);
    unsigned op = spec & 0xFF, src = spec >> 16;
    uint32_t val = c->r[src], b = va & 3;
    bool ok;
    switch (op) {
    case OP_sb: ok = mem_store_slow(c, va, 1, val); break;
    case OP_sh: ok = mem_store_slow(c, va, 2, val); break;
    case OP_sw: ok = mem_store_slow(c, va, 4, val); break;
    case OP_swl: ok = mem_store_be(c, va & ~3u, val >> ((3 - b) * 8), 0xFu >> (3 - b), va); break;
    default: ok = mem_store_be(c, va & ~3u, val << (b * 8), (0xFu << b) & 0xFu, va); break;
    }
    if (!ok)
        return ((k + 1) << 2) | JIT_EXC;
    return hdone(c, kinfo);
}

static uint32_t h_llsc(cpu_t *c, uint32_t va, uint32_t kinfo, uint32_t spec)
{
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

/* ------------------------------------------------------------ translator */

/*
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
#define MAX_NODES 32
#define REGION_WORDS 512 /* words translated per region (the entry block may exceed it) */
#define NCACHE 6
static const int cache_regs[NCACHE] = {RSI, RDI, R8, R9, R10, R11};

/* out-of-line code, emitted after the blocks */
enum { S_RAISE, S_LOAD, S_STORE, S_NT, S_FAIL, S_SPAN };
typedef struct stub {
    int kind;
    uint8_t *from;  /* end of the jcc to patch */
    uint8_t *back;  /* where to continue (loads/stores) */
    uint32_t kinfo, arg;
    uint32_t dirty; /* cached registers to write back first */
    unsigned node;  /* the block it belongs to */
    uint8_t *from2[2]; /* more jumps to it (S_SPAN) */
} stub;

typedef struct node {
    uint32_t idx, n;     /* first word (page index), block length */
    uint32_t kend;       /* words translated (then: the interpreter) */
    uint32_t toff[2];    /* static in-page successors (page offsets) */
    unsigned ntarg;
    uint32_t writes;     /* guest registers it writes (bit mask) */
    uint32_t din;        /* cached registers possibly dirty on entry */
    bool has_pred;       /* a branch of the region goes to it */
    bool done;           /* emitted */
    uint16_t uses[32];   /* reads + writes per guest register */
    uint8_t *label;      /* internal entry: charge, then the body */
} node;

#define MAX_STUBS (3 * DPAGE_N + 2 * MAX_NODES)
#define MAX_FIX (4 * MAX_NODES)

typedef struct tctx {
    em e;
    const u32a *words;
    uint32_t idx0;     /* first word of the block being emitted */
    uint32_t n;        /* its length */
    unsigned cur;      /* its node */
    stub st[MAX_STUBS];
    unsigned ns;
    uint8_t *exit;     /* common epilogue (eax = result) */
    uint8_t *dispatch; /* block end (eax = next PC, edx = refund) */
    uint8_t *base;     /* the code area (sites are named by offset) */
    node nd[MAX_NODES];
    unsigned nn;
    int8_t at[DPAGE_N]; /* page index -> node, or -1 */
    struct { uint8_t *after; unsigned node; } fx[MAX_FIX];
    unsigned nfx;
    uint8_t *lj_after;  /* the last jmp to a node: dropped when that node follows */
    unsigned lj_fx;
    int8_t hr[33];      /* guest register -> host register, or -1 */
    uint32_t cached;    /* guest registers held in host registers */
    uint32_t dirty;     /* of those, the ones possibly written since loaded */
    bool bad;           /* emit_insn refused a word scan_node accepted */
    /* the flags describe guest register zf_gr as of zf_p (the end of the
     * op that set them; OF and CF clear too when zf_logic) */
    uint8_t *zf_p;
    unsigned zf_gr;
    bool zf_logic;
    /* eax holds uncached guest register rax_gr, just stored, as of rax_p */
    uint8_t *rax_p;
    unsigned rax_gr;
    /* the page's words decoded so far in this translation (stamp == gen) */
    uint32_t gen, stamp[DPAGE_N];
    int8_t dop[DPAGE_N];
    dinsn dd[DPAGE_N];
    const uint32_t *blen; /* the page's block lengths (BLEN_UNKNOWN: not known) */
} tctx;

_Static_assert(OP_COUNT < 128, "tctx.dop holds operation numbers in int8_t");

/* Decode word i of the page (once per translation). */
static int tdecode(tctx *t, uint32_t i, dinsn *d)
{
    if (t->stamp[i] != t->gen) {
        t->dop[i] = (int8_t)decode_insn(t->words[i], &t->dd[i]);
        t->stamp[i] = t->gen;
    }
    *d = t->dd[i];
    return t->dop[i];
}

static void add_stub(tctx *t, int kind, uint8_t *from, uint8_t *back, uint32_t kinfo, uint32_t arg)
{
    if (t->ns >= MAX_STUBS) {
        t->e.full = true;
        return;
    }
    t->st[t->ns++] = (stub){kind, from, back, kinfo, arg, t->dirty, t->cur, {NULL, NULL}};
}

/* PC of word k of the block, relative to the page's virtual base (r14) */
#define PCOFF(k) (4u * (t->idx0 + (k)))

/* ---- guest registers: cached in a host register, or in cpu_t */

static bool is_cached(const tctx *t, unsigned gr) { return gr && gr < 32 && t->hr[gr] >= 0; }

/* A register holding guest register gr: its host register, or scratch
 * loaded with it. */
static bool in_rax(const tctx *t, unsigned gr)
{
    return gr && t->rax_p == t->e.p && t->rax_gr == gr;
}

/* reg = guest register gr */
static void gmov(tctx *t, int reg, unsigned gr)
{
    if (is_cached(t, gr)) {
        if (t->hr[gr] != reg)
            mov_rr(&t->e, reg, t->hr[gr]);
    } else if (in_rax(t, gr)) { /* the op just before stored it from eax */
        if (reg != RAX)
            mov_rr(&t->e, reg, RAX);
    } else {
        ld(&t->e, reg, (int)gr);
    }
}

static int gsrc(tctx *t, unsigned gr, int scratch)
{
    if (is_cached(t, gr))
        return t->hr[gr];
    gmov(t, scratch, gr);
    return scratch;
}

/* Where to compute a result for gr: its host register, or scratch. */
static int gdst(tctx *t, unsigned gr, int scratch)
{
    return is_cached(t, gr) ? t->hr[gr] : scratch;
}

/* guest register gr = reg (32, the $0 sink, is never read: dropped) */
static void gput(tctx *t, unsigned gr, int reg)
{
    if (gr == 0 || gr >= 32)
        return;
    if (is_cached(t, gr)) {
        if (t->hr[gr] != reg)
            mov_rr(&t->e, t->hr[gr], reg);
        t->dirty |= 1u << gr;
    } else {
        st(&t->e, (int)gr, reg);
        if (reg == RAX) {
            t->rax_p = t->e.p;
            t->rax_gr = gr;
        }
    }
}

/* reg op= guest register gr */
static void galu(tctx *t, int ext, int reg, unsigned gr)
{
    if (gr == 0)
        alu_ri(&t->e, ext, reg, 0);
    else if (is_cached(t, gr))
        alu_rr(&t->e, ext, reg, t->hr[gr]);
    else if (in_rax(t, gr))
        alu_rr(&t->e, ext, reg, RAX);
    else
        alu_rm(&t->e, ext, reg, (int)gr);
}

static void writeback(tctx *t, uint32_t mask)
{
    mask &= t->cached;
    for (unsigned r = 1; r < 32; r++)
        if (mask >> r & 1)
            st(&t->e, (int)r, t->hr[r]);
}

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

/* setcc into any register's low byte (a REX prefix makes 4..7 sil/dil) */
static void setcc_r(em *e, int cc, int reg)
{
    if (reg >= 4)
        b1(e, reg >= 8 ? 0x41 : 0x40);
    b1(e, 0x0F);
    b1(e, 0x90u | (unsigned)cc);
    b1(e, 0xC0u | (unsigned)(reg & 7));
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

/* rbp (the budget) op= v */
static void rbp_op(em *e, int ext, uint32_t v)
{
    if (v < 128) {
        op_r(e, 1, 0x83, 1, ext, RBP);
        b1(e, v);
    } else {
        op_r(e, 1, 0x81, 1, ext, RBP);
        d32(e, v);
    }
}

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
static void end_block(tctx *t, uint32_t r)
{
    mov_ri(&t->e, RDX, t->n - r); /* refund: the instructions not run */
    patch(&t->e, jmp32(&t->e), t->dispatch);
}

static uint32_t h_link(cpu_t *c, uint32_t site_off, uint32_t tpc, uint32_t rinfo);

/* A link site, once linked: sub rbp, need; jge target; add rbp, need. */
#define SITE_LEN 20

/* The block ends with r retired at the in-page target toff (relative to
 * the page's VA), outside the region: a link site.  It starts as a jmp to
 * the unlinked path, which asks h_link to turn it into a charge and a jump
 * to the target's translation (once there is one), and meanwhile takes the
 * generic path, the dispatcher, which follows the site. */
static void exit_static(tctx *t, uint32_t toff, uint32_t r)
{
    em *e = &t->e;
    if (toff >= PAGE_SIZE || (toff & 3)) {
        lea_pc(e, RAX, toff);
        end_block(t, r);
        return;
    }
    uint8_t *site = e->p;
    uint8_t *to_unlinked = jmp32(e);
    while (e->p < site + SITE_LEN && !e->full)
        b1(e, 0xCC);
    uint8_t *generic = e->p;
    lea_pc(e, RAX, toff);
    end_block(t, r);
    patch(e, to_unlinked, e->p);
    /* unlinked: once the target has a translation, h_link(c, site, target
     * PC, r | refund << 16); then generic */
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
    call_abs(e, (const void *)h_link);
    patch(e, g1, e->p);
    patch(e, g2, e->p);
    patch(e, jmp32(e), generic);
}

static int node_at(const tctx *t, uint32_t toff)
{
    return toff < PAGE_SIZE && !(toff & 3) ? t->at[toff >> 2] : -1;
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
static void edge(tctx *t, uint32_t toff, uint32_t r)
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

/* Guest-visible raise of `code` (| ce << 8) by word k. */
static void emit_raise(tctx *t, uint32_t kinfo, uint32_t code)
{
    writeback(t, t->dirty);
    emit_self(t, RAX);
    op_r(&t->e, 1, 0x89, 1, RBX, RDI); /* mov rdi, rbx */
    mov_ri(&t->e, RSI, kinfo);
    mov_ri(&t->e, RDX, code);
    call_abs(&t->e, (const void *)h_raise);
    patch(&t->e, jmp32(&t->e), t->exit);
}

static bool is_branch_op(int op)
{
    switch (op) {
    case OP_bltz: case OP_bgez: case OP_bltzl: case OP_bgezl: case OP_bltzal:
    case OP_bgezal: case OP_bltzall: case OP_bgezall: case OP_j: case OP_jal:
    case OP_beq: case OP_bne: case OP_blez: case OP_bgtz: case OP_beql:
    case OP_bnel: case OP_blezl: case OP_bgtzl: case OP_b: case OP_jr: case OP_jalr:
        return true;
    default:
        return false;
    }
}

/* Operations emit_insn leaves to the interpreter (the translation ends). */
static bool op_translated(int op)
{
    switch (op) {
    case OP_mfc0: case OP_mtc0: case OP_eret: case OP_wait: case OP_di: case OP_ei:
    case OP_cop0_other: case OP_mfc2: case OP_mtc2: case OP_cop2_other: case OP_rdhwr:
    case OP_cache: case OP_decode:
        return false;
    default:
        return op < OP_beq_nop && !is_branch_op(op);
    }
}

/* Operations that always raise (the block ends with them). */
static bool op_raises(int op)
{
    return op == OP_syscall || op == OP_brk || op == OP_ri || op == OP_cpu1 ||
           op == OP_trap_quirk;
}

/* The guest registers an operation reads (up to 3, 0 = none) and writes
 * (0 = none; 32 = the $0 sink). */
static void insn_regs(int op, const dinsn *d, unsigned src[3], unsigned *dst)
{
    src[0] = src[1] = src[2] = 0;
    *dst = 0;
    switch (op) {
    case OP_sll: case OP_srl: case OP_sra: case OP_rotr: case OP_wsbh: case OP_seb:
    case OP_seh:
        src[0] = d->rt; *dst = d->rd; break;
    case OP_sllv: case OP_srlv: case OP_srav: case OP_rotrv: case OP_add: case OP_sub:
    case OP_addu: case OP_subu: case OP_and: case OP_or: case OP_xor: case OP_nor:
    case OP_slt: case OP_sltu: case OP_mul: case OP_ins: case OP_lwl: case OP_lwr:
    case OP_sc:
        src[0] = d->rs; src[1] = d->rt; *dst = d->rd; break;
    case OP_movz: case OP_movn:
        src[0] = d->rs; src[1] = d->rt; src[2] = d->rd; *dst = d->rd; break;
    case OP_mfhi: case OP_mflo:
        *dst = d->rd; break;
    case OP_mthi: case OP_mtlo: case OP_jr:
        src[0] = d->rs; break;
    case OP_mult: case OP_multu: case OP_madd: case OP_maddu: case OP_msub: case OP_msubu:
    case OP_div: case OP_divu: case OP_tge: case OP_tgeu: case OP_tlt: case OP_tltu:
    case OP_teq: case OP_tne: case OP_sb: case OP_sh: case OP_sw: case OP_swl: case OP_swr:
    case OP_beq: case OP_bne: case OP_beql: case OP_bnel:
        src[0] = d->rs; src[1] = d->rt; break;
    case OP_move: case OP_clz: case OP_clo:
        src[0] = d->rs; *dst = d->rd; break;
    case OP_addi: case OP_addiu: case OP_andi: case OP_ori: case OP_xori: case OP_slti:
    case OP_sltiu: case OP_ext: case OP_lb: case OP_lbu: case OP_lh: case OP_lhu:
    case OP_lw: case OP_ll:
        src[0] = d->rs; *dst = d->rt; break;
    case OP_li: case OP_lui:
        *dst = d->rt; break;
    case OP_bltz: case OP_bgez: case OP_bltzl: case OP_bgezl: case OP_blez: case OP_bgtz:
    case OP_blezl: case OP_bgtzl:
        src[0] = d->rs; break;
    case OP_bltzal: case OP_bgezal: case OP_bltzall: case OP_bgezall:
        src[0] = d->rs; *dst = 31; break;
    case OP_jal:
        *dst = 31; break;
    case OP_jalr:
        src[0] = d->rs; *dst = d->rd; break;
    default:
        break;
    }
}

static bool op_store(int op)
{
    return op == OP_sb || op == OP_sh || op == OP_sw || op == OP_swl || op == OP_swr;
}

/* Access size of a load or store with an inline fast path (0: none). */
static int mem_size(int op)
{
    switch (op) {
    case OP_lb: case OP_lbu: case OP_sb: return 1;
    case OP_lh: case OP_lhu: case OP_sh: return 2;
    case OP_lw: case OP_sw: return 4;
    default: return 0;
    }
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
        switch (op) {
        case OP_lb: MEMOP(0x0FBE, 2, v); break;
        case OP_lbu: MEMOP(0x0FB6, 2, v); break;
        case OP_lh: MEMOP(0x0FBF, 2, v); break;
        case OP_lhu: MEMOP(0x0FB7, 2, v); break;
        default: MEMOP(0x8B, 1, v); break;
        }
        gput(t, d->rt, v);
    }
#undef MEMOP
}

static uint32_t mem_spec(int op, const dinsn *d)
{
    if (op == OP_lwl || op == OP_lwr)
        return (uint32_t)op | (uint32_t)d->rd << 8 | (uint32_t)d->rt << 16;
    return (uint32_t)op | (uint32_t)d->rt << 8 | (uint32_t)d->rt << 16;
}

/* Memory access: eax = va, TLB probe, access; a miss calls the
 * interpreter's slow path (h_load/h_store) and comes back. */
static void emit_mem(tctx *t, int op, const dinsn *d, uint32_t kinfo)
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

static bool emit_insn(tctx *t, int op, const dinsn *d, uint32_t k, bool ds, bool *ends);

/* Operations allowed between the accesses of a group: pure, and rdx
 * untouched. */
static bool op_pure(int op);
static bool group_filler(int op)
{
    switch (op) {
    case OP_movz: case OP_movn: case OP_mult: case OP_multu: case OP_madd: case OP_maddu:
    case OP_msub: case OP_msubu: case OP_div: case OP_divu: case OP_clz: case OP_clo:
        return false;
    default:
        return op_pure(op);
    }
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
static uint32_t plan_group(tctx *t, const node *nd, uint32_t k0, int32_t *lo, int32_t *hi)
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

static void emit_group(tctx *t, const node *nd, uint32_t k0, uint32_t k1, int32_t lo, int32_t hi)
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
            emit_insn(t, op, &d, k, false, &ends);
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

/* Translate one non-branch word; false: not translated (the block ends). */
static bool emit_insn(tctx *t, int op, const dinsn *d, uint32_t k, bool ds, bool *ends)
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
        emit_mem(t, op, d, kinfo);
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
        call_abs(e, (const void *)h_llsc);
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

static bool op_likely(int op)
{
    return op == OP_beql || op == OP_bnel || op == OP_blezl || op == OP_bgtzl ||
           op == OP_bltzl || op == OP_bgezl || op == OP_bltzall || op == OP_bgezall;
}

static bool op_links(int op)
{
    return op == OP_bltzal || op == OP_bgezal || op == OP_bltzall || op == OP_bgezall;
}

static bool op_pcrel(int op)
{
    return is_branch_op(op) && op != OP_j && op != OP_jal && op != OP_jr && op != OP_jalr;
}

/* Compare for a conditional branch (sources as they are now); returns the
 * x86 condition of "taken". */
static int emit_cmp(tctx *t, int op, const dinsn *d)
{
    em *e = &t->e;
    unsigned a = d->rs;
    unsigned b = (op == OP_beq || op == OP_bne || op == OP_beql || op == OP_bnel) ? d->rt : 0;
    bool eqne = op == OP_beq || op == OP_bne || op == OP_beql || op == OP_bnel;
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
    switch (op) {
    case OP_beq: case OP_beql: return CC_E;
    case OP_bne: case OP_bnel: return CC_NE;
    case OP_bltz: case OP_bltzl: case OP_bltzal: case OP_bltzall: return CC_L;
    case OP_bgez: case OP_bgezl: case OP_bgezal: case OP_bgezall: return CC_GE;
    case OP_blez: case OP_blezl: return CC_LE;
    default: return CC_G;
    }
}

/* The link register write of bal/jal/jalr: rd = PC of word k + 8. */
static void emit_link(tctx *t, unsigned rd, uint32_t k)
{
    lea_pc(&t->e, RCX, PCOFF(k) + 8);
    gput(t, rd, RCX);
}

/* Delay-slot operations that never leave the block (no exception, no slow
 * path): the branch's condition may then be tested after them. */
static bool op_pure(int op)
{
    switch (op) {
    case OP_nop: case OP_sync: case OP_pref: case OP_sll: case OP_srl: case OP_sra:
    case OP_rotr: case OP_sllv: case OP_srlv: case OP_srav: case OP_rotrv: case OP_movz:
    case OP_movn: case OP_mfhi: case OP_mflo: case OP_mthi: case OP_mtlo: case OP_mult:
    case OP_multu: case OP_madd: case OP_maddu: case OP_msub: case OP_msubu: case OP_mul:
    case OP_div: case OP_divu: case OP_addu: case OP_subu: case OP_and: case OP_or:
    case OP_xor: case OP_nor: case OP_slt: case OP_sltu: case OP_slti: case OP_sltiu:
    case OP_move: case OP_addiu: case OP_andi: case OP_ori: case OP_xori: case OP_li:
    case OP_lui: case OP_clz: case OP_clo: case OP_ext: case OP_ins: case OP_wsbh:
    case OP_seb: case OP_seh:
        return true;
    default:
        return false;
    }
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

static bool cond_op(int op)
{
    switch (op) {
    case OP_nop: case OP_sync: case OP_pref: case OP_sll: case OP_srl: case OP_sra:
    case OP_addu: case OP_subu: case OP_and: case OP_or: case OP_xor: case OP_nor:
    case OP_addiu: case OP_andi: case OP_ori: case OP_xori: case OP_li: case OP_lui:
    case OP_move:
        return true;
    default:
        return false;
    }
}

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
    edge(t, join, k + 2);
    /* the budget does not cover a side: the branch as usual */
    patch(e, slow, e->p);
    t->dirty = dirty0;
    t->zf_p = t->rax_p = NULL;
}

/* A PC-relative branch whose slot is pure and does not write the branch's
 * sources: slot first, then the test, straight into the two successors. */
static bool emit_branch_fast(tctx *t, int op, const dinsn *d, int dop, const dinsn *ds,
                             uint32_t k)
{
    em *e = &t->e;
    if (!op_pcrel(op) || !op_pure(dop))
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
        emit_insn(t, dop, ds, k + 1, true, &ends);
        edge(t, toff, k + 2);
    } else if (op_likely(op)) {
        int cc = emit_cmp(t, op, d);
        add_stub(t, S_NT, jcc(e, cc ^ 1), NULL, k, 0);
        emit_insn(t, dop, ds, k + 1, true, &ends);
        edge(t, toff, k + 2);
    } else {
        emit_insn(t, dop, ds, k + 1, true, &ends);
        emit_branch_select(t, op, d, k);
        int cc = emit_cmp(t, op, d);
        int ni = node_at(t, toff);
        if (ni >= 0 && !(t->dirty & ~t->nd[ni].din)) {
            add_fix(t, jcc(e, cc), (unsigned)ni); /* taken: straight in */
        } else {
            uint8_t *nt = jcc(e, cc ^ 1);
            edge(t, toff, k + 2);
            patch(e, nt, e->p);
        }
        edge(t, foff, k + 2);
    }
    return true;
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
            int cc = op_links(op) ? (op == OP_bltzal || op == OP_bltzall ? CC_L : CC_GE)
                                  : emit_cmp(t, op, d);
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
    if (!emit_insn(t, dop, ds, k + 1, true, &ends))
        return false;
    if (ends)
        return true;
    if (!op_pcrel(op)) {
        writeback(t, t->dirty);
        ldf(e, RAX, OFF(jit_next));
        end_block(t, k + 2);
    } else if (op_likely(op) || op == OP_b) {
        edge(t, toff, k + 2);
    } else {
        lea_pc(e, RCX, toff);
        op_m(e, 0, 0x39, 1, RCX, RBX, OFF(jit_next)); /* cmp [next], ecx */
        uint8_t *nt = jcc(e, CC_NE);
        edge(t, toff, k + 2);
        patch(e, nt, e->p);
        edge(t, foff, k + 2);
    }
    return true;
}

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
            call_abs(e, s->kind == S_LOAD ? (const void *)h_load : (const void *)h_store);
            op_r(e, 0, 0x85, 1, RAX, RAX);
            patch(e, jcc(e, CC_NE), t->exit);
            reload(t);
            patch(e, jmp32(e), s->back);
            break;
        case S_NT: /* branch likely not taken */
            edge(t, PCOFF(s->kinfo) + 8, s->kinfo + 1);
            break;
        case S_SPAN: { /* a group's span, each access probing on its own */
            const node *nd = &t->nd[s->node];
            for (int j = 0; j < 2; j++)
                patch(e, s->from2[j], e->p);
            for (uint32_t k = s->kinfo; k <= s->arg; k++) {
                dinsn d;
                bool ends;
                int op = tdecode(t, nd->idx + k, &d);
                emit_insn(t, op, &d, k, false, &ends);
            }
            patch(e, jmp32(e), s->back);
            break;
        }
        case S_FAIL: /* the budget does not cover the block: leave at it */
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

/* ---- regions */

static void count_regs(node *nd, int op, const dinsn *d)
{
    unsigned src[3], dst;
    insn_regs(op, d, src, &dst);
    for (int i = 0; i < 3; i++)
        if (src[i] && src[i] < 32)
            nd->uses[src[i]]++;
    if (dst && dst < 32) {
        nd->uses[dst]++;
        nd->writes |= 1u << dst;
    }
}

/* Scan the block at idx as emit_node will translate it: its translated
 * length, static successors, register uses.  False: nothing to translate. */
static bool scan_node(tctx *t, node *nd, uint32_t idx)
{
    const u32a *w = t->words;
    memset(nd, 0, sizeof *nd);
    nd->idx = idx;
    nd->n = t->blen[idx] != BLEN_UNKNOWN ? t->blen[idx] : block_len(w, idx, false);
    uint32_t k = 0, n = nd->n;
    while (k < n) {
        dinsn d;
        int op = tdecode(t, idx + k, &d);
        if (is_branch_op(op)) {
            /* a slot past the block or the page, itself a branch, or not
             * translated: the interpreter runs the branch */
            if (k + 1 >= n)
                break;
            dinsn ds;
            int dop = tdecode(t, idx + k + 1, &ds);
            if (is_branch_op(dop) || !op_translated(dop))
                break;
            count_regs(nd, op, &d);
            count_regs(nd, dop, &ds);
            if (op_pcrel(op)) {
                uint32_t toff = 4 * (idx + k) + 4 + d.imm;
                if (toff < PAGE_SIZE)
                    nd->toff[nd->ntarg++] = toff;
                if (op != OP_b && 4 * (idx + k + 2) < PAGE_SIZE)
                    nd->toff[nd->ntarg++] = 4 * (idx + k + 2);
            }
            k += 2;
            break;
        }
        if (!op_translated(op))
            break;
        count_regs(nd, op, &d);
        k++;
        if (op_raises(op))
            break;
    }
    nd->kend = k;
    return k > 0;
}

/* The blocks of the region from the entry word idx (node 0 first): only
 * blocks the interpreter has entered already (they have a jblock), so that
 * paths never taken (error paths of kernel code) stay out. */
static bool find_region(tctx *t, const dpage *dp, uint32_t idx)
{
    memset(t->at, -1, sizeof t->at);
    t->nn = 0;
    if (!scan_node(t, &t->nd[0], idx))
        return false;
    t->at[idx] = 0;
    t->nn = 1;
    uint32_t words = t->nd[0].kend;
    for (unsigned q = 0; q < t->nn; q++) {
        for (unsigned i = 0; i < t->nd[q].ntarg; i++) {
            uint32_t ti = t->nd[q].toff[i] >> 2;
            if (t->at[ti] != -1 || t->nn >= MAX_NODES)
                continue;
            if (!dp->jit[ti]) {
                t->at[ti] = -2; /* not in the region: a branch there leaves it */
                continue;
            }
            node *nd = &t->nd[t->nn];
            if (!scan_node(t, nd, ti) || words + nd->kend > REGION_WORDS) {
                t->at[ti] = -2; /* not in the region: a branch there leaves it */
                continue;
            }
            words += nd->kend;
            t->at[ti] = (int8_t)t->nn++;
        }
    }
    /* Keep the blocks on a cycle through the entry (a loop it is part
     * of): straight-line code gains nothing from being translated again in
     * every region that reaches it, branches to other blocks are links. */
    uint32_t reach[MAX_NODES], back = 1; /* back: the nodes that reach node 0 */
    for (unsigned i = 0; i < t->nn; i++) {
        reach[i] = 0;
        for (unsigned k = 0; k < t->nd[i].ntarg; k++) {
            int s = node_at(t, t->nd[i].toff[k]);
            if (s >= 0)
                reach[i] |= 1u << s;
        }
    }
    for (bool ch = true; ch;) {
        ch = false;
        for (unsigned i = 0; i < t->nn; i++)
            if (!(back >> i & 1) && (reach[i] & back)) {
                back |= 1u << i;
                ch = true;
            }
    }
    unsigned nn = 0;
    for (unsigned i = 0; i < t->nn; i++) {
        t->at[t->nd[i].idx] = -2;
        if (back >> i & 1) {
            if (nn != i)
                t->nd[nn] = t->nd[i];
            nn++;
        }
    }
    t->nn = nn;
    for (unsigned i = 0; i < nn; i++)
        t->at[t->nd[i].idx] = (int8_t)i;
    return true;
}

/* Successor masks, the cached registers and the dirty sets. */
static void plan_region(tctx *t)
{
    uint32_t succ[MAX_NODES];
    for (unsigned i = 0; i < t->nn; i++) {
        succ[i] = 0;
        for (unsigned k = 0; k < t->nd[i].ntarg; k++) {
            int s = node_at(t, t->nd[i].toff[k]);
            if (s >= 0) {
                succ[i] |= 1u << s;
                t->nd[s].has_pred = true;
            }
        }
    }
    /* The registers used most; in a loop every use counts, elsewhere a
     * register needs two.  find_region keeps only blocks on a cycle through
     * the entry, so the region is a loop when some block branches back to
     * it (else it is the entry block alone). */
    bool loop = false;
    for (unsigned i = 0; i < t->nn; i++)
        loop |= succ[i] & 1;
    uint32_t score[32] = {0};
    for (unsigned i = 0; i < t->nn; i++)
        for (unsigned r = 1; r < 32; r++)
            score[r] += (loop ? 8 : 1) * t->nd[i].uses[r];
    memset(t->hr, -1, sizeof t->hr);
    t->cached = 0;
    for (int h = 0; h < NCACHE; h++) {
        unsigned best = 0;
        for (unsigned r = 1; r < 32; r++)
            if (!(t->cached >> r & 1) && score[r] >= 2 && (!best || score[r] > score[best]))
                best = r;
        if (!best)
            break;
        t->hr[best] = (int8_t)cache_regs[h];
        t->cached |= 1u << best;
    }
    /* dirty on entry: what any predecessor may have written */
    for (bool ch = true; ch;) {
        ch = false;
        for (unsigned i = 0; i < t->nn; i++) {
            uint32_t out = t->nd[i].din | (t->nd[i].writes & t->cached);
            for (unsigned j = 0; j < t->nn; j++)
                if ((succ[i] >> j & 1) && (out & ~t->nd[j].din)) {
                    t->nd[j].din |= out;
                    ch = true;
                }
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
        if (is_branch_op(op)) {
            dinsn ds;
            int dop = tdecode(t, nd->idx + k + 1, &ds);
            if (!emit_branch_fast(t, op, &d, dop, &ds, k) &&
                !emit_branch_slow(t, op, &d, dop, &ds, k))
                t->bad = true;
            return;
        }
        int32_t lo, hi;
        uint32_t k1 = plan_group(t, nd, k, &lo, &hi);
        if (k1 > k) {
            emit_group(t, nd, k, k1, lo, hi);
            k = k1;
            continue;
        }
        if (!emit_insn(t, op, &d, k, false, &ends)) {
            t->bad = true;
            return;
        }
        if (ends)
            return;
    }
    writeback(t, t->dirty);
    if (nd->kend == nd->n) { /* ran to the page end */
        lea_pc(e, RAX, PCOFF(nd->n));
        end_block(t, nd->n);
    } else {
        ret_code(t, (nd->kend << 2) | JIT_CONT);
    }
}
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
     * when it is on this page and the budget covers it, else return. */
    e.p = j->code + JIT_DISPATCH;
    e.end = j->code + JIT_FIRST;
    stf(&e, OFF(pc), RAX);
    op_r(&e, 1, 0x01, 1, RDX, RBP);   /* add rbp, rdx (refund) */
    mov_rr(&e, RCX, RAX);
    alu_rr(&e, A_XOR, RCX, R14);
    op_r(&e, 0, 0xF7, 1, 0, RCX);
    d32(&e, PAGE_MASK | 3);           /* test ecx, PAGE_MASK | 3 */
    uint8_t *o1 = jcc(&e, CC_NE);
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
    b1(&e, 0xFF); b1(&e, 0xE7);       /* jmp rdi */
    /* another page: the CPU's fetch table (filled by fetch_slow, with its
     * checks) gives its decoded page, whose translations become current */
    patch(&e, o1, e.p);
    op_r(&e, 0, 0xF7, 1, 0, RAX);
    d32(&e, 3);                       /* test eax, 3 */
    uint8_t *o5 = jcc(&e, CC_NE);
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
    b1(&e, 0xFF); b1(&e, 0xE7);       /* jmp rdi */
    patch(&e, o2, e.p);
    patch(&e, o3, e.p);
    patch(&e, o4, e.p);
    patch(&e, o5, e.p);
    patch(&e, o6, e.p);
    patch(&e, o7, e.p);
    patch(&e, o8, e.p);
    patch(&e, o9, e.p);
    patch(&e, o10, e.p);
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
static uint32_t h_link(cpu_t *c, uint32_t site_off, uint32_t tpc, uint32_t rinfo)
{
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

/* Translate (and account the host time it takes, for -v and make bench). */
const void *jit_translate(cpu_t *c, dpage *dp, uint32_t idx)
{
    uint64_t t0 = now_ns();
    const void *code = translate(c, dp, idx);
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
    if (++t->gen == 0) { /* the stamps wrapped: forget them all */
        memset(t->stamp, 0, sizeof t->stamp);
        t->gen = 1;
    }
    if (!find_region(t, dp, idx) || t->nd[0].n != jb->n) {
        dp->ops[idx].h = jb->orig_h;
        dp->jit[idx] = NULL;
        return NULL;
    }
    plan_region(t);
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
    j->used = (size_t)(e->p - j->code + 15) & ~(size_t)15;
    j->translated++;
    j->bytes += (uint64_t)(e->p - start);
    jb->code = start;
    return start;
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
