/* SPDX-License-Identifier: GPL-2.0 */
/* Copied by portkit from overrides/mips32/include/asm/kgdb.h: edit that file. */
/*
 * KGDB on MIPS32 (kernel/kgdb.c). Registers go to gdb in its o32 "mips"
 * layout: 32 general registers, sr, lo, hi, bad, cause, pc, then 32
 * floating-point registers, fsr and fir, 4 bytes each. Without an FPU
 * the last 34 read as zero.
 */
#ifndef _ASM_MIPS32_KGDB_H
#define _ASM_MIPS32_KGDB_H

#include <linux/types.h>

#define BUFMAX			2048
#define DBG_MAX_REG_NUM		72
#define NUMREGBYTES		(DBG_MAX_REG_NUM * 4)
#define BREAK_INSTR_SIZE	4
/* Breakpoints are written through kernel/patch.c, which flushes. */
#define CACHE_FLUSH_IS_SAFE	1

/* gdb's register numbers (dbg_reg_def[] in kernel/kgdb.c). */
#define KGDB_REG_SR		32
#define KGDB_REG_LO		33
#define KGDB_REG_HI		34
#define KGDB_REG_BAD		35
#define KGDB_REG_CAUSE		36
#define KGDB_REG_PC		37
#define KGDB_REG_F0		38

/*
 * Break codes (bits 15..6, the second code of "break c1, c2") of KGDB's
 * instructions; BUG() uses 12, kprobes 515 and 516.
 */
#define BRK_KGDB_BP		520	/* a breakpoint gdb set */
#define BRK_KGDB_SSTEP		521	/* the end of a single step */
#define BRK_KGDB_COMPILED	522	/* kgdb_breakpoint() */

#ifndef __ASSEMBLY__
static inline void arch_kgdb_breakpoint(void)
{
	__asm__ __volatile__("break	0, %0" : : "i" (BRK_KGDB_COMPILED) : "memory");
}

struct pt_regs;

#ifdef CONFIG_KGDB
/* A kernel-mode break: true if it was one of KGDB's, now handled. */
bool kgdb_break_handler(struct pt_regs *regs);
#else
static inline bool kgdb_break_handler(struct pt_regs *regs)
{
	return false;
}
#endif /* CONFIG_KGDB */
#endif /* !__ASSEMBLY__ */

#endif /* _ASM_MIPS32_KGDB_H */
