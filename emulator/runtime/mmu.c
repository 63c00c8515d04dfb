/* mmu.c - the runtime's page-table helpers (mmu.h). */
#include "mmu.h"

uint32_t pt1[PT1_ENTRIES] __attribute__((aligned(PT1_ALIGN)));
static pte2_t pt2_pool[8][PT2_ENTRIES] __attribute__((aligned(PT2_ALIGN)));
static int pt2_used;

void map_big(uint32_t *pt, uint32_t va, uint64_t pa, uint32_t flags)
{
    pt[va >> MMU_BIG_PAGE_SHIFT] = (flags & ~PTE_T) | (uint32_t)(pa >> MMU_BIG_PAGE_SHIFT);
}

volatile pte2_t *map_page(uint32_t *pt, uint32_t va, uint64_t pa, uint32_t flags)
{
    uint32_t *e1 = &pt[va >> MMU_BIG_PAGE_SHIFT];
    pte2_t *pt2;
    if ((*e1 & (PTE_V | PTE_T)) == (PTE_V | PTE_T)) {
        pt2 = (pte2_t *)(uintptr_t)((*e1 & PTD1_PTPN_MASK) << MMU_PAGE_SHIFT);
    } else {
        if (pt2_used >= (int)(sizeof pt2_pool / sizeof pt2_pool[0]))
            fail(240, "out of PT2 pages", 0, 0);
        pt2 = pt2_pool[pt2_used++];
        for (int i = 0; i < PT2_ENTRIES; i++)
            pt2[i].flags = pt2[i].ppn = 0;
        *e1 = PTE_V | PTE_T | ((uint32_t)(uintptr_t)pt2 >> MMU_PAGE_SHIFT);
    }
    volatile pte2_t *e = &pt2[(va >> MMU_PAGE_SHIFT) & (PT2_ENTRIES - 1)];
    e->ppn = (uint32_t)(pa >> MMU_PAGE_SHIFT);
    e->flags = flags;
    return e;
}

void map_identity(uint32_t *pt)
{
    for (uint32_t a = 0; a < 0x02000000; a += MMU_BIG_PAGE_SIZE)
        map_big(pt, a, a, PTE_KERNEL);
    map_big(pt, XICU_BASE, XICU_BASE, PTE_V | PTE_W | PTE_G);
    map_big(pt, TTY_BASE, TTY_BASE, PTE_V | PTE_W | PTE_G);
    map_big(pt, BLOCKDEVICE_BASE, BLOCKDEVICE_BASE, PTE_V | PTE_W | PTE_G);
    map_big(pt, SIMHELPER_BASE, SIMHELPER_BASE, PTE_V | PTE_W | PTE_G);
}

void mmu_on(uint32_t *pt)
{
    MTC2(CP2_SYNC, 0);
    MTC2(CP2_PTPR, (uint32_t)(uintptr_t)pt >> MMU_PTPR_SHIFT);
    MTC2(CP2_MODE, MMU_MODE_ALL);
    __asm__ volatile("nop; nop" ::: "memory");
}

void mmu_off(void)
{
    MTC2(CP2_MODE, MMU_MODE_DCACHE | MMU_MODE_ICACHE);
    __asm__ volatile("nop; nop" ::: "memory");
}
