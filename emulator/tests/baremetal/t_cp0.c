/*
 * t_cp0: reset state (GPRs, boot registers, CP0/CP2 reset values), CP0
 * register semantics (reference 1.2): write masks, Count ticking, inert
 * Compare, scratch registers, Config, EBase, software interrupts.
 */
#include "test.h"

static volatile int swi_count;
static volatile uint32_t swi_cause;

static void swi_hook(exc_frame *f, uint32_t cause)
{
    (void)f;
    swi_count++;
    swi_cause = cause;
    MTC0(13, 0, 0); /* clear IP1..0 */
}

int main(void)
{
    /* ---- reset state saved by crt0 ---- */
    for (int i = 1; i < 32; i++)
        if (i != 5)
            CHECK_EQ(1, boot_regs[i], 0);
    uint32_t dtb = boot_regs[5]; /* a1 = DTB physical address */
    CHECK_EQ(2, dtb & 0xFFF, 0);
    CHECK(3, dtb >= HW_RAM0_BASE + HW_RAM0_SIZE - 0x100000 && dtb < HW_RAM0_BASE + HW_RAM0_SIZE); /* top of the RAM bank */
    CHECK_EQ(4, REG32(dtb), 0xedfe0dd0);            /* FDT magic, big-endian */
    CHECK_EQ(5, boot_cp[BOOT_STATUS], 0x00400004);   /* BEV | ERL */
    CHECK_EQ(6, boot_cp[BOOT_CAUSE], 0);
    CHECK_EQ(7, boot_cp[BOOT_EBASE], 0x80000000);
    CHECK_EQ(8, boot_cp[BOOT_PRID], 0x00007000);
    CHECK_EQ(9, boot_cp[BOOT_MODE], 0x3);
    CHECK(10, boot_cp[BOOT_COUNT] < 100);            /* Count starts at 0 */
    CHECK_EQ(11, boot_cp[BOOT_HWRENA], 0);
    CHECK_EQ(12, boot_cp[BOOT_USERLOCAL], 0);
    CHECK_EQ(13, boot_cp[BOOT_DPEXT], 0);
    CHECK_EQ(14, boot_cp[BOOT_IPEXT], 0);

    /* ---- identification ---- */
    CHECK_EQ(20, MFC0(15, 0), 0x00007000);
    CHECK_EQ(21, MFC0(0, 0), 0); /* Index reads the CPU id */
    uint32_t c0 = MFC0(16, 0), c1 = MFC0(16, 1), c2 = MFC0(16, 2), c3 = MFC0(16, 3);
    CHECK_EQ(22, c0 & 0x80000000, 0x80000000); /* M */
    CHECK_EQ(23, (c0 >> 15) & 1, 0);           /* BE = 0: little-endian */
    CHECK_EQ(24, (c0 >> 10) & 7, 1);           /* AR = 1 (release 2) */
    CHECK_EQ(25, (c0 >> 7) & 7, 7);            /* MT = 7 */
    CHECK_EQ(26, c1 & 1, 0);                   /* FP = 0: no FPU */
    CHECK_EQ(27, (c1 >> 6) & 1, 1);            /* C2 = 1: CP2 present */
    CHECK_EQ(28, c1 >> 31, 1);
    CHECK_EQ(29, c2 >> 31, 1);
    CHECK_EQ(30, c3 & ((1u << 13) | (1u << 5)), (1u << 13) | (1u << 5)); /* ULRI, VInt */

    /* ---- EBase: bits 31..12 writable, 11..0 = CPUNum ---- */
    uint32_t eb = MFC0(15, 1);
    CHECK_EQ(40, eb, 0x00010000); /* crt0 set it to _start */
    MTC0(15, 1, 0xFFFFFFFF);
    CHECK_EQ(41, MFC0(15, 1), 0xFFFFF000);
    MTC0(15, 1, eb);

    /* ---- Status / Cause / IntCtl write masks ---- */
    CHECK_EQ(50, MFC0(12, 0), 0);
    MTC0(12, 0, 0x0000FF00);
    CHECK_EQ(51, MFC0(12, 0), 0x0000FF00);
    MTC0(12, 0, 0);
    MTC0(13, 0, 0xFFFFFFFF);
    CHECK_EQ(52, MFC0(13, 0) & 0x08C00300, 0x08C00300);
    CHECK_EQ(53, MFC0(13, 0) & ~0x08C00300u & ~0xFC00u, 0);
    MTC0(13, 0, 0);
    CHECK_EQ(54, MFC0(13, 0), 0);
    MTC0(12, 1, 0xFFFFFFFF);
    CHECK_EQ(55, MFC0(12, 1) & ~(7u << 26), 0xFC0); /* IPPCI: t_pmu */
    MTC0(12, 1, 0);

    /* ---- Count ticks one per instruction; writable; Compare inert ---- */
    uint32_t t1 = count_now();
    for (volatile int i = 0; i < 100; i++)
        ;
    uint32_t t2 = count_now();
    CHECK(60, t2 - t1 >= 300 && t2 - t1 < 5000);
    MTC0(9, 0, 0x12345678);
    uint32_t t3 = count_now();
    CHECK(61, t3 - 0x12345678 < 20);
    MTC0(11, 0, count_now() + 50); /* Compare: must never interrupt */
    MTC0(12, 0, 0xFF01);           /* all IM + IE */
    for (volatile int i = 0; i < 100; i++)
        ;
    MTC0(12, 0, 0);
    CHECK_EQ(62, MFC0(11, 0) - t3 < 200, 1);
    /* a simhelper CYCLES read follows Count */
    uint32_t cy1 = REG32(SIMHELPER_BASE + SIMHELPER_CYCLES);
    uint32_t cy2 = REG32(SIMHELPER_BASE + SIMHELPER_CYCLES);
    CHECK(63, cy2 - cy1 > 0 && cy2 - cy1 < 20);

    /* ---- plain R/W registers ---- */
    MTC0(2, 5, 0xCAFEBABE);
    CHECK_EQ(70, MFC0(2, 5), 0xCAFEBABE);
    MTC0(4, 2, 0x11223344);
    CHECK_EQ(71, MFC0(4, 2), 0x11223344);
    MTC0(7, 0, 0x2000000D);
    CHECK_EQ(72, MFC0(7, 0), 0x2000000D);
    MTC0(7, 0, 0);
    MTC0(14, 0, 0x87654321);
    CHECK_EQ(73, MFC0(14, 0), 0x87654321);
    MTC0(30, 0, 0x0BADF00D);
    CHECK_EQ(74, MFC0(30, 0), 0x0BADF00D);
    MTC0(23, 0, 0); /* Debug: write accepted (Linux does this at boot) */
    /* unimplemented registers read 0 and ignore writes */
    MTC0(10, 0, 0xFFFFFFFF);
    CHECK_EQ(75, MFC0(10, 0), 0);
    CHECK_EQ(76, MFC0(3, 0), 0);
    CHECK_EQ(77, MFC0(6, 0), 0);
    /* BadVAddr is read-only */
    uint32_t bv = MFC0(8, 0);
    MTC0(8, 0, bv ^ 0xFFFF0000);
    CHECK_EQ(78, MFC0(8, 0), bv);

    /* ---- di / ei ---- */
    uint32_t old;
    MTC0(12, 0, 0x0000FF00);
    __asm__ volatile("ei %0" : "=r"(old));
    CHECK_EQ(80, old, 0x0000FF00);
    CHECK_EQ(81, MFC0(12, 0), 0x0000FF01);
    __asm__ volatile("di %0" : "=r"(old));
    CHECK_EQ(82, old, 0x0000FF01);
    CHECK_EQ(83, MFC0(12, 0), 0x0000FF00);
    MTC0(12, 0, 0);

    /* ---- software interrupts IP0/IP1 ---- */
    irq_hook = swi_hook;
    MTC0(13, 0, 0x100); /* IP0 pending, but masked */
    MTC0(12, 0, 0x0001);
    CHECK_EQ(90, swi_count, 0);
    MTC0(12, 0, 0x0201); /* IM1 only: IP0 still masked */
    CHECK_EQ(91, swi_count, 0);
    MTC0(12, 0, 0x0101); /* IM0: taken */
    __asm__ volatile("nop");
    CHECK_EQ(92, swi_count, 1);
    CHECK_EQ(93, EXCCODE(swi_cause), 0);
    CHECK_EQ(94, swi_cause & 0x300, 0x100);
    MTC0(13, 0, 0x200); /* IP1 with IM0 only: not taken */
    __asm__ volatile("nop");
    CHECK_EQ(95, swi_count, 1);
    MTC0(12, 0, 0x0301);
    __asm__ volatile("nop");
    CHECK_EQ(96, swi_count, 2);
    /* EXL masks interrupts */
    MTC0(12, 0, 0x0103);
    MTC0(13, 0, 0x100);
    __asm__ volatile("nop");
    CHECK_EQ(97, swi_count, 2);
    MTC0(12, 0, 0);
    MTC0(13, 0, 0);
    irq_hook = 0;

    /* ---- vector selection ---- */
    /* Cause.IV = 1: interrupts use EBase + 0x200 */
    irq_hook = swi_hook;
    MTC0(13, 0, 0x00800000);         /* IV */
    MTC0(12, 0, 0x0101);
    CHECK_EQ(110, iv_hits, 0);
    MTC0(13, 0, 0x00800100);         /* IV + IP0 */
    __asm__ volatile("nop");
    CHECK_EQ(111, iv_hits, 1);
    CHECK_EQ(112, swi_count, 3);
    MTC0(12, 0, 0);
    MTC0(13, 0, 0x00800000);
    /* exceptions other than interrupts still use +0x180 with IV = 1 */
    EXPECT_EXC(113, EXC_SYS, __asm__ volatile("syscall"));
    CHECK_EQ(114, iv_hits, 1);
    MTC0(13, 0, 0);
    irq_hook = 0;
    /* Status.BEV = 1: vector = reset address (ELF entry) + 0x380 */
    MTC0(12, 0, ST_BEV);
    EXPECT_EXC(115, EXC_SYS, __asm__ volatile("syscall"));
    CHECK_EQ(116, bev_hits, 1);
    MTC0(12, 0, 0);
    EXPECT_EXC(117, EXC_SYS, __asm__ volatile("syscall"));
    CHECK_EQ(118, bev_hits, 1);

    /* ---- ERL: eret returns to ErrorEPC and clears ERL ---- */
    {
        uint32_t r;
        __asm__ volatile(".set push\n\t.set noreorder\n\t"
                         "la    $t0, 1f\n\t"
                         "mtc0  $t0, $30\n\t"
                         "li    $t1, 0x6\n\t" /* ERL | EXL */
                         "mtc0  $t1, $12\n\t"
                         "ehb\n\t"
                         "eret\n\t"
                         "li    %0, 1\n\t" /* skipped */
                         "1: mfc0 %0, $12\n\t"
                         ".set pop"
                         : "=r"(r)::"t0", "t1");
        CHECK_EQ(100, r, 0x2); /* ERL cleared first, EXL kept */
        MTC0(12, 0, 0);
    }
    return 0;
}
