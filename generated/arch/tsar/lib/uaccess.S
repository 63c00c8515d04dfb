/* SPDX-License-Identifier: GPL-2.0 */
/* Copied by portkit from overrides/mips32/lib/uaccess.S: edit that file. */
/*
 * Copying to and from user memory, a word at a time. Each load or store
 * that may touch user memory has an __ex_table entry. The word loops
 * only move their pointers once a whole block is done, so a fault there
 * restarts the block byte by byte; a fault in the byte loop ends the
 * copy and the function returns exactly the number of bytes it did not
 * copy.
 */

#include <linux/linkage.h>
#include <asm/export.h>
#include <asm/regdef.h>

/* The access at the preceding label "9" resumes at fixup on a fault. */
#define EXTABLE(fixup)			\
	.section __ex_table, "a";	\
	.word	9b, fixup;		\
	.previous

/* One user access: insn with an exception-table entry to fixup. */
#define EX(insn, reg, addr, fixup)	\
9:	insn	reg, addr;		\
	EXTABLE(fixup)

	.set	noreorder
	.text

/* unsigned long __copy_user(void *to, const void *from, unsigned long n) */
SYM_FUNC_START(__copy_user)
	sltiu	t0, a2, 8
	bnez	t0, .Lcopy_bytes
	 xor	t0, a0, a1
	andi	t0, t0, 3
	bnez	t0, .Lcopy_unaligned		/* to and from disagree mod 4 */
	 andi	t0, a0, 3
	beqz	t0, .Lcopy_aligned
	 subu	t0, zero, a0
	andi	t0, t0, 3			/* 1..3 bytes until aligned */
.Lcopy_head:
	EX(lbu, t1, 0(a1), .Lcopy_done)
	EX(sb, t1, 0(a0), .Lcopy_done)
	addiu	t0, t0, -1
	addiu	a2, a2, -1
	addiu	a1, a1, 1
	bnez	t0, .Lcopy_head
	 addiu	a0, a0, 1
.Lcopy_aligned:
	sltiu	t0, a2, 16
	bnez	t0, .Lcopy_words
	 nop
.Lcopy_block:					/* 16 bytes */
	EX(lw, t0, 0(a1), .Lcopy_bytes)
	EX(lw, t1, 4(a1), .Lcopy_bytes)
	EX(lw, t2, 8(a1), .Lcopy_bytes)
	EX(lw, t3, 12(a1), .Lcopy_bytes)
	EX(sw, t0, 0(a0), .Lcopy_bytes)
	EX(sw, t1, 4(a0), .Lcopy_bytes)
	EX(sw, t2, 8(a0), .Lcopy_bytes)
	EX(sw, t3, 12(a0), .Lcopy_bytes)
	addiu	a2, a2, -16
	addiu	a1, a1, 16
	sltiu	t0, a2, 16
	beqz	t0, .Lcopy_block
	 addiu	a0, a0, 16
.Lcopy_words:
	sltiu	t0, a2, 4
	bnez	t0, .Lcopy_bytes
	 nop
	EX(lw, t0, 0(a1), .Lcopy_bytes)
	EX(sw, t0, 0(a0), .Lcopy_bytes)
	addiu	a2, a2, -4
	addiu	a1, a1, 4
	b	.Lcopy_words
	 addiu	a0, a0, 4

.Lcopy_unaligned:				/* unaligned loads, aligned stores */
	beqz	t0, .Lcopy_uwords
	 subu	t0, zero, a0
	andi	t0, t0, 3
.Lcopy_uhead:
	EX(lbu, t1, 0(a1), .Lcopy_done)
	EX(sb, t1, 0(a0), .Lcopy_done)
	addiu	t0, t0, -1
	addiu	a2, a2, -1
	addiu	a1, a1, 1
	bnez	t0, .Lcopy_uhead
	 addiu	a0, a0, 1
.Lcopy_uwords:
	sltiu	t0, a2, 4
	bnez	t0, .Lcopy_bytes
	 nop
	EX(lwr, t0, 0(a1), .Lcopy_bytes)
	EX(lwl, t0, 3(a1), .Lcopy_bytes)
	EX(sw, t0, 0(a0), .Lcopy_bytes)
	addiu	a2, a2, -4
	addiu	a1, a1, 4
	b	.Lcopy_uwords
	 addiu	a0, a0, 4

.Lcopy_bytes:
	beqz	a2, .Lcopy_done
	 nop
.Lcopy_byte:
	EX(lbu, t1, 0(a1), .Lcopy_done)
	EX(sb, t1, 0(a0), .Lcopy_done)
	addiu	a2, a2, -1
	addiu	a1, a1, 1
	bnez	a2, .Lcopy_byte
	 addiu	a0, a0, 1
.Lcopy_done:
	jr	ra
	 move	v0, a2
SYM_FUNC_END(__copy_user)
EXPORT_SYMBOL(__copy_user)

/* unsigned long __clear_user(void __user *addr, unsigned long n) */
SYM_FUNC_START(__clear_user)
	sltiu	t0, a1, 8
	bnez	t0, .Lclear_bytes
	 andi	t0, a0, 3
	beqz	t0, .Lclear_words
	 subu	t0, zero, a0
	andi	t0, t0, 3
.Lclear_head:
	EX(sb, zero, 0(a0), .Lclear_done)
	addiu	t0, t0, -1
	addiu	a1, a1, -1
	bnez	t0, .Lclear_head
	 addiu	a0, a0, 1
.Lclear_words:
	sltiu	t0, a1, 16
	bnez	t0, .Lclear_word
	 nop
	EX(sw, zero, 0(a0), .Lclear_bytes)
	EX(sw, zero, 4(a0), .Lclear_bytes)
	EX(sw, zero, 8(a0), .Lclear_bytes)
	EX(sw, zero, 12(a0), .Lclear_bytes)
	addiu	a1, a1, -16
	b	.Lclear_words
	 addiu	a0, a0, 16
.Lclear_word:
	sltiu	t0, a1, 4
	bnez	t0, .Lclear_bytes
	 nop
	EX(sw, zero, 0(a0), .Lclear_bytes)
	addiu	a1, a1, -4
	b	.Lclear_word
	 addiu	a0, a0, 4
.Lclear_bytes:
	beqz	a1, .Lclear_done
	 nop
.Lclear_byte:
	EX(sb, zero, 0(a0), .Lclear_done)
	addiu	a1, a1, -1
	bnez	a1, .Lclear_byte
	 addiu	a0, a0, 1
.Lclear_done:
	jr	ra
	 move	v0, a1
SYM_FUNC_END(__clear_user)
EXPORT_SYMBOL(__clear_user)
