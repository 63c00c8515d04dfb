/* SPDX-License-Identifier: GPL-2.0 */
/* Copied by portkit from overrides/mips32/lib/uaccess.S: edit that file. */
/*
 * Copying to and from user memory. Each load or store that may touch
 * user memory has an __ex_table entry; a fault ends the copy and the
 * function returns the number of bytes it did not copy.
 */

#include <linux/linkage.h>
#include <asm/regdef.h>

/* The instruction at the preceding label "9" resumes at fixup on a fault. */
#define EXTABLE(fixup)			\
	.section __ex_table, "a";	\
	.word	9b, fixup;		\
	.previous

	.set	noreorder
	.text

/* unsigned long __copy_user(void *to, const void *from, unsigned long n) */
SYM_FUNC_START(__copy_user)
	beqz	a2, .Lcopy_done
	 or	t0, a0, a1
	andi	t0, t0, 3
	bnez	t0, .Lcopy_bytes		/* misaligned: byte by byte */
	 sltiu	t0, a2, 4
	bnez	t0, .Lcopy_bytes
	 nop
.Lcopy_words:
9:	lw	t1, 0(a1)
	EXTABLE(.Lcopy_done)
9:	sw	t1, 0(a0)
	EXTABLE(.Lcopy_done)
	addiu	a2, a2, -4
	addiu	a1, a1, 4
	sltiu	t0, a2, 4
	beqz	t0, .Lcopy_words
	 addiu	a0, a0, 4
	beqz	a2, .Lcopy_done
	 nop
.Lcopy_bytes:
9:	lbu	t1, 0(a1)
	EXTABLE(.Lcopy_done)
9:	sb	t1, 0(a0)
	EXTABLE(.Lcopy_done)
	addiu	a2, a2, -1
	addiu	a1, a1, 1
	bnez	a2, .Lcopy_bytes
	 addiu	a0, a0, 1
.Lcopy_done:
	jr	ra
	 move	v0, a2
SYM_FUNC_END(__copy_user)

/* unsigned long __clear_user(void __user *addr, unsigned long n) */
SYM_FUNC_START(__clear_user)
	beqz	a1, .Lclear_done
	 nop
.Lclear_bytes:
9:	sb	zero, 0(a0)
	EXTABLE(.Lclear_done)
	addiu	a1, a1, -1
	bnez	a1, .Lclear_bytes
	 addiu	a0, a0, 1
.Lclear_done:
	jr	ra
	 move	v0, a1
SYM_FUNC_END(__clear_user)
