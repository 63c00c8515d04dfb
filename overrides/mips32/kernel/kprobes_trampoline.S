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
#include <asm/stackframe.h>

	.set	noreorder
	.set	noat

	.section .kprobes.text, "ax"

SYM_CODE_START(__kretprobe_trampoline)
	addiu	sp, sp, -PT_SIZE
	sw	zero, PT_R0(sp)
	SAVE_GPRS t0				/* t0 ($8) is saved first */
	addiu	t0, sp, PT_SIZE			/* the caller's sp */
	sw	t0, PT_R29(sp)
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

	sw	v0, PT_R31(sp)			/* the real return address */
	RESTORE_GPRS t0
	jr	ra
	 addiu	sp, sp, PT_SIZE
SYM_CODE_END(__kretprobe_trampoline)
