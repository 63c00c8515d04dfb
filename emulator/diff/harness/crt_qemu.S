/* QEMU user-mode (qemu-mipsel) crt for the differential tests: run the
   generated sequences, then write(2) the state records to stdout and exit. */
	.set noreorder
	.section .text.start,"ax",@progbits
	.globl _start
_start:
	j	seq_start
	nop

	.globl harness_done
harness_done:
	la	$5, seq_state_begin
	la	$6, seq_state_end
	subu	$6, $6, $5
1:	li	$2, 4004		/* write(1, a1, a2) */
	li	$4, 1
	syscall
	bnez	$7, 9f			/* a3 != 0: error */
	nop
	blez	$2, 9f
	nop
	addu	$5, $5, $2
	subu	$6, $6, $2
	bgtz	$6, 1b
	nop
	li	$2, 4001		/* exit(0) */
	li	$4, 0
	syscall
9:	li	$2, 4001		/* exit(2) */
	li	$4, 2
	syscall
