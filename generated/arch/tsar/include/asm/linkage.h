/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/linkage.h: edit that
 * file.
 */
#ifndef _ASM_TSAR_LINKAGE_H
#define _ASM_TSAR_LINKAGE_H

/* Word-align symbols; pad with zeros (a MIPS nop), not x86's 0x90. */
#define __ALIGN		.align 2
#define __ALIGN_STR	".align 2"

#endif /* _ASM_TSAR_LINKAGE_H */
