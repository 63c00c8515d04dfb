// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/kernel/ptrace.c: edit that file. */
/*
 * ptrace: the general registers as one regset (NT_PRSTATUS, struct
 * user_regs_struct), and the system call tracing hooks entry.S calls.
 */

#include <linux/elf.h>
#include <linux/ptrace.h>
#include <linux/regset.h>
#include <linux/resume_user_mode.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>

#include <asm/syscall.h>
#include <asm/traps.h>

/* The user-visible part of pt_regs starts at regs[] and is contiguous. */
static_assert(offsetof(struct pt_regs, cause) - offsetof(struct pt_regs, regs) ==
	      offsetof(struct user_regs_struct, cause) -
	      offsetof(struct user_regs_struct, regs));

static int gpr_get(struct task_struct *target, const struct user_regset *regset,
		   struct membuf to)
{
	return membuf_write(&to, &task_pt_regs(target)->regs,
			    sizeof(struct user_regs_struct));
}

static int gpr_set(struct task_struct *target, const struct user_regset *regset,
		   unsigned int pos, unsigned int count,
		   const void *kbuf, const void __user *ubuf)
{
	struct pt_regs *regs = task_pt_regs(target);
	struct user_regs_struct uregs;
	int ret;

	memcpy(&uregs, &regs->regs, sizeof(uregs));
	ret = user_regset_copyin(&pos, &count, &kbuf, &ubuf, &uregs, 0,
				 sizeof(uregs));
	if (ret)
		return ret;
	/* Only the general registers, hi/lo and the pc are writable. */
	memcpy(&regs->regs[1], &uregs.regs[1], sizeof(uregs.regs) - sizeof(uregs.regs[0]));
	regs->lo = uregs.lo;
	regs->hi = uregs.hi;
	regs->epc = uregs.epc;
	return 0;
}

enum tsar_regset { REGSET_GPR };

static const struct user_regset tsar_regsets[] = {
	[REGSET_GPR] = {
		.core_note_type = NT_PRSTATUS,
		.n = ELF_NGREG,
		.size = sizeof(elf_greg_t),
		.align = sizeof(elf_greg_t),
		.regset_get = gpr_get,
		.set = gpr_set,
	},
};

static const struct user_regset_view tsar_regset_view = {
	.name = "tsar",
	.e_machine = ELF_ARCH,
	.regsets = tsar_regsets,
	.n = ARRAY_SIZE(tsar_regsets),
};

const struct user_regset_view *task_user_regset_view(struct task_struct *task)
{
	return &tsar_regset_view;
}

void ptrace_disable(struct task_struct *child)
{
}

long arch_ptrace(struct task_struct *child, long request,
		 unsigned long addr, unsigned long data)
{
	return ptrace_request(child, request, addr, data);
}

/* Returns the system call number to run, or -1 to skip it. */
asmlinkage long syscall_trace_enter(struct pt_regs *regs)
{
	if (test_thread_flag(TIF_SYSCALL_TRACE) &&
	    ptrace_report_syscall_entry(regs))
		return -1;
	return syscall_get_nr(current, regs);
}

asmlinkage void syscall_trace_leave(struct pt_regs *regs)
{
	if (test_thread_flag(TIF_SYSCALL_TRACE))
		ptrace_report_syscall_exit(regs, 0);
}
