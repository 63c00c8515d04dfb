/*
 * t_mc_mem: 40-bit physical addresses (tsar-multicluster.md 4.1, 4.2) from
 * CPU 0: every cluster's RAM through DATA_PADDR_EXT, through 4 KiB pages
 * whose 28-bit PPNs (and the PT2 itself) are in other clusters, through
 * big pages (19-bit PPN1), and through a first-level table in another
 * cluster (PTPR = PA >> 13); the walker's L and R bits; code fetched from
 * another cluster with INST_PADDR_EXT; bus errors where nothing is mapped;
 * and the simhelper's access counters.  Prints one line per check group.
 */
#include "mc.h"
#include "mmu.h"

#define PAT_OFF 0x04000000u    /* pattern word k at + 4 * k in each cluster */
#define PT2_OFF 0x05000000u    /* the PT2, in the last cluster */
#define PT1_OFF 0x06000000u    /* a copy of the PT1, in the last cluster */
#define PAGE_VA 0x40000000u    /* + i * page: cluster i's pattern page (PT2) */
#define BIG_VA 0x60000000u     /* + i * big page: cluster i's pattern big page */
#define CODE_OFF 0x06F00000u   /* the INST_PADDR_EXT trampoline */

static uint32_t clusters[256], ncl;

static uint32_t counter(uint32_t cl, int remote)
{
    return REG32(SIMHELPER_BASE + MC_COUNTERS + 8 * cl + (remote ? 4 : 0));
}

static uint32_t pat(uint32_t k) { return 0xC0DE0000u | clusters[k] << 8 | k; }

int main(void)
{
    ncl = (uint32_t)probe(0, clusters);
    CHECK(1, ncl >= 2 && clusters[0] == 0);
    uint32_t last = clusters[ncl - 1];

    /* DATA_PADDR_EXT: distinct memory in every cluster */
    MTC2(CP2_DATA_PADDR_EXT, 0x1234);
    CHECK_EQ(2, MFC2(CP2_DATA_PADDR_EXT), 0x34);
    MTC2(CP2_DATA_PADDR_EXT, 0);
    for (uint32_t k = 0; k < ncl; k++)
        for (uint32_t j = 0; j < ncl; j++)
            pwrite(clusters[k], PAT_OFF + 4 * j, pat(k));
    for (uint32_t k = 0; k < ncl; k++)
        for (uint32_t j = 0; j < ncl; j++)
            CHECK_EQ(3, pread(clusters[k], PAT_OFF + 4 * j), pat(k));
    puts_("paddr_ext ok\n");

    /* bus errors: no RAM, no device */
    EXPECT_EXC(4, EXC_DBE, (void)pread(0xEE, 0));
    EXPECT_EXC(5, EXC_DBE, (void)pread(last, XICU_REG(XICU_CONFIG, 0) + 0x100000));
    EXPECT_EXC(6, EXC_DBE, pwrite(0xEE, 0x1000, 1));

    /* page tables: PT2 in the last cluster, 28-bit PPNs to every cluster */
    map_identity(pt1);
    uint64_t pt2 = (uint64_t)last << 32 | PT2_OFF;
    pt1[PAGE_VA >> MMU_BIG_PAGE_SHIFT] = PTE_V | PTE_T | (uint32_t)(pt2 >> MMU_PAGE_SHIFT);
    for (uint32_t i = 0; i < ncl; i++) {
        uint64_t pa = (uint64_t)clusters[i] << 32 | PAT_OFF;
        pwrite(last, PT2_OFF + 8 * i, PTE_V | PTE_C | PTE_W);
        pwrite(last, PT2_OFF + 8 * i + 4 * PTE2_PPN_WORD, (uint32_t)(pa >> MMU_PAGE_SHIFT));
        map_big(pt1, BIG_VA + i * MMU_BIG_PAGE_SIZE, pa & ~(uint64_t)(MMU_BIG_PAGE_SIZE - 1),
                PTE_V | PTE_C | PTE_W);
    }
    mmu_on(pt1);
    for (uint32_t i = 0; i < ncl; i++) {
        CHECK_EQ(10, *(volatile uint32_t *)(PAGE_VA + i * MMU_PAGE_SIZE + 4 * i), pat(i));
        CHECK_EQ(11, *(volatile uint32_t *)(BIG_VA + i * MMU_BIG_PAGE_SIZE +
                                            (PAT_OFF & (MMU_BIG_PAGE_SIZE - 1)) + 4 * i), pat(i));
    }
    /* a write through a remote page lands in that cluster */
    *(volatile uint32_t *)(PAGE_VA + (ncl - 1) * MMU_PAGE_SIZE + 4 * ncl) = 0xFEED;
    mmu_off();
    CHECK_EQ(12, pread(last, PAT_OFF + 4 * ncl), 0xFEED);
    /* L when the page's memory is in CPU 0's cluster, R otherwise; D on the write */
    for (uint32_t i = 0; i < ncl; i++) {
        uint32_t want = clusters[i] == 0 ? PTE_L : PTE_R;
        CHECK_EQ(13, pread(last, PT2_OFF + 8 * i) & (PTE_L | PTE_R), want);
        CHECK_EQ(14, pt1[(BIG_VA >> MMU_BIG_PAGE_SHIFT) + i] & (PTE_L | PTE_R), want);
    }
    CHECK(15, pread(last, PT2_OFF + 8 * (ncl - 1)) & PTE_D);
    puts_("page tables ok\n");

    /* the PT1 itself in the last cluster: PTPR = PA >> 13 */
    for (uint32_t i = 0; i < PT1_ENTRIES; i++)
        pwrite(last, PT1_OFF + 4 * i, pt1[i]);
    uint64_t rpt1 = (uint64_t)last << 32 | PT1_OFF;
    MTC2(CP2_PTPR, (uint32_t)(rpt1 >> MMU_PTPR_SHIFT));
    MTC2(CP2_MODE, MMU_MODE_ALL);
    uint32_t sum = 0;
    for (uint32_t i = 0; i < ncl; i++)
        sum += *(volatile uint32_t *)(PAGE_VA + i * MMU_PAGE_SIZE + 4 * i);
    mmu_off();
    uint32_t want = 0;
    for (uint32_t i = 0; i < ncl; i++)
        want += pat(i);
    CHECK_EQ(16, sum, want);
    puts_("remote ptpr ok\n");

    /* INST_PADDR_EXT: X: mtc2 a0, $ipext (cluster 0); X+4, X+8 in cluster
     * `last`: ori v0, 0x55; mtc2 zero, $ipext; then cluster 0 again: X+12
     * nop, X+16 jr ra.  Without INST_PADDR_EXT: ori v0, 0x66; jr ra. */
    volatile uint32_t *x = (volatile uint32_t *)CODE_OFF;
    uint32_t mtc2_ip = 0x48800000u | CP2_INST_PADDR_EXT << 11;
    x[0] = mtc2_ip | 4u << 16;     /* mtc2 a0 */
    x[1] = 0x34020066u;            /* ori v0, zero, 0x66 */
    x[2] = 0x03E00008u;            /* jr ra */
    x[3] = 0;
    x[4] = 0x03E00008u;
    x[5] = 0;
    pwrite(last, CODE_OFF + 4, 0x34020055u);  /* ori v0, zero, 0x55 */
    pwrite(last, CODE_OFF + 8, mtc2_ip);      /* mtc2 zero */
    uint32_t r = ((uint32_t(*)(uint32_t))CODE_OFF)(last);
    CHECK_EQ(20, r, 0x55);
    CHECK_EQ(21, MFC2(CP2_INST_PADDR_EXT), 0);
    puts_("inst_paddr_ext ok\n");

    /* counters: each pread after a PADDR_EXT change fills one soft-TLB
     * entry: one remote access each.  They need a 4 KiB simhelper window. */
    int e0 = exc_count;
    exc_expect = 1;
    (void)counter(0, 0);
    exc_expect = 0;
    if (exc_count != e0) {
        puts_("counters not mapped (simhelper window)\n");
        return 0;
    }
    uint32_t l0 = counter(0, 0), r0 = counter(0, 1);
    for (uint32_t i = 0; i < 10; i++)
        (void)pread(last, PAT_OFF + i * MMU_PAGE_SIZE);
    CHECK_EQ(30, counter(0, 1) - r0, 10);
    CHECK(31, counter(0, 0) > l0);
    puts_("counters ok\n");
    return 0;
}
