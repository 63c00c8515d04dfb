/*
 * disasm.c - MIPS32 disassembler for -d in_asm (GNU-like syntax, o32
 * register names).  The mnemonics and operand formats are the ops.def
 * rows (insn_lookup), so it covers exactly what the decoder knows; this
 * file prints the operand letters.
 */
#include <stdio.h>

#include "internal.h"

static const char *const rn[32] = {
    "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2",
    "t3",   "t4", "t5", "t6", "t7", "s0", "s1", "s2", "s3", "s4", "s5",
    "s6",   "s7", "t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra"};

/* One operand letter of an ops.def row (see there) into out. */
static int operand(char *out, size_t len, char c, uint32_t w, uint32_t pc)
{
    unsigned rs = (w >> 21) & 31, rt = (w >> 16) & 31, rd = (w >> 11) & 31;
    unsigned sa = (w >> 6) & 31;
    int32_t simm = (int16_t)(w & 0xFFFF);
    switch (c) {
    case 'd': return snprintf(out, len, "%s", rn[rd]);
    case 's': return snprintf(out, len, "%s", rn[rs]);
    case 't': return snprintf(out, len, "%s", rn[rt]);
    case '0': return snprintf(out, len, "zero");
    case '<': return snprintf(out, len, "%u", sa);
    case 'i': return snprintf(out, len, "%d", simm);
    case 'u': return snprintf(out, len, "0x%x", w & 0xFFFF);
    case 'p': return snprintf(out, len, "0x%08x", pc + 4 + ((uint32_t)simm << 2));
    case 'a':
        return snprintf(out, len, "0x%08x", ((pc + 4) & 0xF0000000u) | ((w & 0x03FFFFFF) << 2));
    case 'B': return snprintf(out, len, "0x%x", (w >> 6) & 0xFFFFF);
    case 'G': return snprintf(out, len, "$%u", rd);
    case 'S': return snprintf(out, len, "%u", w & 7);
    case 'C': return snprintf(out, len, "0x%07x", w & 0x3FFFFFF);
    case 'F': return snprintf(out, len, "$fcc%u", rt >> 2);
    case 'f': return snprintf(out, len, "$f%u", rt);
    case 'h': return snprintf(out, len, "0x%x", rt);
    case '+': return snprintf(out, len, "%u", rd + 1);
    case '-': return snprintf(out, len, "%u", rd - sa + 1);
    default: return snprintf(out, len, "%c", c);
    }
}

char *temu_disasm(uint32_t w, uint32_t pc, char *buf, size_t len)
{
    const insn_row *r = insn_lookup(w);
    char t[96];
    size_t n;
    if (!r->operands) {
        snprintf(buf, len, ".word   0x%08x", w);
        return buf;
    }
    if (!*r->operands) {
        snprintf(buf, len, "%s", r->mnemonic);
        return buf;
    }
    n = (size_t)snprintf(t, sizeof t, "%-7s ", r->mnemonic);
    for (const char *f = r->operands; *f && n < sizeof t; f++)
        n += (size_t)operand(t + n, sizeof t - n, *f, w, pc);
    snprintf(buf, len, "%s", t);
    return buf;
}
