/* SPDX-License-Identifier: GPL-2.0 */
/*
 * High memory: RAM above the linear map (remote clusters, beyond the
 * lowmem limit) reached through temporary mappings, kmap_local_page() in
 * the fixmap (asm/fixmap.h) and kmap() in one big-page region of PTEs
 * below it (PKMAP_BASE, asm/pgtable.h). The TLBs snoop page-table writes
 * and the caches are physically tagged and coherent: mapping and
 * unmapping need no flush.
 */
#ifndef _ASM_MMU_CP2_HIGHMEM_H
#define _ASM_MMU_CP2_HIGHMEM_H

#include <asm/fixmap.h>
#include <asm/kmap_size.h>
#include <asm/pgtable.h>

#define LAST_PKMAP		PTRS_PER_PTE
#define LAST_PKMAP_MASK		(LAST_PKMAP - 1)
#define PKMAP_NR(virt)		(((virt) - PKMAP_BASE) >> PAGE_SHIFT)
#define PKMAP_ADDR(nr)		(PKMAP_BASE + ((nr) << PAGE_SHIFT))

#define flush_cache_kmaps()	do { } while (0)

extern pte_t *pkmap_page_table;

#endif /* _ASM_MMU_CP2_HIGHMEM_H */
