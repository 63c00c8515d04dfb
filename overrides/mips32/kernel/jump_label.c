// SPDX-License-Identifier: GPL-2.0
/*
 * Static keys: switching a static branch (asm/jump_label.h) between the
 * nop and a jump to its target. The jump is a b (beq $0, $0: PC-relative,
 * 128 KiB either way of its delay slot) when the target is that close,
 * else a j, which reaches only the 256 MiB region its delay slot is in
 * (a cold block in .text.unlikely may be further away than a b reaches).
 * The delay slot, the branch's second word, is a nop in both states.
 */

#include <linux/bug.h>
#include <linux/jump_label.h>
#include <linux/memory.h>
#include <linux/mutex.h>

#include <asm/patch.h>

#define MIPS_NOP	0x00000000u
#define MIPS_OP_J	(0x02u << 26)
#define MIPS_OP_BEQ	(0x04u << 26)	/* beq $0, $0, off is b off */

static u32 jump_insn(unsigned long code, unsigned long target)
{
	unsigned long slot = code + 4;
	long off = (long)target - (long)slot;

	if (off >= -0x20000 && off <= 0x1fffc)
		return MIPS_OP_BEQ | ((off >> 2) & 0xffff);
	/* j keeps the top 4 bits of the delay slot's address. */
	BUG_ON((target ^ slot) & 0xf0000000);
	return MIPS_OP_J | ((target >> 2) & 0x03ffffff);
}

void arch_jump_label_transform(struct jump_entry *e, enum jump_label_type type)
{
	unsigned long code = jump_entry_code(e);
	unsigned long target = jump_entry_target(e);
	u32 insn = MIPS_NOP;

	BUG_ON((code | target) & 3);
	if (type == JUMP_LABEL_JMP)
		insn = jump_insn(code, target);

	mutex_lock(&text_mutex);
	WARN_ON(patch_insn_write((void *)code, insn));
	mutex_unlock(&text_mutex);
}
