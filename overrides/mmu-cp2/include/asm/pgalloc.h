/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page-table allocation. A pgd spans 2^PGD_ORDER pages, naturally
 * aligned as PTPR requires; second-level tables are one page each.
 */
#ifndef _ASM_TSAR_PGALLOC_H
#define _ASM_TSAR_PGALLOC_H

#include <linux/mm.h>
#include <asm/pgtable.h>

#define __HAVE_ARCH_PTE_ALLOC_ONE_KERNEL
#define __HAVE_ARCH_PTE_ALLOC_ONE
#define __HAVE_ARCH_PGD_FREE
#include <asm-generic/pgalloc.h>

static inline void pmd_populate_kernel(struct mm_struct *mm, pmd_t *pmdp,
				       pte_t *pte)
{
	set_pmd(pmdp, __pmd_table(virt_to_pfn(pte)));
}

static inline void pmd_populate(struct mm_struct *mm, pmd_t *pmdp,
				pgtable_t pte)
{
	set_pmd(pmdp, __pmd_table(page_to_pfn(pte)));
}

static inline pte_t *pte_alloc_one_kernel(struct mm_struct *mm)
{
	return __pte_alloc_one_kernel(mm);
}

static inline pgtable_t pte_alloc_one(struct mm_struct *mm)
{
	return __pte_alloc_one(mm, GFP_PGTABLE_USER);
}

pgd_t *pgd_alloc(struct mm_struct *mm);

static inline void pgd_free(struct mm_struct *mm, pgd_t *pgd)
{
	free_pages((unsigned long)pgd, PGD_ORDER);
}

#ifdef CONFIG_MMU_GATHER_RCU_TABLE_FREE
/*
 * Another CPU's walker may be between reading a PTD and reading the
 * second-level table it points to, or about to set L/D in it: the table
 * page is freed after an RCU grace period (asm/tlb.h), when every CPU
 * has passed a point between two instructions since the PTD was cleared,
 * and no walk that saw the old PTD can still be going on.
 */
#define __pte_free_tlb(tlb, pte, addr)	tlb_remove_table((tlb), (pte))
#else
#define __pte_free_tlb(tlb, pte, addr)	pte_free((tlb)->mm, (pte))
#endif

#endif /* _ASM_TSAR_PGALLOC_H */
