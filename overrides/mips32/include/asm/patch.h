/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing one instruction into kernel or module text, read-only or not
 * (kernel/patch.c).
 */
#ifndef _ASM_MIPS32_PATCH_H
#define _ASM_MIPS32_PATCH_H

#include <linux/types.h>

int patch_insn_write(void *addr, u32 insn);

#endif /* _ASM_MIPS32_PATCH_H */
