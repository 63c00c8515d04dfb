/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spinlocks: asm-generic's ticket lock (atomic_fetch_add on the ll/sc
 * atomics) and queued rwlocks. Its spin loops need cpu_relax().
 */
#ifndef _ASM_TSAR_SPINLOCK_H
#define _ASM_TSAR_SPINLOCK_H

#include <asm/processor.h>
#include <asm-generic/spinlock.h>

#endif /* _ASM_TSAR_SPINLOCK_H */
