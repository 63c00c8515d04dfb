// SPDX-License-Identifier: GPL-2.0
/*
 * Page faults of the software-refilled TLB: the TLB modified, TLB load
 * and TLB store exceptions whose fast path (mm/tlbex.S) could not fix the
 * PTE become handle_mm_fault() calls, signals (as MIPS Linux gives them:
 * SIGSEGV with SEGV_MAPERR or SEGV_ACCERR, SIGBUS), exception-table
 * fixups or oopses.
 */

#include <linux/extable.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include <asm/cp0.h>
#include <asm/mmu-hooks.h>
#include <asm/tlb-r4k.h>
#include <asm/traps.h>

int fixup_exception(struct pt_regs *regs)
{
	const struct exception_table_entry *fixup;

	fixup = search_exception_tables(regs->epc);
	if (!fixup)
		return 0;
	regs->epc = fixup->fixup;
	return 1;
}

void do_page_fault(struct pt_regs *regs, unsigned long addr,
		   unsigned long code, bool write, bool exec)
{
	struct mm_struct *mm = current->mm;
	unsigned int flags = FAULT_FLAG_DEFAULT;
	struct vm_area_struct *vma;
	int si_code = SEGV_MAPERR;
	vm_fault_t fault;

	/* The mapped kernel window: only a stale invalid entry is fixable. */
	if (unlikely(addr >= TASK_SIZE)) {
		if (!user_mode(regs) && tlb_reload_kernel(addr))
			return;
		goto bad_area_nosemaphore;
	}

	if (faulthandler_disabled() || !mm)
		goto no_context;

	if (user_mode(regs))
		flags |= FAULT_FLAG_USER;
	if (write)
		flags |= FAULT_FLAG_WRITE;
	if (exec)
		flags |= FAULT_FLAG_INSTRUCTION;

	perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 1, regs, addr);

retry:
	vma = lock_mm_and_find_vma(mm, addr, regs);
	if (!vma)
		goto bad_area_nosemaphore;

	/* No execute-inhibit in this TLB: fetches need only readability. */
	si_code = SEGV_ACCERR;
	if (write) {
		if (!(vma->vm_flags & VM_WRITE))
			goto bad_area;
	} else if (!vma_is_accessible(vma)) {
		goto bad_area;
	}

	fault = handle_mm_fault(vma, addr, flags, regs);

	if (fault_signal_pending(fault, regs)) {
		if (!user_mode(regs))
			goto no_context;
		return;
	}
	/* The fault was handled and the mmap lock released. */
	if (fault & VM_FAULT_COMPLETED)
		return;

	if (unlikely(fault & VM_FAULT_ERROR)) {
		mmap_read_unlock(mm);
		if (fault & VM_FAULT_OOM) {
			if (!user_mode(regs))
				goto no_context;
			pagefault_out_of_memory();
			return;
		}
		if (fault & (VM_FAULT_SIGBUS | VM_FAULT_HWPOISON |
			     VM_FAULT_HWPOISON_LARGE)) {
			if (!user_mode(regs))
				goto no_context;
			force_sig_fault(SIGBUS, BUS_ADRERR, (void __user *)addr);
			return;
		}
		if (fault & VM_FAULT_SIGSEGV)
			goto bad_area_nosemaphore;
		BUG();
	}

	if (fault & VM_FAULT_RETRY) {
		flags |= FAULT_FLAG_TRIED;
		goto retry;
	}

	mmap_read_unlock(mm);
	return;

bad_area:
	mmap_read_unlock(mm);
bad_area_nosemaphore:
	if (user_mode(regs)) {
		force_sig_fault(SIGSEGV, si_code, (void __user *)addr);
		return;
	}
no_context:
	if (fixup_exception(regs))
		return;
	pr_alert("Unable to handle kernel %s at virtual address %08lx (%s)\n",
		 addr < PAGE_SIZE ? "NULL pointer dereference" : "paging request",
		 addr, exec ? "fetch" : write ? "write" : "read");
	die("Oops", regs, code);
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
		do_page_fault(regs, regs->badvaddr, exccode, true, false);
		return true;
	case EXC_TLBL:
		do_page_fault(regs, regs->badvaddr, exccode, false,
			      fault_is_fetch(regs));
		return true;
	default:
		return false;
	}
}
