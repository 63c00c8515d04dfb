/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The linked vDSO image inside the kernel, page aligned: kernel/vdso.c
 * maps its pages into every process. VDSO_IMAGE: its path (Makefile).
 */

#include <linux/linkage.h>
#include <asm/page.h>

	__PAGE_ALIGNED_DATA

	.globl	vdso_start, vdso_end
	.balign	PAGE_SIZE
vdso_start:
	.incbin	VDSO_IMAGE
	.balign	PAGE_SIZE
vdso_end:

	.previous
