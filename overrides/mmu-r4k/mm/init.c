// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel page tables and memory initialisation for the R4K MMU design.
 *
 * Lowmem is the unmapped kseg0 window: it needs no page-table entries,
 * and RAM beyond the window (no highmem here) is left out. The page
 * tables only describe user space (one pgd per process) and the mapped
 * kernel window (swapper_pg_dir): vmalloc, ioremap above the unmapped
 * windows, and the fixmap, whose page of PTEs is static so that it works
 * from early boot.
 */

#include <linux/init.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <linux/pgtable.h>

#include <asm/fixmap.h>
#include <asm/mmu_context.h>
#include <asm/pgalloc.h>
#include <asm/sections.h>
#include <asm/tlb-r4k.h>
#include <asm/tlbflush.h>

pgd_t swapper_pg_dir[PTRS_PER_PGD] __page_aligned_bss;
pte_t invalid_pte_table[PTRS_PER_PTE] __page_aligned_bss;
unsigned long empty_zero_page[PAGE_SIZE / sizeof(unsigned long)] __page_aligned_bss;
EXPORT_SYMBOL(empty_zero_page);

/* The page of PTEs of the fixmap region, in use from early boot. */
static pte_t fixmap_pte[PTRS_PER_PTE] __page_aligned_bss;

/* No execute permission in the TLB: exec variants are the plain ones. */
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

static void pgd_init(pgd_t *pgd)
{
	unsigned int i;

	for (i = 0; i < PTRS_PER_PGD; i++)
		pgd[i] = __pgd((unsigned long)invalid_pte_table);
}

/*
 * Before the first mapped access: empty kernel page tables, and the TLB
 * in a known state (the refill handler is already at its vector).
 */
static void __init mmu_early_init(void)
{
	static bool done __initdata;

	if (done)
		return;
	done = true;
	pgd_init(swapper_pg_dir);
	tlb_init();
}

void __init early_fixmap_init(void)
{
	BUILD_BUG_ON((FIXADDR_START & PGDIR_MASK) !=
		     ((FIXADDR_TOP + PAGE_SIZE - 1) & PGDIR_MASK));
	mmu_early_init();
	set_pmd(pmd_off_k(FIXADDR_START), __pmd((unsigned long)fixmap_pte));
}

void __set_fixmap(enum fixed_addresses idx, phys_addr_t phys, pgprot_t prot)
{
	unsigned long addr = __fix_to_virt(idx);
	pte_t *ptep = &fixmap_pte[pte_index(addr)];

	if (pgprot_val(prot))
		set_pte(ptep, pfn_pte(phys >> PAGE_SHIFT, prot));
	else
		pte_clear(&init_mm, addr, ptep);
	local_flush_tlb_kernel_range(addr, addr + PAGE_SIZE);
}

/*
 * Memory is what kseg0 reaches: RAM above MAX_LOWMEM_SIZE would need
 * highmem (kmap through kseg2), which this layer does not implement.
 */
void __init paging_init(void)
{
	unsigned long max_zone_pfn[MAX_NR_ZONES] = { 0 };
	phys_addr_t lowmem_end = PHYS_OFFSET + MAX_LOWMEM_SIZE;

	mmu_early_init();

	if (memblock_end_of_DRAM() > lowmem_end) {
		phys_addr_t end_of_ram = memblock_end_of_DRAM();

		pr_warn("Ignoring RAM from %pa to %pa: beyond the kseg0 window, and no highmem support\n",
			&lowmem_end, &end_of_ram);
		memblock_remove(lowmem_end, end_of_ram - lowmem_end);
	}
	memblock_set_current_limit(memblock_end_of_DRAM());

	min_low_pfn = PFN_UP(memblock_start_of_DRAM());
	max_low_pfn = PFN_DOWN(memblock_end_of_DRAM());
	max_pfn = max_low_pfn;
	set_max_mapnr(max_low_pfn - ARCH_PFN_OFFSET);
	high_memory = (void *)__va(max_low_pfn << PAGE_SHIFT);

	max_zone_pfn[ZONE_NORMAL] = max_low_pfn;
	free_area_init(max_zone_pfn);
}

void __init mem_init(void)
{
	memblock_free_all();
}

/* Kernel addresses never use a process pgd: it is all empty at first. */
pgd_t *pgd_alloc(struct mm_struct *mm)
{
	pgd_t *pgd = (pgd_t *)__get_free_page(GFP_KERNEL);

	if (pgd)
		pgd_init(pgd);
	return pgd;
}
