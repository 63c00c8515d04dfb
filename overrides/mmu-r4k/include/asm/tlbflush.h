/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TLB maintenance for a software-refilled TLB (mm/tlb.c): the TLB is not
 * coherent with the page tables, so every change to a PTE that may be
 * cached there is followed by one of these. One CPU: the local flush is
 * the whole flush.
 */
#ifndef _ASM_R4K_TLBFLUSH_H
#define _ASM_R4K_TLBFLUSH_H

#include <linux/mm_types.h>

void local_flush_tlb_all(void);
void local_flush_tlb_mm(struct mm_struct *mm);
void local_flush_tlb_range(struct vm_area_struct *vma, unsigned long start,
			   unsigned long end);
void local_flush_tlb_kernel_range(unsigned long start, unsigned long end);
void local_flush_tlb_page(struct vm_area_struct *vma, unsigned long page);

#define flush_tlb_all()			local_flush_tlb_all()
#define flush_tlb_mm(mm)		local_flush_tlb_mm(mm)
#define flush_tlb_range(vma, s, e)	local_flush_tlb_range(vma, s, e)
#define flush_tlb_kernel_range(s, e)	local_flush_tlb_kernel_range(s, e)
#define flush_tlb_page(vma, page)	local_flush_tlb_page(vma, page)

#endif /* _ASM_R4K_TLBFLUSH_H */
