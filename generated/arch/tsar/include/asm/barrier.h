/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/barrier.h: edit that
 * file.
 */
#ifndef _ASM_TSAR_BARRIER_H
#define _ASM_TSAR_BARRIER_H

/*
 * The L1 data cache is write-through with a write buffer; "sync" waits
 * until the buffer has drained. Loads are performed in order.
 */
#define __sync()	__asm__ __volatile__("sync" : : : "memory")

#define mb()		__sync()
#define wmb()		__sync()
#define rmb()		barrier()

#include <asm-generic/barrier.h>

#endif /* _ASM_TSAR_BARRIER_H */
