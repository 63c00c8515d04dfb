/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/spinlock_types.h: edit
 * that file.
 */
#ifndef _ASM_MIPS32_SPINLOCK_TYPES_H
#define _ASM_MIPS32_SPINLOCK_TYPES_H

#include <asm-generic/qspinlock_types.h>
#include <asm-generic/qrwlock_types.h>

#endif /* _ASM_MIPS32_SPINLOCK_TYPES_H */
