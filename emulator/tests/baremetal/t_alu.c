/*
 * t_alu: integer ALU instructions (MIPS32 R1 + the R2 subset).  Operands go
 * through registers at run time; expected values are folded by the compiler.
 */
#include "test.h"

#define R2(insn, a, b)                                                        \
    ({                                                                        \
        uint32_t r_;                                                          \
        __asm__ volatile(insn " %0, %1, %2" : "=r"(r_) : "r"((u32)(a)), "r"((u32)(b))); \
        r_;                                                                   \
    })
#define RI(insn, a, imm)                                                      \
    ({                                                                        \
        uint32_t r_;                                                          \
        __asm__ volatile(insn " %0, %1, " #imm : "=r"(r_) : "r"((u32)(a)));   \
        r_;                                                                   \
    })
#define R1(insn, a)                                                           \
    ({                                                                        \
        uint32_t r_;                                                          \
        __asm__ volatile(insn " %0, %1" : "=r"(r_) : "r"((u32)(a)));          \
        r_;                                                                   \
    })
/* HI/LO producing ops: returns (hi << 32) | lo */
#define HL(insn, a, b, hi0, lo0)                                              \
    ({                                                                        \
        uint32_t h_, l_;                                                      \
        __asm__ volatile("mthi %2\n\tmtlo %3\n\t" insn " %4, %5\n\tmfhi %0\n\tmflo %1" \
                         : "=r"(h_), "=r"(l_)                                 \
                         : "r"((u32)(hi0)), "r"((u32)(lo0)), "r"((u32)(a)), "r"((u32)(b))); \
        ((uint64_t)h_ << 32) | l_;                                            \
    })

int main(void)
{
    /* add/sub families */
    CHECK_EQ(1, R2("addu", 0xFFFFFFFF, 2), 1);
    CHECK_EQ(2, R2("add", 0x7FFFFFFE, 1), 0x7FFFFFFF);
    CHECK_EQ(3, R2("subu", 1, 2), 0xFFFFFFFF);
    CHECK_EQ(4, R2("sub", -5, 7), (u32)-12);
    CHECK_EQ(5, RI("addiu", 10, -20), (u32)-10);
    CHECK_EQ(6, RI("addi", 0x7FFF0000, 0x7FFF), 0x7FFF7FFF);
    /* logic */
    CHECK_EQ(10, R2("and", 0xF0F0F0F0, 0xFF00FF00), 0xF000F000);
    CHECK_EQ(11, R2("or", 0xF0F0F0F0, 0x0F000000), 0xFFF0F0F0);
    CHECK_EQ(12, R2("xor", 0xFFFF0000, 0xF0F0F0F0), 0x0F0FF0F0);
    CHECK_EQ(13, R2("nor", 0xF0F0F0F0, 0x0F0F0000), 0x00000F0F);
    CHECK_EQ(14, RI("andi", 0xFFFFFFFF, 0x8001), 0x8001); /* zero-extended */
    CHECK_EQ(15, RI("ori", 0x12340000, 0xFFFF), 0x1234FFFF);
    CHECK_EQ(16, RI("xori", 0xFFFFFFFF, 0x8000), 0xFFFF7FFF);
    {
        uint32_t r;
        __asm__ volatile("lui %0, 0x8765" : "=r"(r));
        CHECK_EQ(17, r, 0x87650000);
    }
    /* set on less than */
    CHECK_EQ(20, R2("slt", -1, 1), 1);
    CHECK_EQ(21, R2("sltu", -1, 1), 0);
    CHECK_EQ(22, RI("slti", -5, -4), 1);
    CHECK_EQ(23, RI("slti", 5, -4), 0);
    CHECK_EQ(24, RI("sltiu", 5, -4), 1); /* imm sign-extended, compared unsigned */
    CHECK_EQ(25, RI("sltiu", 0xFFFFFFFF, -4), 0);
    /* shifts and rotates */
    CHECK_EQ(30, RI("sll", 0x80000001, 4), 0x00000010);
    CHECK_EQ(31, RI("srl", 0x80000010, 4), 0x08000001);
    CHECK_EQ(32, RI("sra", 0x80000010, 4), 0xF8000001);
    CHECK_EQ(33, RI("rotr", 0x80000011, 4), 0x18000001);
    CHECK_EQ(34, RI("rotr", 0x12345678, 0), 0x12345678);
    CHECK_EQ(35, R2("sllv", 0x00000003, 33), 0x00000006); /* shift amount mod 32 */
    CHECK_EQ(36, R2("srlv", 0x80000000, 31), 1);
    CHECK_EQ(37, R2("srav", 0x80000000, 31), 0xFFFFFFFF);
    CHECK_EQ(38, R2("rotrv", 0x000000F1, 4), 0x1000000F);
    CHECK_EQ(39, R2("rotrv", 0x000000F1, 36), 0x1000000F);
    /* multiply / divide */
    uint64_t hl = HL("mult", -3, 5, 0, 0);
    CHECK_EQ(40, (u32)hl, (u32)-15);
    CHECK_EQ(41, (u32)(hl >> 32), 0xFFFFFFFF);
    hl = HL("multu", 0xFFFFFFFF, 0xFFFFFFFF, 0, 0);
    CHECK_EQ(42, (u32)hl, 1);
    CHECK_EQ(43, (u32)(hl >> 32), 0xFFFFFFFE);
    hl = HL("div $0,", -7, 2, 0, 0);
    CHECK_EQ(44, (u32)hl, (u32)-3);
    CHECK_EQ(45, (u32)(hl >> 32), (u32)-1);
    hl = HL("divu $0,", 0xFFFFFFFF, 16, 0, 0);
    CHECK_EQ(46, (u32)hl, 0x0FFFFFFF);
    CHECK_EQ(47, (u32)(hl >> 32), 15);
    /* divide by zero: no exception, HI/LO unchanged in this model */
    hl = HL("div $0,", 5, 0, 0x1111, 0x2222);
    CHECK_EQ(48, (u32)hl, 0x2222);
    CHECK_EQ(49, (u32)(hl >> 32), 0x1111);
    hl = HL("divu $0,", 5, 0, 0x3333, 0x4444);
    CHECK_EQ(50, (u32)hl, 0x4444);
    /* INT_MIN / -1 does not trap */
    hl = HL("div $0,", 0x80000000, -1, 0, 0);
    CHECK_EQ(51, (u32)hl, 0x80000000);
    CHECK_EQ(52, (u32)(hl >> 32), 0);
    /* multiply-accumulate */
    hl = HL("madd", -2, 3, 0, 10);
    CHECK_EQ(53, (u32)hl, 4);
    CHECK_EQ(54, (u32)(hl >> 32), 0);
    hl = HL("madd", -2, 3, 0, 2);
    CHECK_EQ(55, (u32)hl, (u32)-4);
    CHECK_EQ(56, (u32)(hl >> 32), 0xFFFFFFFF);
    hl = HL("maddu", 0xFFFFFFFF, 2, 1, 0xFFFFFFFF);
    CHECK_EQ(57, (u32)hl, 0xFFFFFFFD);
    CHECK_EQ(58, (u32)(hl >> 32), 3);
    hl = HL("msub", 3, 4, 0, 10);
    CHECK_EQ(59, (u32)hl, (u32)-2);
    CHECK_EQ(60, (u32)(hl >> 32), 0xFFFFFFFF);
    hl = HL("msubu", 0xFFFFFFFF, 1, 0, 0);
    CHECK_EQ(61, (u32)hl, 1);
    CHECK_EQ(62, (u32)(hl >> 32), 0xFFFFFFFF);
    CHECK_EQ(63, R2("mul", -7, 6), (u32)-42);
    CHECK_EQ(64, R2("mul", 0x10001, 0x10001), 0x00020001);
    /* mul leaves HI/LO alone */
    {
        uint32_t h, l, d;
        __asm__ volatile("mthi %3\n\tmtlo %3\n\tmul %2, %3, %3\n\tmfhi %0\n\tmflo %1"
                         : "=r"(h), "=r"(l), "=r"(d)
                         : "r"(7));
        CHECK_EQ(65, h, 7);
        CHECK_EQ(66, l, 7);
        CHECK_EQ(67, d, 49);
    }
    /* count leading zeros/ones */
    CHECK_EQ(70, R1("clz", 0), 32);
    CHECK_EQ(71, R1("clz", 0x00010000), 15);
    CHECK_EQ(72, R1("clz", 0x80000000), 0);
    CHECK_EQ(73, R1("clo", 0xFFFFFFFF), 32);
    CHECK_EQ(74, R1("clo", 0xFFF0FFFF), 12);
    CHECK_EQ(75, R1("clo", 0), 0);
    /* conditional moves */
    {
        uint32_t d = 5;
        __asm__ volatile("movz %0, %1, %2" : "+r"(d) : "r"(9), "r"(0));
        CHECK_EQ(80, d, 9);
        __asm__ volatile("movz %0, %1, %2" : "+r"(d) : "r"(7), "r"(1));
        CHECK_EQ(81, d, 9);
        __asm__ volatile("movn %0, %1, %2" : "+r"(d) : "r"(3), "r"(1));
        CHECK_EQ(82, d, 3);
        __asm__ volatile("movn %0, %1, %2" : "+r"(d) : "r"(4), "r"(0));
        CHECK_EQ(83, d, 3);
    }
    /* R2 bit field / byte ops */
    {
        uint32_t r;
        __asm__ volatile("ext %0, %1, 4, 8" : "=r"(r) : "r"(0x12345678));
        CHECK_EQ(90, r, 0x67);
        __asm__ volatile("ext %0, %1, 0, 32" : "=r"(r) : "r"(0x12345678));
        CHECK_EQ(91, r, 0x12345678);
        __asm__ volatile("ext %0, %1, 31, 1" : "=r"(r) : "r"(0x80000000));
        CHECK_EQ(92, r, 1);
        r = 0xFFFFFFFF;
        __asm__ volatile("ins %0, %1, 8, 12" : "+r"(r) : "r"(0xABC));
        CHECK_EQ(93, r, 0xFFFABCFF);
        r = 0;
        __asm__ volatile("ins %0, %1, 0, 32" : "+r"(r) : "r"(0xDEADBEEF));
        CHECK_EQ(94, r, 0xDEADBEEF);
        CHECK_EQ(95, R1("wsbh", 0x11223344), 0x22114433);
        CHECK_EQ(96, R1("seb", 0x00000080), 0xFFFFFF80);
        CHECK_EQ(97, R1("seb", 0xFFFFFF7F), 0x7F);
        CHECK_EQ(98, R1("seh", 0x00008000), 0xFFFF8000);
        CHECK_EQ(99, R1("seh", 0xFFFF7FFF), 0x7FFF);
    }
    /* $zero stays zero whatever is written to it */
    {
        uint32_t r;
        __asm__ volatile(".set push\n\t.set noat\n\taddiu $0, $0, 5\n\tlui $0, 0x1234\n\t"
                         "addu $0, %1, %1\n\tmove %0, $0\n\t.set pop"
                         : "=r"(r)
                         : "r"(77));
        CHECK_EQ(100, r, 0);
        /* a load to $0 still loads (and is discarded) */
        static volatile uint32_t word = 0x55;
        __asm__ volatile("lw $0, 0(%1)\n\tmove %0, $0" : "=r"(r) : "r"(&word));
        CHECK_EQ(101, r, 0);
    }
    /* mthi/mtlo/mfhi/mflo */
    {
        uint32_t h, l;
        __asm__ volatile("mthi %2\n\tmtlo %3\n\tmfhi %0\n\tmflo %1"
                         : "=r"(h), "=r"(l)
                         : "r"(0xAAAA5555), "r"(0x5555AAAA));
        CHECK_EQ(110, h, 0xAAAA5555);
        CHECK_EQ(111, l, 0x5555AAAA);
    }
    return 0;
}
