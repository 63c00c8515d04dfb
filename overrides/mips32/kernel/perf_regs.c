// SPDX-License-Identifier: GPL-2.0
/*
 * Registers for perf samples (PERF_SAMPLE_REGS_USER / _INTR) in the
 * numbering of <uapi/asm/perf_regs.h>, read from the exception frame.
 */

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/sched/task_stack.h>

#define PERF_REG_MIPS_MASK	GENMASK_ULL(PERF_REG_MIPS_MAX - 1, 0)

u64 perf_reg_value(struct pt_regs *regs, int idx)
{
	if (idx == PERF_REG_MIPS_PC)
		return regs->epc;
	if (WARN_ON_ONCE((u32)idx >= PERF_REG_MIPS_MAX))
		return 0;
	/* PERF_REG_MIPS_R1..R31 are 1..31: the register number itself. */
	return regs->regs[idx];
}

int perf_reg_validate(u64 mask)
{
	if (!mask || (mask & ~PERF_REG_MIPS_MASK))
		return -EINVAL;
	return 0;
}

u64 perf_reg_abi(struct task_struct *task)
{
	return PERF_SAMPLE_REGS_ABI_32;
}

/*
 * A sample taken in the kernel on behalf of a user task: the user's
 * registers are the frame saved at the top of its kernel stack.
 */
void perf_get_regs_user(struct perf_regs *regs_user, struct pt_regs *regs)
{
	regs_user->regs = task_pt_regs(current);
	regs_user->abi = perf_reg_abi(current);
}
