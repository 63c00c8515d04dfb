/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memset and clear_page, a word at a time. MIPS32 release 1 only.
 */

#include <linux/linkage.h>
#include <asm/page.h>
#include <asm/export.h>
#include <asm/regdef.h>

	.set	noreorder
	.text

/* void *memset(void *s, int c, size_t n) */
SYM_FUNC_START(memset)
	move	v0, a0
	sltiu	t0, a2, 8
	bnez	t0, .Lset_bytes			/* short: byte by byte */
	 andi	a1, a1, 0xff
	sll	t0, a1, 8			/* replicate c to the word */
	or	a1, a1, t0
	sll	t0, a1, 16
	or	a1, a1, t0
	andi	t0, a0, 3
	beqz	t0, .Lset_aligned
	 subu	t0, zero, a0
	andi	t0, t0, 3			/* 1..3 bytes up to a word */
	subu	a2, a2, t0
.Lset_head:
	sb	a1, 0(a0)
	addiu	t0, t0, -1
	bnez	t0, .Lset_head
	 addiu	a0, a0, 1
.Lset_aligned:
	srl	t1, a2, 5			/* 32-byte blocks */
	beqz	t1, .Lset_words
	 andi	a2, a2, 31
.Lset_block:
	sw	a1, 0(a0)
	sw	a1, 4(a0)
	sw	a1, 8(a0)
	sw	a1, 12(a0)
	sw	a1, 16(a0)
	sw	a1, 20(a0)
	sw	a1, 24(a0)
	addiu	t1, t1, -1
	sw	a1, 28(a0)
	bnez	t1, .Lset_block
	 addiu	a0, a0, 32
.Lset_words:
	srl	t1, a2, 2
	beqz	t1, .Lset_bytes
	 andi	a2, a2, 3
.Lset_word:
	addiu	t1, t1, -1
	sw	a1, 0(a0)
	bnez	t1, .Lset_word
	 addiu	a0, a0, 4
.Lset_bytes:
	beqz	a2, .Lset_done
	 addu	a2, a2, a0			/* a2 = end */
.Lset_byte:
	addiu	a0, a0, 1
	bne	a0, a2, .Lset_byte
	 sb	a1, -1(a0)
.Lset_done:
	jr	ra
	 nop
SYM_FUNC_END(memset)
EXPORT_SYMBOL(memset)

/* void clear_page(void *page): page aligned, 64 bytes per iteration */
SYM_FUNC_START(clear_page)
	addiu	t0, a0, PAGE_SIZE
.Lclear_block:
	sw	zero, 0(a0)
	sw	zero, 4(a0)
	sw	zero, 8(a0)
	sw	zero, 12(a0)
	sw	zero, 16(a0)
	sw	zero, 20(a0)
	sw	zero, 24(a0)
	sw	zero, 28(a0)
	sw	zero, 32(a0)
	sw	zero, 36(a0)
	sw	zero, 40(a0)
	sw	zero, 44(a0)
	sw	zero, 48(a0)
	sw	zero, 52(a0)
	addiu	a0, a0, 64
	sw	zero, -8(a0)
	bne	a0, t0, .Lclear_block
	 sw	zero, -4(a0)
	jr	ra
	 nop
SYM_FUNC_END(clear_page)
EXPORT_SYMBOL(clear_page)
