/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/ftrace.h: edit that
 * file.
 */
/*
 * Function tracing (kernel/ftrace.c, kernel/mcount.S). Code is built
 * with gcc's -pg -mmcount-ra-address: every traced function calls
 * _mcount early in its body, after its prologue saved ra,
 *
 *	kernel text			module text (-mlong-calls)
 *					lui	v1, %hi(_mcount)
 *					addiu	v1, v1, %lo(_mcount)
 *	move	at, ra			move	at, ra
 *	move	t4, zero | addiu t4, sp, ra slot
 *	jal	_mcount			jalr	v1
 *	 addiu	sp, sp, -8		 addiu	sp, sp, -8
 *
 * with at the caller's return address and t4 where the function saved
 * its own ra (zero in a leaf, which keeps it in ra). recordmcount lists
 * the jal (kernel) or the lui (module) in __mcount_loc: that word is
 * rec->ip, the one patched on and off.
 */
#ifndef _ASM_MIPS32_FTRACE_H
#define _ASM_MIPS32_FTRACE_H

#define MCOUNT_INSN_SIZE	4

/* ftrace_caller passes function_trace_op to the tracer. */
#define ARCH_SUPPORTS_FTRACE_OPS 1

#ifndef __ASSEMBLY__

#include <linux/string.h>

extern void _mcount(void);
#define MCOUNT_ADDR		((unsigned long)_mcount)

/* rec->ip is the recorded word itself. */
static inline unsigned long ftrace_call_adjust(unsigned long addr)
{
	return addr;
}

#ifdef CONFIG_DYNAMIC_FTRACE
struct dyn_arch_ftrace {
};
#endif

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
void return_to_handler(void);
void prepare_ftrace_return(unsigned long *parent, unsigned long self_addr);
#endif

/*
 * The calls that need a full pt_regs are in the table as their entry.S
 * wrapper, __full_sys_<name>: match them with their metadata too.
 */
#define ARCH_HAS_SYSCALL_MATCH_SYM_NAME
static inline bool arch_syscall_match_sym_name(const char *sym,
					       const char *name)
{
	if (!strncmp(sym, "__full_", 7))
		sym += 7;
	/* sys_ and SyS_ prefixes alike. */
	return !strcmp(sym + 3, name + 3);
}

#endif /* !__ASSEMBLY__ */
#endif /* _ASM_MIPS32_FTRACE_H */
