// SPDX-License-Identifier: GPL-2.0
/*
 * The TLB modified, TLB load and TLB store exceptions whose fast path
 * (mm/tlbex.S) could not fix the PTE: decoded here (address, write or
 * fetch, a stale entry of the mapped kernel window) for the family's
 * do_page_fault() (mm/fault.c).
 */

#include <linux/kernel.h>
#include <linux/mm.h>

#include <asm/cp0.h>
#include <asm/mmu-hooks.h>
#include <asm/tlb-r4k.h>
#include <asm/traps.h>

static void tlb_fault(struct pt_regs *regs, unsigned int exccode,
		      bool write, bool exec)
{
	unsigned long addr = regs->badvaddr;

	/* The mapped kernel window: only a stale invalid entry is fixable. */
	if (unlikely(addr >= TASK_SIZE) && !user_mode(regs) &&
	    tlb_reload_kernel(addr))
		return;
	exception_irq_enable(regs);
	do_page_fault(regs, addr, exccode, write, exec);
}

/*
 * An instruction fetch faults at EPC, or in the delay slot after it
 * (Cause.BD); anything else TLBL reports is a load.
 */
static bool fault_is_fetch(struct pt_regs *regs)
{
	return regs->badvaddr == regs->epc ||
	       ((regs->cause & CAUSE_BD) && regs->badvaddr == regs->epc + 4);
}

bool mmu_exception(struct pt_regs *regs, unsigned int exccode)
{
	switch (exccode) {
	case EXC_MOD:
	case EXC_TLBS:
		tlb_fault(regs, exccode, true, false);
		return true;
	case EXC_TLBL:
		tlb_fault(regs, exccode, false, fault_is_fetch(regs));
		return true;
	default:
		return false;
	}
}
