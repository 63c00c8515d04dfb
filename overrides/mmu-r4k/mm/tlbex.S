/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fast paths of the TLB invalid (TLBL/TLBS) and TLB modified exceptions,
 * entered from the general exception vector with EXL set and only k0/k1
 * free (the refill handler itself is at the refill vector, see
 * <asm/mmu-hooks.h>).
 *
 * Most of these exceptions are the first access to a page whose PTE is
 * present but whose hardware bits are not yet set: V waits for the first
 * access (accessed), D for the first write (modified). For user addresses
 * the fast path sets the software bit and the hardware bit in the PTE and
 * rewrites the TLB entry in place (tlbp/tlbwi), with no register saving.
 * Anything else (no PTE, PROT_NONE, a write to a read-only page: COW,
 * kernel addresses) goes to handle_exception and do_page_fault().
 *
 * One CPU: the exception runs with EXL set, so nothing can change the
 * PTE between the load and the store here.
 */

#include <linux/linkage.h>
#include <asm/cp0.h>
#include <asm/mmu-hooks.h>
#include <asm/mmu-tlb.h>
#include <asm/pgtable-bits.h>
#include <asm/regdef.h>

	.set	noreorder
	.set	noat
	.set	mips32r2

/* k1 = address of the PTE of BadVAddr (a user address); k0 clobbered. */
	.macro	user_pte_of_badvaddr
	lui	k0, %hi(pgd_current)
	lw	k0, %lo(pgd_current)(k0)
	srl	k1, k1, PGDIR_SHIFT
	sll	k1, k1, PTE_T_LOG2
	addu	k1, k1, k0
	mfc0	k0, CP0_BADVADDR
	lw	k1, 0(k1)
	srl	k0, k0, PAGE_SHIFT - PTE_T_LOG2
	andi	k0, k0, (PTRS_PER_PTE - 1) << PTE_T_LOG2
	addu	k1, k1, k0
	.endm

/*
 * If the PTE at k1 has all of \need, set \set in it and rewrite the TLB
 * entry of its pair (EntryHi still holds the faulting VPN2 and ASID);
 * else take the slow path.
 */
	.macro	pte_fixup need, set
	lw	k0, 0(k1)
	andi	k0, k0, \need
	xori	k0, k0, \need
	bnez	k0, tlb_slow_path
	 lw	k0, 0(k1)
	ori	k0, k0, \set
	sw	k0, 0(k1)
	j	tlb_rewrite_pair
	 ori	k1, k1, 1 << PTE_T_LOG2
	.endm

/* Exception code run in EXL mode: .entry.text, never probed (kprobes). */
	.section .entry.text, "ax"

/* TLB load/fetch on an entry with V clear. */
SYM_CODE_START(handle_tlb_load)
	mfc0	k1, CP0_BADVADDR
	bltz	k1, tlb_slow_path
	 nop
	user_pte_of_badvaddr
	pte_fixup	_PAGE_PRESENT, (_PAGE_ACCESSED | _PAGE_VALID)
SYM_CODE_END(handle_tlb_load)

/* TLB store on an entry with V clear, or store on one with D clear. */
SYM_CODE_START(handle_tlb_store)
SYM_INNER_LABEL(handle_tlb_mod, SYM_L_GLOBAL)
	mfc0	k1, CP0_BADVADDR
	bltz	k1, tlb_slow_path
	 nop
	user_pte_of_badvaddr
	pte_fixup	(_PAGE_PRESENT | _PAGE_WRITABLE), \
			(_PAGE_ACCESSED | _PAGE_MODIFIED | _PAGE_VALID | _PAGE_DIRTY)
SYM_CODE_END(handle_tlb_store)

/*
 * k1 = address of the odd PTE of the pair (the even one | 4): load both
 * into EntryLo0/1 and overwrite the matching entry.
 */
SYM_CODE_START_LOCAL(tlb_rewrite_pair)
	tlbp
	xori	k1, k1, 1 << PTE_T_LOG2		/* even PTE */
	lw	k0, 0(k1)
	srl	k0, k0, PTE_TO_ENTRYLO_SHIFT
	mtc0	k0, CP0_ENTRYLO0
	lw	k0, 1 << PTE_T_LOG2(k1)
	srl	k0, k0, PTE_TO_ENTRYLO_SHIFT
	mtc0	k0, CP0_ENTRYLO1
	ehb
	mfc0	k0, CP0_INDEX
	bltz	k0, 1f				/* gone: write a new one */
	 nop
	tlbwi
	eret
1:	tlbwr
	eret
SYM_CODE_END(tlb_rewrite_pair)

SYM_CODE_START_LOCAL(tlb_slow_path)
	j	handle_exception
	 nop
SYM_CODE_END(tlb_slow_path)
