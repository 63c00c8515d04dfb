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
#include <asm/setup.h>
#include <asm/tlb-r4k.h>
#include <asm/tlbflush.h>

pgd_t swapper_pg_dir[PTRS_PER_PGD] __page_aligned_bss;
pte_t invalid_pte_table[PTRS_PER_PTE] __page_aligned_bss;

/* The page of PTEs of the fixmap region, in use from early boot. */
static pte_t fixmap_pte[PTRS_PER_PTE] __page_aligned_bss;

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

/*
 * Memory is what kseg0 reaches: RAM above MAX_LOWMEM_SIZE would need
 * highmem (kmap through kseg2), which this layer does not implement.
 */
void __init paging_init(void)
{
	phys_addr_t lowmem_end = PHYS_OFFSET + MAX_LOWMEM_SIZE;

	mmu_early_init();

	if (memblock_end_of_DRAM() > lowmem_end) {
		phys_addr_t end_of_ram = memblock_end_of_DRAM();

		pr_warn("Ignoring RAM from %pa to %pa: beyond the kseg0 window, and no highmem support\n",
			&lowmem_end, &end_of_ram);
		memblock_remove(lowmem_end, end_of_ram - lowmem_end);
	}
	memblock_set_current_limit(memblock_end_of_DRAM());

	zones_init(memblock_end_of_DRAM());
}

/* Kernel addresses never use a process pgd: it is all empty at first. */
pgd_t *pgd_alloc(struct mm_struct *mm)
{
	pgd_t *pgd = (pgd_t *)__get_free_page(GFP_KERNEL);

	if (pgd)
		pgd_init(pgd);
	return pgd;
}
