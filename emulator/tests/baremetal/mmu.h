/* mmu.h - page-table helpers for the bare-metal tests (reference 2.3). */
#ifndef MMU_H
#define MMU_H

#include <stdint.h>

#define PTE_V 0x80000000u
#define PTE_T 0x40000000u
#define PTE_L 0x20000000u
#define PTE_R 0x10000000u
#define PTE_C 0x08000000u
#define PTE_W 0x04000000u
#define PTE_X 0x02000000u
#define PTE_U 0x01000000u
#define PTE_G 0x00800000u
#define PTE_D 0x00400000u
#define PTE_KERNEL (PTE_V | PTE_C | PTE_W | PTE_X | PTE_G)

/* CP2 register numbers */
enum { MMU_PTPR = 0, MMU_MODE = 1, MMU_ICACHE_FLUSH = 2, MMU_DCACHE_FLUSH = 3,
       MMU_ITLB_INVAL = 4, MMU_DTLB_INVAL = 5, MMU_SYNC = 10, MMU_IETR = 11,
       MMU_DETR = 12, MMU_IBVAR = 13, MMU_DBVAR = 14, MMU_PARAMS = 15,
       MMU_RELEASE = 16, MMU_WORD_LO = 17, MMU_WORD_HI = 18, MMU_LL_RESET = 21,
       MMU_DPEXT = 24, MMU_IPEXT = 25 };

/* error types */
#define ET_READ 0x1000u
#define ET_PT1_UNMAPPED 0x001u
#define ET_PT2_UNMAPPED 0x002u
#define ET_PRIVILEGE 0x004u
#define ET_ACCES 0x008u
#define ET_EXEC 0x010u
#define ET_UNDEF_XTN 0x020u
#define ET_PT1_ILLEGAL 0x040u
#define ET_PT2_ILLEGAL 0x080u
#define ET_DATA_ILLEGAL 0x100u

extern uint32_t pt1[2048];          /* 8 KiB aligned */
typedef struct { uint32_t flags, ppn; } pte2_t;

/* PTE1 (2 MiB page): va and pa 2 MiB aligned */
void map_big(uint32_t *pt, uint32_t va, uint64_t pa, uint32_t flags);
/* 4 KiB page through a PT2 allocated from a small pool; returns the PTE2 */
volatile pte2_t *map_page(uint32_t *pt, uint32_t va, uint64_t pa, uint32_t flags);
/* kernel identity map (PTE1, global) of RAM [0, 32 MiB) and the devices */
void map_identity(uint32_t *pt);
void mmu_on(uint32_t *pt);   /* PTPR = pa(pt) >> 13, MODE = 0xF */
void mmu_off(void);          /* MODE = 0x3 */

#endif
