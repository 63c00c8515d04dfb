/* tsar-emu boot stub for the benchmarks: kernel mode with the MMU ON.
 * PT1 (2048 words, 8 KiB aligned) with 2 MiB PTE1 big pages, identity
 * (-DPAGES4K=1: code and data through PT2s of 4 KiB pages instead):
 *   0x00400000 code  V|C|X|G      0x00800000 data  V|C|W|G
 *   TTY (0x14000000), simhelper (0x1F000000): V|W|G (uncached)
 * PTPR = PA >> 13 (mtc2 $0), MODE = 0xF (mtc2 $1); tsar-hardware.md 2.2/2.3. */
#ifndef PAGES4K
#define PAGES4K 0
#endif
#define TTY	0x14000000
#define SIMHELPER 0x1F000000
#define V 0x80000000
#define C 0x08000000
#define W 0x04000000
#define X 0x02000000
#define G 0x00800000
	.set noreorder
	.section .text.start,"ax",@progbits
	.globl _start
_start:
	mtc0	$0, $12			/* Status = 0: kernel, BEV = ERL = 0 */
	la	$8, pt1
	addiu	$9, $8, 8192
1:	sw	$0, 0($8)
	addiu	$8, $8, 4
	bne	$8, $9, 1b
	nop
	la	$8, pt1
#if PAGES4K
	/* code and data through PT2s of 4 KiB pages (PTD1 = V|T|PA>>12) */
	la	$10, pt2
	li	$11, V | C | X | G
	li	$12, 0x00400000 >> 12
	jal	fill_pt2
	nop
	srl	$9, $10, 12
	li	$13, 0xC0000000
	or	$9, $9, $13
	sw	$9, (0x00400000 >> 21) * 4($8)
	la	$10, pt2 + 4096
	li	$11, V | C | W | G
	li	$12, 0x00800000 >> 12
	jal	fill_pt2
	nop
	srl	$9, $10, 12
	or	$9, $9, $13
	sw	$9, (0x00800000 >> 21) * 4($8)
#else
	li	$9, V | C | X | G | (0x00400000 >> 21)
	sw	$9, (0x00400000 >> 21) * 4($8)
	li	$9, V | C | W | G | (0x00800000 >> 21)
	sw	$9, (0x00800000 >> 21) * 4($8)
#endif
	li	$9, V | W | G | (TTY >> 21)
	sw	$9, (TTY >> 21) * 4($8)
	li	$9, V | W | G | (SIMHELPER >> 21)
	sw	$9, (SIMHELPER >> 21) * 4($8)
	sync
	srl	$8, $8, 13
	mtc2	$8, $0			/* PTPR */
	li	$8, 0xF
	mtc2	$8, $1			/* MODE: ITLB, DTLB, I$, D$ on */
	nop
	nop
	jal	bench_main
	nop
	move	$16, $2
	la	$17, msg
	jal	fmt_chk
	nop
	li	$8, TTY
1:	lbu	$9, 0($17)
	beqz	$9, 2f
	nop
	sw	$9, 0($8)
	b	1b
	addiu	$17, $17, 1
2:	li	$8, SIMHELPER
	sw	$0, 4($8)		/* END_WITH_RETVAL 0 */
	b	.
	nop

#if PAGES4K
/* fill_pt2: PT2 at $10 = 512 x {flags $11, PPN $12 + i}; clobbers $14, $15 */
fill_pt2:
	move	$14, $10
	addiu	$15, $12, 512
1:	sw	$11, 0($14)
	sw	$12, 4($14)
	addiu	$12, $12, 1
	bne	$12, $15, 1b
	addiu	$14, $14, 8
	jr	$31
	nop
#endif

	.section .pt,"aw",@nobits
	.align	13
pt1:	.space	8192
pt2:	.space	8192
