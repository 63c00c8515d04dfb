/*
 * decode.c - MIPS32 instruction word -> predecoded operation.
 *
 * Conventions for the decoded fields (see cpu.c for their use):
 *  - destination registers equal to $0 are remapped to 32, a write sink, so
 *    handlers never need to re-zero $0; sources are never remapped;
 *  - for read-modify-write destinations (lwl, lwr, ins, sc) `rt` keeps the
 *    source register and `rd` holds the (remapped) destination;
 *  - imm holds the operand ready to use: sign-extended, zero-extended,
 *    shifted (lui, branch offsets, jump targets) or a bit mask (ext, ins).
 */
#include "internal.h"

static inline uint8_t dst(unsigned r) { return r ? (uint8_t)r : 32; }

static inline uint32_t sext16(uint32_t w) { return (uint32_t)(int32_t)(int16_t)(w & 0xFFFF); }

bool insn_has_delay_slot(uint32_t w)
{
    unsigned op = w >> 26;
    switch (op) {
    case 0: {
        unsigned fn = w & 63;
        return fn == 8 || fn == 9; /* jr, jalr */
    }
    case 1:                        /* REGIMM: every encoding is a branch here */
    case 2: case 3:                /* j, jal */
    case 4: case 5: case 6: case 7:
    case 20: case 21: case 22: case 23:
        return true;
    default:
        return false;
    }
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

/* Non-trapping ALU ops whose destination is $0 become nops. */
#define ALU_RD(opname)                                                        \
    do {                                                                      \
        if (rd == 0)                                                          \
            return OP_nop;                                                    \
        d->rd = (uint8_t)rd;                                                  \
        return opname;                                                        \
    } while (0)

static int decode_special(uint32_t w, dinsn *d, unsigned rs, unsigned rt, unsigned rd,
                          unsigned sa)
{
    switch (w & 63) {
    case 0x00:
        if (rd == 0)
            return OP_nop; /* nop, ssnop, ehb */
        d->rd = (uint8_t)rd;
        return OP_sll;
    case 0x01: return OP_cpu1; /* movf/movt use the FPU condition codes */
    case 0x02: ALU_RD((rs & 1) ? OP_rotr : OP_srl);
    case 0x03: ALU_RD(OP_sra);
    case 0x04: ALU_RD(OP_sllv);
    case 0x06: ALU_RD((sa & 1) ? OP_rotrv : OP_srlv);
    case 0x07: ALU_RD(OP_srav);
    case 0x08: return OP_jr;
    case 0x09: d->rd = dst(rd); return OP_jalr;
    case 0x0A: ALU_RD(OP_movz);
    case 0x0B: ALU_RD(OP_movn);
    case 0x0C: return OP_syscall;
    case 0x0D: return OP_brk;
    case 0x0F: return OP_sync;
    case 0x10: ALU_RD(OP_mfhi);
    case 0x11: return OP_mthi;
    case 0x12: ALU_RD(OP_mflo);
    case 0x13: return OP_mtlo;
    case 0x18: return OP_mult;
    case 0x19: return OP_multu;
    case 0x1A: return OP_div;
    case 0x1B: return OP_divu;
    case 0x20: d->rd = dst(rd); return OP_add;
    case 0x21:
        if (rd == 0)
            return OP_nop;
        d->rd = (uint8_t)rd;
        if (rt == 0)
            return OP_move;
        if (rs == 0) {
            d->rs = (uint8_t)rt;
            return OP_move;
        }
        return OP_addu;
    case 0x22: d->rd = dst(rd); return OP_sub;
    case 0x23: ALU_RD(OP_subu);
    case 0x24: ALU_RD(OP_and);
    case 0x25:
        if (rd == 0)
            return OP_nop;
        d->rd = (uint8_t)rd;
        if (rt == 0)
            return OP_move;
        if (rs == 0) {
            d->rs = (uint8_t)rt;
            return OP_move;
        }
        return OP_or;
    case 0x26: ALU_RD(OP_xor);
    case 0x27: ALU_RD(OP_nor);
    case 0x2A: ALU_RD(OP_slt);
    case 0x2B: ALU_RD(OP_sltu);
    case 0x30: return OP_tge;
    case 0x31: return OP_tgeu;
    case 0x32: return OP_tlt;
    case 0x33: return OP_tltu;
    case 0x34: return OP_teq;
    case 0x36: return OP_tne;
    default: return OP_ri;
    }
}

int decode_insn(uint32_t w, dinsn *d)
{
    unsigned op = w >> 26;
    unsigned rs = (w >> 21) & 31, rt = (w >> 16) & 31, rd = (w >> 11) & 31;
    unsigned sa = (w >> 6) & 31;

    d->rs = (uint8_t)rs;
    d->rt = (uint8_t)rt;
    d->rd = (uint8_t)rd;
    d->sa = (uint8_t)sa;
    d->imm = sext16(w);

    switch (op) {
    case 0x00:
        return decode_special(w, d, rs, rt, rd, sa);
    case 0x01: {
        /* The TSAR ISS decodes every REGIMM encoding from rt bits:
         * bit0 = ge (else lt), bit1 = likely, bit4 = link.  So tgei..tnei and
         * synci are (faithfully) mis-decoded as branches. */
        static const uint8_t tbl[8] = {OP_bltz,   OP_bgez,   OP_bltzl,   OP_bgezl,
                                       OP_bltzal, OP_bgezal, OP_bltzall, OP_bgezall};
        d->imm = sext16(w) << 2;
        return tbl[((rt >> 2) & 4) | (rt & 3)];
    }
    case 0x02: d->imm = (w & 0x03FFFFFF) << 2; return OP_j;
    case 0x03: d->imm = (w & 0x03FFFFFF) << 2; return OP_jal;
    case 0x04:
        d->imm = sext16(w) << 2;
        return (rs == 0 && rt == 0) ? OP_b : OP_beq;
    case 0x05: d->imm = sext16(w) << 2; return OP_bne;
    case 0x06: d->imm = sext16(w) << 2; return OP_blez;
    case 0x07: d->imm = sext16(w) << 2; return OP_bgtz;
    case 0x08: d->rt = dst(rt); return OP_addi;
    case 0x09:
        if (rt == 0)
            return OP_nop;
        return rs == 0 ? OP_li : OP_addiu;
    case 0x0A: if (rt == 0) return OP_nop; return OP_slti;
    case 0x0B: if (rt == 0) return OP_nop; return OP_sltiu;
    case 0x0C: d->imm = w & 0xFFFF; if (rt == 0) return OP_nop; return OP_andi;
    case 0x0D:
        d->imm = w & 0xFFFF;
        if (rt == 0)
            return OP_nop;
        return rs == 0 ? OP_li : OP_ori;
    case 0x0E: d->imm = w & 0xFFFF; if (rt == 0) return OP_nop; return OP_xori;
    case 0x0F: d->imm = w << 16; if (rt == 0) return OP_nop; return OP_li;
    case 0x10: /* COP0 */
        d->sa = (uint8_t)(w & 7);
        if (rs & 0x10) {
            switch (w & 63) {
            case 0x18: return OP_eret;
            case 0x20: return OP_wait;
            default: return OP_cop0_other; /* tlbr/tlbwi/tlbwr/tlbp/deret: RI */
            }
        }
        switch (rs) {
        case 0x00: d->rt = dst(rt); return OP_mfc0;
        case 0x04: return OP_mtc0;
        case 0x0B: d->rt = dst(rt); return (w & 0x20) ? OP_ei : OP_di;
        default: return OP_cop0_other;
        }
    case 0x11: /* COP1 */
    case 0x13: /* COP1X */
    case 0x31: case 0x35: case 0x39: case 0x3D: /* lwc1 ldc1 swc1 sdc1 */
        return OP_cpu1;
    case 0x12: /* COP2: mtc2/mfc2 are XTN requests to the MMU */
        if (rs == 0x00) {
            d->rt = dst(rt);
            return OP_mfc2;
        }
        if (rs == 0x04)
            return OP_mtc2;
        return OP_cop2_other;
    case 0x32: case 0x36: case 0x3A: case 0x3E: /* lwc2 ldc2 swc2 sdc2 */
        return OP_cop2_other;
    case 0x14: d->imm = sext16(w) << 2; return OP_beql;
    case 0x15: d->imm = sext16(w) << 2; return OP_bnel;
    case 0x16: d->imm = sext16(w) << 2; return OP_blezl;
    case 0x17: d->imm = sext16(w) << 2; return OP_bgtzl;
    case 0x1C: /* SPECIAL2 */
        switch (w & 63) {
        case 0x00: return OP_madd;
        case 0x01: return OP_maddu;
        case 0x02: d->rd = dst(rd); return OP_mul;
        case 0x04: return OP_msub;
        case 0x05: return OP_msubu;
        case 0x20:
        case 0x21:
            /* ISS quirk: clz/clo raise Tr when rt != rd. */
            if (rt != rd)
                return OP_trap_quirk;
            d->rd = dst(rd);
            return (w & 1) ? OP_clo : OP_clz;
        default: return OP_ri;
        }
    case 0x1F: /* SPECIAL3 */
        switch (w & 63) {
        case 0x00: { /* ext rt, rs, pos(sa), size(rd+1) */
            unsigned size = rd + 1;
            d->imm = size >= 32 ? 0xFFFFFFFFu : ((1u << size) - 1);
            d->rt = dst(rt);
            return OP_ext;
        }
        case 0x04: { /* ins rt, rs, pos(sa), size(rd-sa+1) */
            uint32_t mask = 0;
            if (rd >= sa) {
                unsigned size = rd - sa + 1;
                mask = (size >= 32 ? 0xFFFFFFFFu : ((1u << size) - 1)) << sa;
            }
            d->imm = mask;
            d->rd = dst(rt);
            return OP_ins;
        }
        case 0x20:
            d->rd = dst(rd);
            switch (sa) {
            case 0x02: return OP_wsbh;
            case 0x10: return OP_seb;
            case 0x18: return OP_seh;
            default: return OP_ri;
            }
        case 0x3B: d->rt = dst(rt); return OP_rdhwr;
        default: return OP_ri;
        }
    case 0x20: d->rt = dst(rt); return OP_lb;
    case 0x21: d->rt = dst(rt); return OP_lh;
    case 0x22: d->rd = dst(rt); return OP_lwl;
    case 0x23: d->rt = dst(rt); return OP_lw;
    case 0x24: d->rt = dst(rt); return OP_lbu;
    case 0x25: d->rt = dst(rt); return OP_lhu;
    case 0x26: d->rd = dst(rt); return OP_lwr;
    case 0x28: return OP_sb;
    case 0x29: return OP_sh;
    case 0x2A: return OP_swl;
    case 0x2B: return OP_sw;
    case 0x2E: return OP_swr;
    case 0x2F: return OP_cache;
    case 0x30: d->rt = dst(rt); return OP_ll;
    case 0x33: return OP_pref;
    case 0x38: d->rd = dst(rt); return OP_sc;
    default: return OP_ri;
    }
}
