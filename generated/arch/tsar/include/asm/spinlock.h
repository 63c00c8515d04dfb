/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/spinlock.h: edit that
 * file.
 */
/*
 * Spinlocks: queued (MCS) spinlocks and queued rwlocks from asm-generic.
 * A waiter spins on its own per-CPU node rather than on the shared lock
 * word, which matters on a many-core mesh. xchg_tail() swaps the 16-bit
 * tail: __xchg_small() in asm/cmpxchg.h does that with ll/sc on the
 * enclosing word.
 */
#ifndef _ASM_MIPS32_SPINLOCK_H
#define _ASM_MIPS32_SPINLOCK_H

#include <asm/processor.h>
#include <asm/qspinlock.h>
#include <asm/qrwlock.h>

#endif /* _ASM_MIPS32_SPINLOCK_H */
