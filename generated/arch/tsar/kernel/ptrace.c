// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/kernel/ptrace.c: edit that file. */
/*
 * ptrace: the general registers as one regset (NT_PRSTATUS, struct
 * user_regs_struct), and the system call tracing hooks entry.S calls;
 * the registers and kernel stack of a struct pt_regs by name and offset
 * (HAVE_REGS_AND_STACK_ACCESS_API), for kprobe events.
 */

#include <linux/audit.h>
#include <linux/elf.h>
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/regset.h>
#include <linux/resume_user_mode.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/seccomp.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <asm/syscall.h>
#include <asm/traps.h>

#define CREATE_TRACE_POINTS
#include <trace/events/syscalls.h>

/* The user-visible part of pt_regs starts at regs[] and is contiguous. */
static_assert(offsetof(struct pt_regs, cause) - offsetof(struct pt_regs, regs) ==
	      offsetof(struct user_regs_struct, cause) -
	      offsetof(struct user_regs_struct, regs));

/*
 * A syscall's fast way out (entry.S) does not reload s0-s7/fp, which the
 * C code preserved: after a tracer's change to the saved registers, the
 * tracee must take the full way out, which TIF_NOTIFY_RESUME forces.
 */
static void regs_changed(struct task_struct *child)
{
	set_tsk_thread_flag(child, TIF_NOTIFY_RESUME);
}

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
	regs_changed(target);
	return 0;
}

static int tls_get(struct task_struct *target, const struct user_regset *regset,
		   struct membuf to)
{
	return membuf_store(&to, task_thread_info(target)->tp_value);
}

static int tls_set(struct task_struct *target, const struct user_regset *regset,
		   unsigned int pos, unsigned int count,
		   const void *kbuf, const void __user *ubuf)
{
	unsigned long tp = task_thread_info(target)->tp_value;
	int ret;

	ret = user_regset_copyin(&pos, &count, &kbuf, &ubuf, &tp, 0, sizeof(tp));
	if (ret)
		return ret;
	task_thread_info(target)->tp_value = tp;
	return 0;
}

enum tsar_regset { REGSET_GPR, REGSET_TLS };

static const struct user_regset tsar_regsets[] = {
	[REGSET_GPR] = {
		.core_note_type = NT_PRSTATUS,
		.n = ELF_NGREG,
		.size = sizeof(elf_greg_t),
		.align = sizeof(elf_greg_t),
		.regset_get = gpr_get,
		.set = gpr_set,
	},
	[REGSET_TLS] = {
		.core_note_type = NT_THREAD_POINTER,
		.n = 1,
		.size = sizeof(unsigned long),
		.align = sizeof(unsigned long),
		.regset_get = tls_get,
		.set = tls_set,
	},
};

static const struct user_regset_view tsar_regset_view = {
	.name = ELF_ARCH_NAME,
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

/* PTRACE_PEEKUSR: MIPS register numbers (asm/ptrace.h). */
static int peek_user(struct task_struct *child, unsigned long addr,
		     unsigned long __user *data)
{
	struct pt_regs *regs = task_pt_regs(child);
	unsigned long val;

	switch (addr) {
	case 0 ... 31:
		val = regs->regs[addr];
		break;
	case PTRACE_USR_PC:
		val = regs->epc;
		break;
	case PTRACE_USR_CAUSE:
		val = regs->cause;
		break;
	case PTRACE_USR_BADVADDR:
		val = regs->badvaddr;
		break;
	case PTRACE_USR_MMHI:
		val = regs->hi;
		break;
	case PTRACE_USR_MMLO:
		val = regs->lo;
		break;
	default:
		/* No FPU, DSP or SmartMIPS registers. */
		return -EIO;
	}
	return put_user(val, data);
}

static int poke_user(struct task_struct *child, unsigned long addr,
		     unsigned long data)
{
	struct pt_regs *regs = task_pt_regs(child);

	switch (addr) {
	case 1 ... 31:
		regs->regs[addr] = data;
		break;
	case 0:
		break;
	case PTRACE_USR_PC:
		regs->epc = data;
		break;
	case PTRACE_USR_MMHI:
		regs->hi = data;
		break;
	case PTRACE_USR_MMLO:
		regs->lo = data;
		break;
	default:
		/* Cause and BadVAddr are read-only, as on MIPS. */
		return -EIO;
	}
	return 0;
}

/* PTRACE_GETREGS/SETREGS: MIPS's 64-bit slots, sign-extended. */
static int get_mips_regs(struct task_struct *child,
			 struct user_regs_mips __user *data)
{
	struct pt_regs *regs = task_pt_regs(child);
	struct user_regs_mips r;
	int i;

	for (i = 0; i < 32; i++)
		r.regs[i] = (long)regs->regs[i];
	r.lo = (long)regs->lo;
	r.hi = (long)regs->hi;
	r.cp0_epc = (long)regs->epc;
	r.cp0_badvaddr = (long)regs->badvaddr;
	r.cp0_status = (long)regs->status;
	r.cp0_cause = (long)regs->cause;
	return copy_to_user(data, &r, sizeof(r)) ? -EIO : 0;
}

static int set_mips_regs(struct task_struct *child,
			 struct user_regs_mips __user *data)
{
	struct pt_regs *regs = task_pt_regs(child);
	struct user_regs_mips r;
	int i;

	if (copy_from_user(&r, data, sizeof(r)))
		return -EIO;
	for (i = 1; i < 32; i++)
		regs->regs[i] = r.regs[i];
	regs->lo = r.lo;
	regs->hi = r.hi;
	regs->epc = r.cp0_epc;
	/* BadVAddr, Status and Cause are not writable. */
	return 0;
}

long arch_ptrace(struct task_struct *child, long request,
		 unsigned long addr, unsigned long data)
{
	unsigned long __user *datap = (unsigned long __user *)data;

	switch (request) {
	case PTRACE_PEEKUSR:
		return peek_user(child, addr, datap);
	case PTRACE_POKEUSR:
		regs_changed(child);
		return poke_user(child, addr, data);
	case PTRACE_GETREGS:
		return get_mips_regs(child, (struct user_regs_mips __user *)data);
	case PTRACE_SETREGS:
		regs_changed(child);
		return set_mips_regs(child, (struct user_regs_mips __user *)data);
	case PTRACE_GET_THREAD_AREA:
		return put_user(task_thread_info(child)->tp_value, datap);
	default:
		return ptrace_request(child, request, addr, data);
	}
}

/*
 * Called by entry.S when a syscall has work (trace, seccomp, audit).
 * Returns 0 to run the call numbered orig_v0, -1 to skip it.
 */
asmlinkage long syscall_trace_enter(struct pt_regs *regs)
{
	long nr = regs->regs[SYSCALL_NR_REG];

	if (test_thread_flag(TIF_SYSCALL_TRACE)) {
		if (ptrace_report_syscall_entry(regs))
			goto skip;
		/*
		 * As on MIPS, the tracer changes the call through v0, re-read
		 * here; setting it to -1 skips the call (an unchanged -1 is
		 * just an invalid number: ENOSYS).
		 */
		if (regs->regs[SYSCALL_NR_REG] != nr) {
			nr = regs->regs[SYSCALL_NR_REG];
			if (nr == -1)
				goto skip;
			syscall_set_nr(current, regs, nr);
		}
	}

	if (secure_computing() == -1)
		goto skip;

	if (test_thread_flag(TIF_SYSCALL_TRACEPOINT))
		trace_sys_enter(regs, syscall_get_nr(current, regs));

	audit_syscall_entry(syscall_get_nr(current, regs), regs->regs[4],
			    regs->regs[5], regs->regs[6], regs->orig_a3);
	return 0;

skip:
	/* Not a call to restart: the registers are the tracer's result. */
	regs->orig_v0 = -1;
	return -1;
}

asmlinkage void syscall_trace_leave(struct pt_regs *regs)
{
	audit_syscall_exit(regs);
	if (test_thread_flag(TIF_SYSCALL_TRACEPOINT))
		trace_sys_exit(regs, regs_return_value(regs));
	if (test_thread_flag(TIF_SYSCALL_TRACE))
		ptrace_report_syscall_exit(regs, 0);
}

/* The general registers' o32 names, by number (also show_regs()). */
const char * const gpr_names[32] = {
	"zero", "at", "v0", "v1", "a0", "a1", "a2", "a3",
	"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7",
	"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
	"t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra",
};

/* The other registers of pt_regs a kprobe event can fetch (%epc, ...). */
static const struct {
	const char *name;
	unsigned int offset;
} other_regs[] = {
	{ "lo", offsetof(struct pt_regs, lo) },
	{ "hi", offsetof(struct pt_regs, hi) },
	{ "epc", offsetof(struct pt_regs, epc) },
	{ "badvaddr", offsetof(struct pt_regs, badvaddr) },
	{ "status", offsetof(struct pt_regs, status) },
	{ "cause", offsetof(struct pt_regs, cause) },
};

#define GPR_OFFSET(n)	(offsetof(struct pt_regs, regs) + (n) * sizeof(unsigned long))

/*
 * The offset in pt_regs of a register named as o32 does ("a0", "sp") or
 * as arch/mips does ("r4", "r29"); -EINVAL for any other name.
 */
int regs_query_register_offset(const char *name)
{
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(gpr_names); i++)
		if (!strcmp(name, gpr_names[i]))
			return GPR_OFFSET(i);
	if (name[0] == 'r' && !kstrtouint(name + 1, 10, &n) && n < 32 &&
	    (name[1] != '0' || !name[2]))
		return GPR_OFFSET(n);
	for (i = 0; i < ARRAY_SIZE(other_regs); i++)
		if (!strcmp(name, other_regs[i].name))
			return other_regs[i].offset;
	return -EINVAL;
}

const char *regs_query_register_name(unsigned int offset)
{
	unsigned int i;

	if (offset >= GPR_OFFSET(0) && offset < GPR_OFFSET(32) &&
	    !((offset - GPR_OFFSET(0)) % sizeof(unsigned long)))
		return gpr_names[(offset - GPR_OFFSET(0)) / sizeof(unsigned long)];
	for (i = 0; i < ARRAY_SIZE(other_regs); i++)
		if (offset == other_regs[i].offset)
			return other_regs[i].name;
	return NULL;
}

/* Is addr on the same kernel stack as the context's sp? */
int regs_within_kernel_stack(struct pt_regs *regs, unsigned long addr)
{
	return (addr & ~(THREAD_SIZE - 1)) ==
	       (kernel_stack_pointer(regs) & ~(THREAD_SIZE - 1));
}

/* The n-th word above the context's sp, 0 if that is off its stack. */
unsigned long regs_get_kernel_stack_nth(struct pt_regs *regs, unsigned int n)
{
	unsigned long *addr = (unsigned long *)kernel_stack_pointer(regs) + n;

	if (!regs_within_kernel_stack(regs, (unsigned long)addr))
		return 0;
	return *addr;
}

/*
 * Argument n (from 0) of a function, at its entry: o32 passes the first
 * four in a0-a3 and the others on the stack, at sp + 4 * n (the caller
 * reserves the first four words for a0-a3).
 */
#define O32_REG_ARGS	4

unsigned long regs_get_kernel_argument(struct pt_regs *regs, unsigned int n)
{
	if (n < O32_REG_ARGS)
		return regs->regs[4 + n];
	return regs_get_kernel_stack_nth(regs, n);
}
