/*
 * t_exc: synchronous exceptions - AdEL/AdES (data and fetch), Ov, Tr (incl.
 * the clz/clo quirk), Sys, Bp, RI, CpU (CE), bus errors (DBE/IBE with
 * DETR/IETR/DBVAR/IBVAR/BadVAddr), EPC/BD for exceptions in delay slots,
 * and the EXL=1 rule (EPC not updated).
 */
#include "mmu.h"
#include "test.h"

static volatile uint32_t word[2] __attribute__((aligned(8))) = {0x11111111, 0x22222222};

/* Run `text` (one faulting instruction first) at a known address, with
 * $a0 = x, $a1 = y; returns the address of the first instruction. */
#define AT(text, x, y)                                                        \
    ({                                                                        \
        uint32_t pc_;                                                         \
        register uint32_t a0_ __asm__("a0") = (uint32_t)(x);                  \
        register uint32_t a1_ __asm__("a1") = (uint32_t)(y);                  \
        __asm__ volatile(".set push\n\t.set noreorder\n\t.set noat\n\t"       \
                         "la %0, 1f\n\t"                                      \
                         "1: " text "\n\t"                                    \
                         "nop\n\t.set pop"                                    \
                         : "=&r"(pc_), "+r"(a0_), "+r"(a1_)                   \
                         :                                                    \
                         : "t9", "memory");                                   \
        pc_;                                                                  \
    })

/* Expect exactly one exception `code` with EPC = the instruction, BD = 0. */
#define EXPECT_AT(n, code, text, x, y)                                        \
    do {                                                                      \
        int c0_ = exc_count;                                                  \
        exc_expect = 1;                                                       \
        uint32_t pc_ = AT(text, x, y);                                        \
        exc_expect = 0;                                                       \
        CHECK_EQ(n, exc_count - c0_, 1);                                      \
        CHECK_EQ(n, EXCCODE(exc_cause), code);                                \
        CHECK_EQ(n, exc_epc, pc_);                                            \
        CHECK_EQ(n, exc_cause & CAUSE_BD, 0);                                 \
    } while (0)

#define EXPECT_NONE(n, text, x, y)                                            \
    do {                                                                      \
        int c0_ = exc_count;                                                  \
        AT(text, x, y);                                                       \
        CHECK_EQ(n, exc_count - c0_, 0);                                      \
    } while (0)

int main(void)
{
    uint32_t a = (uint32_t)(uintptr_t)word;

    /* ---- address errors on data ---- */
    EXPECT_AT(1, EXC_ADEL, "lw $t9, 1($a0)", a, 0);
    CHECK_EQ(1, exc_badvaddr, a + 1);
    EXPECT_AT(2, EXC_ADEL, "lh $t9, 3($a0)", a, 0);
    CHECK_EQ(2, exc_badvaddr, a + 3);
    EXPECT_AT(3, EXC_ADEL, "lhu $t9, 1($a0)", a, 0);
    EXPECT_AT(4, EXC_ADES, "sw $t9, 2($a0)", a, 0);
    CHECK_EQ(4, exc_badvaddr, a + 2);
    EXPECT_AT(5, EXC_ADES, "sh $t9, 1($a0)", a, 0);
    CHECK_EQ(5, exc_badvaddr, a + 1);
    CHECK_EQ(6, word[0], 0x11111111); /* nothing was written */
    EXPECT_AT(7, EXC_ADEL, "ll $t9, 2($a0)", a, 0);
    EXPECT_AT(8, EXC_ADES, "sc $t9, 2($a0)", a, 0);
    /* lwl/lwr/swl/swr never raise address errors */
    EXPECT_NONE(9, "lwl $t9, 1($a0)\n\tswr $a1, 3($a0)", a, 0x11111111);

    /* ---- address error on fetch: jump to a misaligned address ---- */
    {
        uint32_t target, back;
        int c0 = exc_count;
        exc_expect = 1;
        __asm__ volatile(".set push\n\t.set noreorder\n\t"
                         "la   %0, 1f\n\t"
                         "la   %1, 2f\n\t"
                         "addiu %0, %0, 2\n\t"
                         "sw   %1, exc_resume\n\t"
                         "jr   %0\n\t"
                         "nop\n\t"
                         "1: nop\n\t"
                         "2: nop\n\t"
                         ".set pop"
                         : "=&r"(target), "=&r"(back)::"memory");
        exc_expect = 0;
        CHECK_EQ(10, exc_count - c0, 1);
        CHECK_EQ(11, EXCCODE(exc_cause), EXC_ADEL);
        CHECK_EQ(12, exc_epc, target);
        CHECK_EQ(13, exc_badvaddr, target);
        CHECK_EQ(14, exc_cause & CAUSE_BD, 0);
    }

    /* ---- overflow: destination untouched ---- */
    {
        register uint32_t d __asm__("t9") = 0x5A5A;
        int c0 = exc_count;
        exc_expect = 1;
        __asm__ volatile("add $t9, %1, %1" : "+r"(d) : "r"(0x40000000));
        exc_expect = 0;
        CHECK_EQ(20, exc_count - c0, 1);
        CHECK_EQ(21, EXCCODE(exc_cause), EXC_OV);
        CHECK_EQ(22, d, 0x5A5A);
    }
    EXPECT_AT(23, EXC_OV, "addi $t9, $a0, 1", 0x7FFFFFFF, 0);
    EXPECT_AT(24, EXC_OV, "sub $t9, $a0, $a1", 0x80000000, 1);
    EXPECT_AT(25, EXC_OV, "add $t9, $a0, $a1", 0x80000000, 0xFFFFFFFF);
    EXPECT_NONE(26, "add $t9, $a0, $a1\n\tsub $t9, $a0, $a1\n\taddi $t9, $a0, -1", 0x7FFFFFFF,
                0);
    EXPECT_NONE(27, "addu $t9, $a0, $a1\n\taddiu $t9, $a0, 1\n\tsubu $t9, $a1, $a0",
                0x7FFFFFFF, 0x80000000);

    /* ---- traps ---- */
    EXPECT_AT(30, EXC_TR, "teq $a0, $a1", 5, 5);
    EXPECT_NONE(31, "teq $a0, $a1", 5, 6);
    EXPECT_AT(32, EXC_TR, "tne $a0, $a1", 5, 6);
    EXPECT_NONE(33, "tne $a0, $a1", 5, 5);
    EXPECT_AT(34, EXC_TR, "tge $a0, $a1", 1, -1);
    EXPECT_NONE(35, "tge $a0, $a1", -1, 1);
    EXPECT_AT(36, EXC_TR, "tgeu $a0, $a1", -1, 1);
    EXPECT_NONE(37, "tgeu $a0, $a1", 1, -1);
    EXPECT_AT(38, EXC_TR, "tlt $a0, $a1", -1, 1);
    EXPECT_NONE(39, "tlt $a0, $a1", 1, -1);
    EXPECT_AT(40, EXC_TR, "tltu $a0, $a1", 1, -1);
    EXPECT_NONE(41, "tltu $a0, $a1", -1, 1);
    /* ISS quirk: clz/clo with rt != rd raise Tr (clz t2, t0 with rt = t1) */
    EXPECT_AT(42, EXC_TR, ".word 0x71095020", 0, 0);
    EXPECT_AT(43, EXC_TR, ".word 0x71095021", 0, 0);

    /* ---- syscall, break ---- */
    EXPECT_AT(50, EXC_SYS, "syscall", 0, 0);
    EXPECT_AT(51, EXC_BP, "break", 0, 0);
    EXPECT_AT(52, EXC_BP, "break 7", 0, 0);

    /* ---- reserved instructions ---- */
    EXPECT_AT(60, EXC_RI, ".word 0xEC000000", 0, 0); /* opcode 0x3B */
    EXPECT_AT(61, EXC_RI, ".word 0x00000005", 0, 0); /* SPECIAL funct 5 */
    EXPECT_AT(62, EXC_RI, ".word 0x42000002", 0, 0); /* tlbwi */
    EXPECT_AT(63, EXC_RI, ".word 0x42000001", 0, 0); /* tlbr */
    EXPECT_AT(64, EXC_RI, ".word 0x4200001F", 0, 0); /* deret */
    EXPECT_AT(65, EXC_RI, ".word 0x7C000001", 0, 0); /* SPECIAL3 funct 1 */
    EXPECT_AT(66, EXC_RI, ".word 0x7C19283B", 0, 0); /* rdhwr t9, $5 */
    EXPECT_AT(67, EXC_RI, ".word 0x7000003F", 0, 0); /* sdbbp */
    EXPECT_AT(68, EXC_RI, ".word 0x48200000", 0, 0); /* cfc2 (COP2, kernel) */
    EXPECT_AT(69, EXC_RI, ".word 0xC8000000", 0, 0); /* lwc2 (kernel) */

    /* ---- coprocessor unusable: no FPU (CE = 1) ---- */
    EXPECT_AT(70, EXC_CPU, ".word 0x44080000", 0, 0); /* mfc1 t0, $f0 */
    CHECK_EQ(70, CAUSE_CE(exc_cause), 1);
    EXPECT_AT(71, EXC_CPU, ".word 0xC4800000", a, 0); /* lwc1 $f0, 0(a0) */
    CHECK_EQ(71, CAUSE_CE(exc_cause), 1);
    EXPECT_AT(72, EXC_CPU, ".word 0xF4800000", a, 0); /* sdc1 */
    CHECK_EQ(72, CAUSE_CE(exc_cause), 1);
    EXPECT_AT(73, EXC_CPU, ".word 0x0000c801", 0, 0); /* movf t9, zero, fcc0 */
    CHECK_EQ(73, CAUSE_CE(exc_cause), 1);

    /* ---- exceptions in delay slots: EPC = branch, BD = 1 ---- */
    {
        uint32_t br, back;
        int c0 = exc_count;
        exc_expect = 1;
        __asm__ volatile(".set push\n\t.set noreorder\n\t"
                         "la   %0, 1f\n\t"
                         "la   %1, 2f\n\t"
                         "sw   %1, exc_resume\n\t"
                         "1: beq $zero, $zero, 2f\n\t"
                         "syscall\n\t"
                         "nop\n\t"
                         "2: nop\n\t.set pop"
                         : "=&r"(br), "=&r"(back)::"memory");
        exc_expect = 0;
        CHECK_EQ(80, exc_count - c0, 1);
        CHECK_EQ(81, EXCCODE(exc_cause), EXC_SYS);
        CHECK_EQ(82, exc_epc, br);
        CHECK_EQ(83, exc_cause & CAUSE_BD, CAUSE_BD);
    }
    {
        /* not-taken branch, address error in the slot */
        uint32_t br;
        int c0 = exc_count;
        exc_expect = 1;
        register uint32_t a0_ __asm__("a0") = a;
        __asm__ volatile(".set push\n\t.set noreorder\n\t"
                         "la   %0, 1f\n\t"
                         "1: bne $zero, $zero, 2f\n\t"
                         "lw   $t9, 1($a0)\n\t"
                         "nop\n\t"
                         "2: nop\n\t.set pop"
                         : "=&r"(br), "+r"(a0_)::"t9", "memory");
        exc_expect = 0;
        CHECK_EQ(84, exc_count - c0, 1);
        CHECK_EQ(85, EXCCODE(exc_cause), EXC_ADEL);
        CHECK_EQ(86, exc_epc, br);
        CHECK_EQ(87, exc_cause & CAUSE_BD, CAUSE_BD);
        CHECK_EQ(88, exc_badvaddr, a + 1);
    }
    {
        /* jr with a break in its slot */
        uint32_t br, tgt;
        int c0 = exc_count;
        exc_expect = 1;
        __asm__ volatile(".set push\n\t.set noreorder\n\t"
                         "la   %1, 2f\n\t"
                         "sw   %1, exc_resume\n\t"
                         "la   %0, 1f\n\t"
                         "1: jr %1\n\t"
                         "break\n\t"
                         "nop\n\t"
                         "2: nop\n\t.set pop"
                         : "=&r"(br), "=&r"(tgt)::"memory");
        exc_expect = 0;
        CHECK_EQ(89, exc_count - c0, 1);
        CHECK_EQ(90, EXCCODE(exc_cause), EXC_BP);
        CHECK_EQ(91, exc_epc, br);
        CHECK_EQ(92, exc_cause & CAUSE_BD, CAUSE_BD);
    }

    {
        /* a branch likely, not taken, in the slot of a not-taken branch: it
         * nullifies its own slot and nothing stays pending (the newer branch
         * wins), so a fault right after it is not in a delay slot */
        uint32_t at;
        int c0 = exc_count;
        exc_expect = 1;
        register uint32_t a0_ __asm__("a0") = a;
        __asm__ volatile(".set push\n\t.set noreorder\n\t"
                         "la   %0, 1f\n\t"
                         "bne  $zero, $zero, 2f\n\t"
                         "beql $zero, $a0, 2f\n\t"
                         "nop\n\t"
                         "1: lw $t9, 1($a0)\n\t"
                         "nop\n\t"
                         "2: nop\n\t.set pop"
                         : "=&r"(at), "+r"(a0_)::"t9", "memory");
        exc_expect = 0;
        CHECK_EQ(93, exc_count - c0, 1);
        CHECK_EQ(94, EXCCODE(exc_cause), EXC_ADEL);
        CHECK_EQ(95, exc_epc, at);
        CHECK_EQ(96, exc_cause & CAUSE_BD, 0);
    }

    /* ---- EXL already set: EPC (and BD) are not updated ---- */
    {
        uint32_t back;
        int c0 = exc_count;
        exc_expect = 1;
        MTC0(14, 0, 0x12345678);
        __asm__ volatile(".set push\n\t.set noreorder\n\t"
                         "la   %0, 2f\n\t"
                         "sw   %0, exc_resume\n\t"
                         "li   $t9, 2\n\t"
                         "mtc0 $t9, $12\n\t" /* EXL */
                         "ehb\n\t"
                         "syscall\n\t"
                         "nop\n\t"
                         "2: nop\n\t.set pop"
                         : "=&r"(back)::"t9", "memory");
        exc_expect = 0;
        CHECK_EQ(95, exc_count - c0, 1);
        CHECK_EQ(96, EXCCODE(exc_cause), EXC_SYS);
        CHECK_EQ(97, exc_epc, 0x12345678);
        MTC0(12, 0, 0);
    }

    /* ---- bus errors (MMU off): unmapped physical addresses ---- */
    EXPECT_AT(100, EXC_DBE, "lw $t9, 0($a0)", 0x30000000, 0);
    CHECK_EQ(101, MFC2(12), MMU_FAULT_READ | MMU_FAULT_DATA_ILLEGAL_ACCESS);
    CHECK_EQ(102, MFC2(14), 0x30000000);
    CHECK_EQ(103, exc_badvaddr, 0x30000000);
    EXPECT_AT(104, EXC_DBE, "sb $t9, 3($a0)", 0x30000100, 0);
    CHECK_EQ(105, MFC2(12), MMU_FAULT_DATA_ILLEGAL_ACCESS); /* write form */
    CHECK_EQ(106, MFC2(14), 0x30000100);      /* word aligned */
    CHECK_EQ(107, exc_badvaddr, 0x30000100);
    /* undefined device registers */
    EXPECT_AT(108, EXC_DBE, "lw $t9, 0xC($a0)", TTY_BASE, 0);
    EXPECT_AT(109, EXC_DBE, "lw $t9, 0($a0)", SIMHELPER_BASE, 0); /* SC_STOP is write-only */
    EXPECT_AT(110, EXC_DBE, "lw $t9, 0x0094($a0)", XICU_BASE, 0); /* PTI_PER[5]: no such PTI */
    EXPECT_AT(111, EXC_DBE, "sw $zero, 0x0180($a0)", XICU_BASE, 0); /* PTI_ACK is read-only */
    EXPECT_AT(112, EXC_DBE, "lw $t9, 0x0C($a0)", BLOCKDEVICE_BASE, 0);     /* OP is write-only */
    EXPECT_AT(113, EXC_DBE, "lw $t9, 0x100($a0)", BLOCKDEVICE_BASE, 0);
    EXPECT_AT(114, EXC_DBE, "lw $t9, 0x100($a0)", 0x1E000000, 0); /* hole between devices */
    /* fetch from an unmapped physical address: IBE, EPC = IBVAR = target */
    {
        uint32_t back;
        int c0 = exc_count;
        exc_expect = 1;
        __asm__ volatile(".set push\n\t.set noreorder\n\t"
                         "la   %0, 2f\n\t"
                         "sw   %0, exc_resume\n\t"
                         "li   $t9, 0x30000040\n\t"
                         "jr   $t9\n\t"
                         "nop\n\t"
                         "2: nop\n\t.set pop"
                         : "=&r"(back)::"t9", "memory");
        exc_expect = 0;
        CHECK_EQ(120, exc_count - c0, 1);
        CHECK_EQ(121, EXCCODE(exc_cause), EXC_IBE);
        CHECK_EQ(122, exc_epc, 0x30000040);
        CHECK_EQ(123, MFC2(11), MMU_FAULT_READ | MMU_FAULT_DATA_ILLEGAL_ACCESS);
        CHECK_EQ(124, MFC2(13), 0x30000040);
        CHECK_EQ(125, exc_cause & CAUSE_BD, 0);
    }
    /* DATA_PADDR_EXT with the MMU off: VA 0x... -> PA (ext << 32) | VA */
    {
        /* (crt0's vector resets DATA_PADDR_EXT, or the handler could not run) */
        int c0 = exc_count;
        exc_expect = 1;
        __asm__ volatile("mtc2 %0, $24\n\tlw $t9, 0(%1)\n\tnop" ::"r"(1), "r"(a) : "t9", "memory");
        exc_expect = 0;
        CHECK_EQ(130, exc_count - c0, 1);
        CHECK_EQ(131, EXCCODE(exc_cause), EXC_DBE);
        CHECK_EQ(132, MFC2(12), MMU_FAULT_READ | MMU_FAULT_DATA_ILLEGAL_ACCESS);
        CHECK_EQ(133, MFC2(14), a);
        EXPECT_NONE(134, "lw $t9, 0($a0)", a, 0);
    }

    /* BadVAddr is not touched by other exceptions */
    EXPECT_AT(140, EXC_ADEL, "lw $t9, 2($a0)", a, 0);
    EXPECT_AT(141, EXC_SYS, "syscall", 0, 0);
    CHECK_EQ(142, MFC0(8, 0), a + 2);
    return 0;
}
