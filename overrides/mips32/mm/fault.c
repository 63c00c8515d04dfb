// SPDX-License-Identifier: GPL-2.0
/*
 * Page faults, for every MMU design of the family: the MMU layer decodes
 * its own fault exceptions (the address, whether a write or a fetch, and
 * any fault on a kernel address it can fix itself) and calls
 * do_page_fault(), which turns the fault into a handle_mm_fault() call,
 * a signal as MIPS Linux gives it (SIGSEGV with SEGV_MAPERR or
 * SEGV_ACCERR, SIGBUS), an exception-table fixup or an oops.
 */

#include <linux/extable.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include <asm/mmu-hooks.h>
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

/* May this VMA be accessed the way the fault did? */
static bool access_allowed(struct vm_area_struct *vma, bool write, bool exec)
{
	/* MMU_FETCH_NEEDS_EXEC: does the MMU refuse fetches without exec? */
	if (exec && MMU_FETCH_NEEDS_EXEC)
		return vma->vm_flags & VM_EXEC;
	if (write)
		return vma->vm_flags & VM_WRITE;
	return vma_is_accessible(vma);
}

/*
 * code is the MMU layer's own fault code, shown by an oops. A kernel
 * address reaching here is an error: the MMU layer has already fixed
 * the faults on kernel addresses that it can.
 */
void do_page_fault(struct pt_regs *regs, unsigned long addr,
		   unsigned long code, bool write, bool exec)
{
	struct mm_struct *mm = current->mm;
	unsigned int flags = FAULT_FLAG_DEFAULT;
	struct vm_area_struct *vma;
	int si_code = SEGV_MAPERR;
	vm_fault_t fault;

	/* A fault in a kprobe's single step goes back to the probed word. */
	if (kprobe_page_fault(regs, code))
		return;

	if (unlikely(addr >= TASK_SIZE))
		goto bad_area_nosemaphore;

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

	si_code = SEGV_ACCERR;
	if (!access_allowed(vma, write, exec))
		goto bad_area;

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
NOKPROBE_SYMBOL(do_page_fault);
