// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/tsar/kernel/irq.c: edit that file. */
/*
 * Interrupts come from the XICU through one CPU line; the irqchip driver
 * found in the device tree installs the top-level handler.
 */

#include <linux/init.h>
#include <linux/irqchip.h>

#include <asm/setup.h>

void __init init_IRQ(void)
{
	irqchip_init();
}
