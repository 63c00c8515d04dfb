/* mmu.h - the runtime's page-table helpers (reference 2.3). */
#ifndef MMU_H
#define MMU_H

#include <stdint.h>

#include "runtime.h"

/* PTE bits (PTE_V, ...), CP2 register numbers (CP2_*), MMU fault types
 * (MMU_FAULT_*) and the page-table geometry: hwdesc.h (the spec's mmu). */
#define PTE_KERNEL (PTE_V | PTE_C | PTE_W | PTE_X | PTE_G)

extern uint32_t pt1[PT1_ENTRIES];   /* PT1_ALIGN aligned */
typedef struct { uint32_t flags, ppn; } pte2_t;

/* PTE1 (big page): va and pa MMU_BIG_PAGE_SIZE aligned */
void map_big(uint32_t *pt, uint32_t va, uint64_t pa, uint32_t flags);
/* MMU_PAGE_SIZE page through a PT2 allocated from a small pool; returns the PTE2 */
volatile pte2_t *map_page(uint32_t *pt, uint32_t va, uint64_t pa, uint32_t flags);
/* kernel identity map (PTE1, global) of RAM [0, 32 MiB) and the devices */
void map_identity(uint32_t *pt);
void mmu_on(uint32_t *pt);   /* PTPR = pa(pt) >> MMU_PTPR_SHIFT, MODE = MMU_MODE_ALL */
void mmu_off(void);          /* MODE = caches only */

#endif
