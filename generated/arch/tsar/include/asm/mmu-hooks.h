/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mmu-cp2/include/asm/mmu-hooks.h: edit that
 * file.
 */
/*
 * What the MIPS32 family code (kernel/entry.S, kernel/traps.c) asks of
 * the MMU layer, for the CP2 hardware page-table walker.
 */
#ifndef _ASM_MMU_HOOKS_H
#define _ASM_MMU_HOOKS_H

#include <asm/mmu-cp2.h>

/*
 * For the family's do_page_fault(): the walker checks the PTE's
 * executable bit, so an instruction fetch needs an executable mapping.
 */
#define MMU_FETCH_NEEDS_EXEC	1

#ifdef __ASSEMBLY__

/*
 * Just before the exception return's eret. MIPS clears LLbit at eret;
 * TSAR's eret keeps the reservation, so drop it here: an ll before the
 * exception (another task may have run since) must not let a later sc
 * succeed.
 */
	.macro	mmu_eret_prepare
	mtc2	$0, MMU_LL_RESET
	.endm

/* At EBase + 0: the walker refills its TLBs itself, no refill vector. */
	.macro	mmu_refill_vector
	.endm

#endif /* __ASSEMBLY__ */

#endif /* _ASM_MMU_HOOKS_H */
