/* ELF seed: print on the TTY, end through the simhelper */
	.set noreorder
	.text
	.globl _start
	.globl __start
_start:
__start:
	la	$8, msg
	li	$9, 0x14000000
1:	lbu	$10, 0($8)
	beqz	$10, 2f
	addiu	$8, $8, 1
	b	1b
	sw	$10, 0($9)
2:	la	$8, counter
	lw	$10, 0($8)
	addiu	$10, $10, 1
	sw	$10, 0($8)
	li	$9, 0x1F000000
	sw	$0, 4($9)
	b	.
	nop
	.data
msg:	.asciz	"hello from a fuzz seed\n"
	.bss
counter: .space 64
