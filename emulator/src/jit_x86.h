// SPDX-License-Identifier: GPL-2.0
/*
 * jit_x86.h - the x86-64 encoder of the translating tier: register and
 * condition numbers, and the instruction forms the translator and the
 * fixed code (trampoline, epilogue, dispatcher) are written with, each a
 * static inline appending to an emission buffer (em; when it is full,
 * em.full is set and nothing more is written).  Host code addresses the
 * cpu_t through rbx (GR, OFF).
 *
 * Own emitter rather than a JIT library: the only packaged candidate,
 * asmjit, is C++ (this emulator is C, built with -std=gnu11 and no other
 * dependency than libfdt), and the code needed is ~50 x86-64 encodings.
 */
#ifndef JIT_X86_H
#define JIT_X86_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };
enum { CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A, CC_S, CC_NS,
       CC_L = 0xC, CC_GE, CC_LE, CC_G };

typedef struct em {
    uint8_t *p, *end;
    bool full;
} em;

static inline void b1(em *e, unsigned v)
{
    if (e->p < e->end)
        *e->p++ = (uint8_t)v;
    else
        e->full = true;
}

static inline void d32(em *e, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b1(e, v >> (8 * i));
}

static inline void rexb(em *e, int w, int r, int x, int b)
{
    unsigned v = 0x40u | (w ? 8u : 0) | ((r & 8) ? 4u : 0) | ((x & 8) ? 2u : 0) | ((b & 8) ? 1u : 0);
    if (v != 0x40)
        b1(e, v);
}

/* opcode bytes with a memory operand [base + disp] */
static inline void op_m(em *e, int w, unsigned opc, int nopc, int reg, int base, int32_t disp)
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
static inline void op_mi(em *e, int w, unsigned opc, int nopc, int reg, int base, int index,
                         int disp8)
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
static inline void op_r(em *e, int w, unsigned opc, int nopc, int reg, int rm)
{
    rexb(e, w, reg, 0, rm);
    for (int i = nopc - 1; i >= 0; i--)
        b1(e, opc >> (8 * i));
    b1(e, 0xC0u | ((unsigned)(reg & 7) << 3) | (unsigned)(rm & 7));
}

#define GR(i) ((int32_t)(offsetof(cpu_t, r) + 4u * (unsigned)(i)))
#define OFF(f) ((int32_t)offsetof(cpu_t, f))

static inline void ld(em *e, int reg, int gr)
{
    if (gr == 0)
        op_r(e, 0, 0x31, 1, reg, reg); /* xor reg, reg */
    else
        op_m(e, 0, 0x8B, 1, reg, RBX, GR(gr));
}
static inline void st(em *e, int gr, int reg) { op_m(e, 0, 0x89, 1, reg, RBX, GR(gr)); }
static inline void ldf(em *e, int reg, int32_t off) { op_m(e, 0, 0x8B, 1, reg, RBX, off); }
static inline void stf(em *e, int32_t off, int reg) { op_m(e, 0, 0x89, 1, reg, RBX, off); }
static inline void stf_imm(em *e, int32_t off, uint32_t v)
{
    op_m(e, 0, 0xC7, 1, 0, RBX, off);
    d32(e, v);
}
static inline void mov_ri(em *e, int reg, uint32_t v)
{
    if (v == 0) {
        op_r(e, 0, 0x31, 1, reg, reg);
        return;
    }
    rexb(e, 0, 0, 0, reg);
    b1(e, 0xB8u + (unsigned)(reg & 7));
    d32(e, v);
}
static inline void mov_ri64(em *e, int reg, uint64_t v) /* movabs reg, v */
{
    rexb(e, 1, 0, 0, reg);
    b1(e, 0xB8u + (unsigned)(reg & 7));
    d32(e, (uint32_t)v);
    d32(e, (uint32_t)(v >> 32));
}
static inline void mov_rr(em *e, int dst, int src) { op_r(e, 0, 0x89, 1, src, dst); }
/* ALU group 1: ext 0 add, 1 or, 2 adc, 3 sbb, 4 and, 5 sub, 6 xor, 7 cmp */
enum { A_ADD, A_OR, A_ADC, A_SBB, A_AND, A_SUB, A_XOR, A_CMP };
static inline void alu_rr(em *e, int ext, int dst, int src)
{
    op_r(e, 0, (unsigned)(ext << 3) | 1u, 1, src, dst);
}
static inline void alu_rm(em *e, int ext, int dst, int gr)
{
    if (gr == 0) { /* $0 as operand */
        op_r(e, 0, 0x31, 1, RSI, RSI);
        alu_rr(e, ext, dst, RSI);
        return;
    }
    op_m(e, 0, (unsigned)(ext << 3) | 3u, 1, dst, RBX, GR(gr));
}
static inline void alu_ri(em *e, int ext, int dst, uint32_t imm)
{
    if ((int32_t)imm >= -128 && (int32_t)imm < 128) {
        op_r(e, 0, 0x83, 1, ext, dst);
        b1(e, imm);
    } else {
        op_r(e, 0, 0x81, 1, ext, dst);
        d32(e, imm);
    }
}
static inline void alu_mf_r(em *e, int ext, int32_t off, int src) /* [rbx+off] op= src */
{
    op_m(e, 0, (unsigned)(ext << 3) | 1u, 1, src, RBX, off);
}
/* shifts: ext 0 rol, 1 ror, 4 shl, 5 shr, 7 sar */
static inline void sh_ri(em *e, int ext, int reg, unsigned n)
{
    op_r(e, 0, 0xC1, 1, ext, reg);
    b1(e, n & 31);
}
static inline void sh_rcl(em *e, int ext, int reg) { op_r(e, 0, 0xD3, 1, ext, reg); }
static inline void cmov(em *e, int cc, int dst, int src)
{
    op_r(e, 0, 0x0F40u | (unsigned)cc, 2, dst, src);
}
static inline void lea_pc(em *e, int reg, uint32_t off) /* reg = r14d + off (32-bit) */
{
    op_m(e, 0, 0x8D, 1, reg, R14, (int32_t)off);
}
static inline uint8_t *jcc(em *e, int cc)
{
    b1(e, 0x0F);
    b1(e, 0x80u + (unsigned)cc);
    d32(e, 0);
    return e->p;
}
static inline uint8_t *jmp32(em *e)
{
    b1(e, 0xE9);
    d32(e, 0);
    return e->p;
}
static inline void patch(em *e, uint8_t *after, uint8_t *target)
{
    if (!after || e->full)
        return;
    int32_t rel = (int32_t)(target - after);
    memcpy(after - 4, &rel, 4);
}
static inline void call_abs(em *e, const void *fn)
{
    b1(e, 0x48);
    b1(e, 0xB8); /* mov rax, imm64 */
    uint64_t v = (uint64_t)(uintptr_t)fn;
    d32(e, (uint32_t)v);
    d32(e, (uint32_t)(v >> 32));
    b1(e, 0xFF);
    b1(e, 0xD0); /* call rax */
}

/* setcc into any register's low byte (a REX prefix makes 4..7 sil/dil) */
static inline void setcc_r(em *e, int cc, int reg)
{
    if (reg >= 4)
        b1(e, reg >= 8 ? 0x41 : 0x40);
    b1(e, 0x0F);
    b1(e, 0x90u | (unsigned)cc);
    b1(e, 0xC0u | (unsigned)(reg & 7));
}

/* rbp (the budget) op= v */
static inline void rbp_op(em *e, int ext, uint32_t v)
{
    if (v < 128) {
        op_r(e, 1, 0x83, 1, ext, RBP);
        b1(e, v);
    } else {
        op_r(e, 1, 0x81, 1, ext, RBP);
        d32(e, v);
    }
}

#endif /* JIT_X86_H */
