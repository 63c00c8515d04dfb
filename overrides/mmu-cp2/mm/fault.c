// SPDX-License-Identifier: GPL-2.0
/*
 * Page faults. The MMU reports them as bus errors (see traps.c) with a
 * fault type from IETR/DETR; here they become handle_mm_fault() calls,
 * signals, exception-table fixups or oopses.
 */

#include <linux/extable.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include <asm/mmu-cp2.h>
#include <asm/pgalloc.h>
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

/*
 * The walker reports "unmapped" faults as reads even for stores. Look at
 * the faulting instruction so a store is handled as a write at once
 * (instead of mapping the page read-only and faulting a second time).
 */
static bool insn_is_store(struct pt_regs *regs)
{
	unsigned long pc = regs->epc + ((regs->cause & CAUSE_BD) ? 4 : 0);
	u32 insn, op;

	if (user_mode(regs)) {
		if (get_user(insn, (u32 __user *)pc))
			return false;
	} else if (get_kernel_nofault(insn, (u32 *)pc)) {
		return false;
	}
	op = insn >> 26;
	/* sb sh swl sw (0x28-0x2b), swr (0x2e), sc (0x38) */
	return (op >= 0x28 && op <= 0x2b) || op == 0x2e || op == 0x38;
}

/*
 * vmalloc and ioremap mappings are made in swapper_pg_dir; other page
 * directories copy the first-level entry when they first touch it.
 */
static int vmalloc_fault(unsigned long addr)
{
	unsigned int index = pgd_index(addr);
	pgd_t *pgd, *pgd_k;
	pmd_t *pmd_k;
	pte_t *pte_k;

	pgd = (pgd_t *)__va((phys_addr_t)read_c2_ptpr() << PTPR_SHIFT) + index;
	pgd_k = swapper_pg_dir + index;
	pmd_k = pmd_offset(pud_offset(p4d_offset(pgd_k, addr), addr), addr);
	if (pmd_none(*pmd_k) || pmd_bad(*pmd_k))
		return -1;
	WRITE_ONCE(*pgd, *pgd_k);

	pte_k = pte_offset_kernel(pmd_k, addr);
	if (!pte_present(ptep_get(pte_k)))
		return -1;
	return 0;
}

void do_page_fault(struct pt_regs *regs, unsigned long addr,
		   unsigned long type, bool write, bool exec)
{
	struct mm_struct *mm = current->mm;
	unsigned int flags = FAULT_FLAG_DEFAULT;
	struct vm_area_struct *vma;
	int code = SEGV_MAPERR;
	vm_fault_t fault;

	if (!exec && !write && (type == MMU_FAULT_PT1_UNMAPPED ||
				type == MMU_FAULT_PT2_UNMAPPED))
		write = insn_is_store(regs);

	if (addr >= TASK_SIZE) {
		/*
		 * Only a missing entry can be a stale page directory; a write
		 * to read-only or a fetch from non-executable kernel memory is
		 * an error (on a mapping that exists, so it must not retry).
		 */
		if (!user_mode(regs) && (type == MMU_FAULT_PT1_UNMAPPED ||
					 type == MMU_FAULT_PT2_UNMAPPED) &&
		    vmalloc_fault(addr) == 0)
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

	code = SEGV_ACCERR;
	if (exec) {
		if (!(vma->vm_flags & VM_EXEC))
			goto bad_area;
	} else if (write) {
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
		force_sig_fault(SIGSEGV, code, (void __user *)addr);
		return;
	}
no_context:
	if (fixup_exception(regs))
		return;
	pr_alert("Unable to handle kernel %s at virtual address %08lx (%s)\n",
		 addr < PAGE_SIZE ? "NULL pointer dereference" : "paging request",
		 addr, exec ? "fetch" : write ? "write" : "read");
	die("Oops", regs, type);
}
