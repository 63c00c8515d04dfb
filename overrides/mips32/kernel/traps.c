// SPDX-License-Identifier: GPL-2.0
/*
 * Exceptions other than interrupts and system calls: entry.S saves a
 * struct pt_regs and calls do_exception(), which dispatches on
 * Cause.ExcCode. Faults in user mode become signals; faults in the
 * kernel are fixed up through __ex_table or end in die().
 */

#include <linux/bug.h>
#include <linux/cpu.h>
#include <linux/extable.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched/debug.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/signal.h>
#include <linux/stacktrace.h>
#include <linux/uaccess.h>

#include <asm/cp0.h>
#include <asm/insn-decode.h>
#include <asm/kgdb.h>
#include <asm/kprobes.h>
#include <asm/mmu-hooks.h>
#include <asm/traps.h>
#include <asm/uprobes.h>

static const char * const exc_names[32] = {
	[EXC_INT] = "interrupt",
	[EXC_ADEL] = "address error (load/fetch)",
	[EXC_ADES] = "address error (store)",
	[EXC_IBE] = "instruction bus error",
	[EXC_DBE] = "data bus error",
	[EXC_SYS] = "syscall",
	[EXC_BP] = "breakpoint",
	[EXC_RI] = "reserved instruction",
	[EXC_CPU] = "coprocessor unusable",
	[EXC_OV] = "arithmetic overflow",
	[EXC_TR] = "trap",
	[EXC_FPE] = "floating point",
};

static inline unsigned int exc_code(struct pt_regs *regs)
{
	return (regs->cause & CAUSE_EXCCODE) >> CAUSE_EXCCODE_SHIFT;
}

static const char *exc_name(unsigned int code)
{
	return exc_names[code & 31] ?: "reserved exception";
}

static bool print_trace_entry(void *loglvl, unsigned long addr)
{
	printk("%s [<%08lx>] %pS\n", (const char *)loglvl, addr, (void *)addr);
	return true;
}

void show_regs(struct pt_regs *regs)
{
	int i;

	show_regs_print_info(KERN_DEFAULT);
	for (i = 0; i < 32; i += 4)
		pr_info("%-4s: %08lx %-4s: %08lx %-4s: %08lx %-4s: %08lx\n",
			gpr_names[i], regs->regs[i],
			gpr_names[i + 1], regs->regs[i + 1],
			gpr_names[i + 2], regs->regs[i + 2],
			gpr_names[i + 3], regs->regs[i + 3]);
	pr_info("epc : %08lx %pS\n", regs->epc,
		user_mode(regs) ? NULL : (void *)regs->epc);
	pr_info("ra  : %08lx %pS\n", regs->regs[31],
		user_mode(regs) ? NULL : (void *)regs->regs[31]);
	pr_info("status: %08lx cause: %08lx badvaddr: %08lx lo: %08lx hi: %08lx\n",
		regs->status, regs->cause, regs->badvaddr, regs->lo, regs->hi);
	if (!user_mode(regs)) {
		pr_info("Call Trace:\n");
		arch_stack_walk(print_trace_entry, KERN_INFO, current, regs);
	}
}

void show_stack(struct task_struct *task, unsigned long *sp,
		const char *loglvl)
{
	printk("%sCall Trace:\n", loglvl);
	arch_stack_walk(print_trace_entry, (void *)loglvl, task ?: current, NULL);
}

static DEFINE_SPINLOCK(die_lock);

void __noreturn die(const char *str, struct pt_regs *regs, long err)
{
	static int die_counter;
	int ret;

	console_verbose();
	spin_lock_irq(&die_lock);
	oops_enter();
	ret = notify_die(DIE_OOPS, str, regs, err, exc_code(regs), SIGSEGV);
	pr_emerg("%s: %04lx [#%d]\n", str, err & 0xffff, ++die_counter);
	print_modules();
	show_regs(regs);
	add_taint(TAINT_DIE, LOCKDEP_NOW_UNRELIABLE);
	oops_exit();
	spin_unlock_irq(&die_lock);

	if (in_interrupt())
		panic("Fatal exception in interrupt");
	if (panic_on_oops)
		panic("Fatal exception");
	if (ret != NOTIFY_STOP)
		make_task_dead(SIGSEGV);
	make_task_dead(SIGKILL);
}

/*
 * A fault that user mode caused becomes a signal; one the kernel caused
 * is fixed up if the instruction has an __ex_table entry, else fatal.
 */
void trap_or_die(struct pt_regs *regs, int signo, int code,
		 unsigned long addr, const char *str)
{
	if (user_mode(regs)) {
		force_sig_fault(signo, code, (void __user *)addr);
		return;
	}
	if (kprobe_page_fault(regs, exc_code(regs)))
		return;
	if (fixup_exception(regs))
		return;
	die(str, regs, exc_code(regs));
}

/*
 * The instruction that raised the exception: the one in the branch delay
 * slot when Cause.BD is set. Returns 0 on success.
 */
int exception_insn(struct pt_regs *regs, u32 *insn)
{
	unsigned long pc = regs->epc + ((regs->cause & CAUSE_BD) ? 4 : 0);

	if (user_mode(regs))
		return get_user(*insn, (u32 __user *)pc);
	return get_kernel_nofault(*insn, (u32 *)pc);
}

static bool insn_is_load_store(u32 insn)
{
	unsigned int op = insn_op(insn);

	return (op >= OP_LB && op <= OP_LWR) || (op >= OP_SB && op <= OP_SWL) ||
	       op == OP_SW || op == OP_SWR || op == OP_LL || op == OP_SC;
}

/* base + offset of a load/store instruction, from the saved registers. */
static unsigned long insn_address(struct pt_regs *regs, u32 insn)
{
	return regs->regs[insn_rs(insn)] + (long)(s16)(insn & 0xffff);
}

/*
 * A kernel access to a misaligned user address (put_user() of a status
 * word at an odd address, say) is done byte by byte, as MIPS emulates
 * it; only instructions with an __ex_table entry, i.e. user accesses,
 * qualify. A fault on the way takes the access's own fixup.
 */
static bool emulate_user_access_unaligned(struct pt_regs *regs)
{
	unsigned long addr, val = 0;
	unsigned int op, rt, size, i;
	u32 insn;
	u8 byte;

	if (regs->cause & CAUSE_BD)
		return false;
	if (!search_exception_tables(regs->epc))
		return false;
	if (get_kernel_nofault(insn, (u32 *)regs->epc))
		return false;
	op = insn_op(insn);
	rt = insn_rt(insn);
	switch (op) {
	case OP_LH: case OP_LHU: case OP_SH:
		size = 2;
		break;
	case OP_LW: case OP_SW:
		size = 4;
		break;
	default:
		return false;
	}
	addr = insn_address(regs, insn);
	if (!access_ok((void __user *)addr, size))
		return fixup_exception(regs);

	if (op == OP_SH || op == OP_SW) {
		val = regs->regs[rt];
		for (i = 0; i < size; i++)	/* little endian */
			if (__put_user((u8)(val >> (8 * i)), (u8 __user *)addr + i))
				return fixup_exception(regs);
	} else {
		for (i = 0; i < size; i++) {
			if (__get_user(byte, (u8 __user *)addr + i))
				return fixup_exception(regs);
			val |= (unsigned long)byte << (8 * i);
		}
		if (op == OP_LH)
			val = (long)(s16)val;
		if (rt)
			regs->regs[rt] = val;
	}
	regs->epc += 4;
	return true;
}

/*
 * User-mode misaligned accesses are not emulated: SIGBUS (BUS_ADRALN) at
 * the exact address, which BadVAddr holds for address errors.
 */
static void do_address_error(struct pt_regs *regs)
{
	if (!user_mode(regs) && emulate_user_access_unaligned(regs))
		return;
	trap_or_die(regs, SIGBUS, BUS_ADRALN, regs->badvaddr,
		    "Unaligned access");
}

/*
 * DBVAR (and BadVAddr) hold the faulting data address with bits 1..0
 * cleared; the instruction's base + offset gives the exact byte.
 */
unsigned long exact_data_address(struct pt_regs *regs, unsigned long dbvar)
{
	unsigned long addr;
	u32 insn;

	if (exception_insn(regs, &insn) || !insn_is_load_store(insn))
		return dbvar;
	addr = insn_address(regs, insn);
	/* lwl/lwr/swl/swr touch the word of addr; others start at addr. */
	if ((addr & ~3UL) != (dbvar & ~3UL) &&
	    ((addr + 3) & ~3UL) != (dbvar & ~3UL))
		return dbvar;
	return addr;
}

/*
 * A bus error the MMU layer did not claim (see mmu_exception()): a real
 * one, fatal in the kernel, SIGBUS in user mode.
 */
static void do_bus_error(struct pt_regs *regs, bool exec)
{
	unsigned long addr = exec ? regs->epc : regs->badvaddr;

	pr_alert("%s bus error at %08lx, epc %08lx\n",
		 exec ? "instruction" : "data", addr, regs->epc);
	trap_or_die(regs, SIGBUS, BUS_ADRERR, addr, "Bus error");
}

/* Break/trap codes with a meaning, as on MIPS (asm/break.h there). */
#define BRK_OVERFLOW	6	/* overflow check */
#define BRK_DIVZERO	7	/* divide by zero check */
/* 13 and 14: uprobes (asm/uprobes.h); 514 and 515: kprobes (kprobes.c). */

/* What MIPS's do_trap_or_bp() does for user mode. */
static void user_trap_code(struct pt_regs *regs, unsigned int code,
			   int si_code)
{
	switch (code) {
	case BRK_OVERFLOW:
		force_sig_fault(SIGFPE, FPE_INTOVF, (void __user *)regs->epc);
		break;
	case BRK_DIVZERO:
		force_sig_fault(SIGFPE, FPE_INTDIV, (void __user *)regs->epc);
		break;
	default:
		if (si_code)
			force_sig_fault(SIGTRAP, si_code, NULL);
		else
			force_sig(SIGTRAP);
	}
}

static void do_breakpoint(struct pt_regs *regs)
{
	unsigned int code;
	u32 insn;

	if (!user_mode(regs)) {
		trap_or_die(regs, SIGTRAP, TRAP_BRKPT, regs->epc, "Breakpoint");
		return;
	}
	if (exception_insn(regs, &insn)) {
		force_sig(SIGSEGV);
		return;
	}
	/* A uprobe's break or the one ending its step (kernel/uprobes.c). */
	if (uprobe_break_handler(regs, insn))
		return;
	/*
	 * The code is bits 25..6; old assemblers put a single code in
	 * bits 25..16, recognised as MIPS does: a code >= 1024 is swapped.
	 */
	code = (insn >> 6) & ((1 << 20) - 1);
	if (code >= (1 << 10))
		code = ((code & ((1 << 10) - 1)) << 10) | (code >> 10);
	user_trap_code(regs, code, TRAP_BRKPT);
}

int is_valid_bugaddr(unsigned long addr)
{
	u32 insn;

	if (get_kernel_nofault(insn, (u32 *)addr))
		return 0;
	/* break TSAR_BUG_BREAK_CODE: SPECIAL opcode 0, function 0x0d. */
	return insn == ((TSAR_BUG_BREAK_CODE << 16) | 0x0d);
}

/*
 * A break in kernel mode: BUG() and WARN() (asm/bug.h). A warning
 * resumes after the break; anything else is an oops.
 */
bool do_kernel_break(struct pt_regs *regs)
{
	if (report_bug(regs->epc, regs) == BUG_TRAP_TYPE_WARN) {
		regs->epc += 4;
		return true;
	}
	die("Oops - BUG", regs, 0);
}

static void do_trap_insn(struct pt_regs *regs)
{
	unsigned int code = 0;
	u32 insn;

	if (!user_mode(regs)) {
		/* gcc's division-by-zero check traps with code 7. */
		trap_or_die(regs, SIGFPE, FPE_INTDIV, regs->epc, "Trap");
		return;
	}
	if (exception_insn(regs, &insn)) {
		force_sig(SIGSEGV);
		return;
	}
	/* Register traps (SPECIAL opcode) have a code in bits 15..6. */
	if (insn_op(insn) == OP_SPECIAL)
		code = (insn >> 6) & ((1 << 10) - 1);
	user_trap_code(regs, code, 0);
}

/*
 * "rdhwr rt, $29" (the TLS pointer) on a core without the UserLocal
 * register (Config3.ULRI clear) raises a reserved-instruction exception:
 * give user mode its thread pointer as MIPS Linux does.
 */
static bool emulate_rdhwr_tls(struct pt_regs *regs)
{
	u32 insn;

	if (!user_mode(regs) || (regs->cause & CAUSE_BD))
		return false;
	if (get_user(insn, (u32 __user *)regs->epc))
		return false;
	if ((insn & 0xffe0ffff) != 0x7c00e83b)	/* SPECIAL3 rdhwr, rd = 29 */
		return false;
	regs->regs[insn_rt(insn)] = current_thread_info()->tp_value;
	regs->epc += 4;
	return true;
}

static void do_reserved(struct pt_regs *regs)
{
	if (emulate_rdhwr_tls(regs))
		return;
	trap_or_die(regs, SIGILL, ILL_ILLOPC, regs->epc,
		    "Reserved instruction");
}

static void do_cpu_unusable(struct pt_regs *regs)
{
	/* No FPU and no user access to CP0/CP2. */
	trap_or_die(regs, SIGILL, ILL_COPROC, regs->epc,
		    "Coprocessor unusable");
}

static void do_overflow(struct pt_regs *regs)
{
	trap_or_die(regs, SIGFPE, FPE_INTOVF, regs->epc, "Integer overflow");
}

/* Synchronous faults run with interrupts as the context had them. */
void exception_irq_enable(struct pt_regs *regs)
{
	if (regs->status & ST_IE)
		local_irq_enable();
}

asmlinkage void do_exception(struct pt_regs *regs)
{
	unsigned int code = exc_code(regs);

	/* A kprobe's or KGDB's break: handled with interrupts off. */
	if (code == EXC_BP && !user_mode(regs) &&
	    (kprobe_break_handler(regs) || kgdb_break_handler(regs)))
		return;

	/* A fault of an instruction a uprobe steps out of line? */
	if (user_mode(regs))
		uprobe_note_exception(regs);

	/* TLB, page-table walker or bus faults: the MMU layer's. */
	if (mmu_exception(regs, code)) {
		local_irq_disable();
		return;
	}
	exception_irq_enable(regs);

	switch (code) {
	case EXC_ADEL:
	case EXC_ADES:
		do_address_error(regs);
		break;
	case EXC_IBE:
		do_bus_error(regs, true);
		break;
	case EXC_DBE:
		do_bus_error(regs, false);
		break;
	case EXC_BP:
		if (!user_mode(regs)) {
			do_kernel_break(regs);
			break;
		}
		do_breakpoint(regs);
		break;
	case EXC_TR:
		do_trap_insn(regs);
		break;
	case EXC_RI:
		do_reserved(regs);
		break;
	case EXC_CPU:
		do_cpu_unusable(regs);
		break;
	case EXC_OV:
		do_overflow(regs);
		break;
	default:
		pr_alert("Unexpected exception %u (%s)\n", code, exc_name(code));
		trap_or_die(regs, SIGILL, ILL_ILLTRP, regs->epc,
			    "Unexpected exception");
	}
	local_irq_disable();
}
NOKPROBE_SYMBOL(do_exception);

/* Exceptions already go to the vector page: head.S set EBase. */
void __init trap_init(void)
{
}
