// SPDX-License-Identifier: GPL-2.0
/*
 * ops.h - the instruction set of ops.def as C: the operation numbers
 * (OP_*), their attributes (op_infos[] and the op_* queries), and the rows
 * of the decode tree (insn_lookup) that decode.c and disasm.c walk.
 *
 * The attributes are read when a word is decoded or a block translated,
 * never per executed instruction: the interpreter runs decoded handlers.
 */
#ifndef TSAR_OPS_H
#define TSAR_OPS_H

#include <stdbool.h>
#include <stdint.h>

/* ---- operation attributes (the flags column of an OP row) */
#define F_BRANCH  (1u << 0)  /* branch or jump: has a delay slot (kind BR) */
#define F_PCREL   (1u << 1)  /* PC-relative target (decoded imm: byte offset) */
#define F_LIKELY  (1u << 2)  /* branch likely: the slot is nullified if not taken */
#define F_LINK    (1u << 3)  /* writes the return address */
#define F_LOAD    (1u << 4)  /* reads memory (size column) */
#define F_STORE   (1u << 5)  /* writes memory (size column) */
#define F_SIGNED  (1u << 6)  /* a load that sign-extends */
#define F_PARTIAL (1u << 7)  /* lwl/lwr/swl/swr: part of the aligned word */
#define F_LLSC    (1u << 8)  /* ll/sc: the reservation */
#define F_RAISE   (1u << 9)  /* may raise an exception */
#define F_EXC     (1u << 10) /* always raises one (implies F_RAISE) */
#define F_NOP0    (1u << 11) /* decoder: a $0 destination makes it a nop */
#define F_FUSED   (1u << 12) /* superinstruction (FUSE rows) */
/* the translating tier (jit_*.c) */
#define F_JIT     (1u << 13) /* jit_emit_insn translates it (branches: jit_emit_branch) */
#define F_JSEL    (1u << 14) /* a side of an if-converted branch may hold it */
#define F_JRDX    (1u << 15) /* its host code uses rdx (no grouped accesses across it) */

/* the cond column: when a branch is taken */
enum { C_ALL = 1, C_EQ, C_NE, C_LTZ, C_GEZ, C_LEZ, C_GTZ };
/* the reads column: fields of the decoded instruction */
#define R_RS 1u
#define R_RT 2u
#define R_RD 4u
/* the writes column */
enum { W_RD = 1, W_RT, W_RMW, W_R31 };

#define K_PLAIN 0
#define K_BR F_BRANCH
#define K_DECODE 0

/* Operation numbers: the OP rows, then the superinstructions. */
enum {
#define OP(name, kind, flags, cond, size, reads, writes) OP_##name,
#define FUSE(name, first, second, third) OP_##name,
#include "ops.def"
    OP_COUNT
};
#define OP_none (-1) /* FUSE rows: no such word */
enum {
    OP_NFUSED = 0
#define FUSE(name, first, second, third) + 1
#include "ops.def"
};
#define OP_FUSED0 (OP_COUNT - OP_NFUSED) /* the first superinstruction */

typedef struct op_info {
    const char *name;
    uint32_t flags;
    uint8_t cond, size, reads, writes;
    int8_t fused[3];  /* a superinstruction's operations (OP_none: fewer) */
    uint8_t span;     /* and their count */
} op_info;

extern const op_info op_infos[OP_COUNT];

static inline bool op_has(int op, uint32_t f) { return (op_infos[op].flags & f) != 0; }
/* a load's or store's access size in bytes, else 0 */
static inline unsigned op_size(int op) { return op_infos[op].size; }

/* ---- the decode tree (ops.def I/A/G rows) */

/* The tables and the bits of the word that index them: (w >> shift) & mask. */
#define TABLES(X)                                                             \
    X(OPC, 26, 63)      /* major opcode */                                    \
    X(SPECIAL, 0, 63)   /* funct */                                           \
    X(REGIMM, 16, 0x13) /* rt bits 4, 1, 0 */                                 \
    X(COP0, 25, 1)      /* CO */                                              \
    X(COP0RS, 21, 31)   /* rs */                                              \
    X(COP0CO, 0, 63)    /* funct */                                           \
    X(COP2, 21, 31)     /* rs */                                              \
    X(SPECIAL2, 0, 63)  /* funct */                                           \
    X(SPECIAL3, 0, 63)  /* funct */                                           \
    X(BSHFL, 6, 31)     /* sa */
enum {
#define X(name, shift, mask) T_##name,
    TABLES(X)
#undef X
    NTABLES
};
#define DFLT 64 /* the key of a table's default entry */

/* Alias conditions (the A rows): mask, value: the row is taken when
 * (w & mask) == value; COND_RT_NE_RD is the one test that is not a mask. */
#define COND_NOP 0xFFFFFFFFu, 0x00000000u      /* w == 0 */
#define COND_SSNOP 0xFFFFFFFFu, 0x00000040u    /* w == 0x40 */
#define COND_EHB 0xFFFFFFFFu, 0x000000C0u      /* w == 0xC0 */
#define COND_RS0 0x03E00000u, 0                /* rs == 0 */
#define COND_RT0 0x001F0000u, 0                /* rt == 0 */
#define COND_RSRT0 0x03FF0000u, 0              /* rs == rt == 0 */
#define COND_RD31 0x0000F800u, 0x0000F800u     /* rd == 31 */
#define COND_BAL 0x03FF0000u, 0x00110000u      /* rs == 0, rt == 0x11 as encoded */
#define COND_RS_B0 0x00200000u, 0x00200000u    /* rs bit 0 (srl: rotr) */
#define COND_SA_B0 0x00000040u, 0x00000040u    /* sa bit 0 (srlv: rotrv) */
#define COND_RT_B0 0x00010000u, 0x00010000u    /* rt bit 0 (movf: movt) */
#define COND_BIT5 0x00000020u, 0x00000020u     /* word bit 5 (di: ei) */
#define COND_RT_NE_RD 0, 1                     /* rt != rd (mask 0: this test) */

/* How a row's decoded fields are made: rs rt rd sa as encoded, then */
enum {
    FLD_S16 = 0, /* imm = the 16-bit immediate, sign-extended */
    FLD_Z16,     /* zero-extended */
    FLD_HI16,    /* shifted to the upper half (lui) */
    FLD_BR,      /* sign-extended, times 4 (branch offset) */
    FLD_JT,      /* the 26-bit index, times 4 (jump target in the segment) */
    FLD_EXT,     /* the mask of ext's field (size rd + 1) */
    FLD_INS,     /* the mask of ins's field in place (bits sa..rd) */
    FLD_SEL,     /* S16, and sa = the sel field (w & 7) */
    FLD_RSRT,    /* S16, and rs = rt (a move of rt) */
};

typedef struct insn_row {
    const char *mnemonic;
    const char *operands;  /* NULL: disassembled as .word */
    uint8_t op;            /* OP_* */
    uint8_t fields;        /* FLD_* */
    uint8_t sub;           /* a G row: T_* + 1 of the table it goes on to */
    uint8_t alias;         /* an A row: its condition is */
    uint32_t cmask, cval;  /* COND_* */
} insn_row;

/* The row that describes word w (after its aliases). */
const insn_row *insn_lookup(uint32_t w);

#endif
