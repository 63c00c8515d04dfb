/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mmu-cp2/include/asm/sparsemem.h: edit that
 * file.
 */
/*
 * Sections of the sparse memory map.
 *
 * The walker's page numbers reach all of the physical space, but a 32-bit
 * kernel keeps page frame numbers in the 26-bit offset of a swap entry
 * (migration entries): RAM must sit below 2^(26 + PAGE_SHIFT) = 256 GiB,
 * the clusters of the first four columns of a TSAR mesh (paging_init()
 * leaves the rest out). A section number lives in page->flags, where 6.1's
 * 22 page flags and the zone leave 8 bits: 1 GiB sections. The memory
 * map over a section's holes is given back at boot (pfn_valid(), mm/init.c).
 */
#ifndef _ASM_MMU_CP2_SPARSEMEM_H
#define _ASM_MMU_CP2_SPARSEMEM_H

#include <asm/mem-layout.h>

#define SWAP_PFN_LIMIT_BITS	(26 + 12)
#if PHYS_ADDR_BITS < SWAP_PFN_LIMIT_BITS
#define MAX_PHYSMEM_BITS	PHYS_ADDR_BITS
#else
#define MAX_PHYSMEM_BITS	SWAP_PFN_LIMIT_BITS
#endif
#define SECTION_SIZE_BITS	(MAX_PHYSMEM_BITS - 8)

#endif /* _ASM_MMU_CP2_SPARSEMEM_H */
