// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mmu-cp2/mm/init.c: edit that file. */
/*
 * Kernel page tables and memory initialisation.
 *
 * The kernel's linear map uses first-level big pages (PTE1): lowmem is
 * mapped once in swapper_pg_dir by paging_init(), which also drops the
 * identity mapping head.S needed to turn the MMU on. Every other
 * first-level table copies swapper_pg_dir's kernel half (pgd_alloc).
 *
 * Lowmem is not executable, except the kernel's text. The 2 MiB regions
 * holding the kernel image are mapped with second-level tables instead,
 * so that text, read-only data and init sections get protections of
 * their own (mark_rodata_ro, free_initmem). This costs a 4 KiB table per
 * region (four for a 7 MiB image), where aligning the sections to 2 MiB
 * would waste up to 2 MiB of RAM at each of their three boundaries; the
 * split is made before any other page directory exists, so the copies
 * of the kernel half all point to the same tables.
 */

#include <linux/init.h>
#include <linux/libfdt.h>
#include <linux/of_fdt.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/pgtable.h>
#include <linux/set_memory.h>

#include <asm/fixmap.h>
#include <asm/mmu_context.h>
#include <asm/pgalloc.h>
#include <asm/sections.h>
#include <asm/setup.h>
#include <asm/tlbflush.h>

pgd_t swapper_pg_dir[PTRS_PER_PGD] __aligned(PAGE_SIZE << PGD_ORDER);

/* The second-level table of the fixmap region, in use from early boot. */
static pte_t fixmap_pte[PTRS_PER_PTE] __page_aligned_bss;

/* Highest address the linear map may reach: vmalloc needs the rest. */
#define LOWMEM_LIMIT	(FIXADDR_TOP - VMALLOC_MIN_SIZE - 2 * VMALLOC_OFFSET)

void __init early_fixmap_init(void)
{
	WRITE_ONCE(swapper_pg_dir[pgd_index(FIXADDR_START)],
		   __pgd(_PMD_TABLE | virt_to_pfn(fixmap_pte) << PTD1_PTPN_SHIFT));
}

/* The 2 MiB regions holding the kernel image. */
#define IMAGE_START	((unsigned long)_text & PGDIR_MASK)
#define IMAGE_END	ALIGN((unsigned long)_end, PGDIR_SIZE)

/*
 * Map [start, end) of physical memory with kernel big pages, not
 * executable but where the running kernel is (map_kernel_image() then
 * gives those regions page-sized protections).
 */
static void __init map_lowmem(phys_addr_t start, phys_addr_t end)
{
	phys_addr_t pa;

	for (pa = start & PGDIR_MASK; pa < end; pa += PGDIR_SIZE) {
		unsigned long va = (unsigned long)__va(pa);
		unsigned long flags = _PAGE_KERNEL;

		if (va >= IMAGE_START && va < IMAGE_END)
			flags |= _PAGE_EXECUTABLE;
		swapper_pg_dir[pgd_index(va)] =
			__pgd(flags | (unsigned long)(pa >> PGDIR_SHIFT) << PTE1_PPN_SHIFT);
	}
}

static bool __init in_section(unsigned long va, const char *start,
			      const char *end)
{
	return va >= (unsigned long)start && va < (unsigned long)end;
}

/*
 * Remap the 2 MiB regions holding the kernel image with second-level
 * tables: text and init sections read-write-execute until
 * mark_rodata_ro() and free_initmem(), everything else read-write.
 * All of lowmem is already mapped with big pages, the new tables too.
 */
static void __init map_kernel_image(void)
{
	unsigned long va;
	unsigned int i;

	for (va = IMAGE_START; va < IMAGE_END; va += PGDIR_SIZE) {
		pte_t *table = memblock_alloc(PAGE_SIZE, PAGE_SIZE);

		if (!table)
			panic("No memory for the kernel image's page table");
		for (i = 0; i < PTRS_PER_PTE; i++) {
			unsigned long page = va + i * PAGE_SIZE;
			pgprot_t prot = PAGE_KERNEL;

			if (in_section(page, _text, __start_rodata) ||
			    in_section(page, __init_begin, __init_end))
				prot = PAGE_KERNEL_EXEC;
			table[i] = pfn_pte(virt_to_pfn(page), prot);
		}
		/* Same translation as the big page it replaces. */
		WRITE_ONCE(swapper_pg_dir[pgd_index(va)],
			   __pgd(_PMD_TABLE | virt_to_pfn(table) << PTD1_PTPN_SHIFT));
	}
	flush_tlb_all();
}

/* Not __init: free_initmem() makes init text non-executable through it. */
static int set_kernel_memory(const char *start, const char *end,
			     int (*set)(unsigned long, int))
{
	return set((unsigned long)start, (end - start) >> PAGE_SHIFT);
}

/* Freed init pages become ordinary memory: no longer executable. */
void free_initmem(void)
{
	WARN_ON(set_kernel_memory(__init_begin, __init_end, set_memory_nx));
	free_initmem_default(POISON_FREE_INITMEM);
}

#ifdef CONFIG_STRICT_KERNEL_RWX
/* Text read-execute, read-only data (with __ro_after_init) read-only. */
void mark_rodata_ro(void)
{
	WARN_ON(set_kernel_memory(_text, __start_rodata, set_memory_ro));
	WARN_ON(set_kernel_memory(__start_rodata, __end_rodata, set_memory_ro));
	pr_info("Write protected kernel text: %luk, read-only data: %luk\n",
		(unsigned long)(__start_rodata - _text) >> 10,
		(unsigned long)(__end_rodata - __start_rodata) >> 10);
}
#endif

/*
 * A device tree the loader put outside lowmem (the emulator puts it at
 * the top of RAM) would be unreachable once the boot mappings go: copy
 * it into lowmem, reading it through head.S's identity map, which is
 * still in place.
 */
static void __init relocate_dtb(phys_addr_t lowmem_end)
{
	phys_addr_t pa = boot_dtb_phys;
	void *copy;
	u32 size;

	if (!pa)
		return;
	size = fdt_totalsize((void *)(unsigned long)pa);
	if (pa >= PHYS_OFFSET && pa + size <= lowmem_end)
		return;
	copy = memblock_alloc(size, SMP_CACHE_BYTES);
	if (!copy)
		panic("No lowmem for a copy of the device tree");
	memcpy(copy, (void *)(unsigned long)pa, size);
	if (!early_init_dt_verify(copy))
		panic("Device tree copy is not valid");
	pr_info("Device tree at %pa is outside lowmem: copied into lowmem\n",
		&pa);
}

/*
 * Decide what is lowmem, set up the memblock limits and map it.
 * Memory the linear map cannot reach is dropped: TSAR's 40-bit physical
 * space would need highmem (kmap through the fixmap), which this port
 * does not implement; the whole of RAM is usable only up to the lowmem
 * limit (LOWMEM_LIMIT - PAGE_OFFSET bytes).
 */
void __init paging_init(void)
{
	phys_addr_t lowmem_end = __pa(LOWMEM_LIMIT);
	phys_addr_t start, end;
	unsigned int i;
	u64 idx;

	if (memblock_end_of_DRAM() > lowmem_end) {
		phys_addr_t end_of_ram = memblock_end_of_DRAM();

		pr_warn("Ignoring RAM from %pa to %pa: the kernel maps only lowmem (%lu MiB below %#lx) and has no highmem support\n",
			&lowmem_end, &end_of_ram,
			(unsigned long)(LOWMEM_LIMIT - PAGE_OFFSET) >> 20,
			(unsigned long)LOWMEM_LIMIT);
		memblock_remove(lowmem_end, ULLONG_MAX);
	}
	memblock_set_current_limit(memblock_end_of_DRAM());

	for_each_mem_range(idx, &start, &end)
		map_lowmem(start, end);
	map_kernel_image();

	relocate_dtb(lowmem_end);

	/* The identity map of head.S: everything below PAGE_OFFSET. */
	for (i = 0; i < USER_PTRS_PER_PGD; i++)
		swapper_pg_dir[i] = __pgd(0);
	/* head.S's mapping of a device tree above lowmem, if any. */
	for (i = pgd_index(LOWMEM_LIMIT + PGDIR_SIZE - 1); i < PTRS_PER_PGD; i++)
		if (pmd_leaf(__pmd(pgd_val(swapper_pg_dir[i]))))
			swapper_pg_dir[i] = __pgd(0);

	lowmem_zones_init();
}

pgd_t *pgd_alloc(struct mm_struct *mm)
{
	pgd_t *pgd = (pgd_t *)__get_free_pages(GFP_KERNEL, PGD_ORDER);

	if (!pgd)
		return NULL;
	memset(pgd, 0, USER_PTRS_PER_PGD * sizeof(pgd_t));
	memcpy(pgd + USER_PTRS_PER_PGD, swapper_pg_dir + USER_PTRS_PER_PGD,
	       (PTRS_PER_PGD - USER_PTRS_PER_PGD) * sizeof(pgd_t));
	return pgd;
}
