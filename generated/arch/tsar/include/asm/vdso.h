/* SPDX-License-Identifier: GPL-2.0 */
/* Copied by portkit from overrides/mips32/include/asm/vdso.h: edit that file. */
#ifndef _ASM_MIPS32_VDSO_H
#define _ASM_MIPS32_VDSO_H

struct mm_struct;

/* The linked image (vdso/vdso-image.S), whole pages. */
extern char vdso_start[], vdso_end[];

/*
 * Map the vDSO and its data page into mm (kernel/vdso.c), recording the
 * image's address in mm->context.vdso; mm's mmap lock held for writing.
 */
int vdso_map(struct mm_struct *mm);

#endif /* _ASM_MIPS32_VDSO_H */
