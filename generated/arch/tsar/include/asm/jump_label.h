/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/jump_label.h: edit that
 * file.
 */
/*
 * Static keys (HAVE_ARCH_JUMP_LABEL). A static branch is two words: the
 * patched word, a nop or a jump to the "yes" label, and its delay slot,
 * always a nop. The block is assembled with .set noreorder so that the
 * assembler puts nothing else in the delay slot and the compiler's next
 * instruction never becomes one. kernel/jump_label.c rewrites the first
 * word: nop when the branch is not taken, b or j to the target when it is.
 */
#ifndef _ASM_MIPS32_JUMP_LABEL_H
#define _ASM_MIPS32_JUMP_LABEL_H

/* The patched word and its delay slot: text no other patcher may touch. */
#define JUMP_LABEL_NOP_SIZE	8

#ifndef __ASSEMBLY__

#include <linux/types.h>

/* One __jump_table entry: the patched word, the target, the key. */
#define JUMP_TABLE_ENTRY(key_arg)				\
	".pushsection __jump_table, \"aw\"\n\t"			\
	".align 2\n\t"						\
	".word 1b, %l[l_yes], " key_arg "\n\t"			\
	".popsection\n\t"

static __always_inline bool arch_static_branch(struct static_key *key,
					       bool branch)
{
	asm goto(".set push\n\t"
		 ".set noreorder\n"
		 "1:\tnop\n\t"
		 "nop\n\t"
		 ".set pop\n\t"
		 JUMP_TABLE_ENTRY("%0")
		 : : "i" (&((char *)key)[branch]) : : l_yes);
	return false;
l_yes:
	return true;
}

static __always_inline bool arch_static_branch_jump(struct static_key *key,
						    bool branch)
{
	asm goto(".set push\n\t"
		 ".set noreorder\n"
		 "1:\tj\t%l[l_yes]\n\t"
		 "nop\n\t"
		 ".set pop\n\t"
		 JUMP_TABLE_ENTRY("%0")
		 : : "i" (&((char *)key)[branch]) : : l_yes);
	return false;
l_yes:
	return true;
}

typedef u32 jump_label_t;

struct jump_entry {
	jump_label_t code;
	jump_label_t target;
	jump_label_t key;
};

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_MIPS32_JUMP_LABEL_H */
