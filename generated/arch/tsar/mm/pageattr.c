// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mmu-cp2/mm/pageattr.c: edit that file. */
/*
 * set_memory_ro/rw/x/nx: the write and execute bits of kernel pages.
 *
 * Only second-level (PTE2) mappings are changed: vmalloc and module
 * space, and the kernel image, which paging_init() maps with tables for
 * this. A big-page (PTE1) range is refused rather than split, since every
 * page directory holds its own copy of the kernel's first-level entries
 * and a split would have to reach them all.
 */

#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/set_memory.h>

#include <asm/tlbflush.h>

struct pageattr_masks {
	unsigned long set;
	unsigned long clear;
};

static int pageattr_pte(pte_t *ptep, unsigned long addr, void *data)
{
	struct pageattr_masks *masks = data;
	pte_t pte = ptep_get(ptep);

	pte.pte_flags = (pte.pte_flags & ~masks->clear) | masks->set;
	set_pte(ptep, pte);
	return 0;
}

/* Is [start, end) mapped through second-level tables only? */
static bool range_has_tables(unsigned long start, unsigned long end)
{
	unsigned long addr, next;

	for (addr = start; addr < end; addr = next) {
		pmd_t pmd = *pmd_off_k(addr);

		next = pgd_addr_end(addr, end);
		if (pmd_none(pmd) || pmd_bad(pmd))
			return false;
	}
	return true;
}

static int change_memory(unsigned long addr, int numpages,
			 unsigned long set, unsigned long clear)
{
	struct pageattr_masks masks = { .set = set, .clear = clear };
	unsigned long start = addr & PAGE_MASK;
	unsigned long size = (unsigned long)numpages << PAGE_SHIFT;
	int ret;

	if (WARN_ON_ONCE(addr & ~PAGE_MASK))
		return -EINVAL;
	if (numpages <= 0)
		return 0;
	if (start + size < start || !range_has_tables(start, start + size))
		return -EINVAL;
	ret = apply_to_existing_page_range(&init_mm, start, size,
					   pageattr_pte, &masks);
	flush_tlb_kernel_range(start, start + size);
	return ret;
}

int set_memory_ro(unsigned long addr, int numpages)
{
	return change_memory(addr, numpages, 0, _PAGE_WRITABLE);
}

int set_memory_rw(unsigned long addr, int numpages)
{
	return change_memory(addr, numpages, _PAGE_WRITABLE, 0);
}

int set_memory_x(unsigned long addr, int numpages)
{
	return change_memory(addr, numpages, _PAGE_EXECUTABLE, 0);
}

int set_memory_nx(unsigned long addr, int numpages)
{
	return change_memory(addr, numpages, 0, _PAGE_EXECUTABLE);
}
