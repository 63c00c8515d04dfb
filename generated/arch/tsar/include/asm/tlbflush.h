/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mmu-cp2/include/asm/tlbflush.h: edit that
 * file.
 */
/*
 * TLB maintenance on TSAR is done by the hardware: the L1 cache
 * controller remembers which cache lines hold page-table entries that a
 * TLB entry was loaded from, and invalidates those TLB entries when such
 * a line is written (by this CPU or, through cache coherence, another).
 * Every kernel store to a PTE or PTD therefore already shoots down the
 * stale translation, and these hooks have nothing left to do.
 */
#ifndef _ASM_TSAR_TLBFLUSH_H
#define _ASM_TSAR_TLBFLUSH_H

#include <linux/mm_types.h>

static inline void flush_tlb_all(void)
{
}

static inline void flush_tlb_mm(struct mm_struct *mm)
{
}

static inline void flush_tlb_page(struct vm_area_struct *vma,
				  unsigned long addr)
{
}

static inline void flush_tlb_range(struct vm_area_struct *vma,
				   unsigned long start, unsigned long end)
{
}

static inline void flush_tlb_kernel_range(unsigned long start,
					  unsigned long end)
{
}

#endif /* _ASM_TSAR_TLBFLUSH_H */
