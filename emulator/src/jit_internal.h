// SPDX-License-Identifier: GPL-2.0
/*
 * jit_internal.h - what the files of the translating tier (x86-64 hosts:
 * hot blocks to host code) share.
 *
 * A block is what the block interpreter charges on entry (cpu.c): from an
 * entry word to the delay slot of the first branch, or to the page end.
 * Its entry word gets the handler L_jit once the block has been entered;
 * after JIT_HOT entries the block is translated (with the blocks of its
 * page on a loop through it: a region, see jit_translate.c), and from
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
 * The files:
 *   jit_runtime.c    entry from the interpreter (counting, entering host
 *                    code, dropping translations), the code area and its
 *                    fixed code, the helpers host code calls
 *   jit_translate.c  the translator: a region's blocks, one guest
 *                    instruction at a time
 *   jit_mem.c        loads and stores (inline TLB probe, grouped accesses)
 *   jit_branch.c     branches, block exits and links, if-conversion
 *   jit_region.c     region formation: its blocks, its cached registers
 *   jit_x86.h        the x86-64 encoder
 */
#ifndef JIT_INTERNAL_H
#define JIT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#if defined(__x86_64__) && !defined(PAIR_HIST)
#define JIT_HOST 1
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

/* Drop every translation and reclaim the code area (jit_runtime.c). */
void jit_flush(machine *m);

#ifdef JIT_HOST

#include "jit_x86.h"

/* Called from host code (jit_runtime.c). */
uint32_t jit_h_raise(cpu_t *c, uint32_t kinfo, uint32_t code);
uint32_t jit_h_mfc0(cpu_t *c, uint32_t kinfo, uint32_t spec);
uint32_t jit_h_mtc0(cpu_t *c, uint32_t kinfo, uint32_t spec);
uint32_t jit_h_mtc2(cpu_t *c, uint32_t kinfo, uint32_t spec);
uint32_t jit_h_diei(cpu_t *c, uint32_t kinfo, uint32_t spec);
uint32_t jit_h_load(cpu_t *c, uint32_t va, uint32_t kinfo, uint32_t spec);
uint32_t jit_h_store(cpu_t *c, uint32_t va, uint32_t kinfo, uint32_t spec);
uint32_t jit_h_llsc(cpu_t *c, uint32_t va, uint32_t kinfo, uint32_t spec);
uint32_t jit_h_link(cpu_t *c, uint32_t site_off, uint32_t tpc, uint32_t rinfo);

#ifdef TEMU_STATS
/* STATS=1 builds: inc qword [rbx + counter k] (where the flags are dead) */
static inline void jit_stat_inc(em *e, int k)
{
    op_m(e, 1, 0xFF, 1, 0, RBX, (int32_t)offsetof(cpu_t, st.n) + 8 * k);
}
#define JIT_STAT(e, k) jit_stat_inc(e, ST_##k)
#else
#define JIT_STAT(e, k) ((void)0)
#endif

/* A link site, once linked: sub rbp, need; jge target; add rbp, need. */
#define SITE_LEN 20

/* ---------------------------------------------------- translation context */

#define MAX_NODES 32
#define REGION_WORDS 512 /* words translated per region (the entry block may exceed it) */

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
#define MAX_RP 32
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
    bool bad;           /* jit_emit_insn refused a word scan_node accepted */
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
    dpage *dp;            /* the page */
    jblock *const *pjit;  /* its translations (dp->jit) */
    bool pushes;          /* the region pushes return stack entries */
    /* pushes whose return block had no code yet (jit_translate) */
    struct ras_patch { uint8_t *imm64, *imm32; uint32_t idx; } rp[MAX_RP];
    unsigned nrp;
} tctx;

_Static_assert(OP_COUNT < 128, "tctx.dop holds operation numbers in int8_t");

/* Decode word i of the page (once per translation). */
static inline int tdecode(tctx *t, uint32_t i, dinsn *d)
{
    if (t->stamp[i] != t->gen) {
        t->dop[i] = (int8_t)decode_insn(t->words[i], &t->dd[i]);
        t->stamp[i] = t->gen;
    }
    *d = t->dd[i];
    return t->dop[i];
}

static inline void add_stub(tctx *t, int kind, uint8_t *from, uint8_t *back, uint32_t kinfo,
                            uint32_t arg)
{
    if (t->ns >= MAX_STUBS) {
        t->e.full = true;
        return;
    }
    t->st[t->ns++] = (stub){kind, from, back, kinfo, arg, t->dirty, t->cur, {NULL, NULL}};
}

/* PC of word k of the block, relative to the page's virtual base (r14) */
#define PCOFF(k) (4u * (t->idx0 + (k)))

static inline int node_at(const tctx *t, uint32_t toff)
{
    return toff < PAGE_SIZE && !(toff & 3) ? t->at[toff >> 2] : -1;
}

/* ---- guest registers: cached in a host register, or in cpu_t */

static inline bool is_cached(const tctx *t, unsigned gr) { return gr && gr < 32 && t->hr[gr] >= 0; }

/* eax holds guest register gr: the op just before stored it from eax. */
static inline bool in_rax(const tctx *t, unsigned gr)
{
    return gr && t->rax_p == t->e.p && t->rax_gr == gr;
}

/* reg = guest register gr */
static inline void gmov(tctx *t, int reg, unsigned gr)
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

/* A register holding guest register gr: its host register, or scratch
 * loaded with it. */
static inline int gsrc(tctx *t, unsigned gr, int scratch)
{
    if (is_cached(t, gr))
        return t->hr[gr];
    gmov(t, scratch, gr);
    return scratch;
}

/* Where to compute a result for gr: its host register, or scratch. */
static inline int gdst(tctx *t, unsigned gr, int scratch)
{
    return is_cached(t, gr) ? t->hr[gr] : scratch;
}

/* guest register gr = reg (32, the $0 sink, is never read: dropped) */
static inline void gput(tctx *t, unsigned gr, int reg)
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
static inline void galu(tctx *t, int ext, int reg, unsigned gr)
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

static inline void writeback(tctx *t, uint32_t mask)
{
    mask &= t->cached;
    for (unsigned r = 1; r < 32; r++)
        if (mask >> r & 1)
            st(&t->e, (int)r, t->hr[r]);
}

/* ---- operations: their attributes are ops.def's (ops.h) */

/* Operations jit_emit_insn translates (branches: jit_emit_branch). */
static inline bool op_translated(int op) { return op_has(op, F_JIT); }

/* Delay-slot operations that never leave the block (no exception, no slow
 * path): the branch's condition may then be tested after them. */
static inline bool op_pure(int op)
{
    return (op_infos[op].flags & (F_JIT | F_RAISE | F_EXC | F_LOAD | F_STORE)) == F_JIT;
}

/* The guest registers an operation reads (up to 3, 0 = none) and writes
 * (0 = none; 32 = the $0 sink). */
static inline void insn_regs(int op, const dinsn *d, unsigned src[3], unsigned *dst)
{
    const op_info *oi = &op_infos[op];
    unsigned n = 0;
    src[0] = src[1] = src[2] = 0;
    if (oi->reads & R_RS)
        src[n++] = d->rs;
    if (oi->reads & R_RT)
        src[n++] = d->rt;
    if (oi->reads & R_RD)
        src[n++] = d->rd;
    switch (oi->writes) {
    case W_RD: case W_RMW: *dst = d->rd; break;
    case W_RT: *dst = d->rt; break;
    case W_R31: *dst = 31; break;
    default: *dst = 0; break;
    }
}

/* ---- the translator's parts */

/* jit_translate.c */
bool jit_emit_insn(tctx *t, int op, const dinsn *d, uint32_t k, bool ds, bool *ends);
void jit_end_block(tctx *t, uint32_t r);
/* jit_mem.c */
void jit_emit_mem(tctx *t, int op, const dinsn *d, uint32_t kinfo);
uint32_t jit_plan_group(tctx *t, const node *nd, uint32_t k0, int32_t *lo, int32_t *hi);
void jit_emit_group(tctx *t, const node *nd, uint32_t k0, uint32_t k1, int32_t lo, int32_t hi);
/* jit_branch.c */
void jit_edge(tctx *t, uint32_t toff, uint32_t r);
bool jit_emit_branch(tctx *t, int op, const dinsn *d, int dop, const dinsn *ds, uint32_t k);
/* jit_region.c */
bool jit_find_region(tctx *t, const dpage *dp, uint32_t idx);
void jit_plan_region(tctx *t);

#endif /* JIT_HOST */

#endif /* JIT_INTERNAL_H */
