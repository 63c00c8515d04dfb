/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page-table allocation: a pgd and each page of PTEs are one page. A new
 * pgd points every entry at invalid_pte_table.
 */
#ifndef _ASM_R4K_PGALLOC_H
#define _ASM_R4K_PGALLOC_H

#include <linux/mm.h>
#include <asm/pgtable.h>

#define __HAVE_ARCH_PGD_FREE
#include <asm-generic/pgalloc.h>

static inline void pmd_populate_kernel(struct mm_struct *mm, pmd_t *pmdp,
				       pte_t *pte)
{
	set_pmd(pmdp, __pmd((unsigned long)pte));
}

static inline void pmd_populate(struct mm_struct *mm, pmd_t *pmdp,
				pgtable_t pte)
{
	set_pmd(pmdp, __pmd((unsigned long)page_address(pte)));
}

pgd_t *pgd_alloc(struct mm_struct *mm);

static inline void pgd_free(struct mm_struct *mm, pgd_t *pgd)
{
	free_page((unsigned long)pgd);
}

#define __pte_free_tlb(tlb, pte, addr)			\
do {							\
	pgtable_pte_page_dtor(pte);			\
	tlb_remove_page((tlb), (pte));			\
} while (0)

#endif /* _ASM_R4K_PGALLOC_H */
