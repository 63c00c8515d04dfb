// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/mm/mem_init.c: edit that file. */
/*
 * Memory set-up that does not depend on the MMU design: the zero page,
 * the protection map, the zones once the MMU layer's paging_init() has
 * settled what lowmem is, and mem_init(), which also frees highmem.
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
 * The page frame limits and the zones from memblock, once the MMU layer's
 * paging_init() has mapped lowmem, which ends at lowmem_end: the memory
 * above it is ZONE_HIGHMEM (the MMU layer keeps it only with
 * CONFIG_HIGHMEM). paging_init() ends with this.
 */
void __init zones_init(phys_addr_t lowmem_end)
{
	unsigned long max_zone_pfn[MAX_NR_ZONES] = { 0 };

	min_low_pfn = PFN_UP(memblock_start_of_DRAM());
	max_pfn = PFN_DOWN(memblock_end_of_DRAM());
	max_low_pfn = min_t(unsigned long, max_pfn, PFN_DOWN(lowmem_end));
	set_max_mapnr(max_pfn - ARCH_PFN_OFFSET);
	high_memory = (void *)__va(PFN_PHYS(max_low_pfn));

	/* The CMA area (cma= or CONFIG_CMA_SIZE_*), which needs a lowmem address. */
	dma_contiguous_reserve(PFN_PHYS(max_low_pfn));

	max_zone_pfn[ZONE_NORMAL] = max_low_pfn;
#ifdef CONFIG_HIGHMEM
	max_zone_pfn[ZONE_HIGHMEM] = max_pfn;
#endif
	/* The memory map of each present section (nothing with FLATMEM). */
	sparse_init();
	free_area_init(max_zone_pfn);
}

#ifdef CONFIG_HIGHMEM
/* memblock_free_all() hands the page allocator lowmem only. */
static void __init free_highmem(void)
{
	phys_addr_t start, end;
	unsigned long pfn;
	u64 i;

	for_each_free_mem_range(i, NUMA_NO_NODE, MEMBLOCK_NONE, &start, &end, NULL) {
		for (pfn = max(PFN_UP(start), max_low_pfn); pfn < PFN_DOWN(end); pfn++)
			free_highmem_page(pfn_to_page(pfn));
	}
}
#else
static inline void free_highmem(void) { }
#endif

void __init mem_init(void)
{
	memblock_free_all();
	free_highmem();
}
