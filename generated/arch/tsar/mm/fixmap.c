// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/mm/fixmap.c: edit that file. */
/*
 * Setting a fixmap slot (asm/fixmap.h). The page of PTEs behind the
 * fixmap is static and linked into swapper_pg_dir by the MMU layer's
 * early_fixmap_init(), so the kernel page-table walk finds it from early
 * boot on.
 */

#include <linux/mm.h>
#include <linux/pgtable.h>

#include <asm/fixmap.h>
#include <asm/tlbflush.h>

void __set_fixmap(enum fixed_addresses idx, phys_addr_t phys, pgprot_t prot)
{
	unsigned long addr = __fix_to_virt(idx);
	pte_t *ptep = pte_offset_kernel(pmd_off_k(addr), addr);

	if (pgprot_val(prot))
		set_pte(ptep, pfn_pte(phys >> PAGE_SHIFT, prot));
	else
		pte_clear(&init_mm, addr, ptep);
	flush_tlb_kernel_range(addr, addr + PAGE_SIZE);
}
