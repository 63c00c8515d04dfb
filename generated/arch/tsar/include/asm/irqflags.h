/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/irqflags.h: edit that
 * file.
 */
/*
 * Interrupt masking through Status.IE. di/ei are atomic read-modify-write
 * of Status (a Release 2 pair that TSAR implements), so no sequence can
 * be torn by an interrupt.
 */
#ifndef _ASM_TSAR_IRQFLAGS_H
#define _ASM_TSAR_IRQFLAGS_H

#include <linux/types.h>
#include <asm/cp0.h>

static __always_inline unsigned long arch_local_save_flags(void)
{
	return read_c0_status();
}

static __always_inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	mips32r2\n"
		"	di	%0\n"
		"	ehb\n"
		"	.set	pop\n"
		: "=r" (flags) : : "memory");
	return flags;
}

static __always_inline void arch_local_irq_disable(void)
{
	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	mips32r2\n"
		"	di\n"
		"	ehb\n"
		"	.set	pop\n"
		: : : "memory");
}

static __always_inline void arch_local_irq_enable(void)
{
	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	mips32r2\n"
		"	ei\n"
		"	ehb\n"
		"	.set	pop\n"
		: : : "memory");
}

static __always_inline int arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & ST_IE);
}

static __always_inline int arch_irqs_disabled(void)
{
	return arch_irqs_disabled_flags(arch_local_save_flags());
}

static __always_inline void arch_local_irq_restore(unsigned long flags)
{
	if (arch_irqs_disabled_flags(flags))
		arch_local_irq_disable();
	else
		arch_local_irq_enable();
}

#endif /* _ASM_TSAR_IRQFLAGS_H */
