/*
 * decode.c - MIPS32 instruction word -> predecoded operation, from the
 * tables of ops.def: the operation attributes (op_infos) and the decode
 * tree (insn_lookup, also the disassembler's); block lengths.
 *
 * Conventions for the decoded fields (see cpu.c for their use):
 *  - destination registers equal to $0 are remapped to 32, a write sink, so
 *    handlers never need to re-zero $0 (or the operation becomes a nop:
 *    F_NOP0); sources are never remapped;
 *  - for read-modify-write destinations (lwl, lwr, ins, sc: W_RMW) `rt`
 *    keeps the source register and `rd` holds the (remapped) destination;
 *  - imm holds the operand ready to use: sign-extended, zero-extended,
 *    shifted (lui, branch offsets, jump targets) or a bit mask (ext, ins).
 */
#include "internal.h"

/* ---- the operation attributes */

const op_info op_infos[OP_COUNT] = {
#define OP(name, kind, flags, cond, size, reads, writes)                      \
    [OP_##name] = {#name, K_##kind | (flags), cond, size, reads, writes, {-1, -1, -1}, 0},
#define FUSE(name, first, second, third)                                      \
    [OP_##name] = {#name, F_FUSED, 0, 0, 0, 0, {OP_##first, OP_##second, OP_##third},         \
                   (uint8_t)(2 + (OP_##third != OP_none))},
#include "ops.def"
};

/* ---- the decode tree: rows numbered by their line in ops.def */

#define ROW_(line) ROW_L##line
#define ROW(line) ROW_(line)
enum {
#define I(table, key, mnemonic, operands, op, fields) ROW(__LINE__),
#define A(condition, mnemonic, operands, op, fields) ROW(__LINE__),
#define G(table, key, subtable) ROW(__LINE__),
#include "ops.def"
    NROWS
};
_Static_assert(NROWS < 256, "decode_tab holds row numbers + 1 in uint8_t");

static const insn_row rows[NROWS + 1] = { /* + 1: no alias after the last */
#define I(table, key, mnemonic, operands, op, fields)                         \
    {mnemonic, operands, OP_##op, FLD_##fields, 0, 0, 0, 0},
#define A(condition, mnemonic, operands, op, fields)                          \
    {mnemonic, operands, OP_##op, FLD_##fields, 0, 1, COND_##condition},
#define G(table, key, subtable) {NULL, NULL, OP_ri, 0, T_##subtable + 1, 0, 0, 0},
#include "ops.def"
};

/* per table and key (DFLT: the default), the row + 1, or 0 */
static const uint8_t decode_tab[NTABLES][DFLT + 1] = {
#define I(table, key, mnemonic, operands, op, fields) [T_##table][key] = ROW(__LINE__) + 1,
#define G(table, key, subtable) [T_##table][key] = ROW(__LINE__) + 1,
#include "ops.def"
};

/* per table and key, for insn_has_delay_slot: 1 if the row there is a
 * branch, 0 if not, 2 + T if it goes on to table T (aliases never change
 * whether a word is a branch: ops.def) */
enum {
#define OP(name, kind, flags, cond, size, reads, writes) OPF_##name = K_##kind | (flags),
#include "ops.def"
};
static const uint8_t branch_tab[NTABLES][DFLT + 1] = {
#define I(table, key, mnemonic, operands, op, fields)                         \
    [T_##table][key] = (OPF_##op & F_BRANCH) != 0,
#define G(table, key, subtable) [T_##table][key] = 2 + T_##subtable,
#include "ops.def"
};

static const uint8_t table_shift[NTABLES] = {
#define X(name, shift, mask) shift,
    TABLES(X)
#undef X
};
static const uint8_t table_mask[NTABLES] = {
#define X(name, shift, mask) mask,
    TABLES(X)
#undef X
};

/* The alias of row i that word w is, else row i. */
static const insn_row *alias_of(unsigned i, uint32_t w)
{
    for (unsigned a = i + 1; rows[a].alias; a++) {
        const insn_row *r = &rows[a];
        if (r->cmask ? (w & r->cmask) == r->cval : ((w >> 16) ^ (w >> 11)) & 31)
            return r;
    }
    return &rows[i];
}

const insn_row *insn_lookup(uint32_t w)
{
    unsigned t = T_OPC, i;
    for (;;) {
        i = decode_tab[t][(w >> table_shift[t]) & table_mask[t]];
        if (!i)
            i = decode_tab[t][DFLT];
        if (!i)
            i = decode_tab[T_OPC][DFLT];
        i--;
        if (!rows[i].sub)
            break;
        t = rows[i].sub - 1u;
    }
    return rows[i + 1].alias ? alias_of(i, w) : &rows[i];
}

/* ---- decoding */

static inline uint8_t dst(unsigned r) { return r ? (uint8_t)r : 32; }

static inline uint32_t sext16(uint32_t w) { return (uint32_t)(int32_t)(int16_t)(w & 0xFFFF); }

bool insn_has_delay_slot(uint32_t w)
{
    /* a table's default entry (0 here) is never a branch */
    unsigned b = branch_tab[T_OPC][w >> 26];
    while (b >= 2) {
        unsigned t = b - 2;
        b = branch_tab[t][(w >> table_shift[t]) & table_mask[t]];
    }
    return b;
}

uint32_t block_len(const u32a *words, uint32_t idx, bool in_ds)
{
    bool prev = in_ds; /* the previous word executed was a branch */
    for (uint32_t j = idx; j < DPAGE_N; j++) {
        bool br = insn_has_delay_slot(words[j]);
        /* a branch in a delay slot runs as a plain branch (the newer wins) */
        if (prev && !br)
            return j - idx + 1;
        prev = br;
    }
    return DPAGE_N - idx;
}

int decode_insn(uint32_t w, dinsn *d)
{
    const insn_row *r = insn_lookup(w);
    unsigned rs = (w >> 21) & 31, rt = (w >> 16) & 31, rd = (w >> 11) & 31;
    unsigned sa = (w >> 6) & 31;
    int op = r->op;

    d->rs = (uint8_t)rs;
    d->rt = (uint8_t)rt;
    d->rd = (uint8_t)rd;
    d->sa = (uint8_t)sa;
    d->imm = sext16(w);

    switch (r->fields) {
    case FLD_Z16: d->imm = w & 0xFFFF; break;
    case FLD_HI16: d->imm = w << 16; break;
    case FLD_BR: d->imm = sext16(w) << 2; break;
    case FLD_JT: d->imm = (w & 0x03FFFFFF) << 2; break;
    case FLD_EXT: { /* ext rt, rs, pos(sa), size(rd+1) */
        unsigned size = rd + 1;
        d->imm = size >= 32 ? 0xFFFFFFFFu : ((1u << size) - 1);
        break;
    }
    case FLD_INS: { /* ins rt, rs, pos(sa), size(rd-sa+1) */
        uint32_t mask = 0;
        if (rd >= sa) {
            unsigned size = rd - sa + 1;
            mask = (size >= 32 ? 0xFFFFFFFFu : ((1u << size) - 1)) << sa;
        }
        d->imm = mask;
        break;
    }
    case FLD_SEL: d->sa = (uint8_t)(w & 7); break;
    default: break;
    }

    switch (op_infos[op].writes) {
    case W_RD:
        if (rd == 0 && op_has(op, F_NOP0))
            return OP_nop;
        d->rd = dst(rd);
        break;
    case W_RT:
        if (rt == 0 && op_has(op, F_NOP0))
            return OP_nop;
        d->rt = dst(rt);
        break;
    case W_RMW:
        d->rd = dst(rt);
        break;
    default:
        break;
    }
    if (r->fields == FLD_RSRT)
        d->rs = (uint8_t)rt;
    return op;
}
