/* portkit rv32-sbi: M-mode entry, trap entry, the park loop, entry to S.
 * QEMU virt's reset vector (MROM at 0x1000) starts every hart here with
 * a0 = mhartid, a1 = the DTB it built, a2 = its fw_dynamic_info. */
#include "sbi.h"

	.section .text.entry, "ax"
	.globl _start
_start:
	csrw	mie, zero
	/* Probing CSRs that may not exist (menvcfgh) traps here: skip them. */
	la	t0, early_trap
	csrw	mtvec, t0
	li	t1, MAX_HARTS
	bgeu	a0, t1, 1f		/* a hart we have no stack for: stay off */
	/* This hart's M stack: hart_stacks + (hartid + 1) << STACK_SHIFT.
	 * mscratch keeps its top, for traps from S (trap_vector). */
	la	sp, hart_stacks
	addi	t0, a0, 1
	slli	t0, t0, STACK_SHIFT
	add	sp, sp, t0
	csrw	mscratch, sp
	/* The first hart to get here boots the kernel; the others park
	 * until HSM hart_start. boot_lottery is in .data, which QEMU loads
	 * again at every reset (SRST reboot), so no .bss clearing is needed. */
	la	t0, boot_lottery
	li	a3, 1
	amoswap.w a3, a3, (t0)
	call	shim_main		/* (hartid, dtb, dyninfo, lost) */
1:	wfi
	j	1b

	.align	2
early_trap:
	csrr	t0, mepc
	addi	t0, t0, 4
	csrw	mepc, t0
	mret

/* Traps from S (and U, for what is not delegated): SBI calls, M timer
 * and software interrupts. Swap to the M stack, save the GPRs, call C. */
	.align	2
	.globl	trap_vector
trap_vector:
	csrrw	sp, mscratch, sp
	addi	sp, sp, -FRAME_SIZE
	sw	x1, 1*4(sp)
	.irp	n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	sw	x\n, \n*4(sp)
	.endr
	csrr	t0, mscratch		/* the interrupted sp */
	sw	t0, 2*4(sp)
	mv	a0, sp
	call	trap_handler
	lw	x1, 1*4(sp)
	.irp	n, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	lw	x\n, \n*4(sp)
	.endr
	addi	sp, sp, FRAME_SIZE
	csrrw	sp, mscratch, sp	/* back to the S sp; mscratch = M top */
	mret

/* enter_s(hartid, arg1, addr): to S-mode at addr with a0 = hartid,
 * a1 = arg1 (the DTB, or HSM's opaque), satp = 0 (no translation) and
 * S interrupts off, as the SBI spec's boot and hart_start ask. */
	.globl	enter_s
enter_s:
	csrw	mepc, a2
	li	t0, (3 << 11) | (1 << 7) | (1 << 1) | (1 << 5)	/* MPP, MPIE, SIE, SPIE */
	csrc	mstatus, t0
	li	t0, (1 << 11)		/* MPP = S */
	csrs	mstatus, t0
	csrw	satp, zero
	csrw	stvec, zero
	csrw	sie, zero
	mret

/* park(): a stopped hart (never started, or HSM hart_stop) waits here on a
 * fresh stack for hart_start's M software interrupt. */
	.globl	park
park:
	csrr	a0, mhartid
	la	sp, hart_stacks
	addi	t0, a0, 1
	slli	t0, t0, STACK_SHIFT
	add	sp, sp, t0
	csrw	mscratch, sp
	call	park_loop
1:	j	1b

	.section .bss
	.align	4
hart_stacks:
	.space	MAX_HARTS << STACK_SHIFT
