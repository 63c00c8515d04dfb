/* qemu-system-mipsel -M malta bare-metal stub: code and data in kseg0
 * (separate pages), output on the ISA 16550 UART (kseg1 0xB80003F8),
 * end by writing 0x42 to the board's SOFTRES register (0xBF000500): with
 * -no-reboot QEMU then exits. */
	.set noreorder
	.section .text.start,"ax",@progbits
	.globl _start
	.globl __start
_start:
__start:
	jal	bench_main
	nop
	move	$16, $2
	la	$17, msg
	jal	fmt_chk
	nop
	li	$8, 0xB80003F8
1:	lbu	$9, 0($17)
	beqz	$9, 2f
	nop
	sb	$9, 0($8)
	b	1b
	addiu	$17, $17, 1
2:	li	$8, 0xBF000500
	li	$9, 0x42
	sw	$9, 0($8)
	b	.
	nop
