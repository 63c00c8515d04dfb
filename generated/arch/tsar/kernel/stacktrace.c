// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/kernel/stacktrace.c: edit that file. */
/*
 * Stack unwinding by prologue analysis, as MIPS code has no frame
 * records: a function's prologue allocates its frame with
 * "addiu sp, sp, -size" and saves the return address with
 * "sw ra, offset(sp)". Reading the instructions between the start of the
 * function (from kallsyms) and the pc gives the caller's sp and pc.
 * An exception frame (pt_regs) is crossed when the unwind reaches the
 * entry code, so traces from interrupts continue into the interrupted
 * kernel code. ftrace_caller's frame is a pt_regs too, and a return
 * address the function graph tracer replaced with return_to_handler is
 * looked up on the task's return stack.
 */

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>

#include <asm/ptrace.h>
#include <asm/stacktrace.h>

#define INSN_ADDIU_SP_SP	0x27bd0000	/* addiu sp, sp, imm */
#define INSN_SW_RA_SP		0xafbf0000	/* sw ra, imm(sp) */
#define INSN_IMM_MASK		0xffff0000

/*
 * The entry code, from handle_int to __switch_to, calls C functions with
 * sp at the struct pt_regs of the exception (entry.S).
 */
static bool in_exception_entry(unsigned long pc)
{
	return pc >= (unsigned long)handle_int &&
	       pc < (unsigned long)__switch_to;
}

static bool on_stack(struct unwind_frame *f, unsigned long addr,
		     unsigned long len)
{
	return addr >= f->stack_low && addr + len <= f->stack_high &&
	       addr + len > addr;
}

/*
 * Step from the frame of the function executing at f->pc to its
 * caller's. f->ra_valid says whether f->ra holds the live return
 * address (only in a frame interrupted by an exception, where the
 * function may not have saved it yet). Returns false at the end of the
 * chain.
 */
bool unwind_frame_step(struct unwind_frame *f)
{
	unsigned long size, offset, start, pc = f->pc;
	unsigned long frame = 0, ra_slot = ~0UL;
	u32 *ip;

	if (!__kernel_text_address(pc))
		return false;

	if (in_exception_entry(pc)) {
		struct pt_regs *regs = (struct pt_regs *)f->sp;

		if (!on_stack(f, f->sp, sizeof(*regs)) || user_mode(regs))
			return false;
		f->pc = regs->epc;
		f->sp = regs->regs[29];
		f->ra = regs->regs[31];
		f->ra_valid = true;
		return true;
	}

	if (!kallsyms_lookup_size_offset(pc, &size, &offset))
		return false;
	start = pc - offset;

#ifdef CONFIG_FUNCTION_TRACER
	/*
	 * Returning into ftrace_caller from the tracer: regs[31] is the
	 * traced function's pc, regs[1] its own ra (a leaf has not saved it).
	 */
	if (start == (unsigned long)ftrace_caller && !f->ra_valid) {
		struct pt_regs *regs = (struct pt_regs *)f->sp;

		if (!on_stack(f, f->sp, sizeof(*regs)))
			return false;
		f->pc = READ_ONCE_NOCHECK(regs->regs[31]);
		f->ra = READ_ONCE_NOCHECK(regs->regs[1]);
		f->ra_valid = true;
		f->sp += sizeof(*regs);
		return true;
	}
#endif

	/* The prologue: the first frame allocation and ra save before pc. */
	for (ip = (u32 *)start; (unsigned long)ip < pc; ip++) {
		u32 insn = *ip;

		if ((insn & INSN_IMM_MASK) == INSN_ADDIU_SP_SP) {
			s16 imm = insn & 0xffff;

			if (imm >= 0)	/* an epilogue: returns lie elsewhere */
				continue;
			if (frame)
				break;
			frame = -imm;
		} else if ((insn & INSN_IMM_MASK) == INSN_SW_RA_SP && frame &&
			   ra_slot == ~0UL) {
			ra_slot = f->sp + (s16)(insn & 0xffff);
		}
	}

	if (ra_slot != ~0UL) {
		if (!on_stack(f, ra_slot, sizeof(unsigned long)))
			return false;
		f->pc = READ_ONCE_NOCHECK(*(unsigned long *)ra_slot);
	} else if (f->ra_valid) {
		f->pc = f->ra;		/* a leaf, or before its ra save */
	} else {
		return false;
	}
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	if (f->pc == (unsigned long)return_to_handler)
		f->pc = ftrace_graph_ret_addr(f->task, &f->graph_idx, f->pc,
					      NULL);
#endif
	f->sp += frame;
	f->ra_valid = false;
	/* The return address is after the call's delay slot. */
	return f->pc != pc || frame != 0;
}

void unwind_frame_init_task(struct unwind_frame *f, struct task_struct *task)
{
	f->stack_low = (unsigned long)task_stack_page(task);
	f->stack_high = f->stack_low + THREAD_SIZE;
	f->pc = task->thread.ra;
	f->sp = task->thread.sp;
	f->ra = 0;
	f->ra_valid = false;
	f->task = task;
	f->graph_idx = 0;
}

noinline void arch_stack_walk(stack_trace_consume_fn consume_entry,
			      void *cookie, struct task_struct *task,
			      struct pt_regs *regs)
{
	struct unwind_frame f;
	int depth = 0;

	f.task = task;
	f.graph_idx = 0;
	if (regs) {
		f.stack_low = regs->regs[29] & ~(THREAD_SIZE - 1);
		f.stack_high = f.stack_low + THREAD_SIZE;
		f.pc = regs->epc;
		f.sp = regs->regs[29];
		f.ra = regs->regs[31];
		f.ra_valid = true;
	} else if (task == current) {
		f.stack_low = current_stack_pointer & ~(THREAD_SIZE - 1);
		f.stack_high = f.stack_low + THREAD_SIZE;
		f.pc = _THIS_IP_;
		f.sp = current_stack_pointer;
		f.ra_valid = false;
		/* Start at our caller: this function is not part of the trace. */
		if (!unwind_frame_step(&f))
			return;
	} else {
		unwind_frame_init_task(&f, task);
	}

	do {
		if (!__kernel_text_address(f.pc) ||
		    !consume_entry(cookie, f.pc))
			return;
	} while (++depth < UNWIND_MAX_DEPTH && unwind_frame_step(&f));
}
