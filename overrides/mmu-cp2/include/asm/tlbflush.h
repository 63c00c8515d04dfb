/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TLB maintenance on TSAR is done by the hardware: the L1 cache
 * controller remembers which cache lines hold page-table entries that a
 * TLB entry was loaded from, and invalidates those TLB entries when such
 * a line is written (by this CPU or, through cache coherence, another);
 * a line holding a PTD resets both TLBs (hw ref 2.3, "TLB coherence").
 * Every kernel store to a PTE or PTD therefore already shoots down the
 * stale translation, and these hooks have nothing left to do.
 *
 * With several CPUs this is still all that is needed, with no IPI: the
 * coherence protocol delivers the invalidation of the written line to
 * every other L1 (and so to its TLBs) before the store completes, and
 * the kernel's PTE store is followed by "sync" (smp_mb in the lock
 * release, or in the atomic updates of asm/pgtable.h) before the
 * mprotect/munmap that made it returns. So once it returns, no CPU can
 * use the old translation: its next access walks the tables again and
 * faults. tests/boot/test_smp.py checks exactly this, with a thread on
 * another CPU writing to the page in a loop across mprotect and munmap.
 * What the hardware does not cover (a walk in flight through a PTD
 * being cleared) is handled by freeing page tables through RCU
 * (asm/pgalloc.h).
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
