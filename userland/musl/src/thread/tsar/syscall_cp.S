/*
 * long __syscall_cp_asm(volatile int *cancel, long nr, long u, long v,
 *                       long w, long x, long y, long z)
 *
 * A cancellable system call: if *cancel is set before the syscall
 * instruction (between __cp_begin and __cp_end a cancellation signal
 * moves the pc to __cp_cancel), call __cancel instead. Arguments u..z
 * become the call's a0..a3 and the two stack words at 16(sp).
 */
#include "syscall_conv.h"

	.set noreorder
	.text
	.global __cp_begin
	.hidden __cp_begin
	.global __cp_end
	.hidden __cp_end
	.global __cp_cancel
	.hidden __cp_cancel
	.hidden __cancel
	.global __syscall_cp_asm
	.hidden __syscall_cp_asm
	.type __syscall_cp_asm, @function
__syscall_cp_asm:
	subu $sp, $sp, 32
__cp_begin:
	lw $4, 0($4)
	bne $4, $0, __cp_cancel
	move $2, $5
	move $4, $6
	move $5, $7
	lw $6, 48($sp)
	lw $7, 52($sp)
	lw $8, 56($sp)
	lw $9, 60($sp)
	sw $8, 16($sp)
	sw $9, 20($sp)
	syscall
__cp_end:
#if SYSCALL_A3_FLAG
	beq $7, $0, 1f
	addu $sp, $sp, 32
	subu $2, $0, $2
#else
	addu $sp, $sp, 32
#endif
1:	jr $ra
	nop

__cp_cancel:
	addu $sp, $sp, 32
	lui $25, %hi(__cancel)
	addiu $25, $25, %lo(__cancel)
	jr $25
	nop
	.size __syscall_cp_asm, . - __syscall_cp_asm
