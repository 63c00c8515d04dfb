/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/stackframe.h: edit that
 * file.
 */
/*
 * The general registers of a struct pt_regs, saved and restored by the
 * exception entry (kernel/entry.S) and by the kretprobe trampoline, which
 * builds the same frame. $0, $26/$27 (k0/k1, lost at every exception) and
 * $29 (sp, which the callers compute) are left to the caller; `tmp` carries
 * lo and hi and must already be saved (or not be needed) when it is used.
 * PT_R<n> are preprocessor names, so the loops index regs[] from PT_R0.
 */
#ifndef _ASM_MIPS32_STACKFRAME_H
#define _ASM_MIPS32_STACKFRAME_H

#include <asm/asm-offsets.h>

#ifdef __ASSEMBLY__

	.macro	SAVE_GPRS tmp
	.irp	n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 28, 30, 31
	sw	$\n, PT_R0 + 4 * \n(sp)
	.endr
	mflo	\tmp
	sw	\tmp, PT_LO(sp)
	mfhi	\tmp
	sw	\tmp, PT_HI(sp)
	.endm

	.macro	RESTORE_GPRS tmp
	lw	\tmp, PT_LO(sp)
	mtlo	\tmp
	lw	\tmp, PT_HI(sp)
	mthi	\tmp
	.irp	n, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 28, 30, 31
	lw	$\n, PT_R0 + 4 * \n(sp)
	.endr
	.endm

#endif /* __ASSEMBLY__ */
#endif /* _ASM_MIPS32_STACKFRAME_H */
