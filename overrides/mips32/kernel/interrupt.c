// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupt exception (entry.S): the core's own source first, the
 * performance counters' overflow (Cause.PCI), then the board's irqchip
 * driver, which finds its sources itself.
 */
#include <linux/hardirq.h>
#include <linux/irq.h>
#include <linux/linkage.h>

#include <asm/cp0.h>
#include <asm/irq_regs.h>
#include <asm/perf_event.h>
#include <asm/traps.h>

asmlinkage void noinstr do_interrupt(struct pt_regs *regs)
{
	struct pt_regs *old_regs;

	irq_enter();
	old_regs = set_irq_regs(regs);
#ifdef CONFIG_HW_PERF_EVENTS
	if (read_c0_cause() & CAUSE_PCI)
		mips32_pmu_handle_irq(regs);
#endif
	handle_arch_irq(regs);
	set_irq_regs(old_regs);
	irq_exit();
}
