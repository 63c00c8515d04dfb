/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BUG() and WARN() as a kernel-mode "break" instruction with a
 * __bug_table entry (file, line, flags); the breakpoint handler hands it
 * to report_bug(), which prints "kernel BUG at" or "WARNING: ... at"
 * and, for a warning, resumes after the break.
 */
#ifndef _ASM_TSAR_BUG_H
#define _ASM_TSAR_BUG_H

#include <linux/compiler.h>
#include <linux/types.h>

/* The break code of BUG/WARN, as on MIPS (BRK_BUG). */
#define TSAR_BUG_BREAK_CODE	12

#ifdef CONFIG_GENERIC_BUG

#ifdef CONFIG_DEBUG_BUGVERBOSE
#define __BUG_ENTRY					\
	"	.word	1b\n"					\
	"	.word	%0\n"					\
	"	.short	%1, %2\n"
#else
#define __BUG_ENTRY					\
	"	.word	1b\n"					\
	"	.short	%2\n"
#endif

#define __BUG_FLAGS(flags)					\
do {								\
	__asm__ __volatile__(					\
		"1:	break	%4\n"				\
		"	.pushsection __bug_table, \"aw\"\n"	\
		"	.balign	4\n"				\
		"2:\n"						\
		__BUG_ENTRY					\
		"	.org	2b + %3\n"			\
		"	.popsection\n"				\
		: : "i" (__FILE__), "i" (__LINE__),		\
		    "i" (flags), "i" (sizeof(struct bug_entry)),	\
		    "i" (TSAR_BUG_BREAK_CODE));			\
} while (0)

#define BUG()							\
do {								\
	__BUG_FLAGS(0);						\
	unreachable();						\
} while (0)

#define __WARN_FLAGS(flags)	__BUG_FLAGS(BUGFLAG_WARNING | (flags))

#define HAVE_ARCH_BUG

#endif /* CONFIG_GENERIC_BUG */

#include <asm-generic/bug.h>

struct pt_regs;
/* Report a kernel-mode break: true if it was a WARN and execution goes on. */
bool do_kernel_break(struct pt_regs *regs);

#endif /* _ASM_TSAR_BUG_H */
