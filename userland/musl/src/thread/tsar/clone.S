/*
 * int __clone(int (*fn)(void *), void *stack, int flags, void *arg,
 *             pid_t *ptid, void *tls, pid_t *ctid)
 *
 * TSAR's clone takes MIPS's argument order (CLONE_BACKWARDS): flags,
 * stack, ptid, tls, then ctid as the fifth argument on the stack.
 * Returns the child's tid or -errno; the child calls fn(arg), then exit.
 */
#include <bits/syscall.h>
#include "syscall_conv.h"

	.set noreorder
	.text
	.global __clone
	.hidden __clone
	.type __clone, @function
__clone:
	/* fn and arg go on the child's stack, 8-byte aligned, leaving the
	 * o32 argument save area fn may use. */
	and $5, $5, -8
	subu $5, $5, 16
	sw $4, 0($5)
	sw $7, 4($5)
	move $4, $6
	lw $6, 16($sp)
	lw $7, 20($sp)
	lw $8, 24($sp)
	subu $sp, $sp, 32
	sw $8, 16($sp)
	li $2, SYS_clone
	syscall
	/* the child has the new stack: only the parent pops its frame */
#if SYSCALL_A3_FLAG
	bne $7, $0, 2f
	nop
#else
	bltz $2, 3f
	nop
#endif
	beq $2, $0, 1f
	nop
3:	jr $ra
	addu $sp, $sp, 32
2:	addu $sp, $sp, 32
	jr $ra
	subu $2, $0, $2

1:	/* child: sp is the new stack */
	lw $25, 0($sp)
	lw $4, 4($sp)
	jalr $25
	nop
	move $4, $2
	li $2, SYS_exit
	syscall
	.size __clone, . - __clone
