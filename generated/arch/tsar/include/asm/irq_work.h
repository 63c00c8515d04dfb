/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/tsar/include/asm/irq_work.h: edit that
 * file.
 */
/*
 * irq_work has its own interrupt on SMP: arch_irq_work_raise() sends this
 * CPU a WTI IPI (kernel/smp.c). Said otherwise (asm-generic's default),
 * irq_work_sync() sleeps until the work is done and then always waits for
 * an RCU grace period, even with no work pending; perf frees each
 * inherited event of an exiting child that way: tens of milliseconds of a
 * fork + exit with `perf stat` (docs/figures.md).
 */
#ifndef _ASM_TSAR_IRQ_WORK_H
#define _ASM_TSAR_IRQ_WORK_H

static inline bool arch_irq_work_has_interrupt(void)
{
	return IS_ENABLED(CONFIG_SMP);
}

#endif /* _ASM_TSAR_IRQ_WORK_H */
