/* tsar-emu boot stub for the benchmarks: kernel mode with the MMU ON.
 * PT1 (2048 words, 8 KiB aligned) with 2 MiB PTE1 big pages, identity:
 *   0x00400000 code  V|C|X|G      0x00800000 data  V|C|W|G
 *   TTY (0x14000000), simhelper (0x1F000000): V|W|G (uncached)
 * PTPR = PA >> 13 (mtc2 $0), MODE = 0xF (mtc2 $1); tsar-hardware.md 2.2/2.3. */
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
	li	$9, V | C | X | G | (0x00400000 >> 21)
	sw	$9, (0x00400000 >> 21) * 4($8)
	li	$9, V | C | W | G | (0x00800000 >> 21)
	sw	$9, (0x00800000 >> 21) * 4($8)
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

	.section .pt,"aw",@nobits
	.align	13
pt1:	.space	8192
