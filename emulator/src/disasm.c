/*
 * disasm.c - MIPS32 disassembler for -d in_asm (GNU-like syntax, o32
 * register names).  Covers every instruction the emulator implements.
 */
#include <stdio.h>

#include "internal.h"

static const char *const rn[32] = {
    "zero", "at", "v0", "v1", "a0", "a1", "a2", "a3", "t0", "t1", "t2",
    "t3",   "t4", "t5", "t6", "t7", "s0", "s1", "s2", "s3", "s4", "s5",
    "s6",   "s7", "t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra"};

char *temu_disasm(uint32_t w, uint32_t pc, char *buf, size_t len)
{
    unsigned op = w >> 26, rs = (w >> 21) & 31, rt = (w >> 16) & 31, rd = (w >> 11) & 31;
    unsigned sa = (w >> 6) & 31, fn = w & 63;
    int32_t simm = (int16_t)(w & 0xFFFF);
    uint32_t uimm = w & 0xFFFF;
    uint32_t btarget = pc + 4 + ((uint32_t)simm << 2);
    uint32_t jtarget = ((pc + 4) & 0xF0000000u) | ((w & 0x03FFFFFF) << 2);
    const char *S = rn[rs], *T = rn[rt], *D = rn[rd];

#define P(...) (snprintf(buf, len, __VA_ARGS__), buf)
    switch (op) {
    case 0x00:
        switch (fn) {
        case 0x00:
            if (w == 0) return P("nop");
            if (w == 0x40) return P("ssnop");
            if (w == 0xC0) return P("ehb");
            return P("sll     %s,%s,%u", D, T, sa);
        case 0x01: return P("mov%c    %s,%s,$fcc%u", (rt & 1) ? 't' : 'f', D, S, rt >> 2);
        case 0x02: return P("%s     %s,%s,%u", (rs & 1) ? "rotr" : "srl ", D, T, sa);
        case 0x03: return P("sra     %s,%s,%u", D, T, sa);
        case 0x04: return P("sllv    %s,%s,%s", D, T, S);
        case 0x06: return P("%s   %s,%s,%s", (sa & 1) ? "rotrv" : "srlv ", D, T, S);
        case 0x07: return P("srav    %s,%s,%s", D, T, S);
        case 0x08: return P("jr      %s", S);
        case 0x09: return rd == 31 ? P("jalr    %s", S) : P("jalr    %s,%s", D, S);
        case 0x0A: return P("movz    %s,%s,%s", D, S, T);
        case 0x0B: return P("movn    %s,%s,%s", D, S, T);
        case 0x0C: return P("syscall");
        case 0x0D: return P("break   0x%x", (w >> 6) & 0xFFFFF);
        case 0x0F: return P("sync");
        case 0x10: return P("mfhi    %s", D);
        case 0x11: return P("mthi    %s", S);
        case 0x12: return P("mflo    %s", D);
        case 0x13: return P("mtlo    %s", S);
        case 0x18: return P("mult    %s,%s", S, T);
        case 0x19: return P("multu   %s,%s", S, T);
        case 0x1A: return P("div     zero,%s,%s", S, T);
        case 0x1B: return P("divu    zero,%s,%s", S, T);
        case 0x20: return P("add     %s,%s,%s", D, S, T);
        case 0x21:
            if (rt == 0) return P("move    %s,%s", D, S);
            return P("addu    %s,%s,%s", D, S, T);
        case 0x22: return P("sub     %s,%s,%s", D, S, T);
        case 0x23: return P("subu    %s,%s,%s", D, S, T);
        case 0x24: return P("and     %s,%s,%s", D, S, T);
        case 0x25:
            if (rt == 0) return P("move    %s,%s", D, S);
            return P("or      %s,%s,%s", D, S, T);
        case 0x26: return P("xor     %s,%s,%s", D, S, T);
        case 0x27: return P("nor     %s,%s,%s", D, S, T);
        case 0x2A: return P("slt     %s,%s,%s", D, S, T);
        case 0x2B: return P("sltu    %s,%s,%s", D, S, T);
        case 0x30: return P("tge     %s,%s", S, T);
        case 0x31: return P("tgeu    %s,%s", S, T);
        case 0x32: return P("tlt     %s,%s", S, T);
        case 0x33: return P("tltu    %s,%s", S, T);
        case 0x34: return P("teq     %s,%s", S, T);
        case 0x36: return P("tne     %s,%s", S, T);
        }
        break;
    case 0x01: {
        static const char *const names[8] = {"bltz", "bgez", "bltzl", "bgezl",
                                             "bltzal", "bgezal", "bltzall", "bgezall"};
        const char *n = names[((rt >> 2) & 4) | (rt & 3)];
        if (rt == 0x11 && rs == 0)
            return P("bal     0x%08x", btarget);
        return P("%-7s %s,0x%08x", n, S, btarget);
    }
    case 0x02: return P("j       0x%08x", jtarget);
    case 0x03: return P("jal     0x%08x", jtarget);
    case 0x04:
        if (rs == 0 && rt == 0) return P("b       0x%08x", btarget);
        return P("beq     %s,%s,0x%08x", S, T, btarget);
    case 0x05: return P("bne     %s,%s,0x%08x", S, T, btarget);
    case 0x06: return P("blez    %s,0x%08x", S, btarget);
    case 0x07: return P("bgtz    %s,0x%08x", S, btarget);
    case 0x08: return P("addi    %s,%s,%d", T, S, simm);
    case 0x09:
        if (rs == 0) return P("li      %s,%d", T, simm);
        return P("addiu   %s,%s,%d", T, S, simm);
    case 0x0A: return P("slti    %s,%s,%d", T, S, simm);
    case 0x0B: return P("sltiu   %s,%s,%d", T, S, simm);
    case 0x0C: return P("andi    %s,%s,0x%x", T, S, uimm);
    case 0x0D: return P("ori     %s,%s,0x%x", T, S, uimm);
    case 0x0E: return P("xori    %s,%s,0x%x", T, S, uimm);
    case 0x0F: return P("lui     %s,0x%x", T, uimm);
    case 0x10:
        if (rs & 0x10) {
            switch (fn) {
            case 0x01: return P("tlbr");
            case 0x02: return P("tlbwi");
            case 0x06: return P("tlbwr");
            case 0x08: return P("tlbp");
            case 0x18: return P("eret");
            case 0x1F: return P("deret");
            case 0x20: return P("wait");
            }
            break;
        }
        switch (rs) {
        case 0x00: return P("mfc0    %s,$%u,%u", T, rd, w & 7);
        case 0x04: return P("mtc0    %s,$%u,%u", T, rd, w & 7);
        case 0x0B: return P("%s      %s", (w & 0x20) ? "ei" : "di", T);
        }
        break;
    case 0x11: return P("cop1    0x%07x", w & 0x3FFFFFF);
    case 0x12:
        if (rs == 0) return P("mfc2    %s,$%u", T, rd);
        if (rs == 4) return P("mtc2    %s,$%u", T, rd);
        return P("cop2    0x%07x", w & 0x3FFFFFF);
    case 0x14: return P("beql    %s,%s,0x%08x", S, T, btarget);
    case 0x15: return P("bnel    %s,%s,0x%08x", S, T, btarget);
    case 0x16: return P("blezl   %s,0x%08x", S, btarget);
    case 0x17: return P("bgtzl   %s,0x%08x", S, btarget);
    case 0x1C:
        switch (fn) {
        case 0x00: return P("madd    %s,%s", S, T);
        case 0x01: return P("maddu   %s,%s", S, T);
        case 0x02: return P("mul     %s,%s,%s", D, S, T);
        case 0x04: return P("msub    %s,%s", S, T);
        case 0x05: return P("msubu   %s,%s", S, T);
        case 0x20: return P("clz     %s,%s", D, S);
        case 0x21: return P("clo     %s,%s", D, S);
        case 0x3F: return P("sdbbp");
        }
        break;
    case 0x1F:
        switch (fn) {
        case 0x00: return P("ext     %s,%s,%u,%u", T, S, sa, rd + 1);
        case 0x04: return P("ins     %s,%s,%u,%u", T, S, sa, rd - sa + 1);
        case 0x20:
            if (sa == 0x02) return P("wsbh    %s,%s", D, T);
            if (sa == 0x10) return P("seb     %s,%s", D, T);
            if (sa == 0x18) return P("seh     %s,%s", D, T);
            break;
        case 0x3B: return P("rdhwr   %s,$%u", T, rd);
        }
        break;
    case 0x20: return P("lb      %s,%d(%s)", T, simm, S);
    case 0x21: return P("lh      %s,%d(%s)", T, simm, S);
    case 0x22: return P("lwl     %s,%d(%s)", T, simm, S);
    case 0x23: return P("lw      %s,%d(%s)", T, simm, S);
    case 0x24: return P("lbu     %s,%d(%s)", T, simm, S);
    case 0x25: return P("lhu     %s,%d(%s)", T, simm, S);
    case 0x26: return P("lwr     %s,%d(%s)", T, simm, S);
    case 0x28: return P("sb      %s,%d(%s)", T, simm, S);
    case 0x29: return P("sh      %s,%d(%s)", T, simm, S);
    case 0x2A: return P("swl     %s,%d(%s)", T, simm, S);
    case 0x2B: return P("sw      %s,%d(%s)", T, simm, S);
    case 0x2E: return P("swr     %s,%d(%s)", T, simm, S);
    case 0x2F: return P("cache   0x%x,%d(%s)", rt, simm, S);
    case 0x30: return P("ll      %s,%d(%s)", T, simm, S);
    case 0x31: return P("lwc1    $f%u,%d(%s)", rt, simm, S);
    case 0x33: return P("pref    0x%x,%d(%s)", rt, simm, S);
    case 0x35: return P("ldc1    $f%u,%d(%s)", rt, simm, S);
    case 0x38: return P("sc      %s,%d(%s)", T, simm, S);
    case 0x39: return P("swc1    $f%u,%d(%s)", rt, simm, S);
    case 0x3D: return P("sdc1    $f%u,%d(%s)", rt, simm, S);
    }
    return P(".word   0x%08x", w);
#undef P
}
