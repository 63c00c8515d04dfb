/*
 * t_cp2: CP2 (MMU) register interface - reset values, R/W registers,
 * PARAMS/RELEASE constants, undefined and read-only registers (DBE with
 * UNDEFINED_XTN), cache/TLB maintenance operations accepted.
 */
#include "mmu.h"
#include "test.h"

#define PARAMS_EXP                                                            \
    ((3u << 29) | (3u << 25) | (2u << 22) | (6u << 18) | (3u << 15) | (3u << 11) | \
     (2u << 8) | (6u << 4) | 6u)

int main(void)
{
    CHECK_EQ(1, boot_cp[BOOT_MODE], 3);
    CHECK_EQ(2, boot_cp[BOOT_PTPR], 0);
    CHECK_EQ(3, MFC2(16), 0x00010001); /* RELEASE */
    CHECK_EQ(4, MFC2(15), PARAMS_EXP); /* PARAMS: 8x8 TLBs, 4x64 caches, 64 B lines */
    MTC2(0, 0x12345);
    CHECK_EQ(5, MFC2(0), 0x12345);
    MTC2(0, 0);
    MTC2(17, 0xDEADBEEF);
    MTC2(18, 0x000000FF);
    CHECK_EQ(6, MFC2(17), 0xDEADBEEF);
    CHECK_EQ(7, MFC2(18), 0xFF);
    MTC2(1, 0x3);
    CHECK_EQ(8, MFC2(1), 0x3);
    MTC2(25, 0); /* INST_PADDR_EXT */
    CHECK_EQ(9, MFC2(25), 0);
    /* maintenance operations are accepted */
    MTC2(2, 0);        /* ICACHE_FLUSH */
    MTC2(3, 0);        /* DCACHE_FLUSH */
    MTC2(4, 0x1000);   /* ITLB_INVAL */
    MTC2(5, 0x1000);   /* DTLB_INVAL */
    MTC2(6, 0x1000);   /* ICACHE_INVAL */
    MTC2(7, 0x1000);   /* DCACHE_INVAL */
    MTC2(8, 0x1000);   /* ICACHE_PREFETCH */
    MTC2(9, 0x1000);   /* DCACHE_PREFETCH */
    MTC2(10, 0);       /* SYNC */
    MTC2(19, 0);       /* ICACHE_PA_INV */
    MTC2(20, 0);       /* DCACHE_PA_INV */
    MTC2(21, 0);       /* LL_RESET */
    MTC2(30, 0);       /* DEBUG_MASK */
    __asm__ volatile("sync\n\tpref 0, 0($sp)\n\tcache 0x11, 0($sp)" ::: "memory");
    /* undefined / read-only registers: DBE with UNDEFINED_XTN */
    EXPECT_EXC(20, EXC_DBE, (void)MFC2(22));
    CHECK_EQ(21, MFC2(12), MMU_FAULT_READ | MMU_FAULT_UNDEFINED_XTN);
    EXPECT_EXC(22, EXC_DBE, (void)MFC2(2)); /* write-only register */
    CHECK_EQ(23, MFC2(12), MMU_FAULT_READ | MMU_FAULT_UNDEFINED_XTN);
    EXPECT_EXC(24, EXC_DBE, MTC2(11, 0)); /* IETR is read-only */
    CHECK_EQ(25, MFC2(12), MMU_FAULT_UNDEFINED_XTN);
    EXPECT_EXC(26, EXC_DBE, MTC2(16, 0)); /* RELEASE is read-only */
    EXPECT_EXC(27, EXC_DBE, MTC2(23, 0)); /* DOUBLE_SC: undefined */
    EXPECT_EXC(28, EXC_DBE, (void)MFC2(31));
    /* IETR/IBVAR survive and are readable */
    (void)MFC2(11);
    (void)MFC2(13);
    return 0;
}
