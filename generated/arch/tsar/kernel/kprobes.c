// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/kernel/kprobes.c: edit that file. */
/*
 * Kprobes and kretprobes on MIPS32.
 *
 * Arming a probe writes "break BRK_KPROBE_BP" over the probed word
 * through the text-patching code (kernel/patch.c, as jump labels do).
 * When it traps, the pre-handler runs, then the original instruction is
 * single-stepped out of line: it is copied into an instruction slot,
 * followed by "break BRK_KPROBE_SSTEPBP", and the exception returns to
 * the slot with interrupts off (Status.IE cleared in the saved frame).
 * The second break brings us back: the post-handler runs and execution
 * resumes at the word after the probe with the context's Status.IE.
 *
 * An instruction runs out of line only if its effect does not depend on
 * where it is: branches and jumps (PC-relative, or with a link register
 * or a delay slot tied to their address) are refused, as are the
 * instructions in their delay slots; so are ll/sc (the exception between
 * the slot and the resume clears LLbit: the sc would fail forever),
 * syscall, break, eret and deret. register_kprobe() returns -EINVAL for
 * those.
 *
 * A kretprobe replaces the return address in ra at the probed function's
 * entry with __kretprobe_trampoline (kernel/kprobes_trampoline.S), which
 * saves a struct pt_regs, runs the return handlers and goes back to the
 * real return address.
 */

#define pr_fmt(fmt) "kprobes: " fmt

#include <linux/extable.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/preempt.h>
#include <linux/uaccess.h>

#include <asm/cacheflush.h>
#include <asm/insn-decode.h>
#include <asm/patch.h>
#include <asm/sections.h>
#include <asm/traps.h>

DEFINE_PER_CPU(struct kprobe *, current_kprobe);
DEFINE_PER_CPU(struct kprobe_ctlblk, kprobe_ctlblk);

/* Break codes (bits 25..6 of a break instruction), as arch/mips uses. */
#define BRK_KPROBE_BP		515
#define BRK_KPROBE_SSTEPBP	516

#define KPROBE_BP_INSN		MIPS32_BREAK(BRK_KPROBE_BP)
#define KPROBE_SSTEP_INSN	MIPS32_BREAK(BRK_KPROBE_SSTEPBP)

/* Instructions that cannot run out of line, branches and jumps aside. */
static bool insn_not_steppable(u32 insn)
{
	switch (insn_op(insn)) {
	case OP_SPECIAL:
		return insn_fn(insn) == FN_SYSCALL || insn_fn(insn) == FN_BREAK;
	case OP_COP0:
		return (insn_rs(insn) & RS_CO) &&
		       (insn_fn(insn) == FN_ERET || insn_fn(insn) == FN_DERET);
	default:
		return insn_is_llsc(insn);
	}
}

/*
 * The words of an ftrace call site after the one ftrace switches
 * (rec->ip, which the kprobes core refuses): the jal's delay slot in
 * kernel text, the rest of a module's long call (asm/ftrace.h). A break
 * there would run in a delay slot once the site is switched.
 */
static bool in_ftrace_site(unsigned long addr)
{
#ifdef CONFIG_DYNAMIC_FTRACE
	unsigned long site = ftrace_location_range(addr - 20, addr - 4);

	return site && (addr - site == 4 || !core_kernel_text(site));
#else
	return false;
#endif
}
NOKPROBE_SYMBOL(in_ftrace_site);

int arch_prepare_kprobe(struct kprobe *p)
{
	u32 insn, prev;

	if ((unsigned long)p->addr & 3)
		return -EILSEQ;
	if (get_kernel_nofault(insn, p->addr))
		return -EFAULT;
	if (insn_has_delay_slot(insn) || insn_not_steppable(insn)) {
		pr_notice("cannot single-step the instruction %08x at %pS\n",
			  insn, p->addr);
		return -EINVAL;
	}
	/* The word before may be a branch whose delay slot this is. */
	if (!get_kernel_nofault(prev, p->addr - 1) && insn_has_delay_slot(prev)) {
		pr_notice("cannot probe %pS: in the delay slot of %08x\n",
			  p->addr, prev);
		return -EINVAL;
	}
	if (in_ftrace_site((unsigned long)p->addr)) {
		pr_notice("cannot probe %pS: in a function tracer call site\n",
			  p->addr);
		return -EINVAL;
	}

	p->opcode = insn;
	p->ainsn.insn = get_insn_slot();
	if (!p->ainsn.insn)
		return -ENOMEM;
	/* The slot is module memory, writable: plain stores, then the I-cache. */
	p->ainsn.insn[0] = insn;
	p->ainsn.insn[1] = KPROBE_SSTEP_INSN;
	flush_icache_range((unsigned long)p->ainsn.insn,
			   (unsigned long)(p->ainsn.insn + MAX_INSN_SIZE));
	return 0;
}
NOKPROBE_SYMBOL(arch_prepare_kprobe);

/* Called with text_mutex held (kernel/kprobes.c). */
void arch_arm_kprobe(struct kprobe *p)
{
	WARN_ON(patch_insn_write(p->addr, KPROBE_BP_INSN));
}
NOKPROBE_SYMBOL(arch_arm_kprobe);

void arch_disarm_kprobe(struct kprobe *p)
{
	WARN_ON(patch_insn_write(p->addr, p->opcode));
}
NOKPROBE_SYMBOL(arch_disarm_kprobe);

void arch_remove_kprobe(struct kprobe *p)
{
	if (p->ainsn.insn) {
		free_insn_slot(p->ainsn.insn, 0);
		p->ainsn.insn = NULL;
	}
}
NOKPROBE_SYMBOL(arch_remove_kprobe);

static void save_previous_kprobe(struct kprobe_ctlblk *kcb)
{
	kcb->prev_kprobe.kp = kprobe_running();
	kcb->prev_kprobe.status = kcb->kprobe_status;
	kcb->prev_kprobe.saved_ie = kcb->saved_ie;
}
NOKPROBE_SYMBOL(save_previous_kprobe);

static void restore_previous_kprobe(struct kprobe_ctlblk *kcb)
{
	__this_cpu_write(current_kprobe, kcb->prev_kprobe.kp);
	kcb->kprobe_status = kcb->prev_kprobe.status;
	kcb->saved_ie = kcb->prev_kprobe.saved_ie;
}
NOKPROBE_SYMBOL(restore_previous_kprobe);

static void set_current_kprobe(struct kprobe *p)
{
	__this_cpu_write(current_kprobe, p);
}
NOKPROBE_SYMBOL(set_current_kprobe);

/* Return to the slot with interrupts off, keeping the context's Status.IE. */
static void setup_singlestep(struct kprobe *p, struct pt_regs *regs,
			     struct kprobe_ctlblk *kcb, bool reenter)
{
	if (reenter) {
		save_previous_kprobe(kcb);
		set_current_kprobe(p);
		kcb->kprobe_status = KPROBE_REENTER;
	} else {
		kcb->kprobe_status = KPROBE_HIT_SS;
	}
	kcb->saved_ie = regs->status & ST_IE;
	regs->status &= ~ST_IE;
	regs->epc = (unsigned long)p->ainsn.insn;
}
NOKPROBE_SYMBOL(setup_singlestep);

/* The slot's break: resume after the probed instruction. */
static void resume_execution(struct kprobe *p, struct pt_regs *regs,
			     struct kprobe_ctlblk *kcb)
{
	regs->epc = (unsigned long)p->addr + 4;
	regs->status |= kcb->saved_ie;
}
NOKPROBE_SYMBOL(resume_execution);

static bool reenter_kprobe(struct kprobe *p, struct pt_regs *regs,
			   struct kprobe_ctlblk *kcb)
{
	switch (kcb->kprobe_status) {
	case KPROBE_HIT_SSDONE:
	case KPROBE_HIT_ACTIVE:
		kprobes_inc_nmissed_count(p);
		setup_singlestep(p, regs, kcb, true);
		return true;
	case KPROBE_HIT_SS:
	case KPROBE_REENTER:
		pr_warn("failed to recover from reentered kprobes\n");
		dump_kprobe(p);
		BUG();
	default:
		WARN_ON(1);
		return false;
	}
}
NOKPROBE_SYMBOL(reenter_kprobe);

static bool kprobe_single_step_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *cur = kprobe_running();

	if (!cur || regs->epc != (unsigned long)(cur->ainsn.insn + 1))
		return false;

	resume_execution(cur, regs, kcb);
	if (kcb->kprobe_status == KPROBE_REENTER) {
		restore_previous_kprobe(kcb);
		return true;
	}
	if (cur->post_handler) {
		kcb->kprobe_status = KPROBE_HIT_SSDONE;
		cur->post_handler(cur, regs, 0);
	}
	reset_current_kprobe();
	return true;
}
NOKPROBE_SYMBOL(kprobe_single_step_handler);

/*
 * A break in kernel mode (traps.c, interrupts still off): true if it was
 * a kprobe's, handled; false for the others (BUG(), WARN()).
 */
bool kprobe_break_handler(struct pt_regs *regs)
{
	struct kprobe_ctlblk *kcb;
	struct kprobe *p, *cur;
	u32 insn;

	/* A kprobe's break is never in a delay slot (arch_prepare_kprobe). */
	if (regs->cause & CAUSE_BD)
		return false;
	if (get_kernel_nofault(insn, (u32 *)regs->epc))
		return false;
	if (insn == KPROBE_SSTEP_INSN)
		return kprobe_single_step_handler(regs);

	kcb = get_kprobe_ctlblk();
	cur = kprobe_running();
	p = get_kprobe((kprobe_opcode_t *)regs->epc);
	if (p) {
		if (cur)
			return reenter_kprobe(p, regs, kcb);
		set_current_kprobe(p);
		kcb->kprobe_status = KPROBE_HIT_ACTIVE;
		/* A pre-handler returning nonzero has changed the pc itself. */
		if (!p->pre_handler || !p->pre_handler(p, regs))
			setup_singlestep(p, regs, kcb, false);
		else
			reset_current_kprobe();
		return true;
	}
	/*
	 * No probe there: if the word is no longer a break, another CPU
	 * removed the probe after this one hit it; run the word restored.
	 */
	return !insn_is_break(insn);
}
NOKPROBE_SYMBOL(kprobe_break_handler);

/*
 * A fault in the single-stepped instruction (a user access with an
 * __ex_table entry, say): put the pc back on the probed word, where the
 * fixup is found, and end the probe.
 */
int kprobe_fault_handler(struct pt_regs *regs, unsigned int trapnr)
{
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	struct kprobe *cur = kprobe_running();

	switch (kcb->kprobe_status) {
	case KPROBE_HIT_SS:
	case KPROBE_REENTER:
		regs->epc = (unsigned long)cur->addr;
		regs->status |= kcb->saved_ie;
		if (kcb->kprobe_status == KPROBE_REENTER)
			restore_previous_kprobe(kcb);
		else
			reset_current_kprobe();
		break;
	case KPROBE_HIT_ACTIVE:
	case KPROBE_HIT_SSDONE:
		/* In a handler: its own fixup, if it has one, applies. */
		if (fixup_exception(regs))
			return 1;
		break;
	}
	return 0;
}
NOKPROBE_SYMBOL(kprobe_fault_handler);

int arch_trampoline_kprobe(struct kprobe *p)
{
	return 0;
}
NOKPROBE_SYMBOL(arch_trampoline_kprobe);

/* Exception entry and exit: code that runs before and after any handler. */
int __init arch_populate_kprobe_blacklist(void)
{
	int ret;

	ret = kprobe_add_area_blacklist((unsigned long)__entry_text_start,
					(unsigned long)__entry_text_end);
	if (ret)
		return ret;
	return kprobe_add_ksym_blacklist((unsigned long)exception_vectors) < 0 ?
	       -EINVAL : 0;
}

int __init arch_init_kprobes(void)
{
	return 0;
}

#ifdef CONFIG_KRETPROBES
void arch_prepare_kretprobe(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	ri->ret_addr = (kprobe_opcode_t *)regs->regs[31];
	ri->fp = NULL;
	regs->regs[31] = (unsigned long)&__kretprobe_trampoline;
}
NOKPROBE_SYMBOL(arch_prepare_kretprobe);

/* Called by __kretprobe_trampoline: the real return address. */
void *trampoline_probe_handler(struct pt_regs *regs)
{
	return (void *)kretprobe_trampoline_handler(regs, NULL);
}
NOKPROBE_SYMBOL(trampoline_probe_handler);
#endif
