/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address-space identifiers with generation roll-over.
 *
 * asid_cache counts the ASIDs handed out: its low bits (asid_mask) are
 * the ASID, the bits above a generation number. An mm's ASID is good
 * while it is of the current generation; when the counter's ASID bits
 * wrap, a new generation starts with the whole TLB flushed, and every
 * mm takes a new ASID at its next switch_mm.
 *
 * The refill handler reads the current pgd from pgd_current, a kernel
 * variable (one CPU) that switch_mm sets with EntryHi.ASID.
 */
#ifndef _ASM_R4K_MMU_CONTEXT_H
#define _ASM_R4K_MMU_CONTEXT_H

#include <linux/irqflags.h>
#include <linux/mm_types.h>
#include <asm/cp0.h>
#include <asm/pgtable.h>
#include <asm/tlb-r4k.h>

extern unsigned long asid_cache;
extern unsigned long asid_mask;
extern unsigned long pgd_current;

void get_new_mmu_context(struct mm_struct *mm);

static inline bool asid_is_stale(struct mm_struct *mm)
{
	return (mm->context.asid ^ asid_cache) & ~asid_mask;
}

#define init_new_context init_new_context
static inline int init_new_context(struct task_struct *tsk,
				   struct mm_struct *mm)
{
	mm->context.asid = 0;
	return 0;
}

static inline void switch_mm(struct mm_struct *prev, struct mm_struct *next,
			     struct task_struct *tsk)
{
	unsigned long flags;

	local_irq_save(flags);
	if (asid_is_stale(next))
		get_new_mmu_context(next);
	write_c0_entryhi(next->context.asid & asid_mask);
	pgd_current = (unsigned long)next->pgd;
	local_irq_restore(flags);
}
#define switch_mm switch_mm

#include <asm-generic/mm_hooks.h>
#include <asm-generic/mmu_context.h>

#endif /* _ASM_R4K_MMU_CONTEXT_H */
