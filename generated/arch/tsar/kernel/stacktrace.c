// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/kernel/stacktrace.c: edit that file. */
/*
 * Stack traces. The kernel is built without frame information, so a
 * trace is the sequence of kernel text addresses found on the stack,
 * starting with the pc and return address when registers are known.
 * Entries can be stale return addresses; traces are hints, not proofs.
 */

#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>

#include <asm/ptrace.h>

void arch_stack_walk(stack_trace_consume_fn consume_entry, void *cookie,
		     struct task_struct *task, struct pt_regs *regs)
{
	unsigned long *sp, *end;

	if (regs) {
		if (!consume_entry(cookie, regs->epc))
			return;
		if (__kernel_text_address(regs->regs[31]) &&
		    !consume_entry(cookie, regs->regs[31]))
			return;
		sp = (unsigned long *)regs->regs[29];
	} else if (task == current) {
		sp = (unsigned long *)current_stack_pointer;
	} else {
		if (!consume_entry(cookie, task->thread.ra))
			return;
		sp = (unsigned long *)task->thread.sp;
	}

	end = (unsigned long *)((unsigned long)sp | (THREAD_SIZE - 1));
	for (; sp < end; sp++) {
		unsigned long addr = READ_ONCE_NOCHECK(*sp);

		if (__kernel_text_address(addr) && !consume_entry(cookie, addr))
			return;
	}
}
