/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kretprobe trampoline: a probed function returns here (its ra was
 * replaced at entry, arch_prepare_kretprobe()). Save a struct pt_regs
 * on the stack, as an exception would, for the return handlers
 * ($retval is v0), run them through trampoline_probe_handler(), which
 * gives the real return address, restore the registers the handlers may
 * have changed and return there.
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/cp0.h>
#include <asm/regdef.h>

	.set	noreorder
	.set	noat

	.section .kprobes.text, "ax"

SYM_CODE_START(__kretprobe_trampoline)
	addiu	sp, sp, -PT_SIZE
	sw	zero, PT_R0(sp)
	sw	$1, PT_R1(sp)
	sw	$2, PT_R2(sp)
	sw	$3, PT_R3(sp)
	sw	$4, PT_R4(sp)
	sw	$5, PT_R5(sp)
	sw	$6, PT_R6(sp)
	sw	$7, PT_R7(sp)
	sw	$8, PT_R8(sp)
	sw	$9, PT_R9(sp)
	sw	$10, PT_R10(sp)
	sw	$11, PT_R11(sp)
	sw	$12, PT_R12(sp)
	sw	$13, PT_R13(sp)
	sw	$14, PT_R14(sp)
	sw	$15, PT_R15(sp)
	sw	$16, PT_R16(sp)
	sw	$17, PT_R17(sp)
	sw	$18, PT_R18(sp)
	sw	$19, PT_R19(sp)
	sw	$20, PT_R20(sp)
	sw	$21, PT_R21(sp)
	sw	$22, PT_R22(sp)
	sw	$23, PT_R23(sp)
	sw	$24, PT_R24(sp)
	sw	$25, PT_R25(sp)
	sw	$28, PT_R28(sp)
	addiu	t0, sp, PT_SIZE			/* the caller's sp */
	sw	t0, PT_R29(sp)
	sw	$30, PT_R30(sp)
	sw	$31, PT_R31(sp)
	mflo	t0
	sw	t0, PT_LO(sp)
	mfhi	t0
	sw	t0, PT_HI(sp)
	/* A kernel-mode frame: user_mode() must be false for the handlers. */
	mfc0	t0, CP0_STATUS
	sw	t0, PT_STATUS(sp)
	sw	zero, PT_CAUSE(sp)
	sw	zero, PT_BADVADDR(sp)
	la	t0, __kretprobe_trampoline
	sw	t0, PT_EPC(sp)
	li	t0, -1				/* not a system call */
	sw	t0, PT_ORIG_V0(sp)

	jal	trampoline_probe_handler
	 move	a0, sp

	move	ra, v0				/* the real return address */
	lw	t0, PT_LO(sp)
	mtlo	t0
	lw	t0, PT_HI(sp)
	mthi	t0
	lw	$1, PT_R1(sp)
	lw	$2, PT_R2(sp)
	lw	$3, PT_R3(sp)
	lw	$4, PT_R4(sp)
	lw	$5, PT_R5(sp)
	lw	$6, PT_R6(sp)
	lw	$7, PT_R7(sp)
	lw	$8, PT_R8(sp)
	lw	$9, PT_R9(sp)
	lw	$10, PT_R10(sp)
	lw	$11, PT_R11(sp)
	lw	$12, PT_R12(sp)
	lw	$13, PT_R13(sp)
	lw	$14, PT_R14(sp)
	lw	$15, PT_R15(sp)
	lw	$16, PT_R16(sp)
	lw	$17, PT_R17(sp)
	lw	$18, PT_R18(sp)
	lw	$19, PT_R19(sp)
	lw	$20, PT_R20(sp)
	lw	$21, PT_R21(sp)
	lw	$22, PT_R22(sp)
	lw	$23, PT_R23(sp)
	lw	$24, PT_R24(sp)
	lw	$25, PT_R25(sp)
	lw	$28, PT_R28(sp)
	lw	$30, PT_R30(sp)
	jr	ra
	 addiu	sp, sp, PT_SIZE
SYM_CODE_END(__kretprobe_trampoline)
