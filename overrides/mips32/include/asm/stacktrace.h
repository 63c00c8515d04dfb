/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel stack unwinding by prologue analysis (kernel/stacktrace.c).
 */
#ifndef _ASM_TSAR_STACKTRACE_H
#define _ASM_TSAR_STACKTRACE_H

#include <linux/types.h>

#define UNWIND_MAX_DEPTH	64

struct task_struct;

/* entry.S: the code from handle_int to __switch_to runs on a pt_regs frame. */
extern char handle_int[], __switch_to[];

struct unwind_frame {
	unsigned long pc;		/* where the function is */
	unsigned long sp;		/* its stack pointer there */
	unsigned long ra;		/* live ra, if ra_valid */
	bool ra_valid;
	unsigned long stack_low, stack_high;
	struct task_struct *task;	/* whose stack */
	int graph_idx;			/* function graph return stack */
};

/* Start at a sleeping task's switch point (thread.ra, thread.sp). */
void unwind_frame_init_task(struct unwind_frame *f, struct task_struct *task);
/* Go to the caller's frame; false at the end of the chain. */
bool unwind_frame_step(struct unwind_frame *f);

#endif /* _ASM_TSAR_STACKTRACE_H */
