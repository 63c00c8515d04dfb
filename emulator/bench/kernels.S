/* CPU-bound benchmark kernels, identical on every platform.
 *
 * Built with -DKERNEL=n -DITERS=N.  bench_main runs kernel n for N
 * iterations and returns a checksum in $2.  Exact instruction counts per
 * iteration (the set-up and tail code run in the zero-iteration build too,
 * so t(N) - t(0) and count(N) - count(0) cover exactly N iterations):
 *
 *   1 alu19   19                       (19-instruction integer loop)
 *   2 memcpy  8 + 15 * MEM_BYTES / 16  (copy + sum of a 16 KiB array)
 *   3 crc32   9 + 70 * CRC_BYTES       (bitwise CRC-32, data-dependent
 *                                       branches, both paths 8 instructions)
 */
#ifndef ITERS
#define ITERS 1000
#endif
#ifndef KERNEL
#define KERNEL 1
#endif
#define MEM_BYTES 16384
#define CRC_BYTES 1024

	.set noreorder
	.set noat
	.text
	.globl bench_main
bench_main:
	move	$23, $31
	lui	$4, (ITERS >> 16)		/* always 2 instructions */
	ori	$4, $4, (ITERS & 0xffff)
	move	$2, $0

#if KERNEL == 1
	li	$8, 0x12345678
	li	$9, 0x9abcdef0
	li	$10, 1
	li	$11, 2
	li	$12, 3
	li	$13, 4
	li	$14, 5
	li	$15, 6
	li	$24, 7
	li	$25, 8
	li	$16, 9
	li	$17, 10
	li	$18, 11
	li	$19, 12
	beqz	$4, 9f			/* ITERS = 0: same path minus the loop */
	nop
1:	addu	$8, $8, $9
	xor	$9, $9, $8
	sll	$10, $8, 3
	srl	$11, $9, 5
	or	$12, $10, $11
	subu	$13, $12, $8
	and	$14, $13, $9
	addiu	$15, $15, 7
	xor	$8, $8, $14
	sltu	$24, $8, $9
	addu	$9, $9, $24
	nor	$25, $8, $9
	addu	$16, $16, $25
	srl	$25, $16, 1
	xor	$17, $17, $25
	addiu	$18, $18, 1
	addiu	$4, $4, -1
	bnez	$4, 1b
	addu	$19, $19, $17		/* delay slot: 19 instructions */
9:	addu	$2, $19, $15
	addu	$2, $2, $18

#elif KERNEL == 2
	move	$16, $0			/* running sum */
	beqz	$4, 9f
	nop
1:	la	$5, src			/* 2 */
	la	$6, dst			/* 2 */
	addiu	$7, $5, MEM_BYTES	/* 1 */
2:	lw	$8, 0($5)		/* 15 per 16 bytes */
	lw	$9, 4($5)
	lw	$10, 8($5)
	lw	$11, 12($5)
	addu	$16, $16, $8
	addu	$16, $16, $9
	addu	$16, $16, $10
	addu	$16, $16, $11
	sw	$8, 0($6)
	sw	$9, 4($6)
	sw	$10, 8($6)
	sw	$11, 12($6)
	addiu	$5, $5, 16
	bne	$5, $7, 2b
	addiu	$6, $6, 16
	addiu	$4, $4, -1		/* 3 */
	bnez	$4, 1b
	nop
9:	la	$5, dst			/* the copy must be complete */
	lw	$8, MEM_BYTES - 4($5)
	addu	$2, $16, $8

#elif KERNEL == 3
	li	$20, 0xEDB88320
	move	$16, $0			/* sum of the CRCs */
	beqz	$4, 9f
	nop
1:	la	$5, crcbuf		/* 2 */
	addiu	$7, $5, CRC_BYTES	/* 1 */
	li	$8, -1			/* 1 */
2:	lbu	$9, 0($5)		/* 3 + 8 * 8 + 3 per byte */
	xor	$8, $8, $9
	li	$10, 8
3:	andi	$11, $8, 1
	beqz	$11, 4f
	srl	$8, $8, 1
	b	5f
	xor	$8, $8, $20
4:	nop
	nop
5:	addiu	$10, $10, -1
	bnez	$10, 3b
	nop
	addiu	$5, $5, 1
	bne	$5, $7, 2b
	nop
	nor	$8, $8, $0		/* 5 */
	addu	$16, $16, $8
	addiu	$4, $4, -1
	bnez	$4, 1b
	nop
9:	move	$2, $16
#else
#error unknown KERNEL
#endif
done:
	jr	$23
	nop

	.data
	.align	4
#if KERNEL == 2
src:
	.set	i, 0
	.rept	MEM_BYTES / 4
	.word	(i * 2654435761 + 12345) & 0xffffffff
	.set	i, i + 1
	.endr
	.bss
	.align	4
dst:	.space	MEM_BYTES
#elif KERNEL == 3
crcbuf:
	.set	i, 0
	.rept	CRC_BYTES
	.byte	(i * i * 7 + i * 13 + 5) & 0xff
	.set	i, i + 1
	.endr
#endif
