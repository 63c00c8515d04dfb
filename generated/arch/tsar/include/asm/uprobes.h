/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/uprobes.h: edit that
 * file.
 */
/*
 * Uprobes on MIPS32 (kernel/uprobes.c). A probe is "break 13" written
 * over the probed word of the user's text; the original instruction runs
 * out of line in a slot of the task's XOL page, followed by "break 14",
 * whose trap puts the pc back after the probed word. The return probe
 * trampoline (slot 0 of that page) is a "break 13" too. The codes are
 * arch/mips's BRK_UPROBE and BRK_UPROBE_XOL, in the encoding gas gives
 * "break 13" (code in bits 25..16).
 */
#ifndef _ASM_MIPS32_UPROBES_H
#define _ASM_MIPS32_UPROBES_H

#include <linux/types.h>

struct pt_regs;

#define UPROBE_BRK_CODE		13
#define UPROBE_SSTEP_BRK_CODE	14
#define UPROBE_SWBP_INSN	((UPROBE_BRK_CODE << 16) | 0x0d)
#define UPROBE_SSTEP_INSN	((UPROBE_SSTEP_BRK_CODE << 16) | 0x0d)
#define UPROBE_SWBP_INSN_SIZE	4

#ifdef CONFIG_UPROBES
typedef u32 uprobe_opcode_t;

/* The probed instruction, then the break that ends its single step. */
#define MAX_UINSN_BYTES		8
/* A slot per cache line, as arch/mips (the largest line it knows). */
#define UPROBE_XOL_SLOT_BYTES	128

struct arch_uprobe {
	u32 insn[2];		/* the probed word (copy_insn() fills it) */
	u32 ixol[2];		/* what the XOL slot runs */
};

struct arch_uprobe_task {
	/* An exception other than the slot's own break hit the slot. */
	bool trapped;
};

bool uprobe_break_handler(struct pt_regs *regs, u32 insn);
void uprobe_note_exception(struct pt_regs *regs);
#else
static inline bool uprobe_break_handler(struct pt_regs *regs, u32 insn)
{
	return false;
}

static inline void uprobe_note_exception(struct pt_regs *regs)
{
}
#endif /* CONFIG_UPROBES */
#endif /* _ASM_MIPS32_UPROBES_H */
