// SPDX-License-Identifier: GPL-2.0
/*
 * jit_region.c - region formation: which blocks of the page a translation
 * takes in (jit_find_region: blocks the interpreter has entered, reached by
 * static branches, on a cycle through the entry) and its plan
 * (jit_plan_region: the guest registers that live in host registers for the
 * whole region, and the ones that may be dirty at each block's entry).
 * Both read the guest words only: scan_node reads a block as the
 * translator will translate it.
 */
#include <stdint.h>
#include <string.h>

#include "jit_internal.h"

#ifdef JIT_HOST

#define NCACHE 6
static const int cache_regs[NCACHE] = {RSI, RDI, R8, R9, R10, R11};

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

/* Scan the block at idx as emit_body will translate it: its translated
 * length, static successors, register uses.  False: nothing to translate. */
static bool scan_node(tctx *t, node *nd, uint32_t idx)
{
    const u32a *w = t->words;
    memset(nd, 0, sizeof *nd);
    nd->idx = idx;
    nd->n = t->blen[idx] != BLEN_UNKNOWN ? t->blen[idx] & ~BLEN_NOENTRY
                                         : block_len(w, idx, false);
    uint32_t k = 0, n = nd->n;
    while (k < n) {
        dinsn d;
        int op = tdecode(t, idx + k, &d);
        if (op_has(op, F_BRANCH)) {
            /* a slot past the block or the page, itself a branch, or not
             * translated: the interpreter runs the branch */
            if (k + 1 >= n)
                break;
            dinsn ds;
            int dop = tdecode(t, idx + k + 1, &ds);
            if (op_has(dop, F_BRANCH) || !op_translated(dop))
                break;
            count_regs(nd, op, &d);
            count_regs(nd, dop, &ds);
            if (op_has(op, F_PCREL)) {
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
        if (op_has(op, F_EXC)) /* the block ends with it */
            break;
    }
    nd->kend = k;
    return k > 0;
}

/* The blocks of the region from the entry word idx (node 0 first): only
 * blocks the interpreter has entered already (they have a jblock), so that
 * paths never taken (error paths of kernel code) stay out. */
bool jit_find_region(tctx *t, const dpage *dp, uint32_t idx)
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
void jit_plan_region(tctx *t)
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
     * register needs two.  jit_find_region keeps only blocks on a cycle through
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

#endif /* JIT_HOST */
