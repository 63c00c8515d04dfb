// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/kernel/uprobes.c: edit that file. */
/*
 * Uprobes on MIPS32: the arch half of kernel/events/uprobes.c.
 *
 * The generic code writes UPROBE_SWBP_INSN ("break 13") over the probed
 * word of the user's text. Its trap (traps.c, uprobe_break_handler())
 * sets TIF_UPROBE; on the way back to user mode uprobe_notify_resume()
 * (do_work_pending(), signal.c) runs the handlers, then the task returns
 * to a slot of its XOL page holding the original instruction followed
 * by UPROBE_SSTEP_INSN ("break 14"). That second trap ends the step:
 * the pc goes to the word after the probed one.
 *
 * Only instructions whose effect does not depend on where they run may
 * go out of line: branches and jumps (PC-relative, linking, with a delay
 * slot tied to their address) are refused, as is a word in the delay
 * slot of the word before it; so are ll and sc (the trap between the
 * slot and the resume clears LLbit: the sc would fail forever). Those
 * get -EINVAL, as arch/mips refuses what it cannot step. syscall and
 * break get -ENOTSUPP, the generic code's answer for trap instructions:
 * signals wait while a task steps out of line, and a blocking system
 * call there would hold them. The error is that of the probe's
 * registration: for a uprobe event, the write that enables it.
 *
 * A return probe puts the XOL page's trampoline in ra at the probed
 * function's entry.
 */

#define pr_fmt(fmt) "uprobes: " fmt

#include <linux/highmem.h>
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/uprobes.h>

#include <asm/cacheflush.h>
#include <asm/cp0.h>
#include <asm/insn-decode.h>

/* syscall and break: never stepped out of line. */
static bool insn_is_trapping(u32 insn)
{
	return insn_op(insn) == OP_SPECIAL &&
	       (insn_fn(insn) == FN_SYSCALL || insn_fn(insn) == FN_BREAK);
}

/*
 * The word before addr in mm, through its page (the callers hold
 * mmap_lock). -EFAULT when nothing is mapped there.
 */
static int read_prev_word(struct mm_struct *mm, unsigned long addr, u32 *word)
{
	unsigned long prev = addr - UPROBE_SWBP_INSN_SIZE;
	struct page *page;
	void *kaddr;
	long got;

	got = get_user_pages_remote(mm, prev, 1, FOLL_FORCE, &page, NULL, NULL);
	if (got <= 0)
		return got ? got : -EFAULT;
	kaddr = kmap_local_page(page);
	*word = *(u32 *)(kaddr + offset_in_page(prev));
	kunmap_local(kaddr);
	put_page(page);
	return 0;
}

int arch_uprobe_analyze_insn(struct arch_uprobe *aup, struct mm_struct *mm,
			     unsigned long addr)
{
	u32 insn = aup->insn[0], prev;

	if (addr & 3)
		return -EINVAL;
	if (insn_is_trapping(insn))
		return -ENOTSUPP;
	if (insn_has_delay_slot(insn) || insn_is_llsc(insn)) {
		pr_notice("cannot single-step the instruction %08x at %08lx\n",
			  insn, addr);
		return -EINVAL;
	}
	/*
	 * The word before may be a branch whose delay slot this is. A
	 * uprobe's break there stands for a word that is no branch: the
	 * word was accepted.
	 */
	if (!read_prev_word(mm, addr, &prev) && insn_has_delay_slot(prev)) {
		pr_notice("cannot probe %08lx: in the delay slot of %08x\n",
			  addr, prev);
		return -EINVAL;
	}

	aup->ixol[0] = insn;
	aup->ixol[1] = UPROBE_SSTEP_INSN;
	return 0;
}

/* The trap leaves epc on the break itself, not after it. */
unsigned long uprobe_get_swbp_addr(struct pt_regs *regs)
{
	return instruction_pointer(regs);
}

int arch_uprobe_pre_xol(struct arch_uprobe *aup, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	utask->autask.trapped = false;
	instruction_pointer_set(regs, utask->xol_vaddr);
	return 0;
}

/* The slot's "break 14" trapped: resume after the probed word. */
int arch_uprobe_post_xol(struct arch_uprobe *aup, struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	instruction_pointer_set(regs, utask->vaddr + UPROBE_SWBP_INSN_SIZE);
	return 0;
}

/*
 * A signal arrived during the step: did the instruction in the slot
 * raise it (uprobe_note_exception())? Then the step is abandoned and
 * the signal seen at the probed address; else it waits for the step.
 */
bool arch_uprobe_xol_was_trapped(struct task_struct *t)
{
	return t->utask->autask.trapped;
}

void arch_uprobe_abort_xol(struct arch_uprobe *aup, struct pt_regs *regs)
{
	instruction_pointer_set(regs, current->utask->vaddr);
}

/* Nothing is emulated: every accepted instruction runs in its slot. */
bool arch_uprobe_skip_sstep(struct arch_uprobe *aup, struct pt_regs *regs)
{
	return false;
}

unsigned long arch_uretprobe_hijack_return_addr(unsigned long trampoline_vaddr,
						struct pt_regs *regs)
{
	unsigned long ra = regs->regs[31];

	regs->regs[31] = trampoline_vaddr;
	return ra;
}

/*
 * ret->stack is sp at the probed function's entry, which is sp again
 * when it returns (no call pushes anything on MIPS). At a new call, a
 * live caller's frame lies above sp; a tail call from a probed function
 * (RP_CHECK_CHAIN_CALL) and the return (RP_CHECK_RET) see the same sp.
 */
bool arch_uretprobe_is_alive(struct return_instance *ret, enum rp_check ctx,
			     struct pt_regs *regs)
{
	if (ctx == RP_CHECK_CALL)
		return user_stack_pointer(regs) < ret->stack;
	return user_stack_pointer(regs) <= ret->stack;
}

/* The traps reach uprobe_break_handler() from traps.c directly. */
int arch_uprobe_exception_notify(struct notifier_block *self,
				 unsigned long val, void *data)
{
	return NOTIFY_DONE;
}

/*
 * The XOL page is user memory the task then executes: write it through
 * the kernel's mapping, then make the I-cache see it. TSAR's L1 caches
 * are coherent (the generic flush helpers are empty): the calls say what
 * a core with incoherent caches would need.
 */
void arch_uprobe_copy_ixol(struct page *page, unsigned long vaddr,
			   void *src, unsigned long len)
{
	void *kaddr = kmap_local_page(page);
	void *dst = kaddr + offset_in_page(vaddr);

	memcpy(dst, src, len);
	flush_icache_range((unsigned long)dst, (unsigned long)dst + len);
	kunmap_local(kaddr);
	flush_dcache_page(page);
}

/*
 * A break in user mode (traps.c): true if it was a uprobe's, whose work
 * TIF_UPROBE now asks for; false for the others, which signal SIGTRAP.
 * Matched word for word: a "break 13" coded in bits 15..6 is not ours.
 */
bool uprobe_break_handler(struct pt_regs *regs, u32 insn)
{
	struct uprobe_task *utask = current->utask;

	/* A probe is never in a delay slot (arch_uprobe_analyze_insn()). */
	if (regs->cause & CAUSE_BD)
		return false;
	if (insn == UPROBE_SWBP_INSN)
		return uprobe_pre_sstep_notifier(regs);
	if (insn == UPROBE_SSTEP_INSN && utask && utask->active_uprobe &&
	    regs->epc == utask->xol_vaddr + UPROBE_SWBP_INSN_SIZE)
		return uprobe_post_sstep_notifier(regs);
	return false;
}

/*
 * Every exception from user mode (traps.c): one raised by the stepped
 * instruction itself, in its slot, marks the step as trapped.
 */
void uprobe_note_exception(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (utask && utask->active_uprobe && regs->epc == utask->xol_vaddr)
		utask->autask.trapped = true;
}
