/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the MIPS32 family's exception code needs from this MMU design
 * (specs/qmips-interface.md): the TLB refill handler at the refill
 * vector, nothing before eret, and mmu_exception() for the TLB
 * invalid and modified exceptions.
 */
#ifndef _ASM_R4K_MMU_HOOKS_H
#define _ASM_R4K_MMU_HOOKS_H

#include <asm/mmu-tlb.h>
#include <asm/pgtable-bits.h>

/*
 * For the family's do_page_fault(): no execute-inhibit in this TLB, so
 * an instruction fetch needs only a readable mapping.
 */
#define MMU_FETCH_NEEDS_EXEC	0

#ifdef __ASSEMBLY__

#include <linux/linkage.h>
#include <asm/cp0.h>
#include <asm/regdef.h>

/*
 * Assembly entry points for the TLB exceptions (mm/tlbex.S), for the
 * family's exception_entries table: each handles the common case (a
 * present page whose PTE only lacks V, or D) without saving registers,
 * and otherwise jumps to handle_exception, which calls mmu_exception().
 */
#define MMU_EXC_ENTRY_MOD	handle_tlb_mod
#define MMU_EXC_ENTRY_TLBL	handle_tlb_load
#define MMU_EXC_ENTRY_TLBS	handle_tlb_store

/* eret clears LLbit on MIPS32: nothing to do. */
	.macro	mmu_eret_prepare
	.endm

/*
 * Byte offset, in a page of PTEs, of the even PTE of the pair that maps
 * the faulting address: Context.BadVPN2 holds BadVAddr[31:13] from
 * CONTEXT_BADVPN2_SHIFT, so one shift and a mask give pair index * 8.
 */
#define REFILL_PAIR_SHIFT	(CONTEXT_BADVPN2_SHIFT - (PTE_T_LOG2 + 1))
#define REFILL_PAIR_MASK	((PTRS_PER_PTE / 2 - 1) << (PTE_T_LOG2 + 1))
#define PTE_T_LOG2		2

/*
 * The TLB refill handler, at EBase + TLB_REFILL_VECTOR_OFFSET, entered
 * with EXL set for a TLB miss taken with EXL clear. k0/k1 only.
 *
 * User addresses (kuseg, BadVAddr >= 0 as a signed word) walk the pgd
 * in pgd_current (a kernel variable, set by switch_mm); kseg2/kseg3
 * addresses walk swapper_pg_dir and become global entries. Both halves
 * of the even/odd pair are loaded from the two adjacent PTEs, each
 * shifted into EntryLo format; an empty pgd entry points at
 * invalid_pte_table, so a missing table needs no test: the entry is
 * written invalid and the retry takes a TLB invalid exception, which
 * goes to the page-fault code. User path: 21 instructions to eret.
 */
	.macro	mmu_refill_vector
	.set	push
	.set	noreorder
	.set	noat
	.set	mips32r2
	.org	TLB_REFILL_VECTOR_OFFSET
SYM_INNER_LABEL(tlb_refill, SYM_L_GLOBAL)
	mfc0	k1, CP0_BADVADDR
	bltz	k1, 9f				/* kernel (mapped) window */
	 lui	k0, %hi(pgd_current)
	lw	k0, %lo(pgd_current)(k0)
	srl	k1, k1, PGDIR_SHIFT
	sll	k1, k1, PTE_T_LOG2
	addu	k1, k1, k0			/* pgd entry */
	mfc0	k0, CP0_CONTEXT
	lw	k1, 0(k1)			/* page of PTEs */
	srl	k0, k0, REFILL_PAIR_SHIFT
	andi	k0, k0, REFILL_PAIR_MASK
	addu	k1, k1, k0			/* even PTE */
	lw	k0, 0(k1)
	lw	k1, 4(k1)
	srl	k0, k0, PTE_TO_ENTRYLO_SHIFT
	mtc0	k0, CP0_ENTRYLO0
	srl	k1, k1, PTE_TO_ENTRYLO_SHIFT
	mtc0	k1, CP0_ENTRYLO1
	ehb
	tlbwr
	eret

9:	lui	k0, %hi(swapper_pg_dir)
	addiu	k0, k0, %lo(swapper_pg_dir)
	srl	k1, k1, PGDIR_SHIFT
	sll	k1, k1, PTE_T_LOG2
	addu	k1, k1, k0
	mfc0	k0, CP0_CONTEXT
	lw	k1, 0(k1)
	srl	k0, k0, REFILL_PAIR_SHIFT
	andi	k0, k0, REFILL_PAIR_MASK
	addu	k1, k1, k0
	lw	k0, 0(k1)
	lw	k1, 4(k1)
	/*
	 * Both halves global even when one PTE is empty (G is the AND of
	 * the two), so that kernel entries match every ASID and a flush
	 * of a kernel range finds them whatever the current ASID.
	 */
	srl	k0, k0, PTE_TO_ENTRYLO_SHIFT
	ori	k0, k0, ENTRYLO_G
	mtc0	k0, CP0_ENTRYLO0
	srl	k1, k1, PTE_TO_ENTRYLO_SHIFT
	ori	k1, k1, ENTRYLO_G
	mtc0	k1, CP0_ENTRYLO1
	ehb
	tlbwr
	eret
SYM_INNER_LABEL(tlb_refill_end, SYM_L_GLOBAL)
	/* Refused (.org backwards) if the handler overruns the cache error vector. */
	.org	0x100
	.set	pop
	.endm

#else /* !__ASSEMBLY__ */

#include <linux/types.h>

struct pt_regs;

/* TLB modified/load/store exceptions (mm/tlb_fault.c); false for others. */
bool mmu_exception(struct pt_regs *regs, unsigned int exccode);

#endif /* __ASSEMBLY__ */

#endif /* _ASM_R4K_MMU_HOOKS_H */
