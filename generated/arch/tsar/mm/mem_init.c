// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/mm/mem_init.c: edit that file. */
/*
 * Memory set-up that does not depend on the MMU design: the zero page,
 * the protection map, the zones once the MMU layer's paging_init() has
 * settled what lowmem is (all memory is lowmem: no highmem), and
 * mem_init().
 */

#include <linux/dma-map-ops.h>
#include <linux/init.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <linux/pgtable.h>

#include <asm/setup.h>

unsigned long empty_zero_page[PAGE_SIZE / sizeof(unsigned long)] __page_aligned_bss;
EXPORT_SYMBOL(empty_zero_page);

/* Each MMU layer's pgtable.h says what PAGE_*_EXEC are on its hardware. */
static const pgprot_t protection_map[16] = {
	[VM_NONE]					= PAGE_NONE,
	[VM_READ]					= PAGE_READONLY,
	[VM_WRITE]					= PAGE_COPY,
	[VM_WRITE | VM_READ]				= PAGE_COPY,
	[VM_EXEC]					= PAGE_READONLY_EXEC,
	[VM_EXEC | VM_READ]				= PAGE_READONLY_EXEC,
	[VM_EXEC | VM_WRITE]				= PAGE_COPY_EXEC,
	[VM_EXEC | VM_WRITE | VM_READ]			= PAGE_COPY_EXEC,
	[VM_SHARED]					= PAGE_NONE,
	[VM_SHARED | VM_READ]				= PAGE_READONLY,
	[VM_SHARED | VM_WRITE]				= PAGE_SHARED,
	[VM_SHARED | VM_WRITE | VM_READ]		= PAGE_SHARED,
	[VM_SHARED | VM_EXEC]				= PAGE_READONLY_EXEC,
	[VM_SHARED | VM_EXEC | VM_READ]			= PAGE_READONLY_EXEC,
	[VM_SHARED | VM_EXEC | VM_WRITE]		= PAGE_SHARED_EXEC,
	[VM_SHARED | VM_EXEC | VM_WRITE | VM_READ]	= PAGE_SHARED_EXEC,
};
DECLARE_VM_GET_PAGE_PROT

/*
 * The page frame limits and ZONE_NORMAL from memblock, which holds only
 * lowmem by now: paging_init() ends with this.
 */
void __init lowmem_zones_init(void)
{
	unsigned long max_zone_pfn[MAX_NR_ZONES] = { 0 };

	min_low_pfn = PFN_UP(memblock_start_of_DRAM());
	max_low_pfn = PFN_DOWN(memblock_end_of_DRAM());
	max_pfn = max_low_pfn;
	set_max_mapnr(max_low_pfn - ARCH_PFN_OFFSET);
	high_memory = (void *)__va(max_low_pfn << PAGE_SHIFT);

	/* The CMA area (cma= or CONFIG_CMA_SIZE_*), which needs a lowmem address. */
	dma_contiguous_reserve(PFN_PHYS(max_low_pfn));

	max_zone_pfn[ZONE_NORMAL] = max_low_pfn;
	free_area_init(max_zone_pfn);
}

void __init mem_init(void)
{
	memblock_free_all();
}
