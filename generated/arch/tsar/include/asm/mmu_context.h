/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mmu-cp2/include/asm/mmu_context.h: edit
 * that file.
 */
#ifndef _ASM_TSAR_MMU_CONTEXT_H
#define _ASM_TSAR_MMU_CONTEXT_H

#include <linux/mm_types.h>
#include <asm/mmu-cp2.h>
#include <asm/pgtable.h>

/*
 * Point the walker at the next address space. Writing PTPR also
 * invalidates every non-global TLB entry, which is all the TLB
 * maintenance a switch needs.
 */
static inline void switch_mm(struct mm_struct *prev, struct mm_struct *next,
			     struct task_struct *tsk)
{
	if (prev != next)
		write_c2_ptpr(__pa(next->pgd) >> PTPR_SHIFT);
}
#define switch_mm switch_mm

#include <asm-generic/mm_hooks.h>
#include <asm-generic/mmu_context.h>

#endif /* _ASM_TSAR_MMU_CONTEXT_H */
