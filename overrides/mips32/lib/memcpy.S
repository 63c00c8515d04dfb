/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memcpy, memmove and copy_page, a word at a time. MIPS32 release 1
 * only; little-endian, so an unaligned word is lwr at the address and
 * lwl at the address + 3.
 */

#include <linux/linkage.h>
#include <asm/page.h>
#include <asm/export.h>
#include <asm/regdef.h>

	.set	noreorder
	.text

/* void *memcpy(void *dst, const void *src, size_t n) */
SYM_FUNC_START(memcpy)
	move	v0, a0
.Lcpy_forward:					/* memmove enters here */
	sltiu	t0, a2, 8
	bnez	t0, .Lcpy_bytes
	 xor	t0, a0, a1
	andi	t0, t0, 3
	bnez	t0, .Lcpy_unaligned		/* src and dst disagree mod 4 */
	 andi	t0, a0, 3
	beqz	t0, .Lcpy_aligned
	 subu	t0, zero, a0
	andi	t0, t0, 3			/* 1..3 bytes until both aligned */
	subu	a2, a2, t0
.Lcpy_head:
	lbu	t1, 0(a1)
	addiu	t0, t0, -1
	addiu	a1, a1, 1
	sb	t1, 0(a0)
	bnez	t0, .Lcpy_head
	 addiu	a0, a0, 1
.Lcpy_aligned:
	srl	t8, a2, 5			/* 32-byte blocks */
	beqz	t8, .Lcpy_words
	 andi	a2, a2, 31
.Lcpy_block:
	lw	t0, 0(a1)
	lw	t1, 4(a1)
	lw	t2, 8(a1)
	lw	t3, 12(a1)
	lw	t4, 16(a1)
	lw	t5, 20(a1)
	lw	t6, 24(a1)
	lw	t7, 28(a1)
	addiu	t8, t8, -1
	sw	t0, 0(a0)
	sw	t1, 4(a0)
	sw	t2, 8(a0)
	sw	t3, 12(a0)
	sw	t4, 16(a0)
	sw	t5, 20(a0)
	sw	t6, 24(a0)
	sw	t7, 28(a0)
	addiu	a1, a1, 32
	bnez	t8, .Lcpy_block
	 addiu	a0, a0, 32
.Lcpy_words:
	srl	t8, a2, 2
	beqz	t8, .Lcpy_bytes
	 andi	a2, a2, 3
.Lcpy_word:
	lw	t0, 0(a1)
	addiu	t8, t8, -1
	addiu	a1, a1, 4
	sw	t0, 0(a0)
	bnez	t8, .Lcpy_word
	 addiu	a0, a0, 4
.Lcpy_bytes:
	beqz	a2, .Lcpy_done
	 addu	a2, a2, a0			/* a2 = end of dst */
.Lcpy_byte:
	lbu	t0, 0(a1)
	addiu	a0, a0, 1
	addiu	a1, a1, 1
	bne	a0, a2, .Lcpy_byte
	 sb	t0, -1(a0)
.Lcpy_done:
	jr	ra
	 nop

.Lcpy_unaligned:				/* align dst, load src unaligned */
	beqz	t0, .Lcpy_uwords
	 subu	t0, zero, a0
	andi	t0, t0, 3
	subu	a2, a2, t0
.Lcpy_uhead:
	lbu	t1, 0(a1)
	addiu	t0, t0, -1
	addiu	a1, a1, 1
	sb	t1, 0(a0)
	bnez	t0, .Lcpy_uhead
	 addiu	a0, a0, 1
.Lcpy_uwords:
	srl	t8, a2, 4			/* 16-byte blocks */
	beqz	t8, .Lcpy_uword_start
	 andi	a2, a2, 15
.Lcpy_ublock:
	lwr	t0, 0(a1)
	lwl	t0, 3(a1)
	lwr	t1, 4(a1)
	lwl	t1, 7(a1)
	lwr	t2, 8(a1)
	lwl	t2, 11(a1)
	lwr	t3, 12(a1)
	lwl	t3, 15(a1)
	addiu	t8, t8, -1
	sw	t0, 0(a0)
	sw	t1, 4(a0)
	sw	t2, 8(a0)
	sw	t3, 12(a0)
	addiu	a1, a1, 16
	bnez	t8, .Lcpy_ublock
	 addiu	a0, a0, 16
.Lcpy_uword_start:
	srl	t8, a2, 2
	beqz	t8, .Lcpy_bytes
	 andi	a2, a2, 3
.Lcpy_uword:
	lwr	t0, 0(a1)
	lwl	t0, 3(a1)
	addiu	t8, t8, -1
	addiu	a1, a1, 4
	sw	t0, 0(a0)
	bnez	t8, .Lcpy_uword
	 addiu	a0, a0, 4
	b	.Lcpy_bytes
	 nop
SYM_FUNC_END(memcpy)
EXPORT_SYMBOL(memcpy)

/*
 * void *memmove(void *dst, const void *src, size_t n): forward copies
 * are memcpy's (it reads each block before writing it, so dst below src
 * is fine); an overlapping copy to a higher address goes backwards.
 */
SYM_FUNC_START(memmove)
	move	v0, a0
	sltu	t0, a1, a0			/* src < dst ... */
	beqz	t0, .Lcpy_forward
	 addu	t1, a1, a2
	sltu	t0, a0, t1			/* ... and dst < src + n */
	beqz	t0, .Lcpy_forward
	 nop
	addu	a0, a0, a2			/* a0, a1 = ends */
	move	a1, t1
	xor	t0, a0, a1
	andi	t0, t0, 3
	bnez	t0, .Lmove_bytes		/* disagree mod 4: bytes */
	 sltiu	t0, a2, 8
	bnez	t0, .Lmove_bytes
	 andi	t0, a0, 3
	beqz	t0, .Lmove_words
	 subu	a2, a2, t0
.Lmove_head:
	lbu	t1, -1(a1)
	addiu	t0, t0, -1
	addiu	a1, a1, -1
	sb	t1, -1(a0)
	bnez	t0, .Lmove_head
	 addiu	a0, a0, -1
.Lmove_words:
	srl	t8, a2, 2
	beqz	t8, .Lmove_bytes
	 andi	a2, a2, 3
.Lmove_word:
	lw	t0, -4(a1)
	addiu	t8, t8, -1
	addiu	a1, a1, -4
	sw	t0, -4(a0)
	bnez	t8, .Lmove_word
	 addiu	a0, a0, -4
.Lmove_bytes:
	beqz	a2, .Lmove_done
	 subu	a2, a0, a2			/* a2 = start of dst */
.Lmove_byte:
	lbu	t0, -1(a1)
	addiu	a0, a0, -1
	addiu	a1, a1, -1
	bne	a0, a2, .Lmove_byte
	 sb	t0, 0(a0)
.Lmove_done:
	jr	ra
	 nop
SYM_FUNC_END(memmove)
EXPORT_SYMBOL(memmove)

/* void copy_page(void *to, void *from): both page aligned */
SYM_FUNC_START(copy_page)
	addiu	t8, a0, PAGE_SIZE
.Lpage_block:
	lw	t0, 0(a1)
	lw	t1, 4(a1)
	lw	t2, 8(a1)
	lw	t3, 12(a1)
	lw	t4, 16(a1)
	lw	t5, 20(a1)
	lw	t6, 24(a1)
	lw	t7, 28(a1)
	sw	t0, 0(a0)
	sw	t1, 4(a0)
	sw	t2, 8(a0)
	sw	t3, 12(a0)
	sw	t4, 16(a0)
	sw	t5, 20(a0)
	sw	t6, 24(a0)
	sw	t7, 28(a0)
	addiu	a0, a0, 32
	bne	a0, t8, .Lpage_block
	 addiu	a1, a1, 32
	jr	ra
	 nop
SYM_FUNC_END(copy_page)
EXPORT_SYMBOL(copy_page)
