// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic ftrace: turning the _mcount call sites of asm/ftrace.h off and
 * into calls of ftrace_caller (kernel/mcount.S).
 *
 * Each site has one word that switches it, rec->ip, so a CPU running the
 * site sees it on or off, never half-patched (patch_insn_write() stores
 * a whole word through kernel/patch.c, as jump labels do):
 *
 *   kernel text: the jal; "addiu sp, sp, 8" when off, which the
 *     "addiu sp, sp, -8" gcc put in the call's delay slot undoes. That
 *     slot is never patched: a site is consistent after every single
 *     store, also while the patching code itself runs through sites it
 *     is converting (its spinlock calls, at boot). jal reaches
 *     ftrace_caller, in the same 256 MiB region as the rest of the kernel.
 *   module text: the lui v1 of the long call, "b" over the site (delay
 *     slot included) when off; module text may be anywhere, so the site
 *     keeps its own lui/addiu/jalr, aimed at ftrace_caller.
 *
 * ftrace_caller, like _mcount, undoes the slot's "addiu sp, sp, -8". A
 * module site's addiu gets ftrace_caller's low half when ftrace first
 * sees it (addr == MCOUNT_ADDR), before the module's code has run.
 *
 * The tracer function and whether the graph tracer's entry runs are read
 * by ftrace_caller from two words of data, not patched into its code.
 */

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/uaccess.h>

#include <asm/patch.h>

#define INSN_JAL		0x0c000000u
#define INSN_B			0x10000000u	/* beq zero, zero, off */
#define INSN_LUI_V1		0x3c030000u
#define INSN_ADDIU_V1_V1	0x24630000u
#define INSN_JALR_V1		0x0060f809u
#define INSN_ADDIU_SP_P8	0x27bd0008u	/* a kernel site, off */
#define JUMP_REGION		0xf0000000ul

/* A module's site: the words after rec->ip, then the skip when off. */
#define MOD_ADDIU_V1		1
#define MOD_JALR		4
#define MOD_SLOT		5
#define INSN_B_OVER_SITE	(INSN_B | MOD_SLOT)	/* to after the slot */

/* Read by ftrace_caller. */
unsigned long ftrace_call_func = (unsigned long)ftrace_stub;
unsigned long ftrace_graph_on;

static u32 insn_hi(unsigned long addr)
{
	return (addr + 0x8000) >> 16;
}

static u32 insn_lo(unsigned long addr)
{
	return addr & 0xffff;
}

/* A jal from the word at ip to addr, or 0 if addr is out of its reach. */
static u32 insn_jal(unsigned long ip, unsigned long addr)
{
	if (((ip + 4) & JUMP_REGION) != (addr & JUMP_REGION))
		return 0;
	return INSN_JAL | ((addr >> 2) & 0x03ffffff);
}

/* The errors ftrace_bug() explains: -EFAULT, -EINVAL, -EPERM. */
static int ftrace_modify_code(unsigned long ip, u32 old, u32 new)
{
	u32 cur;

	if (copy_from_kernel_nofault(&cur, (void *)ip, sizeof(cur)))
		return -EFAULT;
	if (cur != old)
		return -EINVAL;
	if (patch_insn_write((void *)ip, new))
		return -EPERM;
	return 0;
}

static bool kernel_site(unsigned long ip)
{
	return core_kernel_text(ip);
}

/* The first visit of a site: what stays the same while it is switched. */
static int ftrace_init_site(unsigned long ip)
{
	u32 *site = (u32 *)ip;
	int ret;

	if (kernel_site(ip)) {
		u32 jal = insn_jal(ip, MCOUNT_ADDR);

		if (!jal)
			return -EINVAL;
		return ftrace_modify_code(ip, jal, INSN_ADDIU_SP_P8);
	}

	ret = ftrace_modify_code(ip, INSN_LUI_V1 | insn_hi(MCOUNT_ADDR),
				 INSN_B_OVER_SITE);
	if (ret)
		return ret;
	if (site[MOD_JALR] != INSN_JALR_V1)
		return -EINVAL;
	return ftrace_modify_code((unsigned long)&site[MOD_ADDIU_V1],
				  INSN_ADDIU_V1_V1 | insn_lo(MCOUNT_ADDR),
				  INSN_ADDIU_V1_V1 | insn_lo(FTRACE_ADDR));
}

int ftrace_make_nop(struct module *mod, struct dyn_ftrace *rec,
		    unsigned long addr)
{
	unsigned long ip = rec->ip;

	if (addr == MCOUNT_ADDR)
		return ftrace_init_site(ip);
	if (kernel_site(ip)) {
		u32 jal = insn_jal(ip, addr);

		if (!jal)
			return -EINVAL;
		return ftrace_modify_code(ip, jal, INSN_ADDIU_SP_P8);
	}
	if (addr != FTRACE_ADDR)
		return -EINVAL;
	return ftrace_modify_code(ip, INSN_LUI_V1 | insn_hi(addr),
				  INSN_B_OVER_SITE);
}

int ftrace_make_call(struct dyn_ftrace *rec, unsigned long addr)
{
	unsigned long ip = rec->ip;

	if (kernel_site(ip)) {
		u32 jal = insn_jal(ip, addr);

		if (!jal)
			return -EINVAL;
		return ftrace_modify_code(ip, INSN_ADDIU_SP_P8, jal);
	}
	if (addr != FTRACE_ADDR)
		return -EINVAL;
	return ftrace_modify_code(ip, INSN_B_OVER_SITE,
				  INSN_LUI_V1 | insn_hi(addr));
}

int ftrace_update_ftrace_func(ftrace_func_t func)
{
	WRITE_ONCE(ftrace_call_func, (unsigned long)func);
	return 0;
}

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
int ftrace_enable_ftrace_graph_caller(void)
{
	WRITE_ONCE(ftrace_graph_on, 1);
	return 0;
}

int ftrace_disable_ftrace_graph_caller(void)
{
	WRITE_ONCE(ftrace_graph_on, 0);
	return 0;
}

/*
 * Called by ftrace_caller: parent points at the traced function's return
 * address (its stack slot, or ftrace_caller's copy of a leaf's ra), which
 * return_to_handler replaces once the graph tracer accepted the entry.
 */
void prepare_ftrace_return(unsigned long *parent, unsigned long self_addr)
{
	unsigned long old;

	if (unlikely(ftrace_graph_is_dead() ||
		     atomic_read(&current->tracing_graph_pause)))
		return;

	old = *parent;
	if (!function_graph_enter(old, self_addr, 0, parent))
		*parent = (unsigned long)return_to_handler;
}
#endif
