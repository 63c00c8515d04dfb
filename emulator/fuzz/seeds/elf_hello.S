/* ELF seed: print on the TTY, end through the simhelper (hwdesc.h: the spec) */
#include "runtime.h"
	.set noreorder
	.text
	.globl _start
	.globl __start
_start:
__start:
	la	$8, msg
	li	$9, TTY_BASE
1:	lbu	$10, 0($8)
	beqz	$10, 2f
	addiu	$8, $8, 1
	b	1b
	sw	$10, TTY_WRITE($9)
2:	la	$8, counter
	lw	$10, 0($8)
	addiu	$10, $10, 1
	sw	$10, 0($8)
	li	$9, SIMHELPER_BASE
	sw	$0, SIMHELPER_END_WITH_RETVAL($9)
	b	.
	nop
	.data
msg:	.asciz	"hello from a fuzz seed\n"
	.bss
counter: .space 64
