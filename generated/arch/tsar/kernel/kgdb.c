// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/kernel/kgdb.c: edit that file. */
/*
 * KGDB on MIPS32: the architecture half of the kernel's gdb stub.
 *
 * A breakpoint is "break 0, BRK_KGDB_BP" written over the instruction
 * through kernel/patch.c, so it works on read-only kernel and module
 * text; kgdb_breakpoint() is "break 0, BRK_KGDB_COMPILED", stepped over
 * when execution resumes on it. do_exception() hands every kernel-mode
 * break to kgdb_break_handler() (after kprobes), which enters the debug
 * core with interrupts still off. An oops enters it too (die notifier).
 *
 * There is no hardware single step: "s" decodes the instruction at the
 * pc, computes where it goes (for a branch or jump: its target or the
 * word after its delay slot, from the saved registers; both places for
 * the coprocessor branches whose condition is not in pt_regs) and
 * writes "break 0, BRK_KGDB_SSTEP" there. The step breaks are removed
 * before the debugger is entered again, whatever brought it there; another
 * task that runs into one waits for the stepped task to get there first.
 *
 * Other CPUs are brought into the debugger with the debug core's
 * default kgdb_roundup_cpus(): a call-function IPI, whose handler runs
 * under do_interrupt() (kernel/interrupt.c), so get_irq_regs() is the
 * interrupted context.
 */

#include <linux/kdebug.h>
#include <linux/kgdb.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <asm/cp0.h>
#include <asm/insn-decode.h>
#include <asm/patch.h>

#define KGDB_BP_INSN		MIPS32_BREAK(BRK_KGDB_BP)
#define KGDB_SSTEP_INSN		MIPS32_BREAK(BRK_KGDB_SSTEP)
#define KGDB_COMPILED_INSN	MIPS32_BREAK(BRK_KGDB_COMPILED)

/* Why the debug core was entered (its ex_vector): the break's kind. */
enum {
	KGDB_VEC_BP = 1,
	KGDB_VEC_SSTEP,
	KGDB_VEC_COMPILED,
};

#define GPR(name, n)	{ name, 4, offsetof(struct pt_regs, regs[n]) }
#define CP0(name, f)	{ name, 4, offsetof(struct pt_regs, f) }
#define FPR(name)	{ name, 4, -1 }

struct dbg_reg_def_t dbg_reg_def[DBG_MAX_REG_NUM] = {
	GPR("zero", 0), GPR("at", 1), GPR("v0", 2), GPR("v1", 3),
	GPR("a0", 4), GPR("a1", 5), GPR("a2", 6), GPR("a3", 7),
	GPR("t0", 8), GPR("t1", 9), GPR("t2", 10), GPR("t3", 11),
	GPR("t4", 12), GPR("t5", 13), GPR("t6", 14), GPR("t7", 15),
	GPR("s0", 16), GPR("s1", 17), GPR("s2", 18), GPR("s3", 19),
	GPR("s4", 20), GPR("s5", 21), GPR("s6", 22), GPR("s7", 23),
	GPR("t8", 24), GPR("t9", 25), GPR("k0", 26), GPR("k1", 27),
	GPR("gp", 28), GPR("sp", 29), GPR("s8", 30), GPR("ra", 31),
	[KGDB_REG_SR] = CP0("sr", status),
	[KGDB_REG_LO] = CP0("lo", lo),
	[KGDB_REG_HI] = CP0("hi", hi),
	[KGDB_REG_BAD] = CP0("bad", badvaddr),
	[KGDB_REG_CAUSE] = CP0("cause", cause),
	[KGDB_REG_PC] = CP0("pc", epc),
	FPR("f0"), FPR("f1"), FPR("f2"), FPR("f3"),
	FPR("f4"), FPR("f5"), FPR("f6"), FPR("f7"),
	FPR("f8"), FPR("f9"), FPR("f10"), FPR("f11"),
	FPR("f12"), FPR("f13"), FPR("f14"), FPR("f15"),
	FPR("f16"), FPR("f17"), FPR("f18"), FPR("f19"),
	FPR("f20"), FPR("f21"), FPR("f22"), FPR("f23"),
	FPR("f24"), FPR("f25"), FPR("f26"), FPR("f27"),
	FPR("f28"), FPR("f29"), FPR("f30"), FPR("f31"),
	FPR("fsr"), FPR("fir"),
};

/* No FPU: the floating-point registers read as zero. */
char *dbg_get_reg(int regno, void *mem, struct pt_regs *regs)
{
	const struct dbg_reg_def_t *def;

	if (regno < 0 || regno >= DBG_MAX_REG_NUM)
		return NULL;
	def = &dbg_reg_def[regno];
	if (def->offset < 0)
		memset(mem, 0, def->size);
	else
		memcpy(mem, (char *)regs + def->offset, def->size);
	return def->name;
}

/* $0 stays zero; writes to the floating-point registers are dropped. */
int dbg_set_reg(int regno, void *mem, struct pt_regs *regs)
{
	const struct dbg_reg_def_t *def;

	if (regno < 0 || regno >= DBG_MAX_REG_NUM)
		return -EINVAL;
	def = &dbg_reg_def[regno];
	if (regno == 0 || def->offset < 0)
		return 0;
	memcpy((char *)regs + def->offset, mem, def->size);
	return 0;
}

/*
 * A task switched out in __switch_to(): only what it saved in its
 * thread_struct is known, and gp (its thread_info); it resumes at ra.
 */
void sleeping_thread_to_gdb_regs(unsigned long *gdb_regs,
				 struct task_struct *p)
{
	int i;

	memset(gdb_regs, 0, NUMREGBYTES);
	for (i = 0; i < 8; i++)
		gdb_regs[16 + i] = p->thread.s[i];
	gdb_regs[28] = (unsigned long)task_thread_info(p);
	gdb_regs[29] = p->thread.sp;
	gdb_regs[30] = p->thread.s[8];
	gdb_regs[31] = p->thread.ra;
	gdb_regs[KGDB_REG_PC] = p->thread.ra;
}

void kgdb_arch_set_pc(struct pt_regs *regs, unsigned long pc)
{
	regs->epc = pc;
}

/* Breakpoints go in kernel and module text only, on whole words. */
static int kgdb_check_text(unsigned long addr)
{
	if (!IS_ALIGNED(addr, 4))
		return -EINVAL;
	if (!core_kernel_text(addr) && !is_module_text_address(addr))
		return -EFAULT;
	return 0;
}
NOKPROBE_SYMBOL(kgdb_check_text);

/* Through the patching code: the text is read-only (STRICT_KERNEL_RWX). */
static int kgdb_write_insn(unsigned long addr, u32 insn)
{
	return kgdb_check_text(addr) ?: patch_insn_write((void *)addr, insn);
}
NOKPROBE_SYMBOL(kgdb_write_insn);

/*
 * The break(s) ending a single step. Armed by the "s" command on the
 * CPU in the debugger, removed by whichever CPU next enters it.
 */
static struct {
	unsigned int count;
	unsigned long addr[2];
	u32 saved[2];
	struct task_struct *task;	/* the task being stepped */
} kgdb_step;
static DEFINE_RAW_SPINLOCK(kgdb_step_lock);

/* How many times this CPU's task trapped on another task's step break. */
static DEFINE_PER_CPU(unsigned int, kgdb_step_waits);
#define KGDB_STEP_MAX_WAITS	100000

static void kgdb_step_disarm(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&kgdb_step_lock, flags);
	kgdb_step.task = NULL;
	while (kgdb_step.count) {
		kgdb_step.count--;
		kgdb_write_insn(kgdb_step.addr[kgdb_step.count],
				kgdb_step.saved[kgdb_step.count]);
	}
	raw_spin_unlock_irqrestore(&kgdb_step_lock, flags);
}
NOKPROBE_SYMBOL(kgdb_step_disarm);

/* The original word at addr, if a step break is over it. */
static bool kgdb_step_saved(unsigned long addr, u32 *insn)
{
	unsigned int i;

	for (i = 0; i < kgdb_step.count; i++) {
		if (kgdb_step.addr[i] == addr) {
			*insn = kgdb_step.saved[i];
			return true;
		}
	}
	return false;
}

/*
 * gdb's breakpoints go in while the step breaks may be armed (the debug
 * core activates them after "s" is handled): one at a step address
 * saves the original word, not the step break, and the step's disarm
 * then restores that same word.
 */
int kgdb_arch_set_breakpoint(struct kgdb_bkpt *bpt)
{
	u32 insn;
	int err;

	err = kgdb_check_text(bpt->bpt_addr);
	if (err)
		return err;
	if (!kgdb_step_saved(bpt->bpt_addr, &insn)) {
		err = get_kernel_nofault(insn, (u32 *)bpt->bpt_addr);
		if (err)
			return err;
	}
	memcpy(bpt->saved_instr, &insn, BREAK_INSTR_SIZE);
	return kgdb_write_insn(bpt->bpt_addr, KGDB_BP_INSN);
}
NOKPROBE_SYMBOL(kgdb_arch_set_breakpoint);

int kgdb_arch_remove_breakpoint(struct kgdb_bkpt *bpt)
{
	u32 insn;

	memcpy(&insn, bpt->saved_instr, BREAK_INSTR_SIZE);
	return kgdb_write_insn(bpt->bpt_addr, insn);
}
NOKPROBE_SYMBOL(kgdb_arch_remove_breakpoint);

static unsigned long gpr(struct pt_regs *regs, unsigned int n)
{
	return n ? regs->regs[n] : 0;
}

/*
 * Where the instruction at pc sends execution: one address, or two for
 * a branch whose condition cannot be evaluated here. A branch or jump
 * is stepped with its delay slot, as gdb steps them.
 */
static unsigned int kgdb_next_pcs(struct pt_regs *regs, unsigned long pc,
				  u32 insn, unsigned long next[2])
{
	unsigned int op = insn_op(insn), rs = insn_rs(insn), rt = insn_rt(insn);
	long a = gpr(regs, rs), b = gpr(regs, rt);
	unsigned long target = pc + 4 + ((long)(s16)insn << 2);
	bool taken;

	switch (op) {
	case OP_SPECIAL:
		if (insn_fn(insn) != FN_JR && insn_fn(insn) != FN_JALR)
			goto sequential;
		next[0] = gpr(regs, rs);
		return 1;
	case OP_REGIMM:
		/* bltz, bgez and their -l, -al, -all forms; bit 0: >= 0 */
		if (rt & ~0x13)
			goto sequential;
		taken = (rt & 1) ? a >= 0 : a < 0;
		break;
	case OP_J:
	case OP_JAL:
		next[0] = ((pc + 4) & 0xf0000000) | ((insn & 0x03ffffff) << 2);
		return 1;
	case OP_BEQ:
	case OP_BEQL:
		taken = a == b;
		break;
	case OP_BNE:
	case OP_BNEL:
		taken = a != b;
		break;
	case OP_BLEZ:
	case OP_BLEZL:
		taken = a <= 0;
		break;
	case OP_BGTZ:
	case OP_BGTZL:
		taken = a > 0;
		break;
	case OP_COP1:
	case OP_COP2:
		if (rs != RS_BC)
			goto sequential;
		next[0] = pc + 8;
		next[1] = target;
		return target == pc + 8 ? 1 : 2;
	default:
		goto sequential;
	}
	next[0] = taken ? target : pc + 8;
	return 1;

sequential:
	next[0] = pc + 4;
	return 1;
}

static int kgdb_step_arm(struct pt_regs *regs)
{
	unsigned long next[2], flags;
	unsigned int i, n;
	u32 insn;
	int err;

	err = get_kernel_nofault(insn, (u32 *)regs->epc);
	if (err)
		return err;
	n = kgdb_next_pcs(regs, regs->epc, insn, next);

	raw_spin_lock_irqsave(&kgdb_step_lock, flags);
	for (i = 0; i < n; i++) {
		err = kgdb_check_text(next[i]);
		if (!err)
			err = get_kernel_nofault(kgdb_step.saved[i], (u32 *)next[i]);
		if (!err)
			err = kgdb_write_insn(next[i], KGDB_SSTEP_INSN);
		if (err)
			break;
		kgdb_step.addr[i] = next[i];
		kgdb_step.count = i + 1;
	}
	/* The debug core runs in the stopped task: the one stepped. */
	kgdb_step.task = current;
	raw_spin_unlock_irqrestore(&kgdb_step_lock, flags);
	if (err)
		kgdb_step_disarm();
	return err;
}

/* Resuming on kgdb_breakpoint()'s break goes past it. */
static void kgdb_skip_compiled_break(struct pt_regs *regs)
{
	u32 insn;

	if (!get_kernel_nofault(insn, (u32 *)regs->epc) &&
	    insn == KGDB_COMPILED_INSN)
		regs->epc += 4;
}

/* c [addr], s [addr], D, k: how the stopped context resumes. */
int kgdb_arch_handle_exception(int vector, int signo, int err_code,
			       char *remcom_in_buffer, char *remcom_out_buffer,
			       struct pt_regs *regs)
{
	unsigned long addr;
	char *ptr;

	switch (remcom_in_buffer[0]) {
	case 'c':
	case 's':
		ptr = &remcom_in_buffer[1];
		if (kgdb_hex2long(&ptr, &addr))
			regs->epc = addr;
		fallthrough;
	case 'D':
	case 'k':
		kgdb_skip_compiled_break(regs);
		atomic_set(&kgdb_cpu_doing_single_step, -1);
		if (remcom_in_buffer[0] != 's')
			return 0;
		if (kgdb_step_arm(regs)) {
			strcpy(remcom_out_buffer, "E14");	/* EFAULT */
			return -1;
		}
		atomic_set(&kgdb_cpu_doing_single_step, raw_smp_processor_id());
		return 0;
	}
	return -1;
}

/*
 * A CPU that hit a breakpoint another CPU removed before this one got
 * into the debugger runs the restored instruction instead.
 */
int kgdb_skipexception(int exception, struct pt_regs *regs)
{
	u32 insn;

	if (exception != KGDB_VEC_BP)
		return 0;
	return !get_kernel_nofault(insn, (u32 *)regs->epc) &&
	       insn != KGDB_BP_INSN;
}
NOKPROBE_SYMBOL(kgdb_skipexception);

/*
 * Another task ran into the break that ends a step (the same code on
 * another CPU, say): rather than stop there in the debugger, it takes
 * the break again until the stepped task gets there and removes it,
 * with interrupts (and preemption) as it had them in between. Only when
 * they were on, and for a bounded number of times.
 */
static bool kgdb_step_break_not_ours(struct pt_regs *regs)
{
	struct task_struct *task = READ_ONCE(kgdb_step.task);

	if (!task || task == current || !(regs->status & ST_IE) ||
	    this_cpu_inc_return(kgdb_step_waits) > KGDB_STEP_MAX_WAITS) {
		this_cpu_write(kgdb_step_waits, 0);
		return false;
	}
	cpu_relax();
	return true;
}
NOKPROBE_SYMBOL(kgdb_step_break_not_ours);

bool kgdb_break_handler(struct pt_regs *regs)
{
	int vector;
	u32 insn;

	/* gdb's breakpoints and the step's are never in a delay slot. */
	if (regs->cause & CAUSE_BD)
		return false;
	if (get_kernel_nofault(insn, (u32 *)regs->epc))
		return false;
	switch (insn) {
	case KGDB_BP_INSN:
		vector = KGDB_VEC_BP;
		break;
	case KGDB_SSTEP_INSN:
		if (kgdb_step_break_not_ours(regs))
			return true;
		vector = KGDB_VEC_SSTEP;
		break;
	case KGDB_COMPILED_INSN:
		vector = KGDB_VEC_COMPILED;
		break;
	default:
		/*
		 * No longer a break: a step break or breakpoint removed
		 * after this CPU trapped on it. Run the instruction.
		 */
		return !insn_is_break(insn);
	}

	kgdb_step_disarm();
	if (!kgdb_handle_exception(vector, SIGTRAP, 0, regs))
		return true;

	/* No debugger: kgdb_breakpoint() does nothing, a step is over. */
	if (vector == KGDB_VEC_COMPILED) {
		regs->epc += 4;
		return true;
	}
	return vector == KGDB_VEC_SSTEP;
}
NOKPROBE_SYMBOL(kgdb_break_handler);

/* An oops in the kernel enters the debugger before the task dies. */
static int kgdb_die_notify(struct notifier_block *nb, unsigned long cmd,
			   void *data)
{
	struct die_args *args = data;

	if (cmd != DIE_OOPS || user_mode(args->regs))
		return NOTIFY_DONE;
	kgdb_step_disarm();
	kgdb_handle_exception(args->trapnr, args->signr, cmd, args->regs);
	return NOTIFY_DONE;
}
NOKPROBE_SYMBOL(kgdb_die_notify);

static struct notifier_block kgdb_die_nb = {
	.notifier_call = kgdb_die_notify,
	/* The last die notifier to run, as on x86. */
	.priority = -INT_MAX,
};

int kgdb_arch_init(void)
{
	return register_die_notifier(&kgdb_die_nb);
}

void kgdb_arch_exit(void)
{
	unregister_die_notifier(&kgdb_die_nb);
}

const struct kgdb_arch arch_kgdb_ops = {
	/* "break 0, BRK_KGDB_BP", little endian */
	.gdb_bpt_instr = {
		KGDB_BP_INSN & 0xff, (KGDB_BP_INSN >> 8) & 0xff,
		(KGDB_BP_INSN >> 16) & 0xff, (KGDB_BP_INSN >> 24) & 0xff,
	},
};
