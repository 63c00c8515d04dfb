/* mmu.c - page-table helpers for the bare-metal tests. */
#include "mmu.h"
#include "test.h"

uint32_t pt1[2048] __attribute__((aligned(8192)));
static pte2_t pt2_pool[8][512] __attribute__((aligned(4096)));
static int pt2_used;

void map_big(uint32_t *pt, uint32_t va, uint64_t pa, uint32_t flags)
{
    pt[va >> 21] = (flags & ~PTE_T) | (uint32_t)(pa >> 21);
}

volatile pte2_t *map_page(uint32_t *pt, uint32_t va, uint64_t pa, uint32_t flags)
{
    uint32_t *e1 = &pt[va >> 21];
    pte2_t *pt2;
    if ((*e1 & (PTE_V | PTE_T)) == (PTE_V | PTE_T)) {
        pt2 = (pte2_t *)(uintptr_t)((*e1 & 0x0FFFFFFF) << 12);
    } else {
        if (pt2_used >= 8)
            fail(240, "out of PT2 pages", 0, 0);
        pt2 = pt2_pool[pt2_used++];
        for (int i = 0; i < 512; i++)
            pt2[i].flags = pt2[i].ppn = 0;
        *e1 = PTE_V | PTE_T | ((uint32_t)(uintptr_t)pt2 >> 12);
    }
    volatile pte2_t *e = &pt2[(va >> 12) & 511];
    e->ppn = (uint32_t)(pa >> 12);
    e->flags = flags;
    return e;
}

void map_identity(uint32_t *pt)
{
    for (uint32_t a = 0; a < 0x02000000; a += 0x200000)
        map_big(pt, a, a, PTE_KERNEL);
    map_big(pt, XICU_BASE, XICU_BASE, PTE_V | PTE_W | PTE_G);
    map_big(pt, TTY_BASE, TTY_BASE, PTE_V | PTE_W | PTE_G);
    map_big(pt, BDEV_BASE, BDEV_BASE, PTE_V | PTE_W | PTE_G);
    map_big(pt, SIMHELPER_BASE, SIMHELPER_BASE, PTE_V | PTE_W | PTE_G);
}

void mmu_on(uint32_t *pt)
{
    MTC2(10, 0); /* SYNC */
    MTC2(0, (uint32_t)(uintptr_t)pt >> 13);
    MTC2(1, 0xF);
    __asm__ volatile("nop; nop" ::: "memory");
}

void mmu_off(void)
{
    MTC2(1, 0x3);
    __asm__ volatile("nop; nop" ::: "memory");
}
